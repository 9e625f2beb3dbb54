#include "broker/grpc/messaging_service.h"

#include "broker/acl/access_gate.h"

#include "broker/common/clock.h"
#include "broker/common/java_hash.h"
#include "broker/common/message_id.h"
#include "broker/common/record_codec.h"
#include "broker/grpc/access_control.h"
#include "broker/grpc/http2_guard.h"
#include "broker/grpc/message_codec.h"
#include "broker/remoting/protocol/client_data.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/protocol/resource_names.h"
#include "broker/remoting/protocol/topic_attributes.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/broker_controller.h"
#include "broker/server/pop/pop_service.h"
#include "broker/server/pop/pop_records.h"
#include "broker/server/topic_manager.h"
#include "broker/store/config/subscription_group_manager.h"
#include "broker/store/message_store.h"

#include <spdlog/spdlog.h>

namespace mqdesk::grpc {

using remoting::RemotingCommand;
using remoting::RequestCode;
using remoting::ResponseCode;
using server::pop::ExtraInfo;

namespace {

// Guava's Hashing.consistentHash, which the proxy uses to give a message group its queue: the
// same group lands on the same queue as under the Java proxy.
int32_t consistentHash(int64_t input, int32_t buckets)
{
    uint64_t state = static_cast<uint64_t>(input);
    int32_t candidate = 0;
    for (;;) {
        state = 2862933555777941757ULL * state + 1;
        const double next = static_cast<double>(static_cast<int32_t>(state >> 33) + 1) / 2147483648.0;
        const double jump = (candidate + 1) / next;
        if (jump >= 0 && jump < buckets)
            candidate = static_cast<int32_t>(jump);
        else
            return candidate;
    }
}

} // namespace

remoting::LanguageCode languageOf(v2::Language language)
{
    switch (language) {
    case v2::Language::JAVA:
    case v2::Language::KOTLIN:
        return remoting::LanguageCode::Java;
    case v2::Language::CPP:
        return remoting::LanguageCode::Cpp;
    case v2::Language::DOT_NET:
        return remoting::LanguageCode::Dotnet;
    case v2::Language::GOLANG:
        return remoting::LanguageCode::Go;
    case v2::Language::RUST:
        return remoting::LanguageCode::Rust;
    case v2::Language::PYTHON:
        return remoting::LanguageCode::Python;
    case v2::Language::PHP:
        return remoting::LanguageCode::Php;
    case v2::Language::NODE_JS:
        return remoting::LanguageCode::NodeJs;
    case v2::Language::RUBY:
        return remoting::LanguageCode::Ruby;
    default:
        return remoting::LanguageCode::Other;
    }
}

int32_t mqVersionOrdinal(const std::string &version)
{
    int major = 0, minor = 0, patch = 0;
    if (std::sscanf(version.c_str(), "%d.%d.%d", &major, &minor, &patch) != 3 || major != 5 || minor < 0 || minor > 9
        || patch < 0 || patch > 9)
        return 0;
    return 413 + 20 * minor + 2 * patch;
}

std::string metadataValue(const ::grpc::CallbackServerContext *context, std::string_view key)
{
    const auto &metadata = context->client_metadata();
    const auto it = metadata.find(::grpc::string_ref(key.data(), key.size()));
    return it == metadata.end() ? std::string() : std::string(it->second.data(), it->second.size());
}

std::string peerAddressOf(const ::grpc::CallbackServerContext *context)
{
    std::string peer = Http2Guard::peerOf(context->peer());
    for (const char *prefix : {"ipv4:", "ipv6:"}) {
        if (peer.rfind(prefix, 0) == 0)
            return peer.substr(5);
    }
    return peer;
}

v2::Status statusOfResponse(const RemotingCommand &response, v2::Code otherwise)
{
    const std::string remark = response.remark.value_or("");
    switch (response.code) {
    case ResponseCode::kSuccess:
        return makeStatus(v2::Code::OK);
    case ResponseCode::kSystemBusy:
        return makeStatus(v2::Code::TOO_MANY_REQUESTS, remark);
    case ResponseCode::kFlushDiskTimeout:
        return makeStatus(v2::Code::MASTER_PERSISTENCE_TIMEOUT, remark);
    case ResponseCode::kFlushSlaveTimeout:
        return makeStatus(v2::Code::SLAVE_PERSISTENCE_TIMEOUT, remark);
    case ResponseCode::kSlaveNotAvailable:
        return makeStatus(v2::Code::HA_NOT_AVAILABLE, remark);
    case ResponseCode::kTopicNotExist:
        return makeStatus(v2::Code::TOPIC_NOT_FOUND, remark);
    case ResponseCode::kSubscriptionGroupNotExist:
        return makeStatus(v2::Code::CONSUMER_GROUP_NOT_FOUND, remark);
    case ResponseCode::kNoPermission:
        return makeStatus(v2::Code::FORBIDDEN, remark);
    case ResponseCode::kSubscriptionParseFailed:
        return makeStatus(v2::Code::ILLEGAL_FILTER_EXPRESSION, remark);
    case ResponseCode::kPollingFull:
        return makeStatus(v2::Code::TOO_MANY_REQUESTS, remark);
    case ResponseCode::kLmqQuotaExceeded: // the proxy's ResponseBuilder
        return makeStatus(v2::Code::LITE_TOPIC_QUOTA_EXCEEDED, remark);
    case ResponseCode::kLiteSubscriptionQuotaExceeded:
        return makeStatus(v2::Code::LITE_SUBSCRIPTION_QUOTA_EXCEEDED, remark);
    case ResponseCode::kPollingTimeout:
    case ResponseCode::kNoMessage:
    case ResponseCode::kPullNotFound:
        return makeStatus(v2::Code::MESSAGE_NOT_FOUND, "no new message");
    default:
        return makeStatus(otherwise, remark.empty() ? "broker answered code " + std::to_string(response.code) : remark);
    }
}

v2::Status checkTopicName(const std::string &topic)
{
    std::string error;
    if (!remoting::validateTopicName(topic, error))
        return makeStatus(v2::Code::ILLEGAL_TOPIC, error);
    return makeStatus(v2::Code::OK);
}

v2::Status checkGroupName(const std::string &group)
{
    if (const std::string error = remoting::groupNameError(group); !error.empty())
        return makeStatus(v2::Code::ILLEGAL_CONSUMER_GROUP, error);
    return makeStatus(v2::Code::OK);
}

MessagingService::MessagingService(server::BrokerController &broker, MessagingServiceConfig config)
    : broker_(broker)
    , config_(std::move(config))
    , clients_(
          [this](const std::string &clientId, const std::string &peerAddress) {
              return std::make_shared<LocalChannel>(
                  broker_, peerAddress,
                  [this, clientId](RemotingCommand request) { onBrokerRequest(clientId, std::move(request)); },
                  [this, clientId](const RemotingCommand &request, const std::string &nonce) {
                      return askClient(clientId, request, nonce);
                  });
          },
          [this](GrpcClient &client) {
              renewals_.forgetClient(client.clientId());
              // A lite client's topics go to its group's other clients (the Java proxy's COMPLETE_REMOVE).
              broker_.pop().removeLiteClient(client.clientId());
              client.channel()->close("client left");
              broker_.localConnectionClosed(client.channel()->id());
          })
{
}

MessagingService::~MessagingService() = default;

void MessagingService::sweep()
{
    const int64_t now = common::wallMillis();
    clients_.sweep(now);
    renewDueReceipts(now);
}

void MessagingService::shutdown()
{
    clients_.clear();
}

bool MessagingService::admitted(const ::grpc::CallbackServerContext *context, const google::protobuf::Message *request,
                                v2::Status &refusal) const
{
    const acl::AccessGate *gate = broker_.accessGate();
    if (broker_.accessValidator() || (gate && gate->store())) {
        refusal = checkAccess(broker_.accessValidator(), gate, context, request);
        if (!isOk(refusal))
            return false;
    }
    if (metadataValue(context, "x-mq-client-id").empty()) {
        refusal = makeStatus(v2::Code::CLIENT_ID_REQUIRED, "x-mq-client-id is missing");
        return false;
    }
    return true;
}

std::shared_ptr<GrpcClient> MessagingService::admit(::grpc::CallbackServerContext *context,
                                                    const google::protobuf::Message *request, v2::Status &refusal)
{
    return admitted(context, request, refusal) ? clientOf(context) : nullptr;
}

std::shared_ptr<GrpcClient> MessagingService::clientOf(::grpc::CallbackServerContext *context)
{
    const std::string clientId = metadataValue(context, "x-mq-client-id");
    if (clientId.empty())
        return nullptr;
    return clients_.getOrCreate(clientId, peerAddressOf(context), common::wallMillis());
}

RemotingCommand MessagingService::newRequest(const GrpcClient &client, int32_t code) const
{
    RemotingCommand request = RemotingCommand::createRequest(code);
    const GrpcClientInfo info = client.info();
    request.language = info.language;
    if (const int32_t version = mqVersionOrdinal(info.version); version > 0)
        request.version = version;
    return request;
}

RemotingCommand MessagingService::handleRequest(const GrpcClient &client, int32_t code, const std::string &group,
                                               const std::string &topic, const ExtraInfo &info,
                                               const std::string &handle) const
{
    RemotingCommand request = newRequest(client, code);
    remoting::setField(request.extFields, "consumerGroup", group);
    remoting::setField(request.extFields, "topic", server::pop::realTopic(info.retry, topic, group));
    remoting::setField(request.extFields, "queueId", info.queueId);
    remoting::setField(request.extFields, "extraInfo", handle);
    remoting::setField(request.extFields, "offset", info.queueOffset);
    // A lite topic's message (a FIFO handle on a LITE topic; its offset is its LMQ's): the lite
    // topic from the stored message, so that every settling path acts on the LMQ — the SDK's ack,
    // a 5.2.0 nack sent without lite_topic, the renewals, the DLQ's ack.
    if (info.reviveQid == server::pop::kOrderReviveQid && info.retry == "0" && info.commitLogOffset >= 0) {
        const auto config = broker_.topics().find(topic);
        const std::string *type = config ? config->attributes.find(remoting::kMessageTypeAttribute) : nullptr;
        if (type && *type == remoting::kLiteMessageType) {
            if (const auto stored = broker_.store().lookMessageByOffset(info.commitLogOffset)) {
                if (const auto liteTopic = stored->properties.get(common::property::kLiteTopic))
                    remoting::setField(request.extFields, "liteTopic", std::string(*liteTopic));
            }
        }
    }
    return request;
}

void MessagingService::callBroker(GrpcClient &client, RemotingCommand request, std::chrono::milliseconds timeout,
                                  LocalChannel::Done done)
{
    client.channel()->call(std::move(request), timeout, std::move(done));
}

void MessagingService::fillBroker(v2::Broker *broker) const
{
    broker->set_name(broker_.brokerConfig().brokerName);
    broker->set_id(0);
    v2::Endpoints &endpoints = *broker->mutable_endpoints();
    endpoints.set_scheme(config_.advertisedHost.find(':') != std::string::npos ? v2::AddressScheme::IPv6
                                                                                : v2::AddressScheme::IPv4);
    v2::Address &address = *endpoints.add_addresses();
    address.set_host(config_.advertisedHost);
    address.set_port(port_.load());
}

void MessagingService::registerWithBroker(GrpcClient &client, const v2::Settings &settings,
                                          std::function<void(v2::Status)> done)
{
    remoting::HeartbeatData heartbeat;
    heartbeat.clientId = client.clientId();
    if (settings.has_publishing()) {
        for (const v2::Resource &topic : settings.publishing().topics())
            heartbeat.producerDataSet.push_back(remoting::ProducerData{topic.name()});
    } else if (settings.has_subscription()) {
        const v2::Subscription &subscription = settings.subscription();
        remoting::ConsumerData consumer;
        consumer.groupName = subscription.group().name();
        consumer.consumeType = consumeTypeOf(settings.client_type());
        consumer.subscriptionDataSet = subscriptionDataOf(subscription);
        heartbeat.consumerDataSet.push_back(std::move(consumer));
    }
    RemotingCommand request = newRequest(client, RequestCode::kHeartBeat);
    const std::string body = heartbeat.toJson();
    request.body.assign(body.begin(), body.end());
    callBroker(client, std::move(request), kBrokerCallTimeout, [done = std::move(done)](RemotingCommand response) {
        done(statusOfResponse(response, v2::Code::INTERNAL_SERVER_ERROR));
    });
}

// ---- QueryRoute --------------------------------------------------------------------------------

::grpc::ServerUnaryReactor *MessagingService::QueryRoute(::grpc::CallbackServerContext *context,
                                                         const v2::QueryRouteRequest *request,
                                                         v2::QueryRouteResponse *response)
{
    if (v2::Status refusal; !admit(context, request, refusal))
        return answer(context, response, std::move(refusal));
    const std::string &topicName = request->topic().name();
    if (v2::Status status = checkTopicName(topicName); !isOk(status))
        return answer(context, response, std::move(status));
    std::optional<store::TopicConfig> topic = broker_.topics().find(topicName);
    if (!topic && broker_.topics().createTopicForRouteLookup(topicName))
        topic = broker_.topics().find(topicName);
    if (!topic)
        return answer(context, response, makeStatus(v2::Code::TOPIC_NOT_FOUND, "topic " + topicName + " not found"));

    const auto addQueues = [&](int32_t count, v2::Permission permission, int32_t &nextId) {
        for (int32_t i = 0; i < count; ++i) {
            v2::MessageQueue &queue = *response->add_message_queues();
            queue.mutable_topic()->set_name(topicName);
            queue.mutable_topic()->set_resource_namespace(request->topic().resource_namespace());
            queue.set_id(nextId++);
            queue.set_permission(permission);
            fillBroker(queue.mutable_broker());
            for (v2::MessageType type : acceptedMessageTypes(*topic))
                queue.add_accept_message_types(type);
        }
    };
    // Java's layout (spec §3.2): read-write queues first is what clients need (queue 0 READ_WRITE),
    // then the read-only and write-only rest.
    const bool readable = (topic->perm & store::perm::kRead) != 0;
    const bool writable = (topic->perm & store::perm::kWrite) != 0;
    int32_t nextId = 0;
    if (readable && writable) {
        const int32_t both = std::min(topic->readQueueNums, topic->writeQueueNums);
        addQueues(both, v2::Permission::READ_WRITE, nextId);
        addQueues(topic->readQueueNums - both, v2::Permission::READ, nextId);
        addQueues(topic->writeQueueNums - both, v2::Permission::WRITE, nextId);
    } else if (readable) {
        addQueues(topic->readQueueNums, v2::Permission::READ, nextId);
    } else if (writable) {
        addQueues(topic->writeQueueNums, v2::Permission::WRITE, nextId);
    } else {
        addQueues(std::max({1, topic->readQueueNums, topic->writeQueueNums}), v2::Permission::NONE, nextId);
    }
    return answer(context, response, makeStatus(v2::Code::OK));
}

// ---- Heartbeat ---------------------------------------------------------------------------------

::grpc::ServerUnaryReactor *MessagingService::Heartbeat(::grpc::CallbackServerContext *context,
                                                        const v2::HeartbeatRequest *request,
                                                        v2::HeartbeatResponse *response)
{
    v2::Status refusal;
    std::shared_ptr<GrpcClient> client = admit(context, request, refusal);
    if (!client)
        return answer(context, response, std::move(refusal));
    const std::optional<v2::Settings> settings = client->settings();
    if (!settings)
        return answer(context, response,
                      makeStatus(v2::Code::UNRECOGNIZED_CLIENT_TYPE, "no settings from this client yet (telemetry)"));
    (void)request;
    ::grpc::ServerUnaryReactor *reactor = context->DefaultReactor();
    registerWithBroker(*client, *settings, [reactor, response](v2::Status status) {
        *response->mutable_status() = std::move(status);
        reactor->Finish(::grpc::Status::OK);
    });
    return reactor;
}

// ---- SendMessage -------------------------------------------------------------------------------

namespace {

struct SendState
{
    v2::SendMessageResponse *response = nullptr;
    ::grpc::ServerUnaryReactor *reactor = nullptr;
    std::mutex mutex;
    std::vector<v2::SendResultEntry> entries;
    size_t pending = 0;

    void finishOne(size_t index, v2::SendResultEntry entry)
    {
        std::unique_lock lock(mutex);
        entries[index] = std::move(entry);
        if (--pending != 0)
            return;
        bool allSame = true;
        for (const v2::SendResultEntry &e : entries)
            allSame = allSame && e.status().code() == entries.front().status().code();
        *response->mutable_status() =
            allSame ? entries.front().status() : makeStatus(v2::Code::MULTIPLE_RESULTS, "the messages had different results");
        for (v2::SendResultEntry &e : entries)
            *response->add_entries() = std::move(e);
        lock.unlock();
        reactor->Finish(::grpc::Status::OK);
    }
};

} // namespace

::grpc::ServerUnaryReactor *MessagingService::SendMessage(::grpc::CallbackServerContext *context,
                                                          const v2::SendMessageRequest *request,
                                                          v2::SendMessageResponse *response)
{
    v2::Status refusal;
    std::shared_ptr<GrpcClient> client = admit(context, request, refusal);
    if (!client)
        return answer(context, response, std::move(refusal));
    if (request->messages_size() == 0)
        return answer(context, response, makeStatus(v2::Code::MESSAGE_CORRUPTED, "no message to send"));
    const std::string &topicName = request->messages(0).topic().name();
    for (const v2::Message &message : request->messages()) {
        if (message.topic().name() != topicName)
            return answer(context, response,
                          makeStatus(v2::Code::MESSAGE_CORRUPTED, "the messages of one send must share a topic"));
    }
    if (v2::Status status = checkTopicName(topicName); !isOk(status))
        return answer(context, response, std::move(status));
    const std::optional<store::TopicConfig> topic = broker_.topics().find(topicName);
    if (!topic)
        return answer(context, response, makeStatus(v2::Code::TOPIC_NOT_FOUND, "topic " + topicName + " not found"));
    if ((topic->perm & store::perm::kWrite) == 0 || topic->writeQueueNums <= 0)
        return answer(context, response, makeStatus(v2::Code::FORBIDDEN, "topic " + topicName + " is not writable"));

    const int64_t now = common::wallMillis();
    const std::string peer = peerAddressOf(context);
    std::vector<common::BrokerMessage> messages(static_cast<size_t>(request->messages_size()));
    for (int i = 0; i < request->messages_size(); ++i) {
        v2::Status status = toBrokerMessage(request->messages(i), *topic, true, peer, now, SendLimits{}, messages[i]);
        if (!isOk(status))
            return answer(context, response, std::move(status));
    }

    auto state = std::make_shared<SendState>();
    state->response = response;
    state->reactor = context->DefaultReactor();
    state->entries.resize(messages.size());
    state->pending = messages.size();
    for (size_t i = 0; i < messages.size(); ++i) {
        common::BrokerMessage &message = messages[i];
        const v2::Message &sent = request->messages(static_cast<int>(i));
        int32_t queueId = 0;
        if (sent.system_properties().has_message_group() && messages.size() == 1)
            queueId = consistentHash(common::javaStringHashCode(sent.system_properties().message_group()),
                                     topic->writeQueueNums);
        else
            queueId = static_cast<int32_t>(nextQueue_.fetch_add(1) % static_cast<uint32_t>(topic->writeQueueNums));

        RemotingCommand send = newRequest(*client, RequestCode::kSendMessage);
        remoting::setField(send.extFields, "producerGroup", topicName);
        remoting::setField(send.extFields, "topic", topicName);
        remoting::setField(send.extFields, "defaultTopic", "TBW102");
        remoting::setField(send.extFields, "defaultTopicQueueNums", int32_t{4});
        remoting::setField(send.extFields, "queueId", queueId);
        remoting::setField(send.extFields, "sysFlag", message.sysFlag);
        remoting::setField(send.extFields, "bornTimestamp", message.bornTimestamp);
        remoting::setField(send.extFields, "flag", int32_t{0});
        remoting::setField(send.extFields, "properties", message.properties.encode());
        remoting::setField(send.extFields, "reconsumeTimes", message.reconsumeTimes);
        remoting::setField(send.extFields, "unitMode", false);
        remoting::setField(send.extFields, "batch", false);
        send.body = std::move(message.body);
        const bool transactional = (message.sysFlag & common::sysflag::kTransactionPrepared) != 0;
        callBroker(*client, std::move(send), kBrokerCallTimeout,
                   [state, i, messageId = sent.system_properties().message_id(), transactional](RemotingCommand answer) {
                       v2::SendResultEntry entry;
                       *entry.mutable_status() = statusOfResponse(answer, v2::Code::INTERNAL_SERVER_ERROR);
                       if (isOk(entry.status()) || answer.code == ResponseCode::kFlushDiskTimeout) {
                           entry.set_message_id(messageId);
                           remoting::HeaderReader reader(answer.extFields);
                           entry.set_offset(reader.optInt64("queueOffset", 0));
                           // The offset message id names the half message's commit-log offset:
                           // EndTransaction finds it from the id alone (and after a restart).
                           std::string offsetId = reader.optString("msgId");
                           offsetId = offsetId.substr(0, offsetId.find(','));
                           if (transactional)
                               entry.set_transaction_id(offsetId);
                           entry.set_recall_handle(reader.optString("recallHandle"));
                       }
                       state->finishOne(i, std::move(entry));
                   });
    }
    return state->reactor;
}

// ---- QueryAssignment ---------------------------------------------------------------------------

::grpc::ServerUnaryReactor *MessagingService::QueryAssignment(::grpc::CallbackServerContext *context,
                                                              const v2::QueryAssignmentRequest *request,
                                                              v2::QueryAssignmentResponse *response)
{
    if (v2::Status refusal; !admit(context, request, refusal))
        return answer(context, response, std::move(refusal));
    const std::string &topicName = request->topic().name();
    if (v2::Status status = checkTopicName(topicName); !isOk(status))
        return answer(context, response, std::move(status));
    if (v2::Status status = checkGroupName(request->group().name()); !isOk(status))
        return answer(context, response, std::move(status));
    const std::optional<store::TopicConfig> topic = broker_.topics().find(topicName);
    if (!topic)
        return answer(context, response, makeStatus(v2::Code::TOPIC_NOT_FOUND, "topic " + topicName + " not found"));
    if ((topic->perm & store::perm::kRead) == 0 || topic->readQueueNums <= 0)
        return answer(context, response, makeStatus(v2::Code::FORBIDDEN, "no readable queue"));
    const auto group = broker_.subscriptionGroups().findSubscriptionGroupConfig(request->group().name());
    // Java: one assignment per broker meaning "any queue" (id -1), or per queue for a FIFO group
    // that is no lite group (a lite group's order is per lite topic, kept by the broker).
    const bool lite = group && group->attributes.find(remoting::kLiteBindTopicAttribute) != nullptr;
    const bool fifo = group && group->consumeMessageOrderly && !lite;
    const int32_t count = fifo ? topic->readQueueNums : 1;
    for (int32_t i = 0; i < count; ++i) {
        v2::MessageQueue &queue = *response->add_assignments()->mutable_message_queue();
        *queue.mutable_topic() = request->topic();
        queue.set_id(fifo ? i : -1);
        queue.set_permission((topic->perm & store::perm::kWrite) != 0 ? v2::Permission::READ_WRITE : v2::Permission::READ);
        fillBroker(queue.mutable_broker());
        for (v2::MessageType type : acceptedMessageTypes(*topic))
            queue.add_accept_message_types(type);
    }
    return answer(context, response, makeStatus(v2::Code::OK));
}

// ---- EndTransaction ----------------------------------------------------------------------------

::grpc::ServerUnaryReactor *MessagingService::EndTransaction(::grpc::CallbackServerContext *context,
                                                             const v2::EndTransactionRequest *request,
                                                             v2::EndTransactionResponse *response)
{
    v2::Status refusal;
    std::shared_ptr<GrpcClient> client = admit(context, request, refusal);
    if (!client)
        return answer(context, response, std::move(refusal));
    const std::string &topic = request->topic().name();
    if (v2::Status status = checkTopicName(topic); !isOk(status))
        return answer(context, response, std::move(status));
    if (request->transaction_id().empty())
        return answer(context, response, makeStatus(v2::Code::INVALID_TRANSACTION_ID, "transaction id is blank"));
    const std::optional<common::OffsetMessageId> id = common::decodeOffsetMessageId(request->transaction_id());
    const std::optional<common::StoredMessage> half =
        id ? broker_.store().lookMessageByOffset(id->commitLogOffset) : std::nullopt;
    if (!half)
        return answer(context, response,
                      makeStatus(v2::Code::INVALID_TRANSACTION_ID,
                                 "transaction " + request->transaction_id() + " names no prepared message"));
    int32_t resolution = common::sysflag::kTransactionNotType;
    if (request->resolution() == v2::TransactionResolution::COMMIT)
        resolution = common::sysflag::kTransactionCommit;
    else if (request->resolution() == v2::TransactionResolution::ROLLBACK)
        resolution = common::sysflag::kTransactionRollback;
    RemotingCommand end = newRequest(*client, RequestCode::kEndTransaction);
    remoting::setField(end.extFields, "producerGroup", topic);
    remoting::setField(end.extFields, "tranStateTableOffset", half->queueOffset);
    remoting::setField(end.extFields, "commitLogOffset", id->commitLogOffset);
    remoting::setField(end.extFields, "commitOrRollback", resolution);
    remoting::setField(end.extFields, "fromTransactionCheck",
                       request->source() == v2::TransactionSource::SOURCE_SERVER_CHECK);
    remoting::setField(end.extFields, "msgId", request->message_id());
    remoting::setField(end.extFields, "transactionId", request->transaction_id());
    if (resolution == common::sysflag::kTransactionNotType) {
        // "Unknown": the broker answers nothing and checks again later (as for a 4.x producer).
        end.markOneway();
    }
    ::grpc::ServerUnaryReactor *reactor = context->DefaultReactor();
    callBroker(*client, std::move(end), kBrokerCallTimeout, [reactor, response](RemotingCommand answer) {
        *response->mutable_status() = statusOfResponse(answer, v2::Code::INTERNAL_SERVER_ERROR);
        reactor->Finish(::grpc::Status::OK);
    });
    return reactor;
}

// ---- NotifyClientTermination -------------------------------------------------------------------

::grpc::ServerUnaryReactor *MessagingService::NotifyClientTermination(::grpc::CallbackServerContext *context,
                                                                      const v2::NotifyClientTerminationRequest *request,
                                                                      v2::NotifyClientTerminationResponse *response)
{
    if (v2::Status refusal; !admitted(context, request, refusal))
        return answer(context, response, std::move(refusal));
    const std::string clientId = metadataValue(context, "x-mq-client-id");
    std::shared_ptr<GrpcClient> client = clients_.find(clientId);
    if (!client || !client->settings())
        return answer(context, response, makeStatus(v2::Code::UNRECOGNIZED_CLIENT_TYPE, "unknown client " + clientId));
    const v2::Settings settings = *client->settings();
    RemotingCommand unregister = newRequest(*client, RequestCode::kUnregisterClient);
    remoting::setField(unregister.extFields, "clientID", clientId);
    if (request->has_group() && !request->group().name().empty())
        remoting::setField(unregister.extFields, "consumerGroup", request->group().name());
    else if (settings.has_subscription())
        remoting::setField(unregister.extFields, "consumerGroup", settings.subscription().group().name());
    else if (settings.has_publishing() && settings.publishing().topics_size() > 0)
        remoting::setField(unregister.extFields, "producerGroup", settings.publishing().topics(0).name());
    ::grpc::ServerUnaryReactor *reactor = context->DefaultReactor();
    callBroker(*client, std::move(unregister), kBrokerCallTimeout,
               [this, clientId, reactor, response](RemotingCommand) {
                   // Leaving closes the channel: every producer group and consumer registration goes.
                   clients_.remove(clientId);
                   *response->mutable_status() = makeStatus(v2::Code::OK);
                   reactor->Finish(::grpc::Status::OK);
               });
    return reactor;
}

// ---- RecallMessage -----------------------------------------------------------------------------

::grpc::ServerUnaryReactor *MessagingService::RecallMessage(::grpc::CallbackServerContext *context,
                                                            const v2::RecallMessageRequest *request,
                                                            v2::RecallMessageResponse *response)
{
    v2::Status refusal;
    std::shared_ptr<GrpcClient> client = admit(context, request, refusal);
    if (!client)
        return answer(context, response, std::move(refusal));
    const std::string &topicName = request->topic().name();
    if (v2::Status status = checkTopicName(topicName); !isOk(status))
        return answer(context, response, std::move(status));
    const std::optional<store::TopicConfig> topic = broker_.topics().find(topicName);
    if (!topic)
        return answer(context, response, makeStatus(v2::Code::TOPIC_NOT_FOUND, "topic " + topicName + " not found"));
    // The Java proxy's topic message type check: only a DELAY (or MIXED) topic has recallable messages.
    const std::vector<v2::MessageType> accepted = acceptedMessageTypes(*topic);
    if (std::find(accepted.begin(), accepted.end(), v2::MessageType::DELAY) == accepted.end())
        return answer(context, response,
                      makeStatus(v2::Code::MESSAGE_PROPERTY_CONFLICT_WITH_TYPE,
                                 "topic " + topicName + " is not a DELAY topic: it has no message to recall"));
    RemotingCommand recall = newRequest(*client, RequestCode::kRecallMessage);
    remoting::setField(recall.extFields, "topic", topicName);
    remoting::setField(recall.extFields, "recallHandle", request->recall_handle());
    remoting::setField(recall.extFields, "brokerName", broker_.brokerConfig().brokerName);
    if (const std::optional<v2::Settings> settings = client->settings();
        settings && settings->has_publishing() && settings->publishing().topics_size() > 0)
        remoting::setField(recall.extFields, "producerGroup", settings->publishing().topics(0).name());
    ::grpc::ServerUnaryReactor *reactor = context->DefaultReactor();
    callBroker(*client, std::move(recall), kBrokerCallTimeout, [reactor, response](RemotingCommand answer) {
        // The Java proxy passes the broker's refusal on as INTERNAL_SERVER_ERROR with its remark.
        *response->mutable_status() = statusOfResponse(answer, v2::Code::INTERNAL_SERVER_ERROR);
        if (isOk(response->status()))
            response->set_message_id(remoting::HeaderReader(answer.extFields).optString("msgId"));
        reactor->Finish(::grpc::Status::OK);
    });
    return reactor;
}

// ---- Broker-initiated requests -----------------------------------------------------------------

void MessagingService::onBrokerRequest(const std::string &clientId, RemotingCommand request)
{
    std::shared_ptr<GrpcClient> client = clients_.find(clientId);
    if (!client)
        return;
    if (request.code == RequestCode::kCheckTransactionState)
        recoverOrphanedTransaction(*client, request);
    if (request.code == RequestCode::kNotifyUnsubscribeLite) {
        // An Exclusive lite group's newer subscriber took the lite topic: the client drops it
        // from its set (the Java proxy's relay; no answer is expected).
        v2::TelemetryCommand command;
        command.mutable_notify_unsubscribe_lite_command()->set_lite_topic(request.extFields.value("liteTopic"));
        if (!client->pushTelemetry(std::move(command)))
            spdlog::info("grpc: lite consumer {} has no telemetry stream for its unsubscribe notice", clientId);
    }
    // NOTIFY_CONSUMER_IDS_CHANGED and the rest: a 5.x client rebalances nothing itself.
}

void MessagingService::recoverOrphanedTransaction(GrpcClient &client, const RemotingCommand &check)
{
    const common::DecodeResult decoded = common::decodeRecord(check.body);
    if (decoded.status != common::DecodeStatus::Ok) {
        spdlog::warn("grpc: transaction check for {} has no readable message: {}", client.clientId(), decoded.error);
        return;
    }
    const common::StoredMessage message = decoded.record.materialize();
    remoting::HeaderReader reader(check.extFields);
    const int64_t commitLogOffset = reader.optInt64("commitLogOffset", message.physicalOffset);
    v2::TelemetryCommand command;
    v2::RecoverOrphanedTransactionCommand &recover = *command.mutable_recover_orphaned_transaction_command();
    *recover.mutable_message() = toProtoMessage(message, message.topic, std::nullopt, 0);
    // The id of the half message as re-appended for this check: EndTransaction finds it by it.
    const auto storeHost = common::HostAddress::parse(broker_.brokerAddress());
    recover.set_transaction_id(
        common::createOffsetMessageId(storeHost.value_or(message.storeHost), commitLogOffset));
    if (!client.pushTelemetry(std::move(command)))
        spdlog::info("grpc: producer {} has no telemetry stream for a transaction check", client.clientId());
}

} // namespace mqdesk::grpc
