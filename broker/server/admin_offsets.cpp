// The offset tables (GET_ALL_CONSUMER_OFFSET, GET_ALL_DELAY_OFFSET), INVOKE_BROKER_TO_RESET_OFFSET
// and CLONE_GROUP_OFFSET.

#include "broker/server/admin_processor.h"

#include "broker/common/json.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/protocol/queue_tables.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/admin_bodies.h"
#include "broker/server/broker_controller.h"
#include "broker/server/consumer_manager.h"
#include "broker/server/pop/consumer_order_info_manager.h"
#include "broker/server/pop/pop_service.h"
#include "broker/server/topic_manager.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/delay_offset_manager.h"
#include "broker/store/config/subscription_group_manager.h"
#include "broker/store/message_store.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace mqdesk::server {

using admin::failure;
using admin::successWithBody;
using common::JsonObject;
using common::JsonValue;
using remoting::HeaderReader;
using remoting::RemotingCommand;
using remoting::RequestCode;
using remoting::ResponseCode;

// Both tables are written as strict JSON with quoted queue-id / level keys (Java writes them
// bare; every client we know reads both, remoting spec Appendix C).
RemotingCommand AdminProcessor::getAllConsumerOffset(const RemotingCommand &request)
{
    JsonObject table;
    for (const auto &[topicAtGroup, queues] : broker_.offsets().offsetTable()) {
        JsonObject offsets;
        for (const auto &[queueId, offset] : queues)
            offsets.setIntegerKey(queueId, offset);
        table.set(topicAtGroup, std::move(offsets));
    }
    // Java's encode() is never empty, so it never answers its "No consumer offset" error;
    // an empty table is answered as one.
    JsonObject body;
    body.set("offsetTable", std::move(table));
    return successWithBody(request, common::toJsonCompact(JsonValue(std::move(body))));
}

RemotingCommand AdminProcessor::getAllDelayOffset(const RemotingCommand &request)
{
    JsonObject table;
    for (const auto &[level, offset] : broker_.delayOffsets().offsetTable())
        table.setIntegerKey(level, offset);
    JsonObject body;
    body.set("offsetTable", std::move(table));
    return successWithBody(request, common::toJsonCompact(JsonValue(std::move(body))));
}

// INVOKE_BROKER_TO_RESET_OFFSET (222): Java 5.x's resetOffsetInner while useServerSideResetOffset
// (the default), else Java's Broker2Client.resetOffset (below).
RemotingCommand AdminProcessor::resetOffset(const RemotingCommand &request)
{
    HeaderReader reader(request.extFields);
    const std::string topic = reader.requireTopic("topic");
    const std::string group = reader.requireGroup("group");
    const int64_t timestamp = reader.requireInt64("timestamp");
    const bool isForce = reader.requireBool("isForce");
    const int32_t queueId = reader.optInt32("queueId", -1);
    const std::optional<int64_t> offset = reader.findInt64("offset");
    if (!reader.ok())
        return failure(request, ResponseCode::kSystemError, reader.error());
    spdlog::info("admin: [reset-offset] reset offset started. topic={}, group={}, timestamp={}, isForce={}", topic,
                 group, timestamp, isForce);
    if (broker_.brokerConfig().useServerSideResetOffset)
        return resetOffsetOnBroker(request, topic, group, queueId, offset, timestamp);
    return resetOffsetThroughClients(request, topic, group, timestamp, isForce);
}

// Java's resetOffsetInner: the offsets assigned here (one queue to an offset or a time, or every
// read queue to a time; a time < 0 is the end), pending until each queue's next pull or pop.
RemotingCommand AdminProcessor::resetOffsetOnBroker(const RemotingCommand &request, const std::string &topic,
                                                    const std::string &group, int32_t queueId,
                                                    std::optional<int64_t> offset, int64_t timestamp)
{
    const auto config = broker_.topics().find(topic);
    if (!config)
        return failure(request, ResponseCode::kTopicNotExist, "Topic " + topic + " does not exist");
    if (!broker_.subscriptionGroups().findSubscriptionGroupConfig(group))
        return failure(request, ResponseCode::kSubscriptionGroupNotExist, "Group " + group + " does not exist");
    store::MessageStore &store = broker_.store();
    const auto atTime = [&](int32_t queue) {
        return timestamp < 0 ? store.maxOffsetInQueue(topic, queue) : store.offsetInQueueByTime(topic, queue, timestamp);
    };
    std::map<int32_t, int64_t> targets;
    if (queueId >= 0 && offset && *offset != -1) {
        const int64_t min = store.minOffsetInQueue(topic, queueId);
        const int64_t max = store.maxOffsetInQueue(topic, queueId);
        if (*offset < min || *offset > max) {
            return failure(request, ResponseCode::kSystemError,
                           "Target offset " + std::to_string(*offset) + " not in consume queue range ["
                               + std::to_string(min) + "-" + std::to_string(max) + "]");
        }
        targets[queueId] = *offset;
    } else if (queueId >= 0) {
        targets[queueId] = atTime(queueId);
    } else {
        for (int32_t queue = 0; queue < config->readQueueNums; ++queue)
            targets[queue] = atTime(queue);
    }
    remoting::ResetOffsetBody table;
    for (const auto &[queue, target] : targets) {
        const int64_t next = std::max<int64_t>(0, target);
        broker_.offsets().assignResetOffset(group, topic, queue, next);
        table.offsetTable[{topic, broker_.brokerConfig().brokerName, queue}] = next;
    }
    broker_.pullOffsets().clear(group, topic);
    broker_.pop().orderInfo().clearBlock(topic, group, queueId);
    std::string error;
    if (!broker_.offsets().persist(error))
        return failure(request, ResponseCode::kSystemError, "cannot save consumer offsets: " + error);
    spdlog::info("admin: [reset-offset] {} queue(s) of {} on {} reset on the broker", targets.size(), group, topic);
    return successWithBody(request, table.toJson());
}

// Java's Broker2Client.resetOffset, with one deliberate difference: when no consumer of the
// group is online the broker writes the new offsets into its offset table itself and answers
// SUCCESS (Java answers CONSUMER_NOT_ONLINE and leaves the table alone, so its tools compute
// and write the offsets with UPDATE_CONSUMER_OFFSET instead). MQDesk's console resets the
// offsets of stopped groups this way. With consumers online, the broker only tells them (as
// Java): they apply the offsets and commit them, and a broker-side write would race with
// their own commits of the old position.
RemotingCommand AdminProcessor::resetOffsetThroughClients(const RemotingCommand &request, const std::string &topic,
                                                          const std::string &group, int64_t timestamp, bool isForce)
{
    const auto config = broker_.topics().find(topic);
    if (!config)
        return failure(request, ResponseCode::kSystemError,
                       "[reset-offset] reset offset failed, no topic in this broker. topic=" + topic);

    store::MessageStore &store = broker_.store();
    store::ConsumerOffsetManager &offsets = broker_.offsets();
    remoting::ResetOffsetBody table;
    for (int32_t queueId = 0; queueId < config->writeQueueNums; ++queueId) {
        const int64_t committed = offsets.queryOffset(group, topic, queueId);
        if (committed == -1)
            return failure(request, ResponseCode::kSystemError, "THe consumer group <" + group + "> not exist");
        int64_t target = timestamp == -1 ? store.maxOffsetInQueue(topic, queueId)
                                         : store.offsetInQueueByTime(topic, queueId, timestamp);
        target = std::max<int64_t>(0, target);
        table.offsetTable[{topic, broker_.brokerConfig().brokerName, queueId}] =
            isForce || target < committed ? target : committed;
    }
    const std::string body = table.toJson();

    // The group's pulls now start elsewhere (Java clearPullOffset).
    broker_.pullOffsets().clear(group, topic);
    const auto online = broker_.consumers().group(group);
    if (online && !online->channels.empty()) {
        for (const ClientChannelInfo &client : online->channels) {
            RemotingCommand push = RemotingCommand::createRequest(RequestCode::kResetConsumerClientOffset);
            remoting::setField(push.extFields, "topic", topic);
            remoting::setField(push.extFields, "group", group);
            remoting::setField(push.extFields, "timestamp", timestamp);
            remoting::setField(push.extFields, "isForce", isForce);
            admin::setBody(push, body);
            if (!client.channel.sendDroppable(std::move(push)))
                spdlog::warn("admin: reset offset of {}: client {} is gone or not reading", group, client.clientId);
        }
        spdlog::info("admin: reset offset of {} on {} to {} sent to {} consumer(s)", group, topic, timestamp,
                     online->channels.size());
    } else {
        for (const auto &[queue, offset] : table.offsetTable)
            offsets.commitOffset("admin", group, topic, queue.queueId, offset);
        std::string error;
        if (!offsets.persist(error))
            return failure(request, ResponseCode::kSystemError, "cannot save consumer offsets: " + error);
        spdlog::info("admin: reset offset of offline group {} on {} to {} written", group, topic, timestamp);
    }
    return successWithBody(request, body);
}

RemotingCommand AdminProcessor::cloneGroupOffset(const RemotingCommand &request)
{
    HeaderReader reader(request.extFields);
    const std::string source = reader.requireGroup("srcGroup");
    const std::string destination = reader.requireGroup("destGroup");
    const std::string onlyTopic = reader.optTopic("topic");
    const bool offline = reader.optBool("offline", false);
    if (!reader.ok())
        return failure(request, ResponseCode::kSystemError, reader.error());

    store::ConsumerOffsetManager &offsets = broker_.offsets();
    std::set<std::string> topics;
    if (onlyTopic.empty())
        topics = offsets.whichTopicByConsumer(source);
    else
        topics.insert(onlyTopic);
    const auto online = offline ? std::nullopt : broker_.consumers().group(source);
    for (const std::string &topic : topics) {
        if (!broker_.topics().find(topic))
            continue;
        // An online source group that no longer subscribes to the topic has stale offsets there.
        if (online && !online->subscriptions.empty()
            && std::none_of(online->subscriptions.begin(), online->subscriptions.end(),
                            [&](const remoting::SubscriptionData &s) { return s.topic == topic; }))
            continue;
        offsets.cloneOffset(source, destination, topic);
    }
    std::string error;
    if (!offsets.persist(error))
        return failure(request, ResponseCode::kSystemError, "cannot save consumer offsets: " + error);
    spdlog::info("admin: offsets of {} cloned to {}", source, destination);
    return RemotingCommand::createResponse(request, ResponseCode::kSuccess);
}

} // namespace mqdesk::server
