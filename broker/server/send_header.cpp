#include "broker/server/send_header.h"

#include "broker/common/clock.h"
#include "broker/common/java_strings.h"
#include "broker/common/record_codec.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/broker_controller.h"
#include "broker/server/topic_manager.h"

#include <algorithm>
#include <random>

namespace mqdesk::server {

using remoting::HeaderReader;
using remoting::RemotingCommand;
using remoting::RequestCode;
using remoting::ResponseCode;

bool readSendHeader(const RemotingCommand &request, SendHeader &header, std::string &error)
{
    const bool v2 = request.code != RequestCode::kSendMessage && request.code != RequestCode::kSendReplyMessage;
    const auto key = [v2](const char *shortKey, const char *longKey) { return v2 ? shortKey : longKey; };
    HeaderReader reader(request.extFields);
    header.producerGroup = reader.requireGroup(key("a", "producerGroup"));
    header.topic = reader.requireTopic(key("b", "topic"));
    header.defaultTopic = reader.requireTopic(key("c", "defaultTopic"));
    header.defaultTopicQueueNums = reader.requireInt32(key("d", "defaultTopicQueueNums"));
    header.queueId = reader.requireInt32(key("e", "queueId"));
    header.sysFlag = reader.requireInt32(key("f", "sysFlag"));
    header.bornTimestamp = reader.requireInt64(key("g", "bornTimestamp"));
    header.flag = reader.requireInt32(key("h", "flag"));
    header.properties = reader.optString(key("i", "properties"));
    header.reconsumeTimes = reader.optInt32(key("j", "reconsumeTimes"), 0);
    if (request.extFields.contains(key("l", "maxReconsumeTimes")))
        header.maxReconsumeTimes = reader.optInt32(key("l", "maxReconsumeTimes"), 0);
    header.unitMode = reader.optBool(key("k", "unitMode"), false);
    header.batch = reader.optBool(key("m", "batch"), false) || request.code == RequestCode::kSendBatchMessage;
    error = reader.error();
    return reader.ok();
}

int32_t responseCodeOf(store::PutMessageStatus status)
{
    switch (status) {
    case store::PutMessageStatus::PutOk: return ResponseCode::kSuccess;
    case store::PutMessageStatus::FlushDiskTimeout: return ResponseCode::kFlushDiskTimeout;
    case store::PutMessageStatus::MessageIllegal:
    case store::PutMessageStatus::PropertiesSizeExceeded:
    case store::PutMessageStatus::WheelTimerMsgIllegal: return ResponseCode::kMessageIllegal;
    case store::PutMessageStatus::WheelTimerFlowControl:
    case store::PutMessageStatus::WheelTimerNotEnable: return ResponseCode::kSystemError;
    case store::PutMessageStatus::LmqConsumeQueueNumExceeded: return ResponseCode::kLmqQuotaExceeded;
    case store::PutMessageStatus::ServiceNotAvailable: return ResponseCode::kServiceNotAvailable;
    case store::PutMessageStatus::CreateMappedFileFailed:
    case store::PutMessageStatus::UnknownError: return ResponseCode::kSystemError;
    }
    return ResponseCode::kSystemError;
}

std::string putFailureRemark(const store::PutMessageResult &result)
{
    switch (result.status) {
    case store::PutMessageStatus::WheelTimerFlowControl:
    case store::PutMessageStatus::WheelTimerMsgIllegal:
    case store::PutMessageStatus::WheelTimerNotEnable:
    case store::PutMessageStatus::LmqConsumeQueueNumExceeded: return result.error; // Java's remark, word for word
    default:
        return std::string(store::putStatusName(result.status)) + (result.error.empty() ? std::string() : ": " + result.error);
    }
}

int32_t randomQueue(int32_t queues)
{
    thread_local std::minstd_rand random(static_cast<uint32_t>(common::steadyMicros()));
    return static_cast<int32_t>(random() % static_cast<uint32_t>(std::max(queues, 1)));
}

bool checkSendTarget(BrokerController &broker, const SendHeader &header, const std::string &peerAddress,
                     SendTarget &target, int32_t &code, std::string &remark)
{
    using remoting::ResponseCode;
    const auto refuse = [&](int32_t refusal, std::string why) {
        code = refusal;
        remark = std::move(why);
        return false;
    };
    // Java's preSend, before msgCheck.
    if (const int64_t start = broker.brokerConfig().startAcceptSendRequestTimeStamp; common::wallMillis() < start)
        return refuse(ResponseCode::kSystemError, "broker unable to service, until " + common::javaHumanTime(start));
    if ((broker.brokerConfig().brokerPermission & 2) == 0)
        return refuse(ResponseCode::kNoPermission, "the broker[" + broker.brokerAddress() + "] sending message is forbidden");
    // Java refuses properties its int16 PROPERTIESLEN cannot hold (the store checks the final
    // string again, after the broker added its own).
    if (header.properties.size() > static_cast<size_t>(common::kMaxPropertiesLength))
        return refuse(ResponseCode::kMessageIllegal, "the message properties length " + std::to_string(header.properties.size())
                                                         + " exceeds the limit " + std::to_string(common::kMaxPropertiesLength));
    if (isSendForbiddenTopic(header.topic))
        return refuse(ResponseCode::kNoPermission, "Sending message to topic[" + header.topic + "] is forbidden.");

    std::optional<store::TopicConfig> topic = broker.topics().find(header.topic);
    if (!topic) {
        topic = broker.topics().createTopicFromTemplate(header.topic, header.defaultTopic, header.defaultTopicQueueNums,
                                                        0 /* topicSysFlag: unit flags only */);
        if (!topic && header.topic.starts_with(kRetryGroupTopicPrefix))
            topic = broker.topics().createTopicIfAbsent(header.topic, 1, store::perm::kRead | store::perm::kWrite);
        if (!topic)
            return refuse(ResponseCode::kTopicNotExist, "topic[" + header.topic + "] not exist, apply first please!");
    }
    if ((topic->perm & store::perm::kWrite) == 0)
        return refuse(ResponseCode::kNoPermission, "the topic[" + header.topic + "] sending message is forbidden");
    const int32_t validQueues = std::max(topic->readQueueNums, topic->writeQueueNums);
    if (header.queueId >= validQueues)
        return refuse(ResponseCode::kSystemError, "request queueId[" + std::to_string(header.queueId) + "] is illegal, topic "
                                                      + header.topic + " has " + std::to_string(validQueues)
                                                      + " queues, producer: " + peerAddress);
    target.queueId = header.queueId < 0 ? randomQueue(topic->writeQueueNums) : header.queueId;
    target.topic = std::move(*topic);
    return true;
}

} // namespace mqdesk::server
