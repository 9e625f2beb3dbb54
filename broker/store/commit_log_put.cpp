// The commit log's put path (store-format §3): encoding a put into records, numbering them in
// their queues (and LMQs, inner batches), reserving the blocks they will fill, appending under
// the put lock, and handing the result to the flush that acknowledges it. The rest of the
// commit log (lifecycle, reads, the queue-offset table) is commit_log.cpp.

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
#include <cstring>
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

} // namespace mqdesk::store
