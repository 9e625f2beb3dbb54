// Subscription groups (GET_ALL / UPDATE_AND_CREATE / DELETE_SUBSCRIPTIONGROUP, one group's
// config, a list of them at once), client connections (GET_CONSUMER_CONNECTION_LIST,
// GET_PRODUCER_CONNECTION_LIST, GET_ALL_PRODUCER_INFO), QUERY_TOPIC_CONSUME_BY_WHO and a group's
// topics and subscription (QUERY_TOPICS_BY_CONSUMER, QUERY_SUBSCRIPTION_BY_CONSUMER).

#include "broker/server/admin_processor.h"

#include "broker/common/json.h"
#include "broker/remoting/protocol/client_data.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/protocol/json_fields.h"
#include "broker/remoting/protocol/resource_names.h"
#include "broker/remoting/protocol/route_data.h"
#include "broker/remoting/protocol/topic_attributes.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/admin_bodies.h"
#include "broker/server/broker_controller.h"
#include "broker/server/broker_stats.h"
#include "broker/server/topic_manager.h"
#include "broker/server/consumer_manager.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/subscription_group_manager.h"

#include <spdlog/spdlog.h>

#include <set>

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

remoting::ClientConnection connectionOf(const ClientChannelInfo &client)
{
    remoting::ClientConnection connection;
    connection.clientId = client.clientId;
    connection.clientAddr = client.channel.peerAddress();
    connection.language = std::string(remoting::languageCodeName(client.language));
    connection.version = client.version;
    return connection;
}

// A group as fastjson writes a SubscriptionGroupConfig bean: every 4.9.8 member, defaults
// included. (SubscriptionGroupConfig::toJson leaves out defaults the source file lacked, to
// re-write files byte for byte; members of newer RocketMQ versions it keeps stay.)
JsonValue groupJson(const store::SubscriptionGroupConfig &group)
{
    JsonValue written = group.toJson();
    JsonObject object = written.isObject() ? written.asObject() : JsonObject();
    const auto ensure = [&object](const char *key, JsonValue value) {
        if (!object.contains(key))
            object.set(key, std::move(value));
    };
    ensure("brokerId", group.brokerId);
    ensure("consumeBroadcastEnable", group.consumeBroadcastEnable);
    ensure("consumeEnable", group.consumeEnable);
    ensure("consumeFromMinEnable", group.consumeFromMinEnable);
    ensure("groupName", group.groupName);
    ensure("notifyConsumerIdsChangedEnable", group.notifyConsumerIdsChangedEnable);
    ensure("retryMaxTimes", group.retryMaxTimes);
    ensure("retryQueueNums", group.retryQueueNums);
    ensure("whichBrokerWhenConsumeSlowly", group.whichBrokerWhenConsumeSlowly);
    object.sortByKey();
    return object;
}

} // namespace

RemotingCommand AdminProcessor::getAllSubscriptionGroups(const RemotingCommand &request)
{
    store::SubscriptionGroupManager &groups = broker_.subscriptionGroups();
    const store::DataVersion version = groups.dataVersion();
    JsonObject table;
    for (const store::SubscriptionGroupConfig &group : groups.subscriptionGroupConfigs())
        table.set(group.groupName, groupJson(group));
    JsonObject body;
    body.set("dataVersion", toWireVersion(version).toJsonValue());
    body.set("subscriptionGroupTable", std::move(table));
    return successWithBody(request, common::toJsonCompact(JsonValue(std::move(body))));
}

namespace {

// SubscriptionGroupManager#updateSubscriptionGroupConfig (5.x): the body's attributes are
// modifications ("+key" sets, "-key" removes) altered over the group's current attributes as a
// topic's are, with SubscriptionGroupAttributes' rules. An empty map keeps them all. Empty
// `error` when the request is good; `config.attributes` is then the group's new set.
std::string applyGroupAttributes(const store::SubscriptionGroupManager &groups, store::SubscriptionGroupConfig &config)
{
    const auto existing = groups.findSubscriptionGroupConfig(config.groupName);
    remoting::AttributeList current;
    if (existing) {
        for (const auto &[key, value] : existing->attributes)
            current.emplace_back(key, value);
    }
    remoting::AttributeModifications requested;
    for (const auto &[key, value] : config.attributes)
        requested.emplace_back(key, value);
    remoting::AttributeAlteration alteration;
    std::string error;
    if (!remoting::alterGroupAttributes(!existing, current, requested, alteration, error))
        return error;
    store::StringMap attributes = existing ? existing->attributes : store::SubscriptionGroupConfig{}.attributes;
    for (const auto &[key, value] : alteration.put)
        attributes.insertOrAssign(key, value);
    for (const std::string &key : alteration.remove)
        attributes.erase(key);
    config.attributes = std::move(attributes);
    return {};
}

} // namespace

RemotingCommand AdminProcessor::updateAndCreateSubscriptionGroup(const RemotingCommand &request)
{
    JsonValue root;
    std::string error;
    store::SubscriptionGroupConfig config;
    if (!remoting::parseJsonObject(admin::bodyText(request), root, error)
        || !store::SubscriptionGroupConfig::fromJson(root, "", config, error))
        return failure(request, ResponseCode::kSystemError, "bad SubscriptionGroupConfig body: " + error);
    if (std::string invalid = remoting::groupNameError(config.groupName, "groupName"); !invalid.empty())
        return failure(request, ResponseCode::kSystemError, "bad SubscriptionGroupConfig body: " + invalid);
    if (config.retryQueueNums < 0 || config.retryQueueNums > kMaxQueueNums)
        return failure(request, ResponseCode::kSystemError,
                       "bad SubscriptionGroupConfig body: retryQueueNums " + std::to_string(config.retryQueueNums)
                           + " is outside 0.." + std::to_string(kMaxQueueNums));
    if (std::string refused = applyGroupAttributes(broker_.subscriptionGroups(), config); !refused.empty())
        return failure(request, ResponseCode::kSystemError, refused);
    broker_.subscriptionGroups().updateSubscriptionGroupConfig(config);
    if (!broker_.subscriptionGroups().persist(error))
        return failure(request, ResponseCode::kSystemError, "cannot save subscription group " + config.groupName + ": " + error);
    spdlog::info("admin: subscription group {} created or updated", config.groupName);
    return RemotingCommand::createResponse(request, ResponseCode::kSuccess);
}

// UPDATE_AND_CREATE_SUBSCRIPTIONGROUP_LIST (225, mqadmin 5.x updateSubGroupList): the body's
// groups checked first, then applied together and saved once.
RemotingCommand AdminProcessor::updateAndCreateSubscriptionGroupList(const RemotingCommand &request)
{
    JsonValue root;
    std::string error;
    if (!remoting::parseJsonObject(admin::bodyText(request), root, error))
        return failure(request, ResponseCode::kSystemError, "bad SubscriptionGroupList body: " + error);
    const JsonValue *list = root.find("groupConfigList");
    if (!list || !list->isArray())
        return failure(request, ResponseCode::kSystemError, "bad SubscriptionGroupList body: no groupConfigList");
    std::vector<store::SubscriptionGroupConfig> configs;
    for (size_t i = 0; i < list->asArray().size(); ++i) {
        store::SubscriptionGroupConfig config;
        const std::string path = "groupConfigList[" + std::to_string(i) + "]";
        if (!store::SubscriptionGroupConfig::fromJson(list->asArray()[i], path, config, error))
            return failure(request, ResponseCode::kSystemError, "bad SubscriptionGroupList body: " + error);
        if (std::string invalid = remoting::groupNameError(config.groupName, path + ".groupName"); !invalid.empty())
            return failure(request, ResponseCode::kSystemError, "bad SubscriptionGroupList body: " + invalid);
        if (config.retryQueueNums < 0 || config.retryQueueNums > kMaxQueueNums)
            return failure(request, ResponseCode::kSystemError,
                           "bad SubscriptionGroupList body: " + path + ".retryQueueNums is outside 0.."
                               + std::to_string(kMaxQueueNums));
        if (std::string refused = applyGroupAttributes(broker_.subscriptionGroups(), config); !refused.empty())
            return failure(request, ResponseCode::kSystemError, path + ".attributes: " + refused);
        configs.push_back(std::move(config));
    }
    for (const store::SubscriptionGroupConfig &config : configs)
        broker_.subscriptionGroups().updateSubscriptionGroupConfig(config);
    if (!broker_.subscriptionGroups().persist(error))
        return failure(request, ResponseCode::kSystemError, "cannot save subscription groups: " + error);
    spdlog::info("admin: {} subscription group(s) created or updated", configs.size());
    return RemotingCommand::createResponse(request, ResponseCode::kSuccess);
}

// GET_SUBSCRIPTIONGROUP_CONFIG (352; mqadmin 5.x and the Dashboard read one group's config).
RemotingCommand AdminProcessor::getSubscriptionGroup(const RemotingCommand &request)
{
    HeaderReader reader(request.extFields);
    const std::string group = reader.requireGroup("group");
    if (!reader.ok())
        return failure(request, ResponseCode::kSystemError, reader.error());
    const auto config = broker_.subscriptionGroups().findSubscriptionGroupConfig(group);
    if (!config)
        return failure(request, ResponseCode::kSubscriptionGroupNotExist, "No group in this broker");
    return successWithBody(request, common::toJsonCompact(groupJson(*config)));
}

// QUERY_TOPICS_BY_CONSUMER (343): the topics the group has offsets for, and this broker.
RemotingCommand AdminProcessor::queryTopicsByConsumer(const RemotingCommand &request)
{
    HeaderReader reader(request.extFields);
    const std::string group = reader.requireGroup("group");
    if (!reader.ok())
        return failure(request, ResponseCode::kSystemError, reader.error());
    JsonArray topics;
    for (const std::string &topic : broker_.offsets().whichTopicByConsumer(group))
        topics.emplace_back(topic);
    JsonObject body;
    body.set("brokerAddr", broker_.brokerAddress());
    body.set("topicList", std::move(topics));
    return successWithBody(request, common::toJsonCompact(JsonValue(std::move(body))));
}

// QUERY_SUBSCRIPTION_BY_CONSUMER (345): the online group's subscription to a topic (null when none).
RemotingCommand AdminProcessor::querySubscriptionByConsumer(const RemotingCommand &request)
{
    HeaderReader reader(request.extFields);
    const std::string group = reader.requireGroup("group");
    const std::string topic = reader.requireTopic("topic");
    if (!reader.ok())
        return failure(request, ResponseCode::kSystemError, reader.error());
    JsonObject body;
    body.set("group", group);
    const auto subscription = broker_.consumers().findSubscription(group, topic);
    body.set("subscriptionData", subscription ? subscription->toJson() : JsonValue(nullptr));
    body.set("topic", topic);
    return successWithBody(request, common::toJsonCompact(JsonValue(std::move(body))));
}

// GET_ALL_PRODUCER_INFO (328, mqadmin producer): every producer group's live clients.
RemotingCommand AdminProcessor::getAllProducerInfo(const RemotingCommand &request)
{
    JsonObject data;
    for (const std::string &group : broker_.producers().groupNames()) {
        JsonArray producers;
        for (const ClientChannelInfo &client : broker_.producers().channels(group)) {
            JsonObject producer;
            producer.set("clientId", client.clientId);
            producer.set("remoteIP", client.channel.peerAddress());
            producer.set("language", std::string(remoting::languageCodeName(client.language)));
            producer.set("version", client.version);
            producer.set("lastUpdateTimestamp", client.lastUpdateMillis);
            producers.push_back(std::move(producer));
        }
        if (!producers.empty())
            data.set(group, std::move(producers));
    }
    JsonObject body;
    body.set("data", std::move(data));
    return successWithBody(request, common::toJsonCompact(JsonValue(std::move(body))));
}

RemotingCommand AdminProcessor::deleteSubscriptionGroup(const RemotingCommand &request)
{
    HeaderReader reader(request.extFields);
    const std::string group = reader.requireGroup("groupName");
    const bool removeOffset = reader.optBool("removeOffset", false);
    if (!reader.ok())
        return failure(request, ResponseCode::kSystemError, reader.error());

    std::string error;
    if (broker_.subscriptionGroups().deleteSubscriptionGroupConfig(group) && !broker_.subscriptionGroups().persist(error))
        return failure(request, ResponseCode::kSystemError, "cannot save subscription groups: " + error);
    if (removeOffset) {
        broker_.offsets().removeOffset(group);
        if (!broker_.offsets().persist(error))
            return failure(request, ResponseCode::kSystemError, "cannot save consumer offsets: " + error);
    }
    broker_.stats().items().removeGroup(group);
    spdlog::info("admin: subscription group {} deleted{}", group, removeOffset ? " with its offsets" : "");
    return RemotingCommand::createResponse(request, ResponseCode::kSuccess);
}

RemotingCommand AdminProcessor::getConsumerConnections(const RemotingCommand &request)
{
    HeaderReader reader(request.extFields);
    const std::string group = reader.requireGroup("consumerGroup");
    if (!reader.ok())
        return failure(request, ResponseCode::kSystemError, reader.error());
    const auto info = broker_.consumers().group(group);
    if (!info || info->channels.empty())
        return failure(request, ResponseCode::kConsumerNotOnline, "the consumer group[" + group + "] not online");

    remoting::ConsumerConnection body;
    for (const ClientChannelInfo &client : info->channels)
        body.connectionSet.push_back(connectionOf(client));
    body.subscriptionTable = info->subscriptions;
    body.consumeType = info->consumeType;
    body.messageModel = info->messageModel;
    body.consumeFromWhere = info->consumeFromWhere;
    return successWithBody(request, body.toJson());
}

RemotingCommand AdminProcessor::getProducerConnections(const RemotingCommand &request)
{
    HeaderReader reader(request.extFields);
    const std::string group = reader.requireGroup("producerGroup");
    if (!reader.ok())
        return failure(request, ResponseCode::kSystemError, reader.error());
    const std::vector<ClientChannelInfo> channels = broker_.producers().channels(group);
    if (channels.empty())
        return failure(request, ResponseCode::kSystemError, "the producer group[" + group + "] not exist");
    std::vector<remoting::ClientConnection> connections;
    for (const ClientChannelInfo &client : channels)
        connections.push_back(connectionOf(client));
    return successWithBody(request, remoting::encodeProducerConnection(connections));
}

RemotingCommand AdminProcessor::queryTopicConsumeByWho(const RemotingCommand &request)
{
    HeaderReader reader(request.extFields);
    const std::string topic = reader.requireTopic("topic");
    if (!reader.ok())
        return failure(request, ResponseCode::kSystemError, reader.error());
    std::set<std::string> groups = broker_.offsets().whichGroupByTopic(topic);
    for (std::string &group : broker_.consumers().groupsSubscribing(topic))
        groups.insert(std::move(group));
    JsonArray list;
    for (const std::string &group : groups)
        list.emplace_back(group);
    JsonObject body;
    body.set("groupList", std::move(list));
    return successWithBody(request, common::toJsonCompact(JsonValue(std::move(body))));
}

} // namespace mqdesk::server
