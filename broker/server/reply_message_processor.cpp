#include "broker/server/reply_message_processor.h"

#include "broker/common/clock.h"
#include "broker/common/host_address.h"
#include "broker/common/message.h"
#include "broker/common/message_id.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/broker_controller.h"
#include "broker/server/broker_stats.h"
#include "broker/server/consumer_manager.h"
#include "broker/server/send_header.h"
#include "broker/server/topic_manager.h"
#include "broker/store/message_store.h"

#include <spdlog/spdlog.h>

#include <chrono>

namespace mqdesk::server {

using remoting::RemotingCommand;
using remoting::RequestCode;
using remoting::ResponseCode;

namespace {

constexpr std::string_view kReplyToClient = "REPLY_TO_CLIENT";
constexpr std::string_view kPushReplyTime = "PUSH_REPLY_TIME";
// Broker2Client.callClient waits this long for the requester's answer.
constexpr std::chrono::milliseconds kPushTimeout{10000};

// PUSH_REPLY_MESSAGE_TO_CLIENT: the reply's send header, as the requester's client decodes it
// (ReplyMessageRequestHeader), and its body.
RemotingCommand makePushRequest(const SendHeader &header, const std::string &properties, const std::string &bornHost,
                                const std::string &storeHost, const std::vector<uint8_t> &body)
{
    RemotingCommand push = RemotingCommand::createRequest(RequestCode::kPushReplyMessageToClient);
    auto &fields = push.extFields;
    remoting::setField(fields, "producerGroup", header.producerGroup);
    remoting::setField(fields, "topic", header.topic);
    remoting::setField(fields, "defaultTopic", header.defaultTopic);
    remoting::setField(fields, "defaultTopicQueueNums", header.defaultTopicQueueNums);
    remoting::setField(fields, "queueId", header.queueId);
    remoting::setField(fields, "sysFlag", header.sysFlag);
    remoting::setField(fields, "bornTimestamp", header.bornTimestamp);
    remoting::setField(fields, "flag", header.flag);
    remoting::setField(fields, "properties", properties);
    remoting::setField(fields, "reconsumeTimes", header.reconsumeTimes);
    remoting::setField(fields, "unitMode", header.unitMode);
    remoting::setField(fields, "bornHost", bornHost);
    remoting::setField(fields, "storeHost", storeHost);
    remoting::setField(fields, "storeTimestamp", common::wallMillis());
    push.body = body;
    return push;
}

} // namespace

void ReplyMessageProcessor::process(const remoting::RequestContext &context, RemotingCommand request,
                                    remoting::Responder respond)
{
    const auto fail = [&](int32_t code, std::string remark) {
        respond(RemotingCommand::createResponse(request, code, std::move(remark)));
    };
    SendHeader header;
    std::string error;
    if (!readSendHeader(request, header, error))
        return fail(ResponseCode::kSystemError, error);
    SendTarget target;
    int32_t refusal = 0;
    std::string refusalRemark;
    if (!checkSendTarget(broker_, header, context.peerAddress(), target, refusal, refusalRemark))
        return fail(refusal, std::move(refusalRemark));
    const int32_t queueId = target.queueId;

    auto message = std::make_shared<common::BrokerMessage>();
    message->topic = header.topic;
    message->queueId = queueId;
    message->flag = header.flag;
    message->sysFlag = header.sysFlag;
    message->bornTimestamp = header.bornTimestamp;
    message->reconsumeTimes = header.reconsumeTimes;
    message->properties = common::MessageProperties::decode(header.properties);
    message->properties.set(common::property::kMsgRegion, broker_.brokerConfig().regionId);
    message->properties.set(common::property::kTraceSwitch, broker_.brokerConfig().traceOn ? "true" : "false");
    message->body = std::move(request.body);
    const auto bornHost = common::HostAddress::parse(context.peerAddress());
    if (bornHost)
        message->bornHost = *bornHost;
    const std::string storeHost = broker_.brokerAddress();

    // Where the reply goes: the requester's connection, by the client id it put in the request.
    const std::string requester(message->properties.get(kReplyToClient).value_or(""));
    std::optional<ClientChannelInfo> client;
    std::string pushFailure;
    if (requester.empty())
        pushFailure = "reply message properties[" + std::string(kReplyToClient) + "] is null";
    else if (!(client = broker_.producers().findClient(requester)))
        pushFailure = "push reply message fail, channel of <" + requester + "> not found.";

    auto finish = [this, request = std::move(request), respond = std::move(respond), message,
                   queueId](bool pushed, std::string remark) mutable {
        if (!pushed)
            spdlog::warn("reply to {}: {}", message->topic, remark);
        RemotingCommand response = RemotingCommand::createResponse(
            request, pushed ? ResponseCode::kSuccess : ResponseCode::kSystemError, pushed ? std::string() : remark);
        remoting::setField(response.extFields, "msgId", std::string("0"));
        remoting::setField(response.extFields, "queueId", queueId);
        remoting::setField(response.extFields, "queueOffset", int64_t{0});
        remoting::setField(response.extFields, "MSG_REGION", broker_.brokerConfig().regionId);
        remoting::setField(response.extFields, "TRACE_ON", broker_.brokerConfig().traceOn);
        if (!broker_.brokerConfig().storeReplyMessageEnable) {
            respond(std::move(response));
            return;
        }
        message->properties.set(common::property::kCluster, broker_.brokerConfig().brokerClusterName);
        broker_.store().asyncPutMessage(*message, [this, response = std::move(response), respond = std::move(respond),
                                                   queueId, topic = message->topic](const store::PutMessageResult &result) mutable {
            if (result.stored()) {
                broker_.stats().addPut(topic, queueId, 1, result.wroteBytes);
                const auto host = common::HostAddress::parse(broker_.brokerAddress());
                remoting::setField(response.extFields, "msgId",
                                   common::createOffsetMessageId(host.value_or(common::HostAddress{}), result.wroteOffset));
                remoting::setField(response.extFields, "queueId", queueId);
                remoting::setField(response.extFields, "queueOffset", result.queueOffset);
            } else {
                broker_.stats().addPutFailure();
                spdlog::warn("reply message not stored: {} {}", store::putStatusName(result.status), result.error);
            }
            respond(std::move(response));
        });
    };
    if (!client)
        return finish(false, pushFailure);

    message->properties.set(kPushReplyTime, std::to_string(common::wallMillis()));
    RemotingCommand push = makePushRequest(header, message->properties.encode(),
                                           bornHost ? bornHost->toString() : context.peerAddress(), storeHost,
                                           message->body);
    client->channel.invoke(std::move(push), kPushTimeout,
                           [finish = std::move(finish), requester](remoting::InvokeResult result) mutable {
                               if (!result.ok())
                                   return finish(false, "push reply message to " + requester + "fail.");
                               if (result.response.code != ResponseCode::kSuccess)
                                   return finish(false, "push reply message to " + requester + "fail.");
                               finish(true, {});
                           });
}

} // namespace mqdesk::server
