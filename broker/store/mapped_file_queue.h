#pragma once

// A directory of equally sized mapped files forming one logical byte stream (store-format §2).
// File N starts at logical offset N × fileSize and is named by that offset in 20 digits.
//
// Threading: the file list is guarded by an internal mutex, so any thread may look files up;
// only the appender adds files; flush() and commit() serialise on their own mutexes, so the
// group-commit, flush and commit services may call them concurrently (as happens while the
// flush mode is being switched).

#include "broker/store/mapped_file.h"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace mqdesk::store {

class MappedFileQueue
{
public:
    MappedFileQueue(std::string directory, int64_t fileSize,
                    MappedFile::Reservation reservation = MappedFile::Reservation::Whole);
    ~MappedFileQueue();

    const std::string &directory() const { return directory_; }
    int64_t fileSize() const { return fileSize_; }
    MappedFile::Reservation reservation() const { return reservation_; }

    // Opens every file in the directory in name order. A trailing empty file is deleted (a
    // crash right after creation), a name that is not 20 digits or a size that is not
    // fileSize() is an error naming the file. All loaded files start full (positions =
    // fileSize); recovery sets the real tail.
    bool load(std::string &error);

    std::shared_ptr<MappedFile> lastFile() const;
    std::shared_ptr<MappedFile> firstFile() const;
    std::shared_ptr<MappedFile> fileAt(size_t index) const;
    size_t fileCount() const;
    std::vector<std::shared_ptr<MappedFile>> files() const;
    // The file holding logical `offset`, or nullptr.
    std::shared_ptr<MappedFile> findFileByOffset(int64_t offset) const;
    // Creates and appends the file starting at `startOffset` (a multiple of fileSize).
    std::shared_ptr<MappedFile> createFile(int64_t startOffset, std::string &error);
    // Appends a file made elsewhere (by the allocation service); it must follow the last one.
    std::shared_ptr<MappedFile> addFile(std::unique_ptr<MappedFile> file);

    int64_t minOffset() const; // first byte still held, or 0 when empty
    int64_t maxOffset() const; // end of the readable (committed) data
    int64_t maxWrotePosition() const; // end of the appended data

    int64_t flushedWhere() const { return flushedWhere_.load(std::memory_order_acquire); }
    int64_t committedWhere() const { return committedWhere_.load(std::memory_order_acquire); }
    // Store timestamp of the last message in the last fully flushed region (§2.4): updated
    // only by flushes with leastPages == 0.
    int64_t storeTimestamp() const { return storeTimestamp_.load(std::memory_order_acquire); }

    struct SyncResult
    {
        int64_t bytes = 0;    // how far the position moved
        bool failed = false;
        std::string error;
    };
    // Flushes the file holding flushedWhere() (one file per call, like RocketMQ). After one
    // failure every later call fails with the same error and flushedWhere() never moves again
    // (the fsyncgate lesson): only reopening the store, whose recovery re-reads the files,
    // clears it.
    SyncResult flush(int leastPages);
    bool flushFailed() const { return failed_.load(std::memory_order_acquire); }
    // The failed flush's error (file, bytes, errno), empty if none failed.
    std::string flushFailure() const;
    // Commits the file holding committedWhere() from its transient buffer.
    SyncResult commit(int leastPages);

    // Recovery: makes `offset` the end of the data. Files starting after it are deleted, the
    // file holding it gets its positions set and its stale tail zeroed.
    bool truncateDirtyFiles(int64_t offset, std::string &error);
    // Retention and consume-queue truncation: delete the oldest / newest file.
    bool deleteFirstFile(std::string &error);
    bool deleteLastFile(std::string &error);
    void setFlushedWhere(int64_t offset) { flushedWhere_.store(offset, std::memory_order_release); }
    void setCommittedWhere(int64_t offset) { committedWhere_.store(offset, std::memory_order_release); }

    std::mutex &commitMutex() { return commitMutex_; }

    // Fault injection for tests, in the spirit of LevelDB's fault-injecting Env: called under
    // the flush mutex before every flush; it may sleep to play a slow disk, and a non-empty
    // return value makes that flush fail with it as the error.
    using FlushFault = std::function<std::string()>;
    void setFlushFaultForTesting(FlushFault fault);

private:
    std::string directory_;
    int64_t fileSize_;
    MappedFile::Reservation reservation_;
    mutable std::mutex filesMutex_;
    std::vector<std::shared_ptr<MappedFile>> files_; // guarded by filesMutex_
    std::mutex flushMutex_;
    FlushFault flushFault_; // guarded by flushMutex_
    mutable std::mutex failureMutex_;
    std::string failure_; // guarded by failureMutex_
    std::atomic<bool> failed_{false};
    std::mutex commitMutex_;
    std::atomic<int64_t> flushedWhere_{0};
    std::atomic<int64_t> committedWhere_{0};
    std::atomic<int64_t> storeTimestamp_{0};
};

} // namespace mqdesk::store
