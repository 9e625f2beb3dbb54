#pragma once

// MessagingService: apache.rocketmq.v2.MessagingService on grpc++'s callback API, over one
// BrokerController (grpc-proxy spec). Every RPC turns into the remoting requests RocketMQ's proxy
// makes in local mode, run by the broker's own processors through the client's LocalChannel:
//
//   QueryRoute, QueryAssignment      the topic table (no request)            messaging_service.cpp
//   Heartbeat, Telemetry Settings    HEART_BEAT (producer group = topic)     messaging_service.cpp, telemetry.cpp
//   SendMessage                      SEND_MESSAGE, the queue chosen here     messaging_service.cpp
//   ReceiveMessage                   POP_MESSAGE over every queue (id -1)    receive_message.cpp
//   AckMessage                       ACK_MESSAGE                             settle_message.cpp
//   ChangeInvisibleDuration          CHANGE_MESSAGE_INVISIBLETIME            settle_message.cpp
//   ForwardMessageToDeadLetterQueue  CONSUMER_SEND_MSG_BACK (delay -1), ACK  settle_message.cpp
//   EndTransaction                   END_TRANSACTION                         messaging_service.cpp
//   NotifyClientTermination          UNREGISTER_CLIENT, the client leaves    messaging_service.cpp
//   RecallMessage                    RECALL_MESSAGE                          messaging_service.cpp
//   SyncLiteSubscription             LITE_SUBSCRIPTION_CTL                   lite_subscription.cpp
//
// A PushConsumer's deliveries (auto_renew) stay invisible while it consumes them: their receipts
// are renewed before their time is up (receipt_renewals.h), and the settling RPCs use the latest.
//
// Business errors are answered in the response's Status with RocketMQ's codes; a gRPC error only
// for what the protocol defines so (an unset pub_sub in Settings, unimplemented RPCs).
//
// Threads: grpc++'s callback threads run the RPC methods and must not block: each call is
// finished from the broker executor thread that answers its remoting request. The receipt handle
// is the proxy's: the broker's eight POP_CK fields and the commit-log offset (spec §5).

#include "broker/grpc/client_registry.h"
#include "broker/grpc/receipt_renewals.h"

#include "apache/rocketmq/v2/service.grpc.pb.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace mqdesk::store {
struct SubscriptionGroupConfig;
}
namespace mqdesk::server {
class BrokerController;
namespace pop {
struct ExtraInfo;
}
}

namespace mqdesk::grpc {

struct MessagingServiceConfig
{
    std::string advertisedHost = "127.0.0.1";
    // How long a consumer's receive may wait for messages: what it asks within [min, this];
    // this is what Settings tell it. Java's 5 s and 20 s (grpcClientConsumer*LongPollingTimeoutMillis).
    int64_t minLongPollingMillis = 5'000;
    int64_t consumerLongPollingMillis = 20'000;
};

class MessagingService final : public v2::MessagingService::CallbackService
{
public:
    MessagingService(server::BrokerController &broker, MessagingServiceConfig config);
    ~MessagingService() override;

    void setPort(uint16_t port) { port_.store(port); }
    ClientRegistry &clients() { return clients_; }
    // Expires overdue broker calls and idle clients (the endpoint's ticker, every 200 ms).
    void sweep();
    // Every client leaves (the endpoint is stopping).
    void shutdown();

    ::grpc::ServerUnaryReactor *QueryRoute(::grpc::CallbackServerContext *context, const v2::QueryRouteRequest *request,
                                           v2::QueryRouteResponse *response) override;
    ::grpc::ServerUnaryReactor *Heartbeat(::grpc::CallbackServerContext *context, const v2::HeartbeatRequest *request,
                                          v2::HeartbeatResponse *response) override;
    ::grpc::ServerUnaryReactor *SendMessage(::grpc::CallbackServerContext *context,
                                            const v2::SendMessageRequest *request,
                                            v2::SendMessageResponse *response) override;
    ::grpc::ServerUnaryReactor *QueryAssignment(::grpc::CallbackServerContext *context,
                                                const v2::QueryAssignmentRequest *request,
                                                v2::QueryAssignmentResponse *response) override;
    ::grpc::ServerWriteReactor<v2::ReceiveMessageResponse> *ReceiveMessage(
        ::grpc::CallbackServerContext *context, const v2::ReceiveMessageRequest *request) override;
    ::grpc::ServerUnaryReactor *AckMessage(::grpc::CallbackServerContext *context, const v2::AckMessageRequest *request,
                                           v2::AckMessageResponse *response) override;
    ::grpc::ServerUnaryReactor *ForwardMessageToDeadLetterQueue(
        ::grpc::CallbackServerContext *context, const v2::ForwardMessageToDeadLetterQueueRequest *request,
        v2::ForwardMessageToDeadLetterQueueResponse *response) override;
    ::grpc::ServerUnaryReactor *EndTransaction(::grpc::CallbackServerContext *context,
                                               const v2::EndTransactionRequest *request,
                                               v2::EndTransactionResponse *response) override;
    ::grpc::ServerBidiReactor<v2::TelemetryCommand, v2::TelemetryCommand> *Telemetry(
        ::grpc::CallbackServerContext *context) override;
    ::grpc::ServerUnaryReactor *NotifyClientTermination(::grpc::CallbackServerContext *context,
                                                        const v2::NotifyClientTerminationRequest *request,
                                                        v2::NotifyClientTerminationResponse *response) override;
    ::grpc::ServerUnaryReactor *ChangeInvisibleDuration(::grpc::CallbackServerContext *context,
                                                        const v2::ChangeInvisibleDurationRequest *request,
                                                        v2::ChangeInvisibleDurationResponse *response) override;
    ::grpc::ServerUnaryReactor *RecallMessage(::grpc::CallbackServerContext *context,
                                              const v2::RecallMessageRequest *request,
                                              v2::RecallMessageResponse *response) override;
    ::grpc::ServerUnaryReactor *SyncLiteSubscription(::grpc::CallbackServerContext *context,
                                                     const v2::SyncLiteSubscriptionRequest *request,
                                                     v2::SyncLiteSubscriptionResponse *response) override;

    // For receive_message.cpp and telemetry.cpp.
    server::BrokerController &broker() { return broker_; }
    const MessagingServiceConfig &config() const { return config_; }
    // Whether a call may proceed: it passed the ACL when aclEnable=true (access_control.h) and
    // names its client (x-mq-client-id); else false with `refusal` (UNAUTHORIZED,
    // CLIENT_ID_REQUIRED). `request` null for a telemetry stream opening.
    bool admitted(const ::grpc::CallbackServerContext *context, const google::protobuf::Message *request,
                  v2::Status &refusal) const;
    // The client of an admitted call, registered on first sight; null with `refusal` otherwise.
    std::shared_ptr<GrpcClient> admit(::grpc::CallbackServerContext *context, const google::protobuf::Message *request,
                                      v2::Status &refusal);
    // The client a call comes from (x-mq-client-id), registered on first sight; null when the
    // call names none. Only for calls admitted already.
    std::shared_ptr<GrpcClient> clientOf(::grpc::CallbackServerContext *context);
    // A remoting request in the client's language, sent on its channel.
    void callBroker(GrpcClient &client, remoting::RemotingCommand request, std::chrono::milliseconds timeout,
                    LocalChannel::Done done);
    remoting::RemotingCommand newRequest(const GrpcClient &client, int32_t code) const;
    // ACK_MESSAGE or CHANGE_MESSAGE_INVISIBLETIME of the message a receipt handle names: the
    // handle's queue and offset, on the retry topic when the handle says so.
    remoting::RemotingCommand handleRequest(const GrpcClient &client, int32_t code, const std::string &group,
                                            const std::string &topic, const server::pop::ExtraInfo &info,
                                            const std::string &handle) const;
    // HEART_BEAT with what the client's Settings say it is (producer of its topics, or consumer
    // of its group); `done` gets the broker's answer.
    void registerWithBroker(GrpcClient &client, const v2::Settings &settings, std::function<void(v2::Status)> done);
    // The broker's "Broker" of a route or assignment: its name, id 0, our gRPC address.
    void fillBroker(v2::Broker *broker) const;

    // The client's answer (a ThreadStackTrace or VerifyMessageResult on its telemetry stream) to
    // a request the broker asked of it through askClient (client_calls.cpp).
    void answerFromClient(GrpcClient &client, const v2::TelemetryCommand &command);

    // A PushConsumer's delivery (ReceiveMessage with auto_renew), kept invisible while consumed.
    void keepReceipt(const GrpcClient &client, const std::string &group, const std::string &topic,
                     const std::string &messageId, const std::string &handle, int64_t visibleAgainMs);

private:
    // Every renewSchedulePeriodMillis (from sweep()): CHANGE_MESSAGE_INVISIBLETIME for the kept
    // receipts whose time is nearly up (settle_message.cpp).
    void renewDueReceipts(int64_t now);
    // admit(), then the proxy's checks of the topic and group a settling RPC names, in its order.
    std::shared_ptr<GrpcClient> admitSettling(::grpc::CallbackServerContext *context,
                                              const google::protobuf::Message *request, const std::string &topic,
                                              const std::string &group, v2::Status &refusal);
    void forwardToDeadLetter(std::shared_ptr<GrpcClient> client, ::grpc::ServerUnaryReactor *reactor,
                             v2::ForwardMessageToDeadLetterQueueResponse *response, const std::string &group,
                             const std::string &topic, const std::string &messageId, int32_t maxDeliveryAttempts,
                             const std::string &handle);
    void onBrokerRequest(const std::string &clientId, remoting::RemotingCommand request);
    // A request the broker asks a client to answer (LocalChannel::ClientCallHandler), as the Java
    // proxy asks it: GET_CONSUMER_RUNNING_INFO (a PrintThreadStackTraceCommand when the jstack is
    // wanted) and CONSUME_MESSAGE_DIRECTLY (a VerifyMessageCommand). Returns why it cannot be asked.
    std::string askClient(const std::string &clientId, const remoting::RemotingCommand &request,
                          const std::string &nonce);
    void recoverOrphanedTransaction(GrpcClient &client, const remoting::RemotingCommand &check);

    server::BrokerController &broker_;
    const MessagingServiceConfig config_;
    std::atomic<uint16_t> port_{0};
    ClientRegistry clients_;
    ReceiptRenewals renewals_;
    int64_t lastRenewScanMs_ = 0; // sweep()'s thread only
    std::atomic<uint32_t> nextQueue_{0};
};

// How long a LocalChannel call may wait for the broker's answer.
inline constexpr std::chrono::milliseconds kBrokerCallTimeout{3000};
// The longest invisible duration the proxy takes, in ReceiveMessage and ChangeInvisibleDuration.
inline constexpr int64_t kMaxInvisibleMillis = 12LL * 3600 * 1000;

// A unary RPC answered at once with `status`.
template <class Response>
::grpc::ServerUnaryReactor *answer(::grpc::CallbackServerContext *context, Response *response, v2::Status status)
{
    *response->mutable_status() = std::move(status);
    ::grpc::ServerUnaryReactor *reactor = context->DefaultReactor();
    reactor->Finish(::grpc::Status::OK);
    return reactor;
}

// A consumer's Settings as the proxy merges them: FIFO, the retries and their backoff from its
// group's config (telemetry.cpp); a receive that overtakes the client's first Settings uses them too.
void mergeConsumerSettings(v2::Settings &settings, const std::optional<store::SubscriptionGroupConfig> &group,
                           int64_t longPollingMillis);

// The remoting language of a 5.x SDK's UA language (NODE_JS → NODE_JS, GOLANG → GO, ...).
remoting::LanguageCode languageOf(v2::Language language);
// MQVersion.Version's ordinal of a 5.x SDK version ("5.0.7" → V5_0_7 = 427), as remoting
// clients report theirs; 0 when it is not one.
int32_t mqVersionOrdinal(const std::string &version);
// The x-mq-* metadata of a call, "" when absent.
std::string metadataValue(const ::grpc::CallbackServerContext *context, std::string_view key);
// The peer of a call as "host:port" ("ipv4:127.0.0.1:5678" → "127.0.0.1:5678").
std::string peerAddressOf(const ::grpc::CallbackServerContext *context);
// A remoting response's failure as the proxy maps it (SUCCESS → OK, SYSTEM_BUSY →
// TOO_MANY_REQUESTS, SUBSCRIPTION_GROUP_NOT_EXIST → CONSUMER_GROUP_NOT_FOUND, ...).
v2::Status statusOfResponse(const remoting::RemotingCommand &response, v2::Code otherwise);
// The mandatory receive/ack parameters, in the order the proxy checks them.
v2::Status checkTopicName(const std::string &topic);
v2::Status checkGroupName(const std::string &group);

} // namespace mqdesk::grpc
