#include "broker/store/timer_put_transform.h"

#include <random>
#include <string>

namespace mqdesk::store {

namespace {

using common::property::kDelayTimeLevel;
namespace tp = timer_property;

PutMessageResult refuse(PutMessageStatus status, std::string remark)
{
    PutMessageResult result;
    result.status = status;
    result.error = std::move(remark);
    return result;
}

std::string illegalRemark(const MessageStoreConfig &config)
{
    return "timer message illegal, the delay time should not be bigger than the max delay "
           + std::to_string(int64_t{config.timerMaxDelaySec} * 1000)
           + "ms; or if set del msg, the delay time should be bigger than the current time";
}

bool hasDelayLevel(const common::BrokerMessage &message)
{
    const auto level = message.properties.get(kDelayTimeLevel);
    if (!level)
        return false;
    const auto parsed = parseJavaLong(*level);
    return parsed && *parsed > 0 && *parsed <= INT32_MAX;
}

// TimerMessageStore.isReject: above timerCongestNumEachSlot a put is refused at random, more
// often the fuller the slot, and always at twice the limit.
bool congested(const MessageStoreConfig &config, int64_t messagesInSlot)
{
    const int64_t limit = config.timerCongestNumEachSlot;
    if (messagesInSlot <= limit)
        return false;
    if (messagesInSlot >= limit * 2)
        return true;
    thread_local std::minstd_rand random(std::random_device{}());
    const double threshold = 1000.0 * static_cast<double>(messagesInSlot - limit) / (static_cast<double>(limit) + 0.1);
    return static_cast<double>(random() % 1000) > threshold;
}

// Java's `now + seconds * 1000` wraps on overflow; so does this.
int64_t wrappingAdd(int64_t a, int64_t b)
{
    return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

} // namespace

bool mayBeTimerMessage(const common::BrokerMessage &message)
{
    const auto &p = message.properties;
    return p.get(tp::kDeliverMs) || p.get(tp::kDelaySec) || p.get(tp::kDelayMs);
}

std::optional<PutMessageResult> transformTimerMessage(const MessageStoreConfig &config, common::BrokerMessage &message,
                                                      int64_t nowMs, const SlotCount &slotCount)
{
    if (!common::sysflag::hasQueueEntry(message.sysFlag) || message.topic == kTimerTopic || !mayBeTimerMessage(message))
        return std::nullopt;
    auto &properties = message.properties;
    if (hasDelayLevel(message)) {
        properties.remove(tp::kDeliverMs);
        properties.remove(tp::kDelaySec);
        properties.remove(tp::kDelayMs);
        return std::nullopt;
    }
    if (properties.get(tp::kOutMs))
        return std::nullopt; // a delivery from the wheel
    if (!config.timerWheelEnable)
        return refuse(PutMessageStatus::WheelTimerNotEnable, "accurate timer message is not enabled, timerWheelEnable is false");

    std::optional<int64_t> deliverMs;
    if (const auto sec = properties.get(tp::kDelaySec)) {
        if (const auto value = parseJavaLong(*sec))
            deliverMs = wrappingAdd(nowMs, static_cast<int64_t>(static_cast<uint64_t>(*value) * 1000));
    } else if (const auto ms = properties.get(tp::kDelayMs)) {
        if (const auto value = parseJavaLong(*ms))
            deliverMs = wrappingAdd(nowMs, *value);
    } else {
        deliverMs = parseJavaLong(*properties.get(tp::kDeliverMs));
    }
    if (!deliverMs)
        return refuse(PutMessageStatus::WheelTimerMsgIllegal, illegalRemark(config));

    if (*deliverMs <= nowMs) {
        if (properties.get(tp::kDelUniqKey))
            return refuse(PutMessageStatus::WheelTimerMsgIllegal, illegalRemark(config));
        return std::nullopt; // due already: stored in its own topic as it is
    }
    if (*deliverMs - nowMs > int64_t{config.timerMaxDelaySec} * 1000)
        return refuse(PutMessageStatus::WheelTimerMsgIllegal, illegalRemark(config));
    const int64_t precision = config.timerPrecisionMs;
    int64_t slotMs = *deliverMs % precision == 0 ? *deliverMs - precision : *deliverMs / precision * precision;
    if (slotCount && congested(config, slotCount(slotMs))) {
        const int64_t limit = config.timerCongestNumEachSlot;
        return refuse(PutMessageStatus::WheelTimerFlowControl,
                      "timer message is under flow control, max num limit is " + std::to_string(limit * 2)
                          + " or the current value is greater than " + std::to_string(limit) + " and less than "
                          + std::to_string(limit * 2) + ", trigger random flow control");
    }
    properties.set(tp::kOutMs, std::to_string(slotMs));
    properties.set(common::property::kRealTopic, message.topic);
    properties.set(common::property::kRealQueueId, std::to_string(message.queueId));
    message.topic = std::string(kTimerTopic);
    message.queueId = 0;
    return std::nullopt;
}

} // namespace mqdesk::store
