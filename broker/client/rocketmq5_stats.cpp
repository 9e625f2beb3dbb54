#include "broker/client/rocketmq5_stats.h"

#include "broker/client/admin_client.h"
#include "broker/client/mq_client_api.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/protocol/json_fields.h"
#include "broker/remoting/remoting_codes.h"

#include <algorithm>
#include <set>

namespace mqdesk::client {

using remoting::RemotingCommand;

namespace {

Result<RemotingCommand> call(MQClientAPI &api, const std::string &addr, RemotingCommand request, std::string &what)
{
    what = MQClientAPI::describeRequest(addr, request);
    Result<RemotingCommand> response = api.invoke(addr, std::move(request), api.config().timeoutMillis);
    if (response.ok && response.value.code != remoting::ResponseCode::kSuccess)
        return MQClientAPI::responseFailure(what, response.value);
    return response;
}

std::string_view bodyOf(const RemotingCommand &command)
{
    return {reinterpret_cast<const char *>(command.body.data()), command.body.size()};
}

} // namespace

void TimerTimeline::merge(const TimerTimeline &other, size_t maxNext)
{
    if (buckets.size() < other.buckets.size())
        buckets.resize(other.buckets.size(), 0);
    for (size_t i = 0; i < other.buckets.size(); ++i)
        buckets[i] += other.buckets[i];
    total += other.total;
    truncated = truncated || other.truncated;
    precisionMs = std::max(precisionMs, other.precisionMs);
    now = std::max(now, other.now);
    next.insert(next.end(), other.next.begin(), other.next.end());
    std::stable_sort(next.begin(), next.end(),
                     [](const ScheduledMessage &a, const ScheduledMessage &b) { return a.deliverMs < b.deliverMs; });
    if (next.size() > maxNext)
        next.resize(maxNext);
}

void PopStats::merge(const PopStats &other)
{
    inFlight += other.inFlight;
    reviveBacklog += other.reviveBacklog;
    retryBacklog += other.retryBacklog;
    fifoHeld += other.fifoHeld;
    parkedPops += other.parkedPops;
    std::set<std::string> topics(popTopics.begin(), popTopics.end());
    topics.insert(other.popTopics.begin(), other.popTopics.end());
    popTopics.assign(topics.begin(), topics.end());
    truncated = truncated || other.truncated;
}

bool parseTimerTimeline(std::string_view body, TimerTimeline &out, std::string &error)
{
    error.clear();
    common::JsonValue root;
    if (!remoting::parseJsonObject(body, root, error))
        return false;
    remoting::JsonFieldReader reader(root, "", error);
    reader.readLong("now", out.now);
    reader.readLong("precisionMs", out.precisionMs);
    reader.readLong("readTimeMs", out.readTimeMs);
    reader.readLong("bucketMs", out.bucketMs);
    reader.readLong("total", out.total);
    reader.readBool("truncated", out.truncated);
    if (const common::JsonArray *buckets = reader.array("buckets")) {
        for (const common::JsonValue &count : *buckets)
            out.buckets.push_back(count.asInteger());
    }
    if (const common::JsonArray *next = reader.array("next")) {
        for (size_t i = 0; i < next->size() && reader.ok(); ++i) {
            remoting::JsonFieldReader entry((*next)[i], "next[" + std::to_string(i) + "]", error);
            ScheduledMessage message;
            entry.readLong("deliverMs", message.deliverMs);
            entry.readString("topic", message.topic);
            entry.readString("msgId", message.msgId);
            entry.readString("keys", message.keys);
            entry.readString("tags", message.tags);
            out.next.push_back(std::move(message));
        }
    }
    return reader.ok();
}

bool parsePopStats(std::string_view body, PopStats &out, std::string &error)
{
    error.clear();
    common::JsonValue root;
    if (!remoting::parseJsonObject(body, root, error))
        return false;
    remoting::JsonFieldReader reader(root, "", error);
    reader.readLong("inFlight", out.inFlight);
    reader.readLong("reviveBacklog", out.reviveBacklog);
    reader.readLong("retryBacklog", out.retryBacklog);
    reader.readLong("fifoHeld", out.fifoHeld);
    reader.readLong("parkedPops", out.parkedPops);
    reader.readBool("truncated", out.truncated);
    if (const common::JsonArray *topics = reader.array("popTopics")) {
        for (const common::JsonValue &topic : *topics) {
            if (topic.isString())
                out.popTopics.push_back(topic.asString());
        }
    }
    return reader.ok();
}

Result<TimerTimeline> getTimerTimeline(MQClientAPI &api, const std::string &addr, const std::string &topic,
                                       int minutes, int next)
{
    remoting::ExtFields fields;
    remoting::setField(fields, "topic", topic);
    remoting::setField(fields, "minutes", int32_t{minutes});
    remoting::setField(fields, "next", int32_t{next});
    std::string what;
    Result<RemotingCommand> response =
        call(api, addr, RemotingCommand::createRequest(remoting::RequestCode::kGetTimerTimeline, std::move(fields)), what);
    if (!response.ok)
        return response.status();
    TimerTimeline timeline;
    std::string error;
    if (!parseTimerTimeline(bodyOf(response.value), timeline, error))
        return Status::failure(clientCode::kBadResponse, what + ": bad body: " + error);
    return Result<TimerTimeline>(std::move(timeline));
}

Result<PopStats> getPopStats(MQClientAPI &api, const std::string &addr, const std::string &group)
{
    remoting::ExtFields fields;
    remoting::setField(fields, "consumerGroup", group);
    std::string what;
    Result<RemotingCommand> response =
        call(api, addr, RemotingCommand::createRequest(remoting::RequestCode::kGetPopStats, std::move(fields)), what);
    if (!response.ok)
        return response.status();
    PopStats stats;
    std::string error;
    if (!parsePopStats(bodyOf(response.value), stats, error))
        return Status::failure(clientCode::kBadResponse, what + ": bad body: " + error);
    return Result<PopStats>(std::move(stats));
}

Result<TimerTimeline> AdminClient::timerTimeline(const std::string &topic, int minutes, int next)
{
    Result<std::vector<std::string>> masters = topicMasters(topic);
    if (!masters.ok)
        return masters.status();
    TimerTimeline merged;
    for (const std::string &addr : masters.value) {
        Result<TimerTimeline> one = getTimerTimeline(*api_, addr, topic, minutes, next);
        if (!one.ok)
            return one.status();
        merged.merge(one.value, static_cast<size_t>(std::max(next, 0)));
    }
    return merged;
}

Result<PopStats> AdminClient::popStats(const std::string &group)
{
    Result<std::vector<std::string>> masters = groupMasters(group, {});
    if (!masters.ok)
        return masters.status();
    PopStats merged;
    for (const std::string &addr : masters.value) {
        Result<PopStats> one = getPopStats(*api_, addr, group);
        if (!one.ok)
            return one.status();
        merged.merge(one.value);
    }
    return merged;
}

} // namespace mqdesk::client
