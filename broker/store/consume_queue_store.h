#pragma once

// All consume queues of a store (RocketMQ's ConsumeQueueStore): consumequeue/<topic>/<queueId>/,
// and batchconsumequeue/<topic>/<queueId>/ for topics with queue.type=BatchCQ. Queues are created
// on first use (by the put that reserves their files, or the dispatch thread) and looked up from
// any thread; a topic's queue type is the broker's to say (setBatchTopicTest) when its first
// queue is made, and the directory it was found in after that.

#include "broker/store/consume_queue.h"
#include "broker/common/log_rate_limiter.h"
#include "broker/store/recovery_progress.h"
#include "broker/store/store_config.h"

#include <functional>
#include <memory>
#include <shared_mutex>
#include <string>
#include <unordered_map>

namespace mqdesk::store {

class ConsumeQueueStore
{
public:
    // `batchRootDirectory` empty: no BatchCQ queues (a store opened for the tests of one format).
    ConsumeQueueStore(std::string rootDirectory, int64_t fileSize, std::string batchRootDirectory = {},
                      int64_t batchFileSize = 0);

    // Whether a topic's new queues are BatchCQ (its queue.type attribute). Set before open();
    // called from put threads and the dispatch thread, so it must be thread-safe.
    using BatchTopicTest = std::function<bool(const std::string &topic)>;
    void setBatchTopicTest(BatchTopicTest test) { isBatchTopic_ = std::move(test); }

    // Opens every consumequeue/<topic>/<numeric queueId>/ directory (others are ignored).
    bool load(std::string &error);
    // Recovers every queue; returns the dispatch-from offset: the largest end of a record any
    // queue points at, -1 when no queue holds an entry.
    // `progress`: the "consume queues" phase (recovery_progress.h).
    bool recover(int64_t &dispatchFromPhyOffset, std::string &error, const RecoveryProgressCallback &progress = {});
    // Drops the entries past `commitLogEnd` at the end of each queue. `lowestEnd` becomes the
    // lowest record end a cut queue still points at (the log's start when one kept nothing), -1
    // when none was cut: dispatch must start there again to refill what a damaged tail lost.
    bool truncateDirty(int64_t commitLogEnd, int64_t &lowestEnd, std::string &error);
    void correctMinOffsets(int64_t commitLogMinOffset);

    // The queue, created (with its directory) when `create` is set. Creation fails (nullptr,
    // `error` naming topic and path) for a topic that is not one safe path component
    // (store_paths.h) or whose directory cannot be made.
    std::shared_ptr<ConsumeQueue> find(const std::string &topic, int32_t queueId, bool create,
                                       std::string *error = nullptr);
    std::shared_ptr<ConsumeQueue> find(const std::string &topic, int32_t queueId) const;
    void forEach(const std::function<void(ConsumeQueue &)> &visit) const;
    bool hasTopic(const std::string &topic) const;
    // Next queue offset of every topic-queue, keyed "topic-queueId" like the commit log's table.
    std::unordered_map<std::string, int64_t> queueOffsetTable() const;
    // Latest store time written to any queue (checkpoint logicsMsgTimestamp).
    int64_t lastStoreTimestamp() const;

    // Forgets every queue of `topic` and deletes its files and directories (Java's
    // deleteTopics). Readers holding a queue keep reading it: only the names go (MappedFile::
    // destroy). Returns false with `error` naming what could not be deleted; the queue is
    // forgotten even then. Callers keep new entries out meanwhile (MessageStore::deleteTopicQueues).
    bool remove(const std::string &topic, std::string &error);

    // Flushes every queue (leastPages rule as for the commit log); returns bytes flushed.
    int64_t flushAll(int leastPages);
    int deleteExpiredFiles(int64_t commitLogMinOffset);

private:
    std::shared_ptr<ConsumeQueue> makeQueue(bool batch, const std::string &topic, int32_t queueId,
                                            std::string directory) const;

    std::string root_;
    std::string batchRoot_;
    int64_t fileSize_;
    int64_t batchFileSize_;
    BatchTopicTest isBatchTopic_;
    common::LogRateLimiter flushFailureLog_;
    mutable std::shared_mutex mutex_;
    // Hashed: every put, dispatch and pull looks its queue up, and a topic may have 1,024
    // queues; forEach() still visits them in (topic, queue id) order.
    using QueuesById = std::unordered_map<int32_t, std::shared_ptr<ConsumeQueue>>;
    std::unordered_map<std::string, QueuesById> queues_; // guarded by mutex_
};

// The consume-queue file size in effect: the setting rounded up to whole entries (§2.1).
inline int64_t consumeQueueFileSize(int64_t configured)
{
    constexpr int64_t entry = SimpleConsumeQueue::kEntrySize;
    return (configured + entry - 1) / entry * entry;
}

} // namespace mqdesk::store
