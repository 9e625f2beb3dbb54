#include "broker/store/reput_message_service.h"

#include "broker/common/bytes.h"
#include "broker/common/java_hash.h"
#include "broker/common/java_strings.h"
#include "broker/common/message_properties.h"
#include "broker/common/record_codec.h"
#include "broker/store/commit_log.h"

#include <spdlog/spdlog.h>

#include <charconv>

namespace mqdesk::store {

using namespace std::chrono_literals;

std::vector<int64_t> parseDelayLevels(std::string_view text)
{
    std::vector<int64_t> levels;
    while (!text.empty()) {
        const size_t end = text.find(' ');
        const std::string_view item = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        if (item.empty())
            continue;
        int64_t unit = 0;
        switch (item.back()) {
        case 's': unit = 1000; break;
        case 'm': unit = 60 * 1000; break;
        case 'h': unit = 3600 * 1000; break;
        case 'd': unit = 24 * 3600 * 1000; break;
        default: return {};
        }
        int64_t count = 0;
        const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size() - 1, count);
        if (ec != std::errc() || ptr != item.data() + item.size() - 1)
            return {};
        levels.push_back(count * unit);
    }
    return levels;
}

ReputMessageService::ReputMessageService(CommitLog &commitLog, std::vector<Dispatcher> dispatchers,
                                         const std::vector<int64_t> &delayLevelMillis)
    : ServiceThread("ReputMessage"), commitLog_(commitLog), dispatchers_(std::move(dispatchers)),
      delayLevelMillis_(delayLevelMillis)
{}

ReputMessageService::~ReputMessageService() { stop(); }

int64_t ReputMessageService::reputEnd() const
{
    // Under SYNC_FLUSH consumers see a message only once it is on disk (§10).
    return commitLog_.flushDiskType() == FlushDiskType::SyncFlush ? commitLog_.flushedWhere()
                                                                   : commitLog_.maxOffset();
}

int64_t ReputMessageService::dispatchBehindBytes() const
{
    return std::max<int64_t>(0, commitLog_.maxOffset() - reputFromOffset());
}

int64_t ReputMessageService::tagsCodeFor(std::string_view topic, std::string_view properties,
                                         int64_t storeTimestamp) const
{
    if (topic == kScheduleTopic) {
        // A delayed message's queue entry carries its delivery time instead (§3.8).
        if (const auto delay = common::MessageProperties::find(properties, common::property::kDelayTimeLevel)) {
            int level = 0;
            std::from_chars(delay->data(), delay->data() + delay->size(), level);
            level = std::min<int>(level, static_cast<int>(delayLevelMillis_.size()));
            if (level > 0)
                return storeTimestamp + delayLevelMillis_[static_cast<size_t>(level - 1)];
            return storeTimestamp + 1000;
        }
    }
    return common::tagsCodeOf(common::MessageProperties::find(properties, common::property::kTags).value_or(""));
}

namespace {

// Java's setBatchSizeIfNeeded: an inner batch with both INNER_NUM and INNER_BASE is entered as
// one BatchCQ unit of that many messages. Only a record whose INNER_BASE is its own QUEUEOFFSET
// (as the store writes every inner batch it appends) is taken as one: properties a client wrote
// never choose a queue offset or stretch a unit over offsets the log did not give it.
void readInnerBatch(std::string_view properties, DispatchRequest &request)
{
    using common::MessageProperties;
    const auto number = MessageProperties::find(properties, common::property::kInnerNum);
    const auto base = MessageProperties::find(properties, common::property::kInnerBase);
    if (!number || !base)
        return;
    const auto count = common::parseJavaInt(*number);
    if (count && common::parseJavaLong(*base) == request.consumeQueueOffset)
        request.batchSize = *count;
}

// The smallest record the codec accepts: the fixed fields with IPv4 hosts and empty body,
// topic and properties. A TOTALSIZE below it cannot be a record's, so it is not stepped by.
constexpr int32_t kSmallestRecord = 84 + 4 + 1 + 2;
constexpr int64_t kOffsetMagic = 4;
constexpr int64_t kOffsetPhysicalOffset = 28;

} // namespace

int64_t ReputMessageService::stepOver(const MappedFile &file, int64_t offset, int64_t limit, const std::string &why)
{
    const int64_t position = offset - file.fileFromOffset();
    const uint8_t *data = file.data();
    const int32_t totalSize = limit - position >= 4 ? common::readInt32(data + position) : 0;
    int64_t next = 0;
    std::string how;
    if (totalSize >= kSmallestRecord && totalSize <= limit - position) {
        next = offset + totalSize;
        how = "by its TOTALSIZE";
    } else {
        // The size cannot be trusted: look for the next record start in the written data, a
        // message magic whose PHYSICALOFFSET names its own position and which decodes.
        next = file.fileFromOffset() + (limit >= file.fileSize() ? file.fileSize() : limit);
        how = limit >= file.fileSize() ? "to the next file" : "to the end of the written data";
        for (int64_t p = position + 1; p + kOffsetPhysicalOffset + 8 <= limit; ++p) {
            const int32_t magic = common::readInt32(data + p + kOffsetMagic);
            if ((magic != common::kMagicV1 && magic != common::kMagicV2)
                || common::readInt64(data + p + kOffsetPhysicalOffset) != file.fileFromOffset() + p)
                continue;
            const auto candidate = common::decodeRecord(
                std::span<const uint8_t>(data + p, static_cast<size_t>(limit - p)), {true});
            if (candidate.status == common::DecodeStatus::Ok) {
                next = file.fileFromOffset() + p;
                how = "to the next record start found";
                break;
            }
        }
    }
    skippedRecords_.fetch_add(1, std::memory_order_relaxed);
    if (const auto held = skipLog_.admit()) {
        spdlog::error("dispatch: cannot index the record at commit-log offset {} ({} byte {}): {}; "
                      "stepped over {} bytes {} (offset {}); that record has no consume-queue or index entry{}",
                      offset, file.path(), position, why, next - offset, how, next, common::LogRateLimiter::heldNote(*held));
    }
    return next;
}

int ReputMessageService::doReput(const std::function<void(int64_t offset)> &progress)
{
    int dispatched = 0;
    const int64_t end = reputEnd();
    int64_t offset = reputFromOffset();
    if (offset < commitLog_.minOffset())
        offset = commitLog_.minOffset(); // retention removed what was never dispatched
    DispatchRequest request;
    std::string failure;
    while (offset < end) {
        const auto file = commitLog_.mappedFileQueue().findFileByOffset(offset);
        if (!file)
            break;
        const int64_t position = offset - file->fileFromOffset();
        const int64_t limit = std::min(file->readPosition(), end - file->fileFromOffset());
        if (position >= limit) {
            if (position >= file->fileSize())
                offset = file->fileFromOffset() + file->fileSize();
            else
                break;
            continue;
        }
        const auto decoded = common::decodeRecord(
            std::span<const uint8_t>(file->data() + position, static_cast<size_t>(limit - position)), {false});
        if (decoded.status == common::DecodeStatus::Blank) {
            offset = file->fileFromOffset() + file->fileSize();
            continue;
        }
        if (decoded.status != common::DecodeStatus::Ok) {
            // Bytes below the written end never change, so waiting would wait forever (and
            // stop every topic): report the record and go on.
            offset = stepOver(*file, offset, limit, decoded.error);
            reputFromOffset_.store(offset, std::memory_order_release);
            continue;
        }
        const common::RecordView &record = decoded.record;
        request.topic.assign(record.topic);
        request.queueId = record.queueId;
        request.commitLogOffset = offset;
        request.msgSize = record.totalSize;
        request.storeTimestamp = record.storeTimestamp;
        request.consumeQueueOffset = record.queueOffset;
        request.tagsCode = tagsCodeFor(record.topic, record.properties, record.storeTimestamp);
        request.keys.assign(common::MessageProperties::find(record.properties, common::property::kKeys).value_or(""));
        request.uniqKey.assign(
            common::MessageProperties::find(record.properties, common::property::kUniqClientMessageId).value_or(""));
        request.tags.assign(common::MessageProperties::find(record.properties, common::property::kTags).value_or(""));
        request.multiDispatch.assign(
            common::MessageProperties::find(record.properties, common::property::kInnerMultiDispatch).value_or(""));
        request.multiQueueOffsets.clear();
        if (!request.multiDispatch.empty())
            request.multiQueueOffsets.assign(
                common::MessageProperties::find(record.properties, common::property::kInnerMultiQueueOffset).value_or(""));
        request.sysFlag = record.sysFlag;
        request.preparedTransactionOffset = record.preparedTransactionOffset;
        request.batchSize = 1;
        if (record.sysFlag & common::sysflag::kInnerBatch)
            readInnerBatch(record.properties, request);
        for (const auto &dispatcher : dispatchers_) {
            if (!dispatcher(request, failure)) {
                // A write fault (full disk): this record is dispatched again on the next turn;
                // the store refuses puts until then (MessageStore checks writeFailing()).
                writeFailing_.store(true, std::memory_order_release);
                if (const auto held = writeFailureLog_.admit())
                    spdlog::error("dispatch: cannot write the entries of the record at commit-log offset {} "
                                  "(topic {}, queue {}, queue offset {}): {}; retrying, puts are refused meanwhile{}",
                                  offset, request.topic, request.queueId, request.consumeQueueOffset, failure,
                                  common::LogRateLimiter::heldNote(*held));
                reputFromOffset_.store(offset, std::memory_order_release);
                return dispatched;
            }
        }
        if (writeFailing_.load(std::memory_order_relaxed)) {
            writeFailing_.store(false, std::memory_order_release);
            spdlog::info("dispatch: entries are written again from commit-log offset {}", offset);
        }
        offset += decoded.size;
        reputFromOffset_.store(offset, std::memory_order_release);
        ++dispatched;
        if (progress && (dispatched & 0x3FF) == 0) // every 1024 records: cheap, and fine-grained
            progress(offset);
    }
    reputFromOffset_.store(offset, std::memory_order_release);
    return dispatched;
}

void ReputMessageService::dispatchAvailable(const std::function<void(int64_t offset)> &progress)
{
    while (doReput(progress) > 0) {
    }
}

void ReputMessageService::run()
{
    while (!isStopped()) {
        if (doReput() == 0)
            waitForRunning(1ms);
    }
}

} // namespace mqdesk::store
