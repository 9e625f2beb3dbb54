#include "broker/server/client_call_processor.h"

#include "broker/common/json.h"
#include "broker/common/message_id.h"
#include "broker/remoting/net/remoting_dispatcher.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/protocol/queue_tables.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/broker_controller.h"
#include "broker/server/consumer_manager.h"
#include "broker/store/message_store.h"

#include <spdlog/spdlog.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>

namespace mqdesk::server {

using remoting::HeaderReader;
using remoting::RemotingCommand;
using remoting::RequestCode;
using remoting::ResponseCode;

namespace {

// Java's Broker2Client timeouts: callClient 10 s, the consumer status 5 s.
constexpr std::chrono::milliseconds kCallTimeout{10'000};
constexpr std::chrono::milliseconds kStatusTimeout{5'000};
// MQVersion.Version ordinals: the oldest clients that answer these requests.
constexpr int32_t kV3_1_8_Snapshot = 62;
constexpr int32_t kV3_0_7_Snapshot = 28;

RemotingCommand systemError(const RemotingCommand &request, std::string remark)
{
    return RemotingCommand::createResponse(request, ResponseCode::kSystemError, std::move(remark));
}

std::optional<ClientChannelInfo> findClient(const ConsumerManager &consumers, const std::string &group,
                                            const std::string &clientId)
{
    const auto snapshot = consumers.group(group);
    if (!snapshot)
        return std::nullopt;
    for (const ClientChannelInfo &client : snapshot->channels) {
        if (client.clientId == clientId && client.channel.channel())
            return client;
    }
    return std::nullopt;
}

} // namespace

std::vector<int32_t> ClientCallProcessor::codes()
{
    return {RequestCode::kGetConsumerRunningInfo, RequestCode::kConsumeMessageDirectly,
            RequestCode::kInvokeBrokerToGetConsumerStatus};
}

void ClientCallProcessor::process(const remoting::RequestContext &context, RemotingCommand request,
                                  remoting::Responder respond)
{
    switch (request.code) {
    case RequestCode::kGetConsumerRunningInfo: return getConsumerRunningInfo(std::move(request), std::move(respond));
    case RequestCode::kConsumeMessageDirectly: return consumeMessageDirectly(std::move(request), std::move(respond));
    case RequestCode::kInvokeBrokerToGetConsumerStatus: return getConsumerStatus(std::move(request), std::move(respond));
    default: respond(remoting::refuseUnsupportedRequest(request, context.peerAddress(), "not served by this broker"));
    }
}

void ClientCallProcessor::callConsumer(int32_t code, const RemotingCommand &request, const std::string &group,
                                       const std::string &clientId, remoting::Responder respond)
{
    const std::optional<ClientChannelInfo> client = findClient(broker_.consumers(), group, clientId);
    if (!client)
        return respond(systemError(request, "The Consumer <" + group + "> <" + clientId + "> not online"));
    if (client->version < kV3_1_8_Snapshot) {
        return respond(systemError(request, "The Consumer <" + group + "> Version <"
                                                + remoting::mqVersionName(client->version)
                                                + "> too low to finish, please upgrade it to V3_1_8_SNAPSHOT"));
    }
    RemotingCommand forwarded = RemotingCommand::createRequest(code);
    forwarded.extFields = request.extFields;
    forwarded.body = request.body;
    RemotingCommand stub = RemotingCommand::createResponse(request, ResponseCode::kSuccess);
    client->channel.invoke(std::move(forwarded), kCallTimeout,
                           [stub = std::move(stub), respond = std::move(respond), group,
                            clientId](remoting::InvokeResult result) mutable {
                               if (!result.ok()) {
                                   const bool timeout = result.error == remoting::InvokeError::Timeout;
                                   stub.code = timeout ? ResponseCode::kConsumeMsgTimeout : ResponseCode::kSystemError;
                                   stub.remark = (timeout ? "consumer <" : "invoke consumer <") + group + "> <"
                                                 + clientId + (timeout ? "> Timeout: " : "> Exception: ")
                                                 + result.errorMessage;
                                   return respond(std::move(stub));
                               }
                               // The client's answer as it came: code, remark, header and body.
                               stub.code = result.response.code;
                               stub.remark = std::move(result.response.remark);
                               stub.extFields = std::move(result.response.extFields);
                               stub.body = std::move(result.response.body);
                               respond(std::move(stub));
                           });
}

void ClientCallProcessor::getConsumerRunningInfo(RemotingCommand request, remoting::Responder respond)
{
    HeaderReader header(request.extFields);
    const std::string group = header.requireString("consumerGroup");
    const std::string clientId = header.requireString("clientId");
    if (!header.ok())
        return respond(systemError(request, header.error()));
    callConsumer(RequestCode::kGetConsumerRunningInfo, request, group, clientId, std::move(respond));
}

void ClientCallProcessor::consumeMessageDirectly(RemotingCommand request, remoting::Responder respond)
{
    HeaderReader header(request.extFields);
    const std::string group = header.requireString("consumerGroup");
    const std::string clientId = header.requireString("clientId");
    const std::string msgId = header.requireString("msgId");
    if (!header.ok())
        return respond(systemError(request, header.error()));
    const std::optional<common::OffsetMessageId> id = common::decodeOffsetMessageId(msgId);
    store::MessageStore &store = broker_.store();
    const auto message = id ? store.lookMessageByOffset(id->commitLogOffset) : std::nullopt;
    const std::string *topic = request.extFields.find("topic");
    const bool ofTopic = !message || !topic || message->topic == *topic
                         || message->properties.get(common::property::kRealTopic) == std::optional<std::string_view>(*topic);
    std::vector<uint8_t> record;
    if (!message || !ofTopic || !store.commitLog().copyRecord(id->commitLogOffset, message->totalSize, record))
        return respond(systemError(request, "can not find message by the id " + msgId + " on this broker"));
    // Java names itself in the forwarded header: the client reports which broker's message it ran.
    remoting::setField(request.extFields, "brokerName", broker_.brokerConfig().brokerName);
    request.body = std::move(record);
    callConsumer(RequestCode::kConsumeMessageDirectly, request, group, clientId, std::move(respond));
}

void ClientCallProcessor::getConsumerStatus(RemotingCommand request, remoting::Responder respond)
{
    HeaderReader header(request.extFields);
    const std::string topic = header.requireString("topic");
    const std::string group = header.requireString("group");
    const std::string onlyClient = header.optString("clientAddr");
    if (!header.ok())
        return respond(systemError(request, header.error()));
    const auto snapshot = broker_.consumers().group(group);
    std::vector<ClientChannelInfo> clients;
    if (snapshot) {
        for (const ClientChannelInfo &client : snapshot->channels) {
            if (!client.channel.channel())
                continue;
            if (client.version < kV3_0_7_Snapshot) {
                return respond(systemError(request, "the client does not support this feature. version="
                                                        + remoting::mqVersionName(client.version)));
            }
            if (onlyClient.empty() || onlyClient == client.clientId)
                clients.push_back(client);
        }
    }
    if (clients.empty() && (!snapshot || snapshot->channels.empty()))
        return respond(systemError(request, "No Any Consumer online in the consumer group: [" + group + "]"));

    // Every client's answer (or its failure, logged and left out, as Java does) gathered; the
    // last callback writes the body.
    struct Gathered
    {
        std::mutex mutex;
        std::map<std::string, std::map<remoting::MessageQueue, int64_t>> byClient;
        std::atomic<size_t> pending{0};
        RemotingCommand stub;
        remoting::Responder respond;
    };
    auto gathered = std::make_shared<Gathered>();
    gathered->pending = clients.size();
    gathered->stub = RemotingCommand::createResponse(request, ResponseCode::kSuccess);
    gathered->respond = std::move(respond);
    const auto finish = [](Gathered &all) {
        std::string body = "{\"consumerTable\":{";
        bool firstClient = true;
        for (const auto &[clientId, queues] : all.byClient) {
            body += (firstClient ? "" : ",") + common::toJsonCompact(common::JsonValue(clientId)) + ":{";
            firstClient = false;
            bool firstQueue = true;
            for (const auto &[queue, offset] : queues) {
                body += (firstQueue ? "" : ",") + remoting::messageQueueKeyText(queue) + ":" + std::to_string(offset);
                firstQueue = false;
            }
            body += "}";
        }
        body += "},\"messageQueueTable\":{}}";
        all.stub.body.assign(body.begin(), body.end());
        all.respond(std::move(all.stub));
    };
    if (clients.empty())
        return finish(*gathered);
    for (const ClientChannelInfo &client : clients) {
        RemotingCommand ask = RemotingCommand::createRequest(RequestCode::kGetConsumerStatusFromClient);
        remoting::setField(ask.extFields, "topic", topic);
        remoting::setField(ask.extFields, "group", group);
        client.channel.invoke(std::move(ask), kStatusTimeout,
                              [gathered, finish, clientId = client.clientId](remoting::InvokeResult result) {
                                  std::map<remoting::MessageQueue, int64_t> queues;
                                  std::string error;
                                  const bool ok = result.ok() && result.response.code == ResponseCode::kSuccess;
                                  const std::string_view body(reinterpret_cast<const char *>(result.response.body.data()),
                                                              result.response.body.size());
                                  if (ok
                                      && remoting::parseMessageQueueMap(
                                          body, "messageQueueTable",
                                          [&](const remoting::MessageQueue &queue, const common::JsonValue &value,
                                              const std::string &path) {
                                              if (!value.isInteger()) {
                                                  error = path + ": expected an offset";
                                                  return false;
                                              }
                                              queues[queue] = value.asInteger();
                                              return true;
                                          },
                                          {}, error)) {
                                      std::lock_guard lock(gathered->mutex);
                                      gathered->byClient[clientId] = std::move(queues);
                                  } else {
                                      spdlog::warn("consumer status of {}: {}", clientId,
                                                   !result.ok() ? result.errorMessage
                                                   : ok         ? error
                                                                : "code " + std::to_string(result.response.code) + " "
                                                                      + result.response.remark.value_or(""));
                                  }
                                  if (gathered->pending.fetch_sub(1) == 1)
                                      finish(*gathered);
                              });
    }
}

} // namespace mqdesk::server
