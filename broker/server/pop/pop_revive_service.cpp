#include "broker/server/pop/pop_revive_service.h"

#include "broker/server/pop/pop_records.h"
#include "broker/server/pop/pop_service.h"

#include "broker/common/clock.h"
#include "broker/common/message.h"
#include "broker/server/broker_controller.h"
#include "broker/server/topic_manager.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/message_store.h"
#include "broker/store/timer_message_store.h"
#include "broker/store/timer_put_transform.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>

namespace mqdesk::server::pop {

namespace {

constexpr int kBatch = 32;
constexpr int kMaxMessagesPerPass = 20000;
// Java's ckRewriteIntervalsInSeconds: the delay before the n-th retry of a failed re-put.
constexpr int64_t kRewriteIntervalsSec[] = {10, 20, 30, 60, 120, 180, 240, 300, 360, 420, 480, 540, 600, 1200, 1800, 3600, 7200};

int64_t propertyMillis(const common::StoredMessage &message, std::string_view name, int64_t fallback)
{
    const auto value = message.properties.get(name);
    if (!value)
        return fallback;
    return store::parseJavaLong(*value).value_or(fallback);
}

} // namespace

PopReviveService::PopReviveService(PopService &service) : ServiceThread("PopRevive"), service_(service) {}

PopReviveService::~PopReviveService()
{
    stop();
}

void PopReviveService::run()
{
    while (!isStopped()) {
        waitForRunning(std::chrono::milliseconds(1000));
        if (isStopped())
            break;
        const int32_t queues = service_.broker().brokerConfig().reviveQueueNum;
        for (int32_t q = 0; q < queues && !isStopped(); ++q)
            reviveQueue(q);
    }
}

int64_t PopReviveService::idleEndTime() const
{
    // Everything due by now has reached the revive queue unless the timer store is behind.
    store::MessageStore &store = service_.broker().store();
    store::TimerMessageStore *timer = store.timerMessageStore();
    if (timer == nullptr)
        return 0;
    const int64_t now = common::wallMillis();
    const bool enqueueBehind = timer->queueOffset() < store.maxOffsetInQueue(std::string(store::kTimerTopic), 0);
    const int64_t readTime = timer->readTimeMs();
    if (enqueueBehind || now - readTime > 2 * int64_t{timer->precisionMs()} + 1000)
        return 0;
    return std::min(now, readTime) - timer->precisionMs();
}

int PopReviveService::reviveQueue(int32_t queueId)
{
    BrokerController &broker = service_.broker();
    store::MessageStore &store = broker.store();
    const std::string topic = service_.reviveTopic();
    const int64_t committed = broker.offsets().queryOffset(kReviveGroup, topic, queueId);
    int64_t offset = std::max(committed + 1, store.minOffsetInQueue(topic, queueId));
    const int64_t maxOffset = store.maxOffsetInQueue(topic, queueId);
    if (offset >= maxOffset)
        return 0;

    std::vector<PopCheckPoint> checkpoints; // in revive-queue order
    std::map<std::string, size_t> byKey;
    int64_t endTime = 0;
    int64_t lastScanned = committed;
    int scanned = 0;
    while (offset < maxOffset && scanned < kMaxMessagesPerPass) {
        const store::GetMessageResult result = store.getMessage(topic, queueId, offset, kBatch);
        if (result.messages.empty()) {
            if (result.nextBeginOffset <= offset)
                break;
            offset = result.nextBeginOffset;
            continue;
        }
        for (size_t i = 0; i < result.messages.size(); ++i) {
            const common::StoredMessage &message = result.messages[i];
            const int64_t queueOffset = result.queueOffsets[i];
            lastScanned = queueOffset;
            ++scanned;
            endTime = std::max(endTime, propertyMillis(message, store::timer_property::kDeliverMs, message.storeTimestamp));
            const std::string tag = message.tags();
            std::string error;
            if (tag == kCheckpointTag) {
                auto ck = PopCheckPoint::fromJson(message.bodyText(), error);
                if (!ck || ck->topic.empty() || ck->cid.empty()) {
                    spdlog::warn("revive: {} queue {} offset {}: unreadable checkpoint ({}), skipped", topic, queueId,
                                 queueOffset, error);
                    continue;
                }
                ck->reviveOffset = queueOffset;
                byKey[checkpointKey(ck->topic, ck->cid, ck->queueId, ck->startOffset, ck->popTime, ck->brokerName)] =
                    checkpoints.size();
                checkpoints.push_back(std::move(*ck));
            } else if (tag == kAckTag || tag == kBatchAckTag) {
                const auto ack = AckMessage::fromJson(message.bodyText(), tag == kBatchAckTag, error);
                if (!ack)
                    continue;
                const std::string brokerName = ack->brokerName.empty() ? broker.brokerConfig().brokerName : ack->brokerName;
                const auto found = byKey.find(
                    checkpointKey(ack->topic, ack->consumerGroup, ack->queueId, ack->startOffset, ack->popTime, brokerName));
                if (found == byKey.end())
                    continue; // its CK was revived already, or never written
                PopCheckPoint &ck = checkpoints[found->second];
                for (int64_t acked : ack->ackOffsets) {
                    const int index = ck.indexOfOffset(acked);
                    if (index >= 0)
                        ck.setAcked(index);
                }
            }
        }
        offset = result.nextBeginOffset;
    }
    if (offset >= maxOffset)
        endTime = std::max(endTime, idleEndTime());

    // Revive the due CKs in order; the first one not due stops the pass.
    int revived = 0;
    int64_t commitTo = lastScanned;
    for (const PopCheckPoint &ck : checkpoints) {
        if (endTime - ck.reviveTime() <= kAckTimeIntervalMs + kSecondMs) {
            commitTo = ck.reviveOffset - 1;
            break;
        }
        for (int i = 0; i < ck.num; ++i) {
            if (!ck.acked(i) && !reviveMessage(ck, i))
                rePutCheckpoint(ck, i, queueId);
        }
        ++revived;
    }
    if (commitTo > committed)
        broker.offsets().commitOffset("PopReviveService", kReviveGroup, topic, queueId, commitTo);
    return revived;
}

bool PopReviveService::reviveMessage(const PopCheckPoint &ck, int index)
{
    BrokerController &broker = service_.broker();
    store::MessageStore &store = broker.store();
    const int64_t offset = ck.queueOffset(index);
    const store::GetMessageResult read = store.getMessage(ck.topic, ck.queueId, offset, 1);
    if (read.messages.empty() || read.queueOffsets.front() != offset) {
        // Gone (cleaned away) or never there: nothing to hand out again.
        spdlog::info("revive: {}@{} offset {} (group {}) is no longer in the store; not revived", ck.topic, ck.queueId,
                     offset, ck.cid);
        return true;
    }
    const common::StoredMessage &original = read.messages.front();
    const std::string retryTopic = isRetryTopic(ck.topic) ? ck.topic : popRetryTopic(ck.topic, ck.cid);
    if (!broker.topics().createTopicIfAbsent(retryTopic, 1, store::perm::kRead | store::perm::kWrite)) {
        spdlog::warn("revive: cannot create the retry topic {}", retryTopic);
        return false;
    }
    if (broker.offsets().queryOffset(ck.cid, retryTopic, 0) < 0)
        broker.offsets().commitOffset("PopReviveService", ck.cid, retryTopic, 0, 0);
    common::BrokerMessage message = common::toBrokerMessage(original);
    message.topic = retryTopic;
    message.queueId = 0;
    message.reconsumeTimes = original.reconsumeTimes + 1;
    message.scheduledDelivery = true; // a kept DELAY property must not delay it again
    if (const auto host = common::HostAddress::parse(broker.brokerAddress()))
        message.bornHost = *host;
    if (original.reconsumeTimes == 0 || !message.properties.get(kFirstPopTimeProperty))
        message.properties.set(kFirstPopTimeProperty, std::to_string(ck.popTime));
    const store::PutMessageResult put = store.putMessage(message);
    if (!put.stored()) {
        spdlog::warn("revive: re-putting {}@{} offset {} into {} failed: {}", ck.topic, ck.queueId, offset, retryTopic,
                     put.error);
        return false;
    }
    return true;
}

void PopReviveService::rePutCheckpoint(const PopCheckPoint &ck, int index, int32_t reviveQid)
{
    PopCheckPoint again;
    again.startOffset = ck.queueOffset(index);
    again.popTime = ck.popTime;
    const int32_t times = ck.rePutTimes.value_or(0);
    const int64_t delay = kRewriteIntervalsSec[std::min<size_t>(static_cast<size_t>(times), std::size(kRewriteIntervalsSec) - 1)] * 1000;
    again.invisibleTime = std::max(ck.invisibleTime, common::wallMillis() + delay - ck.popTime);
    again.num = 1;
    again.queueId = ck.queueId;
    again.topic = ck.topic;
    again.cid = ck.cid;
    again.brokerName = ck.brokerName;
    again.queueOffsetDiff = {0};
    again.rePutTimes = times + 1;
    const store::PutMessageResult put = service_.putCheckpoint(again, reviveQid);
    if (!put.stored())
        spdlog::error("revive: re-putting the checkpoint of {}@{} offset {} failed too: {}", ck.topic, ck.queueId,
                      again.startOffset, put.error);
}

} // namespace mqdesk::server::pop
