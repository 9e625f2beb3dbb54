// broker/grpc end to end inside one process, so that the ASan + UBSan preset runs the endpoint's
// code (the SDK conformance suites run it only in the release build): a TestBroker with a
// GrpcEndpoint on a free port and raw grpc++ stubs sending what an SDK sends — telemetry Settings,
// SendMessage (normal and delayed), ReceiveMessage, AckMessage, RecallMessage — and what a careless
// or hostile client sends: bad names, bodies, properties, ids with the property separators,
// handles and transaction ids, each answered with its code, nothing of them stored.

#include "broker/grpc/grpc_endpoint.h"
#include "broker/grpc/message_codec.h"
#include "broker/server/topic_manager.h"
#include "broker/store/commit_log.h"
#include "broker/store/message_store.h"
#include "../server/admin_test_util.h"
#include "../server/broker_test_util.h"

#include "apache/rocketmq/v2/service.grpc.pb.h"

#include <grpcpp/grpcpp.h>

#include <QtTest>

#include <chrono>
#include <filesystem>
#include <map>

namespace v2 = apache::rocketmq::v2;
using mqdesk::test::TestBroker;

namespace {

constexpr char kClientId[] = "endpoint-test@1@1@x";

std::unique_ptr<::grpc::ClientContext> callContext(const std::string &clientId = kClientId)
{
    auto context = std::make_unique<::grpc::ClientContext>();
    context->AddMetadata("x-mq-client-id", clientId);
    context->AddMetadata("x-mq-language", "CPP");
    context->AddMetadata("x-mq-protocol", "v2");
    context->AddMetadata("x-mq-client-version", "5.0.0");
    context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    return context;
}

v2::Message message(const std::string &topic, const std::string &id, const std::string &body)
{
    v2::Message m;
    m.mutable_topic()->set_name(topic);
    m.set_body(body);
    m.mutable_system_properties()->set_message_id(id);
    m.mutable_system_properties()->set_tag("T");
    m.mutable_system_properties()->set_message_type(v2::MessageType::NORMAL);
    return m;
}

} // namespace

class GrpcEndpointTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        std::string error;
        broker_ = std::make_unique<TestBroker>();
        QVERIFY2(broker_->start(error), error.c_str());
        mqdesk::grpc::GrpcEndpointOptions options;
        options.port = 0;
        endpoint_ = std::make_unique<mqdesk::grpc::GrpcEndpoint>(broker_->controller(), options);
        QVERIFY2(endpoint_->start(error), error.c_str());
        stub_ = v2::MessagingService::NewStub(
            ::grpc::CreateChannel(endpoint_->address(), ::grpc::InsecureChannelCredentials()));
        QVERIFY(broker_->controller().topics().createTopicIfAbsent("EndpointTopic", 2, 6));
        auto delayTopic = broker_->controller().topics().createTopicIfAbsent("EndpointDelay", 2, 6);
        QVERIFY(delayTopic);
        mqdesk::store::TopicConfig delay = *delayTopic;
        delay.attributes.insertOrAssign("message.type", "DELAY");
        QVERIFY2(broker_->controller().topics().updateTopic(delay, error), error.c_str());
    }

    void cleanupTestCase()
    {
        telemetry_.reset();
        telemetryContext_.reset();
        stub_.reset();
        endpoint_.reset();
        broker_.reset();
    }

    void sendReceiveAckAndRecall()
    {
        openConsumerTelemetry("GEndpoint", "EndpointTopic");
        for (int i = 0; i < 3; ++i) {
            v2::SendMessageRequest send;
            *send.add_messages() = message("EndpointTopic", "ID-" + std::to_string(i), "body " + std::to_string(i));
            v2::SendMessageResponse sent;
            QVERIFY(stub_->SendMessage(callContext().get(), send, &sent).ok());
            QCOMPARE(sent.status().code(), v2::Code::OK);
            QCOMPARE(sent.entries(0).message_id(), "ID-" + std::to_string(i));
            QVERIFY(sent.entries(0).recall_handle().empty());
        }

        std::vector<v2::Message> got;
        for (int round = 0; round < 5 && got.size() < 3; ++round) {
            v2::ReceiveMessageRequest receive;
            receive.mutable_group()->set_name("GEndpoint");
            receive.mutable_message_queue()->mutable_topic()->set_name("EndpointTopic");
            receive.mutable_message_queue()->set_id(-1);
            receive.mutable_filter_expression()->set_type(v2::FilterType::TAG);
            receive.mutable_filter_expression()->set_expression("*");
            receive.set_batch_size(16);
            receive.mutable_invisible_duration()->set_seconds(30);
            receive.mutable_long_polling_timeout()->set_seconds(5);
            auto context = callContext();
            auto reader = stub_->ReceiveMessage(context.get(), receive);
            v2::ReceiveMessageResponse item;
            while (reader->Read(&item)) {
                if (item.has_message())
                    got.push_back(item.message());
            }
            QVERIFY(reader->Finish().ok());
        }
        QCOMPARE(got.size(), size_t{3});
        v2::AckMessageRequest ack;
        ack.mutable_group()->set_name("GEndpoint");
        ack.mutable_topic()->set_name("EndpointTopic");
        for (const v2::Message &m : got) {
            QVERIFY(m.body().starts_with("body "));
            v2::AckMessageEntry &entry = *ack.add_entries();
            entry.set_message_id(m.system_properties().message_id());
            entry.set_receipt_handle(m.system_properties().receipt_handle());
        }
        v2::AckMessageResponse acked;
        QVERIFY(stub_->AckMessage(callContext().get(), ack, &acked).ok());
        QCOMPARE(acked.status().code(), v2::Code::OK);

        // A delayed message: a recall handle in the receipt, and RecallMessage takes it back.
        v2::SendMessageRequest delayed;
        v2::Message &later = *delayed.add_messages() = message("EndpointDelay", "ID-LATER", "later");
        later.mutable_system_properties()->set_message_type(v2::MessageType::DELAY);
        later.mutable_system_properties()->mutable_delivery_timestamp()->set_seconds(
            std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count()
            + 60);
        v2::SendMessageResponse sentLater;
        QVERIFY(stub_->SendMessage(callContext().get(), delayed, &sentLater).ok());
        QCOMPARE(sentLater.status().code(), v2::Code::OK);
        QVERIFY(!sentLater.entries(0).recall_handle().empty());
        v2::RecallMessageRequest recall;
        recall.mutable_topic()->set_name("EndpointDelay");
        recall.set_recall_handle(sentLater.entries(0).recall_handle());
        v2::RecallMessageResponse recalled;
        QVERIFY(stub_->RecallMessage(callContext().get(), recall, &recalled).ok());
        QCOMPARE(recalled.status().code(), v2::Code::OK);
        QCOMPARE(recalled.message_id(), std::string("ID-LATER"));
    }

    // A receive that overtakes the client's first Settings (the Python SDK receives right after
    // its startup, on another HTTP/2 stream) is served with the group's config.
    void aReceiveBeforeTheClientsSettingsIsServed()
    {
        v2::SendMessageRequest send;
        *send.add_messages() = message("EndpointTopic", "ID-EARLY", "early");
        v2::SendMessageResponse sent;
        QVERIFY(stub_->SendMessage(callContext().get(), send, &sent).ok());
        QCOMPARE(sent.status().code(), v2::Code::OK);
        v2::ReceiveMessageRequest receive;
        receive.mutable_group()->set_name("GNoSettingsYet");
        receive.mutable_message_queue()->mutable_topic()->set_name("EndpointTopic");
        receive.mutable_message_queue()->set_id(-1);
        receive.mutable_filter_expression()->set_type(v2::FilterType::TAG);
        receive.mutable_filter_expression()->set_expression("*");
        receive.set_batch_size(32);
        receive.mutable_invisible_duration()->set_seconds(30);
        receive.mutable_long_polling_timeout()->set_seconds(5);
        auto context = callContext("no-settings-yet@1@1@x");
        auto reader = stub_->ReceiveMessage(context.get(), receive);
        v2::ReceiveMessageResponse item;
        std::vector<v2::Code> statuses;
        size_t messages = 0;
        while (reader->Read(&item)) {
            if (item.has_status())
                statuses.push_back(item.status().code());
            messages += item.has_message() ? 1 : 0;
        }
        QVERIFY(reader->Finish().ok());
        QCOMPARE(statuses, std::vector<v2::Code>{v2::Code::OK});
        QVERIFY(messages >= 1);
    }

    void hostileSendsAreRefusedAndStoreNothing()
    {
        auto &store = broker_->controller().store();
        const int64_t before = store.commitLog().maxOffset();
        const auto refusedWith = [&](v2::Message m, v2::Code code) {
            v2::SendMessageRequest send;
            *send.add_messages() = std::move(m);
            v2::SendMessageResponse answer;
            const ::grpc::Status status = stub_->SendMessage(callContext().get(), send, &answer);
            if (!status.ok())
                return QStringLiteral("transport: ") + QString::fromStdString(status.error_message());
            if (answer.status().code() != code)
                return QString::fromStdString(v2::Code_Name(answer.status().code()) + " (" + answer.status().message()
                                              + ")");
            return QString();
        };
        QCOMPARE(refusedWith(message("../escape", "ID-H1", "x"), v2::Code::ILLEGAL_TOPIC), QString());
        QCOMPARE(refusedWith(message(std::string("nul\0topic", 9), "ID-H2", "x"), v2::Code::ILLEGAL_TOPIC), QString());
        QCOMPARE(refusedWith(message("EndpointTopic", "ID-H3", ""), v2::Code::MESSAGE_BODY_EMPTY), QString());
        QCOMPARE(refusedWith(message("EndpointTopic", "ID-H4", std::string(4 * 1024 * 1024 + 1, 'b')),
                             v2::Code::MESSAGE_BODY_TOO_LARGE),
                 QString());
        QCOMPARE(refusedWith(message("EndpointTopic", "ID\002TRAN_MSG\001true", "x"), v2::Code::ILLEGAL_MESSAGE_ID),
                 QString());
        v2::Message badProperty = message("EndpointTopic", "ID-H5", "x");
        (*badProperty.mutable_user_properties())["k"] = "v\002DELAY\0012";
        QCOMPARE(refusedWith(badProperty, v2::Code::ILLEGAL_MESSAGE_PROPERTY_KEY), QString());
        v2::Message badHost = message("EndpointTopic", "ID-H6", "x");
        badHost.mutable_system_properties()->set_born_host("h\002REAL_TOPIC\001x");
        QCOMPARE(refusedWith(badHost, v2::Code::BAD_REQUEST), QString());
        v2::Message badTag = message("EndpointTopic", "ID-H7", "x");
        badTag.mutable_system_properties()->set_tag("a||b");
        QCOMPARE(refusedWith(badTag, v2::Code::ILLEGAL_MESSAGE_TAG), QString());
        QCOMPARE(store.commitLog().maxOffset(), before);
        // consumequeue/../escape is the store root's "escape"; one more level up its parent's.
        const std::filesystem::path root(broker_->storeDir());
        QVERIFY(!std::filesystem::exists(root / "escape"));
        QVERIFY(!std::filesystem::exists(root.parent_path() / "escape"));
        QVERIFY(!std::filesystem::exists(root / "consumequeue" / std::string("nul\0topic", 9)));
    }

    void hostileHandlesAndIdsAreRefused()
    {
        v2::AckMessageRequest ack;
        ack.mutable_group()->set_name("GEndpoint");
        ack.mutable_topic()->set_name("EndpointTopic");
        v2::AckMessageEntry &entry = *ack.add_entries();
        entry.set_message_id("ID-0");
        entry.set_receipt_handle(std::string("1 2 3\0 4", 8));
        v2::AckMessageResponse acked;
        QVERIFY(stub_->AckMessage(callContext().get(), ack, &acked).ok());
        QCOMPARE(acked.status().code(), v2::Code::INVALID_RECEIPT_HANDLE);

        v2::ChangeInvisibleDurationRequest change;
        change.mutable_group()->set_name("GEndpoint");
        change.mutable_topic()->set_name("EndpointTopic");
        change.set_receipt_handle(std::string(70000, '9'));
        change.set_message_id("ID-0");
        change.mutable_invisible_duration()->set_seconds(10);
        v2::ChangeInvisibleDurationResponse changed;
        QVERIFY(stub_->ChangeInvisibleDuration(callContext().get(), change, &changed).ok());
        QCOMPARE(changed.status().code(), v2::Code::INVALID_RECEIPT_HANDLE);

        v2::EndTransactionRequest end;
        end.mutable_topic()->set_name("EndpointTopic");
        end.set_transaction_id("not-an-offset-id");
        end.set_message_id("ID-0");
        end.set_resolution(v2::TransactionResolution::COMMIT);
        v2::EndTransactionResponse ended;
        QVERIFY(stub_->EndTransaction(callContext().get(), end, &ended).ok());
        QCOMPARE(ended.status().code(), v2::Code::INVALID_TRANSACTION_ID);

        v2::RecallMessageRequest recall;
        recall.mutable_topic()->set_name("EndpointDelay");
        recall.set_recall_handle("djEg\x01\x02");
        v2::RecallMessageResponse recalled;
        QVERIFY(stub_->RecallMessage(callContext().get(), recall, &recalled).ok());
        QCOMPARE(recalled.status().code(), v2::Code::INTERNAL_SERVER_ERROR);
        QCOMPARE(recalled.status().message(), std::string("recall handle is invalid"));

        v2::ReceiveMessageRequest receive;
        receive.mutable_group()->set_name("../group");
        receive.mutable_message_queue()->mutable_topic()->set_name("EndpointTopic");
        receive.set_batch_size(1);
        receive.mutable_invisible_duration()->set_seconds(30);
        auto context = callContext();
        auto reader = stub_->ReceiveMessage(context.get(), receive);
        v2::ReceiveMessageResponse item;
        bool refused = false;
        while (reader->Read(&item))
            refused = refused || (item.has_status() && item.status().code() == v2::Code::ILLEGAL_CONSUMER_GROUP);
        QVERIFY(reader->Finish().ok());
        QVERIFY(refused);
    }

    // The Java SDK 5.2.1's LiteSimpleConsumer (docs/spec/lite-topic.md §8.3), as it calls: Settings
    // as LITE_SIMPLE_CONSUMER, SyncLiteSubscription, receives on the parent's first queue, acks and
    // suspends with lite_topic. Only its lite topics arrive, in order within each; a suspended
    // message comes back without a delivery counted. A lite client on a regular group, a regular
    // client on a lite group and a lite client naming another topic are refused at Settings.
    void liteSimpleConsumerReceivesItsLiteTopicsInOrder()
    {
        using mqdesk::remoting::ResponseCode;
        QCOMPARE(broker_->call(mqdesk::test::createTopic("EndpointLiteParent", 2, {{"attributes", "+message.type=LITE"}}))
                     .code,
                 ResponseCode::kSuccess);
        mqdesk::remoting::RemotingCommand group =
            mqdesk::test::request(mqdesk::remoting::RequestCode::kUpdateAndCreateSubscriptiongroup);
        mqdesk::test::setBodyText(
            group, R"({"groupName":"GEndpointLite","consumeEnable":true,"attributes":{"+lite.bind.topic":"EndpointLiteParent"}})");
        QCOMPARE(broker_->call(group).code, ResponseCode::kSuccess);

        const std::string liteClient = "endpoint-lite@1@1@x";
        QCOMPARE(settingsAnswer(liteClient, v2::ClientType::LITE_SIMPLE_CONSUMER, "GEndpoint", "EndpointTopic").code(),
                 v2::Code::ILLEGAL_CONSUMER_GROUP);
        QCOMPARE(settingsAnswer(liteClient, v2::ClientType::SIMPLE_CONSUMER, "GEndpointLite", "EndpointLiteParent").code(),
                 v2::Code::ILLEGAL_CONSUMER_GROUP);
        QCOMPARE(settingsAnswer(liteClient, v2::ClientType::LITE_SIMPLE_CONSUMER, "GEndpointLite", "EndpointTopic").code(),
                 v2::Code::ILLEGAL_TOPIC);

        auto context = callContext(liteClient);
        context->set_deadline(std::chrono::system_clock::now() + std::chrono::minutes(5));
        auto stream = stub_->Telemetry(context.get());
        v2::TelemetryCommand answer;
        QVERIFY(stream->Write(consumerSettings(v2::ClientType::LITE_SIMPLE_CONSUMER, "GEndpointLite", "EndpointLiteParent")));
        QVERIFY(stream->Read(&answer));
        QCOMPARE(answer.status().code(), v2::Code::OK);
        QVERIFY(answer.settings().subscription().lite_subscription_quota() > 0);

        v2::SyncLiteSubscriptionRequest sync;
        sync.set_action(v2::LiteSubscriptionAction::PARTIAL_ADD);
        sync.mutable_topic()->set_name("EndpointLiteParent");
        sync.mutable_group()->set_name("GEndpointLite");
        sync.add_lite_topic_set("order-1");
        sync.add_lite_topic_set("order-2");
        v2::SyncLiteSubscriptionResponse synced;
        QVERIFY(stub_->SyncLiteSubscription(callContext(liteClient).get(), sync, &synced).ok());
        QCOMPARE(synced.status().code(), v2::Code::OK);

        const std::vector<std::pair<std::string, std::string>> sends = {
            {"order-1", "1a"}, {"order-2", "2a"}, {"order-3", "3a"}, {"order-1", "1b"}, {"order-2", "2b"}};
        for (const auto &[liteTopic, body] : sends) {
            v2::SendMessageRequest send;
            v2::Message &m = *send.add_messages();
            m = message("EndpointLiteParent", "LITE-" + body, body);
            m.mutable_system_properties()->set_message_type(v2::MessageType::LITE);
            m.mutable_system_properties()->set_lite_topic(liteTopic);
            v2::SendMessageResponse sent;
            QVERIFY(stub_->SendMessage(callContext().get(), send, &sent).ok());
            QCOMPARE(sent.status().code(), v2::Code::OK);
        }
        // All in the LMQs before the first receive: a lite topic with a batch out gives nothing more.
        broker_->controller().store().waitForDispatch();

        std::vector<v2::Message> got = receiveLite(liteClient, 4);
        std::map<std::string, std::string> bodiesByLiteTopic;
        for (const v2::Message &m : got) {
            bodiesByLiteTopic[m.system_properties().lite_topic()] += m.body();
            QCOMPARE(m.system_properties().delivery_attempt(), 1);
        }
        QCOMPARE(bodiesByLiteTopic.size(), size_t{2}); // never order-3
        QCOMPARE(bodiesByLiteTopic["order-1"], std::string("1a1b"));
        QCOMPARE(bodiesByLiteTopic["order-2"], std::string("2a2b"));

        // Ack order-1's; suspend order-2's first for a second: both of order-2 come back. As in
        // Java, the batch's return is a second attempt (it had no count to take back); a further
        // suspend takes its own count back, so the attempt stays where it is.
        for (const v2::Message &m : got) {
            const std::string &liteTopic = m.system_properties().lite_topic();
            if (liteTopic == "order-1") {
                v2::AckMessageRequest ack;
                ack.mutable_group()->set_name("GEndpointLite");
                ack.mutable_topic()->set_name("EndpointLiteParent");
                v2::AckMessageEntry &entry = *ack.add_entries();
                entry.set_message_id(m.system_properties().message_id());
                entry.set_receipt_handle(m.system_properties().receipt_handle());
                entry.set_lite_topic(liteTopic);
                v2::AckMessageResponse acked;
                QVERIFY(stub_->AckMessage(callContext(liteClient).get(), ack, &acked).ok());
                QCOMPARE(acked.status().code(), v2::Code::OK);
            } else if (m.body() == "2a") {
                QCOMPARE(suspendLite(liteClient, m).code(), v2::Code::OK);
            }
        }
        std::vector<v2::Message> again = receiveLite(liteClient, 2);
        QCOMPARE(again.size(), size_t{2});
        QCOMPARE(again[0].body(), std::string("2a"));
        QCOMPARE(again[1].body(), std::string("2b"));
        QCOMPARE(again[0].system_properties().delivery_attempt(), 2);
        QCOMPARE(suspendLite(liteClient, again[0]).code(), v2::Code::OK);
        std::vector<v2::Message> third = receiveLite(liteClient, 2);
        QCOMPARE(third.size(), size_t{2});
        QCOMPARE(third[0].body(), std::string("2a"));
        QCOMPARE(third[0].system_properties().delivery_attempt(), 2);

        // Its termination hands its lite topics back: the broker forgets the client.
        v2::NotifyClientTerminationRequest bye;
        bye.mutable_group()->set_name("GEndpointLite");
        v2::NotifyClientTerminationResponse byeAnswer;
        QVERIFY(stub_->NotifyClientTermination(callContext(liteClient).get(), bye, &byeAnswer).ok());
        stream->WritesDone();
        while (stream->Read(&answer)) { }
        stream->Finish();
    }

private:
    static v2::TelemetryCommand consumerSettings(v2::ClientType type, const std::string &group, const std::string &topic,
                                                 v2::Language language = v2::Language::JAVA,
                                                 const std::string &version = "5.2.1")
    {
        v2::TelemetryCommand command;
        v2::Settings &settings = *command.mutable_settings();
        settings.set_client_type(type);
        settings.mutable_user_agent()->set_language(language);
        settings.mutable_user_agent()->set_version(version);
        v2::Subscription &subscription = *settings.mutable_subscription();
        subscription.mutable_group()->set_name(group);
        v2::SubscriptionEntry &entry = *subscription.add_subscriptions();
        entry.mutable_topic()->set_name(topic);
        entry.mutable_expression()->set_type(v2::FilterType::TAG);
        entry.mutable_expression()->set_expression("*");
        return command;
    }

    // The LiteSimpleConsumer's changeInvisibleDuration: lite_topic and suspend, for a second.
    v2::Status suspendLite(const std::string &clientId, const v2::Message &m)
    {
        v2::ChangeInvisibleDurationRequest change;
        change.mutable_group()->set_name("GEndpointLite");
        change.mutable_topic()->set_name("EndpointLiteParent");
        change.set_receipt_handle(m.system_properties().receipt_handle());
        change.set_message_id(m.system_properties().message_id());
        change.mutable_invisible_duration()->set_seconds(1);
        change.set_lite_topic(m.system_properties().lite_topic());
        change.set_suspend(true);
        v2::ChangeInvisibleDurationResponse changed;
        if (!stub_->ChangeInvisibleDuration(callContext(clientId).get(), change, &changed).ok())
            return mqdesk::grpc::makeStatus(v2::Code::INTERNAL_SERVER_ERROR, "call failed");
        return changed.status();
    }

    // The status a Settings gets on a fresh telemetry stream.
    v2::Status settingsAnswer(const std::string &clientId, v2::ClientType type, const std::string &group,
                              const std::string &topic)
    {
        auto context = callContext(clientId);
        auto stream = stub_->Telemetry(context.get());
        v2::TelemetryCommand answer;
        if (!stream->Write(consumerSettings(type, group, topic)) || !stream->Read(&answer))
            return mqdesk::grpc::makeStatus(v2::Code::INTERNAL_SERVER_ERROR, "no answer");
        stream->WritesDone();
        v2::TelemetryCommand rest;
        while (stream->Read(&rest)) { }
        stream->Finish();
        return answer.status();
    }

    // Receives, as the LiteSimpleConsumer does, on the parent's queue 0 until `wanted` arrived.
    std::vector<v2::Message> receiveLite(const std::string &clientId, size_t wanted)
    {
        std::vector<v2::Message> got;
        for (int round = 0; round < 10 && got.size() < wanted; ++round) {
            v2::ReceiveMessageRequest receive;
            receive.mutable_group()->set_name("GEndpointLite");
            receive.mutable_message_queue()->mutable_topic()->set_name("EndpointLiteParent");
            receive.mutable_message_queue()->set_id(0);
            receive.mutable_filter_expression()->set_type(v2::FilterType::TAG);
            receive.mutable_filter_expression()->set_expression("*");
            receive.set_batch_size(10);
            receive.mutable_invisible_duration()->set_seconds(30);
            receive.mutable_long_polling_timeout()->set_seconds(3);
            receive.set_auto_renew(false);
            auto context = callContext(clientId);
            auto reader = stub_->ReceiveMessage(context.get(), receive);
            v2::ReceiveMessageResponse item;
            while (reader->Read(&item)) {
                if (item.has_message())
                    got.push_back(item.message());
            }
            reader->Finish();
        }
        return got;
    }

    void openConsumerTelemetry(const std::string &group, const std::string &topic)
    {
        telemetryContext_ = callContext();
        telemetryContext_->set_deadline(std::chrono::system_clock::now() + std::chrono::minutes(5));
        telemetry_ = stub_->Telemetry(telemetryContext_.get());
        QVERIFY(telemetry_->Write(
            consumerSettings(v2::ClientType::SIMPLE_CONSUMER, group, topic, v2::Language::CPP, "5.0.0")));
        v2::TelemetryCommand answer;
        QVERIFY(telemetry_->Read(&answer));
        QCOMPARE(answer.status().code(), v2::Code::OK);
    }

    std::unique_ptr<TestBroker> broker_;
    std::unique_ptr<mqdesk::grpc::GrpcEndpoint> endpoint_;
    std::unique_ptr<v2::MessagingService::Stub> stub_;
    std::unique_ptr<::grpc::ClientContext> telemetryContext_;
    std::unique_ptr<::grpc::ClientReaderWriter<v2::TelemetryCommand, v2::TelemetryCommand>> telemetry_;
};

QObject *createGrpcEndpointTest() { return new GrpcEndpointTest; }

#include "tst_endpoint.moc"
