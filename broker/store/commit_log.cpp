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

std::string_view putStatusName(PutMessageStatus status)
{
    switch (status) {
    case PutMessageStatus::PutOk: return "PUT_OK";
    case PutMessageStatus::FlushDiskTimeout: return "FLUSH_DISK_TIMEOUT";
    case PutMessageStatus::ServiceNotAvailable: return "SERVICE_NOT_AVAILABLE";
    case PutMessageStatus::CreateMappedFileFailed: return "CREATE_MAPPED_FILE_FAILED";
    case PutMessageStatus::MessageIllegal: return "MESSAGE_ILLEGAL";
    case PutMessageStatus::PropertiesSizeExceeded: return "PROPERTIES_SIZE_EXCEEDED";
    case PutMessageStatus::WheelTimerFlowControl: return "WHEEL_TIMER_FLOW_CONTROL";
    case PutMessageStatus::WheelTimerMsgIllegal: return "WHEEL_TIMER_MSG_ILLEGAL";
    case PutMessageStatus::WheelTimerNotEnable: return "WHEEL_TIMER_NOT_ENABLE";
    case PutMessageStatus::LmqConsumeQueueNumExceeded: return "LMQ_CONSUME_QUEUE_NUM_EXCEEDED";
    case PutMessageStatus::UnknownError: return "UNKNOWN_ERROR";
    }
    return "UNKNOWN_ERROR";
}

// The encoded records of one put, in a per-thread buffer reused from put to put.
struct CommitLog::Encoded
{
    std::vector<uint8_t> &bytes;
    std::string &queueKey;
    std::vector<int32_t> recordSizes;
    std::string_view topic;
    int32_t queueId = 0;
    int32_t sysFlag = 0;
    int32_t count = 0;
    bool waitStoreMsgOk = true;
    // A single message to number in its LMQs at append (enableLmq), and the queue keys its
    // numbering took an offset of.
    const BrokerMessage *lmqMessage = nullptr;
    std::vector<std::string> lmqQueueKeys;
    // A BatchCQ inner batch (one record of INNER_NUM messages) to number at append, and the queue
    // offsets the put takes: `count` but for an inner batch.
    const BrokerMessage *innerBatch = nullptr;
    int32_t queueOffsetsTaken = 0;
};

namespace {

// MixAll.topicAllowsLMQ: retries, dead letters and system topics are never entered in LMQs.
bool topicAllowsLmq(std::string_view topic)
{
    return !topic.starts_with("%RETRY%") && !topic.starts_with("%DLQ%") && !topic.starts_with("rmq_sys_")
           && topic != "SCHEDULE_TOPIC_XXXX";
}

} // namespace

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

// --- put path ------------------------------------------------------------------------------

void CommitLog::asyncPutMessage(const BrokerMessage &message, PutCallback done)
{
    asyncPutMessages(std::span<const BrokerMessage>(&message, 1), std::move(done));
}

PutMessageResult CommitLog::putMessage(const BrokerMessage &message)
{
    return putMessages(std::span<const BrokerMessage>(&message, 1));
}

PutMessageResult CommitLog::putMessages(std::span<const BrokerMessage> messages)
{
    struct Waiter
    {
        std::mutex mutex;
        std::condition_variable cv;
        bool done = false;
        PutMessageResult result;
    };
    // Most puts are answered before asyncPutMessages returns; only SYNC_FLUSH ones wait.
    auto waiter = std::make_shared<Waiter>();
    asyncPutMessages(messages, [waiter](const PutMessageResult &result) {
        std::lock_guard lock(waiter->mutex);
        waiter->result = result;
        waiter->done = true;
        waiter->cv.notify_one();
    });
    std::unique_lock lock(waiter->mutex);
    waiter->cv.wait(lock, [&] { return waiter->done; });
    return std::move(waiter->result);
}

void CommitLog::asyncPutMessages(std::span<const BrokerMessage> messages, PutCallback done)
{
    // shutdown() waits for every put to get here to its end before it stops the services
    // that answer it.
    putsInFlight_.fetch_add(1, std::memory_order_acq_rel);
    struct InFlight
    {
        std::atomic<int> &count;
        ~InFlight() { count.fetch_sub(1, std::memory_order_acq_rel); }
    } inFlight{putsInFlight_};
    const int64_t startMicros = steadyMicros();
    thread_local std::vector<uint8_t> buffer;
    thread_local std::string queueKey;
    buffer.clear();
    Encoded encoded{buffer, queueKey, {}, {}, 0, 0, 0, true, nullptr, {}};
    PutMessageResult result;

    const auto fail = [&](PutMessageStatus status, std::string error) {
        result.status = status;
        result.error = std::move(error);
        done(result);
    };
    if (messages.empty())
        return fail(PutMessageStatus::MessageIllegal, "a batch needs at least one message");
    if (queue_.flushFailed()) {
        // Like Java's RunningFlags: a store that cannot make its log durable stops taking puts.
        return fail(PutMessageStatus::ServiceNotAvailable,
                    "the commit log could not be flushed, so puts are refused until the store is reopened: "
                        + queue_.flushFailure());
    }
    const BrokerMessage &first = messages.front();
    for (const BrokerMessage &message : messages) {
        if (message.topic != first.topic || message.queueId != first.queueId)
            return fail(PutMessageStatus::MessageIllegal,
                        "all messages of a batch must have the same topic and queue");
        const size_t before = buffer.size();
        const std::string properties = message.properties.encode();
        switch (common::encodeRecord(message, properties, encodeOptions_, buffer)) {
        case common::EncodeStatus::Ok:
            break;
        case common::EncodeStatus::BodyTooLarge:
            return fail(PutMessageStatus::MessageIllegal,
                        "message body of " + std::to_string(message.body.size())
                            + " bytes exceeds maxMessageSize (" + std::to_string(config_.maxMessageSize) + ")");
        case common::EncodeStatus::PropertiesTooLarge:
            return fail(PutMessageStatus::PropertiesSizeExceeded,
                        "message properties of " + std::to_string(properties.size())
                            + " bytes exceed the limit of 32767");
        case common::EncodeStatus::TopicTooLong:
            return fail(PutMessageStatus::MessageIllegal,
                        "topic must be 1 to 255 bytes, got " + std::to_string(message.topic.size()));
        }
        if (messages.size() > 1)
            encoded.recordSizes.push_back(static_cast<int32_t>(buffer.size() - before));
        if (!message.waitStoreMsgOk || message.properties.get(common::property::kWaitStoreMsgOk) == "false")
            encoded.waitStoreMsgOk = false;
    }
    encoded.topic = first.topic;
    encoded.queueId = first.queueId;
    encoded.sysFlag = first.sysFlag;
    encoded.count = static_cast<int32_t>(messages.size());
    queueKey = topicQueueKey(first.topic, first.queueId);
    encoded.queueOffsetsTaken = encoded.count;
    if (messages.size() == 1 && (first.sysFlag & common::sysflag::kInnerBatch) != 0)
        encoded.innerBatch = &first; // MessageStore checked its INNER_NUM and its topic
    // An inner batch is numbered in its own queue only (both would encode the record again).
    if (config_.enableLmq && messages.size() == 1 && !encoded.innerBatch && topicAllowsLmq(first.topic)) {
        const auto lmqs = first.properties.get(common::property::kInnerMultiDispatch);
        if (lmqs && lmqs->find_first_not_of(" \t\r\n") != std::string_view::npos)
            encoded.lmqMessage = &first;
    }

    appendEncoded(encoded, result);
    if (!result.stored()) {
        done(result);
        return;
    }
    finishPut(std::move(result), encoded.waitStoreMsgOk, startMicros, std::move(done));
}

// Java's LmqDispatch.wrapLmqDispatch, under the put lock: the next offset of each `%LMQ%` queue
// the message's INNER_MULTI_DISPATCH names goes into INNER_MULTI_QUEUE_OFFSET, joined as Java
// joins them (an empty part for a name that is no LMQ), and the record is encoded again with it.
// The counters move once the record is in the log (appendEncoded).
bool CommitLog::numberInLmqs(Encoded &encoded, PutMessageResult &result)
{
    const BrokerMessage &message = *encoded.lmqMessage;
    std::string offsets;
    encoded.lmqQueueKeys.clear();
    bool firstName = true;
    int64_t newLmqs = 0;
    for (std::string_view name : common::javaSplit(*message.properties.get(common::property::kInnerMultiDispatch), ',')) {
        if (!firstName)
            offsets += ',';
        firstName = false;
        if (!name.starts_with(common::kLmqPrefix))
            continue;
        std::string key = topicQueueKey(name, 0);
        const auto it = queueOffsets_.find(key);
        if (it == queueOffsets_.end() && std::find(encoded.lmqQueueKeys.begin(), encoded.lmqQueueKeys.end(), key)
                                             == encoded.lmqQueueKeys.end())
            ++newLmqs;
        offsets += std::to_string(it == queueOffsets_.end() ? 0 : it->second);
        encoded.lmqQueueKeys.push_back(std::move(key));
    }
    // Java's HookUtils.handleLmqQuota, with this message's new LMQs counted as well.
    if (lmqQuotaEnabled_ && newLmqs > 0 && lmqCount_ + newLmqs > maxLmqs_) {
        result.status = PutMessageStatus::LmqConsumeQueueNumExceeded;
        result.error = "[LMQ_CONSUME_QUEUE_NUM_EXCEEDED]lmq consume queue num exceeded.";
        return false;
    }
    common::MessageProperties properties = message.properties;
    properties.set(common::property::kInnerMultiQueueOffset, offsets);
    // Java's LmqDispatch drops WAIT here (removeWaitStorePropertyString): 9 bytes of every LMQ message.
    properties.remove(common::property::kWaitStoreMsgOk);
    return encodeAgain(encoded, message, properties, common::property::kInnerMultiQueueOffset, result);
}

bool CommitLog::encodeAgain(Encoded &encoded, const BrokerMessage &message,
                            const common::MessageProperties &properties, std::string_view added,
                            PutMessageResult &result)
{
    const std::string encodedProperties = properties.encode();
    encoded.bytes.clear();
    if (common::encodeRecord(message, encodedProperties, encodeOptions_, encoded.bytes) != common::EncodeStatus::Ok) {
        result.status = PutMessageStatus::PropertiesSizeExceeded;
        result.error = "message properties of " + std::to_string(encodedProperties.size()) + " bytes with "
                       + std::string(added) + " exceed the limit of 32767";
        return false;
    }
    return true;
}

// Java's BatchConsumeQueue.assignQueueOffset, under the put lock: an inner batch's first message
// takes the next queue offset, written into INNER_BASE (the record is encoded again with it),
// and the queue's next offset moves past all INNER_NUM of them (appendEncoded).
bool CommitLog::numberInnerBatch(Encoded &encoded, PutMessageResult &result)
{
    const BrokerMessage &message = *encoded.innerBatch;
    const auto it = queueOffsets_.find(encoded.queueKey);
    const int64_t base = it == queueOffsets_.end() ? 0 : it->second;
    encoded.queueOffsetsTaken
        = common::parseJavaInt(message.properties.get(common::property::kInnerNum).value_or("")).value_or(1);
    common::MessageProperties properties = message.properties;
    properties.set(common::property::kInnerBase, std::to_string(base));
    return encodeAgain(encoded, message, properties, common::property::kInnerBase, result);
}

void CommitLog::appendEncoded(Encoded &encoded, PutMessageResult &result)
{
    const int64_t fileSize = queue_.fileSize();
    std::lock_guard lock(putMutex_);
    if (!running_.load(std::memory_order_acquire)) {
        result.status = PutMessageStatus::ServiceNotAvailable;
        result.error = "the store is not running";
        return;
    }
    if (encoded.lmqMessage && !numberInLmqs(encoded, result))
        return;
    if (encoded.innerBatch && !numberInnerBatch(encoded, result))
        return;
    const auto total = static_cast<int64_t>(encoded.bytes.size());
    if (total + common::kEndFileMinBlankLength > fileSize) {
        result.status = PutMessageStatus::MessageIllegal;
        result.error = "a record of " + std::to_string(total) + " bytes cannot fit in a "
                       + std::to_string(fileSize) + "-byte commit-log file (mappedFileSizeCommitLog)";
        return;
    }
    const int64_t storeTimestamp = wallMillis();

    std::shared_ptr<MappedFile> file = writeFile_;
    if (!file || file->isFull()) {
        const int64_t start = file ? file->fileFromOffset() + fileSize
                                   : queue_.flushedWhere() / fileSize * fileSize;
        file = createNextFile(start, result.error);
        if (!file) {
            result.status = PutMessageStatus::CreateMappedFileFailed;
            return;
        }
    }
    const int64_t remaining = fileSize - file->wrotePosition();
    if (total + common::kEndFileMinBlankLength > remaining) {
        // Not enough room: close this file with the blank record and start the next (§3.7).
        uint8_t blank[common::kEndFileMinBlankLength];
        common::encodeBlankRecord(blank, static_cast<int32_t>(remaining));
        if (!reserveBlocks(*file, file->wrotePosition() + sizeof blank, result))
            return;
        if (!copyIntoFile(*file, file->wrotePosition(), blank, sizeof blank, result.error)) {
            result.status = PutMessageStatus::UnknownError;
            return;
        }
        file->advanceWrote(remaining, file->lastStoreTimestamp());
        file = createNextFile(file->fileFromOffset() + fileSize, result.error);
        if (!file) {
            result.status = PutMessageStatus::CreateMappedFileFailed;
            return;
        }
    }

    if (!reserveBlocks(*file, file->wrotePosition() + total, result))
        return;
    const auto it = queueOffsets_.find(encoded.queueKey);
    const int64_t baseQueueOffset = it == queueOffsets_.end() ? 0 : it->second;
    const bool assigns = common::sysflag::hasQueueEntry(encoded.sysFlag);
    if (assigns && queueReserver_
        && !queueReserver_(encoded.topic, encoded.queueId, baseQueueOffset, encoded.count, result.error)) {
        // Refused before a byte is appended: the queue offsets stay unassigned (see reserveFor).
        result.status = PutMessageStatus::CreateMappedFileFailed;
        return;
    }
    const int64_t wrote = file->wrotePosition();
    const int64_t physicalOffset = file->fileFromOffset() + wrote;

    uint8_t *record = encoded.bytes.data();
    for (int32_t i = 0; i < encoded.count; ++i) {
        const int32_t size = encoded.count > 1 ? encoded.recordSizes[static_cast<size_t>(i)]
                                               : static_cast<int32_t>(total);
        common::patchPhysicalOffset(record, physicalOffset + (record - encoded.bytes.data()));
        common::patchStoreTimestamp(record, storeTimestamp);
        common::patchQueueOffset(record, assigns ? baseQueueOffset + i : 0);
        record += size;
    }
    if (!copyIntoFile(*file, wrote, encoded.bytes.data(), total, result.error)) {
        result.status = PutMessageStatus::UnknownError;
        return;
    }
    file->advanceWrote(total, storeTimestamp);
    if (assigns) {
        if (it == queueOffsets_.end())
            queueOffsets_.emplace(encoded.queueKey, baseQueueOffset + encoded.queueOffsetsTaken);
        else
            it->second = baseQueueOffset + encoded.queueOffsetsTaken;
    }
    for (std::string &key : encoded.lmqQueueKeys) {
        const auto [lmq, isNew] = queueOffsets_.try_emplace(std::move(key), 0);
        ++lmq->second; // LmqDispatch.updateLmqOffsets
        lmqCount_ += isNew ? 1 : 0;
    }

    result.status = PutMessageStatus::PutOk;
    result.wroteOffset = physicalOffset;
    result.wroteBytes = static_cast<int32_t>(total);
    result.queueOffset = assigns ? baseQueueOffset : 0;
    result.messageCount = encoded.queueOffsetsTaken;
    result.storeTimestamp = storeTimestamp;
    result.recordSizes = std::move(encoded.recordSizes);
}

bool CommitLog::reserveBlocks(MappedFile &file, int64_t end, PutMessageResult &result)
{
    // Requires: putMutex_. The file is sparse (Reservation::AsAppended): a full disk refuses
    // the put here, before a byte is appended or a queue offset taken, where a copy into an
    // unreserved hole of the mapping would be a SIGBUS and a pwrite a half-written record.
    if (end <= file.reservedEnd() || file.reserveThrough(end, result.error))
        return true;
    result.status = PutMessageStatus::CreateMappedFileFailed;
    if (const auto held = flushFailureLog_.admit())
        spdlog::error("commit log: {}{}", result.error, common::LogRateLimiter::heldNote(*held));
    return false;
}

bool CommitLog::copyIntoFile(MappedFile &file, int64_t position, const uint8_t *bytes, int64_t size,
                             std::string &error)
{
    // Requires: putMutex_. A transient buffer, when attached, takes every append (the pool
    // writes it to the file in one go later).
    if (!file.hasTransientBuffer() && writeWithoutMmap_.load(std::memory_order_relaxed)) {
        if (!file.writeAt(position, bytes, size, error)) {
            if (const auto held = flushFailureLog_.admit())
                spdlog::error("commit log: {}{}", error, common::LogRateLimiter::heldNote(*held));
            return false;
        }
        return true;
    }
    std::memcpy(file.appendTarget() + position, bytes, static_cast<size_t>(size));
    return true;
}

void CommitLog::finishPut(PutMessageResult result, bool waitForFlush, int64_t startMicros, PutCallback done)
{
    metrics_.recordPut(static_cast<uint64_t>(result.messageCount), static_cast<uint64_t>(result.wroteBytes));
    if (transientStorePoolEnabled() && config_.wakeCommitWhenPutMessage)
        commitRealTime_->wakeup();

    if (flushDiskType() == FlushDiskType::SyncFlush) {
        if (waitForFlush) {
            auto request = std::make_shared<GroupCommitRequest>();
            request->nextOffset = result.wroteOffset + result.wroteBytes;
            request->deadline = GroupCommitRequest::Clock::now() + std::chrono::milliseconds(config_.syncFlushTimeout);
            request->startMicros = startMicros;
            request->result = std::move(result);
            request->done = std::move(done);
            groupCommit_->submit(std::move(request));
            return;
        }
        groupCommit_->wakeup();
    } else if (config_.wakeFlushWhenPutMessage) {
        flushRealTime_->wakeup();
    }
    metrics_.recordPutLatency(static_cast<uint64_t>(steadyMicros() - startMicros));
    done(result);
}

std::shared_ptr<MappedFile> CommitLog::createNextFile(int64_t startOffset, std::string &error)
{
    // Requires: putMutex_.
    auto made = allocator_->takeFile(startOffset, error);
    if (!made) {
        const int64_t now = wallMillis();
        if (now - lastCreateFailureLogMillis_ >= 5000) {
            spdlog::error("commit log: cannot create the next file: {}{}", error,
                          suppressedCreateFailures_ ? " (and " + std::to_string(suppressedCreateFailures_)
                                                          + " more failed puts since the last report)"
                                                    : std::string());
            lastCreateFailureLogMillis_ = now;
            suppressedCreateFailures_ = 0;
        } else {
            ++suppressedCreateFailures_;
        }
        return nullptr;
    }
    auto file = queue_.addFile(std::move(made));
    if (poolEnabled_.load(std::memory_order_acquire)) {
        std::lock_guard commitLock(queue_.commitMutex());
        if (uint8_t *buffer = pool_->borrowBuffer())
            file->attachTransientBuffer(buffer);
    }
    writeFile_ = file;
    return file;
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
