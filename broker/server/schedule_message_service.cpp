#include "broker/server/schedule_message_service.h"

#include "broker/common/clock.h"
#include "broker/common/message.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/server/broker_controller.h"
#include "broker/server/topic_manager.h"
#include "broker/store/config/delay_offset_manager.h"
#include "broker/store/consume_queue.h"
#include "broker/store/consume_queue_store.h"
#include "broker/store/message_store.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace mqdesk::server {

namespace {

constexpr auto kPollInterval = std::chrono::milliseconds(100); // Java's DELAY_FOR_A_WHILE
constexpr int64_t kPauseAfterFailureMillis = 10000;            // Java's DELAY_FOR_A_PERIOD
constexpr int64_t kPersistIntervalMillis = 10000;              // flushDelayOffsetInterval
constexpr int kBatch = 32;                                     // entries read per turn and level

} // namespace

ScheduleMessageService::ScheduleMessageService(BrokerController &broker)
    : ServiceThread("ScheduleMessage"), broker_(broker)
{}

ScheduleMessageService::~ScheduleMessageService()
{
    stop();
}

void ScheduleMessageService::load()
{
    const int32_t levels = broker_.store().maxDelayLevel();
    offsets_.assign(static_cast<size_t>(levels), 0);
    pausedUntil_.assign(static_cast<size_t>(levels), 0);
    for (int32_t level = 1; level <= levels; ++level) {
        int64_t offset = broker_.delayOffsets().offset(level).value_or(0);
        const auto queue = broker_.store().consumeQueues().find(std::string(kScheduleTopic), level - 1);
        if (queue) {
            // The queue may have lost its head to retention, or the file may be older than the
            // queue (a restored backup): start within what the queue holds.
            const int64_t corrected = std::clamp(offset, queue->minOffset(), std::max(queue->minOffset(), queue->maxOffset()));
            if (corrected != offset)
                spdlog::warn("schedule: delay level {} offset {} corrected to {}", level, offset, corrected);
            offset = corrected;
        }
        offsets_[static_cast<size_t>(level - 1)] = offset;
    }
}

void ScheduleMessageService::persist()
{
    std::string error;
    if (!broker_.delayOffsets().persist(error))
        spdlog::error("schedule: cannot persist delay offsets: {}", error);
}

void ScheduleMessageService::run()
{
    int64_t lastPersist = common::steadyMicros() / 1000;
    while (!isStopped()) {
        deliverDue(common::wallMillis());
        const int64_t now = common::steadyMicros() / 1000;
        if (now - lastPersist >= kPersistIntervalMillis) {
            lastPersist = now;
            persist();
        }
        waitForRunning(kPollInterval);
    }
}

int ScheduleMessageService::deliverDue(int64_t nowMillis)
{
    int delivered = 0;
    for (int32_t level = 1; level <= static_cast<int32_t>(offsets_.size()) && !isStopped(); ++level) {
        if (pausedUntil_[static_cast<size_t>(level - 1)] > nowMillis)
            continue;
        if (!deliverLevel(level, nowMillis, delivered))
            pausedUntil_[static_cast<size_t>(level - 1)] = nowMillis + kPauseAfterFailureMillis;
    }
    return delivered;
}

bool ScheduleMessageService::deliverLevel(int32_t level, int64_t nowMillis, int &delivered)
{
    store::MessageStore &store = broker_.store();
    const auto queue = store.consumeQueues().find(std::string(kScheduleTopic), level - 1);
    if (!queue)
        return true;
    int64_t &offset = offsets_[static_cast<size_t>(level - 1)];
    const int64_t delayMillis = store.delayLevelMillis(level);
    while (!isStopped()) {
        if (offset < queue->minOffset())
            offset = queue->minOffset(); // retention removed entries never delivered
        const std::vector<store::ConsumeQueueEntry> entries = queue->entriesFrom(offset, kBatch);
        if (entries.empty())
            return true;
        for (const store::ConsumeQueueEntry &entry : entries) {
            if (!entry.isFiller()) {
                // A delivery time further ahead than the level's delay means the clock went
                // back (or the table shrank): deliver now rather than hold the level (Java's
                // correctDeliverTimestamp).
                int64_t deliverAt = entry.tagsCode;
                if (deliverAt > nowMillis + delayMillis)
                    deliverAt = nowMillis;
                if (deliverAt > nowMillis)
                    return true;
                if (const auto stored = store.lookMessageByOffset(entry.commitLogOffset)) {
                    const auto realTopic = stored->properties.get(common::property::kRealTopic);
                    const auto realQueue = stored->properties.get(common::property::kRealQueueId);
                    const auto queueId = realQueue ? remoting::parseJavaInt(*realQueue) : std::nullopt;
                    if (!realTopic || !queueId) {
                        spdlog::error("schedule: record at {} (level {}, offset {}) has no REAL_TOPIC/REAL_QID; skipped",
                                      entry.commitLogOffset, level, offset);
                    } else if (*realTopic == kTransHalfTopic) {
                        spdlog::warn("schedule: record at {} targets the half topic; discarded", entry.commitLogOffset);
                    } else {
                        common::BrokerMessage message = common::toBrokerMessage(*stored);
                        message.topic = std::string(*realTopic);
                        message.queueId = *queueId;
                        message.preparedTransactionOffset = 0;
                        message.waitStoreMsgOk = false;
                        message.scheduledDelivery = true;
                        const store::PutMessageResult result = store.putMessage(message);
                        if (!result.stored()) {
                            spdlog::error("schedule: delivering the record at {} to {}:{} failed: {} {}; level {} retries in 10 s",
                                          entry.commitLogOffset, message.topic, message.queueId,
                                          store::putStatusName(result.status), result.error, level);
                            return false;
                        }
                        ++delivered;
                    }
                } else {
                    // Java skips an entry whose record cannot be read (already deleted).
                    spdlog::warn("schedule: no record at {} for level {} offset {}; skipped", entry.commitLogOffset,
                                 level, offset);
                }
            }
            ++offset;
            broker_.delayOffsets().updateOffset(level, offset);
            if (isStopped())
                return true;
        }
    }
    return true;
}

} // namespace mqdesk::server
