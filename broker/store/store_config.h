#pragma once

// The store's settings, named and defaulted exactly as RocketMQ's MessageStoreConfig (and the
// two BrokerConfig keys that make the store host), so a broker.conf written for RocketMQ
// configures MQDesk unchanged.

#include "broker/common/config_fields.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mqdesk::store {

enum class FlushDiskType { SyncFlush, AsyncFlush };

std::string_view flushDiskTypeName(FlushDiskType type); // "SYNC_FLUSH" / "ASYNC_FLUSH"
std::optional<FlushDiskType> parseFlushDiskType(std::string_view text);

struct MessageStoreConfig
{
    std::string storePathRootDir;   // default: $HOME/store
    std::string storePathCommitLog; // default: <root>/commitlog
    int64_t mappedFileSizeCommitLog = 1024LL * 1024 * 1024;

    FlushDiskType flushDiskType = FlushDiskType::AsyncFlush;
    int syncFlushTimeout = 5000; // ms; a SYNC put not flushed by then gets FLUSH_DISK_TIMEOUT

    // ASYNC_FLUSH (FlushRealTimeService)
    int flushIntervalCommitLog = 500;          // ms
    int flushCommitLogLeastPages = 4;          // 4 KiB pages
    int flushCommitLogThoroughInterval = 10000; // ms between flushes of anything new
    bool flushCommitLogTimed = true;           // true: plain sleep; false: woken by puts
    bool wakeFlushWhenPutMessage = false;

    // The write path (store-format §2.2-2.3, docs/performance.md).
    bool writeWithoutMmap = false;           // append with pwrite instead of through the mapping
    bool warmMapedFileEnable = false;        // (sic) write every page of a new commit-log file ahead
    int flushLeastPagesWhenWarmMapedFile = 1024 / 4 * 16; // pages between the warm-up's syncs
    bool useReentrantLockWhenPutMessage = true; // false: a spin lock guards appends

    // Transient store pool (CommitRealTimeService)
    bool transientStorePoolEnable = false;
    int transientStorePoolSize = 5;
    bool fastFailIfNoBufferInStorePool = false;
    int commitIntervalCommitLog = 200;          // ms
    int commitCommitLogLeastPages = 4;
    int commitCommitLogThoroughInterval = 200;  // ms
    bool wakeCommitWhenPutMessage = true;

    // Consume queues (store-format §5, §9.5)
    int64_t mappedFileSizeConsumeQueue = 300000LL * 20;
    int64_t mapperFileSizeBatchConsumeQueue = 300000LL * 46; // BatchCQ topics' files (Java's spelling)
    int flushIntervalConsumeQueue = 1000;          // ms
    int flushConsumeQueueLeastPages = 2;
    int flushConsumeQueueThoroughInterval = 60000; // ms
    std::string messageDelayLevel = "1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h";

    // Retention (§15)
    int fileReservedTime = 72;            // hours
    std::string deleteWhen = "04";        // local hours, ';'-separated
    int diskMaxUsedSpaceRatio = 75;       // %
    int diskSpaceWarningLevelRatio = 90;  // %: above it puts are refused
    int diskSpaceCleanForciblyRatio = 85; // %: above it files go whatever their age
    int cleanResourceInterval = 10000;    // ms
    int deleteFileBatchMax = 10;
    bool cleanFileForciblyEnable = true;

    int maxMessageSize = 4 * 1024 * 1024; // bytes of body
    bool checkCRCOnRecover = true;

    // Message index (IndexService, store-format §6). One index file is
    // 40 + maxHashSlotNum×4 + maxIndexNum×20 bytes (420,000,040 by default).
    bool messageIndexEnable = true;
    int maxHashSlotNum = 5000000;
    int maxIndexNum = 5000000 * 4;

    // LMQ (light message queues, store-format §LMQ; RocketMQ 5.5's lite topics are LMQs): a
    // single message whose INNER_MULTI_DISPATCH names queues is also entered in each of them.
    // enableLmq numbers its `%LMQ%` queues at append (INNER_MULTI_QUEUE_OFFSET, queue id 0);
    // enableMultiDispatch writes their consume-queue entries. Both on by default here (Java's
    // are off, and a stock Java broker stores lite messages that no lite consumer ever sees), so
    // that a LitePushConsumer works against MQDesk as it comes.
    bool enableLmq = true;
    bool enableMultiDispatch = true;
    // With enableLmq, a message naming an LMQ the store does not have yet is refused once the
    // store has maxLmqConsumeQueueNum of them (LMQ_CONSUME_QUEUE_NUM_EXCEEDED, remoting 2017):
    // each LMQ is a consume queue of its own, so a client naming new ones without end would take
    // the broker's files and mappings. On by default here (Java's default is off); the message's
    // own new LMQs count too, so the limit holds exactly (Java checks each against the count before).
    bool enableLmqQuota = true;
    int maxLmqConsumeQueueNum = 20000;

    // What one pull, pop or lite pop hands out at most (Java's isTheBatchFull): by count and by
    // bytes, with the tighter "in disk" limits for a message further than
    // accessMessageInMemoryMaxRatio % of the machine's memory behind the commit log's end (a read
    // that would come from disk, not the page cache). The request's own maximum applies too.
    int maxTransferBytesOnMessageInMemory = 256 * 1024;
    int maxTransferCountOnMessageInMemory = 32;
    int maxTransferBytesOnMessageInDisk = 64 * 1024;
    int maxTransferCountOnMessageInDisk = 8;
    int accessMessageInMemoryMaxRatio = 40;

    // Message queries by key (QUERY_MESSAGE): at most maxMsgsNumBatch messages whatever the
    // request's maxNum, and defaultQueryMaxNum for a lookup by unique key (message id), as
    // Java's IndexService and QueryMessageProcessor. Read by each query.
    int maxMsgsNumBatch = 64;
    int defaultQueryMaxNum = 32;

    // Timer messages (RocketMQ 5's TimerMessageStore, store-format §12.2–12.3). The wheel holds
    // 2 × 7 × 86400 slots of timerPrecisionMs each whatever the precision, so a finer precision
    // shortens how far ahead the wheel reaches (timerRollWindowSlot is counted in slots too).
    bool timerWheelEnable = true;
    int timerPrecisionMs = 1000;        // snapped down to 100, 200, 500 or 1000 as Java's setter does
    int timerMaxDelaySec = 3600 * 24 * 3; // a later delivery time is refused
    int timerRollWindowSlot = 3600 * 24 * 2; // further ahead: parked nearer and rolled (forced into [2, slots − 60])
    int timerFlushIntervalMs = 1000;     // timerlog, timerwheel, timercheck and timermetrics
    int64_t mappedFileSizeTimerLog = 100LL * 1024 * 1024;
    bool timerStopEnqueue = false;       // operator switches: park (enqueue) / deliver (dequeue) nothing
    bool timerStopDequeue = false;
    bool timerSkipUnknownError = false;  // a delivery that keeps failing is dropped instead of retried
    bool timerEnableRetryUntilSuccess = false; // else a delivery put is tried 3 times
    int timerCongestNumEachSlot = 2147483647; // flow control per slot (Integer.MAX_VALUE: off)
    int timerProgressLogIntervalMs = 10 * 1000;
    int disappearTimeAfterStart = -1;    // ms after start before the first delivery

    // BrokerConfig: the store host written into every record.
    std::string brokerIP1 = "127.0.0.1";
    int listenPort = 10911;

    std::string rootDir() const;
    std::string commitLogDir() const;

    // Applies broker.conf keys. Keys this config does not know are returned in `unknownKeys`
    // (the broker owns them); a bad value is an error naming the key and the value.
    using ApplyResult = common::ConfigApplyResult;
    ApplyResult apply(const std::map<std::string, std::string> &properties);
    // Sets one key; returns an error message, empty on success. Unknown keys are an error.
    std::string set(std::string_view key, std::string_view value);
    // Every key with its effective value, in name order.
    std::vector<std::pair<std::string, std::string>> toProperties() const;
};

} // namespace mqdesk::store
