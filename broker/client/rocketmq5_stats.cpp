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

void LiteGroupLag::merge(const LiteGroupLag &other)
{
    totalLagCount += other.totalLagCount;
    if (other.earliestUnconsumedTimestamp >= 0
        && (earliestUnconsumedTimestamp < 0 || other.earliestUnconsumedTimestamp < earliestUnconsumedTimestamp))
        earliestUnconsumedTimestamp = other.earliestUnconsumedTimestamp;
    topByLag.insert(topByLag.end(), other.topByLag.begin(), other.topByLag.end());
    std::stable_sort(topByLag.begin(), topByLag.end(),
                     [](const LiteLag &a, const LiteLag &b) { return a.lagCount > b.lagCount; });
}

void LiteTopicOverview::merge(const LiteTopicOverview &other)
{
    liteTopicCount += other.liteTopicCount;
    ttlMinutes = std::max(ttlMinutes, other.ttlMinutes);
    for (const LiteGroupLag &group : other.groups) {
        const auto same = std::find_if(groups.begin(), groups.end(),
                                       [&](const LiteGroupLag &mine) { return mine.group == group.group; });
        if (same == groups.end())
            groups.push_back(group);
        else
            same->merge(group);
    }
}

void LiteClientTopics::merge(const LiteClientTopics &other)
{
    liteTopicCount += other.liteTopicCount;
    std::set<std::string> all(liteTopics.begin(), liteTopics.end());
    all.insert(other.liteTopics.begin(), other.liteTopics.end());
    liteTopics.assign(all.begin(), all.end());
    lastAccessTime = std::max(lastAccessTime, other.lastAccessTime);
}

void LiteGroupView::merge(const LiteGroupView &other)
{
    lag.merge(other.lag);
    for (const LiteClientTopics &client : other.clients) {
        const auto same = std::find_if(clients.begin(), clients.end(),
                                       [&](const LiteClientTopics &mine) { return mine.clientId == client.clientId; });
        if (same == clients.end())
            clients.push_back(client);
        else
            same->merge(client);
    }
}

bool parseLiteParentInfo(std::string_view body, LiteTopicOverview &out, std::vector<std::string> &groups,
                         std::string &error)
{
    common::JsonValue root;
    if (!remoting::parseJsonObject(body, root, error))
        return false;
    remoting::JsonFieldReader reader(root, "", error);
    reader.readLong("liteTopicCount", out.liteTopicCount);
    reader.readLong("ttl", out.ttlMinutes);
    if (const common::JsonValue *names = remoting::bodyjson::member(root, "groups"))
        remoting::bodyjson::readStringArray(*names, "groups", groups, error);
    return reader.ok() && error.empty();
}

bool parseLiteGroupInfo(std::string_view body, LiteGroupLag &out, std::string &error)
{
    common::JsonValue root;
    if (!remoting::parseJsonObject(body, root, error))
        return false;
    remoting::JsonFieldReader reader(root, "", error);
    reader.readString("group", out.group);
    reader.readLong("totalLagCount", out.totalLagCount);
    reader.readLong("earliestUnconsumedTimestamp", out.earliestUnconsumedTimestamp);
    if (const common::JsonArray *lags = reader.array("lagCountTopK")) {
        for (size_t i = 0; i < lags->size() && reader.ok(); ++i) {
            remoting::JsonFieldReader entry((*lags)[i], "lagCountTopK[" + std::to_string(i) + "]", error);
            LiteLag lag;
            entry.readString("liteTopic", lag.liteTopic);
            entry.readLong("lagCount", lag.lagCount);
            entry.readLong("earliestUnconsumedTimestamp", lag.earliestUnconsumedTimestamp);
            out.topByLag.push_back(std::move(lag));
        }
    }
    return reader.ok();
}

bool parseLiteClientInfo(std::string_view body, const std::string &parent, LiteClientTopics &out, std::string &error)
{
    common::JsonValue root;
    if (!remoting::parseJsonObject(body, root, error))
        return false;
    remoting::JsonFieldReader reader(root, "", error);
    reader.readString("clientId", out.clientId);
    reader.readLong("liteTopicCount", out.liteTopicCount);
    reader.readLong("lastAccessTime", out.lastAccessTime);
    std::vector<std::string> names;
    if (const common::JsonValue *set = remoting::bodyjson::member(root, "liteTopicSet"); set && !set->isNull())
        remoting::bodyjson::readStringArray(*set, "liteTopicSet", names, error);
    const std::string lmqPrefix = "%LMQ%$" + parent + "$";
    for (std::string &name : names) {
        if (name.starts_with(lmqPrefix))
            name.erase(0, lmqPrefix.size());
    }
    std::sort(names.begin(), names.end());
    out.liteTopics = std::move(names);
    out.liteTopicCount = std::max<int64_t>(out.liteTopicCount, 0); // -1: the broker does not know the client
    return reader.ok() && error.empty();
}

Result<LiteGroupLag> getLiteGroupLag(MQClientAPI &api, const std::string &addr, const std::string &group, int topK)
{
    remoting::ExtFields fields;
    remoting::setField(fields, "group", group);
    remoting::setField(fields, "topK", int32_t{topK});
    std::string what;
    Result<RemotingCommand> answer =
        call(api, addr, RemotingCommand::createRequest(remoting::RequestCode::kGetLiteGroupInfo, std::move(fields)), what);
    if (!answer.ok)
        return answer.status();
    LiteGroupLag lag;
    std::string error;
    if (!parseLiteGroupInfo(bodyOf(answer.value), lag, error))
        return Status::failure(clientCode::kBadResponse, what + ": bad body: " + error);
    lag.group = group;
    return lag;
}

Result<LiteGroupView> getLiteGroupView(MQClientAPI &api, const std::string &addr, const std::string &parent,
                                       const std::string &group, const std::vector<std::string> &clientIds,
                                       int topK)
{
    LiteGroupView view;
    view.parent = parent;
    Result<LiteGroupLag> lag = getLiteGroupLag(api, addr, group, topK);
    if (!lag.ok)
        return lag.status();
    view.lag = std::move(lag.value);
    for (const std::string &clientId : clientIds) {
        remoting::ExtFields fields;
        remoting::setField(fields, "parentTopic", parent);
        remoting::setField(fields, "group", group);
        remoting::setField(fields, "clientId", clientId);
        remoting::setField(fields, "maxCount", int32_t{1000});
        std::string what;
        Result<RemotingCommand> answer = call(
            api, addr, RemotingCommand::createRequest(remoting::RequestCode::kGetLiteClientInfo, std::move(fields)), what);
        if (!answer.ok)
            return answer.status();
        LiteClientTopics client;
        std::string error;
        if (!parseLiteClientInfo(bodyOf(answer.value), parent, client, error))
            return Status::failure(clientCode::kBadResponse, what + ": bad body: " + error);
        client.clientId = clientId;
        view.clients.push_back(std::move(client));
    }
    return view;
}

Result<LiteTopicOverview> getLiteTopicOverview(MQClientAPI &api, const std::string &addr, const std::string &parent,
                                               int topK)
{
    remoting::ExtFields fields;
    remoting::setField(fields, "topic", parent);
    std::string what;
    Result<RemotingCommand> response =
        call(api, addr, RemotingCommand::createRequest(remoting::RequestCode::kGetParentTopicInfo, std::move(fields)), what);
    if (!response.ok)
        return response.status();
    LiteTopicOverview overview;
    std::vector<std::string> groups;
    std::string error;
    if (!parseLiteParentInfo(bodyOf(response.value), overview, groups, error))
        return Status::failure(clientCode::kBadResponse, what + ": bad body: " + error);
    for (const std::string &group : groups) {
        Result<LiteGroupLag> lag = getLiteGroupLag(api, addr, group, topK);
        if (!lag.ok)
            return lag.status();
        overview.groups.push_back(std::move(lag.value));
    }
    return Result<LiteTopicOverview>(std::move(overview));
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

Result<LiteTopicOverview> AdminClient::liteTopicOverview(const std::string &parent, int topK)
{
    Result<std::vector<std::string>> masters = topicMasters(parent);
    if (!masters.ok)
        return masters.status();
    LiteTopicOverview merged;
    for (const std::string &addr : masters.value) {
        Result<LiteTopicOverview> one = getLiteTopicOverview(*api_, addr, parent, topK);
        if (!one.ok)
            return one.status();
        merged.merge(one.value);
    }
    return merged;
}

Result<LiteGroupView> AdminClient::liteGroupView(const std::string &parent, const std::string &group,
                                                 const std::vector<std::string> &clientIds, int topK)
{
    Result<std::vector<std::string>> masters = topicMasters(parent);
    if (!masters.ok)
        return masters.status();
    LiteGroupView merged;
    merged.parent = parent;
    merged.lag.group = group;
    for (const std::string &addr : masters.value) {
        Result<LiteGroupView> one = getLiteGroupView(*api_, addr, parent, group, clientIds, topK);
        if (!one.ok)
            return one.status();
        merged.merge(one.value);
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
