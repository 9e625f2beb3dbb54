// GET_TIMER_TIMELINE and GET_POP_STATS (MQDesk extensions, codes 903 and 904): what the console
// shows of RocketMQ 5's timer messages and POP consumption, which Java's admin API does not tell.
//
// GET_TIMER_TIMELINE, header topic (empty: every topic), minutes (1–1440, default 60), next
// (0–200, default 20); body {"now","precisionMs","readTimeMs","bucketMs":60000,"buckets":[count per
// coming minute],"total","truncated","next":[{"deliverMs","topic","msgId","keys","tags"}]}.
// Parked messages are matched to the topic by the hash the timer log keeps (Java's
// String.hashCode); the next ones are read from the commit log and checked by name.
// GET_POP_STATS, header consumerGroup; body PopGroupStats as JSON.

#include "broker/server/admin_processor.h"

#include "broker/common/clock.h"
#include "broker/common/java_hash.h"
#include "broker/common/json.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/admin_bodies.h"
#include "broker/server/broker_controller.h"
#include "broker/server/pop/pop_service.h"
#include "broker/store/message_store.h"
#include "broker/store/timer_message_store.h"
#include "broker/store/timer_put_transform.h"

#include <algorithm>

namespace mqdesk::server {

using admin::failure;
using admin::successWithBody;
using common::JsonArray;
using common::JsonObject;
using common::JsonValue;
using remoting::HeaderReader;
using remoting::RemotingCommand;
using remoting::ResponseCode;

namespace {

constexpr int64_t kBucketMs = 60000;
constexpr size_t kMaxParkedRead = 500000;

std::string property(const common::StoredMessage &message, std::string_view name)
{
    return std::string(message.properties.get(name).value_or(""));
}

} // namespace

RemotingCommand AdminProcessor::getTimerTimeline(const RemotingCommand &request)
{
    HeaderReader reader(request.extFields);
    const std::string topic = reader.optTopic("topic");
    const int64_t minutes = std::clamp<int64_t>(reader.optInt64("minutes", 60), 1, 1440);
    const int64_t nextCount = std::clamp<int64_t>(reader.optInt64("next", 20), 0, 200);
    if (!reader.ok())
        return failure(request, ResponseCode::kSystemError, reader.error());
    store::TimerMessageStore *timer = broker_.store().timerMessageStore();
    if (timer == nullptr)
        return failure(request, ResponseCode::kSystemError, "the timer wheel is disabled (timerWheelEnable=false)");

    const int64_t now = common::wallMillis();
    const std::vector<store::PendingTimerMessage> parked = timer->pending(0, now + minutes * kBucketMs, kMaxParkedRead);
    const int32_t hash = topic.empty() ? 0 : common::javaStringHashCode(topic);
    JsonArray buckets(static_cast<size_t>(minutes), JsonValue(int64_t{0}));
    JsonArray next;
    int64_t total = 0;
    for (const store::PendingTimerMessage &message : parked) {
        if (!topic.empty() && message.realTopicHash != hash)
            continue;
        const auto index = static_cast<size_t>(std::clamp<int64_t>((message.slotMs - now) / kBucketMs, 0, minutes - 1));
        buckets[index] = JsonValue(buckets[index].asInteger() + 1);
        ++total;
        if (static_cast<int64_t>(next.size()) >= nextCount)
            continue;
        const auto stored = broker_.store().lookMessageByOffset(message.commitLogOffset);
        if (!stored)
            continue;
        const std::string realTopic = property(*stored, common::property::kRealTopic);
        if (!topic.empty() && realTopic != topic)
            continue; // another topic with the same hash
        JsonObject entry;
        entry.set("deliverMs", message.slotMs);
        entry.set("topic", realTopic);
        entry.set("msgId", property(*stored, common::property::kUniqClientMessageId));
        entry.set("keys", property(*stored, common::property::kKeys));
        entry.set("tags", property(*stored, common::property::kTags));
        entry.set("roll", message.roll);
        next.push_back(JsonValue(std::move(entry)));
    }
    JsonObject body;
    body.set("bucketMs", kBucketMs);
    body.set("buckets", std::move(buckets));
    body.set("next", std::move(next));
    body.set("now", now);
    body.set("precisionMs", int64_t{timer->precisionMs()});
    body.set("readTimeMs", timer->readTimeMs());
    body.set("total", total);
    body.set("truncated", parked.size() >= kMaxParkedRead);
    return successWithBody(request, common::toJsonCompact(JsonValue(std::move(body))));
}

RemotingCommand AdminProcessor::getPopStats(const RemotingCommand &request)
{
    HeaderReader reader(request.extFields);
    const std::string group = reader.requireGroup("consumerGroup");
    if (!reader.ok())
        return failure(request, ResponseCode::kSystemError, reader.error());
    const pop::PopGroupStats stats = broker_.pop().groupStats(group);
    JsonObject body;
    body.set("consumerGroup", group);
    body.set("fifoHeld", stats.fifoHeld);
    body.set("inFlight", stats.inFlight);
    body.set("parkedPops", static_cast<int64_t>(stats.parkedPops));
    body.set("popTopics", JsonArray(stats.popTopics.begin(), stats.popTopics.end()));
    body.set("retryBacklog", stats.retryBacklog);
    body.set("reviveBacklog", stats.reviveBacklog);
    body.set("truncated", stats.truncated);
    return successWithBody(request, common::toJsonCompact(JsonValue(std::move(body))));
}

} // namespace mqdesk::server
