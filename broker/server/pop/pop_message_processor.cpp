// POP_MESSAGE, PEEK_MESSAGE, NOTIFICATION and POLLING_INFO (Java's PopMessageProcessor,
// PeekMessageProcessor, NotificationProcessor, PollingInfoProcessor), non-FIFO and FIFO.

#include "broker/server/pop/consumer_order_info_manager.h"
#include "broker/server/pop/pop_long_polling.h"
#include "broker/server/pop/pop_records.h"
#include "broker/server/pop/pop_service.h"

#include "broker/common/clock.h"
#include "broker/common/record_codec.h"
#include "broker/remoting/net/processor_executor.h"
#include "broker/remoting/protocol/client_data.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/protocol/topic_attributes.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/broker_controller.h"
#include "broker/server/send_msg_back_processor.h"
#include "broker/server/broker_stats.h"
#include "broker/server/sql_filter_cache.h"
#include "broker/server/topic_manager.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/subscription_group_manager.h"
#include "broker/store/message_store.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <random>

namespace mqdesk::server::pop {

using remoting::HeaderReader;
using remoting::RemotingCommand;
using remoting::ResponseCode;
using store::GetMessageStatus;

namespace {

constexpr int kMaxPopMessages = 32;
constexpr int64_t kMaxBytesPerPop = 256 * 1024;
// ConsumeInitMode.
constexpr int32_t kInitModeMin = 0;
constexpr int32_t kInitModeMax = 1;

struct PopHeader
{
    std::string group;
    std::string topic;
    int32_t queueId = -1;
    int32_t maxMsgNums = 32;
    int64_t invisibleTime = 60000;
    int64_t pollTime = 0;
    int64_t bornTime = 0;
    int32_t initMode = kInitModeMax;
    std::string expType;
    std::string exp;
    bool order = false;
    std::string attemptId;
};

bool readPopHeader(const RemotingCommand &request, PopHeader &header, std::string &error)
{
    HeaderReader reader(request.extFields);
    header.group = reader.requireGroup("consumerGroup");
    header.topic = reader.requireTopic("topic");
    header.queueId = reader.requireInt32("queueId");
    header.maxMsgNums = reader.requireInt32("maxMsgNums");
    header.invisibleTime = reader.requireInt64("invisibleTime");
    header.pollTime = reader.requireInt64("pollTime");
    header.bornTime = reader.optInt64("bornTime", 0);
    header.initMode = reader.requireInt32("initMode");
    header.expType = reader.optString("expType", remoting::kExpressionTag);
    header.exp = reader.optString("exp", remoting::kSubscribeAll);
    header.order = reader.optBool("order", false);
    header.attemptId = reader.optString("attemptId");
    error = reader.error();
    return reader.ok();
}

std::mt19937 &random()
{
    thread_local std::mt19937 generator{std::random_device{}()};
    return generator;
}

// The records handed out by one pop, with the per-queue header strings.
struct PopBatch
{
    std::vector<uint8_t> body;
    int32_t count = 0;
    int64_t restNum = 0;
    std::string startOffsetInfo;
    std::string msgOffsetInfo;
    std::string orderCountInfo;
    GetMessageStatus lastStatus = GetMessageStatus::NoMessageInQueue;
    int64_t wakeAtMs = 0; // FIFO: the earliest a held batch read past turns visible again (wall ms)
};

// The message filter of the pop's subscription; an SQL one compiled through the broker's cache.
struct PopFilter
{
    remoting::SubscriptionData subscription;
    std::shared_ptr<const filter::SqlExpression> sql;

    store::GetMessageOptions options(bool raw) const
    {
        store::GetMessageOptions options;
        options.rawRecords = raw;
        options.maxBytes = kMaxBytesPerPop;
        if (!subscription.subscribesAll() && subscription.isTagType())
            options.tagsFilter = [this](int64_t code) { return subscription.matchesTagsCode(code); };
        if (sql)
            options.propertiesFilter = [this](const common::MessageProperties &properties) {
                return sql->matches(MessagePropertiesContext(properties));
            };
        return options;
    }
};

} // namespace

// One pop, as Java's PopMessageProcessor.processRequest; `deadlineMillis` (steady) is when a
// parked pop must be answered, 0 on the first pass.
class PopRun
{
public:
    PopRun(PopService &service, const PopHeader &header, const PopFilter &filter)
        : service_(service), broker_(service.broker()), header_(header), filter_(filter)
    {}

    // Reads `queueIdOrAll`, or every queue as Java orders them: from the highest id down when
    // priorityOrderAsc (else from 0 up), shifted by `shift` (a roll in 0..99; 0 in priority mode,
    // where the highest priority's queue comes first).
    void popFrom(const std::string &topic, int32_t queueIdOrAll, int64_t popTime, int32_t reviveQid, int32_t shift,
                 PopBatch &batch)
    {
        const auto config = broker_.topics().find(topic);
        if (!config)
            return;
        const int32_t queues = config->readQueueNums;
        if (queueIdOrAll >= 0) {
            popQueue(topic, queueIdOrAll, popTime, reviveQid, batch);
            return;
        }
        const bool descending = broker_.brokerConfig().priorityOrderAsc;
        for (int32_t i = 0; i < queues; ++i)
            popQueue(topic, ((descending ? queues - 1 - i : i) + shift) % queues, popTime, reviveQid, batch);
    }

private:
    int64_t startOffset(const std::string &topic, int32_t queueId)
    {
        store::ConsumerOffsetManager &offsets = broker_.offsets();
        // A broker-side reset is taken by the pop as by a pull (Java: queryThenEraseResetOffset);
        // the offset it committed is where this pop starts.
        offsets.takeResetOffset(header_.group, topic, queueId);
        int64_t offset = offsets.queryOffset(header_.group, topic, queueId);
        if (offset >= 0)
            return offset;
        store::MessageStore &store = broker_.store();
        const int64_t min = store.minOffsetInQueue(topic, queueId);
        const bool fromStart = min <= 0 && broker_.brokerConfig().initPopOffsetByCheckMsgInMem;
        if (header_.initMode == kInitModeMin || isRetryTopic(topic) || fromStart)
            offset = min; // a fresh queue's whole backlog goes to a new group (Java's in-memory check)
        else
            offset = std::max<int64_t>(store.maxOffsetInQueue(topic, queueId) - 1, 0);
        offsets.commitOffset("PopMessageProcessor", header_.group, topic, queueId, offset);
        return offset;
    }

    void popQueue(const std::string &topic, int32_t queueId, int64_t popTime, int32_t reviveQid, PopBatch &batch)
    {
        store::MessageStore &store = broker_.store();
        const std::string lockKey = topic + "@" + header_.group + "@" + std::to_string(queueId);
        const int remaining = header_.maxMsgNums - batch.count;
        if (remaining <= 0 || !service_.tryLockQueue(lockKey)) {
            batch.restNum += std::max<int64_t>(store.maxOffsetInQueue(topic, queueId)
                                                   - std::max<int64_t>(startOffsetPeek(topic, queueId), 0),
                                               0);
            return;
        }
        struct Unlock
        {
            PopService &service;
            const std::string &key;
            ~Unlock() { service.unlockQueue(key); }
        } unlock{service_, lockKey};

        int64_t offset = startOffset(topic, queueId);
        if (header_.order) {
            // Blocked until its popped messages are acked or visible again: when, for the park.
            const int64_t until =
                service_.orderInfo().blockedUntil(topic, header_.group, queueId, header_.attemptId, common::wallMillis());
            if (until > 0) {
                batch.wakeAtMs = batch.wakeAtMs == 0 ? until : std::min(batch.wakeAtMs, until);
                return;
            }
        }
        const bool retry = isRetryTopic(topic);
        store::GetMessageOptions options = filter_.options(!retry);
        options.transferLimits = store::transferLimitsOf(broker_.settings()->store);
        store::GetMessageResult result = store.getMessage(topic, queueId, offset, remaining, options);
        if (result.status == GetMessageStatus::OffsetTooSmall || result.status == GetMessageStatus::OffsetOverflowBadly) {
            spdlog::info("pop: offset of group {} on {} queue {} corrected from {} to {}", header_.group, topic, queueId,
                         offset, result.nextBeginOffset);
            offset = result.nextBeginOffset;
            broker_.offsets().commitOffset("PopMessageProcessor", header_.group, topic, queueId, offset);
            result = store.getMessage(topic, queueId, offset, remaining, options);
        }
        batch.lastStatus = result.status;
        batch.restNum += std::max<int64_t>(result.maxOffset - result.nextBeginOffset, 0);
        if (result.messageCount == 0) {
            // Everything read was filtered out: move past it (Java's mock CK does the same).
            if (result.nextBeginOffset > offset)
                broker_.offsets().commitOffset("PopMessageProcessor", header_.group, topic, queueId,
                                               result.nextBeginOffset);
            return;
        }

        std::vector<int64_t> offsets = result.queueOffsets;
        if (header_.order) {
            batch.count += result.messageCount;
            service_.orderInfo().popped(topic, header_.group, queueId, header_.attemptId, popTime,
                                        header_.invisibleTime, offsets, batch.orderCountInfo);
        } else {
            PopCheckPoint ck;
            ck.startOffset = offset;
            ck.popTime = popTime;
            ck.invisibleTime = header_.invisibleTime;
            ck.num = result.messageCount;
            ck.queueId = queueId;
            ck.topic = topic;
            ck.cid = header_.group;
            ck.brokerName = broker_.brokerConfig().brokerName;
            for (int64_t queueOffset : offsets)
                ck.queueOffsetDiff.push_back(static_cast<int32_t>(queueOffset - offset));
            const store::PutMessageResult put = service_.putCheckpoint(ck, reviveQid);
            if (!put.stored()) {
                spdlog::warn("pop: the checkpoint of group {} on {} queue {} was not stored ({}); nothing handed out",
                             header_.group, topic, queueId, put.error);
                return;
            }
            broker_.offsets().commitOffset("PopMessageProcessor", header_.group, topic, queueId, result.nextBeginOffset);
            batch.count += result.messageCount;
        }
        appendStartOffsetInfo(batch.startOffsetInfo, topic, queueId, offset);
        appendMsgOffsetInfo(batch.msgOffsetInfo, topic, queueId, offsets);
        if (!retry) {
            batch.body.insert(batch.body.end(), result.recordBytes.begin(), result.recordBytes.end());
            return;
        }
        // A retry-topic message goes out under its own topic, with its POP_CK (retry mark 1).
        for (size_t i = 0; i < result.messages.size(); ++i)
            appendRetryRecord(result.messages[i], offset, popTime, reviveQid, batch.body);
    }

    int64_t startOffsetPeek(const std::string &topic, int32_t queueId) const
    {
        return broker_.offsets().queryOffset(header_.group, topic, queueId);
    }

    void appendRetryRecord(const common::StoredMessage &stored, int64_t ckStart, int64_t popTime, int32_t reviveQid,
                           std::vector<uint8_t> &out)
    {
        ExtraInfo info;
        info.ckStartOffset = ckStart;
        info.popTime = popTime;
        info.invisibleTime = header_.invisibleTime;
        info.reviveQid = reviveQid;
        info.retry = retryMark(stored.topic);
        info.brokerName = broker_.brokerConfig().brokerName;
        info.queueId = stored.queueId;
        info.queueOffset = stored.queueOffset;
        common::BrokerMessage message = common::toBrokerMessage(stored);
        if (!message.properties.get(common::property::kPopCk))
            message.properties.set(common::property::kPopCk, info.toString());
        message.topic = header_.topic;
        common::EncodeOptions options;
        options.storeHost = stored.storeHost;
        options.maxBodySize = std::max<int32_t>(static_cast<int32_t>(message.body.size()), 1);
        const size_t at = out.size();
        if (common::encodeRecord(message, message.properties.encode(), options, out) != common::EncodeStatus::Ok) {
            out.resize(at);
            return;
        }
        common::patchQueueOffset(out.data() + at, stored.queueOffset);
        common::patchPhysicalOffset(out.data() + at, stored.physicalOffset);
        common::patchStoreTimestamp(out.data() + at, stored.storeTimestamp);
    }

    PopService &service_;
    BrokerController &broker_;
    const PopHeader &header_;
    const PopFilter &filter_;
};

namespace {

} // namespace

std::optional<std::pair<int32_t, std::string>> PopService::checkPopTarget(const std::string &groupName,
                                                                          const std::string &topicName, int32_t queueId)
{
    BrokerController &broker = broker_;
    const BrokerConfig &config = broker.brokerConfig();
    if ((config.brokerPermission & 4) == 0)
        return std::pair{ResponseCode::kNoPermission, "the broker[" + broker.brokerAddress() + "] pop message is forbidden"};
    if (!broker.store().timerMessageStore())
        return std::pair{ResponseCode::kSystemError, std::string("The broker's timer wheel is disabled: pop needs it "
                                                                 "(timerWheelEnable=false)")};
    const auto topic = broker.topics().find(topicName);
    if (!topic)
        return std::pair{ResponseCode::kTopicNotExist, "topic[" + topicName + "] not exist, apply first please!"};
    if ((topic->perm & store::perm::kRead) == 0)
        return std::pair{ResponseCode::kNoPermission, "the topic[" + topicName + "] peeking message is forbidden"};
    if (queueId >= topic->readQueueNums)
        return std::pair{ResponseCode::kInvalidParameter,
                         "queueId[" + std::to_string(queueId) + "] is illegal, topic:[" + topicName
                             + "] topicConfig.readQueueNums:[" + std::to_string(topic->readQueueNums) + "]"};
    const auto group = findOrCreateSubscriptionGroup(broker_, groupName);
    if (!group)
        return std::pair{ResponseCode::kSubscriptionGroupNotExist, "subscription group [" + groupName + "] does not exist"};
    if (!group->consumeEnable)
        return std::pair{ResponseCode::kNoPermission, "subscription group no permission, " + groupName};
    return std::nullopt;
}

bool PopService::isPriorityTopic(const std::string &topic)
{
    const auto config = broker_.topics().find(topic);
    const std::string *type = config ? config->attributes.find(remoting::kMessageTypeAttribute) : nullptr;
    return type && *type == remoting::kPriorityMessageType;
}

int32_t PopService::priorityFactor(const std::string &groupName)
{
    // The group attribute priority.factor (0..100, 100 when absent or not a number).
    const auto group = broker_.subscriptionGroups().findSubscriptionGroupConfig(groupName);
    const std::string *text = group ? group->attributes.find("priority.factor") : nullptr;
    if (!text)
        return 100;
    int64_t factor = 100;
    const auto [end, status] = std::from_chars(text->data(), text->data() + text->size(), factor);
    return status == std::errc() && end == text->data() + text->size() ? static_cast<int32_t>(std::clamp<int64_t>(factor, 0, 100))
                                                                      : 100;
}


void PopService::pop(const remoting::RequestContext &context, RemotingCommand request, remoting::Responder respond)
{
    processPop(context, request, respond, 0);
}

void PopService::processPop(const remoting::RequestContext &context, RemotingCommand &request,
                            remoting::Responder &respond, int64_t deadlineMillis)
{
    PopHeader header;
    std::string error;
    if (!readPopHeader(request, header, error)) {
        respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError, error));
        return;
    }
    const int64_t now = common::wallMillis();
    if (!isMillis(header.bornTime) || header.bornTime == 0)
        header.bornTime = now; // missing, 0 (Java's "now") or nonsense
    header.pollTime = std::clamp<int64_t>(header.pollTime, 0, kMaxPollMillis);
    const auto refuse = [&](int32_t code, std::string remark) {
        respond(RemotingCommand::createResponse(request, code, std::move(remark)));
    };
    if (deadlineMillis == 0 && now - header.bornTime - header.pollTime > 500)
        return refuse(ResponseCode::kPollingTimeout,
                      "the broker[" + broker_.brokerAddress() + "] pop message is timeout too much");
    if (header.maxMsgNums > kMaxPopMessages || header.maxMsgNums <= 0)
        return refuse(ResponseCode::kInvalidParameter, "the broker[" + broker_.brokerAddress()
                                                           + "] pop message's num is greater than 32");
    const int64_t maxInvisibleMs = broker_.store().config().timerMaxDelaySec * int64_t{1000};
    if (header.invisibleTime <= 0 || header.invisibleTime > maxInvisibleMs)
        return refuse(ResponseCode::kInvalidParameter,
                      "invisibleTime " + std::to_string(header.invisibleTime) + " must be between 1 and "
                          + std::to_string(maxInvisibleMs) + " ms (timerMaxDelaySec: checkpoints are timer messages)");
    if (auto refusal = checkPopTarget(header.group, header.topic, header.queueId))
        return refuse(refusal->first, std::move(refusal->second));

    PopFilter filter;
    filter.subscription = remoting::SubscriptionData::build(header.topic, header.exp, header.expType);
    if (!filter.subscription.isTagType()) {
        if (!broker_.brokerConfig().enablePropertyFilter)
            return refuse(ResponseCode::kSystemError,
                          "The broker does not support consumer to filter message by " + header.expType);
        const SqlFilterCache::Compiled compiled =
            broker_.sqlFilters().get(header.group, header.topic, 0, header.expType, header.exp);
        if (!compiled.expression)
            return refuse(ResponseCode::kSubscriptionParseFailed, "parse the consumer's subscription failed: " + compiled.error);
        filter.sql = compiled.expression;
    }

    const int64_t popTime = now;
    int32_t reviveQid = kOrderReviveQid;
    if (!header.order) {
        std::lock_guard lock(reviveQidMutex_);
        reviveQid = static_cast<int32_t>(nextReviveQid_++ % static_cast<uint32_t>(broker_.brokerConfig().reviveQueueNum));
    }
    PopBatch batch;
    PopRun run(*this, header, filter);
    const std::string retryTopic = popRetryTopic(header.topic, header.group);
    // Before the read: an arrival, ack or nack between the read and the park must not be lost.
    const uint64_t notificationsSeen = polling_->notificationsOf({header.topic, retryTopic});
    // One roll in 100 decides, as Java's: priority mode (a PRIORITY topic's unordered pop, in
    // priority.factor of 100 pops), the retry topic first, and the queue the read starts at.
    int32_t roll = static_cast<int32_t>(random()() % 100);
    const bool priorityMode = !header.order && isPriorityTopic(header.topic) && roll < priorityFactor(header.group);
    const BrokerConfig &config = broker_.brokerConfig();
    const bool retryFirst =
        !header.order && roll < (priorityMode ? config.popFromRetryProbabilityForPriority : config.popFromRetryProbability);
    if (priorityMode)
        roll = 0;
    if (retryFirst)
        run.popFrom(retryTopic, -1, popTime, reviveQid, roll, batch);
    run.popFrom(header.topic, header.queueId, popTime, reviveQid, roll, batch);
    if (!retryFirst && !header.order && batch.count < header.maxMsgNums)
        run.popFrom(retryTopic, -1, popTime, reviveQid, roll, batch);

    if (batch.count == 0 && header.pollTime > 0) {
        int64_t deadline =
            deadlineMillis != 0 ? deadlineMillis : steadyMillis() + std::min(header.pollTime, kMaxPollMillis);
        // enableNotifyAfterPopOrderLockRelease: an orderly pop behind a held batch is answered
        // when the batch turns visible again, as Java's lock-free timer wakes it.
        if (header.order && batch.wakeAtMs > 0 && config.enableNotifyAfterPopOrderLockRelease)
            deadline = std::min(deadline, steadyMillis() + (batch.wakeAtMs - now) + 10);
        if (deadline > steadyMillis()) {
            ParkedRequest parked;
            parked.context = context;
            parked.request = std::move(request);
            parked.respond = std::move(respond);
            parked.topics = {header.topic, retryTopic};
            parked.group = header.group;
            parked.watchedTopic = header.topic;
            parked.queueId = header.queueId;
            parked.deadlineMillis = deadline;
            parked.notificationsSeen = notificationsSeen;
            parked.wake = rerunOnPullExecutor(&PopService::processPop);
            if (!parkUntil(parked, !header.order)) {
                RemotingCommand full = RemotingCommand::createResponse(parked.request, ResponseCode::kPollingFull,
                                                                       "pop polling is full");
                parked.respond(std::move(full));
            }
            return;
        }
    }

    RemotingCommand response = RemotingCommand::createResponse(
        request, batch.count > 0 ? ResponseCode::kSuccess : ResponseCode::kPollingTimeout,
        std::string(store::getStatusName(batch.count > 0 ? GetMessageStatus::Found : batch.lastStatus)));
    remoting::setField(response.extFields, "popTime", popTime);
    remoting::setField(response.extFields, "invisibleTime", header.invisibleTime);
    remoting::setField(response.extFields, "reviveQid", reviveQid);
    remoting::setField(response.extFields, "restNum", batch.restNum);
    remoting::setField(response.extFields, "startOffsetInfo", batch.startOffsetInfo);
    remoting::setField(response.extFields, "msgOffsetInfo", batch.msgOffsetInfo);
    if (header.order)
        remoting::setField(response.extFields, "orderCountInfo", batch.orderCountInfo);
    if (batch.count > 0) {
        broker_.stats().addGet(header.group, header.topic, header.queueId, batch.count,
                               static_cast<int64_t>(batch.body.size()));
        response.body = std::move(batch.body);
    } else {
        broker_.stats().addGetMiss();
    }
    respond(std::move(response));
}

bool PopService::parkUntil(ParkedRequest &parked, bool recheck)
{
    // Keep what the park needs after `parked` was moved into the table.
    const std::vector<std::string> topics = parked.topics;
    const std::string group = parked.group;
    const int32_t queueId = parked.queueId;
    if (!polling_->park(parked))
        return false;
    if (!recheck)
        return true;
    // A message that arrived between the read and the park woke nobody: look once more.
    for (const std::string &topic : topics) {
        const auto config = broker_.topics().find(topic);
        if (!config)
            continue;
        for (int32_t q = 0; q < config->readQueueNums; ++q) {
            if (queueId >= 0 && q != queueId && topic == topics.front())
                continue;
            const int64_t committed = broker_.offsets().queryOffset(group, topic, q);
            if (broker_.store().maxOffsetInQueue(topic, q) > std::max<int64_t>(committed, 0)) {
                polling_->notifyMessageArriving(topic, q);
                return true;
            }
        }
    }
    return true;
}

} // namespace mqdesk::server::pop
