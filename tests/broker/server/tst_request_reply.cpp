// Request-reply as the Java client does it (producer.request): the responder sends the reply with
// SEND_REPLY_MESSAGE_V2; the broker pushes it to the requesting client's connection, found by the
// REPLY_TO_CLIENT property among its producers' heartbeats, and stores it in
// <cluster>_REPLY_TOPIC (storeReplyMessageEnable).

#include "broker_test_util.h"

#include "broker/remoting/net/processor_executor.h"
#include "broker/remoting/protocol/client_data.h"
#include "broker/server/topic_manager.h"
#include "broker/store/message_store.h"
#include "test_support.h"

#include <filesystem>
#include <mutex>

using namespace mqdesk;
using mqdesk::remoting::RemotingCommand;
using mqdesk::remoting::RequestCode;
using mqdesk::remoting::ResponseCode;
using mqdesk::test::TestBroker;

namespace {

const std::string kReplyTopic = "DefaultCluster_REPLY_TOPIC";

RemotingCommand producerHeartbeat(const std::string &clientId, const std::string &group)
{
    remoting::HeartbeatData data;
    data.clientId = clientId;
    data.producerDataSet.push_back({group});
    RemotingCommand request = RemotingCommand::createRequest(RequestCode::kHeartBeat);
    const std::string json = data.toJson();
    request.body.assign(json.begin(), json.end());
    return request;
}

// The reply as MessageUtil.createReplyMessage builds it and the Java client sends it.
RemotingCommand sendReply(const std::string &replyToClient, const std::string &correlationId, const std::string &body,
                          const std::string &topic = kReplyTopic, const std::string &extraProperties = {})
{
    const std::string properties = std::string("CORRELATION_ID\001") + correlationId + "\002MSG_TYPE\001reply\002"
                                   + "REPLY_TO_CLIENT\001" + replyToClient + "\002TTL\0013000\002" + extraProperties;
    RemotingCommand request = RemotingCommand::createRequest(
        RequestCode::kSendReplyMessageV2,
        {{"a", "ResponderPG"}, {"b", topic}, {"c", "TBW102"}, {"d", "4"}, {"e", "-1"}, {"f", "0"},
         {"g", "1700000000000"}, {"h", "0"}, {"i", properties}, {"j", "0"}, {"k", "false"}});
    request.body.assign(body.begin(), body.end());
    return request;
}

} // namespace

class RequestReplyTest : public QObject
{
    Q_OBJECT

private slots:
    void replyIsPushedToTheRequesterAndStored()
    {
        remoting::ProcessorExecutor executor("requester");
        std::mutex mutex;
        std::vector<RemotingCommand> pushed;
        remoting::RemotingClient requester;
        requester.registerProcessor(
            RequestCode::kPushReplyMessageToClient,
            [&](const remoting::RequestContext &, RemotingCommand push, remoting::Responder respond) {
                respond(RemotingCommand::createResponse(push, ResponseCode::kSuccess, {}));
                std::lock_guard lock(mutex);
                pushed.push_back(std::move(push));
            },
            executor);
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QVERIFY(broker.controller().topics().find(kReplyTopic).has_value());
        QVERIFY(requester.invokeSync(broker.brokerAddress(), producerHeartbeat("10.0.0.1@req", "RequesterPG"),
                                     std::chrono::milliseconds(5000)).ok());

        RemotingCommand response = broker.call(sendReply("10.0.0.1@req", "corr-1", "pong"));
        QCOMPARE(response.code, ResponseCode::kSuccess);
        {
            std::lock_guard lock(mutex);
            QCOMPARE(pushed.size(), size_t{1});
            const RemotingCommand &push = pushed[0];
            QCOMPARE(test::bodyOf(push), std::string("pong"));
            QCOMPARE(push.extFields.value("topic"), kReplyTopic);
            QCOMPARE(push.extFields.value("producerGroup"), std::string("ResponderPG"));
            const std::string properties = push.extFields.value("properties");
            QVERIFY2(properties.find("CORRELATION_ID\001corr-1\002") != std::string::npos, properties.c_str());
            QVERIFY2(properties.find("PUSH_REPLY_TIME\001") != std::string::npos, properties.c_str());
            QVERIFY(!push.extFields.value("storeHost").empty());
        }
        // storeReplyMessageEnable (default true): the reply is in the reply topic too.
        QTRY_COMPARE_WITH_TIMEOUT(broker.controller().store().maxOffsetInQueue(kReplyTopic, 0), int64_t{1}, test::kPatienceMs);
        QVERIFY(response.extFields.value("msgId") != "0");
    }

    void replyToAnUnknownClientIsAnErrorNamingIt()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        RemotingCommand response = broker.call(sendReply("nobody@1", "corr-2", "lost"));
        QCOMPARE(response.code, ResponseCode::kSystemError);
        const std::string remark = response.remark.value_or("");
        QVERIFY2(remark.find("nobody@1") != std::string::npos, remark.c_str());

        RemotingCommand missing = broker.call(sendReply("", "corr-3", "x"));
        QCOMPARE(missing.code, ResponseCode::kSystemError);
        const std::string missingRemark = missing.remark.value_or("");
        QVERIFY2(missingRemark.find("REPLY_TO_CLIENT") != std::string::npos, missingRemark.c_str());
    }

    void replyIsNotStoredWhenStoreReplyMessageIsOff()
    {
        TestBroker broker([](server::BrokerSettings &settings) { settings.broker.storeReplyMessageEnable = false; });
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(sendReply("nobody@1", "corr-4", "x")).code, ResponseCode::kSystemError);
        QCOMPARE(broker.controller().store().maxOffsetInQueue(kReplyTopic, 0), int64_t{0});
    }

    // A replier is a client like any other: a reply naming a path, a topic clients may not send
    // to, or properties PROPERTIESLEN cannot hold is refused as a send is (Java's msgCheck for
    // both), NUL bytes are stored as sent, and what was acknowledged before is all there after a
    // restart.
    void hostileRepliesAreRefusedAndNothingAcknowledgedIsLost()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        RemotingCommand acknowledged = broker.call(sendReply("nobody@1", "before", "kept", "RRHostileTopic"));
        QCOMPARE(acknowledged.code, ResponseCode::kSystemError); // no requester, but stored
        QTRY_COMPARE_WITH_TIMEOUT(broker.controller().store().maxOffsetInQueue("RRHostileTopic", 0)
                                      + broker.controller().store().maxOffsetInQueue("RRHostileTopic", 1)
                                      + broker.controller().store().maxOffsetInQueue("RRHostileTopic", 2)
                                      + broker.controller().store().maxOffsetInQueue("RRHostileTopic", 3),
                                  int64_t{1}, test::kPatienceMs);

        const RemotingCommand path = broker.call(sendReply("nobody@1", "c1", "x", "x/../../../ESC"));
        QCOMPARE(path.code, ResponseCode::kSystemError);
        QVERIFY2(path.remark.value_or("").find("topic") != std::string::npos, path.remark.value_or("").c_str());
        const RemotingCommand forbidden = broker.call(sendReply("nobody@1", "c2", "x", "SCHEDULE_TOPIC_XXXX"));
        QCOMPARE(forbidden.code, ResponseCode::kNoPermission);
        const RemotingCommand huge =
            broker.call(sendReply("nobody@1", "c3", "x", kReplyTopic, "KEYS\001" + std::string(40000, 'k') + "\002"));
        QCOMPARE(huge.code, ResponseCode::kMessageIllegal);
        const RemotingCommand nul = broker.call(
            sendReply("nobody@1", "c4", "nul", kReplyTopic, std::string("X\001a\0b\002", 6)));
        QCOMPARE(nul.code, ResponseCode::kSystemError); // pushed nowhere, stored
        QTRY_COMPARE_WITH_TIMEOUT(broker.controller().store().maxOffsetInQueue(kReplyTopic, 0), int64_t{1}, test::kPatienceMs);
        for (int queue = 0; queue < 18; ++queue)
            QCOMPARE(broker.controller().store().maxOffsetInQueue("SCHEDULE_TOPIC_XXXX", queue), int64_t{0});
        QVERIFY(!std::filesystem::exists(std::filesystem::path(broker.storeDir()).parent_path() / "ESC"));

        QVERIFY2(broker.restart(error), error.c_str());
        int64_t kept = 0;
        for (int queue = 0; queue < 4; ++queue)
            kept += broker.controller().store().maxOffsetInQueue("RRHostileTopic", queue);
        QCOMPARE(kept, int64_t{1});
        QCOMPARE(broker.controller().store().maxOffsetInQueue(kReplyTopic, 0), int64_t{1});
    }

    void traceTopicEnableCreatesTheTraceTopic()
    {
        TestBroker plain;
        std::string error;
        QVERIFY2(plain.start(error), error.c_str());
        QVERIFY(!plain.controller().topics().find("RMQ_SYS_TRACE_TOPIC").has_value());

        TestBroker traced([](server::BrokerSettings &settings) {
            settings.broker.traceTopicEnable = true;
            settings.broker.msgTraceTopicName = "MyTraceTopic";
        });
        QVERIFY2(traced.start(error), error.c_str());
        const auto topic = traced.controller().topics().find("MyTraceTopic");
        QVERIFY(topic.has_value());
        QCOMPARE(topic->writeQueueNums, 1);

        TestBroker hostile([](server::BrokerSettings &settings) {
            settings.broker.traceTopicEnable = true;
            settings.broker.msgTraceTopicName = "../outside";
        });
        QVERIFY(!hostile.start(error));
        QVERIFY2(error.find("msgTraceTopicName") != std::string::npos, error.c_str());
    }
};

QObject *createRequestReplyTest()
{
    return new RequestReplyTest;
}

#include "tst_request_reply.moc"
