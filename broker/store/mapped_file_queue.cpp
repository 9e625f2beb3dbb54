#include "broker/store/mapped_file_queue.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace fs = std::filesystem;

namespace mqdesk::store {

namespace {

bool isOffsetName(std::string_view name)
{
    return name.size() == 20 && std::all_of(name.begin(), name.end(), [](char c) {
               return c >= '0' && c <= '9';
           });
}

} // namespace

MappedFileQueue::MappedFileQueue(std::string directory, int64_t fileSize, MappedFile::Reservation reservation)
    : directory_(std::move(directory)), fileSize_(fileSize), reservation_(reservation)
{}

MappedFileQueue::~MappedFileQueue() = default;

bool MappedFileQueue::load(std::string &error)
{
    std::vector<std::string> names;
    if (!listStoreFileNames(directory_, isOffsetName, "20-digit offsets", names, error))
        return false;
    std::error_code ec;

    if (!names.empty()) {
        const std::string lastPath = directory_ + "/" + names.back();
        if (fs::file_size(lastPath, ec) == 0 && !ec) {
            if (!fs::remove(lastPath, ec) || ec) {
                error = "cannot remove the empty file " + lastPath + ": " + ec.message();
                return false;
            }
            names.pop_back();
        }
    }

    std::vector<std::shared_ptr<MappedFile>> loaded;
    for (const std::string &name : names) {
        int64_t offset = 0;
        if (std::from_chars(name.data(), name.data() + name.size(), offset).ec != std::errc()) {
            error = directory_ + "/" + name + ": the offset in its name is out of range";
            return false;
        }
        const std::string path = directory_ + "/" + name;
        if (offset % fileSize_ != 0) {
            error = path + ": offset " + std::to_string(offset) + " is not a multiple of the "
                    + std::to_string(fileSize_)
                    + "-byte file size this store is configured for (mappedFileSizeCommitLog)";
            return false;
        }
        if (!loaded.empty() && offset != loaded.back()->fileFromOffset() + fileSize_) {
            error = path + ": expected the next file to start at "
                    + std::to_string(loaded.back()->fileFromOffset() + fileSize_)
                    + " (a file is missing between " + loaded.back()->path() + " and this one)";
            return false;
        }
        auto file = MappedFile::open(path, offset, fileSize_, false, error, reservation_);
        if (!file) {
            if (error.find("configured for") != std::string::npos)
                error += " (mappedFileSizeCommitLog); set it to the size the store was written with";
            return false;
        }
        file->setPositions(fileSize_);
        loaded.push_back(std::move(file));
    }
    std::lock_guard lock(filesMutex_);
    files_ = std::move(loaded);
    return true;
}

std::shared_ptr<MappedFile> MappedFileQueue::lastFile() const
{
    std::lock_guard lock(filesMutex_);
    return files_.empty() ? nullptr : files_.back();
}

std::shared_ptr<MappedFile> MappedFileQueue::firstFile() const
{
    std::lock_guard lock(filesMutex_);
    return files_.empty() ? nullptr : files_.front();
}

std::shared_ptr<MappedFile> MappedFileQueue::fileAt(size_t index) const
{
    std::lock_guard lock(filesMutex_);
    return index < files_.size() ? files_[index] : nullptr;
}

size_t MappedFileQueue::fileCount() const
{
    std::lock_guard lock(filesMutex_);
    return files_.size();
}

std::vector<std::shared_ptr<MappedFile>> MappedFileQueue::files() const
{
    std::lock_guard lock(filesMutex_);
    return files_;
}

std::shared_ptr<MappedFile> MappedFileQueue::findFileByOffset(int64_t offset) const
{
    std::lock_guard lock(filesMutex_);
    if (files_.empty() || offset < files_.front()->fileFromOffset())
        return nullptr;
    const auto index = static_cast<size_t>((offset - files_.front()->fileFromOffset()) / fileSize_);
    return index < files_.size() ? files_[index] : nullptr;
}

std::shared_ptr<MappedFile> MappedFileQueue::createFile(int64_t startOffset, std::string &error)
{
    auto file = MappedFile::open(directory_ + "/" + offsetToFileName(startOffset), startOffset,
                                 fileSize_, true, error, reservation_);
    if (!file)
        return nullptr;
    std::shared_ptr<MappedFile> shared = std::move(file);
    std::lock_guard lock(filesMutex_);
    files_.push_back(shared);
    return shared;
}

std::shared_ptr<MappedFile> MappedFileQueue::addFile(std::unique_ptr<MappedFile> file)
{
    std::shared_ptr<MappedFile> shared = std::move(file);
    std::lock_guard lock(filesMutex_);
    files_.push_back(shared);
    return shared;
}

int64_t MappedFileQueue::minOffset() const
{
    std::lock_guard lock(filesMutex_);
    return files_.empty() ? 0 : files_.front()->fileFromOffset();
}

int64_t MappedFileQueue::maxOffset() const
{
    const auto last = lastFile();
    return last ? last->fileFromOffset() + last->readPosition() : 0;
}

int64_t MappedFileQueue::maxWrotePosition() const
{
    const auto last = lastFile();
    return last ? last->fileFromOffset() + last->wrotePosition() : 0;
}

MappedFileQueue::SyncResult MappedFileQueue::flush(int leastPages)
{
    std::lock_guard lock(flushMutex_);
    SyncResult result;
    if (flushFailed()) {
        // Never retried into success (fsyncgate): after a failed fdatasync the kernel may have
        // dropped the dirty pages and cleared the error, so a later "successful" sync proves
        // nothing about the bytes the failed one covered.
        result.failed = true;
        result.error = flushFailure();
        return result;
    }
    const int64_t where = flushedWhere();
    auto file = findFileByOffset(where);
    if (!file) {
        // flushedWhere sits exactly at the end of the last file (or the queue is empty).
        return result;
    }
    if (flushFault_) {
        if (std::string fault = flushFault_(); !fault.empty())
            result.error = file->path() + ": " + fault;
    }
    const int64_t timestamp = file->lastStoreTimestamp();
    const int64_t position = result.error.empty() ? file->flush(leastPages, result.error) : -1;
    if (position < 0) {
        result.failed = true;
        result.error += "; nothing past offset " + std::to_string(where)
                        + " is known to be on disk, and no later flush is trusted until the store is reopened";
        std::lock_guard failureLock(failureMutex_);
        failure_ = result.error;
        failed_.store(true, std::memory_order_release);
        return result;
    }
    const int64_t newWhere = file->fileFromOffset() + position;
    result.bytes = newWhere - where;
    flushedWhere_.store(newWhere, std::memory_order_release);
    if (leastPages == 0 && result.bytes > 0)
        storeTimestamp_.store(timestamp, std::memory_order_release);
    return result;
}

MappedFileQueue::SyncResult MappedFileQueue::commit(int leastPages)
{
    std::lock_guard lock(commitMutex_);
    SyncResult result;
    const int64_t where = committedWhere();
    auto file = findFileByOffset(where);
    if (!file)
        return result;
    const int64_t position = file->commit(leastPages, result.error);
    if (position < 0) {
        result.failed = true;
        return result;
    }
    const int64_t newWhere = file->fileFromOffset() + position;
    result.bytes = newWhere - where;
    committedWhere_.store(newWhere, std::memory_order_release);
    return result;
}

bool MappedFileQueue::deleteFirstFile(std::string &error)
{
    std::shared_ptr<MappedFile> file;
    {
        std::lock_guard lock(filesMutex_);
        if (files_.empty())
            return true;
        file = files_.front();
        files_.erase(files_.begin());
    }
    return file->destroy(error) && syncDirectory(directory_, error);
}

bool MappedFileQueue::deleteLastFile(std::string &error)
{
    std::shared_ptr<MappedFile> file;
    {
        std::lock_guard lock(filesMutex_);
        if (files_.empty())
            return true;
        file = files_.back();
        files_.pop_back();
    }
    if (!file->destroy(error) || !syncDirectory(directory_, error))
        return false;
    const int64_t end = maxOffset();
    if (flushedWhere() > end)
        flushedWhere_.store(end, std::memory_order_release);
    if (committedWhere() > end)
        committedWhere_.store(end, std::memory_order_release);
    return true;
}

std::string MappedFileQueue::flushFailure() const
{
    std::lock_guard lock(failureMutex_);
    return failure_;
}

void MappedFileQueue::setFlushFaultForTesting(FlushFault fault)
{
    std::lock_guard lock(flushMutex_);
    flushFault_ = std::move(fault);
}

bool MappedFileQueue::truncateDirtyFiles(int64_t offset, std::string &error)
{
    std::vector<std::shared_ptr<MappedFile>> doomed;
    std::shared_ptr<MappedFile> tail;
    {
        std::lock_guard lock(filesMutex_);
        while (!files_.empty() && files_.back()->fileFromOffset() > offset) {
            doomed.push_back(files_.back());
            files_.pop_back();
        }
        // An offset at the very end of a full file leaves that file full; the next append
        // creates the following file.
        if (!files_.empty())
            tail = files_.back();
    }
    for (auto &file : doomed) {
        if (!file->destroy(error))
            return false;
    }
    if (!doomed.empty() && !syncDirectory(directory_, error))
        return false;
    if (tail) {
        const int64_t position = offset - tail->fileFromOffset();
        if (position < tail->fileSize() && !tail->zeroFrom(position, error))
            return false;
        tail->setPositions(position);
    }
    flushedWhere_.store(offset, std::memory_order_release);
    committedWhere_.store(offset, std::memory_order_release);
    return true;
}

} // namespace mqdesk::store
