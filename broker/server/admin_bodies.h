#pragma once

// Helpers shared by the admin processor's files (admin_*.cpp): building responses, and the
// response bodies common/json.h cannot write — Java maps keyed by a MessageQueue object
// (TopicStatsTable, ConsumeStats, ResetOffsetBody). fastjson writes such a key as an inline
// JSON object, members sorted (brokerName, queueId, topic):
//   {"offsetTable":{{"brokerName":"b","queueId":0,"topic":"T"}:{"maxOffset":2,…}}}
// That is not JSON, but it is what the Java admin tools and the dashboard read back (remoting
// spec §8), so it is written exactly so; every other body here is strict JSON.

#include "broker/remoting/remoting_command.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mqdesk::server::admin {

// Java's MessageQueue.
struct MessageQueueKey
{
    std::string topic;
    std::string brokerName;
    int32_t queueId = 0;
};

// One entry of GET_TOPIC_STATS_INFO's TopicStatsTable (Java TopicOffset).
struct TopicOffsetEntry
{
    MessageQueueKey queue;
    int64_t minOffset = 0;
    int64_t maxOffset = 0;
    int64_t lastUpdateTimestamp = 0;
};

// One entry of GET_CONSUME_STATS's offsetTable (Java OffsetWrapper, 4.9.8 members).
struct ConsumeOffsetEntry
{
    MessageQueueKey queue;
    int64_t brokerOffset = 0;
    int64_t consumerOffset = 0;
    int64_t lastTimestamp = 0;
    int64_t pullOffset = 0; // 5.x OffsetWrapper; 4.x readers ignore it
};

// `{"brokerName":"b","queueId":0,"topic":"T"}`, strings escaped as JSON strings.
std::string messageQueueKeyText(const MessageQueueKey &queue);
// `{"offsetTable":{<key>:{"lastUpdateTimestamp":…,"maxOffset":…,"minOffset":…},…}}`
std::string encodeTopicStatsTable(const std::vector<TopicOffsetEntry> &entries);
// `{"consumeTps":0.0,"offsetTable":{<key>:{"brokerOffset":…,"consumerOffset":…,"lastTimestamp":…},…}}`
std::string encodeConsumeStats(double consumeTps, const std::vector<ConsumeOffsetEntry> &entries);
// `{"offsetTable":{<key>:42,…}}`
std::string encodeResetOffsetBody(const std::vector<std::pair<MessageQueueKey, int64_t>> &offsets);

inline std::string_view bodyText(const remoting::RemotingCommand &command)
{
    return {reinterpret_cast<const char *>(command.body.data()), command.body.size()};
}

inline void setBody(remoting::RemotingCommand &command, std::string_view text)
{
    command.body.assign(text.begin(), text.end());
}

// A response carrying `code` and `remark` (no body).
inline remoting::RemotingCommand failure(const remoting::RemotingCommand &request, int32_t code, std::string remark)
{
    return remoting::RemotingCommand::createResponse(request, code, std::move(remark));
}

// A SUCCESS response with `body`.
remoting::RemotingCommand successWithBody(const remoting::RemotingCommand &request, std::string_view body);

} // namespace mqdesk::server::admin
