#include "broker/server/admin_bodies.h"

#include "broker/common/json.h"
#include "broker/remoting/remoting_codes.h"

namespace mqdesk::server::admin {

using common::JsonObject;
using common::JsonValue;

namespace {

// `{"offsetTable":{k1:v1,k2:v2}}` with each value already written.
std::string offsetTableText(const std::vector<std::pair<std::string, std::string>> &members)
{
    std::string out = "{";
    for (size_t i = 0; i < members.size(); ++i) {
        if (i > 0)
            out += ',';
        out += members[i].first;
        out += ':';
        out += members[i].second;
    }
    out += '}';
    return out;
}

} // namespace

std::string messageQueueKeyText(const MessageQueueKey &queue)
{
    return "{\"brokerName\":" + common::toJsonCompact(JsonValue(queue.brokerName))
           + ",\"queueId\":" + std::to_string(queue.queueId)
           + ",\"topic\":" + common::toJsonCompact(JsonValue(queue.topic)) + "}";
}

std::string encodeTopicStatsTable(const std::vector<TopicOffsetEntry> &entries)
{
    std::vector<std::pair<std::string, std::string>> members;
    members.reserve(entries.size());
    for (const TopicOffsetEntry &entry : entries) {
        JsonObject value;
        value.set("lastUpdateTimestamp", entry.lastUpdateTimestamp);
        value.set("maxOffset", entry.maxOffset);
        value.set("minOffset", entry.minOffset);
        members.emplace_back(messageQueueKeyText(entry.queue), common::toJsonCompact(JsonValue(std::move(value))));
    }
    return "{\"offsetTable\":" + offsetTableText(members) + "}";
}

std::string encodeConsumeStats(double consumeTps, const std::vector<ConsumeOffsetEntry> &entries)
{
    std::vector<std::pair<std::string, std::string>> members;
    members.reserve(entries.size());
    for (const ConsumeOffsetEntry &entry : entries) {
        JsonObject value;
        value.set("brokerOffset", entry.brokerOffset);
        value.set("consumerOffset", entry.consumerOffset);
        value.set("lastTimestamp", entry.lastTimestamp);
        value.set("pullOffset", entry.pullOffset);
        members.emplace_back(messageQueueKeyText(entry.queue), common::toJsonCompact(JsonValue(std::move(value))));
    }
    // fastjson writes a double with Java's Double.toString: 0.0, 12.5.
    return "{\"consumeTps\":" + common::formatJavaDouble(consumeTps) + ",\"offsetTable\":" + offsetTableText(members)
           + "}";
}

std::string encodeResetOffsetBody(const std::vector<std::pair<MessageQueueKey, int64_t>> &offsets)
{
    std::vector<std::pair<std::string, std::string>> members;
    members.reserve(offsets.size());
    for (const auto &[queue, offset] : offsets)
        members.emplace_back(messageQueueKeyText(queue), std::to_string(offset));
    return "{\"offsetTable\":" + offsetTableText(members) + "}";
}

remoting::RemotingCommand successWithBody(const remoting::RemotingCommand &request, std::string_view body)
{
    remoting::RemotingCommand response =
        remoting::RemotingCommand::createResponse(request, remoting::ResponseCode::kSuccess);
    setBody(response, body);
    return response;
}

} // namespace mqdesk::server::admin
