#include "broker/server/recall_message_processor.h"

#include "broker/common/base64.h"
#include "broker/common/clock.h"
#include "broker/common/host_address.h"
#include "broker/common/message.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/broker_controller.h"
#include "broker/server/topic_manager.h"
#include "broker/store/message_store.h"
#include "broker/store/timer_put_transform.h"

#include <algorithm>
#include <vector>

namespace mqdesk::server {

using remoting::RemotingCommand;
using remoting::ResponseCode;

namespace {

constexpr std::string_view kVersion1 = "v1";
constexpr std::string_view kRecallTag = "_RECALL_TAG_";

} // namespace

std::string encodeRecallHandle(const RecallHandle &handle)
{
    const std::string raw = std::string(kVersion1) + ' ' + handle.topic + ' ' + handle.brokerName + ' '
                            + handle.deliverMs + ' ' + handle.uniqKey;
    return common::encodeBase64(raw, common::Base64Alphabet::UrlSafe);
}

std::optional<RecallHandle> decodeRecallHandle(std::string_view handle)
{
    const std::optional<std::string> raw = common::decodeBase64(handle, common::Base64Alphabet::UrlSafe);
    // Control characters, \001 and \002 above all, would end up in the marker's properties.
    if (!raw || std::any_of(raw->begin(), raw->end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; }))
        return std::nullopt;
    std::vector<std::string> items;
    for (size_t begin = 0;;) {
        const size_t end = raw->find(' ', begin);
        items.push_back(raw->substr(begin, end == std::string::npos ? std::string::npos : end - begin));
        if (end == std::string::npos)
            break;
        begin = end + 1;
    }
    while (!items.empty() && items.back().empty()) // String.split drops trailing empty strings
        items.pop_back();
    if (items.size() < 5 || items[0] != kVersion1)
        return std::nullopt;
    return RecallHandle{items[1], items[2], items[3], items[4]};
}

void RecallMessageProcessor::process(const remoting::RequestContext &context, RemotingCommand request,
                                     remoting::Responder respond)
{
    // Every answer names the broker's region, as Java's: the 5.x client writes the recall's
    // trace only when it is there.
    const std::string region = broker_.brokerConfig().regionId;
    const auto answer = [region](const RemotingCommand &to, int32_t code, std::optional<std::string> remark) {
        RemotingCommand response = RemotingCommand::createResponse(to, code, std::move(remark));
        remoting::setField(response.extFields, std::string(common::property::kMsgRegion), region);
        return response;
    };
    const auto fail = [&](int32_t code, std::string remark) { respond(answer(request, code, std::move(remark))); };
    remoting::HeaderReader reader(request.extFields);
    const std::string producerGroup = reader.optString("producerGroup");
    const std::string topicName = reader.requireString("topic");
    const std::string handleText = reader.requireString("recallHandle");
    if (!reader.ok())
        return fail(ResponseCode::kSystemError, reader.error());

    const BrokerConfig &config = broker_.brokerConfig();
    if (!config.recallMessageEnable)
        return fail(ResponseCode::kNoPermission, "recall failed, operation is forbidden");
    if (common::wallMillis() < config.startAcceptSendRequestTimeStamp)
        return fail(ResponseCode::kServiceNotAvailable, "recall failed, broker service not available");
    if ((config.brokerPermission & 2) == 0)
        return fail(ResponseCode::kServiceNotAvailable, "recall failed, broker service not available");
    if (!broker_.topics().find(topicName))
        return fail(ResponseCode::kTopicNotExist, "recall failed, the topic[" + topicName + "] not exist");
    const std::optional<RecallHandle> handle = decodeRecallHandle(handleText);
    if (!handle)
        return fail(ResponseCode::kIllegalOperation, "recall handle is invalid");
    if (handle->topic != topicName)
        return fail(ResponseCode::kIllegalOperation, "recall failed, topic not match");
    if (handle->brokerName != config.brokerName)
        return fail(ResponseCode::kIllegalOperation, "recall failed, broker service not available");
    const int64_t deliverMs = remoting::parseJavaLong(handle->deliverMs).value_or(-1);
    const int64_t timeLeft = deliverMs - common::wallMillis();
    if (timeLeft <= 0 || timeLeft >= int64_t{broker_.store().config().timerMaxDelaySec} * 1000)
        return fail(ResponseCode::kIllegalOperation, "recall failed, timestamp invalid");

    common::BrokerMessage marker;
    marker.topic = handle->topic;
    marker.queueId = 0;
    marker.body = {'0'};
    marker.bornTimestamp = common::wallMillis();
    if (const auto bornHost = common::HostAddress::parse(context.peerAddress()))
        marker.bornHost = *bornHost;
    marker.properties.set(common::property::kTags, kRecallTag);
    marker.properties.set(store::timer_property::kDelUniqKey, handle->topic + "+" + handle->uniqKey);
    marker.properties.set(common::property::kUniqClientMessageId, handle->uniqKey);
    marker.properties.set(store::timer_property::kDeliverMs, handle->deliverMs);
    if (!producerGroup.empty())
        marker.properties.set(common::property::kProducerGroup, producerGroup);
    broker_.store().asyncPutMessage(
        marker, [request = std::move(request), respond = std::move(respond), answer,
                 uniqKey = handle->uniqKey](const store::PutMessageResult &result) {
            if (!result.stored()) {
                respond(answer(request, ResponseCode::kSystemError, "recall failed, execute error: " + result.error));
                return;
            }
            RemotingCommand response = answer(request, ResponseCode::kSuccess, std::nullopt);
            remoting::setField(response.extFields, "msgId", uniqKey);
            respond(std::move(response));
        });
}

} // namespace mqdesk::server
