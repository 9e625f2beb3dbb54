// The message store's put path: what a put becomes before the commit log takes it (a delay
// level's schedule-topic form, a timer message parked in the wheel), the refusals a put meets
// first (store not writable, disk full, a BatchCQ topic's inner batch rules), and the hand-over
// to the commit log with the dispatcher woken. The rest of the store is message_store.cpp.

#include "broker/store/message_store.h"

#include "broker/common/clock.h"
#include "broker/common/java_strings.h"
#include "broker/store/consume_queue_store.h"
#include "broker/store/reput_message_service.h"
#include "broker/store/store_paths.h"
#include "broker/store/store_services.h"
#include "broker/store/timer_message_store.h"
#include "broker/store/timer_put_transform.h"

#include <spdlog/spdlog.h>

#include <charconv>

namespace mqdesk::store {

int64_t MessageStore::delayLevelMillis(int32_t level) const
{
    return level >= 1 && level <= maxDelayLevel() ? delayLevelMillis_[static_cast<size_t>(level - 1)] : 0;
}

// The delay rewrite lives here, in the store, as in RocketMQ (CommitLog.asyncPutMessage): it is
// a property of the record, not of the request that brought it — sends, CONSUMER_SEND_MSG_BACK
// and a committed transaction message all get it without knowing of each other — and the store
// already owns the rest of the contract (the level table, the SCHEDULE_TOPIC_XXXX queues and the
// delivery-time tags code the dispatcher writes for them). Only plain and committed messages are
// delayed (a half message waits for its commit); batches keep DELAY as a plain property.
std::optional<common::BrokerMessage> MessageStore::delayedForm(const common::BrokerMessage &message) const
{
    if (message.scheduledDelivery || !common::sysflag::hasQueueEntry(message.sysFlag) || message.topic == kScheduleTopic)
        return std::nullopt;
    const auto delay = message.properties.get(common::property::kDelayTimeLevel);
    if (!delay)
        return std::nullopt;
    int32_t level = 0;
    const auto [end, ec] = std::from_chars(delay->data(), delay->data() + delay->size(), level);
    if (ec != std::errc() || end != delay->data() + delay->size() || level <= 0)
        return std::nullopt;
    common::BrokerMessage delayed = message;
    if (level > maxDelayLevel()) {
        level = maxDelayLevel();
        delayed.properties.set(common::property::kDelayTimeLevel, std::to_string(level));
    }
    delayed.properties.set(common::property::kRealTopic, message.topic);
    delayed.properties.set(common::property::kRealQueueId, std::to_string(message.queueId));
    delayed.topic = std::string(kScheduleTopic);
    delayed.queueId = level - 1;
    return delayed;
}

std::optional<PutMessageResult> MessageStore::refusal(std::string_view topic) const
{
    PutMessageResult refused;
    if (const std::string reason = unsafePathComponentReason(topic); !reason.empty()) {
        // The store's own wall (store_paths.h): a topic that could not name its consume-queue
        // folder is refused before anything is appended.
        std::string path;
        joinInside(config_.rootDir() + "/consumequeue", topic, "topic", path, refused.error);
        refused.status = PutMessageStatus::MessageIllegal;
        return refused;
    }
    if (cleaner_ && cleaner_->diskFull()) {
        refused.status = PutMessageStatus::ServiceNotAvailable;
        refused.error = "the disk is above diskSpaceWarningLevelRatio; puts are refused until retention frees space";
        return refused;
    }
    if (reput_ && reput_->writeFailing()) {
        // Java's makeLogicsQueueError: while the dispatcher cannot write a queue entry, new
        // queue offsets could not be honoured either.
        refused.status = PutMessageStatus::ServiceNotAvailable;
        refused.error = "the dispatcher cannot write consume-queue entries (see the log; a full disk?); "
                        "puts are refused until it can";
        return refused;
    }
    return std::nullopt;
}

std::optional<PutMessageResult> MessageStore::timerForm(const common::BrokerMessage &message,
                                                       std::optional<common::BrokerMessage> &transformed) const
{
    if (!mayBeTimerMessage(message))
        return std::nullopt;
    transformed = message;
    SlotCount slotCount;
    if (timer_)
        slotCount = [this](int64_t deliverMs) { return timer_->slotCount(deliverMs); };
    return transformTimerMessage(config_, *transformed, common::wallMillis(), slotCount);
}

namespace {

// TIMER_OUT_MS of a message the timer transform sent to the wheel, else −1 (one it delivers at once
// keeps its own topic).
int64_t parkedTimerOutMs(const common::BrokerMessage &transformed)
{
    if (transformed.topic != kTimerTopic)
        return -1;
    const auto outMs = transformed.properties.get(timer_property::kOutMs);
    const std::optional<int64_t> parsed = outMs ? parseJavaLong(*outMs) : std::nullopt;
    return parsed.value_or(-1);
}

} // namespace

std::optional<PutMessageResult> MessageStore::innerBatchRefusal(const common::BrokerMessage &message) const
{
    namespace property = common::property;
    const bool innerBatch = (message.sysFlag & common::sysflag::kInnerBatch) != 0;
    const auto number = message.properties.get(property::kInnerNum);
    std::string why;
    if (number && !innerBatch) {
        why = "the message has INNER_NUM but is not an inner batch (sysFlag INNER_BATCH)";
    } else if (innerBatch && !(batchTopicTest_ && batchTopicTest_(message.topic))) {
        why = "an inner batch (sysFlag INNER_BATCH) needs a topic with queue.type=BatchCQ; " + message.topic
              + " is not one";
    } else if (innerBatch) {
        const auto count = number ? common::parseJavaInt(*number) : std::nullopt;
        if (!count || *count < 1 || *count > INT16_MAX)
            why = "an inner batch needs INNER_NUM between 1 and 32767, got '" + std::string(number.value_or("")) + "'";
        else if (message.properties.get(property::kDelayTimeLevel) || message.properties.get(property::kTimerDeliverMs)
                 || message.properties.get(property::kTimerDelaySec) || message.properties.get(property::kTimerDelayMs))
            why = "an inner batch cannot be delayed";
    }
    if (why.empty())
        return std::nullopt;
    PutMessageResult refused;
    refused.status = PutMessageStatus::MessageIllegal;
    refused.error = std::move(why);
    return refused;
}

PutMessageResult MessageStore::putMessage(const common::BrokerMessage &message)
{
    if (auto refused = refusal(message.topic))
        return std::move(*refused);
    if (auto refused = innerBatchRefusal(message))
        return std::move(*refused);
    std::optional<common::BrokerMessage> timed;
    if (auto refused = timerForm(message, timed))
        return std::move(*refused);
    const common::BrokerMessage &put = timed ? *timed : message;
    const auto delayed = delayedForm(put);
    auto result = commitLog_->putMessage(delayed ? *delayed : put);
    reput_->wakeup();
    if (timed && result.stored())
        result.timerOutMs = parkedTimerOutMs(*timed);
    return result;
}

void MessageStore::asyncPutMessage(const common::BrokerMessage &message, PutCallback done)
{
    if (auto refused = refusal(message.topic)) {
        done(*refused);
        return;
    }
    if (auto refused = innerBatchRefusal(message)) {
        done(*refused);
        return;
    }
    std::optional<common::BrokerMessage> timed;
    if (auto refused = timerForm(message, timed)) {
        done(*refused);
        return;
    }
    const common::BrokerMessage &put = timed ? *timed : message;
    const auto delayed = delayedForm(put);
    if (const int64_t outMs = timed ? parkedTimerOutMs(*timed) : -1; outMs >= 0) {
        done = [done = std::move(done), outMs](const PutMessageResult &result) {
            PutMessageResult parked = result;
            if (parked.stored())
                parked.timerOutMs = outMs;
            done(parked);
        };
    }
    commitLog_->asyncPutMessage(delayed ? *delayed : put, std::move(done));
    reput_->wakeup();
}

void MessageStore::asyncPutMessages(std::span<const common::BrokerMessage> messages, PutCallback done)
{
    if (auto refused = refusal(messages.empty() ? std::string_view("-") : std::string_view(messages.front().topic))) {
        done(*refused);
        return;
    }
    // An inner batch is put alone (asyncPutMessage checks it): in a batch its flag or INNER_NUM
    // would make units that claim queue offsets the log never gave.
    for (const common::BrokerMessage &message : messages) {
        if ((message.sysFlag & common::sysflag::kInnerBatch) != 0 || message.properties.get(common::property::kInnerNum)) {
            PutMessageResult refused;
            refused.status = PutMessageStatus::MessageIllegal;
            refused.error = "a batch cannot hold an inner batch (sysFlag INNER_BATCH or INNER_NUM)";
            done(refused);
            return;
        }
    }
    commitLog_->asyncPutMessages(messages, std::move(done));
    reput_->wakeup();
}

} // namespace mqdesk::store
