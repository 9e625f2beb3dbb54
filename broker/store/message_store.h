#pragma once

// The message store (RocketMQ's DefaultMessageStore): the commit log, the consume queues and
// the index built from it by the dispatcher, the checkpoint, lock and abort files, retention,
// and the queries the broker and the console need.
//
// Life cycle: open() takes the lock (before anything is touched, unlike RocketMQ, so a second
// process can never truncate a running store's files), loads, recovers the consume queues and
// the commit log, cuts the queues back to the log, dispatches what the queues miss (everything
// from the recovery start after an unclean stop), rebuilds the next queue offsets from the
// queues, starts the services and writes `abort`. shutdown() stops puts, lets dispatch catch
// up, flushes everything, writes the checkpoint and removes `abort`.

#include "broker/store/commit_log.h"
#include "broker/store/dispatch_request.h"
#include "broker/store/flush_metrics.h"
#include "broker/common/log_rate_limiter.h"
#include "broker/common/message_properties.h"
#include "broker/store/recovery_progress.h"
#include "broker/store/store_config.h"

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mqdesk::store {

class ConsumeQueue;
class ConsumeQueueStore;
struct ConsumeQueueEntry;
class FlushConsumeQueueService;
class IndexService;
class ReputMessageService;
class StoreCheckpoint;
class StoreCleaner;
class StoreLock;
class StoreTicker;
class TimerMessageStore;
struct CleanResult;

// Outcomes of a read, named as RocketMQ's GetMessageStatus.
enum class GetMessageStatus {
    Found,
    NoMatchedMessage,   // entries found, none passed the tag filter
    MessageWasRemoving, // the entries point at commit-log data already deleted
    OffsetFoundNull,
    OffsetOverflowBadly, // offset > max
    OffsetOverflowOne,   // offset == max: nothing new yet
    OffsetTooSmall,      // offset < min
    NoMatchedLogicQueue, // no such topic-queue
    NoMessageInQueue,    // the queue is empty
};
std::string_view getStatusName(GetMessageStatus status);

struct GetMessageResult
{
    GetMessageStatus status = GetMessageStatus::NoMatchedLogicQueue;
    int64_t nextBeginOffset = 0;
    int64_t minOffset = 0;
    int64_t maxOffset = 0;
    std::vector<common::StoredMessage> messages;
    std::vector<int64_t> queueOffsets; // of `messages`
    // With GetMessageOptions::rawRecords: the records exactly as stored, back to back (the body
    // of a PULL_MESSAGE response), instead of `messages`.
    std::vector<uint8_t> recordBytes;
    int32_t messageCount = 0; // messages found, in either form
};

struct GetMessageOptions
{
    // Only messages whose consume-queue tags code passes; entries it skips still advance
    // nextBeginOffset. Null: every message.
    std::function<bool(int64_t tagsCode)> tagsFilter;
    // Only messages whose properties pass (an SQL92 subscription), judged on the stored record
    // after tagsFilter; skipped ones advance nextBeginOffset too. Null: no record is decoded for it.
    std::function<bool(const common::MessageProperties &properties)> propertiesFilter;
    bool rawRecords = false;
    // Stop before the bytes found would pass this (0: no limit); the first message always fits.
    int64_t maxBytes = 0;
    // A client's read (pull, pop): the store's maxTransfer* limits, in memory or in disk by
    // where each message lies (MessageStoreConfig; Java's isTheBatchFull). Off for the broker's
    // own readers.
    struct TransferLimits
    {
        int64_t bytesInMemory = 0;
        int countInMemory = 0;
        int64_t bytesInDisk = 0;
        int countInDisk = 0;
        int64_t memoryBytes = 0; // how far behind the commit log's end a message still counts as in memory
    };
    std::optional<TransferLimits> transferLimits;
};

// The limits `config` sets for a client's read (GetMessageOptions::transferLimits).
GetMessageOptions::TransferLimits transferLimitsOf(const MessageStoreConfig &config);

struct QueryMessageResult
{
    std::vector<common::StoredMessage> messages;
    int64_t indexLastUpdateTimestamp = 0;
    int64_t indexLastUpdatePhyOffset = 0;
};

class MessageStore
{
public:
    explicit MessageStore(MessageStoreConfig config);
    ~MessageStore();
    MessageStore(const MessageStore &) = delete;
    MessageStore &operator=(const MessageStore &) = delete;

    // Returns false with `error` naming the file and the fault when the store cannot open.
    bool open(std::string &error);
    void shutdown();
    bool isRunning() const { return running_; }

    const MessageStoreConfig &config() const { return config_; }
    CommitLog &commitLog() { return *commitLog_; }
    const CommitLog &commitLog() const { return *commitLog_; }
    ConsumeQueueStore &consumeQueues() { return *consumeQueues_; }
    FlushMetrics &metrics() { return metrics_; }
    const FlushMetrics &metrics() const { return metrics_; }
    StoreCheckpoint &checkpoint() { return *checkpoint_; }
    // RocketMQ 5's timer messages (timer_message_store.h); null when timerWheelEnable is false.
    TimerMessageStore *timerMessageStore() { return timer_.get(); }
    const RecoveryReport &recoveryReport() const { return recovery_; }

    // Deletes the consume queues of `topics` (Java's deleteTopics; a deleted topic, an expired
    // lite topic's LMQ): puts wait while the dispatcher writes what was already appended, the
    // queues' files go, and the commit log forgets their offsets, so the next message of such a
    // topic starts a new queue at offset 0. Returns false with `error` naming what could not be
    // deleted; the queues are forgotten even then. Not on the dispatch thread.
    bool deleteTopicQueues(const std::vector<std::string> &topics, std::string &error);

    // A message with TIMER_DELIVER_MS / TIMER_DELAY_SEC / TIMER_DELAY_MS is parked in
    // rmq_sys_wheel_timer (or refused with WHEEL_TIMER_*) as timer_put_transform.h says; one with
    // DELAY in SCHEDULE_TOPIC_XXXX. Puts are refused: MESSAGE_ILLEGAL for a topic that is not one safe path component
    // (store_paths.h); SERVICE_NOT_AVAILABLE while the disk is above diskSpaceWarningLevelRatio,
    // while the dispatcher cannot write queue entries, and for good once a commit-log flush
    // failed (writeFault()); CREATE_MAPPED_FILE_FAILED when a commit-log or consume-queue file
    // the put needs cannot be created (a full disk). Each with an error saying why.
    PutMessageResult putMessage(const common::BrokerMessage &message);
    void asyncPutMessage(const common::BrokerMessage &message, PutCallback done);
    // A batch of one topic and queue (SEND_BATCH_MESSAGE), stored contiguously.
    void asyncPutMessages(std::span<const common::BrokerMessage> messages, PutCallback done);

    // messageDelayLevel: the highest level (18 by default) and a level's delay in ms (level is
    // 1-based; 0 outside the table).
    int32_t maxDelayLevel() const { return static_cast<int32_t>(delayLevelMillis_.size()); }
    int64_t delayLevelMillis(int32_t level) const;

    void setFlushDiskType(FlushDiskType type) { commitLog_->setFlushDiskType(type); }
    void setFlushIntervalCommitLog(int millis) { commitLog_->setFlushIntervalCommitLog(millis); }
    bool setTransientStorePoolEnable(bool enable) { return commitLog_->setTransientStorePoolEnable(enable); }

    // --- queries (message_store_queries.cpp) ---
    // Up to `maxCount` messages of a queue from `offset`; with `tagsCodes`, only messages whose
    // tags code is in it (entries skipped by the filter still advance nextBeginOffset).
    GetMessageResult getMessage(const std::string &topic, int32_t queueId, int64_t offset, int maxCount,
                                const std::set<int64_t> *tagsCodes = nullptr) const;
    GetMessageResult getMessage(const std::string &topic, int32_t queueId, int64_t offset, int maxCount,
                                const GetMessageOptions &options) const;
    int64_t minOffsetInQueue(const std::string &topic, int32_t queueId) const;
    int64_t maxOffsetInQueue(const std::string &topic, int32_t queueId) const;
    // The first queue offset whose message was stored at or after `timestamp` (binary search);
    // the max offset when every message is older, the min offset when every one is newer.
    int64_t offsetInQueueByTime(const std::string &topic, int32_t queueId, int64_t timestamp) const;
    // Store time of the oldest message still held: of a queue, or of the whole log (-1: none).
    int64_t earliestMessageTime(const std::string &topic, int32_t queueId) const;
    int64_t earliestMessageTime() const;
    std::optional<common::StoredMessage> lookMessageByOffset(int64_t commitLogOffset) const;
    // Messages of `topic` carrying `key` (in KEYS or as UNIQ_KEY) stored in [begin, end]; with
    // `byTags`, those whose TAGS is `key` (RocketMQ 5.5's index type "T").
    QueryMessageResult queryMessage(const std::string &topic, const std::string &key, int maxCount,
                                    int64_t begin, int64_t end, bool byTags = false) const;
    // Messages in [from, to) of a queue that are still held.
    int64_t messageCountInQueue(const std::string &topic, int32_t queueId, int64_t from, int64_t to) const;
    int64_t dispatchBehindBytes() const;
    // Records the dispatcher stepped over because they could not be decoded (each logged).
    uint64_t dispatchSkippedRecords() const;
    // Why the store refuses every put until reopened (a failed commit-log flush: file, bytes,
    // errno), empty while it is healthy.
    std::string writeFault() const { return commitLog_ ? commitLog_->writeFault() : std::string(); }
    // Told of every message dispatched into a consume queue (topic, queue id, queue offset,
    // tags code, store time): how held pulls learn that their queue has something new.
    // Called on the dispatch thread; must not block. Set before or after open().
    using MessageArrivingListener = std::function<void(const DispatchRequest &)>;
    void setMessageArrivingListener(MessageArrivingListener listener);
    // Whether `topic`'s queues are BatchCQ (its queue.type attribute: RocketMQ's QueueTypeUtils):
    // asked when a topic's first queue is made. Thread-safe; set before open().
    void setBatchTopicTest(std::function<bool(const std::string &topic)> test) { batchTopicTest_ = std::move(test); }
    // Told how open() progresses through recovery (recovery_progress.h). Set before open().
    void setRecoveryProgress(RecoveryProgressCallback progress) { recoveryProgress_ = std::move(progress); }

    // One tick of the 1 s schedule: persist the checkpoint, take a metrics sample, and a
    // retention round when one is due (StoreCleaner::cleanIfDue). Public so tests can drive it.
    void tick();
    // One retention round now (tests, and mqadmin's deleteExpiredCommitLog later).
    CleanResult cleanExpiredFiles(bool force);
    // Dispatches what is readable now and waits for nothing else (tests, shutdown).
    // Requires: no puts running meanwhile.
    void waitForDispatch();

    // For the services.
    void flushIndex();
    int deleteExpiredIndexFiles(int64_t commitLogMinOffset);

private:
    bool recover(bool lastExitOk, std::string &error);
    // The SCHEDULE_TOPIC_XXXX form of a message that asks for a delay; nullopt for every other.
    std::optional<common::BrokerMessage> delayedForm(const common::BrokerMessage &message) const;
    // The put-time timer transform (timer_put_transform.h): a refusal, or nullopt with
    // `transformed` set when the message changed.
    std::optional<PutMessageResult> timerForm(const common::BrokerMessage &message,
                                              std::optional<common::BrokerMessage> &transformed) const;
    void startServices();
    // Why a put for `topic` must be refused before it reaches the log, if it must.
    std::optional<PutMessageResult> refusal(std::string_view topic) const;
    // Java's checkInnerBatch: INNER_NUM only on an inner batch, an inner batch only on a BatchCQ
    // topic, with 1 to 32767 messages, and never delayed.
    std::optional<PutMessageResult> innerBatchRefusal(const common::BrokerMessage &message) const;

    MessageStoreConfig config_;
    FlushMetrics metrics_;
    std::unique_ptr<StoreLock> lock_;
    std::unique_ptr<StoreCheckpoint> checkpoint_;
    std::unique_ptr<CommitLog> commitLog_;
    std::unique_ptr<ConsumeQueueStore> consumeQueues_;
    std::unique_ptr<IndexService> index_;
    std::unique_ptr<ReputMessageService> reput_;
    std::unique_ptr<FlushConsumeQueueService> consumeQueueFlusher_;
    std::unique_ptr<StoreCleaner> cleaner_;
    std::unique_ptr<StoreTicker> ticker_;
    std::unique_ptr<TimerMessageStore> timer_;
    // Reads that find a consume-queue entry not pointing at its own record repair it from the
    // commit log (consume_queue_repair.cpp), one at a time; each damaged queue is logged once.
    mutable std::mutex repairMutex_;
    mutable std::set<std::string> damagedQueuesReported_; // guarded by repairMutex_
    std::optional<ConsumeQueueEntry> repairConsumeQueueEntry(ConsumeQueue &queue, int64_t queueOffset) const;
    void dispatchToLmqs(const DispatchRequest &request); // dispatch thread
    bool entryIsItsRecord(const ConsumeQueue &queue, int64_t queueOffset, const ConsumeQueueEntry &entry) const;
    std::vector<int64_t> delayLevelMillis_; // messageDelayLevel, index level - 1
    RecoveryReport recovery_;
    bool running_ = false;
    MessageArrivingListener arrivingListener_; // read by the dispatch thread after open()
    RecoveryProgressCallback recoveryProgress_; // used by open() only
    std::function<bool(const std::string &)> batchTopicTest_; // used by open() only
    common::LogRateLimiter unsafeTopicLog_;    // dispatch thread
    common::LogRateLimiter indexFailureLog_;   // dispatch thread
    common::LogRateLimiter lmqDispatchLog_;    // dispatch thread
    common::LogRateLimiter tickFailureLog_;    // ticker thread
};

} // namespace mqdesk::store
