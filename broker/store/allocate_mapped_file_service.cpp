#include "broker/store/allocate_mapped_file_service.h"

#include <spdlog/spdlog.h>

#include <chrono>

namespace mqdesk::store {

AllocateMappedFileService::AllocateMappedFileService(std::string directory, int64_t fileSize, FileWarmUp warmUp)
    : ServiceThread("AllocateMappedFile"), directory_(std::move(directory)), fileSize_(fileSize),
      warmUp_(std::move(warmUp))
{}

AllocateMappedFileService::~AllocateMappedFileService() { shutdown(); }

std::string AllocateMappedFileService::pathFor(int64_t offset) const
{
    return directory_ + "/" + offsetToFileName(offset);
}

std::unique_ptr<MappedFile> AllocateMappedFileService::takeFile(int64_t startOffset, std::string &error)
{
    std::unique_ptr<MappedFile> file;
    {
        std::unique_lock lock(mutex_);
        if (making_ && wantedOffset_ == startOffset)
            neededNow_.store(true, std::memory_order_relaxed);
        // RocketMQ waits at most 5 s for the allocator before giving up on it.
        const bool done = made_.wait_for(lock, std::chrono::seconds(5),
                                         [&] { return !(making_ && wantedOffset_ == startOffset); });
        if (!done) {
            // Making our file ourselves would race the service for the same name.
            error = pathFor(startOffset) + ": still being created after 5 s (is the disk stuck?)";
            return nullptr;
        }
        if (ready_ && ready_->fileFromOffset() == startOffset)
            file = std::move(ready_);
        if (wantedOffset_ == startOffset && !making_)
            wantedOffset_ = -1;
    }
    if (!file)
        file = MappedFile::open(pathFor(startOffset), startOffset, fileSize_, true, error, kReservation);
    if (file && !isStopped()) {
        std::lock_guard lock(mutex_);
        if (!making_) {
            wantedOffset_ = startOffset + fileSize_;
            wakeup();
        }
    }
    return file;
}

void AllocateMappedFileService::prepareFile(int64_t startOffset)
{
    std::lock_guard lock(mutex_);
    if (!making_) {
        wantedOffset_ = startOffset;
        wakeup();
    }
}

void AllocateMappedFileService::waitForPrepared(std::chrono::milliseconds limit)
{
    std::unique_lock lock(mutex_);
    made_.wait_for(lock, limit, [&] {
        return wantedOffset_ < 0 || (!making_ && ready_ && ready_->fileFromOffset() == wantedOffset_);
    });
}

void AllocateMappedFileService::run()
{
    while (!isStopped()) {
        waitForRunning(std::chrono::milliseconds(1000));
        int64_t offset;
        {
            std::lock_guard lock(mutex_);
            if (wantedOffset_ < 0 || (ready_ && ready_->fileFromOffset() == wantedOffset_))
                continue;
            offset = wantedOffset_;
            making_ = true;
        }
        std::string error;
        auto file = MappedFile::open(pathFor(offset), offset, fileSize_, true, error, kReservation);
        if (file && warmUp_.enabled)
            warm(*file);
        if (!file) { // takeFile() will try again and report it to the put that needs the file
            if (const auto held = failureLog_.admit())
                spdlog::warn("commit log: cannot create the next file ahead of time: {}{}", error,
                             common::LogRateLimiter::heldNote(*held));
        }
        std::unique_ptr<MappedFile> stale;
        {
            std::lock_guard lock(mutex_);
            making_ = false;
            neededNow_.store(false, std::memory_order_relaxed);
            stale = std::move(ready_);
            ready_ = std::move(file);
        }
        made_.notify_all();
        if (stale) {
            std::string ignored;
            stale->destroy(ignored);
        }
    }
}

void AllocateMappedFileService::warm(MappedFile &file)
{
    const auto start = std::chrono::steady_clock::now();
    std::string error;
    const int64_t warmed = file.warm(warmUp_.syncEveryPages, [this] {
        return !isStopped() && !neededNow_.load(std::memory_order_relaxed);
    }, error);
    const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
    if (warmed < 0) {
        // The file is still good to write; only its first flushes cost more.
        spdlog::warn("commit log: warming {} failed: {}", file.path(), error);
        return;
    }
    spdlog::info("commit log: warmed {} MiB of {} in {} ms{}", warmed >> 20, file.path(), micros / 1000,
                 warmed < file.fileSize() ? " (cut short: a put needed the file)" : "");
    if (warmUp_.warmed)
        warmUp_.warmed(warmed, micros);
}

void AllocateMappedFileService::shutdown()
{
    stop();
    std::unique_ptr<MappedFile> unused;
    {
        std::lock_guard lock(mutex_);
        unused = std::move(ready_);
        wantedOffset_ = -1;
    }
    if (unused) {
        std::string error;
        if (!unused->destroy(error))
            spdlog::warn("commit log: {}", error);
    }
}

} // namespace mqdesk::store
