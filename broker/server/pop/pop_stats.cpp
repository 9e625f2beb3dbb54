// PopService::groupStats: a group's POP figures for the console, read from the store the way the
// revive service reads it — checkpoints and acks still parked in the timer wheel (not yet due)
// and those delivered into the revive queues but not yet dealt with.

#include "broker/server/pop/consumer_order_info_manager.h"
#include "broker/server/pop/pop_long_polling.h"
#include "broker/server/pop/pop_records.h"
#include "broker/server/pop/pop_service.h"

#include "broker/common/clock.h"
#include "broker/common/java_hash.h"
#include "broker/server/broker_controller.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/message_request_mode_manager.h"
#include "broker/store/message_store.h"
#include "broker/store/timer_message_store.h"

#include <map>

namespace mqdesk::server::pop {

namespace {

// How far ahead and how much the scan reads: a console figure must not cost the broker more.
constexpr int64_t kScanAheadMs = 24LL * 3600 * 1000;
constexpr size_t kMaxScanned = 200000;

} // namespace

PopGroupStats PopService::groupStats(const std::string &group)
{
    PopGroupStats stats;
    store::MessageStore &store = broker_.store();
    const std::string revive = reviveTopic();
    std::map<std::string, PopCheckPoint> checkpoints;
    std::vector<AckMessage> acks;
    size_t scanned = 0;
    const auto take = [&](const common::StoredMessage &message, bool delivered) {
        const std::string tag = message.tags();
        std::string error;
        if (tag == kCheckpointTag) {
            auto ck = PopCheckPoint::fromJson(message.bodyText(), error);
            if (!ck || ck->cid != group)
                return;
            if (delivered)
                ++stats.reviveBacklog;
            checkpoints[checkpointKey(ck->topic, ck->cid, ck->queueId, ck->startOffset, ck->popTime, ck->brokerName)] =
                std::move(*ck);
        } else if (tag == kAckTag || tag == kBatchAckTag) {
            auto ack = AckMessage::fromJson(message.bodyText(), tag == kBatchAckTag, error);
            if (ack && ack->consumerGroup == group)
                acks.push_back(std::move(*ack));
        }
    };
    if (store::TimerMessageStore *timer = store.timerMessageStore()) {
        const int32_t hash = common::javaStringHashCode(revive);
        const int64_t now = common::wallMillis();
        for (const store::PendingTimerMessage &parked : timer->pending(0, now + kScanAheadMs, kMaxScanned)) {
            if (parked.realTopicHash != hash)
                continue;
            if (const auto message = store.lookMessageByOffset(parked.commitLogOffset))
                take(*message, false);
            ++scanned;
        }
    }
    for (int32_t q = 0; q < broker_.brokerConfig().reviveQueueNum && scanned < kMaxScanned; ++q) {
        int64_t offset = broker_.offsets().queryOffset(kReviveGroup, revive, q) + 1;
        const int64_t max = store.maxOffsetInQueue(revive, q);
        offset = std::max(offset, store.minOffsetInQueue(revive, q));
        while (offset < max && scanned < kMaxScanned) {
            const store::GetMessageResult read = store.getMessage(revive, q, offset, 32);
            if (read.nextBeginOffset <= offset)
                break;
            for (const common::StoredMessage &message : read.messages)
                take(message, true);
            scanned += read.messages.size();
            offset = read.nextBeginOffset;
        }
    }
    stats.truncated = scanned >= kMaxScanned;
    for (const AckMessage &ack : acks) {
        const auto found = checkpoints.find(
            checkpointKey(ack.topic, ack.consumerGroup, ack.queueId, ack.startOffset, ack.popTime, ack.brokerName));
        if (found == checkpoints.end())
            continue;
        for (int64_t offset : ack.ackOffsets) {
            const int index = found->second.indexOfOffset(offset);
            if (index >= 0)
                found->second.setAcked(index);
        }
    }
    for (const auto &[key, ck] : checkpoints)
        stats.inFlight += ck.unackedCount();
    stats.fifoHeld = orderInfo_->heldCount(group);
    stats.inFlight += stats.fifoHeld;

    const std::string retryPrefix = "%RETRY%" + group + "_";
    for (const std::string &topic : broker_.offsets().whichTopicByConsumer(group)) {
        if (!topic.starts_with(retryPrefix))
            continue;
        for (const auto &[queueId, committed] : broker_.offsets().queryOffsets(group, topic))
            stats.retryBacklog += std::max<int64_t>(0, store.maxOffsetInQueue(topic, queueId) - committed);
    }
    for (const store::MessageRequestMode &mode : requestModes_->all()) {
        if (mode.consumerGroup == group && mode.isPop())
            stats.popTopics.push_back(mode.topic);
    }
    stats.parkedPops = polling_->parkedCount(group);
    return stats;
}

} // namespace mqdesk::server::pop
