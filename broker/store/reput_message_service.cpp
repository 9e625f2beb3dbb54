#include "broker/store/reput_message_service.h"

#include "broker/common/java_hash.h"
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

int ReputMessageService::doReput(const std::function<void(int64_t offset)> &progress)
{
    int dispatched = 0;
    const int64_t end = reputEnd();
    int64_t offset = reputFromOffset();
    if (offset < commitLog_.minOffset())
        offset = commitLog_.minOffset(); // retention removed what was never dispatched
    DispatchRequest request;
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
            spdlog::error("dispatch: unreadable record at commit-log offset {} in {}: {}; waiting",
                          offset, file->path(), decoded.error);
            break;
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
        request.sysFlag = record.sysFlag;
        request.preparedTransactionOffset = record.preparedTransactionOffset;
        for (const auto &dispatcher : dispatchers_)
            dispatcher(request);
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
