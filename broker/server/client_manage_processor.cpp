#include "broker/server/client_manage_processor.h"

#include "broker/common/clock.h"
#include "broker/common/java_strings.h"
#include "broker/remoting/net/remoting_channel.h"
#include "broker/remoting/protocol/client_data.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/protocol/json_fields.h"
#include "broker/remoting/protocol/resource_names.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/broker_controller.h"
#include "broker/server/consumer_manager.h"
#include "broker/server/static_topic_queue.h"
#include "broker/server/sql_filter_cache.h"
#include "broker/server/topic_manager.h"
#include "broker/store/config/consumer_filter_manager.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/subscription_group_manager.h"
#include "broker/store/consume_queue.h"
#include "broker/store/consume_queue_store.h"
#include "broker/store/message_store.h"

#include <spdlog/spdlog.h>

#include <optional>

#include <unistd.h>

namespace mqdesk::server {

using remoting::HeaderReader;
using remoting::RemotingCommand;
using remoting::RequestCode;
using remoting::ResponseCode;

namespace {

RemotingCommand success(const RemotingCommand &request)
{
    return RemotingCommand::createResponse(request, ResponseCode::kSuccess);
}

// RocketMQ treats data further behind the log's end than 40 % of RAM as "on disk"
// (accessMessageInMemoryMaxRatio); a new group starts at 0 only when message 0 is still in memory.
bool isInMemory(store::MessageStore &store, int64_t commitLogOffset)
{
    static const int64_t memoryBytes = static_cast<int64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE);
    return store.commitLog().maxOffset() - commitLogOffset <= memoryBytes * 40 / 100;
}

// The first group or topic name in a heartbeat that RocketMQ would not allow, as a remark naming
// its place in the body; empty when all are legal.
std::string invalidNameIn(const remoting::HeartbeatData &heartbeat)
{
    for (size_t i = 0; i < heartbeat.producerDataSet.size(); ++i) {
        const std::string field = "producerDataSet[" + std::to_string(i) + "].groupName";
        if (std::string error = remoting::groupNameError(heartbeat.producerDataSet[i].groupName, field); !error.empty())
            return error;
    }
    for (size_t i = 0; i < heartbeat.consumerDataSet.size(); ++i) {
        const remoting::ConsumerData &consumer = heartbeat.consumerDataSet[i];
        const std::string field = "consumerDataSet[" + std::to_string(i) + "]";
        if (std::string error = remoting::groupNameError(consumer.groupName, field + ".groupName"); !error.empty())
            return error;
        for (size_t j = 0; j < consumer.subscriptionDataSet.size(); ++j) {
            const std::string topicField = field + ".subscriptionDataSet[" + std::to_string(j) + "].topic";
            std::string error = remoting::consumedTopicNameError(consumer.subscriptionDataSet[j].topic, topicField);
            if (!error.empty())
                return error;
        }
    }
    return {};
}

// RocketMQ's ConsumerFilterManager.register for one heartbeat's SQL92 subscriptions: a filter that
// compiles is recorded in consumerFilter.json (new, changed expression, higher client version or
// revived); returns whether anything changed. Expressions are compiled through the pull path's
// cache, so the first pull finds them compiled.
bool registerSqlFilters(BrokerController &broker, const remoting::ConsumerData &consumer, int64_t nowMillis)
{
    bool changed = false;
    for (const remoting::SubscriptionData &subscription : consumer.subscriptionDataSet) {
        if (subscription.isTagType() || subscription.subString.empty())
            continue;
        auto existing = broker.consumerFilters().get(subscription.topic, consumer.groupName);
        const bool same = existing && existing->expression == subscription.subString
                          && existing->expressionType == subscription.expressionType;
        if (same && existing->clientVersion >= subscription.subVersion && !existing->isDead())
            continue;
        if (existing && !same && existing->clientVersion >= subscription.subVersion)
            continue; // an older heartbeat than the filter recorded: Java ignores it too
        const SqlFilterCache::Compiled compiled =
            broker.sqlFilters().get(consumer.groupName, subscription.topic, subscription.subVersion,
                                    subscription.expressionType, subscription.subString);
        if (!compiled.expression) {
            spdlog::warn("heartbeat: the {} filter of group {} on {} does not compile: {}", subscription.expressionType,
                         consumer.groupName, subscription.topic, compiled.error);
            continue;
        }
        store::ConsumerFilterData data = same ? *existing : store::ConsumerFilterData{};
        if (!same) {
            data.consumerGroup = consumer.groupName;
            data.topic = subscription.topic;
            data.expression = subscription.subString;
            data.expressionType = subscription.expressionType;
            data.bornTime = nowMillis;
            data.bloomFilterData.reset();
        }
        data.deadTime = 0;
        data.clientVersion = std::max(data.clientVersion, subscription.subVersion);
        broker.consumerFilters().put(data);
        changed = true;
    }
    return changed;
}

} // namespace

void ClientManageProcessor::heartbeat(const remoting::RequestContext &context, RemotingCommand request,
                                      remoting::Responder respond)
{
    remoting::HeartbeatData heartbeat;
    std::string error;
    const std::string_view body(reinterpret_cast<const char *>(request.body.data()), request.body.size());
    if (!remoting::HeartbeatData::fromJson(body, heartbeat, error)) {
        respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError, "bad HEART_BEAT body: " + error));
        return;
    }
    if (std::string invalid = invalidNameIn(heartbeat); !invalid.empty()) {
        respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError, "bad HEART_BEAT body: " + invalid));
        return;
    }
    ClientChannelInfo client;
    client.channel = context;
    client.clientId = heartbeat.clientId;
    client.language = request.language;
    client.version = request.version;
    client.lastUpdateMillis = common::wallMillis();

    // New groups and their retry topics are collected and each config file written once: a
    // heartbeat naming thousands of groups must not rewrite subscriptionGroup.json and
    // topics.json thousands of times.
    std::vector<store::TopicConfig> retryTopics;
    bool groupsCreated = false;
    bool filtersChanged = false;
    std::vector<std::string> changedGroups;
    for (const remoting::ConsumerData &consumer : heartbeat.consumerDataSet) {
        auto group = broker_.subscriptionGroups().findSubscriptionGroupConfig(consumer.groupName);
        if (!group && broker_.brokerConfig().createsGroupOnUse(consumer.groupName)) {
            store::SubscriptionGroupConfig created;
            created.groupName = consumer.groupName;
            broker_.subscriptionGroups().updateSubscriptionGroupConfig(created);
            groupsCreated = true;
            group = created;
        }
        if (group && group->retryQueueNums > 0) {
            store::TopicConfig retry;
            retry.topicName = kRetryGroupTopicPrefix + consumer.groupName;
            retry.readQueueNums = retry.writeQueueNums = std::min(group->retryQueueNums, kMaxQueueNums);
            retry.perm = store::perm::kRead | store::perm::kWrite;
            retryTopics.push_back(std::move(retry));
        }
        const bool changed = broker_.consumers().registerConsumer(consumer, client, client.lastUpdateMillis);
        filtersChanged = registerSqlFilters(broker_, consumer, client.lastUpdateMillis) || filtersChanged;
        if (changed && (!group || group->notifyConsumerIdsChangedEnable))
            changedGroups.push_back(consumer.groupName);
    }
    if (groupsCreated && !broker_.subscriptionGroups().persist(error))
        spdlog::error("heartbeat: cannot persist the subscription groups of client {}: {}", heartbeat.clientId, error);
    if (filtersChanged && !broker_.consumerFilters().persist(error))
        spdlog::error("heartbeat: cannot persist the consumer filters of client {}: {}", heartbeat.clientId, error);
    if (!retryTopics.empty() && !broker_.topics().createTopicsIfAbsent(retryTopics))
        spdlog::error("heartbeat: cannot persist the retry topics of client {}", heartbeat.clientId);
    for (const std::string &group : changedGroups)
        broker_.notifyConsumerIdsChanged(group);
    for (const remoting::ProducerData &producer : heartbeat.producerDataSet)
        broker_.producers().registerProducer(producer.groupName, client);
    respond(success(request));
}

void ClientManageProcessor::checkClientConfig(const remoting::RequestContext &, RemotingCommand request,
                                              remoting::Responder respond)
{
    // CheckClientRequestBody {clientId, group, subscriptionData}; Java reads a missing or
    // unreadable body as "nothing to check" and answers SUCCESS.
    const std::string_view body(reinterpret_cast<const char *>(request.body.data()), request.body.size());
    common::JsonValue root;
    std::string error;
    const common::JsonValue *member = nullptr;
    if (!body.empty() && remoting::parseJsonObject(body, root, error))
        member = root.find("subscriptionData");
    remoting::SubscriptionData subscription;
    if (!member || member->isNull()
        || !remoting::SubscriptionData::fromJson(*member, "subscriptionData", subscription, error)
        || subscription.isTagType()) {
        respond(success(request));
        return;
    }
    if (!broker_.brokerConfig().enablePropertyFilter) {
        respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError,
                                                "The broker does not support consumer to filter message by "
                                                    + subscription.expressionType));
        return;
    }
    const SqlFilterCache::Compiled compiled =
        compileFilterExpression(subscription.expressionType, subscription.subString);
    if (!compiled.expression) {
        std::string clientId;
        std::string group;
        if (const auto *v = root.find("clientId"); v && v->isString())
            clientId = v->asString();
        if (const auto *v = root.find("group"); v && v->isString())
            group = v->asString();
        spdlog::warn("Client {}@{} filter message, but failed to compile expression! sub={}, error={}", clientId,
                     group, subscription.subString, compiled.error);
        respond(RemotingCommand::createResponse(request, ResponseCode::kSubscriptionParseFailed, compiled.error));
        return;
    }
    respond(success(request));
}

void ClientManageProcessor::unregisterClient(const remoting::RequestContext &context, RemotingCommand request,
                                             remoting::Responder respond)
{
    HeaderReader reader(request.extFields);
    reader.requireString("clientID");
    const std::string producerGroup = reader.optGroup("producerGroup");
    const std::string consumerGroup = reader.optGroup("consumerGroup");
    if (!reader.ok()) {
        respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError, reader.error()));
        return;
    }
    if (!producerGroup.empty())
        broker_.producers().unregisterProducer(producerGroup, context.connectionId());
    if (!consumerGroup.empty() && broker_.consumers().unregisterConsumer(consumerGroup, context.connectionId()))
        broker_.notifyConsumerIdsChanged(consumerGroup);
    respond(success(request));
}

void ClientManageProcessor::consumerListByGroup(const remoting::RequestContext &, RemotingCommand request,
                                                remoting::Responder respond)
{
    HeaderReader reader(request.extFields);
    const std::string group = reader.requireGroup("consumerGroup");
    if (!reader.ok()) {
        respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError, reader.error()));
        return;
    }
    const std::vector<std::string> ids = broker_.consumers().clientIds(group);
    if (ids.empty()) {
        respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError, "no consumer for this group, " + group));
        return;
    }
    RemotingCommand response = success(request);
    const std::string body = remoting::encodeConsumerIdList(ids);
    response.body.assign(body.begin(), body.end());
    respond(std::move(response));
}

void ClientManageProcessor::queryConsumerOffset(const remoting::RequestContext &, RemotingCommand request,
                                                remoting::Responder respond)
{
    HeaderReader reader(request.extFields);
    const std::string group = reader.requireGroup("consumerGroup");
    const std::string topic = reader.requireTopic("topic");
    const int32_t queueId = reader.requireInt32("queueId");
    const bool setZeroIfNotFound = reader.optBool("setZeroIfNotFound", true);
    if (!reader.ok()) {
        respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError, reader.error()));
        return;
    }
    const StaticQueue logical = StaticQueue::of(broker_.queueMappings(), request, topic, queueId);
    if (logical.isStatic())
        return respond(queryStaticConsumerOffset(request, logical, group, setZeroIfNotFound));
    respond(queryPhysicalConsumerOffset(request, group, topic, queueId, setZeroIfNotFound));
}

RemotingCommand ClientManageProcessor::queryPhysicalConsumerOffset(const RemotingCommand &request,
                                                                   const std::string &group, const std::string &topic,
                                                                   int32_t queueId, bool setZeroIfNotFound)
{
    int64_t offset = broker_.offsets().queryOffset(group, topic, queueId);
    if (offset < 0 && setZeroIfNotFound) {
        // A new group on a young queue starts at 0 whatever its consume-from-where (4.9.8).
        store::MessageStore &store = broker_.store();
        if (store.minOffsetInQueue(topic, queueId) <= 0) {
            const auto queue = store.consumeQueues().find(topic, queueId);
            const auto first = queue ? queue->entriesFrom(0, 1) : std::vector<store::ConsumeQueueEntry>{};
            if (first.empty() || isInMemory(store, first.front().commitLogOffset))
                offset = 0;
        }
    }
    if (offset < 0)
        return RemotingCommand::createResponse(request, ResponseCode::kQueryNotFound,
                                               "Not found, V3_0_6_SNAPSHOT maybe this group consumer boot first");
    RemotingCommand response = success(request);
    remoting::setField(response.extFields, "offset", offset);
    return response;
}

// Java's ConsumerManageProcessor#rewriteRequestForStaticTopic of a query: a logical queue of one
// item starting at 0 is its physical queue; otherwise the group's offset is read from the newest
// item that has one ("double read") and made logical.
RemotingCommand ClientManageProcessor::queryStaticConsumerOffset(const RemotingCommand &request,
                                                                 const StaticQueue &logical, const std::string &group,
                                                                 bool setZeroIfNotFound)
{
    if (!logical.isLeader())
        return RemotingCommand::createResponse(request, ResponseCode::kNotLeaderForQueue, logical.notLeaderRemark());
    const common::LogicQueueMappingItems &items = logical.items();
    const std::string &topic = logical.detail().topic;
    if (items.size() == 1 && items.front().logicOffset == 0) {
        RemotingCommand response =
            queryPhysicalConsumerOffset(request, group, topic, logical.leader().queueId, setZeroIfNotFound);
        if (const std::string *offset = response.extFields.find("offset"))
            remoting::setField(response.extFields, "offset",
                               items.front().staticOffsetStrictly(common::parseJavaLong(*offset).value_or(0)));
        return response;
    }
    for (auto item = items.rbegin(); item != items.rend(); ++item) {
        int64_t offset = -1;
        if (logical.isLocal(*item)) {
            offset = broker_.offsets().queryOffset(group, topic, item->queueId);
        } else {
            const remoting::InvokeResult asked = askItemBroker(
                broker_, logical, *item, RequestCode::kQueryConsumerOffset,
                {{"consumerGroup", group}, {"setZeroIfNotFound", "false"}});
            if (!asked.ok())
                return RemotingCommand::createResponse(request, ResponseCode::kSystemError,
                                                       "static topic " + topic + ": " + asked.errorMessage);
            if (asked.response.code == ResponseCode::kSuccess) {
                const std::string *value = asked.response.extFields.find("offset");
                offset = value ? common::parseJavaLong(*value).value_or(-1) : -1;
            } else if (asked.response.code != ResponseCode::kQueryNotFound) {
                return RemotingCommand::createResponse(request, ResponseCode::kSystemError,
                                                       "Unknown response code " + std::to_string(asked.response.code));
            }
        }
        if (offset >= 0) {
            RemotingCommand response = success(request);
            remoting::setField(response.extFields, "offset", item->staticOffsetStrictly(offset));
            return response;
        }
    }
    return RemotingCommand::createResponse(request, ResponseCode::kQueryNotFound,
                                           "Not found, maybe this group consumer boot first");
}

void ClientManageProcessor::updateConsumerOffset(const remoting::RequestContext &context, RemotingCommand request,
                                                 remoting::Responder respond)
{
    HeaderReader reader(request.extFields);
    const std::string group = reader.requireGroup("consumerGroup");
    const std::string topic = reader.requireTopic("topic");
    int32_t queueId = reader.requireInt32("queueId");
    int64_t offset = reader.requireInt64("commitOffset");
    if (!reader.ok()) {
        respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError, reader.error()));
        return;
    }
    // A static topic's logical offset is committed to the item holding it, as a physical one.
    if (const StaticQueue logical = StaticQueue::of(broker_.queueMappings(), request, topic, queueId); logical.isStatic()) {
        if (!logical.isLeader())
            return respond(
                RemotingCommand::createResponse(request, ResponseCode::kNotLeaderForQueue, logical.notLeaderRemark()));
        const common::LogicQueueMappingItem *holding = logical.itemHolding(offset);
        if (!holding)
            return respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError, logical.noItemRemark()));
        const common::LogicQueueMappingItem &item = *holding;
        queueId = item.queueId;
        offset = item.physicalOffset(offset);
        if (!logical.isLocal(item)) {
            remoting::InvokeResult asked =
                askItemBroker(broker_, logical, item, RequestCode::kUpdateConsumerOffset,
                              {{"consumerGroup", group}, {"commitOffset", std::to_string(offset)}});
            if (!asked.ok())
                return respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError,
                                                               "static topic " + topic + ": " + asked.errorMessage));
            RemotingCommand response = RemotingCommand::createResponse(request, asked.response.code);
            response.remark = std::move(asked.response.remark);
            return respond(std::move(response));
        }
    }
    // A reset done on the broker waits for the group's next pull of the queue: until then the
    // clients' commits of their old position are refused (answered SUCCESS, as Java does).
    if (broker_.brokerConfig().useServerSideResetOffset && broker_.offsets().hasOffsetReset(group, topic, queueId)) {
        spdlog::info("Update consumer offset is rejected because of previous offset-reset. Group={}, Topic={}, "
                     "QueueId={}, Offset={}",
                     group, topic, queueId, offset);
        return respond(success(request));
    }
    // ali-ons commits -1 for queues it never consumed: that must not erase a real offset.
    if (offset >= 0)
        broker_.offsets().commitOffset(context.peerAddress(), group, topic, queueId, offset);
    respond(success(request));
}

void ClientManageProcessor::queueOffsetQuery(const remoting::RequestContext &, RemotingCommand request,
                                             remoting::Responder respond)
{
    HeaderReader reader(request.extFields);
    const std::string topic = reader.requireTopic("topic");
    const int32_t queueId = reader.requireInt32("queueId");
    const int64_t timestamp = request.code == RequestCode::kSearchOffsetByTimestamp ? reader.requireInt64("timestamp") : 0;
    if (!reader.ok()) {
        respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError, reader.error()));
        return;
    }
    if (const StaticQueue logical = StaticQueue::of(broker_.queueMappings(), request, topic, queueId); logical.isStatic())
        return respond(staticQueueOffsetQuery(request, logical, timestamp));
    store::MessageStore &store = broker_.store();
    RemotingCommand response = success(request);
    switch (request.code) {
    case RequestCode::kGetMaxOffset:
        remoting::setField(response.extFields, "offset", store.maxOffsetInQueue(topic, queueId));
        break;
    case RequestCode::kGetMinOffset:
        remoting::setField(response.extFields, "offset", store.minOffsetInQueue(topic, queueId));
        break;
    case RequestCode::kSearchOffsetByTimestamp:
        remoting::setField(response.extFields, "offset", store.offsetInQueueByTime(topic, queueId, timestamp));
        break;
    default:
        remoting::setField(response.extFields, "timestamp", store.earliestMessageTime(topic, queueId));
        break;
    }
    respond(std::move(response));
}

// The four queue-offset queries of a static topic, as Java's AdminBrokerProcessor answers them
// for the leader of the logical queue: the newest offset of the newest item, the oldest of the
// oldest, the first item with a message at or after the time, and the oldest item's earliest
// store time (Java asks that of the logical queue id; MQDesk of the item's physical queue). An
// item on another broker is asked there.
RemotingCommand ClientManageProcessor::staticQueueOffsetQuery(const RemotingCommand &request,
                                                              const StaticQueue &logical, int64_t timestamp)
{
    if (!logical.isLeader())
        return RemotingCommand::createResponse(request, ResponseCode::kNotLeaderForQueue, logical.notLeaderRemark());
    const common::LogicQueueMappingItems &items = logical.items();
    const std::string &topic = logical.detail().topic;
    const bool earliestTime = request.code == RequestCode::kGetEarliestMsgStoretime;
    std::optional<RemotingCommand> failed;
    // This request's question about one item's physical queue: the store's answer here, its
    // broker's elsewhere; nullopt (and `failed` set) when that broker cannot be asked.
    const auto physicalAnswer = [&](const common::LogicQueueMappingItem &item) -> std::optional<int64_t> {
        if (logical.isLocal(item)) {
            store::MessageStore &store = broker_.store();
            switch (request.code) {
            case RequestCode::kGetMaxOffset: return store.maxOffsetInQueue(topic, item.queueId);
            case RequestCode::kGetMinOffset: return store.minOffsetInQueue(topic, item.queueId);
            case RequestCode::kSearchOffsetByTimestamp: return store.offsetInQueueByTime(topic, item.queueId, timestamp);
            default: return store.earliestMessageTime(topic, item.queueId);
            }
        }
        remoting::ExtFields fields;
        if (request.code == RequestCode::kSearchOffsetByTimestamp)
            fields.set("timestamp", std::to_string(timestamp));
        const remoting::InvokeResult asked = askItemBroker(broker_, logical, item, request.code, std::move(fields));
        const std::string *value = asked.ok() && asked.response.code == ResponseCode::kSuccess
                                       ? asked.response.extFields.find(earliestTime ? "timestamp" : "offset")
                                       : nullptr;
        if (!value) {
            failed = RemotingCommand::createResponse(
                request, ResponseCode::kSystemError,
                "static topic " + topic + ": "
                    + (asked.ok() ? "broker " + item.bname + " answered " + std::to_string(asked.response.code)
                                  : asked.errorMessage));
            return std::nullopt;
        }
        return common::parseJavaLong(*value).value_or(-1);
    };
    RemotingCommand response = success(request);
    if (request.code == RequestCode::kSearchOffsetByTimestamp) {
        int64_t offset = -1;
        for (const common::LogicQueueMappingItem &item : items) {
            if (!item.logicOffsetDecided())
                continue;
            const std::optional<int64_t> found = physicalAnswer(item);
            if (!found)
                return *failed;
            if (logical.isLocal(item)) {
                offset = *found;
                if (offset > 0) {
                    offset = item.staticOffsetStrictly(offset);
                    break;
                }
            } else if (*found >= 0 && !(item.endOffsetDecided() && *found >= item.endOffset)) {
                offset = item.staticOffsetStrictly(*found);
            }
        }
        remoting::setField(response.extFields, "offset", offset);
        return response;
    }
    const common::LogicQueueMappingItem *holding =
        logical.itemHolding(request.code == RequestCode::kGetMaxOffset ? INT64_MAX : 0);
    if (!holding)
        return RemotingCommand::createResponse(request, ResponseCode::kSystemError, logical.noItemRemark());
    const common::LogicQueueMappingItem &item = *holding;
    const std::optional<int64_t> found = physicalAnswer(item);
    if (!found)
        return *failed;
    if (earliestTime)
        remoting::setField(response.extFields, "timestamp", *found);
    else if (request.code == RequestCode::kGetMaxOffset)
        remoting::setField(response.extFields, "offset", item.staticOffsetStrictly(*found));
    else
        remoting::setField(response.extFields, "offset", item.staticOffsetLoosely(*found));
    return response;
}

} // namespace mqdesk::server
