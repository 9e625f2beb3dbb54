// Requests the broker asks of a gRPC client, as the Java proxy relays them (its GrpcClientChannel
// and ClientActivity; grpc-proxy spec §3.3): the broker invokes the client's LocalChannel, the
// request goes out as a telemetry command carrying the call's nonce, and the client's answer on
// its telemetry stream, naming the nonce, completes the call.
//
// - GET_CONSUMER_RUNNING_INFO (307): a PrintThreadStackTraceCommand when the caller wants the
//   jstack; the ThreadStackTrace comes back as the running info's jstack. Unlike the Java proxy,
//   which leaves a call without jstackEnable unanswered (the broker times out after 10 s) and
//   answers one with it with nothing but the jstack (so mqadmin's consumerStatus -g fails reading
//   PROP_CONSUME_TYPE), the running info also holds what the endpoint knows of the client: its
//   consume type and start, SDK, subscriptions and the Settings it synced.
// - CONSUME_MESSAGE_DIRECTLY (309): a VerifyMessageCommand with the stored message; the client's
//   VerifyMessageResult status becomes the ConsumeMessageDirectlyResult's consumeResult (OK →
//   CR_SUCCESS, FAILED_TO_CONSUME_MESSAGE → CR_LATER, MESSAGE_CORRUPTED → CR_RETURN_NULL, anything
//   else none), remark "from gRPC client", as Java's.

#include "broker/common/record_codec.h"
#include "broker/grpc/message_codec.h"
#include "broker/grpc/messaging_service.h"
#include "broker/remoting/protocol/consumer_running_info.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/remoting_codes.h"

#include <spdlog/spdlog.h>

namespace mqdesk::grpc {

using remoting::RemotingCommand;
using remoting::RequestCode;
using remoting::ResponseCode;

namespace {

RemotingCommand answerWith(int32_t code, std::string remark, const std::string &body = {})
{
    RemotingCommand response;
    response.code = code;
    response.remark = std::move(remark);
    response.body.assign(body.begin(), body.end());
    return response;
}

std::string clientTypeName(v2::ClientType type)
{
    return v2::ClientType_IsValid(type) ? v2::ClientType_Name(type) : std::to_string(int(type));
}

// What the endpoint knows of the client, in the keys Java's consumers fill (ConsumerRunningInfo's
// PROP_*) where one fits.
remoting::ConsumerRunningInfo runningInfoOf(const GrpcClientInfo &client)
{
    remoting::ConsumerRunningInfo info;
    auto &properties = info.properties;
    properties["PROP_CONSUMER_START_TIMESTAMP"] = std::to_string(client.firstSeenMs);
    properties["PROP_CLIENT_VERSION"] = client.version;
    properties["PROP_CLIENT_SDK"] = client.languageName + " " + client.version + " (gRPC)";
    properties["peerAddress"] = client.peerAddress;
    if (!client.settings)
        return info;
    const v2::Settings &settings = *client.settings;
    properties["clientType"] = clientTypeName(settings.client_type());
    // Java's ConsumeType: a SimpleConsumer pulls when it likes, a PushConsumer is fed.
    properties["PROP_CONSUME_TYPE"] = consumeTypeOf(settings.client_type());
    if (settings.has_request_timeout())
        properties["requestTimeoutMillis"] = std::to_string(toMillis(settings.request_timeout()));
    if (settings.has_backoff_policy())
        properties["maxDeliveryAttempts"] = std::to_string(settings.backoff_policy().max_attempts());
    if (settings.has_subscription()) {
        const v2::Subscription &subscription = settings.subscription();
        properties["PROP_CONSUMEORDERLY"] = subscription.fifo() ? "true" : "false";
        properties["receiveBatchSize"] = std::to_string(subscription.receive_batch_size());
        properties["longPollingTimeoutMillis"] = std::to_string(toMillis(subscription.long_polling_timeout()));
        info.subscriptions = subscriptionDataOf(subscription);
    }
    return info;
}

std::string consumeResultOf(v2::Code code)
{
    switch (code) {
    case v2::Code::OK: return "CR_SUCCESS";
    case v2::Code::FAILED_TO_CONSUME_MESSAGE: return "CR_LATER";
    case v2::Code::MESSAGE_CORRUPTED: return "CR_RETURN_NULL";
    default: return {};
    }
}

} // namespace

std::string MessagingService::askClient(const std::string &clientId, const RemotingCommand &request,
                                        const std::string &nonce)
{
    std::shared_ptr<GrpcClient> client = clients_.find(clientId);
    if (!client)
        return "the gRPC client " + clientId + " left";
    v2::TelemetryCommand command;
    if (request.code == RequestCode::kGetConsumerRunningInfo) {
        remoting::HeaderReader header(request.extFields);
        if (!header.optBool("jstackEnable", false)) {
            // Nothing to ask the client: what the endpoint knows is the answer.
            const std::string body = runningInfoOf(client->info()).toJson();
            client->channel()->answerClientCall(nonce, answerWith(ResponseCode::kSuccess, {}, body));
            return {};
        }
        command.mutable_print_thread_stack_trace_command()->set_nonce(nonce);
    } else if (request.code == RequestCode::kConsumeMessageDirectly) {
        const common::DecodeResult decoded = common::decodeRecord(request.body);
        if (decoded.status != common::DecodeStatus::Ok)
            return "the message to consume is not readable: " + decoded.error;
        const common::StoredMessage message = decoded.record.materialize();
        v2::VerifyMessageCommand &verify = *command.mutable_verify_message_command();
        verify.set_nonce(nonce);
        *verify.mutable_message() = toProtoMessage(message, message.topic, std::nullopt, 0);
    } else {
        return "a gRPC client answers no request " + std::to_string(request.code);
    }
    if (!client->pushTelemetry(std::move(command)))
        return "the gRPC client " + clientId + " has no telemetry stream open";
    return {};
}

void MessagingService::answerFromClient(GrpcClient &client, const v2::TelemetryCommand &command)
{
    const v2::Status &status = command.status();
    bool answered = false;
    if (command.has_thread_stack_trace()) {
        const v2::ThreadStackTrace &trace = command.thread_stack_trace();
        RemotingCommand response;
        if (status.code() == v2::Code::OK) {
            remoting::ConsumerRunningInfo info = runningInfoOf(client.info());
            info.jstack = trace.thread_stack_trace();
            response = answerWith(ResponseCode::kSuccess, {}, info.toJson());
        } else if (status.code() == v2::Code::VERIFY_FIFO_MESSAGE_UNSUPPORTED) {
            response = answerWith(ResponseCode::kNoPermission, "forbidden to verify message");
        } else {
            response = answerWith(ResponseCode::kSystemError,
                                  "the client could not print its thread stacks: " + status.message());
        }
        answered = client.channel()->answerClientCall(trace.nonce(), std::move(response));
    } else if (command.has_verify_message_result()) {
        remoting::ConsumeMessageDirectlyResult result;
        result.consumeResult = consumeResultOf(status.code());
        result.remark = "from gRPC client";
        if (status.code() != v2::Code::OK)
            result.remark += ": " + v2::Code_Name(status.code()) + (status.message().empty() ? "" : " " + status.message());
        answered = client.channel()->answerClientCall(command.verify_message_result().nonce(),
                                                      answerWith(ResponseCode::kSuccess, {}, result.toJson()));
    }
    if (!answered)
        spdlog::debug("grpc: {} answered a request nobody waits for (late, or an unknown nonce)", client.clientId());
}

} // namespace mqdesk::grpc
