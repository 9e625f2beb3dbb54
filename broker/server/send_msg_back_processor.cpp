#include "broker/server/send_msg_back_processor.h"

#include "broker/server/send_header.h"

#include "broker/common/clock.h"
#include "broker/common/message.h"
#include "broker/common/message_id.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/protocol/resource_names.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/broker_controller.h"
#include "broker/server/broker_stats.h"
#include "broker/server/topic_manager.h"
#include "broker/store/config/subscription_group_manager.h"
#include "broker/store/message_store.h"

#include <spdlog/spdlog.h>


namespace mqdesk::server {

using remoting::HeaderReader;
using remoting::RemotingCommand;
using remoting::ResponseCode;

namespace {

// MQVersion.Version.V3_4_9: from this client version on, the header's maxReconsumeTimes counts.
constexpr int32_t kVersionV3_4_9 = 121;
// MixAll.DLQ_NUMS_PER_GROUP
constexpr int32_t kDlqQueueNums = 1;

} // namespace

std::optional<store::SubscriptionGroupConfig> findOrCreateSubscriptionGroup(BrokerController &broker,
                                                                            const std::string &group)
{
    auto config = broker.subscriptionGroups().findSubscriptionGroupConfig(group);
    if (config || !broker.brokerConfig().createsGroupOnUse(group))
        return config;
    // As Java's findSubscriptionGroupConfig: a name TopicValidator.validateGroup refuses is never
    // created (the requests check names where they enter; this is the second wall before the file).
    if (!remoting::groupNameError(group).empty())
        return std::nullopt;
    store::SubscriptionGroupConfig created;
    created.groupName = group;
    broker.subscriptionGroups().updateSubscriptionGroupConfig(created);
    std::string error;
    if (!broker.subscriptionGroups().persist(error))
        spdlog::error("broker: cannot persist the new subscription group {}: {}", group, error);
    return created;
}

int32_t maxReconsumeTimesOf(const store::SubscriptionGroupConfig &group, int32_t requestVersion,
                            std::optional<int32_t> headerMaxReconsumeTimes)
{
    if (requestVersion >= kVersionV3_4_9 && headerMaxReconsumeTimes)
        return *headerMaxReconsumeTimes;
    return group.retryMaxTimes;
}

void SendMsgBackProcessor::process(const remoting::RequestContext &, RemotingCommand request,
                                   remoting::Responder respond)
{
    const auto answer = [&](int32_t code, std::string remark) {
        respond(RemotingCommand::createResponse(request, code, std::move(remark)));
    };
    HeaderReader reader(request.extFields);
    const int64_t offset = reader.requireInt64("offset");
    const std::string group = reader.requireGroup("group");
    int32_t delayLevel = reader.requireInt32("delayLevel");
    const std::optional<int64_t> headerMax = reader.findInt64("maxReconsumeTimes");
    if (!reader.ok())
        return answer(ResponseCode::kSystemError, reader.error());

    const auto groupConfig = findOrCreateSubscriptionGroup(broker_, group);
    if (!groupConfig)
        return answer(ResponseCode::kSubscriptionGroupNotExist, "subscription group not exist, " + group);
    if ((broker_.brokerConfig().brokerPermission & store::perm::kWrite) == 0)
        return answer(ResponseCode::kNoPermission,
                      "the broker[" + broker_.brokerAddress() + "] sending message is forbidden");
    // A group without retry queues drops failed messages (Java answers SUCCESS too).
    if (groupConfig->retryQueueNums <= 0)
        return respond(RemotingCommand::createResponse(request, ResponseCode::kSuccess));

    std::string topic = kRetryGroupTopicPrefix + group;
    int32_t queueId = randomQueue(groupConfig->retryQueueNums);
    auto topicConfig = broker_.topics().createTopicIfAbsent(topic, groupConfig->retryQueueNums,
                                                            store::perm::kRead | store::perm::kWrite);
    if (!topicConfig)
        return answer(ResponseCode::kSystemError, "topic[" + topic + "] not exist");
    if ((topicConfig->perm & store::perm::kWrite) == 0)
        return answer(ResponseCode::kNoPermission, "the topic[" + topic + "] sending message is forbidden");

    const std::optional<common::StoredMessage> original = broker_.store().lookMessageByOffset(offset);
    if (!original)
        return answer(ResponseCode::kSystemError, "look message by offset failed, " + std::to_string(offset));

    common::BrokerMessage message = common::toBrokerMessage(*original);
    message.preparedTransactionOffset = 0;
    if (!message.properties.get(common::property::kRetryTopic))
        message.properties.set(common::property::kRetryTopic, original->topic);
    // Java marks the copy WAIT=false before serialising its properties, so the record keeps it.
    message.properties.set(common::property::kWaitStoreMsgOk, "false");
    message.waitStoreMsgOk = false;

    std::optional<int32_t> headerMaxTimes;
    if (headerMax)
        headerMaxTimes = static_cast<int32_t>(*headerMax);
    const int32_t maxReconsumeTimes = maxReconsumeTimesOf(*groupConfig, request.version, headerMaxTimes);
    if (original->reconsumeTimes >= maxReconsumeTimes || delayLevel < 0) {
        topic = kDlqGroupTopicPrefix + group;
        queueId = randomQueue(kDlqQueueNums);
        // store-format §14: DLQ topics are created read-write with one queue.
        topicConfig = broker_.topics().createTopicIfAbsent(topic, kDlqQueueNums, store::perm::kRead | store::perm::kWrite);
        if (!topicConfig)
            return answer(ResponseCode::kSystemError, "topic[" + topic + "] not exist");
        delayLevel = 0; // a dead letter is never scheduled
    } else if (delayLevel == 0) {
        delayLevel = 3 + original->reconsumeTimes; // the first retry comes after level 3 (10 s by default)
    }
    // The store's delay rewrite sees DELAY > 0 and parks the copy in SCHEDULE_TOPIC_XXXX with
    // REAL_TOPIC = the retry topic; DELAY=0 is stored as is (Java sets it for dead letters too).
    message.properties.set(common::property::kDelayTimeLevel, std::to_string(delayLevel));
    if (message.properties.get(common::property::kOriginMessageId).value_or("").empty())
        message.properties.set(common::property::kOriginMessageId,
                               common::createOffsetMessageId(original->storeHost, original->physicalOffset));

    message.topic = topic;
    message.queueId = queueId;
    message.reconsumeTimes = original->reconsumeTimes + 1;

    const std::string backTopic(message.properties.get(common::property::kRetryTopic).value_or(original->topic));
    const bool deadLetter = topic.starts_with(kDlqGroupTopicPrefix);
    broker_.store().asyncPutMessage(
        message, [this, request = std::move(request), respond = std::move(respond), group, backTopic, deadLetter,
                  topic, queueId](const store::PutMessageResult &result) {
            // Java answers SUCCESS only for PUT_OK; anything else is SYSTEM_ERROR with the status name.
            if (result.status == store::PutMessageStatus::PutOk) {
                broker_.stats().addSendBack(group, backTopic);
                broker_.stats().addPut(topic, queueId, 1, result.wroteBytes);
                if (deadLetter)
                    broker_.stats().addDeadLetter(group);
            }
            if (result.status == store::PutMessageStatus::PutOk)
                respond(RemotingCommand::createResponse(request, ResponseCode::kSuccess));
            else
                respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError,
                                                        std::string(store::putStatusName(result.status))));
        });
}

} // namespace mqdesk::server
