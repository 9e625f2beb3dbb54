#pragma once

// The put-time side of timer messages (store-format §12.3; Java's HookUtils.handleScheduleMessage,
// checkIfTimerMessage and transformTimerMessage), applied by MessageStore to single plain or
// committed messages before the delay-level rewrite:
//
// - A DELAY level wins: TIMER_DELIVER_MS, TIMER_DELAY_SEC and TIMER_DELAY_MS are removed and the
//   level applies.
// - Messages to rmq_sys_wheel_timer (rolled ones coming back) and messages already carrying
//   TIMER_OUT_MS (deliveries) are left alone.
// - Otherwise the delivery time is now + TIMER_DELAY_SEC × 1000, else now + TIMER_DELAY_MS, else
//   TIMER_DELIVER_MS (Long.parseLong; anything else is WHEEL_TIMER_MSG_ILLEGAL). In the future:
//   beyond timerMaxDelaySec is refused; the time is rounded down to the precision, an exact
//   multiple one precision lower (so the delivery, one precision after the slot time, is never
//   early); TIMER_OUT_MS, REAL_TOPIC and REAL_QID are added and the message goes to
//   rmq_sys_wheel_timer queue 0. In the past it goes to its own topic as it is, except a delete
//   marker (TIMER_DEL_UNIQKEY), which is refused.
//
// Refusals carry Java's response remark in PutMessageResult::error.

#include "broker/common/java_strings.h"
#include "broker/common/message.h"
#include "broker/store/put_message_result.h"
#include "broker/store/store_config.h"

#include <functional>
#include <optional>
#include <string_view>

namespace mqdesk::store {

inline constexpr std::string_view kTimerTopic = "rmq_sys_wheel_timer";

namespace timer_property {
inline constexpr std::string_view kDeliverMs = "TIMER_DELIVER_MS";
inline constexpr std::string_view kDelaySec = "TIMER_DELAY_SEC";
inline constexpr std::string_view kDelayMs = "TIMER_DELAY_MS";
inline constexpr std::string_view kOutMs = "TIMER_OUT_MS";
inline constexpr std::string_view kEnqueueMs = "TIMER_ENQUEUE_MS";
inline constexpr std::string_view kDequeueMs = "TIMER_DEQUEUE_MS";
inline constexpr std::string_view kRollTimes = "TIMER_ROLL_TIMES";
inline constexpr std::string_view kDelUniqKey = "TIMER_DEL_UNIQKEY";
} // namespace timer_property

// Whether the put-time transform may change `message` (a cheap look at its properties).
bool mayBeTimerMessage(const common::BrokerMessage &message);

// How many messages the slot of a (rounded) delivery time holds: the flow-control input.
using SlotCount = std::function<int64_t(int64_t deliverMs)>;

// Applies the transform to `message` in place. Returns a refusal, or nullopt when the message is
// to be stored (changed or not). `slotCount` may be empty (no flow control).
std::optional<PutMessageResult> transformTimerMessage(const MessageStoreConfig &config, common::BrokerMessage &message,
                                                      int64_t nowMs, const SlotCount &slotCount);

using common::parseJavaLong;

} // namespace mqdesk::store
