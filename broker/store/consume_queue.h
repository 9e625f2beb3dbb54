#pragma once

// One consume queue (store-format §5): consumequeue/<topic>/<queueId>/, a mapped-file queue of
// 20-byte entries — commit-log offset (long), record size (int), tags code (long) — where the
// entry of queue offset q sits at logical byte q × 20; or, for a topic with queue.type=BatchCQ,
// batchconsumequeue/<topic>/<queueId>/ of 46-byte units (batch_consume_queue.h).
//
// Threading: one writer (the dispatch thread, or recovery before it starts); readers on any
// thread see entries below each file's read position. reserveFor() is called by put threads
// (serialised by the commit log's put lock) and only makes files the writer takes later.
//
// Why reserve: queue offsets are assigned at put time. If the file an entry needs could only be
// made by the dispatcher, a full disk would be found after the put was acknowledged, and the
// entry would be lost or land at the wrong queue offset. So the put first makes sure the file
// exists (reserved aside, outside the queue's list, so readers never see an empty file as
// entries) and that the blocks of its entries are reserved (the files are sparse, reserved in
// 64 KiB steps: see MappedFile::Reservation), and is refused when either cannot be done.

#include "broker/common/message_properties.h"
#include "broker/store/mapped_file_queue.h"

#include <atomic>
#include <deque>
#include <functional>
#include <mutex>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace mqdesk::store {

struct ConsumeQueueEntry
{
    int64_t commitLogOffset = 0;
    int32_t size = 0;
    int64_t tagsCode = 0;
    // The queue offset of the entry's (first) message, and how many messages its record holds:
    // more than 1 only for a BatchCQ inner batch (one record, NEED_UNWRAP | INNER_BATCH).
    int64_t queueOffset = 0;
    int32_t batchSize = 1;
    int64_t storeTimestamp = 0; // BatchCQ units only; 0 in a SimpleCQ entry

    // The filler RocketMQ writes before the first entry of a re-created queue (§5.1).
    bool isFiller() const { return commitLogOffset == 0 && size == 0x7FFFFFFF && tagsCode == 0; }
};

// Whether a record whose INNER_MULTI_DISPATCH and INNER_MULTI_QUEUE_OFFSET are `names` and
// `offsets` was entered in queue `topic` at `queueOffset` (LMQ multi-dispatch, store spec §LMQ).
bool isMultiDispatchedTo(std::optional<std::string_view> names, std::optional<std::string_view> offsets,
                         std::string_view topic, int64_t queueOffset);

// Whether `record` (a record's fields as stored: common::RecordView or StoredMessage) is the one
// the entry of `queueOffset` in queue `topic`/`queueId` names: each record keeps its own
// commit-log offset, size, topic, queue id and queue offset, and the queues it was also entered
// in with their offsets (LMQs).
template<typename Record>
bool isEntrysRecord(const Record &record, const ConsumeQueueEntry &entry, std::string_view topic, int32_t queueId,
                    int64_t queueOffset)
{
    if (record.totalSize != entry.size || record.physicalOffset != entry.commitLogOffset)
        return false;
    if (record.queueId == queueId && record.queueOffset == queueOffset && std::string_view(record.topic) == topic)
        return true;
    const auto property = [&record](std::string_view key) -> std::optional<std::string_view> {
        if constexpr (std::is_same_v<std::decay_t<decltype(record.properties)>, std::string_view>)
            return common::MessageProperties::find(record.properties, key);
        else
            return record.properties.get(key);
    };
    return isMultiDispatchedTo(property(common::property::kInnerMultiDispatch),
                               property(common::property::kInnerMultiQueueOffset), topic, queueOffset);
}

// What the queues of both formats share: a topic-queue's mapped-file queue, the files a put
// reserves ahead of the writer, and how far dispatch has come. Queue offsets count messages in
// both: a SimpleCQ entry is one message, a BatchCQ unit one record holding batchSize of them.
class ConsumeQueue
{
public:
    virtual ~ConsumeQueue() = default;
    ConsumeQueue(const ConsumeQueue &) = delete;
    ConsumeQueue &operator=(const ConsumeQueue &) = delete;

    const std::string &topic() const { return topic_; }
    int32_t queueId() const { return queueId_; }
    const std::string &directory() const { return queue_.directory(); }
    MappedFileQueue &mappedFileQueue() { return queue_; }
    // The bytes of one entry in the files: 20 (SimpleCQ) or 46 (BatchCQ).
    virtual int64_t unitSize() const = 0;
    // Whether this is a BatchCQ queue (batchconsumequeue/), whose units may hold several messages.
    virtual bool isBatch() const = 0;

    bool load(std::string &error);
    // §5.3: validates entries from the third file from the end and truncates after the last
    // valid one.
    virtual bool recover(std::string &error) = 0;
    // Drops every entry pointing at or beyond `commitLogEnd` (after the commit log was cut).
    virtual bool truncateDirtyLogicFiles(int64_t commitLogEnd, std::string &error) = 0;

    // Makes sure files exist, with their blocks reserved, for the `recordCount` entries a put of
    // that many records starting at queue offset `firstQueueOffset` adds: false with `error`
    // naming the file when one cannot be created or reserved.
    // Requires: the commit log's put lock (one caller at a time).
    virtual bool reserveFor(int64_t firstQueueOffset, int32_t recordCount, std::string &error) = 0;

    // Appends the entry of the record at `commitLogOffset` whose first message has queue offset
    // `queueOffset` and which holds `batchSize` messages (1 but for a BatchCQ inner batch).
    // Entries already dispatched are skipped. Returns false with `error` set only when a file
    // cannot be created (retry later).
    virtual bool putEntry(int64_t commitLogOffset, int32_t size, int64_t tagsCode, int64_t queueOffset,
                          int64_t storeTimestamp, int32_t batchSize, std::string &error) = 0;

    // Queue offsets: [minOffset, maxOffset) hold messages; maxOffset is the next to be written.
    virtual int64_t minOffset() const = 0;
    virtual int64_t maxOffset() const = 0;
    // End (offset + size) of the last entry's record: how far this queue has been dispatched.
    int64_t maxPhysicOffset() const { return maxPhysicOffset_.load(std::memory_order_acquire); }
    // Store time of the last entry written, for the checkpoint's logicsMsgTimestamp.
    int64_t lastStoreTimestamp() const;

    // The entry holding the message of `queueOffset` (for a BatchCQ, the unit whose batch holds it).
    std::optional<ConsumeQueueEntry> entryAt(int64_t queueOffset) const;
    // Up to `maxCount` entries from the one holding `queueOffset` on, stopping at a file end.
    virtual std::vector<ConsumeQueueEntry> entriesFrom(int64_t queueOffset, int maxCount) const = 0;

    // Rewrites the existing entry of `queueOffset` (a damaged one, found by a read: see
    // MessageStore's consume-queue repair). Requires: the entry exists; one rewriter at a time
    // (the dispatcher only appends past it). False with `error` naming the file.
    virtual bool rewriteEntry(int64_t queueOffset, const ConsumeQueueEntry &entry, std::string &error) = 0;

    // Sets the min offset to the first entry whose record is still in the commit log (§5.2).
    virtual void correctMinOffset(int64_t commitLogMinOffset) = 0;
    // Deletes leading files (never the last) whose last entry points below `commitLogMinOffset`.
    int deleteExpiredFiles(int64_t commitLogMinOffset);

    MappedFileQueue::SyncResult flush(int leastPages) { return queue_.flush(leastPages); }

protected:
    ConsumeQueue(std::string topic, int32_t queueId, std::string directory, int64_t fileSize);

    // §5.3's scan, from the third file from the end: the entries `accept` takes, in order, are
    // kept and everything after the first it refuses is cut; a last file left empty (one a put
    // reserved before a crash) is dropped.
    bool keepValidEntries(const std::function<bool(const uint8_t *entry)> &accept, std::string &error);
    // The commit-log offset of the entry at byte `position` of `file`.
    virtual int64_t commitLogOffsetAt(const MappedFile &file, int64_t position) const = 0;
    // Makes the files of logical bytes [needBegin, needEnd) exist with their blocks reserved.
    // Requires: the commit log's put lock.
    bool reserveBytes(int64_t needBegin, int64_t needEnd, std::string &error);
    // The file starting at `startOffset` for the writer: the reserved one, or one made now.
    std::shared_ptr<MappedFile> nextFile(int64_t startOffset, std::string &error);

    std::string topic_;
    int32_t queueId_;
    MappedFileQueue queue_;
    std::atomic<int64_t> maxPhysicOffset_{-1};

private:
    // Files made by reserveBytes() for the writer, oldest first; guarded by reserveMutex_.
    std::mutex reserveMutex_;
    std::deque<std::unique_ptr<MappedFile>> reserved_;
    // A lower bound of the logical end through which the queue's blocks are reserved: the put
    // path's fast check.
    std::atomic<int64_t> provisionedEnd_{0};
};

// The consume queue of a SimpleCQ topic (store-format §5): the entry of queue offset q at
// logical byte q × 20.
class SimpleConsumeQueue final : public ConsumeQueue
{
public:
    static constexpr int64_t kEntrySize = 20;

    SimpleConsumeQueue(std::string topic, int32_t queueId, std::string directory, int64_t fileSize);

    int64_t unitSize() const override { return kEntrySize; }
    bool isBatch() const override { return false; }
    bool recover(std::string &error) override;
    bool truncateDirtyLogicFiles(int64_t commitLogEnd, std::string &error) override;
    bool reserveFor(int64_t firstQueueOffset, int32_t recordCount, std::string &error) override;
    // A gap left by a record the dispatcher stepped over is filled with fillers so later
    // entries keep their queue offsets.
    bool putEntry(int64_t commitLogOffset, int32_t size, int64_t tagsCode, int64_t queueOffset,
                  int64_t storeTimestamp, int32_t batchSize, std::string &error) override;
    int64_t minOffset() const override { return minLogicOffset_.load(std::memory_order_acquire) / kEntrySize; }
    int64_t maxOffset() const override { return queue_.maxOffset() / kEntrySize; }
    std::vector<ConsumeQueueEntry> entriesFrom(int64_t queueOffset, int maxCount) const override;
    bool rewriteEntry(int64_t queueOffset, const ConsumeQueueEntry &entry, std::string &error) override;
    void correctMinOffset(int64_t commitLogMinOffset) override;

private:
    int64_t commitLogOffsetAt(const MappedFile &file, int64_t position) const override;
    static ConsumeQueueEntry readEntry(const uint8_t *at);
    void fillBlank(MappedFile &file, int64_t untilPosition);

    std::atomic<int64_t> minLogicOffset_{0};
};

} // namespace mqdesk::store
