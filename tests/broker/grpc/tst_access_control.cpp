// The 5.x endpoint's ACL pieces that need no server (broker/grpc/access_control.h): the
// `authorization` header as Java's AuthorizationHeader reads it, and the topics and groups each
// RPC and each telemetry Settings names, with the actions each needs. The end-to-end
// refusals (a real SDK and raw grpc-js calls against mqdesk-broker) are conformance_grpc_acl.

// protobuf first: Qt's keyword macros must not reach its headers.
#include "broker/grpc/access_control.h"

#include "broker/acl/request_table.h"

#include <QTest>

using namespace mqdesk;
namespace v2 = apache::rocketmq::v2;
namespace action = acl::action;

namespace {

// "Topic:T" / "Group:G" -> the actions any one of which grants the check.
using Needs = std::map<std::string, uint16_t>;

Needs needs(const google::protobuf::Message *request)
{
    Needs out;
    for (const acl::Check &check : mqdesk::grpc::checksOf(request))
        out[std::string(acl::resourceTypeName(check.type)) + ":" + check.name] = check.actions;
    return out;
}

} // namespace

class GrpcAccessControlTest : public QObject
{
    Q_OBJECT

private slots:
    void parsesTheSdksAuthorizationHeader()
    {
        std::string error;
        // What rocketmq-clients' Signature.sign writes.
        const auto header = mqdesk::grpc::parseAuthorization(
            "MQv2-HMAC-SHA1 Credential=RocketMQ/20261204/ignored, SignedHeaders=x-mq-date-time, "
            "Signature=0A1b2C3d",
            error);
        QVERIFY2(header, error.c_str());
        QCOMPARE(header->method, std::string("MQv2-HMAC-SHA1"));
        QCOMPARE(header->accessKey, std::string("RocketMQ")); // the Credential's first part only
        QCOMPARE(header->signature, (std::vector<uint8_t>{0x0a, 0x1b, 0x2c, 0x3d}));

        const auto bare = mqdesk::grpc::parseAuthorization("MQv2-HMAC-SHA1 Credential=AK,Signature=", error);
        QVERIFY2(bare, error.c_str());
        QCOMPARE(bare->accessKey, std::string("AK"));
        QVERIFY(bare->signature.empty());
    }

    void refusesMalformedHeadersWithJavasWords_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("error");
        QTest::newRow("no space") << QStringLiteral("MQv2-HMAC-SHA1") << QStringLiteral("authorization header is incorrect");
        QTest::newRow("empty") << QString() << QStringLiteral("authorization header is incorrect");
        QTest::newRow("item without =") << QStringLiteral("MQv2-HMAC-SHA1 Credential=AK, SignedHeaders")
                                        << QStringLiteral("authorization keyValues is incorrect");
        QTest::newRow("trailing comma") << QStringLiteral("MQv2-HMAC-SHA1 Credential=AK,")
                                        << QStringLiteral("authorization keyValues is incorrect");
        QTest::newRow("signature not hex") << QStringLiteral("MQv2-HMAC-SHA1 Credential=AK, Signature=xyz1")
                                           << QStringLiteral("authorization Signature is not hexadecimal");
        QTest::newRow("odd hex digits") << QStringLiteral("MQv2-HMAC-SHA1 Credential=AK, Signature=abc")
                                        << QStringLiteral("authorization Signature is not hexadecimal");
    }

    void refusesMalformedHeadersWithJavasWords()
    {
        QFETCH(QString, value);
        QFETCH(QString, error);
        std::string why;
        QVERIFY(!mqdesk::grpc::parseAuthorization(value.toStdString(), why));
        QCOMPARE(QString::fromStdString(why), error);
    }

    void eachRpcNamesItsTopicsAndGroups()
    {
        v2::SendMessageRequest send;
        send.add_messages()->mutable_topic()->set_name("T1");
        send.add_messages()->mutable_topic()->set_name("T2");
        QCOMPARE(needs(&send), (Needs{{"Topic:T1", action::kPub}, {"Topic:T2", action::kPub}}));

        v2::QueryRouteRequest route;
        route.mutable_topic()->set_name("T");
        QCOMPARE(needs(&route), (Needs{{"Topic:T", action::kPub | action::kSub}}));

        v2::EndTransactionRequest end;
        end.mutable_topic()->set_name("TX");
        QCOMPARE(needs(&end), (Needs{{"Topic:TX", action::kPub}}));

        v2::ReceiveMessageRequest receive;
        receive.mutable_group()->set_name("G");
        receive.mutable_message_queue()->mutable_topic()->set_name("T");
        const Needs consumer{{"Group:G", action::kSub}, {"Topic:T", action::kSub}};
        QCOMPARE(needs(&receive), consumer);

        v2::AckMessageRequest ack;
        ack.mutable_group()->set_name("G");
        ack.mutable_topic()->set_name("T");
        QCOMPARE(needs(&ack), consumer);

        v2::ChangeInvisibleDurationRequest invisible;
        invisible.mutable_group()->set_name("G");
        invisible.mutable_topic()->set_name("T");
        QCOMPARE(needs(&invisible), consumer);

        v2::ForwardMessageToDeadLetterQueueRequest forward;
        forward.mutable_group()->set_name("G");
        forward.mutable_topic()->set_name("T");
        QCOMPARE(needs(&forward), consumer);

        v2::QueryAssignmentRequest assignment;
        assignment.mutable_group()->set_name("G");
        assignment.mutable_topic()->set_name("T");
        QCOMPARE(needs(&assignment), consumer);

        // A producer's heartbeat names no group; a consumer's names its own.
        v2::HeartbeatRequest heartbeat;
        QVERIFY(needs(&heartbeat).empty());
        heartbeat.mutable_group()->set_name("G");
        QCOMPARE(needs(&heartbeat), (Needs{{"Group:G", action::kSub}}));

        v2::NotifyClientTerminationRequest termination;
        QVERIFY(needs(&termination).empty());
        termination.mutable_group()->set_name("G");
        QCOMPARE(needs(&termination), (Needs{{"Group:G", action::kSub}}));

        QVERIFY(needs(nullptr).empty()); // a telemetry stream opening names nothing yet
    }

    void telemetrySettingsNameWhatTheClientWillUse()
    {
        v2::TelemetryCommand publishing;
        v2::Publishing &topics = *publishing.mutable_settings()->mutable_publishing();
        topics.add_topics()->set_name("P1");
        topics.add_topics()->set_name("P2");
        QCOMPARE(needs(&publishing), (Needs{{"Topic:P1", action::kPub}, {"Topic:P2", action::kPub}}));

        v2::TelemetryCommand subscribing;
        v2::Subscription &subscription = *subscribing.mutable_settings()->mutable_subscription();
        subscription.mutable_group()->set_name("G");
        subscription.add_subscriptions()->mutable_topic()->set_name("S1");
        subscription.add_subscriptions()->mutable_topic()->set_name("S2");
        QCOMPARE(needs(&subscribing), (Needs{
                                          {"Group:G", action::kSub}, {"Topic:S1", action::kSub}, {"Topic:S2", action::kSub}}));

        v2::TelemetryCommand status; // a client's answer to a recover command: nothing named
        status.mutable_status()->set_code(v2::Code::OK);
        QVERIFY(needs(&status).empty());
    }
};

QObject *createGrpcAccessControlTest() { return new GrpcAccessControlTest; }

#include "tst_access_control.moc"
