// ACK_MESSAGE, BATCH_ACK_MESSAGE and CHANGE_MESSAGE_INVISIBLETIME (Java's AckMessageProcessor and
// ChangeInvisibleTimeProcessor): an ACK (or a new CK and an ACK of the old one) into the revive
// topic; for FIFO handles (reviveQid 999) the order table and the committed offset instead.

#include "broker/server/pop/consumer_order_info_manager.h"
#include "broker/server/pop/pop_long_polling.h"
#include "broker/server/pop/pop_records.h"
#include "broker/server/pop/pop_service.h"

#include "broker/common/clock.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/protocol/topic_attributes.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/broker_controller.h"
#include "broker/server/topic_manager.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/subscription_group_manager.h"
#include "broker/store/message_store.h"

#include <spdlog/spdlog.h>

namespace mqdesk::server::pop {

using remoting::HeaderReader;
using remoting::RemotingCommand;
using remoting::ResponseCode;

namespace {

constexpr int32_t kMaxBatchAckBits = 1024;

struct AckHeader
{
    std::string group;
    std::string topic;
    int32_t queueId = 0;
    std::string extraInfo;
    int64_t offset = 0;
    int64_t invisibleTime = 0; // CHANGE_MESSAGE_INVISIBLETIME only
    std::string liteTopic;     // RocketMQ 5.5: set for a lite topic's message (offset is the LMQ's)
    bool suspend = false;      // CHANGE_MESSAGE_INVISIBLETIME of a lite message only
};

bool readAckHeader(const RemotingCommand &request, bool withInvisibleTime, AckHeader &header, std::string &error)
{
    HeaderReader reader(request.extFields);
    header.group = reader.requireGroup("consumerGroup");
    header.topic = reader.requireTopic("topic");
    header.queueId = reader.requireInt32("queueId");
    header.extraInfo = reader.requireString("extraInfo");
    header.offset = reader.requireInt64("offset");
    if (withInvisibleTime) {
        header.invisibleTime = reader.requireInt64("invisibleTime");
        header.suspend = reader.optBool("suspend", false);
    }
    header.liteTopic = reader.optString("liteTopic");
    error = reader.error();
    return reader.ok();
}

// The ACK of the message `header` names, against the CK its handle `info` points at.
AckMessage ackOf(const AckHeader &header, const ExtraInfo &info)
{
    AckMessage ack;
    ack.ackOffsets = {header.offset};
    ack.startOffset = info.ckStartOffset;
    ack.consumerGroup = header.group;
    ack.topic = header.topic;
    ack.queueId = header.queueId;
    ack.popTime = info.popTime;
    ack.brokerName = info.brokerName;
    return ack;
}

} // namespace

// The checks ACK and CHANGE_INVISIBLE share: an answer when refused.
static std::optional<RemotingCommand> checkAckTarget(BrokerController &broker, const RemotingCommand &request,
                                                     const AckHeader &header, bool offsetMustBeBelowMax)
{
    const auto topic = broker.topics().find(header.topic);
    if (!topic)
        return RemotingCommand::createResponse(request, ResponseCode::kTopicNotExist,
                                               "topic[" + header.topic + "] not exist, apply first please!");
    if (header.queueId < 0 || header.queueId >= topic->readQueueNums)
        return RemotingCommand::createResponse(request, ResponseCode::kMessageIllegal,
                                               "queueId[" + std::to_string(header.queueId) + "] is illegal, topic:["
                                                   + header.topic + "] topicConfig.readQueueNums:["
                                                   + std::to_string(topic->readQueueNums) + "]");
    const int64_t min = broker.store().minOffsetInQueue(header.topic, header.queueId);
    const int64_t max = broker.store().maxOffsetInQueue(header.topic, header.queueId);
    if (header.offset < min || header.offset > max || (offsetMustBeBelowMax && header.offset == max))
        return RemotingCommand::createResponse(request, ResponseCode::kNoMessage,
                                               "offset is illegal, key:" + header.topic + "@"
                                                   + std::to_string(header.queueId) + ", offset:"
                                                   + std::to_string(header.offset) + ", min:" + std::to_string(min)
                                                   + ", max:" + std::to_string(max));
    return std::nullopt;
}

void PopService::ack(const remoting::RequestContext &, RemotingCommand request, remoting::Responder respond)
{
    AckHeader header;
    std::string error;
    if (!readAckHeader(request, false, header, error))
        return respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError, error));
    if (!header.liteTopic.empty())
        return ackLite(request, header.group, header.topic, header.queueId, header.offset, header.extraInfo,
                       header.liteTopic, respond);
    if (auto refusal = checkAckTarget(broker_, request, header, false))
        return respond(std::move(*refusal));
    const auto info = ExtraInfo::parse(header.extraInfo, error);
    if (!info)
        return respond(RemotingCommand::createResponse(request, ResponseCode::kInvalidParameter, error));
    if (info->reviveQid == kOrderReviveQid) {
        ackOrderly(header.topic, header.group, header.queueId, header.offset, info->popTime);
        return respond(RemotingCommand::createResponse(request, ResponseCode::kSuccess));
    }
    const store::PutMessageResult put = putAck(ackOf(header, *info), info->reviveQid, info->popTime + info->invisibleTime);
    // Java answers SUCCESS whatever the put did (and logs it); the message then comes back.
    if (!put.stored())
        spdlog::warn("ack: the ack of {}@{} offset {} (group {}) was not stored: {}", header.topic, header.queueId,
                     header.offset, header.group, put.error);
    respond(RemotingCommand::createResponse(request, ResponseCode::kSuccess));
}

void PopService::ackOrderly(const std::string &topic, const std::string &group, int32_t queueId, int64_t offset,
                            int64_t popTime)
{
    if (offset < broker_.offsets().queryOffset(group, topic, queueId))
        return; // acked before
    const auto commit = orderInfo_->ack(topic, group, queueId, offset, popTime);
    if (!commit)
        return;
    broker_.offsets().commitOffset("AckMessageProcessor", group, topic, queueId, *commit);
    // A FIFO pop waiting on this queue may go on.
    polling_->notifyMessageArriving(topic, queueId);
}

void PopService::batchAck(const remoting::RequestContext &, RemotingCommand request, remoting::Responder respond)
{
    const std::string body(request.body.begin(), request.body.end());
    const common::JsonParseResult parsed = common::parseJson(body);
    const common::JsonValue *acks = parsed.ok() && parsed.value.isObject() ? parsed.value.asObject().find("acks") : nullptr;
    if (acks == nullptr || !acks->isArray() || acks->asArray().empty())
        return respond(RemotingCommand::createResponse(request, ResponseCode::kNoMessage,
                                                       parsed.ok() ? "batch ack body has no acks"
                                                                   : "batch ack body is not JSON: " + parsed.error));
    const common::JsonValue *brokerName = parsed.value.asObject().find("brokerName");
    const auto text = [](const common::JsonObject &object, const char *shortName, const char *longName) -> std::string {
        const common::JsonValue *value = object.find(shortName);
        if (value == nullptr)
            value = object.find(longName);
        if (value == nullptr || value->isNull())
            return {};
        return value->isString() ? value->asString() : std::to_string(value->asInteger());
    };
    for (const common::JsonValue &entry : acks->asArray()) {
        if (!entry.isObject())
            continue;
        const common::JsonObject &object = entry.asObject();
        const auto number = [&](const char *shortName, const char *longName) {
            return remoting::parseJavaLong(text(object, shortName, longName));
        };
        const std::string group = text(object, "c", "consumerGroup");
        const std::string retry = text(object, "r", "retry");
        const auto startOffset = number("so", "startOffset");
        const auto queueId = number("q", "queueId");
        const auto reviveQid = number("rq", "reviveQueueId");
        const auto popTime = number("pt", "popTime");
        const auto invisibleTime = number("it", "invisibleTime");
        std::string bitError;
        const std::vector<int32_t> bits = decodeBitSet(text(object, "b", "bitSet"), bitError);
        if (group.empty() || !startOffset || !queueId || !reviveQid || !popTime || !invisibleTime || !bitError.empty()
            || !isMillis(*popTime) || !isMillis(*invisibleTime) || *startOffset < 0 || *queueId < 0
            || *queueId > INT32_MAX || *reviveQid < 0 || *reviveQid > INT32_MAX)
            continue;
        const std::string topic = realTopic(retry.empty() ? "0" : retry, text(object, "t", "topic"), group);
        const int32_t qid = static_cast<int32_t>(*queueId);
        const int64_t min = broker_.store().minOffsetInQueue(topic, qid);
        const int64_t max = broker_.store().maxOffsetInQueue(topic, qid);
        AckMessage ackMessage;
        ackMessage.batch = true;
        for (int32_t bit : bits) {
            if (bit >= kMaxBatchAckBits)
                break; // a CK holds at most 32 messages; more bits are noise, not work
            const int64_t offset = *startOffset + bit;
            if (offset >= min && offset <= max)
                ackMessage.ackOffsets.push_back(offset);
        }
        if (ackMessage.ackOffsets.empty())
            continue;
        if (*reviveQid == kOrderReviveQid) {
            for (int64_t offset : ackMessage.ackOffsets)
                ackOrderly(topic, group, qid, offset, *popTime);
            continue;
        }
        ackMessage.startOffset = *startOffset;
        ackMessage.consumerGroup = group;
        ackMessage.topic = topic;
        ackMessage.queueId = qid;
        ackMessage.popTime = *popTime;
        ackMessage.brokerName = brokerName && brokerName->isString() ? brokerName->asString()
                                                                      : broker_.brokerConfig().brokerName;
        const store::PutMessageResult put =
            putAck(ackMessage, static_cast<int32_t>(*reviveQid), *popTime + *invisibleTime);
        if (!put.stored())
            spdlog::warn("batch ack: the ack of {}@{} (group {}) was not stored: {}", topic, qid, group, put.error);
    }
    respond(RemotingCommand::createResponse(request, ResponseCode::kSuccess));
}

void PopService::changeInvisibleTime(const remoting::RequestContext &, RemotingCommand request,
                                     remoting::Responder respond)
{
    AckHeader header;
    std::string error;
    if (!readAckHeader(request, true, header, error))
        return respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError, error));
    if (!header.liteTopic.empty())
        return changeInvisibleLite(request, header.group, header.topic, header.queueId, header.offset,
                                   header.extraInfo, header.liteTopic, header.invisibleTime, header.suspend, respond);
    if (auto refusal = checkAckTarget(broker_, request, header, true))
        return respond(std::move(*refusal));
    const auto info = ExtraInfo::parse(header.extraInfo, error);
    if (!info)
        return respond(RemotingCommand::createResponse(request, ResponseCode::kInvalidParameter, error));
    const int64_t maxInvisibleMs = broker_.store().config().timerMaxDelaySec * int64_t{1000};
    if (header.invisibleTime < 0 || header.invisibleTime > maxInvisibleMs)
        return respond(RemotingCommand::createResponse(request, ResponseCode::kInvalidParameter,
                                                       "invisibleTime " + std::to_string(header.invisibleTime)
                                                           + " must be between 0 and " + std::to_string(maxInvisibleMs)
                                                           + " ms"));
    const int64_t now = common::wallMillis();
    RemotingCommand response = RemotingCommand::createResponse(request, ResponseCode::kSuccess);
    if (info->reviveQid == kOrderReviveQid) {
        if (!orderInfo_->changeInvisible(header.topic, header.group, header.queueId, header.offset, info->popTime,
                                         now + header.invisibleTime))
            spdlog::info("change invisible: {}@{} offset {} is not held by group {}", header.topic, header.queueId,
                         header.offset, header.group);
        else if (broker_.brokerConfig().enableNotifyAfterPopOrderLockRelease)
            polling_->notifyMessageArriving(header.topic, header.queueId); // parked pops wait for the new time
        remoting::setField(response.extFields, "popTime", info->popTime);
        remoting::setField(response.extFields, "invisibleTime", now + header.invisibleTime - info->popTime);
        remoting::setField(response.extFields, "reviveQid", info->reviveQid);
        return respond(std::move(response));
    }
    // A new one-message CK from now, then the old CK's ack for this message.
    PopCheckPoint ck;
    ck.startOffset = header.offset;
    ck.popTime = now;
    ck.invisibleTime = header.invisibleTime;
    ck.num = 1;
    ck.queueId = header.queueId;
    ck.topic = header.topic;
    ck.cid = header.group;
    ck.brokerName = info->brokerName;
    ck.queueOffsetDiff = {0};
    const store::PutMessageResult put = putCheckpoint(ck, info->reviveQid);
    if (!put.stored())
        return respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError,
                                                       "the new checkpoint was not stored: " + put.error));
    const store::PutMessageResult acked = putAck(ackOf(header, *info), info->reviveQid, info->popTime + info->invisibleTime);
    if (!acked.stored())
        spdlog::warn("change invisible: the ack of the old checkpoint of {}@{} offset {} was not stored: {}",
                     header.topic, header.queueId, header.offset, acked.error);
    remoting::setField(response.extFields, "popTime", now);
    remoting::setField(response.extFields, "invisibleTime", header.invisibleTime);
    remoting::setField(response.extFields, "reviveQid", info->reviveQid);
    respond(std::move(response));
}

// The lite ack (Java's AckMessageProcessor.ackLite): the parent's checks, then the LMQ's. The
// offset is the LMQ's; the group's offset moves past what it acked in order, and the lite topic
// is readable again for the group's clients. An ack of a batch that was handed out again since
// (another popTime) changes nothing and answers SUCCESS, as Java's; after a restart (no batch
// held) it commits past the acked message, as Java's.
void PopService::ackLite(RemotingCommand &request, const std::string &group, const std::string &topic,
                         int32_t queueId, int64_t offset, const std::string &extraInfo, const std::string &liteTopic,
                         remoting::Responder &respond)
{
    const auto answer = [&](int32_t code, std::string remark) {
        respond(RemotingCommand::createResponse(request, code, std::move(remark)));
    };
    std::string error;
    const auto info = ExtraInfo::parse(extraInfo, error);
    const std::string lmq = liteQueueName(topic, liteTopic);
    if (auto refusal = checkLiteAck(group, topic, queueId, offset, info ? info->reviveQid : -1, lmq))
        return answer(refusal->first, std::move(refusal->second));
    if (!info)
        return answer(ResponseCode::kInvalidParameter, error);
    if (offset < broker_.offsets().queryOffset(group, lmq, 0))
        return answer(ResponseCode::kSuccess, {}); // acked before
    std::optional<int64_t> next = liteOrderInfo_->ack(lmq, group, 0, offset, info->popTime);
    if (!next && !liteOrderInfo_->holds(lmq, group, 0))
        next = offset + 1;
    if (next && !broker_.offsets().hasOffsetReset(group, lmq, 0)) {
        broker_.offsets().commitOffset("AckMessageProcessor", group, lmq, 0, *next);
        wakeLiteClients(lmq, group);
    }
    answer(ResponseCode::kSuccess, {});
}

void PopService::changeInvisibleLite(RemotingCommand &request, const std::string &group, const std::string &topic,
                                     int32_t queueId, int64_t offset, const std::string &extraInfo,
                                     const std::string &liteTopic, int64_t invisibleTime, bool suspend,
                                     remoting::Responder &respond)
{
    const auto refuse = [&](int32_t code, std::string remark) {
        respond(RemotingCommand::createResponse(request, code, std::move(remark)));
    };
    std::string error;
    const auto info = ExtraInfo::parse(extraInfo, error);
    const std::string lmq = liteQueueName(topic, liteTopic);
    if (auto refusal = checkLiteAck(group, topic, queueId, offset, info ? info->reviveQid : -1, lmq))
        return refuse(refusal->first, std::move(refusal->second));
    if (!info)
        return refuse(ResponseCode::kInvalidParameter, error);
    const int64_t maxInvisibleMs = broker_.store().config().timerMaxDelaySec * int64_t{1000};
    if (invisibleTime < 0 || invisibleTime > maxInvisibleMs)
        return refuse(ResponseCode::kInvalidParameter, "invisibleTime " + std::to_string(invisibleTime)
                                                           + " must be between 0 and " + std::to_string(maxInvisibleMs)
                                                           + " ms");
    const int64_t now = common::wallMillis();
    RemotingCommand response = RemotingCommand::createResponse(request, ResponseCode::kSuccess);
    if (offset >= broker_.offsets().queryOffset(group, lmq, 0)) {
        const bool changed = suspend ? liteOrderInfo_->suspend(lmq, group, 0, info->popTime, now + invisibleTime)
                                     : liteOrderInfo_->changeInvisible(lmq, group, 0, offset, info->popTime,
                                                                       now + invisibleTime);
        if (changed)
            wakeLiteClients(lmq, group); // parked pops wait for the new visible time instead
    }
    remoting::setField(response.extFields, "popTime", info->popTime);
    remoting::setField(response.extFields, "invisibleTime", now + invisibleTime - info->popTime);
    remoting::setField(response.extFields, "reviveQid", kOrderReviveQid);
    respond(std::move(response));
}

std::optional<std::pair<int32_t, std::string>> PopService::checkLiteAck(const std::string &groupName,
                                                                        const std::string &topicName, int32_t queueId,
                                                                        int64_t offset, int32_t reviveQid,
                                                                        const std::string &lmq)
{
    const auto topic = broker_.topics().find(topicName);
    if (!topic)
        return std::pair{ResponseCode::kTopicNotExist, "topic[" + topicName + "] not exist, apply first please!"};
    if (queueId < 0 || queueId >= topic->readQueueNums)
        return std::pair{ResponseCode::kMessageIllegal, "queueId[" + std::to_string(queueId) + "] is illegal, topic:["
                                                            + topicName + "] topicConfig.readQueueNums:["
                                                            + std::to_string(topic->readQueueNums) + "]"};
    const auto group = broker_.subscriptionGroups().findSubscriptionGroupConfig(groupName);
    const std::string *bound = group ? groupAttribute(*group, remoting::kLiteBindTopicAttribute) : nullptr;
    if (bound == nullptr || *bound != topicName)
        return std::pair{ResponseCode::kInvalidParameter, "subscription bind topic not match, " + groupName};
    const int64_t max = broker_.store().maxOffsetInQueue(lmq, 0);
    if (offset < 0 || offset > max)
        return std::pair{ResponseCode::kNoMessage, "offset is illegal, key:" + lmq + "@0, offset:"
                                                       + std::to_string(offset) + ", max:" + std::to_string(max)};
    if (queueId != 0 || reviveQid != kOrderReviveQid)
        return std::pair{ResponseCode::kInvalidParameter, std::string("ack queue illegal.")};
    return std::nullopt;
}

} // namespace mqdesk::server::pop
