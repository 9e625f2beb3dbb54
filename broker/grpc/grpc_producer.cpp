// grpc++ first, as everywhere in broker/grpc.
#include "apache/rocketmq/v2/service.grpc.pb.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include "broker/grpc/grpc_producer.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <unistd.h>

namespace mqdesk::grpc {

namespace {

namespace v2 = apache::rocketmq::v2;

constexpr auto kCallTimeout = std::chrono::seconds(3); // the SDKs' default request timeout

// Empty when the send was stored, else why not.
std::string failureOf(const ::grpc::Status &status, const v2::SendMessageResponse &response)
{
    if (!status.ok())
        return "SendMessage: " + status.error_message();
    if (response.status().code() != v2::Code::OK)
        return "SendMessage: " + v2::Code_Name(response.status().code()) + " " + response.status().message();
    if (response.entries_size() != 1 || response.entries(0).status().code() != v2::Code::OK)
        return "SendMessage: no stored entry";
    return {};
}

// One asynchronous call and what it needs alive until its completion.
struct SendCall
{
    ::grpc::ClientContext context;
    v2::SendMessageRequest request;
    v2::SendMessageResponse response;
    std::function<void(const std::string &)> done;
};

} // namespace

struct GrpcProducer::Impl
{
    std::unique_ptr<v2::MessagingService::Stub> stub;
    std::string clientId;
    std::atomic<uint64_t> sequence{0};

    void prepare(::grpc::ClientContext &context) const
    {
        context.AddMetadata("x-mq-client-id", clientId);
        context.AddMetadata("x-mq-language", "CPP");
        context.AddMetadata("x-mq-protocol", "v2");
        context.AddMetadata("x-mq-client-version", "5.0.0");
        context.set_deadline(std::chrono::system_clock::now() + kCallTimeout);
    }

    // A normal message as the SDKs build it, with an id unique in this process.
    void build(v2::SendMessageRequest &request, const std::string &topic, const std::string &tag,
               const std::string &body)
    {
        v2::Message &message = *request.add_messages();
        message.mutable_topic()->set_name(topic);
        message.set_body(body);
        v2::SystemProperties &system = *message.mutable_system_properties();
        char id[40];
        std::snprintf(id, sizeof id, "01%08X%016llX", static_cast<unsigned>(getpid()),
                      static_cast<unsigned long long>(sequence.fetch_add(1, std::memory_order_relaxed)));
        system.set_message_id(id);
        if (!tag.empty())
            system.set_tag(tag);
        system.set_message_type(v2::MessageType::NORMAL);
        system.set_body_encoding(v2::Encoding::IDENTITY);
        const auto now = std::chrono::system_clock::now().time_since_epoch();
        system.mutable_born_timestamp()->set_seconds(std::chrono::duration_cast<std::chrono::seconds>(now).count());
    }
};

GrpcProducer::GrpcProducer(const std::string &endpoint) : impl_(std::make_unique<Impl>())
{
    impl_->stub = v2::MessagingService::NewStub(::grpc::CreateChannel(endpoint, ::grpc::InsecureChannelCredentials()));
    impl_->clientId = "mqdesk-grpc-producer@" + std::to_string(getpid()) + "@"
                      + std::to_string(reinterpret_cast<uintptr_t>(this));
}

GrpcProducer::~GrpcProducer() = default;

std::string GrpcProducer::queryRoute(const std::string &topic)
{
    ::grpc::ClientContext context;
    impl_->prepare(context);
    v2::QueryRouteRequest request;
    request.mutable_topic()->set_name(topic);
    v2::QueryRouteResponse response;
    const ::grpc::Status status = impl_->stub->QueryRoute(&context, request, &response);
    if (!status.ok())
        return "QueryRoute: " + status.error_message();
    if (response.status().code() != v2::Code::OK)
        return "QueryRoute: " + v2::Code_Name(response.status().code()) + " " + response.status().message();
    if (response.message_queues_size() == 0)
        return "QueryRoute: topic " + topic + " has no queue";
    return {};
}

std::string GrpcProducer::send(const std::string &topic, const std::string &tag, const std::string &body)
{
    ::grpc::ClientContext context;
    impl_->prepare(context);
    v2::SendMessageRequest request;
    impl_->build(request, topic, tag, body);
    v2::SendMessageResponse response;
    const ::grpc::Status status = impl_->stub->SendMessage(&context, request, &response);
    return failureOf(status, response);
}

void GrpcProducer::sendAsync(const std::string &topic, const std::string &tag, const std::string &body,
                             std::function<void(const std::string &error)> done)
{
    auto call = std::make_shared<SendCall>();
    impl_->prepare(call->context);
    impl_->build(call->request, topic, tag, body);
    call->done = std::move(done);
    SendCall &started = *call;
    impl_->stub->async()->SendMessage(&started.context, &started.request, &started.response,
                                      [call](::grpc::Status status) { call->done(failureOf(status, call->response)); });
}

} // namespace mqdesk::grpc
