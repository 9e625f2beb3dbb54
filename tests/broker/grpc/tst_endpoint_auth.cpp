// The 5.x endpoint under ACL 2.0 (authenticationEnabled + authorizationEnabled): every RPC and a
// telemetry Settings sent unsigned, signed by a user no policy allows, signed with a wrong
// secret, and signed by a Super user, through raw grpc++ stubs signing as the SDKs do
// (authorization: MQv2-HMAC-SHA1 over x-mq-date-time). Nothing is served without the right.

#include "broker/acl/auth_store.h"
#include "broker/grpc/grpc_endpoint.h"
#include "broker/store/message_store.h"
#include "broker/server/topic_manager.h"
#include "../server/broker_test_util.h"

#include "apache/rocketmq/v2/service.grpc.pb.h"

#include <grpcpp/grpcpp.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <QtTest>

#include <chrono>
#include <functional>

namespace v2 = apache::rocketmq::v2;
using mqdesk::test::TestBroker;

namespace {

struct Caller
{
    std::string user;     // empty: unsigned
    std::string password;
};

std::string hexHmacSha1(const std::string &data, const std::string &key)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    HMAC(EVP_sha1(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char *>(data.data()),
         data.size(), digest, &length);
    static const char *digits = "0123456789ABCDEF";
    std::string hex;
    for (unsigned int i = 0; i < length; ++i) {
        hex += digits[digest[i] >> 4];
        hex += digits[digest[i] & 15];
    }
    return hex;
}

std::unique_ptr<::grpc::ClientContext> signedContext(const Caller &caller)
{
    auto context = std::make_unique<::grpc::ClientContext>();
    context->AddMetadata("x-mq-client-id", "auth-test@1@1@x");
    context->AddMetadata("x-mq-language", "CPP");
    context->AddMetadata("x-mq-protocol", "v2");
    context->AddMetadata("x-mq-client-version", "5.0.0");
    const std::string dateTime = "20261205T010203Z";
    context->AddMetadata("x-mq-date-time", dateTime);
    if (!caller.user.empty()) {
        context->AddMetadata("authorization", "MQv2-HMAC-SHA1 Credential=" + caller.user
                                                  + ", SignedHeaders=x-mq-date-time, Signature="
                                                  + hexHmacSha1(dateTime, caller.password));
    }
    context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
    return context;
}

v2::Resource resource(const std::string &name)
{
    v2::Resource r;
    r.set_name(name);
    return r;
}

} // namespace

class GrpcEndpointAuthTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        broker_ = std::make_unique<TestBroker>([](mqdesk::server::BrokerSettings &settings) {
            settings.broker.authenticationEnabled = true;
            settings.broker.authorizationEnabled = true;
            settings.broker.initAuthenticationUser = R"({"username":"root","password":"root-secret"})";
        });
        std::string error;
        QVERIFY2(broker_->start(error), error.c_str());
        mqdesk::grpc::GrpcEndpointOptions options;
        options.port = 0;
        endpoint_ = std::make_unique<mqdesk::grpc::GrpcEndpoint>(broker_->controller(), options);
        QVERIFY2(endpoint_->start(error), error.c_str());
        stub_ = v2::MessagingService::NewStub(
            ::grpc::CreateChannel(endpoint_->address(), ::grpc::InsecureChannelCredentials()));
        QVERIFY(broker_->controller().topics().createTopicIfAbsent("AuthTopic", 2, 6));
        // bob exists, with no policy.
        QVERIFY(broker_->controller().authStore()->createUser({"bob", "bob-secret", false, true}, error));
    }

    void cleanupTestCase()
    {
        stub_.reset();
        endpoint_.reset();
        broker_.reset();
    }

    void everyRpcNeedsItsRight()
    {
        using Rpc = std::function<v2::Code(const Caller &)>;
        const auto unary = [this]<typename Request, typename Response>(
                               ::grpc::Status (v2::MessagingService::Stub::*method)(::grpc::ClientContext *,
                                                                                   const Request &, Response *),
                               const Request &request) -> Rpc {
            return [this, method, request](const Caller &caller) {
                Response response;
                auto context = signedContext(caller);
                const ::grpc::Status status = ((*stub_).*method)(context.get(), request, &response);
                return status.ok() ? response.status().code() : v2::Code::INTERNAL_SERVER_ERROR;
            };
        };
        v2::QueryRouteRequest route;
        *route.mutable_topic() = resource("AuthTopic");
        v2::HeartbeatRequest heartbeat;
        *heartbeat.mutable_group() = resource("AuthGroup");
        heartbeat.set_client_type(v2::ClientType::SIMPLE_CONSUMER);
        v2::SendMessageRequest send;
        v2::Message &message = *send.add_messages();
        *message.mutable_topic() = resource("AuthTopic");
        message.set_body("secret");
        message.mutable_system_properties()->set_message_id("AUTH-1");
        message.mutable_system_properties()->set_message_type(v2::MessageType::NORMAL);
        v2::QueryAssignmentRequest assignment;
        *assignment.mutable_topic() = resource("AuthTopic");
        *assignment.mutable_group() = resource("AuthGroup");
        v2::AckMessageRequest ack;
        *ack.mutable_topic() = resource("AuthTopic");
        *ack.mutable_group() = resource("AuthGroup");
        ack.add_entries()->set_receipt_handle("x");
        v2::ForwardMessageToDeadLetterQueueRequest forward;
        *forward.mutable_topic() = resource("AuthTopic");
        *forward.mutable_group() = resource("AuthGroup");
        v2::EndTransactionRequest end;
        *end.mutable_topic() = resource("AuthTopic");
        v2::NotifyClientTerminationRequest termination;
        *termination.mutable_group() = resource("AuthGroup");
        v2::ChangeInvisibleDurationRequest invisible;
        *invisible.mutable_topic() = resource("AuthTopic");
        *invisible.mutable_group() = resource("AuthGroup");
        v2::RecallMessageRequest recall;
        *recall.mutable_topic() = resource("AuthTopic");
        using S = v2::MessagingService::Stub;
        const std::vector<std::pair<const char *, Rpc>> rpcs = {
            {"QueryRoute", unary(&S::QueryRoute, route)},
            {"Heartbeat", unary(&S::Heartbeat, heartbeat)},
            {"SendMessage", unary(&S::SendMessage, send)},
            {"QueryAssignment", unary(&S::QueryAssignment, assignment)},
            {"AckMessage", unary(&S::AckMessage, ack)},
            {"ForwardMessageToDeadLetterQueue", unary(&S::ForwardMessageToDeadLetterQueue, forward)},
            {"EndTransaction", unary(&S::EndTransaction, end)},
            {"NotifyClientTermination", unary(&S::NotifyClientTermination, termination)},
            {"ChangeInvisibleDuration", unary(&S::ChangeInvisibleDuration, invisible)},
            {"RecallMessage", unary(&S::RecallMessage, recall)},
            {"ReceiveMessage", [this](const Caller &caller) { return receive(caller); }},
            {"Telemetry", [this](const Caller &caller) { return telemetry(caller); }},
        };
        const Caller nobody;
        const Caller bob{"bob", "bob-secret"};
        const Caller forger{"root", "not-the-secret"};
        const Caller root{"root", "root-secret"};
        for (const auto &[name, rpc] : rpcs) {
            QVERIFY2(rpc(nobody) == v2::Code::UNAUTHORIZED, name);
            QVERIFY2(rpc(bob) == v2::Code::UNAUTHORIZED, name);
            QVERIFY2(rpc(forger) == v2::Code::UNAUTHORIZED, name);
            QVERIFY2(rpc(root) != v2::Code::UNAUTHORIZED, name);
        }
        // Only root's send was stored.
        QCOMPARE(broker_->controller().store().maxOffsetInQueue("AuthTopic", 0)
                     + broker_->controller().store().maxOffsetInQueue("AuthTopic", 1),
                 int64_t{1});
    }

private:
    v2::Code receive(const Caller &caller)
    {
        v2::ReceiveMessageRequest request;
        *request.mutable_group() = resource("AuthGroup");
        *request.mutable_message_queue()->mutable_topic() = resource("AuthTopic");
        request.mutable_message_queue()->set_id(-1);
        request.mutable_filter_expression()->set_type(v2::FilterType::TAG);
        request.mutable_filter_expression()->set_expression("*");
        request.set_batch_size(1);
        request.mutable_invisible_duration()->set_seconds(30);
        request.mutable_long_polling_timeout()->set_seconds(1);
        auto context = signedContext(caller);
        auto reader = stub_->ReceiveMessage(context.get(), request);
        v2::ReceiveMessageResponse item;
        v2::Code code = v2::Code::OK;
        while (reader->Read(&item)) {
            if (item.has_status() && item.status().code() != v2::Code::OK)
                code = item.status().code();
        }
        reader->Finish();
        return code;
    }

    v2::Code telemetry(const Caller &caller)
    {
        auto context = signedContext(caller);
        auto stream = stub_->Telemetry(context.get());
        v2::TelemetryCommand command;
        v2::Settings &settings = *command.mutable_settings();
        settings.set_client_type(v2::ClientType::PRODUCER);
        settings.mutable_user_agent()->set_language(v2::Language::CPP);
        settings.mutable_user_agent()->set_version("5.0.0");
        *settings.mutable_publishing()->add_topics() = resource("AuthTopic");
        // A refused stream is answered and finished at once, possibly before this write goes
        // out: the write may then fail, and the refusal is still there to read.
        stream->Write(command);
        v2::TelemetryCommand answer;
        const v2::Code code = stream->Read(&answer) ? answer.status().code() : v2::Code::INTERNAL_SERVER_ERROR;
        stream->WritesDone();
        context->TryCancel();
        stream->Finish();
        return code;
    }

    std::unique_ptr<TestBroker> broker_;
    std::unique_ptr<mqdesk::grpc::GrpcEndpoint> endpoint_;
    std::unique_ptr<v2::MessagingService::Stub> stub_;
};

QObject *createGrpcEndpointAuthTest() { return new GrpcEndpointAuthTest; }

#include "tst_endpoint_auth.moc"
