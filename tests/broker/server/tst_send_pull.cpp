// The broker's core requests over a real socket, as a third-party client sends them: send
// (v1, v2, batch) and pull, long polling, heartbeats and consumer lists, offsets, and the
// errors on bad input.

#include "admin_test_util.h"
#include "broker_test_util.h"

#include "broker/common/clock.h"
#include "broker/common/java_strings.h"
#include "broker/common/message_id.h"
#include "broker/common/message_properties.h"
#include "broker/common/record_codec.h"
#include "broker/remoting/protocol/client_data.h"
#include "broker/server/broker_controller.h"
#include "broker/server/pull_request_hold_service.h"
#include "broker/server/send_msg_back_processor.h"
#include "broker/server/topic_manager.h"
#include "broker/common/bytes.h"
#include "broker/store/config/subscription_group_manager.h"
#include "broker/store/message_store.h"
#include "test_support.h"

#include <atomic>
#include <future>

using namespace mqdesk;
using mqdesk::remoting::RemotingCommand;
using mqdesk::remoting::RequestCode;
using mqdesk::remoting::ResponseCode;
using mqdesk::test::decodeRecords;
using mqdesk::test::TestBroker;

namespace {

RemotingCommand sendV2(const std::string &topic, int32_t queueId, const std::string &body,
                       const std::string &properties = "TAGS\001TagA\002")
{
    RemotingCommand request = RemotingCommand::createRequest(
        RequestCode::kSendMessageV2, {{"a", "PG"}, {"b", topic}, {"c", "TBW102"}, {"d", "4"},
                                      {"e", std::to_string(queueId)}, {"f", "0"}, {"g", "1700000000000"},
                                      {"h", "0"}, {"i", properties}, {"j", "0"}, {"k", "false"}});
    request.body.assign(body.begin(), body.end());
    return request;
}

RemotingCommand pull(const std::string &group, const std::string &topic, int32_t queueId, int64_t offset,
                     int32_t sysFlag = 6, const std::string &subscription = "*", int64_t suspendMillis = 15000)
{
    return RemotingCommand::createRequest(
        RequestCode::kPullMessage,
        {{"consumerGroup", group}, {"topic", topic}, {"queueId", std::to_string(queueId)},
         {"queueOffset", std::to_string(offset)}, {"maxMsgNums", "32"}, {"sysFlag", std::to_string(sysFlag)},
         {"commitOffset", "-1"}, {"suspendTimeoutMillis", std::to_string(suspendMillis)},
         {"subscription", subscription}, {"subVersion", "1"}});
}

RemotingCommand heartbeat(const std::string &clientId, const std::string &group, const std::string &topic)
{
    remoting::HeartbeatData data;
    data.clientId = clientId;
    remoting::ConsumerData consumer;
    consumer.groupName = group;
    consumer.subscriptionDataSet.push_back(remoting::SubscriptionData::build(topic, "*"));
    consumer.subscriptionDataSet.back().subVersion = 1;
    data.consumerDataSet.push_back(consumer);
    data.producerDataSet.push_back({"PG"});
    RemotingCommand request = RemotingCommand::createRequest(RequestCode::kHeartBeat);
    const std::string json = data.toJson();
    request.body.assign(json.begin(), json.end());
    return request;
}

} // namespace

class SendPullTest : public QObject
{
    Q_OBJECT

private slots:
    // As Java: a lookup never creates a topic (a typo must not leave one behind); a producer's
    // first send through TBW102's route does, at the broker, and then the topic has a route.
    void routeLookupNeverCreatesButAFirstSendDoes()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        const auto lookup = [&](const std::string &topic) {
            return broker.callAt(broker.namesrvAddress(),
                                 RemotingCommand::createRequest(RequestCode::kGetRouteinfoByTopic, {{"topic", topic}}));
        };
        QCOMPARE(lookup("Fresh").code, ResponseCode::kTopicNotExist);
        QCOMPARE(lookup("Fresh").code, ResponseCode::kTopicNotExist);
        QVERIFY(!broker.controller().topics().find("Fresh"));
        QCOMPARE(lookup("TBW102").code, ResponseCode::kSuccess);

        QCOMPARE(broker.call(sendV2("Fresh", 0, "first")).code, ResponseCode::kSuccess);
        const RemotingCommand route = lookup("Fresh");
        QCOMPARE(route.code, ResponseCode::kSuccess);
        const std::string body = test::bodyOf(route);
        QVERIFY2(body.find(broker.brokerAddress()) != std::string::npos, body.c_str());
    }

    void sendThenPullReturnsTheRecordsAsStored()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        std::vector<std::string> ids;
        for (int i = 0; i < 5; ++i) {
            RemotingCommand response = broker.call(sendV2("TopicA", 1, "hello " + std::to_string(i),
                                                          "TAGS\001TagA\002KEYS\001k" + std::to_string(i)
                                                              + "\002WAIT\001true\002POP_CK\001stale receipt\002"));
            QCOMPARE(response.code, ResponseCode::kSuccess);
            QCOMPARE(response.extFields.value("queueId"), std::string("1"));
            QCOMPARE(response.extFields.value("queueOffset"), std::to_string(i));
            QCOMPARE(response.extFields.value("MSG_REGION"), std::string("DefaultRegion"));
            ids.push_back(response.extFields.value("msgId"));
        }
        broker.controller().store().waitForDispatch();

        RemotingCommand response = broker.call(pull("CG", "TopicA", 1, 0));
        QCOMPARE(response.code, ResponseCode::kSuccess);
        QCOMPARE(response.extFields.value("nextBeginOffset"), std::string("5"));
        QCOMPARE(response.extFields.value("minOffset"), std::string("0"));
        QCOMPARE(response.extFields.value("maxOffset"), std::string("5"));
        QCOMPARE(response.extFields.value("suggestWhichBrokerId"), std::string("0"));
        const auto messages = decodeRecords(response.body);
        QCOMPARE(messages.size(), size_t{5});
        const auto storeHost = common::HostAddress::parse(broker.brokerAddress());
        QVERIFY(storeHost.has_value());
        for (int i = 0; i < 5; ++i) {
            const common::StoredMessage &message = messages[static_cast<size_t>(i)];
            QCOMPARE(message.bodyText(), "hello " + std::to_string(i));
            QCOMPARE(message.topic, std::string("TopicA"));
            QCOMPARE(message.queueOffset, int64_t{i});
            QCOMPARE(message.tags(), std::string("TagA"));
            QCOMPARE(std::string(message.properties.get("KEYS").value_or("")), "k" + std::to_string(i));
            QCOMPARE(std::string(message.properties.get("CLUSTER").value_or("")), std::string("DefaultCluster"));
            // As the Java broker stores them: a 5.x consumer with enableMsgTrace traces only
            // messages that carry its region and trace switch.
            QCOMPARE(std::string(message.properties.get("MSG_REGION").value_or("")), std::string("DefaultRegion"));
            QCOMPARE(std::string(message.properties.get("TRACE_ON").value_or("")), std::string("true"));
            QCOMPARE(std::string(message.properties.get("WAIT").value_or("")), std::string("true")); // kept, as 5.x
            QVERIFY(!message.properties.get("POP_CK").has_value()); // a client's receipt is never stored
            QCOMPARE(message.bornTimestamp, int64_t{1700000000000});
            QCOMPARE(message.storeHost, *storeHost);
            // The id the send returned is the one a client computes from the pulled record.
            QCOMPARE(common::createOffsetMessageId(message.storeHost, message.physicalOffset), ids[static_cast<size_t>(i)]);
        }

        // Caught up: PULL_NOT_FOUND without suspension, with all four offsets.
        response = broker.call(pull("CG", "TopicA", 1, 5, 4));
        QCOMPARE(response.code, ResponseCode::kPullNotFound);
        QCOMPARE(response.extFields.value("nextBeginOffset"), std::string("5"));
        QCOMPARE(response.extFields.value("maxOffset"), std::string("5"));
        // Beyond the end: moved back to the max.
        response = broker.call(pull("CG", "TopicA", 1, 9, 4));
        QCOMPARE(response.code, ResponseCode::kPullOffsetMoved);
        QCOMPARE(response.extFields.value("nextBeginOffset"), std::string("5"));
        // An empty queue at offset 0 is "not found", elsewhere "moved to 0".
        QCOMPARE(broker.call(pull("CG", "TopicA", 2, 0, 4)).code, ResponseCode::kPullNotFound);
        response = broker.call(pull("CG", "TopicA", 2, 3, 4));
        QCOMPARE(response.code, ResponseCode::kPullOffsetMoved);
        QCOMPARE(response.extFields.value("nextBeginOffset"), std::string("0"));
    }

    // A pull hands out what the request asks for up to the store's maxTransferCountOnMessageInMemory
    // (32 by default, as Java's) and maxTransferBytesOnMessageInMemory, both changed live; a
    // message further behind the log's end than accessMessageInMemoryMaxRatio of the memory
    // counts as on disk (maxTransferCountOnMessageInDisk, 8).
    void pullsHandOutWhatTheTransferLimitsAllow()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        for (int i = 0; i < 100; ++i)
            QCOMPARE(broker.call(sendV2("TopicLimits", 0, "message " + std::to_string(i))).code, ResponseCode::kSuccess);
        broker.controller().store().waitForDispatch();
        const auto pulled = [&](int32_t maxMsgNums) {
            RemotingCommand request = pull("CG", "TopicLimits", 0, 0);
            request.extFields.set("maxMsgNums", std::to_string(maxMsgNums));
            const RemotingCommand response = broker.call(request);
            return response.code == ResponseCode::kSuccess ? decodeRecords(response.body).size() : size_t{0};
        };
        QCOMPARE(pulled(64), size_t{32});
        QCOMPARE(pulled(5), size_t{5});
        const auto update = [&](const std::string &properties) {
            RemotingCommand command = test::request(RequestCode::kUpdateBrokerConfig);
            test::setBodyText(command, properties);
            return broker.call(command).code;
        };
        QCOMPARE(update("maxTransferCountOnMessageInMemory=64\n"), ResponseCode::kSuccess);
        QCOMPARE(pulled(100), size_t{64});
        QCOMPARE(update("maxTransferBytesOnMessageInMemory=1000\n"), ResponseCode::kSuccess);
        const size_t byBytes = pulled(100);
        QVERIFY2(byBytes >= 1 && byBytes < 64, std::to_string(byBytes).c_str());
        QCOMPARE(update("maxTransferBytesOnMessageInMemory=262144\naccessMessageInMemoryMaxRatio=0\n"),
                 ResponseCode::kSuccess);
        QCOMPARE(pulled(100), size_t{8}); // every message but the newest is "on disk" now
    }

    void tagFilterSkipsOtherTags()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        const char *tags[] = {"TagA", "TagB", "TagC", "TagB"};
        for (const char *tag : tags)
            QCOMPARE(broker.call(sendV2("Tagged", 0, tag, std::string("TAGS\001") + tag + "\002")).code,
                     ResponseCode::kSuccess);
        QCOMPARE(broker.call(sendV2("Tagged", 0, "untagged", "")).code, ResponseCode::kSuccess);
        broker.controller().store().waitForDispatch();
        RemotingCommand response = broker.call(pull("CG", "Tagged", 0, 0, 4, "TagA || TagC"));
        QCOMPARE(response.code, ResponseCode::kSuccess);
        const auto messages = decodeRecords(response.body);
        QCOMPARE(messages.size(), size_t{2});
        QCOMPARE(messages[0].tags(), std::string("TagA"));
        QCOMPARE(messages[1].tags(), std::string("TagC"));
        QCOMPARE(response.extFields.value("nextBeginOffset"), std::string("5"));
        // Nothing matching left: retry immediately from past the skipped entries.
        response = broker.call(pull("CG", "Tagged", 0, 3, 4, "TagA"));
        QCOMPARE(response.code, ResponseCode::kPullRetryImmediately);
        QCOMPARE(response.extFields.value("nextBeginOffset"), std::string("5"));
    }

    void heldPullIsAnsweredWhenAMessageArrives()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(sendV2("Held", 0, "first")).code, ResponseCode::kSuccess);
        broker.controller().store().waitForDispatch();

        // A pull at the end with a 15 s hold; it must come back with the new message, not
        // after the hold expires (the test's 10 s bound only catches a broker that never wakes it).
        std::promise<remoting::InvokeResult> answered;
        broker.client().invokeAsync(broker.brokerAddress(), pull("CG", "Held", 0, 1), std::chrono::milliseconds(10000),
                                    [&](remoting::InvokeResult result) { answered.set_value(std::move(result)); });
        auto future = answered.get_future();
        QTRY_COMPARE_WITH_TIMEOUT(broker.controller().pullHold().heldCount(), size_t{1}, test::kPatienceMs);
        // Other requests on the same connection are not blocked behind the held pull.
        QCOMPARE(broker.call(sendV2("Held", 0, "second")).code, ResponseCode::kSuccess);
        QVERIFY(future.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
        const remoting::InvokeResult result = future.get();
        QVERIFY2(result.ok(), result.errorMessage.c_str());
        QCOMPARE(result.response.code, ResponseCode::kSuccess);
        const auto messages = decodeRecords(result.response.body);
        QCOMPARE(messages.size(), size_t{1});
        QCOMPARE(messages[0].bodyText(), std::string("second"));
    }

    void heldPullEndsNotFoundWhenItsHoldExpires()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        // A message of another tag does not wake a TagA pull; the hold (1 s) then runs out.
        QCOMPARE(broker.call(sendV2("Quiet", 0, "a", "TAGS\001TagB\002")).code, ResponseCode::kSuccess);
        broker.controller().store().waitForDispatch();
        std::promise<remoting::InvokeResult> answered;
        broker.client().invokeAsync(broker.brokerAddress(), pull("CG", "Quiet", 0, 1, 6, "TagA", 1000),
                                    std::chrono::milliseconds(10000),
                                    [&](remoting::InvokeResult result) { answered.set_value(std::move(result)); });
        QTRY_COMPARE_WITH_TIMEOUT(broker.controller().pullHold().heldCount(), size_t{1}, test::kPatienceMs);
        QCOMPARE(broker.call(sendV2("Quiet", 0, "b", "TAGS\001TagB\002")).code, ResponseCode::kSuccess);
        auto future = answered.get_future();
        QVERIFY(future.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
        const remoting::InvokeResult result = future.get();
        QVERIFY(result.ok());
        // The re-run after expiry filters: the TagB message is skipped, not delivered.
        QVERIFY2(result.response.code == ResponseCode::kPullRetryImmediately
                     || result.response.code == ResponseCode::kPullNotFound,
                 std::to_string(result.response.code).c_str());
        QVERIFY(decodeRecords(result.response.body).empty());
    }

    void batchSendStoresEachMessage()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        std::vector<uint8_t> body;
        for (int i = 0; i < 3; ++i) {
            const std::string text = "batch-" + std::to_string(i);
            const std::string properties = "KEYS\001bk" + std::to_string(i);
            const int32_t total = 4 * 5 + static_cast<int32_t>(text.size()) + 2 + static_cast<int32_t>(properties.size());
            uint8_t header[20];
            common::writeInt32(header, total);
            common::writeInt32(header + 4, 0);
            common::writeInt32(header + 8, 0);
            common::writeInt32(header + 12, 7);
            common::writeInt32(header + 16, static_cast<int32_t>(text.size()));
            body.insert(body.end(), header, header + 20);
            body.insert(body.end(), text.begin(), text.end());
            uint8_t length[2];
            common::writeInt16(length, static_cast<int16_t>(properties.size()));
            body.insert(body.end(), length, length + 2);
            body.insert(body.end(), properties.begin(), properties.end());
        }
        RemotingCommand request = sendV2("Batched", 0, "", "");
        request.code = RequestCode::kSendBatchMessage;
        request.extFields.set("m", "true");
        request.body = body;
        RemotingCommand response = broker.call(std::move(request));
        QCOMPARE(response.code, ResponseCode::kSuccess);
        QCOMPARE(response.extFields.value("queueOffset"), std::string("0"));
        const std::string ids = response.extFields.value("msgId");
        QCOMPARE(std::count(ids.begin(), ids.end(), ','), 2);
        broker.controller().store().waitForDispatch();
        const auto messages = decodeRecords(broker.call(pull("CG", "Batched", 0, 0, 4)).body);
        QCOMPARE(messages.size(), size_t{3});
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(messages[static_cast<size_t>(i)].bodyText(), "batch-" + std::to_string(i));
            QCOMPARE(messages[static_cast<size_t>(i)].flag, 7);
            QCOMPARE(std::string(messages[static_cast<size_t>(i)].properties.get("KEYS").value_or("")),
                     "bk" + std::to_string(i));
        }

        request = sendV2("Batched", 0, "", "");
        request.code = RequestCode::kSendBatchMessage;
        request.body = {0, 0, 0, 99, 1, 2};
        response = broker.call(std::move(request));
        QCOMPARE(response.code, ResponseCode::kMessageIllegal);
        QVERIFY2(response.remark.value_or("").find("batch message 0") != std::string::npos,
                 response.remark.value_or("").c_str());
    }

    void sendErrorsNameTheProblem()
    {
        TestBroker broker([](server::BrokerSettings &settings) { settings.broker.autoCreateTopicEnable = false; });
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        RemotingCommand response = broker.call(sendV2("Unknown", 0, "x"));
        QCOMPARE(response.code, ResponseCode::kTopicNotExist);
        QCOMPARE(response.remark.value_or(""), std::string("topic[Unknown] not exist, apply first please!"));
        response = broker.call(sendV2("SCHEDULE_TOPIC_XXXX", 0, "x"));
        QCOMPARE(response.code, ResponseCode::kNoPermission);
        response = broker.call(sendV2("bad/topic", 0, "x"));
        QCOMPARE(response.code, ResponseCode::kSystemError);
        QVERIFY(response.remark.value_or("").find("illegal characters") != std::string::npos);
        RemotingCommand missing = sendV2("SELF_TEST_TOPIC", 0, "x");
        missing.extFields.remove("e");
        response = broker.call(std::move(missing));
        QCOMPARE(response.code, ResponseCode::kSystemError);
        QCOMPARE(response.remark.value_or(""), std::string("the custom field <e> is null"));
        response = broker.call(RemotingCommand::createRequest(4242));
        QCOMPARE(response.code, ResponseCode::kRequestCodeNotSupported);
        QVERIFY(response.remark.value_or("").find("4242") != std::string::npos);
    }

    // startAcceptSendRequestTimeStamp (live): sends before it are refused with Java's remark
    // naming the moment, and the runtime info shows it.
    void sendsWaitForTheStartAcceptTime()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        const int64_t start = common::wallMillis() + 3600000;
        RemotingCommand update = test::request(RequestCode::kUpdateBrokerConfig);
        test::setBodyText(update, "startAcceptSendRequestTimeStamp=" + std::to_string(start) + "\n");
        QCOMPARE(broker.call(update).code, ResponseCode::kSuccess);
        RemotingCommand response = broker.call(sendV2("StartAccept", 0, "early"));
        QCOMPARE(response.code, ResponseCode::kSystemError);
        QCOMPARE(response.remark.value_or(""), "broker unable to service, until " + common::javaHumanTime(start));
        QCOMPARE(test::runtimeInfoOf(broker)["startAcceptSendRequestTimeStamp"], std::to_string(start));
        test::setBodyText(update, "startAcceptSendRequestTimeStamp=0\n");
        QCOMPARE(broker.call(update).code, ResponseCode::kSuccess);
        QCOMPARE(broker.call(sendV2("StartAccept", 0, "now")).code, ResponseCode::kSuccess);
    }

    // Without autoCreateSubscriptionGroup only system groups (CID_RMQ_SYS_…) are created on first
    // use, and only while enableCreateSysGroup is on (live), as Java's findSubscriptionGroupConfig.
    void systemGroupsAreCreatedOnFirstUse()
    {
        TestBroker broker([](server::BrokerSettings &settings) { settings.broker.autoCreateSubscriptionGroup = false; });
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(test::createTopic("SysGroupTopic", 1)).code, ResponseCode::kSuccess);
        const auto pull = [&](const std::string &group) {
            return broker.call(test::pullRequest(group, "SysGroupTopic", 0, 0)).code;
        };
        QCOMPARE(pull("PlainGroup"), ResponseCode::kSubscriptionGroupNotExist);
        QVERIFY(pull("CID_RMQ_SYS_Probe") != ResponseCode::kSubscriptionGroupNotExist);
        QVERIFY(broker.controller().subscriptionGroups().findSubscriptionGroupConfig("CID_RMQ_SYS_Probe"));
        RemotingCommand update = test::request(RequestCode::kUpdateBrokerConfig);
        test::setBodyText(update, "enableCreateSysGroup=false\n");
        QCOMPARE(broker.call(update).code, ResponseCode::kSuccess);
        QCOMPARE(pull("CID_RMQ_SYS_Other"), ResponseCode::kSubscriptionGroupNotExist);
    }

    void groupsWithIllegalNamesAreNeverCreatedOnUse()
    {
        // Java's findSubscriptionGroupConfig validates a group before creating it. The requests
        // refuse such names where they enter (a pull's header); this is the wall behind them,
        // before subscriptionGroup.json.
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        for (const std::string &group : {std::string("a/b"), std::string("../up"), std::string("nul\0byte", 8), std::string(256, 'g'),
                                        std::string("CID_RMQ_SYS_x y")}) {
            QVERIFY(!server::findOrCreateSubscriptionGroup(broker.controller(), group));
            QVERIFY(!broker.controller().subscriptionGroups().findSubscriptionGroupConfig(group));
        }
        QVERIFY(server::findOrCreateSubscriptionGroup(broker.controller(), "Legal_Group-1"));
        QVERIFY(broker.call(test::pullRequest("a/b", "SomeTopic", 0, 0)).code != ResponseCode::kSuccess);
        QVERIFY(!broker.controller().subscriptionGroups().findSubscriptionGroupConfig("a/b"));
    }

    void heartbeatRegistersGroupAndRetryTopic()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(heartbeat("10.0.0.1@1", "CG_H", "TopicH")).code, ResponseCode::kSuccess);
        QVERIFY(broker.controller().topics().find("%RETRY%CG_H").has_value());
        RemotingCommand route = broker.callAt(broker.namesrvAddress(), RemotingCommand::createRequest(
                                                                          RequestCode::kGetRouteinfoByTopic,
                                                                          {{"topic", "%RETRY%CG_H"}}));
        QCOMPARE(route.code, ResponseCode::kSuccess);

        RemotingCommand list = broker.call(
            RemotingCommand::createRequest(RequestCode::kGetConsumerListByGroup, {{"consumerGroup", "CG_H"}}));
        QCOMPARE(list.code, ResponseCode::kSuccess);
        QCOMPARE(test::bodyOf(list), std::string("{\"consumerIdList\":[\"10.0.0.1@1\"]}"));
        list = broker.call(
            RemotingCommand::createRequest(RequestCode::kGetConsumerListByGroup, {{"consumerGroup", "Nobody"}}));
        QCOMPARE(list.code, ResponseCode::kSystemError);

        // A pull without the subscription flag uses the heartbeat's subscription.
        QCOMPARE(broker.call(sendV2("TopicH", 0, "m")).code, ResponseCode::kSuccess);
        broker.controller().store().waitForDispatch();
        QCOMPARE(broker.call(pull("CG_H", "TopicH", 0, 0, 0, "")).code, ResponseCode::kSuccess);
        QCOMPARE(broker.call(pull("CG_Unknown", "TopicH", 0, 0, 0, "")).code, ResponseCode::kSubscriptionNotExist);

        QCOMPARE(broker.call(RemotingCommand::createRequest(RequestCode::kUnregisterClient,
                                                            {{"clientID", "10.0.0.1@1"}, {"consumerGroup", "CG_H"}}))
                     .code,
                 ResponseCode::kSuccess);
        QCOMPARE(broker.call(RemotingCommand::createRequest(RequestCode::kGetConsumerListByGroup,
                                                            {{"consumerGroup", "CG_H"}}))
                     .code,
                 ResponseCode::kSystemError);
    }

    void offsetsCommitQueryAndSurviveRestart()
    {
        QTemporaryDir dir;
        const QString storeDir = dir.path() + QStringLiteral("/store");
        auto commit = [](int32_t queueId, int64_t offset) {
            return RemotingCommand::createRequest(RequestCode::kUpdateConsumerOffset,
                                                  {{"consumerGroup", "CG_O"}, {"topic", "TopicO"},
                                                   {"queueId", std::to_string(queueId)},
                                                   {"commitOffset", std::to_string(offset)}});
        };
        auto query = [](int32_t queueId) {
            return RemotingCommand::createRequest(RequestCode::kQueryConsumerOffset,
                                                  {{"consumerGroup", "CG_O"}, {"topic", "TopicO"},
                                                   {"queueId", std::to_string(queueId)}});
        };
        {
            TestBroker broker({}, storeDir);
            std::string error;
            QVERIFY2(broker.start(error), error.c_str());
            for (int i = 0; i < 3; ++i)
                QCOMPARE(broker.call(sendV2("TopicO", 0, "m")).code, ResponseCode::kSuccess);
            broker.controller().store().waitForDispatch();
            // A new group on a young queue starts at 0.
            RemotingCommand response = broker.call(query(0));
            QCOMPARE(response.code, ResponseCode::kSuccess);
            QCOMPARE(response.extFields.value("offset"), std::string("0"));
            QCOMPARE(broker.call(commit(0, 2)).code, ResponseCode::kSuccess);
            // ali-ons commits -1 for untouched queues: it must not erase a real offset.
            QCOMPARE(broker.call(commit(0, -1)).code, ResponseCode::kSuccess);
            QCOMPARE(broker.call(query(0)).extFields.value("offset"), std::string("2"));

            RemotingCommand max = broker.call(RemotingCommand::createRequest(
                RequestCode::kGetMaxOffset, {{"topic", "TopicO"}, {"queueId", "0"}}));
            QCOMPARE(max.extFields.value("offset"), std::string("3"));
            RemotingCommand earliest = broker.call(RemotingCommand::createRequest(
                RequestCode::kGetEarliestMsgStoretime, {{"topic", "TopicO"}, {"queueId", "0"}}));
            QVERIFY(std::stoll(earliest.extFields.value("timestamp")) > 0);
            RemotingCommand byTime = broker.call(RemotingCommand::createRequest(
                RequestCode::kSearchOffsetByTimestamp, {{"topic", "TopicO"}, {"queueId", "0"}, {"timestamp", "0"}}));
            QCOMPARE(byTime.extFields.value("offset"), std::string("0"));
        }
        QVERIFY(!std::filesystem::exists(storeDir.toStdString() + "/abort")); // a clean stop
        TestBroker restarted({}, storeDir);
        std::string error;
        QVERIFY2(restarted.start(error), error.c_str());
        QCOMPARE(restarted.call(query(0)).extFields.value("offset"), std::string("2"));
    }

    void portInUseIsReported()
    {
        TestBroker first;
        std::string error;
        QVERIFY2(first.start(error), error.c_str());
        const std::string port = first.brokerAddress().substr(first.brokerAddress().rfind(':') + 1);
        TestBroker second([&](server::BrokerSettings &settings) { settings.store.listenPort = std::stoi(port); });
        QVERIFY(!second.start(error));
        QVERIFY2(error.find(port) != std::string::npos, error.c_str());
    }

    // RocketMQ 5.5 lite topics on the remoting path: a single message's __LITE_TOPIC is entered in
    // the LMQ %LMQ%$<topic>$<lite> (enableLmq, enableMultiDispatch, on by default), which a pull
    // reads as a one-queue topic; switched off the LMQ is no topic.
    void liteTopicMessagesArePulledFromTheirLmq()
    {
        TestBroker broker([](server::BrokerSettings &settings) {
            settings.store.enableLmq = true;
            settings.store.enableMultiDispatch = true;
        });
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        for (const char *lite : {"user-1", "user-2", "user-1"}) {
            const RemotingCommand sent = broker.call(
                sendV2("Parent", 0, std::string("for ") + lite, std::string("__LITE_TOPIC\001") + lite + "\002"));
            QCOMPARE(sent.code, ResponseCode::kSuccess);
        }
        broker.controller().store().waitForDispatch();
        const RemotingCommand found = broker.call(pull("LiteGroup", "%LMQ%$Parent$user-1", 0, 0));
        QCOMPARE(found.code, ResponseCode::kSuccess);
        const auto messages = decodeRecords(found.body);
        QCOMPARE(messages.size(), size_t{2});
        for (const common::StoredMessage &message : messages) {
            QCOMPARE(message.topic, std::string("Parent"));
            QCOMPARE(message.bodyText(), std::string("for user-1"));
            QCOMPARE(message.properties.get("INNER_MULTI_DISPATCH"), std::optional<std::string_view>("%LMQ%$Parent$user-1"));
        }
        QCOMPARE(broker.call(pull("LiteGroup", "%LMQ%$Parent$user-2", 0, 0)).code, ResponseCode::kSuccess);

        // A new lite topic beyond maxLmqConsumeQueueNum: 2017 with Java's remark; existing ones still take sends.
        QVERIFY2(broker.controller().updateConfig({{"maxLmqConsumeQueueNum", "2"}}).empty(), "update refused");
        const RemotingCommand overQuota = broker.call(sendV2("Parent", 0, "for user-3", "__LITE_TOPIC\001user-3\002"));
        QCOMPARE(overQuota.code, ResponseCode::kLmqQuotaExceeded);
        QCOMPARE(overQuota.remark.value_or(""),
                 std::string("[LMQ_CONSUME_QUEUE_NUM_EXCEEDED]lmq consume queue num exceeded."));
        QCOMPARE(broker.call(sendV2("Parent", 0, "again", "__LITE_TOPIC\001user-2\002")).code, ResponseCode::kSuccess);
        // A lite topic that cannot name a queue is refused, naming why (Java stores the message
        // and leaves it out of every LMQ).
        for (const char *bad : {"a$b", "../../escape", "x/y"}) {
            const RemotingCommand refused =
                broker.call(sendV2("Parent", 0, "bad", std::string("__LITE_TOPIC\001") + bad + "\002"));
            QCOMPARE(refused.code, ResponseCode::kMessageIllegal);
            QVERIFY2(refused.remark.value_or("").find(bad) != std::string::npos, refused.remark.value_or("").c_str());
        }

        TestBroker plain([](server::BrokerSettings &settings) {
            settings.store.enableLmq = false;
            settings.store.enableMultiDispatch = false;
        });
        QVERIFY2(plain.start(error), error.c_str());
        QCOMPARE(plain.call(pull("LiteGroup", "%LMQ%$Parent$user-1", 0, 0)).code, ResponseCode::kTopicNotExist);
    }
};

QObject *createSendPullTest() { return new SendPullTest; }

#include "tst_send_pull.moc"
