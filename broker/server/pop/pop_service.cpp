#include "broker/server/pop/pop_service.h"

#include "broker/server/pop/consumer_order_info_manager.h"
#include "broker/server/pop/pop_long_polling.h"
#include "broker/server/pop/pop_records.h"
#include "broker/server/pop/pop_revive_service.h"

#include "broker/common/clock.h"
#include "broker/common/message.h"
#include "broker/remoting/net/processor_executor.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/broker_controller.h"
#include "broker/server/topic_manager.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/message_request_mode_manager.h"
#include "broker/store/message_store.h"
#include "broker/store/timer_put_transform.h"

#include <spdlog/spdlog.h>

namespace mqdesk::server::pop {

using remoting::HeaderReader;
using remoting::RemotingCommand;
using remoting::ResponseCode;

namespace {

constexpr size_t kMaxPopPollingSize = 100000;

} // namespace

PopService::PopService(BrokerController &broker)
    : broker_(broker),
      requestModes_(std::make_unique<store::MessageRequestModeManager>()),
      polling_(std::make_unique<PopLongPolling>("PopLongPolling", kMaxPopPollingSize)),
      notificationPolling_(std::make_unique<PopLongPolling>("PopNotification", kMaxPopPollingSize)),
      orderInfo_(std::make_unique<ConsumerOrderInfoManager>()),
      liteOrderInfo_(std::make_unique<ConsumerOrderInfoManager>()),
      liteSubscriptions_(std::make_unique<LiteSubscriptions>(
          static_cast<size_t>(std::max<int64_t>(broker.brokerConfig().maxLiteSubscriptionCount, 1))))
{}

PopService::~PopService()
{
    shutdown();
}

bool PopService::load(const std::string &configDir, std::string &error)
{
    if (!requestModes_->load(configDir, error)) {
        error = "cannot load " + std::string(store::MessageRequestModeManager::kFileName) + ": " + error;
        return false;
    }
    if (!orderInfo_->load(configDir, error)) {
        error = "cannot load " + std::string(ConsumerOrderInfoManager::kFileName) + ": " + error;
        return false;
    }
    return true;
}

std::vector<std::string> PopService::loadWarnings() const
{
    std::vector<std::string> warnings;
    for (const std::string &warning : {requestModes_->lastLoad().warning, orderInfo_->lastLoad().warning})
        if (!warning.empty())
            warnings.push_back(warning);
    return warnings;
}

void PopService::persist()
{
    std::string error;
    if (orderInfo_->dirty() && !orderInfo_->persist(error))
        spdlog::error("pop: cannot persist {}: {}", ConsumerOrderInfoManager::kFileName, error);
}

void PopService::start()
{
    // The long-polling threads start with their first parked request.
    if (broker_.store().timerMessageStore())
        revive_ = std::make_unique<PopReviveService>(*this);
}

void PopService::startRevive()
{
    if (revive_)
        revive_->startOnce();
}

void PopService::shutdown()
{
    if (revive_) {
        revive_->stop();
        revive_.reset();
    }
    for (PopLongPolling *polling : {polling_.get(), notificationPolling_.get()}) {
        if (polling) {
            polling->stop();
            polling->releaseAll();
        }
    }
}

std::string PopService::reviveTopic() const
{
    return pop::reviveTopic(broker_.brokerConfig().brokerClusterName);
}

size_t PopService::parkedCount() const
{
    return polling_->parkedCount() + notificationPolling_->parkedCount();
}

std::function<void(ParkedRequest, bool)> PopService::rerunOnPullExecutor(Rerun rerun)
{
    return [this, rerun](ParkedRequest woken, bool timedOut) {
        auto shared = std::make_shared<ParkedRequest>(std::move(woken));
        // Woken by an arrival: run again until its own deadline (it parks again when another
        // consumer took the message). Timed out: 1, long past, answers now.
        const int64_t until = timedOut ? 1 : shared->deadlineMillis;
        const bool queued = broker_.pullExecutor().tryExecute([this, rerun, shared, until] {
            (this->*rerun)(shared->context, shared->request, shared->respond, until);
        });
        if (!queued)
            shared->respond(RemotingCommand::createResponse(shared->request, ResponseCode::kSystemBusy,
                                                            "[OVERLOAD]system busy, start flow control for a while"));
    };
}

void PopService::notifyMessageArriving(const std::string &topic, int32_t queueId)
{
    polling_->notifyMessageArriving(topic, queueId);
    notificationPolling_->notifyMessageArriving(topic, queueId);
    if (isLiteQueue(topic))
        wakeLiteClients(topic, {});
}

bool PopService::tryLockQueue(const std::string &key)
{
    std::lock_guard lock(locksMutex_);
    return lockedQueues_.insert(key).second;
}

void PopService::unlockQueue(const std::string &key)
{
    std::lock_guard lock(locksMutex_);
    lockedQueues_.erase(key);
}

common::BrokerMessage PopService::reviveMessage(std::string body, const std::string &tag, const std::string &uniqueKey,
                                                int32_t reviveQid, int64_t deliverMs) const
{
    common::BrokerMessage message;
    message.topic = reviveTopic();
    message.queueId = reviveQid;
    message.setBody(body);
    message.properties.set(common::property::kTags, tag);
    message.properties.set(common::property::kUniqClientMessageId, uniqueKey);
    message.properties.set(store::timer_property::kDeliverMs, std::to_string(deliverMs));
    message.bornTimestamp = common::wallMillis();
    if (const auto host = common::HostAddress::parse(broker_.brokerAddress()))
        message.bornHost = *host;
    return message;
}

store::PutMessageResult PopService::putCheckpoint(const PopCheckPoint &ck, int32_t reviveQid)
{
    return broker_.store().putMessage(reviveMessage(ck.toJson(), kCheckpointTag, checkpointUniqueKey(ck), reviveQid,
                                                    ck.reviveTime() - kAckTimeIntervalMs));
}

store::PutMessageResult PopService::putAck(const AckMessage &ack, int32_t reviveQid, int64_t deliverMs)
{
    return broker_.store().putMessage(
        reviveMessage(ack.toJson(), ack.isBatch() ? kBatchAckTag : kAckTag, ackUniqueKey(ack), reviveQid, deliverMs));
}

// PEEK_MESSAGE: the messages a pop would get next, without a checkpoint or an offset change.
void PopService::peek(const remoting::RequestContext &, RemotingCommand request, remoting::Responder respond)
{
    HeaderReader reader(request.extFields);
    const std::string group = reader.requireGroup("consumerGroup");
    const std::string topic = reader.requireTopic("topic");
    const int32_t queueId = reader.requireInt32("queueId");
    const int32_t maxMsgNums = reader.requireInt32("maxMsgNums");
    if (!reader.ok())
        return respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError, reader.error()));
    const auto config = broker_.topics().find(topic);
    if (!config)
        return respond(RemotingCommand::createResponse(request, ResponseCode::kTopicNotExist,
                                                       "topic[" + topic + "] not exist, apply first please!"));
    if (queueId >= config->readQueueNums || maxMsgNums <= 0 || maxMsgNums > 32)
        return respond(RemotingCommand::createResponse(request, ResponseCode::kInvalidParameter,
                                                       "queueId[" + std::to_string(queueId) + "] or maxMsgNums["
                                                           + std::to_string(maxMsgNums) + "] is illegal"));
    std::vector<uint8_t> body;
    int32_t count = 0;
    int64_t restNum = 0;
    for (int32_t q = queueId < 0 ? 0 : queueId; q < (queueId < 0 ? config->readQueueNums : queueId + 1); ++q) {
        int64_t offset = broker_.offsets().queryOffset(group, topic, q);
        if (offset < 0)
            offset = broker_.store().minOffsetInQueue(topic, q);
        store::GetMessageOptions options;
        options.rawRecords = true;
        options.transferLimits = store::transferLimitsOf(broker_.settings()->store);
        const store::GetMessageResult result = broker_.store().getMessage(topic, q, offset, maxMsgNums - count, options);
        restNum += std::max<int64_t>(result.maxOffset - result.nextBeginOffset, 0);
        body.insert(body.end(), result.recordBytes.begin(), result.recordBytes.end());
        count += result.messageCount;
        if (count >= maxMsgNums)
            break;
    }
    RemotingCommand response = RemotingCommand::createResponse(
        request, count > 0 ? ResponseCode::kSuccess : ResponseCode::kPullNotFound, count > 0 ? "FOUND" : "NO_MESSAGE_IN_QUEUE");
    remoting::setField(response.extFields, "popTime", common::wallMillis());
    remoting::setField(response.extFields, "invisibleTime", int64_t{0});
    remoting::setField(response.extFields, "reviveQid", int32_t{0});
    remoting::setField(response.extFields, "restNum", restNum);
    response.body = std::move(body);
    respond(std::move(response));
}

void PopService::notification(const remoting::RequestContext &context, RemotingCommand request,
                              remoting::Responder respond)
{
    processNotification(context, request, respond, 0);
}

// NOTIFICATION: whether the group has something to pop on the topic (and its retry topic),
// held like a pop until there is or pollTime runs out. Always SUCCESS with hasMsg.
void PopService::processNotification(const remoting::RequestContext &context, RemotingCommand &request,
                                     remoting::Responder &respond, int64_t deadlineMillis)
{
    HeaderReader reader(request.extFields);
    const std::string group = reader.requireGroup("consumerGroup");
    const std::string topic = reader.requireTopic("topic");
    const int32_t queueId = reader.requireInt32("queueId");
    const int64_t pollTime = reader.requireInt64("pollTime");
    (void)reader.optInt64("bornTime", 0);
    const bool order = reader.optBool("order", false);
    const std::string attemptId = reader.optString("attemptId");
    if (!reader.ok())
        return respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError, reader.error()));
    if (auto refusal = checkPopTarget(group, topic, queueId))
        return respond(RemotingCommand::createResponse(request, refusal->first, refusal->second));

    const auto hasBacklog = [&](const std::string &name, int32_t onlyQueue) {
        const auto config = broker_.topics().find(name);
        if (!config)
            return false;
        for (int32_t q = 0; q < config->readQueueNums; ++q) {
            if (onlyQueue >= 0 && q != onlyQueue)
                continue;
            if (order && !orderInfo_->admit(name, group, q, attemptId, common::wallMillis()))
                continue;
            int64_t offset = broker_.offsets().queryOffset(group, name, q);
            if (offset < 0)
                offset = broker_.store().minOffsetInQueue(name, q);
            if (broker_.store().maxOffsetInQueue(name, q) > offset)
                return true;
        }
        return false;
    };
    const std::string retryTopic = popRetryTopic(topic, group);
    const bool hasMsg = hasBacklog(topic, queueId) || (!order && hasBacklog(retryTopic, -1));
    RemotingCommand response = RemotingCommand::createResponse(request, ResponseCode::kSuccess);
    const auto answer = [&](bool has, bool full) {
        remoting::setField(response.extFields, "hasMsg", has);
        remoting::setField(response.extFields, "pollingFull", full);
        respond(std::move(response));
    };
    if (hasMsg || pollTime <= 0 || (deadlineMillis != 0 && deadlineMillis <= steadyMillis()))
        return answer(hasMsg, false);
    ParkedRequest parked;
    parked.context = context;
    parked.request = std::move(request);
    parked.respond = std::move(respond);
    parked.topics = {topic, retryTopic};
    parked.group = group;
    parked.watchedTopic = topic;
    parked.queueId = queueId;
    parked.deadlineMillis = deadlineMillis != 0 ? deadlineMillis : steadyMillis() + std::min(pollTime, kMaxPollMillis);
    parked.wake = rerunOnPullExecutor(&PopService::processNotification);
    if (!notificationPolling_->park(parked)) {
        response = RemotingCommand::createResponse(parked.request, ResponseCode::kSuccess);
        respond = std::move(parked.respond);
        return answer(false, true);
    }
    // An arrival between the check and the park woke nobody.
    if (hasBacklog(topic, queueId))
        notificationPolling_->notifyMessageArriving(topic, std::max(queueId, 0));
}

void PopService::pollingInfo(const remoting::RequestContext &, RemotingCommand request, remoting::Responder respond)
{
    HeaderReader reader(request.extFields);
    const std::string group = reader.requireGroup("consumerGroup");
    const std::string topic = reader.requireTopic("topic");
    const int32_t queueId = reader.requireInt32("queueId");
    if (!reader.ok())
        return respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError, reader.error()));
    if (auto refusal = checkPopTarget(group, topic, queueId))
        return respond(RemotingCommand::createResponse(request, refusal->first, refusal->second));
    RemotingCommand response = RemotingCommand::createResponse(request, ResponseCode::kSuccess);
    remoting::setField(response.extFields, "pollingNum", polling_->parkedCount(topic, group, queueId));
    respond(std::move(response));
}

} // namespace mqdesk::server::pop
