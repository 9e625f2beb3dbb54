#pragma once

// Creates the next commit-log file ahead of need, as RocketMQ's AllocateMappedFileService does,
// so a put that rolls over to a new file does not pay for creating, syncing and mapping it (or,
// with warmMapedFileEnable, for writing its blocks) while it holds the put lock. Files are sparse
// (Reservation::AsAppended): the commit log reserves their blocks as it appends.

#include "broker/common/service_thread.h"
#include "broker/common/log_rate_limiter.h"
#include "broker/store/mapped_file.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace mqdesk::store {

// warmMapedFileEnable: files made ahead are warmed (MappedFile::warm) before they are handed
// out, syncing every `syncEveryPages` pages; a put that needs the file cuts the warm-up short.
struct FileWarmUp
{
    bool enabled = false;
    int syncEveryPages = 4096;
    // Told each warm-up's bytes and duration (the flush metrics show what warming costs).
    std::function<void(int64_t bytes, int64_t micros)> warmed;
};

class AllocateMappedFileService : public common::ServiceThread
{
public:
    static constexpr MappedFile::Reservation kReservation = MappedFile::Reservation::AsAppended;

    AllocateMappedFileService(std::string directory, int64_t fileSize, FileWarmUp warmUp = {});
    ~AllocateMappedFileService() override;

    // The file starting at `startOffset`: the one made ahead if it is that one (waiting for it
    // if it is being made), else one made now. Then starts making the file after it.
    // On failure returns nullptr with `error` naming the file and the cause.
    std::unique_ptr<MappedFile> takeFile(int64_t startOffset, std::string &error);
    // Starts making the file at `startOffset` in the background (the first file a fresh or
    // just-recovered log will need).
    void prepareFile(int64_t startOffset);
    // Waits until the file being made ahead is ready, warm-up included (at most `limit`): a
    // store that warms its files warms the first one before it takes puts.
    void waitForPrepared(std::chrono::milliseconds limit);
    // Stops the thread and deletes a file made ahead that nobody took.
    void shutdown();

protected:
    void run() override;

private:
    std::string pathFor(int64_t offset) const;
    void warm(MappedFile &file);

    std::string directory_;
    int64_t fileSize_;
    std::mutex mutex_;
    std::condition_variable made_;
    int64_t wantedOffset_ = -1;          // guarded by mutex_; -1: nothing to make
    bool making_ = false;                // guarded by mutex_
    std::unique_ptr<MappedFile> ready_;  // guarded by mutex_
    FileWarmUp warmUp_;
    std::atomic<bool> neededNow_{false}; // a put waits for the file being made: stop warming
    common::LogRateLimiter failureLog_;
};

} // namespace mqdesk::store
