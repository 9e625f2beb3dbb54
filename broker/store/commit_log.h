#pragma once

// The commit log (store-format §3, §9, §11, §16): every message of every topic appended to one
// stream of mapped files, flushed by one of RocketMQ's three flush behaviours, which can be
// switched while puts keep flowing.
//
// Append path: a message is encoded outside any lock; under putMutex_ the queue offset,
// commit-log offset and store timestamp are patched in and the bytes copied into the current
// file (or its transient buffer). The put is acknowledged at once in ASYNC_FLUSH, or by the
// group-commit thread once the flush covers it in SYNC_FLUSH (WAIT=false puts never wait).
//
// Lock order: putMutex_ → MappedFileQueue commit mutex. Flush threads never take putMutex_.

#include "broker/common/message.h"
#include "broker/common/record_codec.h"
#include "broker/store/flush_metrics.h"
#include "broker/common/log_rate_limiter.h"
#include "broker/store/mapped_file_queue.h"
#include "broker/store/put_lock.h"
#include "broker/store/put_message_result.h"
#include "broker/store/recovery_progress.h"
#include "broker/store/store_config.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>

namespace mqdesk::store {

class StoreCheckpoint;

// "topic-queueId": the key of RocketMQ's topic-queue table (next queue offset per queue).
inline std::string topicQueueKey(std::string_view topic, int32_t queueId)
{
    std::string key(topic);
    key += '-';
    key += std::to_string(queueId);
    return key;
}
class TransientStorePool;
class AllocateMappedFileService;
class GroupCommitService;
class GroupCommitAnswerService;
class FlushRealTimeService;
class CommitRealTimeService;
class FlushDiskWatcher;

struct RecoveryReport
{
    bool abnormal = false;       // the abort file was there: the last stop was not clean
    int64_t startOffset = 0;     // where the validating scan began
    int64_t processOffset = 0;   // end of the last valid record: the log's new end
    int64_t previousEnd = 0;     // end of the files before truncation
    uint64_t recordsScanned = 0; // valid records seen by the scan
    int filesDeleted = 0;
    int64_t stopOffset = 0;      // where the scan stopped
    std::string stopFile;        // the file holding stopOffset, when the scan stopped at a fault
    std::string stopReason;      // "end of data" for a clean end, else the fault found there
    bool cleanEnd = true;        // stopped at zeros or the final blank, not at a damaged record
};

class CommitLog
{
public:
    CommitLog(const MessageStoreConfig &config, StoreCheckpoint &checkpoint, FlushMetrics &metrics);
    ~CommitLog();
    CommitLog(const CommitLog &) = delete;
    CommitLog &operator=(const CommitLog &) = delete;

    bool load(std::string &error);
    // Validates the log from a safe starting file, truncates everything after the last valid
    // record and rebuilds the next queue offset of every topic-queue. `lastExitOk` selects
    // normal or abnormal recovery (§11). `progress`: the "commit log" phase (recovery_progress.h).
    bool recover(bool lastExitOk, RecoveryReport &report, std::string &error,
                 const RecoveryProgressCallback &progress = {});
    void start();
    // Stops accepting puts, completes waiting puts, commits and flushes everything.
    void shutdown();

    // Called under the put lock once a put's queue offsets are known, before anything is
    // appended: false (with `error`) refuses the put with CREATE_MAPPED_FILE_FAILED. The store
    // makes sure the consume-queue files for those offsets exist (ConsumeQueue::reserveFor).
    // Set before start().
    using QueueReserver = std::function<bool(std::string_view topic, int32_t queueId, int64_t firstQueueOffset,
                                             int32_t count, std::string &error)>;
    void setQueueReserver(QueueReserver reserver) { queueReserver_ = std::move(reserver); }

    void asyncPutMessage(const common::BrokerMessage &message, PutCallback done);
    // A batch: messages of one topic and queue, stored contiguously with consecutive queue
    // offsets and one store timestamp, all in one file.
    void asyncPutMessages(std::span<const common::BrokerMessage> messages, PutCallback done);
    PutMessageResult putMessage(const common::BrokerMessage &message);
    PutMessageResult putMessages(std::span<const common::BrokerMessage> messages);

    // Reading committed data.
    std::optional<common::StoredMessage> readMessage(int64_t offset, std::string *error = nullptr) const;
    // Appends the `size` bytes of the record at `offset` as stored (RocketMQ's
    // getMessage(offset, size) for pulls: no decoding). False when they are not all readable
    // in one file or do not start with a record magic.
    bool copyRecord(int64_t offset, int32_t size, std::vector<uint8_t> &out) const;
    // Calls `visit` for each valid record from `fromOffset` to the end of the readable data;
    // stops early when `visit` returns false. Returns the offset where the walk ended.
    int64_t forEachRecord(int64_t fromOffset,
                          const std::function<bool(int64_t offset, const common::RecordView &)> &visit) const;

    int64_t minOffset() const { return queue_.minOffset(); }
    int64_t maxOffset() const { return queue_.maxOffset(); }
    int64_t flushedWhere() const { return queue_.flushedWhere(); }
    int64_t unflushedBytes() const;
    int64_t nextQueueOffset(std::string_view topic, int32_t queueId) const;
    // The next queue offset of every topic-queue ("topic-queueId"), rebuilt from the consume
    // queues at startup. Requires: before start().
    void setQueueOffsetTable(std::unordered_map<std::string, int64_t> table);
    std::string messageId(int64_t offset) const;

    FlushDiskType flushDiskType() const { return flushDiskType_.load(std::memory_order_acquire); }
    // Takes effect for the next put; puts already waiting for a group commit still get it.
    void setFlushDiskType(FlushDiskType type);
    bool transientStorePoolEnabled() const { return poolEnabled_.load(std::memory_order_acquire); }
    // flushIntervalCommitLog, live: the ASYNC_FLUSH service reads it every turn (as Java's does).
    int flushIntervalCommitLog() const { return flushInterval_.load(std::memory_order_relaxed); }
    void setFlushIntervalCommitLog(int millis) { flushInterval_.store(std::max(1, millis), std::memory_order_relaxed); }
    // writeWithoutMmap, live: from the next put on, appends go through pwrite (RocketMQ's
    // FileChannel writes) instead of a copy into the mapping. Here a flush of pwritten pages
    // costs a fraction of one of pages written through the mapping (docs/performance.md).
    bool writeWithoutMmap() const { return writeWithoutMmap_.load(std::memory_order_relaxed); }
    void setWriteWithoutMmap(bool on) { writeWithoutMmap_.store(on, std::memory_order_relaxed); }
    // enableLmqQuota and maxLmqConsumeQueueNum, from the next put on (UPDATE_BROKER_CONFIG).
    void setLmqQuota(bool enable, int maxLmqs);
    // With puts held off, runs `whilePaused` (which may wait for the dispatcher: it never takes
    // the put lock) and, when it returns true, forgets the next queue offsets of every queue of
    // `topics` and counts the LMQs again: their next message is numbered from 0 (Java's
    // removeQueueFromTopicQueueTable).
    void forgetQueues(const std::vector<std::string> &topics, const std::function<bool()> &whilePaused);
    // Whether any queue of `topic` has been numbered (a message of it was put since the queues
    // were last forgotten or loaded).
    bool numbersQueuesOf(const std::string &topic) const;
    // Enabling attaches a pool buffer to the current file from its write position on;
    // disabling commits what the buffers hold and writes through the mapping again.
    // Returns false (the pool stays on) when pending bytes could not be written to the files.
    bool setTransientStorePoolEnable(bool enable);

    MappedFileQueue &mappedFileQueue() { return queue_; }
    const MessageStoreConfig &config() const { return config_; }
    FlushMetrics &metrics() { return metrics_; }
    StoreCheckpoint &checkpoint() { return checkpoint_; }

    // Used by the flush services. Flushes (or commits) one file's worth; see MappedFileQueue.
    MappedFileQueue::SyncResult flushOnce(int leastPages, FlushKind kind, uint32_t satisfiedPuts = 0);
    MappedFileQueue::SyncResult commitOnce(int leastPages);
    // Commits and flushes until flushedWhere() >= offset or no progress is possible; returns
    // whether it got there.
    bool flushUpTo(int64_t offset, FlushKind kind, uint32_t satisfiedPuts);
    void wakeFlushService();
    // What the last failed flush or commit said (file and cause), empty if none failed.
    std::string lastFlushError() const;
    // Non-empty once a flush of the log failed: why, naming file, bytes and errno. From then on
    // every put is refused (SERVICE_NOT_AVAILABLE with this text) until the store is reopened,
    // and the flushed position never moves again (MappedFileQueue::flush).
    std::string writeFault() const { return queue_.flushFailed() ? queue_.flushFailure() : std::string(); }

private:
    struct TopicQueueKey;
    struct TopicQueueHash;
    struct Encoded;

    bool numberInLmqs(Encoded &encoded, PutMessageResult &result);
    bool numberInnerBatch(Encoded &encoded, PutMessageResult &result);
    // Encodes `message` again into encoded.bytes with `properties`, which the append changed
    // (`added`): false with PROPERTIES_SIZE_EXCEEDED when they no longer fit.
    bool encodeAgain(Encoded &encoded, const common::BrokerMessage &message, const common::MessageProperties &properties,
                     std::string_view added, PutMessageResult &result);
    void appendEncoded(Encoded &encoded, PutMessageResult &result);
    bool reserveBlocks(MappedFile &file, int64_t end, PutMessageResult &result);
    bool copyIntoFile(MappedFile &file, int64_t position, const uint8_t *bytes, int64_t size, std::string &error);
    void finishPut(PutMessageResult result, bool waitForFlush, int64_t startMicros, PutCallback done);
    std::shared_ptr<MappedFile> createNextFile(int64_t startOffset, std::string &error);
    void returnFullyCommittedBuffers();
    bool drainTransientBuffers();

    MessageStoreConfig config_;
    StoreCheckpoint &checkpoint_;
    FlushMetrics &metrics_;
    MappedFileQueue queue_;
    common::EncodeOptions encodeOptions_;
    std::unique_ptr<TransientStorePool> pool_; // created once, never replaced while running
    std::unique_ptr<AllocateMappedFileService> allocator_;
    QueueReserver queueReserver_; // set before start(), called under putMutex_

    std::atomic<FlushDiskType> flushDiskType_;
    std::atomic<bool> poolEnabled_{false};
    std::atomic<int> flushInterval_;
    std::atomic<bool> writeWithoutMmap_;
    std::atomic<bool> running_{false};
    std::atomic<int> putsInFlight_{0}; // puts between their running_ check and their answer

    common::LogRateLimiter flushFailureLog_;
    mutable std::mutex flushErrorMutex_;
    std::string lastFlushError_; // guarded by flushErrorMutex_

    mutable PutLock putMutex_; // useReentrantLockWhenPutMessage picks mutex or spin lock
    std::shared_ptr<MappedFile> writeFile_; // guarded by putMutex_
    std::unordered_map<std::string, int64_t> queueOffsets_; // "topic-queueId" → next; putMutex_
    int64_t lmqCount_ = 0; // putMutex_: the `%LMQ%` keys of queueOffsets_
    bool lmqQuotaEnabled_ = true; // putMutex_; from the config, then setLmqQuota
    int64_t maxLmqs_ = 0;         // putMutex_
    int64_t lastCreateFailureLogMillis_ = 0; // putMutex_: failures are logged at most every 5 s
    int64_t suppressedCreateFailures_ = 0;   // putMutex_

    // Requires: servicesMutex_ held. The flush services `type` needs (the group commit with its
    // answer thread and watcher for SYNC_FLUSH, the timed flush for ASYNC_FLUSH), and the commit
    // service when `transientStorePool` is set, each started the first time it is needed: an
    // ASYNC broker without a pool runs one flush thread, not five. Nothing starts once
    // shutdown() began.
    void startServicesFor(FlushDiskType type, bool transientStorePool);

    // The services are made by start() and stopped by shutdown(); their threads are started by
    // startServicesFor(). A service never started is stopped all the same (a no-op).
    std::mutex servicesMutex_;
    bool servicesRunning_ = false; // guarded by servicesMutex_: start() done, shutdown() not begun
    bool groupCommitStarted_ = false, flushRealTimeStarted_ = false, commitRealTimeStarted_ = false; // servicesMutex_
    std::unique_ptr<GroupCommitAnswerService> groupCommitAnswers_;
    std::unique_ptr<GroupCommitService> groupCommit_;
    std::unique_ptr<FlushRealTimeService> flushRealTime_;
    std::unique_ptr<CommitRealTimeService> commitRealTime_;
};

} // namespace mqdesk::store
