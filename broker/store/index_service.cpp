#include "broker/store/index_service.h"

#include "broker/common/clock.h"
#include "broker/common/message.h"
#include "broker/store/store_checkpoint.h"
#include "broker/store/store_config.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <optional>

namespace fs = std::filesystem;

namespace mqdesk::store {

namespace {

constexpr size_t kNameLength = 17; // yyyyMMddHHmmssSSS

bool isIndexFileName(std::string_view name)
{
    // RocketMQ accepts any name Long.parseLong takes; ours are 17 digits.
    return !name.empty() && name.size() <= 19
           && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The epoch milliseconds a 17-digit name stands for in the local zone (inverse of
// indexFileName), or nullopt when it is not a valid time.
std::optional<int64_t> parseIndexFileName(const std::string &name)
{
    if (name.size() != kNameLength || !isIndexFileName(name))
        return std::nullopt;
    const auto field = [&name](size_t at, size_t width) { return std::stoi(name.substr(at, width)); };
    std::tm tm{};
    tm.tm_year = field(0, 4) - 1900;
    tm.tm_mon = field(4, 2) - 1;
    tm.tm_mday = field(6, 2);
    tm.tm_hour = field(8, 2);
    tm.tm_min = field(10, 2);
    tm.tm_sec = field(12, 2);
    tm.tm_isdst = -1;
    const std::time_t seconds = std::mktime(&tm);
    if (seconds == static_cast<std::time_t>(-1))
        return std::nullopt;
    return int64_t{seconds} * 1000 + field(14, 3);
}

std::string buildKey(std::string_view topic, std::string_view key)
{
    std::string out;
    out.reserve(topic.size() + 1 + key.size());
    out.append(topic).append(1, '#').append(key);
    return out;
}

} // namespace

std::string indexFileName(int64_t epochMillis)
{
    int64_t millis = epochMillis % 1000;
    std::time_t seconds = static_cast<std::time_t>(epochMillis / 1000);
    if (millis < 0) {
        millis += 1000;
        --seconds;
    }
    std::tm tm{};
    localtime_r(&seconds, &tm);
    char name[80]; // room for any int fields, though a real time gives 17 characters
    std::snprintf(name, sizeof name, "%04d%02d%02d%02d%02d%02d%03d", tm.tm_year + 1900, tm.tm_mon + 1,
                  tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(millis));
    return name;
}

IndexService::IndexService(const std::string &storeRootDir, int32_t hashSlotNum, int32_t indexNum)
    : directory_(storeRootDir + "/index"), hashSlotNum_(hashSlotNum), indexNum_(indexNum)
{}

IndexService::IndexService(const MessageStoreConfig &config)
    : IndexService(config.rootDir(), config.maxHashSlotNum, config.maxIndexNum)
{}

// Closing without flush() is what a crash leaves behind; load() copes with it.
IndexService::~IndexService() = default;

bool IndexService::load(bool lastExitOk, StoreCheckpoint &checkpoint, std::string &error)
{
    std::lock_guard writeLock(writeMutex_);
    if (hashSlotNum_ < 1 || indexNum_ < 2) {
        error = "index " + directory_ + ": maxHashSlotNum must be at least 1 and maxIndexNum at least 2";
        return false;
    }
    checkpoint_ = &checkpoint;
    std::vector<std::string> names;
    if (!listStoreFileNames(directory_, isIndexFileName, "yyyyMMddHHmmssSSS", names, error))
        return false;

    std::vector<std::unique_ptr<IndexFile>> loaded;
    for (const std::string &name : names) {
        auto file = IndexFile::load(directory_ + "/" + name, hashSlotNum_, indexNum_, error);
        if (!file)
            return false;
        if (!lastExitOk && file->endTimestamp() > checkpoint.indexMsgTimestamp()) {
            spdlog::info("index: deleting {} (end timestamp {} is after the checkpoint's {}); "
                         "re-dispatch rebuilds it",
                         file->path(), file->endTimestamp(), checkpoint.indexMsgTimestamp());
            if (!file->destroy(error))
                return false;
            continue;
        }
        loaded.push_back(std::move(file));
    }
    std::unique_lock filesLock(filesMutex_);
    files_ = std::move(loaded);
    shutDown_ = false;
    return true;
}

bool IndexService::buildIndex(const DispatchRequest &request, std::string &error)
{
    std::lock_guard writeLock(writeMutex_);
    if (!checkpoint_ || shutDown_) {
        error = "index " + directory_ + (shutDown_ ? " is shut down" : " is not loaded");
        return false;
    }
    std::string flushError; // a failed flush of a full file must not stop indexing
    IndexFile *file = writableFile(error, flushError);
    if (!file)
        return false;
    if (request.commitLogOffset < file->endPhyOffset())
        return true;
    if ((request.sysFlag & common::sysflag::kTransactionMask) == common::sysflag::kTransactionRollback)
        return true;

    if (!request.uniqKey.empty()
        && !putKey(file, buildKey(request.topic, request.uniqKey), request, error, flushError))
        return false;
    const std::string_view keys = request.keys;
    for (size_t start = 0; start < keys.size();) {
        size_t stop = keys.find(' ', start);
        if (stop == std::string_view::npos)
            stop = keys.size();
        if (stop > start) {
            const std::string key = buildKey(request.topic, keys.substr(start, stop - start));
            if (!putKey(file, key, request, error, flushError))
                return false;
        }
        start = stop + 1;
    }
    // RocketMQ 5.5 also indexes the tags, "<topic>#T#<TAGS>" (IndexService#buildIndex): a 5.5
    // broker on this store finds a topic's messages by tag.
    if (!request.tags.empty()) {
        std::string key = request.topic;
        key.append(IndexFile::kTagKeyInfix).append(request.tags);
        if (!putKey(file, key, request, error, flushError))
            return false;
    }
    if (!flushError.empty()) {
        error = std::move(flushError);
        return false;
    }
    return true;
}

// Requires: writeMutex_ held.
bool IndexService::putKey(IndexFile *&file, const std::string &key, const DispatchRequest &request,
                          std::string &error, std::string &flushError)
{
    if (file->putKey(key, request.commitLogOffset, request.storeTimestamp, error))
        return true;
    if (!error.empty()) // the disk, not a full file
        return false;
    file = writableFile(error, flushError);
    if (!file)
        return false;
    if (file->putKey(key, request.commitLogOffset, request.storeTimestamp, error))
        return true;
    if (error.empty())
        error = file->path() + ": a new index file refused an entry";
    return false;
}

// The last file, or a new one when there is none or the last is full (RocketMQ's
// getAndCreateLastIndexFile). A new file following a full one inherits its end values, and the
// full one is flushed and recorded in the checkpoint. RocketMQ does that flush on a short-lived
// thread; here it runs synchronously on the dispatch thread, which stalls dispatch once per
// filled file (every maxIndexNum − 1 keys) for one msync of that file. A failed flush is
// reported in `flushError` but still yields the new file; flush() retries it.
// Requires: writeMutex_ held.
IndexFile *IndexService::writableFile(std::string &error, std::string &flushError)
{
    IndexFile *last = files_.empty() ? nullptr : files_.back().get();
    if (last && !last->isFull())
        return last;
    const std::string name = nextFileName(last ? last->fileName() : std::string());
    if (name.empty()) {
        error = "cannot choose a name for a new index file in " + directory_;
        return nullptr;
    }
    auto created = IndexFile::create(directory_ + "/" + name, hashSlotNum_, indexNum_,
                                     last ? last->endPhyOffset() : 0, last ? last->endTimestamp() : 0, error);
    if (!created)
        return nullptr;
    IndexFile *file = created.get();
    {
        std::unique_lock filesLock(filesMutex_);
        files_.push_back(std::move(created));
    }
    if (last) {
        spdlog::info("index: {} is full, continuing in {}", last->path(), file->path());
        if (std::string flushFailure; !flushFile(*last, flushFailure))
            flushError = std::move(flushFailure);
    }
    return file;
}

// Requires: writeMutex_ held.
bool IndexService::flushFile(IndexFile &file, std::string &error)
{
    if (!file.flush(error))
        return false;
    // Set, not raised: after a clock step back a lower value only makes an abnormal load
    // delete more files, never keep one that was not flushed (RocketMQ's IndexService#flush).
    if (checkpoint_ && file.isFull() && file.endTimestamp() > 0) {
        checkpoint_->setIndexMsgTimestamp(file.endTimestamp());
        return checkpoint_->flush(error);
    }
    return true;
}

// `yyyyMMddHHmmssSSS` of now, moved forward 1 ms at a time past names already taken (two files
// in one millisecond) and past the last file's name (a clock stepped back must not put the new
// file before older ones in load order). Empty when no name is found.
std::string IndexService::nextFileName(const std::string &lastName) const
{
    int64_t millis = common::wallMillis();
    std::string name = indexFileName(millis);
    const bool ordered = lastName.size() == kNameLength;
    if (ordered && name <= lastName) {
        if (const auto lastMillis = parseIndexFileName(lastName))
            millis = *lastMillis;
        name = indexFileName(millis);
    }
    for (int attempt = 0; attempt < 100000; ++attempt) {
        std::error_code ec;
        if ((!ordered || name > lastName) && !fs::exists(directory_ + "/" + name, ec) && !ec)
            return name;
        name = indexFileName(++millis);
    }
    return {};
}

QueryOffsetResult IndexService::queryOffset(std::string_view topic, std::string_view key, int maxNum,
                                            int64_t begin, int64_t end, int maxMsgsNumBatch) const
{
    QueryOffsetResult result;
    maxNum = std::min(maxNum, maxMsgsNumBatch);
    const std::string fullKey = buildKey(topic, key);
    std::shared_lock filesLock(filesMutex_);
    for (size_t i = files_.size(); i > 0; --i) {
        const IndexFile &file = *files_[i - 1];
        if (i == files_.size()) {
            result.indexLastUpdateTimestamp = file.endTimestamp();
            result.indexLastUpdatePhyOffset = file.endPhyOffset();
        }
        if (file.isTimeMatched(begin, end))
            file.selectPhyOffsets(result.phyOffsets, fullKey, maxNum, begin, end);
        if (file.beginTimestamp() < begin || std::ssize(result.phyOffsets) >= maxNum)
            break;
    }
    return result;
}

bool IndexService::deleteExpiredFiles(int64_t commitLogMinOffset, std::string &error)
{
    std::lock_guard writeLock(writeMutex_);
    // Never the last file; stop at the first one still holding offsets at or above the minimum.
    while (files_.size() > 1 && files_.front()->endPhyOffset() < commitLogMinOffset) {
        std::unique_ptr<IndexFile> expired;
        {
            std::unique_lock filesLock(filesMutex_);
            expired = std::move(files_.front());
            files_.erase(files_.begin());
        }
        // No reader can reach the file any more: readers hold filesMutex_ for their whole walk.
        spdlog::info("index: deleting {} (end offset {} < commit log min offset {})", expired->path(),
                     expired->endPhyOffset(), commitLogMinOffset);
        if (!expired->destroy(error))
            return false;
    }
    return true;
}

bool IndexService::truncateDirtyFiles(int64_t commitLogEnd, int &deleted, std::string &error)
{
    std::lock_guard writeLock(writeMutex_);
    deleted = 0;
    // endPhyOffset is the start of the newest record a file indexed (or, for a fresh file, the
    // one it inherited): at or past the end, the file knows records that are gone.
    while (!files_.empty() && files_.back()->endPhyOffset() >= commitLogEnd) {
        std::unique_ptr<IndexFile> dirty;
        {
            std::unique_lock filesLock(filesMutex_);
            dirty = std::move(files_.back());
            files_.pop_back();
        }
        spdlog::info("index: deleting {} (it indexes offsets up to {}, the commit log now ends at {}); "
                     "re-dispatch rebuilds it", dirty->path(), dirty->endPhyOffset(), commitLogEnd);
        if (!dirty->destroy(error))
            return false;
        ++deleted;
    }
    return true;
}

bool IndexService::flush(std::string &error)
{
    std::lock_guard writeLock(writeMutex_);
    bool ok = true;
    for (const auto &file : files_) {
        std::string fileError;
        if (file->hasUnflushedChanges() && !flushFile(*file, fileError) && ok) {
            error = std::move(fileError); // report the first failure, still try the others
            ok = false;
        }
    }
    return ok;
}

bool IndexService::shutdown(std::string &error)
{
    const bool flushed = flush(error);
    std::lock_guard writeLock(writeMutex_);
    std::unique_lock filesLock(filesMutex_);
    files_.clear();
    shutDown_ = true;
    return flushed;
}

std::vector<IndexFileInfo> IndexService::files() const
{
    std::shared_lock filesLock(filesMutex_);
    std::vector<IndexFileInfo> out;
    out.reserve(files_.size());
    for (const auto &file : files_)
        out.push_back({file->path(), file->fileSize(), file->header(), file->isFull()});
    return out;
}

size_t IndexService::fileCount() const
{
    std::shared_lock filesLock(filesMutex_);
    return files_.size();
}

int64_t IndexService::totalSize() const
{
    std::shared_lock filesLock(filesMutex_);
    return static_cast<int64_t>(files_.size()) * IndexFile::fileSizeFor(hashSlotNum_, indexNum_);
}

} // namespace mqdesk::store
