#pragma once

// Request builders and body readers for AdminTest: raw RemotingCommands as mqadmin and the
// dashboard send them, and readers for the bodies they get back (including fastjson's
// MessageQueue-keyed maps, which no JSON parser accepts as they are).

#include "broker_test_util.h"

#include "broker/common/json.h"
#include "broker/common/record_codec.h"
#include "broker/remoting/protocol/client_data.h"
#include "broker/remoting/protocol/route_data.h"

#include <map>
#include <regex>
#include <string>
#include <vector>

namespace mqdesk::test {

using remoting::ExtFields;
using remoting::RemotingCommand;
using remoting::RequestCode;

inline RemotingCommand request(int32_t code, ExtFields fields = {})
{
    return RemotingCommand::createRequest(code, std::move(fields));
}

inline RemotingCommand sendV2(const std::string &topic, int32_t queueId, const std::string &body,
                              const std::string &properties = "TAGS\001TagA\002")
{
    RemotingCommand command = request(RequestCode::kSendMessageV2,
                                      {{"a", "PG"}, {"b", topic}, {"c", "TBW102"}, {"d", "4"},
                                       {"e", std::to_string(queueId)}, {"f", "0"}, {"g", "1700000000000"},
                                       {"h", "0"}, {"i", properties}, {"j", "0"}, {"k", "false"}});
    command.body.assign(body.begin(), body.end());
    return command;
}

inline RemotingCommand commitOffset(const std::string &group, const std::string &topic, int32_t queueId, int64_t offset)
{
    return request(RequestCode::kUpdateConsumerOffset, {{"consumerGroup", group},
                                                        {"topic", topic},
                                                        {"queueId", std::to_string(queueId)},
                                                        {"commitOffset", std::to_string(offset)}});
}

// A pull without suspend or commit, with its own subscription ("*").
inline RemotingCommand pullRequest(const std::string &group, const std::string &topic, int32_t queueId, int64_t offset)
{
    return request(RequestCode::kPullMessage,
                   {{"consumerGroup", group}, {"topic", topic}, {"queueId", std::to_string(queueId)},
                    {"queueOffset", std::to_string(offset)}, {"maxMsgNums", "32"}, {"sysFlag", "4"},
                    {"commitOffset", "-1"}, {"suspendTimeoutMillis", "0"}, {"subscription", "*"},
                    {"subVersion", "1"}});
}

inline RemotingCommand heartbeat(const std::string &clientId, const std::string &group, const std::string &topic,
                                 const std::string &producerGroup = "PG")
{
    remoting::HeartbeatData data;
    data.clientId = clientId;
    remoting::ConsumerData consumer;
    consumer.groupName = group;
    consumer.subscriptionDataSet.push_back(remoting::SubscriptionData::build(topic, "*"));
    consumer.subscriptionDataSet.back().subVersion = 1;
    data.consumerDataSet.push_back(consumer);
    data.producerDataSet.push_back({producerGroup});
    RemotingCommand command = request(RequestCode::kHeartBeat);
    const std::string json = data.toJson();
    command.body.assign(json.begin(), json.end());
    return command;
}

inline RemotingCommand createTopic(const std::string &topic, int queues, ExtFields extra = {})
{
    RemotingCommand command = request(RequestCode::kUpdateAndCreateTopic,
                                      {{"topic", topic}, {"defaultTopic", "TBW102"},
                                       {"readQueueNums", std::to_string(queues)},
                                       {"writeQueueNums", std::to_string(queues)}, {"perm", "6"},
                                       {"topicFilterType", "SINGLE_TAG"}, {"topicSysFlag", "0"}, {"order", "false"}});
    for (const auto &[key, value] : extra)
        command.extFields.set(key, value);
    return command;
}

inline common::JsonValue parsed(const std::string &text)
{
    common::JsonParseResult result = common::parseJson(text);
    if (!result.ok())
        qWarning("unparsable body %s: %s", text.c_str(), result.error.c_str());
    return result.value;
}

// fastjson's MessageQueue-keyed map turned into JSON a parser accepts: each inline-object key
// becomes "topic/queueId". The regex only matches the exact member order fastjson writes.
inline common::JsonValue parsedQueueKeyed(const std::string &text)
{
    static const std::regex key(R"re(\{"brokerName":"broker-a","queueId":(\d+),"topic":"([^"]*)"\}:)re");
    return parsed(std::regex_replace(text, key, "\"$2/$1\":"));
}

// The value at a path of object members; null when any step is missing.
inline const common::JsonValue &at(const common::JsonValue &root, std::initializer_list<std::string_view> path)
{
    static const common::JsonValue missing;
    const common::JsonValue *value = &root;
    for (std::string_view key : path) {
        value = value->find(key);
        if (!value)
            return missing;
    }
    return *value;
}

inline void setBodyText(RemotingCommand &command, const std::string &text)
{
    command.body.assign(text.begin(), text.end());
}

inline std::map<std::string, std::string> runtimeInfoOf(TestBroker &broker)
{
    remoting::KVTable table;
    std::string error;
    remoting::KVTable::fromJson(test::bodyOf(broker.call(request(RequestCode::kGetBrokerRuntimeInfo))), table, error);
    return table.table;
}

} // namespace mqdesk::test
