// MessageStore's queries (store-format §5, §6): reads through the consume queues, the index and
// the commit log, from any thread.

#include "broker/store/message_store.h"

#include "broker/common/record_codec.h"

#include "broker/store/consume_queue_store.h"
#include "broker/store/index_service.h"

#include <algorithm>
#include <set>

namespace mqdesk::store {

std::string_view getStatusName(GetMessageStatus status)
{
    switch (status) {
    case GetMessageStatus::Found: return "FOUND";
    case GetMessageStatus::NoMatchedMessage: return "NO_MATCHED_MESSAGE";
    case GetMessageStatus::MessageWasRemoving: return "MESSAGE_WAS_REMOVING";
    case GetMessageStatus::OffsetFoundNull: return "OFFSET_FOUND_NULL";
    case GetMessageStatus::OffsetOverflowBadly: return "OFFSET_OVERFLOW_BADLY";
    case GetMessageStatus::OffsetOverflowOne: return "OFFSET_OVERFLOW_ONE";
    case GetMessageStatus::OffsetTooSmall: return "OFFSET_TOO_SMALL";
    case GetMessageStatus::NoMatchedLogicQueue: return "NO_MATCHED_LOGIC_QUEUE";
    case GetMessageStatus::NoMessageInQueue: return "NO_MESSAGE_IN_QUEUE";
    }
    return "UNKNOWN";
}

GetMessageOptions::TransferLimits transferLimitsOf(const MessageStoreConfig &config)
{
    GetMessageOptions::TransferLimits limits;
    limits.bytesInMemory = config.maxTransferBytesOnMessageInMemory;
    limits.countInMemory = config.maxTransferCountOnMessageInMemory;
    limits.bytesInDisk = config.maxTransferBytesOnMessageInDisk;
    limits.countInDisk = config.maxTransferCountOnMessageInDisk;
    static const int64_t physicalMemory = [] {
        const long pages = ::sysconf(_SC_PHYS_PAGES);
        const long pageSize = ::sysconf(_SC_PAGESIZE);
        return pages > 0 && pageSize > 0 ? int64_t{pages} * pageSize : int64_t{8} << 30;
    }();
    limits.memoryBytes = physicalMemory / 100 * std::clamp(config.accessMessageInMemoryMaxRatio, 0, 100);
    return limits;
}

GetMessageResult MessageStore::getMessage(const std::string &topic, int32_t queueId, int64_t offset, int maxCount,
                                          const std::set<int64_t> *tagsCodes) const
{
    GetMessageOptions options;
    if (tagsCodes)
        options.tagsFilter = [tagsCodes](int64_t code) { return tagsCodes->contains(code); };
    return getMessage(topic, queueId, offset, maxCount, options);
}

GetMessageResult MessageStore::getMessage(const std::string &topic, int32_t queueId, int64_t offset, int maxCount,
                                          const GetMessageOptions &options) const
{
    GetMessageResult result;
    const auto queue = consumeQueues_->find(topic, queueId);
    if (!queue) {
        result.status = GetMessageStatus::NoMatchedLogicQueue;
        return result;
    }
    result.minOffset = queue->minOffset();
    result.maxOffset = queue->maxOffset();
    // Where a consumer should go next when the offset is out of range (RocketMQ's correction).
    if (result.maxOffset == 0) {
        result.status = GetMessageStatus::NoMessageInQueue;
        return result;
    }
    if (offset < result.minOffset) {
        result.status = GetMessageStatus::OffsetTooSmall;
        result.nextBeginOffset = result.minOffset;
        return result;
    }
    if (offset == result.maxOffset) {
        result.status = GetMessageStatus::OffsetOverflowOne;
        result.nextBeginOffset = offset;
        return result;
    }
    if (offset > result.maxOffset) {
        result.status = GetMessageStatus::OffsetOverflowBadly;
        result.nextBeginOffset = result.maxOffset;
        return result;
    }

    result.status = GetMessageStatus::NoMatchedMessage;
    int64_t next = offset;
    const int64_t commitLogMin = commitLog_->minOffset();
    // Scan at most a few times maxCount entries so a selective filter cannot make one read
    // unbounded; the consumer continues from nextBeginOffset.
    // A client's read hands out at most its transfer limit, so that bounds the scan too (a
    // request naming 65,536 messages under a tag nothing matches must not read a million entries).
    const int handedOutAtMost = options.transferLimits ? std::min(maxCount, std::max(options.transferLimits->countInMemory,
                                                                                    options.transferLimits->countInDisk))
                                                       : maxCount;
    const int scanLimit = std::max(handedOutAtMost, 1) * 16;
    int scanned = 0;
    bool full = false;
    const int64_t commitLogEnd = options.transferLimits ? commitLog_->maxOffset() : 0;
    int64_t takenBytes = 0;
    while (!full && result.messageCount < maxCount && scanned < scanLimit && next < result.maxOffset) {
        const auto entries = queue->entriesFrom(next, std::min(scanLimit - scanned, 256));
        if (entries.empty())
            break;
        for (const ConsumeQueueEntry &entry : entries) {
            // An entry holds batchSize messages from its queue offset (more than one only for a
            // BatchCQ inner batch, handed out whole as Java does). A damaged unit that would lead
            // back is stepped over, so a read always moves on.
            const int64_t after
                = std::max(next + 1, entry.queueOffset + (entry.isFiller() ? 1 : std::max(entry.batchSize, 1)));
            if (entry.isFiller()) {
                next = after;
                ++scanned;
                continue;
            }
            if (entry.commitLogOffset < commitLogMin) {
                result.status = GetMessageStatus::MessageWasRemoving;
                next = after;
                ++scanned;
                continue;
            }
            if (options.tagsFilter && !options.tagsFilter(entry.tagsCode)) {
                next = after;
                ++scanned;
                continue;
            }
            if (result.messageCount > 0 && result.messageCount + entry.batchSize > maxCount) {
                full = true; // Java's isTheBatchFull: a batch is never split
                break;
            }
            if (options.maxBytes > 0 && result.messageCount > 0
                && static_cast<int64_t>(result.recordBytes.size()) + entry.size > options.maxBytes) {
                full = true; // the next pull starts at this entry
                break;
            }
            if (const auto &limits = options.transferLimits; limits && result.messageCount > 0) {
                const bool inMemory = commitLogEnd - entry.commitLogOffset <= limits->memoryBytes;
                if (takenBytes + entry.size > (inMemory ? limits->bytesInMemory : limits->bytesInDisk)
                    || result.messageCount >= (inMemory ? limits->countInMemory : limits->countInDisk)) {
                    full = true;
                    break;
                }
            }
            const int64_t queueOffset = entry.queueOffset;
            next = after;
            ++scanned;
            // The record is checked as the entry's own as it is read; an entry that names another
            // (a damaged queue file) is rebuilt from the commit log and read again, rather than its
            // message skipped (consume_queue_repair.cpp).
            bool filteredOut = false;
            bool read = false;
            ConsumeQueueEntry target = entry;
            for (int attempt = 0; attempt < 2 && !read; ++attempt) {
                if (attempt == 1) {
                    const auto repaired = repairConsumeQueueEntry(*queue, queueOffset);
                    if (!repaired)
                        break;
                    target = *repaired;
                }
                if (options.rawRecords) {
                    const size_t before = result.recordBytes.size();
                    if (commitLog_->copyRecord(target.commitLogOffset, target.size, result.recordBytes)) {
                        const std::span<const uint8_t> record(result.recordBytes.data() + before,
                                                              result.recordBytes.size() - before);
                        const common::DecodeResult decoded = common::decodeRecord(record, {.checkCrc = false});
                        if (decoded.status == common::DecodeStatus::Ok) {
                            read = isEntrysRecord(decoded.record, target, topic, queueId, queueOffset);
                            filteredOut = read && options.propertiesFilter
                                          && !options.propertiesFilter(
                                              common::MessageProperties::decode(decoded.record.properties));
                        } else {
                            // A damaged record where the entry says (its own offset and size at
                            // its start) is served as it is: the client reports it.
                            const auto header = common::peekRecordHeader(record);
                            read = header && header->physicalOffset == target.commitLogOffset
                                   && header->totalSize == target.size;
                        }
                    }
                    if (!read || filteredOut)
                        result.recordBytes.resize(before);
                } else {
                    auto message = commitLog_->readMessage(target.commitLogOffset);
                    read = message && isEntrysRecord(*message, target, topic, queueId, queueOffset);
                    if (read) {
                        filteredOut = options.propertiesFilter && !options.propertiesFilter(message->properties);
                        if (!filteredOut)
                            result.messages.push_back(std::move(*message));
                    }
                }
            }
            if (!read) {
                result.status = GetMessageStatus::OffsetFoundNull;
                continue;
            }
            if (filteredOut)
                continue;
            result.queueOffsets.push_back(queueOffset);
            takenBytes += target.size;
            result.messageCount += entry.batchSize;
            if (result.messageCount >= maxCount)
                break;
        }
    }
    if (result.messageCount > 0)
        result.status = GetMessageStatus::Found;
    result.nextBeginOffset = next;
    return result;
}

int64_t MessageStore::minOffsetInQueue(const std::string &topic, int32_t queueId) const
{
    const auto queue = consumeQueues_->find(topic, queueId);
    return queue ? queue->minOffset() : 0;
}

int64_t MessageStore::maxOffsetInQueue(const std::string &topic, int32_t queueId) const
{
    const auto queue = consumeQueues_->find(topic, queueId);
    return queue ? queue->maxOffset() : 0;
}

int64_t MessageStore::offsetInQueueByTime(const std::string &topic, int32_t queueId, int64_t timestamp) const
{
    const auto queue = consumeQueues_->find(topic, queueId);
    if (!queue)
        return 0;
    const auto storeTimeAt = [&](int64_t queueOffset) -> int64_t {
        const auto entry = queue->entryAt(queueOffset);
        if (!entry || entry->isFiller())
            return -1;
        const auto message = commitLog_->readMessage(entry->commitLogOffset);
        return message ? message->storeTimestamp : -1;
    };
    int64_t low = queue->minOffset();
    int64_t high = queue->maxOffset(); // exclusive: the answer when every message is older
    while (low < high) {
        const int64_t middle = low + (high - low) / 2;
        const int64_t stored = storeTimeAt(middle);
        if (stored >= timestamp)
            high = middle;
        else
            low = middle + 1; // older (or unreadable: retention took it)
    }
    return low;
}

int64_t MessageStore::earliestMessageTime(const std::string &topic, int32_t queueId) const
{
    const auto queue = consumeQueues_->find(topic, queueId);
    if (!queue)
        return -1;
    for (int64_t offset = queue->minOffset(); offset < queue->maxOffset(); ++offset) {
        const auto entry = queue->entryAt(offset);
        if (!entry)
            break;
        if (entry->isFiller())
            continue;
        const auto message = commitLog_->readMessage(entry->commitLogOffset);
        return message ? message->storeTimestamp : -1;
    }
    return -1;
}

int64_t MessageStore::earliestMessageTime() const
{
    int64_t earliest = -1;
    commitLog_->forEachRecord(commitLog_->minOffset(), [&earliest](int64_t, const common::RecordView &record) {
        earliest = record.storeTimestamp;
        return false;
    });
    return earliest;
}

std::optional<common::StoredMessage> MessageStore::lookMessageByOffset(int64_t commitLogOffset) const
{
    return commitLog_->readMessage(commitLogOffset);
}

QueryMessageResult MessageStore::queryMessage(const std::string &topic, const std::string &key, int maxCount,
                                              int64_t begin, int64_t end, bool byTags) const
{
    QueryMessageResult result;
    // A tag's entries are "<topic>#T#<TAGS>" (IndexFile::kTagKeyInfix).
    const auto found = index_->queryOffset(topic, byTags ? "T#" + key : key, maxCount, begin, end);
    result.indexLastUpdateTimestamp = found.indexLastUpdateTimestamp;
    result.indexLastUpdatePhyOffset = found.indexLastUpdatePhyOffset;
    std::set<int64_t> seen;
    for (const int64_t offset : found.phyOffsets) {
        // The index can hold a record twice: re-dispatch indexes the record at a file's
        // endPhyOffset again (as RocketMQ does), e.g. after a crash.
        if (!seen.insert(offset).second)
            continue;
        auto message = commitLog_->readMessage(offset);
        if (!message || message->topic != topic)
            continue;
        // The index only knows hashes: keep messages that really carry the key (or the tags).
        if (byTags) {
            if (message->properties.get(common::property::kTags) != std::optional<std::string_view>(key))
                continue;
        } else {
            const auto uniqKey = message->properties.get(common::property::kUniqClientMessageId);
            const auto keys = message->properties.keys();
            if (uniqKey != key && std::find(keys.begin(), keys.end(), key) == keys.end())
                continue;
        }
        result.messages.push_back(std::move(*message));
    }
    return result;
}

int64_t MessageStore::messageCountInQueue(const std::string &topic, int32_t queueId, int64_t from, int64_t to) const
{
    const auto queue = consumeQueues_->find(topic, queueId);
    if (!queue)
        return 0;
    const int64_t low = std::max(from, queue->minOffset());
    const int64_t high = std::min(to, queue->maxOffset());
    return std::max<int64_t>(0, high - low);
}

} // namespace mqdesk::store
