#pragma once

// The consume queue of a topic with queue.type=BatchCQ (RocketMQ's BatchConsumeQueue):
// batchconsumequeue/<topic>/<queueId>/, a mapped-file queue of 46-byte units —
//
//   commit-log offset (long) | record size (int) | tags code (long) | store time (long)
//   | msgBaseOffset (long) | batchSize (short) | compactedOffset (int, -1) | reserved (int)
//
// — one per record, in log order. A record that is an inner batch (sysFlag NEED_UNWRAP |
// INNER_BATCH, INNER_NUM messages in its body) holds queue offsets [msgBaseOffset, msgBaseOffset
// + batchSize); any other record one. So a unit's place in the files says nothing about its queue
// offset: reads binary-search msgBaseOffset, files first, then units within the file. Files are
// named by their first logical byte like every mapped-file queue, and hold whole units
// (mapperFileSizeBatchConsumeQueue, 300,000 units by default), so there are no fillers.
//
// Threading as ConsumeQueue's: one writer (the dispatch thread, or recovery before it starts),
// readers on any thread, reserveFor() under the commit log's put lock.

#include "broker/store/consume_queue.h"

namespace mqdesk::store {

class BatchConsumeQueue final : public ConsumeQueue
{
public:
    static constexpr int64_t kUnitSize = 46;

    BatchConsumeQueue(std::string topic, int32_t queueId, std::string directory, int64_t fileSize);

    int64_t unitSize() const override { return kUnitSize; }
    bool isBatch() const override { return true; }
    bool recover(std::string &error) override;
    bool truncateDirtyLogicFiles(int64_t commitLogEnd, std::string &error) override;
    // One unit per record, whatever queue offsets the records take.
    bool reserveFor(int64_t firstQueueOffset, int32_t recordCount, std::string &error) override;
    bool putEntry(int64_t commitLogOffset, int32_t size, int64_t tagsCode, int64_t queueOffset,
                  int64_t storeTimestamp, int32_t batchSize, std::string &error) override;
    int64_t minOffset() const override { return minOffset_.load(std::memory_order_acquire); }
    int64_t maxOffset() const override { return maxOffset_.load(std::memory_order_acquire); }
    // From the unit holding `queueOffset`, or the first after it when no unit holds it.
    std::vector<ConsumeQueueEntry> entriesFrom(int64_t queueOffset, int maxCount) const override;
    // Units are not rebuilt from the commit log: false, saying so.
    bool rewriteEntry(int64_t queueOffset, const ConsumeQueueEntry &entry, std::string &error) override;
    void correctMinOffset(int64_t commitLogMinOffset) override;

    static ConsumeQueueEntry readUnit(const uint8_t *at);
    static void writeUnit(uint8_t *at, const ConsumeQueueEntry &unit);
    // What recovery keeps: RocketMQ's test (offset ≥ 0, size > 0, base ≥ 0, batch > 0).
    static bool isValidUnit(const ConsumeQueueEntry &unit);

private:
    int64_t commitLogOffsetAt(const MappedFile &file, int64_t position) const override;
    // Sets the min and max queue offsets (and how far dispatch came) from the files.
    void reviseFromFiles();

    std::atomic<int64_t> minOffset_{0};
    std::atomic<int64_t> maxOffset_{0};
    // Units the puts so far take, past what the files hold (-1: not counted yet). Put lock only.
    int64_t unitsAssigned_ = -1;
};

// The BatchCQ file size in effect: the setting rounded up to whole units.
inline int64_t batchConsumeQueueFileSize(int64_t configured)
{
    return (configured + BatchConsumeQueue::kUnitSize - 1) / BatchConsumeQueue::kUnitSize * BatchConsumeQueue::kUnitSize;
}

} // namespace mqdesk::store
