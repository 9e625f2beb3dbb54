// The LiteTopic admin codes (RocketMQ 5.5's LiteManagerProcessor; docs/spec/lite-topic.md §6),
// what mqadmin's getBrokerLiteInfo, getParentTopicInfo, getLiteTopicInfo, getLiteClientInfo,
// getLiteGroupInfo and triggerLiteDispatch ask: bodies with Java's field names, errors with its
// codes and remarks.

#include "broker/server/pop/consumer_order_info_manager.h"
#include "broker/server/pop/lite_subscriptions.h"
#include "broker/server/pop/pop_long_polling.h"
#include "broker/server/pop/pop_service.h"

#include "broker/common/json.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/protocol/topic_attributes.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/broker_controller.h"
#include "broker/server/topic_manager.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/subscription_group_manager.h"
#include "broker/store/config/topic_config_manager.h"
#include "broker/store/consume_queue.h"
#include "broker/store/consume_queue_store.h"
#include "broker/store/message_store.h"

#include <algorithm>
#include <map>

namespace mqdesk::server::pop {

using common::JsonArray;
using common::JsonObject;
using common::JsonValue;
using remoting::HeaderReader;
using remoting::RemotingCommand;
using remoting::ResponseCode;

namespace {

constexpr int32_t kDefaultMaxClientTopics = 1000;
constexpr int32_t kMaxClientTopics = 10000;

struct LmqFigures
{
    int64_t minOffset = 0;
    int64_t maxOffset = 0;
    int64_t lastStoreTimestamp = 0;
};

RemotingCommand withFastjsonBody(const RemotingCommand &request, JsonObject body)
{
    RemotingCommand response = RemotingCommand::createResponse(request, ResponseCode::kSuccess);
    const std::string text = common::toFastjsonCompact(JsonValue(std::move(body)));
    response.body.assign(text.begin(), text.end());
    return response;
}

JsonValue stringsJson(const std::vector<std::string> &strings)
{
    JsonArray array;
    for (const std::string &text : strings)
        array.emplace_back(text);
    return JsonValue(std::move(array));
}

} // namespace

std::vector<std::string> PopService::liteGroupsOf(const std::string &parent)
{
    std::vector<std::string> groups;
    for (const store::SubscriptionGroupConfig &group : broker_.subscriptionGroups().subscriptionGroupConfigs()) {
        const std::string *bound = groupAttribute(group, remoting::kLiteBindTopicAttribute);
        if (bound && (parent.empty() || *bound == parent))
            groups.push_back(group.groupName);
    }
    std::sort(groups.begin(), groups.end());
    return groups;
}

std::map<std::string, int64_t> PopService::liteQueuesOf(const std::string &parent)
{
    // An LMQ exists once a message was dispatched into it (Java: max offset > 0).
    std::map<std::string, int64_t> queues;
    broker_.store().consumeQueues().forEach([&](store::ConsumeQueue &queue) {
        if (!isLiteQueue(queue.topic()) || (!parent.empty() && liteTopicOf(queue.topic(), parent).empty()))
            return;
        if (queue.maxOffset() > 0)
            queues[queue.topic()] = queue.maxOffset();
    });
    return queues;
}

void PopService::liteAdmin(const remoting::RequestContext &, RemotingCommand request, remoting::Responder respond)
{
    respond(answerLiteAdmin(request));
}

RemotingCommand PopService::answerLiteAdmin(const RemotingCommand &request)
{
    HeaderReader reader(request.extFields);
    const auto refuse = [&](int32_t code, std::string remark) {
        return RemotingCommand::createResponse(request, code, std::move(remark));
    };
    const auto liteParent = [&](const std::string &name) -> std::optional<RemotingCommand> {
        const auto topic = broker_.topics().find(name);
        if (!topic)
            return refuse(ResponseCode::kTopicNotExist, "Topic [" + name + "] not exist.");
        const std::string *type = topic->attributes.find(remoting::kMessageTypeAttribute);
        if (type == nullptr || *type != remoting::kLiteMessageType)
            return refuse(ResponseCode::kInvalidParameter, "Topic [" + name + "] type not match.");
        return std::nullopt;
    };
    const auto expiration = [&](const std::string &name) -> int64_t {
        const auto topic = broker_.topics().find(name);
        const std::string *ttl = topic ? topic->attributes.find(remoting::kLiteTopicExpirationAttribute) : nullptr;
        return (ttl ? remoting::parseJavaLong(*ttl) : std::nullopt).value_or(-1);
    };
    const auto liteGroup = [&](const std::string &name) -> std::optional<RemotingCommand> {
        const auto group = broker_.subscriptionGroups().findSubscriptionGroupConfig(name);
        if (!group)
            return refuse(ResponseCode::kSubscriptionGroupNotExist, "Group [" + name + "] not exist.");
        if (!groupAttribute(*group, remoting::kLiteBindTopicAttribute))
            return refuse(ResponseCode::kInvalidParameter, "Group [" + name + "] is not a LITE group.");
        return std::nullopt;
    };
    const auto boundTopicOf = [&](const std::string &name) {
        const auto group = broker_.subscriptionGroups().findSubscriptionGroupConfig(name);
        const std::string *bound = group ? groupAttribute(*group, remoting::kLiteBindTopicAttribute) : nullptr;
        return bound ? *bound : std::string();
    };

    switch (request.code) {
    case remoting::RequestCode::kGetBrokerLiteInfo: {
        JsonObject topicMeta;
        JsonObject groupMeta;
        for (const store::TopicConfig &topic : broker_.topicTable().topicConfigs()) {
            const std::string *type = topic.attributes.find(remoting::kMessageTypeAttribute);
            if (type == nullptr || *type != remoting::kLiteMessageType)
                continue;
            topicMeta.set(topic.topicName, JsonValue(expiration(topic.topicName)));
            groupMeta.set(topic.topicName, stringsJson(liteGroupsOf(topic.topicName)));
        }
        size_t queueCount = 0;
        broker_.store().consumeQueues().forEach([&](store::ConsumeQueue &) { ++queueCount; });
        JsonObject body;
        body.set("cqTableSize", JsonValue(static_cast<int64_t>(queueCount)));
        body.set("currentLmqNum", JsonValue(static_cast<int64_t>(liteQueuesOf({}).size())));
        body.set("eventMapSize", JsonValue(static_cast<int64_t>(liteSubscriptions_->clients().size())));
        body.set("groupMeta", JsonValue(std::move(groupMeta)));
        body.set("liteSubscriptionCount", JsonValue(static_cast<int64_t>(liteSubscriptions_->pairCount())));
        body.set("maxLmqNum", JsonValue(static_cast<int64_t>(broker_.store().config().maxLmqConsumeQueueNum)));
        body.set("offsetTableSize", JsonValue(static_cast<int64_t>(broker_.offsets().size())));
        body.set("orderInfoCount", JsonValue(liteOrderInfo_->heldQueueCount()));
        body.set("storeType", JsonValue(std::string("default")));
        body.set("topicMeta", JsonValue(std::move(topicMeta)));
        return withFastjsonBody(request, std::move(body));
    }
    case remoting::RequestCode::kGetParentTopicInfo: {
        const std::string topic = reader.requireString("topic");
        if (!reader.ok())
            return refuse(ResponseCode::kSystemError, reader.error());
        if (auto refusal = liteParent(topic))
            return *refusal;
        const std::vector<std::string> groups = liteGroupsOf(topic);
        JsonObject body;
        body.set("groups", groups.empty() ? JsonValue() : stringsJson(groups));
        body.set("liteTopicCount", JsonValue(static_cast<int64_t>(liteQueuesOf(topic).size())));
        body.set("lmqNum", JsonValue(static_cast<int64_t>(liteQueuesOf({}).size())));
        body.set("topic", JsonValue(topic));
        body.set("ttl", JsonValue(expiration(topic)));
        return withFastjsonBody(request, std::move(body));
    }
    case remoting::RequestCode::kGetLiteTopicInfo: {
        const std::string parent = reader.requireString("parentTopic");
        const std::string liteTopic = reader.requireString("liteTopic");
        if (!reader.ok())
            return refuse(ResponseCode::kSystemError, reader.error());
        if (auto refusal = liteParent(parent))
            return *refusal;
        const std::string lmq = liteQueueName(parent, liteTopic);
        JsonArray subscribers;
        for (const auto &[group, clientId] : liteSubscriptions_->subscribers(lmq)) {
            JsonObject subscriber;
            subscriber.set("clientId", JsonValue(clientId));
            subscriber.set("group", JsonValue(group));
            subscribers.emplace_back(std::move(subscriber));
        }
        JsonObject offsets;
        const auto queue = broker_.store().consumeQueues().find(lmq, 0);
        offsets.set("lastUpdateTimestamp", JsonValue(queue ? queue->lastStoreTimestamp() : int64_t{0}));
        offsets.set("maxOffset", JsonValue(queue ? queue->maxOffset() : int64_t{0}));
        offsets.set("minOffset", JsonValue(queue ? queue->minOffset() : int64_t{0}));
        JsonObject body;
        body.set("liteTopic", JsonValue(liteTopic));
        body.set("parentTopic", JsonValue(parent));
        body.set("shardingToBroker", JsonValue(true)); // one broker holds every lite topic
        body.set("subscriber", JsonValue(std::move(subscribers)));
        body.set("topicOffset", JsonValue(std::move(offsets)));
        return withFastjsonBody(request, std::move(body));
    }
    case remoting::RequestCode::kGetLiteClientInfo: {
        const std::string parent = reader.requireString("parentTopic");
        const std::string group = reader.requireString("group");
        const std::string clientId = reader.requireString("clientId");
        const int32_t maxCount = std::clamp(reader.optInt32("maxCount", kDefaultMaxClientTopics), 0, kMaxClientTopics);
        if (!reader.ok())
            return refuse(ResponseCode::kSystemError, reader.error());
        if (auto refusal = liteParent(parent))
            return *refusal;
        if (!broker_.subscriptionGroups().findSubscriptionGroupConfig(group))
            return refuse(ResponseCode::kSubscriptionGroupNotExist, "Group [" + group + "] not exist.");
        if (boundTopicOf(group) != parent)
            return refuse(ResponseCode::kInvalidParameter, "Subscription [" + group + "]-[" + parent + "] not match.");
        const auto client = liteSubscriptions_->client(clientId);
        JsonObject body;
        body.set("clientId", JsonValue(clientId));
        body.set("group", JsonValue(group));
        body.set("lastAccessTime", JsonValue(client ? client->touchedMs : int64_t{-1}));
        body.set("lastConsumeTime", JsonValue(int64_t{0}));
        body.set("liteTopicCount", JsonValue(client ? static_cast<int64_t>(client->lmqs.size()) : int64_t{-1}));
        if (client) {
            std::vector<std::string> shown(client->lmqs.begin(),
                                           client->lmqs.begin() + std::min<size_t>(client->lmqs.size(), maxCount));
            body.set("liteTopicSet", stringsJson(shown));
        } else {
            body.set("liteTopicSet", JsonValue());
        }
        body.set("parentTopic", JsonValue(parent));
        return withFastjsonBody(request, std::move(body));
    }
    case remoting::RequestCode::kGetLiteGroupInfo:
        return answerLiteGroupInfo(request);
    case remoting::RequestCode::kTriggerLiteDispatch: {
        const std::string group = reader.requireString("group");
        const std::string clientId = reader.optString("clientId");
        if (!reader.ok())
            return refuse(ResponseCode::kSystemError, reader.error());
        if (auto refusal = liteGroup(group))
            return *refusal;
        // A "full dispatch": the clients' parked pops look at all their lite topics again.
        for (const LiteClientInfo &client : liteSubscriptions_->clients(group)) {
            if (clientId.empty() || client.clientId == clientId)
                polling_->notifyMessageArriving(liteClientKey(client.clientId), 0);
        }
        return RemotingCommand::createResponse(request, ResponseCode::kSuccess);
    }
    default:
        return refuse(ResponseCode::kRequestCodeNotSupported, "not a lite admin request");
    }
}

// GET_LITE_GROUP_INFO (§6.5): the lag of one lite topic, or the group's top-K lite topics by lag
// count and by the age of their oldest unconsumed message.
RemotingCommand PopService::answerLiteGroupInfo(const RemotingCommand &request)
{
    HeaderReader reader(request.extFields);
    const std::string group = reader.requireString("group");
    const std::string liteTopic = reader.optString("liteTopic");
    const int32_t topK = std::clamp(reader.optInt32("topK", 20), 0, 1000);
    if (!reader.ok())
        return RemotingCommand::createResponse(request, ResponseCode::kSystemError, reader.error());
    const auto config = broker_.subscriptionGroups().findSubscriptionGroupConfig(group);
    if (!config)
        return RemotingCommand::createResponse(request, ResponseCode::kSubscriptionGroupNotExist,
                                               "Group [" + group + "] not exist.");
    const std::string *bound = groupAttribute(*config, remoting::kLiteBindTopicAttribute);
    if (!bound)
        return RemotingCommand::createResponse(request, ResponseCode::kInvalidParameter,
                                               "Group [" + group + "] is not a LITE group.");
    const std::string parent = *bound;
    store::MessageStore &store = broker_.store();
    // The store time of a lite topic's message at `offset`, -1 when there is none.
    const auto storeTimeAt = [&](const std::string &lmq, int64_t offset) -> int64_t {
        const auto queue = store.consumeQueues().find(lmq, 0);
        const auto entry = queue && offset >= 0 ? queue->entryAt(offset) : std::nullopt;
        const auto message = entry ? store.lookMessageByOffset(entry->commitLogOffset) : std::nullopt;
        return message ? message->storeTimestamp : -1;
    };
    struct Lag
    {
        std::string liteTopic;
        int64_t count = 0;
        int64_t earliest = -1;
    };
    const auto lagJson = [](const Lag &lag) {
        JsonObject json;
        json.set("earliestUnconsumedTimestamp", JsonValue(lag.earliest));
        json.set("lagCount", JsonValue(lag.count));
        json.set("liteTopic", JsonValue(lag.liteTopic));
        return JsonValue(std::move(json));
    };
    JsonObject body;
    int64_t totalLag = 0;
    int64_t earliest = -1;
    JsonObject wrapper;
    JsonArray byCount;
    JsonArray byTime;
    if (!liteTopic.empty()) {
        const std::string lmq = liteQueueName(parent, liteTopic);
        const int64_t max = store.maxOffsetInQueue(lmq, 0);
        const int64_t committed = broker_.offsets().queryOffset(group, lmq, 0);
        if (max <= 0) {
            totalLag = -1;
        } else if (committed >= 0) {
            totalLag = std::max<int64_t>(max - committed, 0);
            earliest = totalLag > 0 ? storeTimeAt(lmq, committed) : -1;
            wrapper.set("brokerOffset", JsonValue(max));
            wrapper.set("consumerOffset", JsonValue(committed));
            wrapper.set("lastTimestamp", JsonValue(committed > 0 ? storeTimeAt(lmq, committed - 1) : int64_t{-1}));
            wrapper.set("pullOffset", JsonValue(committed));
        }
    } else {
        std::vector<Lag> lags;
        for (const auto &[lmq, max] : liteQueuesOf(parent)) {
            const int64_t committed = broker_.offsets().queryOffset(group, lmq, 0);
            if (committed < 0 || committed >= max)
                continue;
            Lag lag{liteTopicOf(lmq, parent), max - committed, storeTimeAt(lmq, committed)};
            totalLag += lag.count;
            if (lag.earliest >= 0 && (earliest < 0 || lag.earliest < earliest))
                earliest = lag.earliest;
            lags.push_back(std::move(lag));
        }
        std::sort(lags.begin(), lags.end(), [](const Lag &a, const Lag &b) { return a.count > b.count; });
        for (size_t i = 0; i < lags.size() && i < static_cast<size_t>(topK); ++i)
            byCount.push_back(lagJson(lags[i]));
        std::sort(lags.begin(), lags.end(), [](const Lag &a, const Lag &b) { return a.earliest < b.earliest; });
        for (size_t i = 0; i < lags.size() && i < static_cast<size_t>(topK); ++i)
            byTime.push_back(lagJson(lags[i]));
    }
    body.set("earliestUnconsumedTimestamp", JsonValue(earliest));
    body.set("group", JsonValue(group));
    body.set("lagCountTopK", JsonValue(std::move(byCount)));
    body.set("lagTimestampTopK", JsonValue(std::move(byTime)));
    body.set("liteTopic", JsonValue(liteTopic));
    body.set("liteTopicOffsetWrapper", wrapper.empty() ? JsonValue() : JsonValue(std::move(wrapper)));
    body.set("parentTopic", JsonValue(parent));
    body.set("totalLagCount", JsonValue(totalLag));
    return withFastjsonBody(request, std::move(body));
}

} // namespace mqdesk::server::pop
