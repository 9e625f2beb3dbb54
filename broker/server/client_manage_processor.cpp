#include "broker/server/client_manage_processor.h"

#include "broker/common/clock.h"
#include "broker/remoting/protocol/client_data.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/protocol/json_fields.h"
#include "broker/remoting/protocol/resource_names.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/broker_controller.h"
#include "broker/server/consumer_manager.h"
#include "broker/server/sql_filter_cache.h"
#include "broker/server/topic_manager.h"
#include "broker/store/config/consumer_filter_manager.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/subscription_group_manager.h"
#include "broker/store/consume_queue.h"
#include "broker/store/consume_queue_store.h"
#include "broker/store/message_store.h"

#include <spdlog/spdlog.h>

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
        if (!group && broker_.brokerConfig().autoCreateSubscriptionGroup) {
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
    if (offset < 0) {
        respond(RemotingCommand::createResponse(request, ResponseCode::kQueryNotFound,
                                                "Not found, V3_0_6_SNAPSHOT maybe this group consumer boot first"));
        return;
    }
    RemotingCommand response = success(request);
    remoting::setField(response.extFields, "offset", offset);
    respond(std::move(response));
}

void ClientManageProcessor::updateConsumerOffset(const remoting::RequestContext &context, RemotingCommand request,
                                                 remoting::Responder respond)
{
    HeaderReader reader(request.extFields);
    const std::string group = reader.requireGroup("consumerGroup");
    const std::string topic = reader.requireTopic("topic");
    const int32_t queueId = reader.requireInt32("queueId");
    const int64_t offset = reader.requireInt64("commitOffset");
    if (!reader.ok()) {
        respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError, reader.error()));
        return;
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

} // namespace mqdesk::server
