#include "broker/store/commit_log.h"

#include "broker/common/bytes.h"
#include "broker/common/clock.h"
#include "broker/common/java_strings.h"
#include "broker/common/message_id.h"
#include "broker/store/allocate_mapped_file_service.h"
#include "broker/store/flush_services.h"
#include "broker/store/store_checkpoint.h"
#include "broker/store/transient_store_pool.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <thread>
#include <utility>

namespace mqdesk::store {

using common::BrokerMessage;
using common::steadyMicros;
using common::wallMillis;
using common::DecodeStatus;

CommitLog::CommitLog(const MessageStoreConfig &config, StoreCheckpoint &checkpoint, FlushMetrics &metrics)
    : config_(config), checkpoint_(checkpoint), metrics_(metrics),
      queue_(config.commitLogDir(), config.mappedFileSizeCommitLog, MappedFile::Reservation::AsAppended),
      flushDiskType_(config.flushDiskType), flushInterval_(std::max(1, config.flushIntervalCommitLog)),
      writeWithoutMmap_(config.writeWithoutMmap), putMutex_(config.useReentrantLockWhenPutMessage)
{
    encodeOptions_.maxBodySize = config.maxMessageSize;
    if (auto host = common::HostAddress::parse(config.brokerIP1))
        encodeOptions_.storeHost = *host;
    else
        encodeOptions_.storeHost = common::HostAddress::ipv4(127, 0, 0, 1, 0);
    encodeOptions_.storeHost.port = config.listenPort;
    lmqQuotaEnabled_ = config.enableLmqQuota;
    maxLmqs_ = config.maxLmqConsumeQueueNum;
}

CommitLog::~CommitLog()
{
    if (running_.load())
        shutdown();
}

bool CommitLog::load(std::string &error)
{
    return queue_.load(error);
}

void CommitLog::start()
{
    groupCommitAnswers_ = std::make_unique<GroupCommitAnswerService>(*this);
    groupCommit_ = std::make_unique<GroupCommitService>(*this, *groupCommitAnswers_);
    groupCommitAnswers_->watchDeadlinesOf(*groupCommit_);
    flushRealTime_ = std::make_unique<FlushRealTimeService>(*this);
    commitRealTime_ = std::make_unique<CommitRealTimeService>(*this);
    FileWarmUp warmUp;
    warmUp.enabled = config_.warmMapedFileEnable;
    warmUp.syncEveryPages = config_.flushLeastPagesWhenWarmMapedFile;
    warmUp.warmed = [this](int64_t bytes, int64_t micros) { metrics_.recordWarmUp(bytes, micros); };
    allocator_ = std::make_unique<AllocateMappedFileService>(queue_.directory(), queue_.fileSize(), std::move(warmUp));
    allocator_->start();
    bool preparing = false;
    {
        std::lock_guard lock(putMutex_);
        writeFile_ = queue_.lastFile();
        preparing = !writeFile_ || writeFile_->isFull();
        if (!writeFile_)
            allocator_->prepareFile(queue_.flushedWhere() / queue_.fileSize() * queue_.fileSize());
        else if (writeFile_->isFull())
            allocator_->prepareFile(writeFile_->fileFromOffset() + queue_.fileSize());
    }
    // The warm-up of the file the first put needs happens now, not under the put (a put cuts a
    // warm-up short rather than wait for it).
    if (preparing && config_.warmMapedFileEnable)
        allocator_->waitForPrepared(std::chrono::seconds(60));
    {
        std::lock_guard lock(servicesMutex_);
        servicesRunning_ = true;
        startServicesFor(flushDiskType(), config_.transientStorePoolEnable);
    }
    if (config_.transientStorePoolEnable)
        setTransientStorePoolEnable(true);
    running_.store(true, std::memory_order_release);
}

void CommitLog::startServicesFor(FlushDiskType type, bool transientStorePool)
{
    if (!servicesRunning_)
        return;
    if (type == FlushDiskType::SyncFlush && !std::exchange(groupCommitStarted_, true)) {
        groupCommitAnswers_->start();
        groupCommit_->start();
    }
    if (type == FlushDiskType::AsyncFlush && !std::exchange(flushRealTimeStarted_, true))
        flushRealTime_->start();
    if (transientStorePool && !std::exchange(commitRealTimeStarted_, true))
        commitRealTime_->start();
}

void CommitLog::shutdown()
{
    {
        std::lock_guard lock(putMutex_);
        if (!running_.exchange(false))
            return;
    }
    {
        std::lock_guard lock(servicesMutex_);
        servicesRunning_ = false; // no service starts from here on
    }
    // Puts that appended before running_ fell still have to hand their request to the
    // group-commit service, which must be running then.
    while (putsInFlight_.load(std::memory_order_acquire) > 0)
        std::this_thread::sleep_for(std::chrono::microseconds(100));
    commitRealTime_->stop();
    // Commit everything the buffers hold; a failing disk gets a few more chances.
    for (int attempt = 0; !setTransientStorePoolEnable(false); ++attempt) {
        if (attempt == 10) {
            spdlog::error("commit log: bytes of the transient store pool could not be written: {}",
                          lastFlushError());
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    flushRealTime_->stop();
    groupCommit_->stop(); // answers every waiting put after a last flush
    groupCommitAnswers_->stop(); // then answers on this thread whatever is still handed to it
    for (int i = 0; i < 10 && flushOnce(0, FlushKind::Shutdown).bytes > 0; ++i) {
    }
    if (const int64_t timestamp = queue_.storeTimestamp(); timestamp > 0)
        checkpoint_.setPhysicMsgTimestamp(timestamp);
    allocator_->shutdown();
}

// --- reading -------------------------------------------------------------------------------

std::optional<common::StoredMessage> CommitLog::readMessage(int64_t offset, std::string *error) const
{
    std::optional<common::StoredMessage> found;
    const int64_t end = forEachRecord(offset, [&](int64_t at, const common::RecordView &record) {
        if (at == offset)
            found = record.materialize();
        return false;
    });
    if (!found && error)
        *error = "no valid record at commit-log offset " + std::to_string(offset) + " (log ends at "
                 + std::to_string(maxOffset()) + ", walk stopped at " + std::to_string(end) + ")";
    return found;
}

bool CommitLog::copyRecord(int64_t offset, int32_t size, std::vector<uint8_t> &out) const
{
    const auto file = queue_.findFileByOffset(offset);
    if (!file || size < 8)
        return false;
    const int64_t position = offset - file->fileFromOffset();
    if (position < 0 || position + size > file->readPosition())
        return false;
    const uint8_t *record = file->data() + position;
    const int32_t magic = common::readInt32(record + 4);
    if (common::readInt32(record) != size || (magic != common::kMagicV1 && magic != common::kMagicV2))
        return false;
    out.insert(out.end(), record, record + size);
    return true;
}

int64_t CommitLog::forEachRecord(int64_t fromOffset,
                                 const std::function<bool(int64_t, const common::RecordView &)> &visit) const
{
    int64_t offset = fromOffset;
    for (;;) {
        const auto file = queue_.findFileByOffset(offset);
        if (!file)
            return offset;
        const int64_t position = offset - file->fileFromOffset();
        const int64_t readable = file->readPosition();
        if (position >= readable)
            return offset;
        const auto decoded = common::decodeRecord(
            std::span<const uint8_t>(file->data() + position, static_cast<size_t>(readable - position)));
        if (decoded.status == DecodeStatus::Blank) {
            offset = file->fileFromOffset() + file->fileSize();
            continue;
        }
        if (decoded.status != DecodeStatus::Ok)
            return offset;
        if (!visit(offset, decoded.record))
            return offset;
        offset += decoded.size;
    }
}

int64_t CommitLog::nextQueueOffset(std::string_view topic, int32_t queueId) const
{
    const std::string key = topicQueueKey(topic, queueId);
    std::lock_guard lock(putMutex_);
    const auto it = queueOffsets_.find(key);
    return it == queueOffsets_.end() ? 0 : it->second;
}

void CommitLog::setLmqQuota(bool enable, int maxLmqs)
{
    std::lock_guard lock(putMutex_);
    lmqQuotaEnabled_ = enable;
    maxLmqs_ = maxLmqs;
}

namespace {

// The topic of a queue-offset key "topic-queueId" (a dash and digits only at the end); empty
// when the key is not of that shape.
std::string_view topicOfQueueKey(std::string_view key)
{
    const size_t dash = key.rfind('-');
    if (dash == std::string_view::npos || dash == 0 || dash + 1 == key.size()
        || key.find_first_not_of("0123456789", dash + 1) != std::string_view::npos)
        return {};
    return key.substr(0, dash);
}

} // namespace

void CommitLog::forgetQueues(const std::vector<std::string> &topics, const std::function<bool()> &whilePaused)
{
    std::lock_guard lock(putMutex_);
    if (!whilePaused())
        return;
    const auto ofTopic = [&topics](const std::string &key) {
        const std::string_view topic = topicOfQueueKey(key);
        return !topic.empty() && std::find(topics.begin(), topics.end(), topic) != topics.end();
    };
    std::erase_if(queueOffsets_, [&](const auto &entry) { return ofTopic(entry.first); });
    lmqCount_ = std::count_if(queueOffsets_.begin(), queueOffsets_.end(),
                              [](const auto &entry) { return entry.first.starts_with(common::kLmqPrefix); });
}

bool CommitLog::numbersQueuesOf(const std::string &topic) const
{
    std::lock_guard lock(putMutex_);
    return std::any_of(queueOffsets_.begin(), queueOffsets_.end(),
                       [&topic](const auto &entry) { return topicOfQueueKey(entry.first) == topic; });
}

void CommitLog::setQueueOffsetTable(std::unordered_map<std::string, int64_t> table)
{
    std::lock_guard lock(putMutex_);
    queueOffsets_ = std::move(table);
    lmqCount_ = std::count_if(queueOffsets_.begin(), queueOffsets_.end(),
                              [](const auto &entry) { return entry.first.starts_with(common::kLmqPrefix); });
}

std::string CommitLog::messageId(int64_t offset) const
{
    return common::createOffsetMessageId(encodeOptions_.storeHost, offset);
}

} // namespace mqdesk::store
