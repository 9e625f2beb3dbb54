// RocketMQ 5.5 LiteTopic consumption (docs/spec/lite-topic.md §4–5): POP_LITE_MESSAGE (Java's
// PopLiteMessageProcessor) and LITE_SUBSCRIPTION_CTL (LiteSubscriptionCtlProcessor). The lite
// branch of ACK_MESSAGE and CHANGE_MESSAGE_INVISIBLETIME is in ack_message_processor.cpp.
//
// Delivery is FIFO per (group, lite topic): a lite topic is an LMQ of one queue, read at the
// group's committed offset; what a pop hands out blocks the LMQ for the group (the order table
// liteOrderInfo_, memory only as Java's) until it is acked or visible again, and the ack moves
// the offset. Java routes "events" (LMQs with something new) to one client at a time; here a
// pop walks the client's own LMQs from where its last one stopped, and a parked pop is woken by
// what can make one of them readable: an arrival, an ack, a subscription, a batch whose
// invisible time ends (the park lasts no longer than that).

#include "broker/server/pop/consumer_order_info_manager.h"
#include "broker/server/pop/lite_subscriptions.h"
#include "broker/server/pop/pop_long_polling.h"
#include "broker/server/pop/pop_records.h"
#include "broker/server/pop/pop_service.h"

#include "broker/common/clock.h"
#include "broker/common/json.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/protocol/topic_attributes.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/broker_controller.h"
#include "broker/server/broker_stats.h"
#include "broker/server/topic_manager.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/subscription_group_manager.h"
#include "broker/store/message_store.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace mqdesk::server::pop {

using remoting::HeaderReader;
using remoting::RemotingCommand;
using remoting::RequestCode;
using remoting::ResponseCode;
using store::GetMessageStatus;

namespace {

constexpr int kMaxLitePopMessages = 32;

struct PopLiteHeader
{
    std::string clientId;
    std::string group;
    std::string topic;
    int32_t maxMsgNum = 32;
    int64_t invisibleTime = 60000;
    int64_t pollTime = 0;
    int64_t bornTime = 0;
    std::string attemptId;
};

bool readPopLiteHeader(const RemotingCommand &request, PopLiteHeader &header, std::string &error)
{
    HeaderReader reader(request.extFields);
    header.clientId = reader.requireString("clientId");
    header.group = reader.requireGroup("consumerGroup");
    header.topic = reader.requireTopic("topic");
    header.maxMsgNum = reader.requireInt32("maxMsgNum");
    header.invisibleTime = reader.requireInt64("invisibleTime");
    header.pollTime = reader.requireInt64("pollTime");
    header.bornTime = reader.optInt64("bornTime", 0);
    header.attemptId = reader.optString("attemptId");
    error = reader.error();
    return reader.ok();
}

// What one lite pop hands out.
struct LiteBatch
{
    std::vector<uint8_t> body;
    int32_t count = 0;
    std::string orderCountInfo; // per message, `;` between: how often it was handed out before
    int64_t wakeAtMs = 0;       // wall ms: the earliest a blocked LMQ of the client is readable again
};

std::string textOf(const common::JsonObject &object, std::string_view key)
{
    const common::JsonValue *value = object.find(key);
    if (value == nullptr || value->isNull())
        return {};
    return value->isString() ? value->asString() : value->isInteger() ? std::to_string(value->asInteger()) : std::string();
}

} // namespace

std::string PopService::liteClientKey(const std::string &clientId)
{
    // What a parked lite pop waits on in the long-polling table: its client, never a topic name
    // ('%' and spaces are not allowed in those).
    return "%LITE CLIENT% " + clientId;
}

const std::string *PopService::groupAttribute(const store::SubscriptionGroupConfig &group, const char *key)
{
    return group.attributes.find(key);
}

void PopService::popLite(const remoting::RequestContext &context, RemotingCommand request, remoting::Responder respond)
{
    processPopLite(context, request, respond, 0);
}

std::optional<std::pair<int32_t, std::string>> PopService::checkLiteTarget(const std::string &groupName,
                                                                           const std::string &topicName)
{
    if ((broker_.brokerConfig().brokerPermission & 4) == 0)
        return std::pair{ResponseCode::kNoPermission, "the broker[" + broker_.brokerAddress() + "] pop message is forbidden"};
    const auto topic = broker_.topics().find(topicName);
    if (!topic)
        return std::pair{ResponseCode::kTopicNotExist, "topic[" + topicName + "] not exist, apply first please!"};
    if ((topic->perm & store::perm::kRead) == 0)
        return std::pair{ResponseCode::kNoPermission, "the topic[" + topicName + "] peeking message is forbidden"};
    const std::string *type = topic->attributes.find(remoting::kMessageTypeAttribute);
    if (type == nullptr || *type != remoting::kLiteMessageType)
        return std::pair{ResponseCode::kInvalidParameter, "the topic [" + topicName + "] message type not match"};
    const auto group = broker_.subscriptionGroups().findSubscriptionGroupConfig(groupName);
    if (!group)
        return std::pair{ResponseCode::kSubscriptionGroupNotExist, "subscription group [" + groupName + "] does not exist"};
    if (!group->consumeEnable)
        return std::pair{ResponseCode::kNoPermission, "subscription group no permission, " + groupName};
    const std::string *bound = groupAttribute(*group, remoting::kLiteBindTopicAttribute);
    if (bound == nullptr || *bound != topicName)
        return std::pair{ResponseCode::kInvalidParameter, "subscription bind topic not match, " + groupName};
    return std::nullopt;
}

void PopService::processPopLite(const remoting::RequestContext &context, RemotingCommand &request,
                                remoting::Responder &respond, int64_t deadlineMillis)
{
    PopLiteHeader header;
    std::string error;
    if (!readPopLiteHeader(request, header, error)) {
        respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError, error));
        return;
    }
    const int64_t now = common::wallMillis();
    if (!isMillis(header.bornTime) || header.bornTime == 0)
        header.bornTime = now;
    header.pollTime = std::clamp<int64_t>(header.pollTime, 0, kMaxPollMillis);
    const auto refuse = [&](int32_t code, std::string remark) {
        respond(RemotingCommand::createResponse(request, code, std::move(remark)));
    };
    if (deadlineMillis == 0 && now - header.bornTime - header.pollTime > 500)
        return refuse(ResponseCode::kPollingTimeout,
                      "the broker[" + broker_.brokerAddress() + "] pop message is timeout too much");
    if (header.maxMsgNum > kMaxLitePopMessages || header.maxMsgNum <= 0)
        return refuse(ResponseCode::kInvalidParameter,
                      "the broker[" + broker_.brokerAddress() + "] pop message's num is greater than 32");
    if (header.invisibleTime <= 0 || header.invisibleTime > int64_t{1000} * broker_.store().config().timerMaxDelaySec)
        return refuse(ResponseCode::kInvalidParameter,
                      "invisibleTime " + std::to_string(header.invisibleTime) + " is out of range");
    if (auto refusal = checkLiteTarget(header.group, header.topic))
        return refuse(refusal->first, std::move(refusal->second));

    LiteBatch batch;
    // Before the walk: an arrival or release between the walk and the park must not be lost.
    const uint64_t notificationsSeen = polling_->notificationsOf({liteClientKey(header.clientId)});
    auto client = liteSubscriptions_->client(header.clientId);
    if (client && client->wildcard) {
        // A wildcard group's client reads every lite topic of the parent that has messages.
        for (const auto &[lmq, max] : liteQueuesOf(client->parent))
            client->lmqs.push_back(lmq);
    }
    if (client && client->group == header.group && client->parent == header.topic && !client->lmqs.empty()) {
        const size_t n = client->lmqs.size();
        const size_t start = liteSubscriptions_->cursor(header.clientId) % n;
        size_t next = start;
        for (size_t i = 0; i < n && batch.count < header.maxMsgNum; ++i) {
            const size_t at = (start + i) % n;
            const int32_t before = batch.count;
            popLiteQueue(header.group, header.attemptId, client->lmqs[at], now, header.invisibleTime,
                         header.maxMsgNum - batch.count, batch.body, batch.count, batch.orderCountInfo, batch.wakeAtMs);
            if (batch.count > before)
                next = at + 1; // the next pop starts past the last lite topic served
        }
        liteSubscriptions_->setCursor(header.clientId, next);
    }

    if (batch.count == 0 && header.pollTime > 0) {
        int64_t deadline = deadlineMillis != 0 ? deadlineMillis : steadyMillis() + header.pollTime;
        if (deadline > steadyMillis()) {
            // A held batch that becomes visible before the deadline ends the park then.
            if (batch.wakeAtMs > 0)
                deadline = std::min(deadline, steadyMillis() + (batch.wakeAtMs - now) + 10);
            ParkedRequest parked;
            parked.context = context;
            parked.request = std::move(request);
            parked.respond = std::move(respond);
            parked.topics = {liteClientKey(header.clientId)};
            parked.group = header.group;
            parked.watchedTopic = header.topic;
            parked.queueId = -1;
            parked.deadlineMillis = deadline;
            parked.notificationsSeen = notificationsSeen;
            parked.wake = rerunOnPullExecutor(&PopService::processPopLite);
            if (!polling_->park(parked)) {
                parked.respond(RemotingCommand::createResponse(parked.request, ResponseCode::kPollingFull,
                                                               "pop polling is full"));
                return;
            }
            // Something that arrived between the walk and the park woke nobody.
            if (client && liteBacklog(header.group, client->lmqs))
                polling_->notifyMessageArriving(liteClientKey(header.clientId), 0);
            return;
        }
    }

    RemotingCommand response = RemotingCommand::createResponse(
        request, batch.count > 0 ? ResponseCode::kSuccess : ResponseCode::kPollingTimeout,
        batch.count > 0 ? "FOUND" : "NO_MESSAGE_IN_QUEUE");
    remoting::setField(response.extFields, "popTime", now);
    remoting::setField(response.extFields, "invisibleTime", header.invisibleTime);
    remoting::setField(response.extFields, "reviveQid", kOrderReviveQid);
    remoting::setField(response.extFields, "orderCountInfo", batch.orderCountInfo);
    if (batch.count > 0) {
        broker_.stats().addGet(header.group, header.topic, 0, batch.count, static_cast<int64_t>(batch.body.size()));
        response.body = std::move(batch.body);
    } else {
        broker_.stats().addGetMiss();
    }
    respond(std::move(response));
}

void PopService::popLiteQueue(const std::string &group, const std::string &attemptId, const std::string &lmq,
                              int64_t popTime, int64_t invisibleTime, int32_t room, std::vector<uint8_t> &body,
                              int32_t &count, std::string &orderCountInfo, int64_t &wakeAtMs)
{
    const std::string lockKey = lmq + "@" + group;
    if (room <= 0 || !tryLockQueue(lockKey))
        return; // another pop of the group reads it now; its ack wakes this client again
    struct Unlock
    {
        PopService &service;
        const std::string &key;
        ~Unlock() { service.unlockQueue(key); }
    } unlock{*this, lockKey};

    store::ConsumerOffsetManager &offsets = broker_.offsets();
    if (offsets.takeResetOffset(group, lmq, 0))
        liteOrderInfo_->clearBlock(lmq, group, 0); // a reset drops what was held
    if (const int64_t until = liteOrderInfo_->blockedUntil(lmq, group, 0, attemptId, popTime); until > 0) {
        wakeAtMs = wakeAtMs == 0 ? until : std::min(wakeAtMs, until);
        return;
    }
    store::MessageStore &store = broker_.store();
    const int64_t max = store.maxOffsetInQueue(lmq, 0);
    int64_t offset = offsets.queryOffset(group, lmq, 0);
    if (max <= 0 || (offset >= 0 && offset >= max))
        return;
    if (offset < 0) {
        // A group's first pop of a lite topic reads its whole backlog (Java's init rule while
        // message 0 is still in the store; the oldest kept one otherwise).
        offset = std::max<int64_t>(store.minOffsetInQueue(lmq, 0), 0);
        offsets.commitOffset("PopLiteMessageProcessor", group, lmq, 0, offset);
    }
    store::GetMessageOptions options;
    options.rawRecords = true;
    options.transferLimits = store::transferLimitsOf(broker_.settings()->store);
    store::GetMessageResult result = store.getMessage(lmq, 0, offset, room, options);
    if (result.messageCount == 0 && result.nextBeginOffset != offset) {
        // Behind the queue's minimum (files deleted) or past its end: correct, and read once more.
        spdlog::info("pop lite: offset of group {} on {} corrected from {} to {}", group, lmq, offset,
                     result.nextBeginOffset);
        offset = result.nextBeginOffset;
        offsets.commitOffset("PopLiteMessageProcessor", group, lmq, 0, offset);
        result = store.getMessage(lmq, 0, offset, room, options);
    }
    if (result.messageCount == 0)
        return;
    const std::vector<int32_t> counts =
        liteOrderInfo_->recordPop(lmq, group, 0, attemptId, popTime, invisibleTime, result.queueOffsets);
    for (int32_t handedOut : counts) {
        if (!orderCountInfo.empty())
            orderCountInfo += ';';
        orderCountInfo += std::to_string(handedOut);
    }
    body.insert(body.end(), result.recordBytes.begin(), result.recordBytes.end());
    count += result.messageCount;
}

bool PopService::liteBacklog(const std::string &group, const std::vector<std::string> &lmqs)
{
    const int64_t now = common::wallMillis();
    for (const std::string &lmq : lmqs) {
        const int64_t committed = std::max<int64_t>(broker_.offsets().queryOffset(group, lmq, 0), 0);
        if (broker_.store().maxOffsetInQueue(lmq, 0) > committed
            && liteOrderInfo_->blockedUntil(lmq, group, 0, {}, now) == 0)
            return true;
    }
    return false;
}

void PopService::wakeLiteClients(const std::string &lmq, const std::string &group)
{
    for (const auto &[clientGroup, clientId] : liteSubscriptions_->subscribers(lmq)) {
        if (group.empty() || clientGroup == group)
            polling_->notifyMessageArriving(liteClientKey(clientId), 0);
    }
}

void PopService::resetLiteOffset(const std::string &group, const std::string &lmq, int64_t offset)
{
    if (broker_.offsets().queryOffset(group, lmq, 0) == offset)
        return;
    broker_.offsets().assignResetOffset(group, lmq, 0, offset);
    liteOrderInfo_->clearBlock(lmq, group, 0);
}

// OffsetOption (§4.3), applied to each LMQ of a PARTIAL_ADD: POLICY LAST (0) keeps the offset, MIN
// (1) starts over, MAX (2) skips to the end; OFFSET sets it; TAIL_N steps back n from the group's
// current position. TIMESTAMP is ignored, as by the 5.5.0 broker.
void PopService::applyLiteOffsetOption(const std::string &group, const std::string &lmq, const std::string &type,
                                       int64_t value)
{
    std::optional<int64_t> target;
    if (type == "POLICY") {
        if (value == 1)
            target = 0;
        else if (value == 2)
            target = broker_.store().maxOffsetInQueue(lmq, 0);
    } else if (type == "OFFSET") {
        target = std::max<int64_t>(value, 0);
    } else if (type == "TAIL_N") {
        const int64_t current = broker_.offsets().queryOffset(group, lmq, 0);
        if (current >= 0)
            target = std::max<int64_t>(current - std::max<int64_t>(value, 0), 0);
    }
    if (target)
        resetLiteOffset(group, lmq, *target);
}

void PopService::liteSubscriptionCtl(const remoting::RequestContext &context, RemotingCommand request,
                                     remoting::Responder respond)
{
    if (request.body.empty())
        return respond(RemotingCommand::createResponse(request, ResponseCode::kIllegalOperation, "Request body is null."));
    const common::JsonParseResult parsed =
        common::parseJson(std::string_view(reinterpret_cast<const char *>(request.body.data()), request.body.size()));
    const common::JsonValue *set = parsed.ok() && parsed.value.isObject()
                                       ? parsed.value.asObject().find("subscriptionSet")
                                       : nullptr;
    if (set == nullptr || !set->isArray() || set->asArray().empty())
        return respond(RemotingCommand::createResponse(request, ResponseCode::kIllegalOperation,
                                                       "LiteSubscriptionCtlRequestBody is empty."));
    for (const common::JsonValue &entry : set->asArray()) {
        if (!entry.isObject())
            continue;
        if (auto refusal = applyLiteSubscription(context, entry.asObject()))
            return respond(RemotingCommand::createResponse(request, refusal->first, std::move(refusal->second)));
    }
    respond(RemotingCommand::createResponse(request, ResponseCode::kSuccess));
}

std::optional<std::pair<int32_t, std::string>> PopService::applyLiteSubscription(const remoting::RequestContext &context,
                                                                                 const common::JsonObject &entry)
{
    const std::string action = textOf(entry, "action");
    const std::string clientId = textOf(entry, "clientId");
    const std::string groupName = textOf(entry, "group");
    const std::string parent = textOf(entry, "topic");
    if (clientId.empty() || groupName.empty() || parent.empty()) {
        spdlog::info("lite subscription: {} without client id, group or topic skipped", action);
        return std::nullopt;
    }
    std::vector<std::string> lmqs;
    if (const common::JsonValue *topics = entry.find("liteTopicSet"); topics && topics->isArray()) {
        for (const common::JsonValue &topic : topics->asArray()) {
            if (topic.isString()) {
                if (std::string lmq = liteQueueName(parent, topic.asString()); !lmq.empty())
                    lmqs.push_back(std::move(lmq));
            }
        }
    }
    const auto group = broker_.subscriptionGroups().findSubscriptionGroupConfig(groupName);
    const int64_t now = common::wallMillis();
    const bool adding = action == "PARTIAL_ADD" || action == "COMPLETE_ADD";
    if (adding && (!group || !group->consumeEnable))
        return std::pair{ResponseCode::kIllegalOperation, std::string("Consumer group is not allowed to consume.")};
    const auto attribute = [&](const char *key) -> std::string {
        const std::string *value = group ? groupAttribute(*group, key) : nullptr;
        return value ? *value : std::string();
    };
    if (action == "PARTIAL_ADD") {
        if (group && groupAttribute(*group, "lite.sub.wildcard"))
            return std::pair{ResponseCode::kIllegalOperation,
                             std::string("wildcard lite group does not support partial add: ") + groupName};
        std::vector<std::string> added;
        std::vector<LiteSubscriptions::Evicted> evicted;
        if (!liteSubscriptions_->add(clientId, groupName, parent, lmqs, attribute("lite.sub.model") == "Exclusive",
                                     context, now, added, evicted))
            return std::pair{ResponseCode::kLiteSubscriptionQuotaExceeded,
                             "lite subscription quota exceeded " + std::to_string(broker_.brokerConfig().maxLiteSubscriptionCount)};
        for (const LiteSubscriptions::Evicted &out : evicted)
            notifyLiteUnsubscribed(out, parent, attribute("lite.sub.reset.offset.exclusive") == "true");
        if (const common::JsonValue *option = entry.find("offsetOption"); option && option->isObject()) {
            const std::string type = textOf(option->asObject(), "type");
            const auto value = remoting::parseJavaLong(textOf(option->asObject(), "value"));
            for (const std::string &lmq : lmqs)
                applyLiteOffsetOption(groupName, lmq, type, value.value_or(0));
        }
        if (!lmqs.empty())
            polling_->notifyMessageArriving(liteClientKey(clientId), 0);
    } else if (action == "PARTIAL_REMOVE") {
        const std::vector<std::string> removed = liteSubscriptions_->remove(clientId, lmqs, now);
        if (attribute("lite.sub.reset.offset.unsubscribe") == "true") {
            for (const std::string &lmq : removed)
                resetLiteOffset(groupName, lmq, 0);
        }
    } else if (action == "COMPLETE_ADD" && group && groupAttribute(*group, "lite.sub.wildcard")) {
        liteSubscriptions_->replaceWildcard(clientId, groupName, parent, context, now);
        polling_->notifyMessageArriving(liteClientKey(clientId), 0);
    } else if (action == "COMPLETE_ADD") {
        bool refused = false;
        if (!liteSubscriptions_->replace(clientId, groupName, parent, lmqs, context, now, refused).empty())
            polling_->notifyMessageArriving(liteClientKey(clientId), 0);
        if (refused)
            return std::pair{ResponseCode::kLiteSubscriptionQuotaExceeded,
                             "lite subscription quota exceeded " + std::to_string(broker_.brokerConfig().maxLiteSubscriptionCount)};
    } else if (action == "COMPLETE_REMOVE") {
        removeLiteClient(clientId);
    } else {
        return std::pair{ResponseCode::kSystemError, "unknown lite subscription action: " + action};
    }
    return std::nullopt;
}

void PopService::removeLiteClient(const std::string &clientId)
{
    const auto client = liteSubscriptions_->client(clientId);
    if (!client || !liteSubscriptions_->removeClient(clientId))
        return;
    // What it held is for the group's other clients now.
    for (const std::string &lmq : client->lmqs)
        wakeLiteClients(lmq, client->group);
}

void PopService::notifyLiteUnsubscribed(const LiteSubscriptions::Evicted &evicted, const std::string &parent,
                                        bool resetOffset)
{
    if (resetOffset)
        resetLiteOffset(evicted.group, evicted.lmq, 0);
    RemotingCommand notify = RemotingCommand::createRequest(RequestCode::kNotifyUnsubscribeLite);
    remoting::setField(notify.extFields, "liteTopic", liteTopicOf(evicted.lmq, parent));
    remoting::setField(notify.extFields, "consumerGroup", evicted.group);
    remoting::setField(notify.extFields, "clientId", evicted.clientId);
    if (!evicted.channel.sendOneway(std::move(notify)))
        spdlog::info("lite subscription: client {} was taken off {} but its connection is gone", evicted.clientId,
                     evicted.lmq);
}

void PopService::expireLiteSubscriptions()
{
    const int64_t timeout = broker_.brokerConfig().liteSubscriptionCheckTimeoutMills;
    for (const std::string &clientId : liteSubscriptions_->expire(common::wallMillis() - timeout))
        spdlog::info("lite subscription: client {} sent no subscription for {} ms, forgotten", clientId, timeout);
}

} // namespace mqdesk::server::pop
