// A consume-queue entry that does not point at its own record, found where it is read.
//
// Recovery after a clean stop trusts the consume queues (store-format §5.3 checks only the
// last files, and only for entries past the commit log), so a damaged entry — overwritten,
// pointing past the log or at another queue's record — would make pulls skip its message for
// good. A read checks each entry against the record it names (the record keeps its own
// commit-log offset, topic, queue id and queue offset); one that fails is rebuilt from the
// commit log: the walk starts after the nearest earlier entry that holds, and rewrites every
// entry of the queue whose record it meets, up to the damaged one. Each damaged queue is logged
// once; a record the log no longer has leaves the entry as it is (the read skips it, as before).

#include "broker/store/message_store.h"

#include "broker/common/record_codec.h"
#include "broker/store/consume_queue.h"
#include "broker/store/consume_queue_store.h"
#include "broker/store/reput_message_service.h"

#include <spdlog/spdlog.h>

namespace mqdesk::store {

namespace {

// How far back an earlier entry that holds is looked for, and how much of the commit log one
// repair may walk: a repair runs on a pull thread.
constexpr int64_t kLookBehindEntries = 1024;
constexpr int64_t kMaxWalkBytes = 256LL * 1024 * 1024;

} // namespace

bool MessageStore::entryIsItsRecord(const ConsumeQueue &queue, int64_t queueOffset, const ConsumeQueueEntry &entry) const
{
    std::vector<uint8_t> bytes;
    if (entry.size <= 0 || !commitLog_->copyRecord(entry.commitLogOffset, entry.size, bytes))
        return false;
    const common::DecodeResult decoded = common::decodeRecord(bytes, {.checkCrc = false});
    return decoded.status == common::DecodeStatus::Ok
           && isEntrysRecord(decoded.record, entry, queue.topic(), queue.queueId(), queueOffset);
}

std::optional<ConsumeQueueEntry> MessageStore::repairConsumeQueueEntry(ConsumeQueue &queue, int64_t queueOffset) const
{
    std::lock_guard lock(repairMutex_);
    if (const auto entry = queue.entryAt(queueOffset); entry && entryIsItsRecord(queue, queueOffset, *entry))
        return entry; // another reader repaired it meanwhile
    if (queue.isBatch())
        return std::nullopt; // BatchCQ units are not rebuilt (BatchConsumeQueue::rewriteEntry)

    int64_t from = commitLog_->minOffset();
    for (int64_t earlier = queueOffset - 1; earlier >= std::max(queue.minOffset(), queueOffset - kLookBehindEntries);
         --earlier) {
        const auto entry = queue.entryAt(earlier);
        if (entry && !entry->isFiller() && entryIsItsRecord(queue, earlier, *entry)) {
            from = entry->commitLogOffset + entry->size;
            break;
        }
    }

    std::optional<ConsumeQueueEntry> found;
    int rewritten = 0;
    std::string error;
    commitLog_->forEachRecord(from, [&](int64_t offset, const common::RecordView &record) {
        if (offset - from > kMaxWalkBytes)
            return false;
        if (record.queueId != queue.queueId() || record.topic != queue.topic() || record.queueOffset > queueOffset)
            return true;
        const ConsumeQueueEntry rebuilt{offset, record.totalSize,
                                        reput_->tagsCodeFor(record.topic, record.properties, record.storeTimestamp),
                                        record.queueOffset};
        const auto stored = queue.entryAt(record.queueOffset);
        if (stored && (stored->commitLogOffset != rebuilt.commitLogOffset || stored->size != rebuilt.size)) {
            if (!queue.rewriteEntry(record.queueOffset, rebuilt, error))
                return false;
            ++rewritten;
        }
        if (record.queueOffset == queueOffset) {
            found = rebuilt;
            return false;
        }
        return true;
    });

    const std::string name = queue.topic() + "/" + std::to_string(queue.queueId());
    if (!error.empty())
        spdlog::error("consume queue {}: cannot rewrite a damaged entry: {}", name, error);
    if (damagedQueuesReported_.insert(name).second)
        spdlog::warn("consume queue {}: the entry at queue offset {} did not point at its own record; {} ({} entries "
                     "rebuilt from the commit log). Later damaged entries of this queue are rebuilt without a word",
                     name, queueOffset, found ? "its message is served again" : "the commit log no longer has it",
                     rewritten);
    return found;
}

} // namespace mqdesk::store
