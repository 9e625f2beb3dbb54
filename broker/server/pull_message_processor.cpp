#include "broker/server/pull_message_processor.h"

#include "broker/common/clock.h"
#include "broker/common/java_strings.h"
#include "broker/remoting/net/remoting_channel.h"
#include "broker/remoting/net/processor_executor.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/broker_controller.h"
#include "broker/server/send_msg_back_processor.h"
#include "broker/server/broker_stats.h"
#include "broker/server/consumer_manager.h"
#include "broker/server/pull_request_hold_service.h"
#include "broker/server/sql_filter_cache.h"
#include "broker/server/static_topic_queue.h"
#include "broker/server/topic_manager.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/subscription_group_manager.h"
#include "broker/store/message_store.h"

#include <spdlog/spdlog.h>

namespace mqdesk::server {

using remoting::HeaderReader;
using remoting::RemotingCommand;
using remoting::ResponseCode;
using remoting::SubscriptionData;
using store::GetMessageStatus;

namespace {

// PullSysFlag bits.
constexpr int32_t kFlagCommitOffset = 1;
constexpr int32_t kFlagSuspend = 2;
constexpr int32_t kFlagSubscription = 4;

constexpr int kMaxMessagesPerPull = 65536;
// ali-ons closes its connection when a pull is not answered within 30 s; never hold near that.
constexpr int64_t kMaxHoldMillis = 20000;

struct PullHeader
{
    std::string consumerGroup;
    std::string topic;
    int32_t queueId = 0;
    int64_t queueOffset = 0;
    int32_t maxMsgNums = 32;
    int32_t sysFlag = 0;
    int64_t commitOffset = 0;
    int64_t suspendTimeoutMillis = 15000;
    std::string subscription;
    int64_t subVersion = 0;
    std::string expressionType;
};

bool readPullHeader(const RemotingCommand &request, PullHeader &header, std::string &error)
{
    HeaderReader reader(request.extFields);
    header.consumerGroup = reader.requireGroup("consumerGroup");
    header.topic = reader.requireTopic("topic");
    header.queueId = reader.requireInt32("queueId");
    header.queueOffset = reader.requireInt64("queueOffset");
    header.maxMsgNums = reader.requireInt32("maxMsgNums");
    header.sysFlag = reader.requireInt32("sysFlag");
    header.commitOffset = reader.requireInt64("commitOffset");
    header.suspendTimeoutMillis = reader.requireInt64("suspendTimeoutMillis");
    header.subscription = reader.optString("subscription");
    header.subVersion = reader.requireInt64("subVersion");
    header.expressionType = reader.optString("expressionType", remoting::kExpressionTag);
    error = reader.error();
    return reader.ok();
}

// A static topic's pull of offsets another broker holds, forwarded there as Java's broker does
// (never suspended, nothing committed) and answered in logical offsets. The forwarding thread
// waits for the answer (up to forwardTimeout), as Java's does.
RemotingCommand forwardedPull(BrokerController &broker, const RemotingCommand &request, const PullHeader &header,
                              const StaticQueue &logical, const common::LogicQueueMappingItem &item,
                              int64_t physicalOffset)
{
    remoting::ExtFields fields = request.extFields;
    fields.set("queueOffset", std::to_string(physicalOffset));
    fields.set("maxMsgNums", std::to_string(header.maxMsgNums));
    fields.set("sysFlag", std::to_string(header.sysFlag & ~(kFlagSuspend | kFlagCommitOffset)));
    remoting::InvokeResult result = askItemBroker(broker, logical, item, request.code, std::move(fields));
    RemotingCommand response = RemotingCommand::createResponse(request, ResponseCode::kSystemError);
    remoting::setField(response.extFields, "suggestWhichBrokerId", int64_t{0});
    const auto fail = [&](std::string why) {
        response.remark = "static topic " + header.topic + ": " + why;
        remoting::setField(response.extFields, "nextBeginOffset", header.queueOffset);
        remoting::setField(response.extFields, "minOffset", int64_t{0});
        remoting::setField(response.extFields, "maxOffset", int64_t{0});
        return response;
    };
    if (!result.ok())
        return fail(result.errorMessage);
    // Java's RPC client takes a pull's four answers; any other (no permission, no topic there, …)
    // is its exception, answered SYSTEM_ERROR.
    const int32_t code = result.response.code;
    if (code != ResponseCode::kSuccess && code != ResponseCode::kPullNotFound
        && code != ResponseCode::kPullRetryImmediately && code != ResponseCode::kPullOffsetMoved)
        return fail("broker " + item.bname + " answered " + std::to_string(code) + " "
                    + result.response.remark.value_or(""));
    const auto offsetOf = [&](std::string_view key) {
        const std::string *value = result.response.extFields.find(key);
        return value ? common::parseJavaLong(*value).value_or(0) : 0;
    };
    const StaticPullAnswer answer = staticPullAnswer(logical, item, physicalOffset, code,
                                                     offsetOf("nextBeginOffset"), offsetOf("minOffset"),
                                                     offsetOf("maxOffset"));
    response.code = answer.code;
    if (answer.code == ResponseCode::kSuccess) {
        response.remark = result.response.remark;
        response.body = std::move(result.response.body);
    } else {
        response.remark.reset();
    }
    remoting::setField(response.extFields, "nextBeginOffset", answer.nextBeginOffset);
    remoting::setField(response.extFields, "minOffset", answer.minOffset);
    remoting::setField(response.extFields, "maxOffset", answer.maxOffset);
    remoting::setField(response.extFields, "offsetDelta", answer.offsetDelta);
    return response;
}

} // namespace

void PullMessageProcessor::process(const remoting::RequestContext &context, RemotingCommand request,
                                   remoting::Responder respond)
{
    processRequest(context, request, respond, true);
}

void PullMessageProcessor::rerun(HeldPull pull)
{
    auto shared = std::make_shared<HeldPull>(std::move(pull));
    const bool queued = broker_.pullExecutor().tryExecute([this, shared] {
        processRequest(shared->context, shared->request, shared->respond, false);
    });
    if (!queued)
        shared->respond(RemotingCommand::createResponse(shared->request, ResponseCode::kSystemBusy,
                                                        "[OVERLOAD]system busy, start flow control for a while"));
}

void PullMessageProcessor::processRequest(const remoting::RequestContext &context, RemotingCommand &request,
                                          remoting::Responder &respond, bool allowSuspend)
{
    RemotingCommand response = RemotingCommand::createResponse(request, ResponseCode::kSystemError);
    // Clients read all four unconditionally (ali-ons turns a missing one into NaN).
    const auto answer = [&](int32_t code, std::optional<std::string> remark, int64_t next, int64_t min, int64_t max) {
        response.code = code;
        response.remark = std::move(remark);
        remoting::setField(response.extFields, "suggestWhichBrokerId", int64_t{0});
        remoting::setField(response.extFields, "nextBeginOffset", next);
        remoting::setField(response.extFields, "minOffset", min);
        remoting::setField(response.extFields, "maxOffset", max);
        respond(std::move(response));
    };
    PullHeader header;
    std::string error;
    if (!readPullHeader(request, header, error))
        return answer(ResponseCode::kSystemError, error, 0, 0, 0);
    const int64_t requested = header.queueOffset;
    const auto refuse = [&](int32_t code, std::string remark) { answer(code, std::move(remark), requested, 0, 0); };

    const BrokerConfig &config = broker_.brokerConfig();
    if ((config.brokerPermission & 4) == 0)
        return refuse(ResponseCode::kNoPermission, "the broker[" + broker_.brokerAddress() + "] pulling message is forbidden");

    const auto group = findOrCreateSubscriptionGroup(broker_, header.consumerGroup);
    if (!group)
        return refuse(ResponseCode::kSubscriptionGroupNotExist,
                      "subscription group [" + header.consumerGroup + "] does not exist");
    if (!group->consumeEnable)
        return refuse(ResponseCode::kNoPermission, "subscription group no permission, " + header.consumerGroup);

    const auto topic = broker_.topics().find(header.topic);
    if (!topic)
        return refuse(ResponseCode::kTopicNotExist, "topic[" + header.topic + "] not exist, apply first please!");
    if ((topic->perm & store::perm::kRead) == 0)
        return refuse(ResponseCode::kNoPermission, "the topic[" + header.topic + "] pulling message is forbidden");
    // A static topic's logical queue and offset become the physical ones of the item holding
    // the offset (Java's rewriteRequestForStaticTopic); the answer is made logical again below.
    const StaticQueue logical = StaticQueue::of(broker_.queueMappings(), request, header.topic, header.queueId);
    std::optional<common::LogicQueueMappingItem> readItem;
    int64_t physicalOffset = requested;
    if (logical.isStatic()) {
        if (!logical.isLeader())
            return refuse(ResponseCode::kNotLeaderForQueue, logical.notLeaderRemark());
        const common::LogicQueueMappingItem *holding = logical.itemHolding(requested);
        if (!holding)
            return refuse(ResponseCode::kSystemError, logical.noItemRemark());
        readItem = *holding;
        header.queueId = readItem->queueId;
        physicalOffset = readItem->physicalOffset(requested);
        if (readItem->endOffsetDecided())
            header.maxMsgNums = static_cast<int32_t>(
                std::min<int64_t>(readItem->endOffset - readItem->startOffset, header.maxMsgNums));
        if (!logical.isLocal(*readItem))
            return respond(forwardedPull(broker_, request, header, logical, *readItem, physicalOffset));
    }
    if (header.queueId < 0 || header.queueId >= topic->readQueueNums)
        return refuse(ResponseCode::kSystemError, "queueId[" + std::to_string(header.queueId) + "] is illegal, topic:["
                                                      + header.topic + "] topicConfig.readQueueNums:["
                                                      + std::to_string(topic->readQueueNums) + "] consumer:["
                                                      + context.peerAddress() + "]");

    SubscriptionData subscription;
    if (header.sysFlag & kFlagSubscription) {
        subscription = SubscriptionData::build(header.topic, header.subscription, header.expressionType);
        subscription.subVersion = header.subVersion;
    } else {
        const auto consumerGroup = broker_.consumers().group(header.consumerGroup);
        if (!consumerGroup)
            return refuse(ResponseCode::kSubscriptionNotExist,
                          "the consumer's group info not exist, group: " + header.consumerGroup);
        if (consumerGroup->messageModel == "BROADCASTING" && !group->consumeBroadcastEnable)
            return refuse(ResponseCode::kNoPermission,
                          "the consumer group[" + header.consumerGroup + "] can not consume by broadcast way");
        const auto registered = broker_.consumers().findSubscription(header.consumerGroup, header.topic);
        if (!registered)
            return refuse(ResponseCode::kSubscriptionNotExist, "the consumer's subscription not exist, group: "
                                                                   + header.consumerGroup + " topic: " + header.topic);
        if (registered->subVersion < header.subVersion)
            return refuse(ResponseCode::kSubscriptionNotLatest, "the consumer's subscription not latest");
        subscription = *registered;
    }
    // An SQL92 subscription (RocketMQ's ExpressionMessageFilter without the bloom filter): the
    // compiled expression of the group's subscription, or of the header's when the sysFlag says
    // so, judged on each record's properties; tag subscriptions stay on the consume queue's codes.
    std::shared_ptr<const filter::SqlExpression> sql;
    if (!subscription.isTagType()) {
        if (!config.enablePropertyFilter)
            return refuse(ResponseCode::kSystemError, "The broker does not support consumer to filter message by "
                                                          + subscription.expressionType);
        const SqlFilterCache::Compiled compiled =
            broker_.sqlFilters().get(header.consumerGroup, header.topic, subscription.subVersion,
                                     subscription.expressionType, subscription.subString);
        if (!compiled.expression) {
            spdlog::warn("pull: the {} subscription of group {} to {} does not compile: {}", subscription.expressionType,
                         header.consumerGroup, header.topic, compiled.error);
            if (header.sysFlag & kFlagSubscription)
                return refuse(ResponseCode::kSubscriptionParseFailed, "parse the consumer's subscription failed");
            return refuse(ResponseCode::kFilterDataNotExist,
                          "The broker's consumer filter data is not exist!Your expression may be wrong!");
        }
        sql = compiled.expression;
    }

    // A reset done on the broker (useServerSideResetOffset) moves the group's next pull of the
    // queue there: PULL_OFFSET_MOVED to the reset offset, and the client's piggy-backed commit of
    // its old position is dropped (Java's queryThenEraseResetOffset).
    if (config.useServerSideResetOffset) {
        if (const auto reset = broker_.offsets().takeResetOffset(header.consumerGroup, header.topic, header.queueId)) {
            spdlog::info("pull: the queue {} {} under pulling by {} was previously reset to start from {}",
                         header.topic, header.queueId, header.consumerGroup, *reset);
            broker_.pullOffsets().commit(header.consumerGroup, header.topic, header.queueId, *reset);
            return answer(ResponseCode::kPullOffsetMoved, std::nullopt, *reset,
                          broker_.store().minOffsetInQueue(header.topic, header.queueId),
                          broker_.store().maxOffsetInQueue(header.topic, header.queueId));
        }
    }

    store::GetMessageOptions options;
    options.rawRecords = true;
    options.transferLimits = store::transferLimitsOf(broker_.settings()->store);
    if (!subscription.subscribesAll())
        options.tagsFilter = [&subscription](int64_t code) { return subscription.matchesTagsCode(code); };
    if (sql)
        options.propertiesFilter = [&sql](const common::MessageProperties &properties) {
            return sql->matches(MessagePropertiesContext(properties));
        };
    // The request's own maximum, then the store's maxTransfer* limits (Java clamps nothing else;
    // a bound keeps the store's scan of maxCount × 16 entries an int).
    const int maxCount = std::clamp(header.maxMsgNums, 1, kMaxMessagesPerPull);
    store::GetMessageResult result =
        broker_.store().getMessage(header.topic, header.queueId, physicalOffset, maxCount, options);

    int32_t code = ResponseCode::kSystemError;
    int64_t next = result.nextBeginOffset;
    switch (result.status) {
    case GetMessageStatus::Found: code = ResponseCode::kSuccess; break;
    case GetMessageStatus::NoMatchedMessage:
    case GetMessageStatus::MessageWasRemoving: code = ResponseCode::kPullRetryImmediately; break;
    case GetMessageStatus::OffsetOverflowOne:
    case GetMessageStatus::OffsetFoundNull: code = ResponseCode::kPullNotFound; break;
    case GetMessageStatus::NoMatchedLogicQueue:
    case GetMessageStatus::NoMessageInQueue:
        code = physicalOffset == 0 ? ResponseCode::kPullNotFound : ResponseCode::kPullOffsetMoved;
        next = 0;
        break;
    case GetMessageStatus::OffsetTooSmall:
    case GetMessageStatus::OffsetOverflowBadly: code = ResponseCode::kPullOffsetMoved; break;
    }
    if (code == ResponseCode::kPullOffsetMoved)
        spdlog::info("pull: offset moved, group {} topic {} queue {}: requested {}, next {} (min {}, max {})",
                     header.consumerGroup, header.topic, header.queueId, requested, next, result.minOffset,
                     result.maxOffset);

    // Where this pull ended (Java commitPullOffset): consumerProgress's in-flight figures.
    broker_.pullOffsets().commit(header.consumerGroup, header.topic, header.queueId, next);

    // The piggy-backed commit, first pass only. A negative offset means "none" (ali-ons sends -1
    // for untouched queues) and never replaces a real one.
    if (allowSuspend && (header.sysFlag & kFlagCommitOffset) && header.commitOffset >= 0)
        broker_.offsets().commitOffset(context.peerAddress(), header.consumerGroup, header.topic, header.queueId,
                                       header.commitOffset);

    int64_t minOffset = result.minOffset;
    int64_t maxOffset = result.maxOffset;
    std::optional<std::string> remark = std::string(store::getStatusName(result.status));
    if (readItem) {
        const StaticPullAnswer answered =
            staticPullAnswer(logical, *readItem, physicalOffset, code, next, minOffset, maxOffset);
        if (answered.code != ResponseCode::kSuccess)
            remark.reset(); // Java answers a new header-only command
        code = answered.code;
        next = answered.nextBeginOffset;
        minOffset = answered.minOffset;
        maxOffset = answered.maxOffset;
        remoting::setField(response.extFields, "offsetDelta", answered.offsetDelta);
    }

    if (code == ResponseCode::kPullNotFound && allowSuspend && (header.sysFlag & kFlagSuspend)) {
        HeldPull held;
        held.context = context;
        held.request = std::move(request);
        held.respond = std::move(respond);
        held.topic = header.topic;
        held.queueId = header.queueId;
        held.pullFromOffset = physicalOffset;
        held.suspendMillis = common::steadyMicros() / 1000;
        held.timeoutMillis = config.longPollingEnable ? std::min(header.suspendTimeoutMillis, kMaxHoldMillis)
                                                      : config.shortPollingTimeMills;
        held.subscription = std::move(subscription);
        broker_.pullHold().suspend(std::move(held));
        return;
    }

    if (code == ResponseCode::kSuccess) {
        broker_.stats().addGet(header.consumerGroup, header.topic, header.queueId, result.messageCount,
                               static_cast<int64_t>(result.recordBytes.size()));
        response.body = std::move(result.recordBytes);
    } else {
        broker_.stats().addGetMiss();
    }
    answer(code, std::move(remark), next, minOffset, maxOffset);
}

} // namespace mqdesk::server
