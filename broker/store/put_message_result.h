#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::store {

// Outcomes of a put, named as RocketMQ's PutMessageStatus.
enum class PutMessageStatus {
    PutOk,
    FlushDiskTimeout,       // stored, but not known flushed within syncFlushTimeout
    ServiceNotAvailable,    // the store is not running
    CreateMappedFileFailed, // the next commit-log file could not be created (disk full?)
    MessageIllegal,         // body over maxMessageSize, empty or over-long topic, bad batch
    PropertiesSizeExceeded, // properties over 32767 bytes
    // Timer messages (store-format §12.3); `error` carries Java's response remark verbatim.
    WheelTimerFlowControl, // the target slot holds more than timerCongestNumEachSlot
    WheelTimerMsgIllegal,  // delivery beyond timerMaxDelaySec, unparsable, or a past delete marker
    WheelTimerNotEnable,   // TIMER_* properties while timerWheelEnable is false
    // A new LMQ beyond maxLmqConsumeQueueNum (enableLmqQuota); `error` is Java's remark.
    LmqConsumeQueueNumExceeded,
    UnknownError,
};

std::string_view putStatusName(PutMessageStatus status); // "PUT_OK", "FLUSH_DISK_TIMEOUT", ...

struct PutMessageResult
{
    PutMessageStatus status = PutMessageStatus::UnknownError;
    int64_t wroteOffset = -1;     // commit-log offset of the first record
    int32_t wroteBytes = 0;       // bytes of all records
    int64_t queueOffset = -1;     // queue offset of the first message
    int32_t messageCount = 0;
    int64_t storeTimestamp = 0;
    std::vector<int32_t> recordSizes; // per record, only for batches (offsets follow from them)
    // A single message the put parked in the timer wheel (rmq_sys_wheel_timer): its TIMER_OUT_MS,
    // the slot time it is delivered from; −1 otherwise. The broker builds recall handles from it.
    int64_t timerOutMs = -1;
    std::string error;            // what went wrong, naming the cause, when not PutOk

    // FLUSH_DISK_TIMEOUT still means "stored" (RocketMQ counts it as sent).
    bool stored() const
    {
        return status == PutMessageStatus::PutOk || status == PutMessageStatus::FlushDiskTimeout;
    }
};

// Called exactly once per put, on the putting thread or a flush thread; must not block.
using PutCallback = std::function<void(const PutMessageResult &)>;

} // namespace mqdesk::store
