#pragma once

// One consume queue (store-format §5): consumequeue/<topic>/<queueId>/, a mapped-file queue of
// 20-byte entries — commit-log offset (long), record size (int), tags code (long) — where the
// entry of queue offset q sits at logical byte q × 20.
//
// Threading: one writer (the dispatch thread, or recovery before it starts); readers on any
// thread see entries below each file's read position.

#include "broker/store/mapped_file_queue.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mqdesk::store {

struct ConsumeQueueEntry
{
    int64_t commitLogOffset = 0;
    int32_t size = 0;
    int64_t tagsCode = 0;

    // The filler RocketMQ writes before the first entry of a re-created queue (§5.1).
    bool isFiller() const { return commitLogOffset == 0 && size == 0x7FFFFFFF && tagsCode == 0; }
};

class ConsumeQueue
{
public:
    static constexpr int64_t kEntrySize = 20;

    ConsumeQueue(std::string topic, int32_t queueId, std::string directory, int64_t fileSize);

    const std::string &topic() const { return topic_; }
    int32_t queueId() const { return queueId_; }
    const std::string &directory() const { return queue_.directory(); }
    MappedFileQueue &mappedFileQueue() { return queue_; }

    bool load(std::string &error);
    // §5.3: validates entries from the third file from the end and truncates after the last
    // valid one.
    bool recover(std::string &error);
    // Drops every entry pointing at or beyond `commitLogEnd` (after the commit log was cut).
    bool truncateDirtyLogicFiles(int64_t commitLogEnd, std::string &error);

    // Appends the entry of queue offset `queueOffset` (dispatch). Entries already dispatched
    // are skipped; returns false with `error` set only when a file cannot be created or written.
    bool putEntry(int64_t commitLogOffset, int32_t size, int64_t tagsCode, int64_t queueOffset,
                  int64_t storeTimestamp, std::string &error);

    // Queue offsets: [minOffset, maxOffset) hold entries; maxOffset is the next to be written.
    int64_t minOffset() const { return minLogicOffset_.load(std::memory_order_acquire) / kEntrySize; }
    int64_t maxOffset() const { return queue_.maxOffset() / kEntrySize; }
    // End (offset + size) of the last entry's record: how far this queue has been dispatched.
    int64_t maxPhysicOffset() const { return maxPhysicOffset_.load(std::memory_order_acquire); }
    // Store time of the last entry written, for the checkpoint's logicsMsgTimestamp.
    int64_t lastStoreTimestamp() const;

    std::optional<ConsumeQueueEntry> entryAt(int64_t queueOffset) const;
    // Up to `maxCount` entries from `queueOffset` on, stopping at a file end.
    std::vector<ConsumeQueueEntry> entriesFrom(int64_t queueOffset, int maxCount) const;

    // Sets the min offset to the first entry whose record is still in the commit log (§5.2).
    void correctMinOffset(int64_t commitLogMinOffset);
    // Deletes leading files (never the last) whose last entry points below `commitLogMinOffset`.
    int deleteExpiredFiles(int64_t commitLogMinOffset);

    MappedFileQueue::SyncResult flush(int leastPages) { return queue_.flush(leastPages); }

private:
    static ConsumeQueueEntry readEntry(const uint8_t *at);
    bool fillPreBlank(MappedFile &file, int64_t untilPosition, std::string &error);

    std::string topic_;
    int32_t queueId_;
    MappedFileQueue queue_;
    std::atomic<int64_t> minLogicOffset_{0};
    std::atomic<int64_t> maxPhysicOffset_{-1};
};

} // namespace mqdesk::store
