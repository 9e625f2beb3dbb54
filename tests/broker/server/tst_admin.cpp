// The admin requests (remoting spec §8) and MQDesk's GET_FLUSH_SAMPLES over a real socket, sent
// as raw RemotingCommands the way mqadmin and the dashboard send them: bodies, error codes and
// remarks, the object-keyed map bodies, and the deliberate differences (offline reset writes).

#include "admin_test_util.h"

#include "broker/common/clock.h"
#include "broker/remoting/net/processor_executor.h"
#include "broker/server/broker_controller.h"
#include "broker/server/topic_manager.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/delay_offset_manager.h"
#include "broker/store/message_store.h"
#include "test_support.h"

#include <QElapsedTimer>

#include <algorithm>
#include <mutex>

using namespace mqdesk;
using namespace mqdesk::test;
using common::JsonValue;
using remoting::ResponseCode;

class AdminTest : public QObject
{
    Q_OBJECT

private slots:
    void topicsAreCreatedListedAndDeleted()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(createTopic("AdminTopic", 4)).code, ResponseCode::kSuccess);

        RemotingCommand all = broker.call(request(RequestCode::kGetAllTopicConfig));
        QCOMPARE(all.code, ResponseCode::kSuccess);
        JsonValue table = parsed(test::bodyOf(all));
        QCOMPARE(at(table, {"topicConfigTable", "AdminTopic", "writeQueueNums"}).asInteger(), int64_t{4});
        QCOMPARE(at(table, {"topicConfigTable", "AdminTopic", "topicFilterType"}).asString(), std::string("SINGLE_TAG"));
        QVERIFY(at(table, {"topicConfigTable", "TBW102"}).isObject());
        const int64_t counter = at(table, {"dataVersion", "counter"}).asInteger();

        // Overwrite (no TOPIC_EXIST_ALREADY), and the NameServer learns it at once.
        QCOMPARE(broker.call(createTopic("AdminTopic", 8)).code, ResponseCode::kSuccess);
        table = parsed(test::bodyOf(broker.call(request(RequestCode::kGetAllTopicConfig))));
        QCOMPARE(at(table, {"topicConfigTable", "AdminTopic", "readQueueNums"}).asInteger(), int64_t{8});
        QVERIFY(at(table, {"dataVersion", "counter"}).asInteger() > counter);
        RemotingCommand route = broker.callAt(broker.namesrvAddress(),
                                              request(RequestCode::kGetRouteinfoByTopic, {{"topic", "AdminTopic"}}));
        QCOMPARE(route.code, ResponseCode::kSuccess);
        QVERIFY2(test::bodyOf(route).find("\"writeQueueNums\":8") != std::string::npos, test::bodyOf(route).c_str());

        // Bad names, system topics, missing and bad fields.
        RemotingCommand bad = broker.call(createTopic("bad topic", 4));
        QCOMPARE(bad.code, ResponseCode::kSystemError);
        QVERIFY(bad.remark->find("illegal characters") != std::string::npos);
        bad = broker.call(createTopic("SCHEDULE_TOPIC_XXXX", 4));
        QCOMPARE(bad.code, ResponseCode::kSystemError);
        QCOMPARE(*bad.remark, std::string("The topic[SCHEDULE_TOPIC_XXXX] is conflict with system topic."));
        bad = broker.call(createTopic("TBW102", 4));
        QCOMPARE(*bad.remark, std::string("The topic[TBW102] is conflict with system topic."));
        bad = broker.call(createTopic("DefaultCluster", 4));
        QCOMPARE(bad.code, ResponseCode::kSystemError);
        QVERIFY(bad.remark->find("system reserved words") != std::string::npos);
        RemotingCommand missing = createTopic("Other", 4);
        missing.extFields.remove("writeQueueNums");
        bad = broker.call(missing);
        QCOMPARE(bad.code, ResponseCode::kSystemError);
        QVERIFY2(bad.remark->find("writeQueueNums") != std::string::npos, bad.remark->c_str());
        bad = broker.call(createTopic("Other", 4, {{"topicFilterType", "NO_SUCH"}}));
        QCOMPARE(bad.code, ResponseCode::kSystemError);
        bad = broker.call(createTopic("Other", -1));
        QCOMPARE(bad.code, ResponseCode::kSystemError);

        // Delete: the config and the groups' offsets on it go, and (clearRetryTopicWhenDeleteTopic,
        // Java's default) the POP retry topic of a group that consumed it; the group's own retry
        // topic, shared by all it consumes, stays. System topics are refused.
        QCOMPARE(broker.call(commitOffset("CG", "AdminTopic", 0, 3)).code, ResponseCode::kSuccess);
        QCOMPARE(broker.call(commitOffset("CG", "Kept", 0, 1)).code, ResponseCode::kSuccess);
        QCOMPARE(broker.call(createTopic("%RETRY%CG_AdminTopic", 1)).code, ResponseCode::kSuccess);
        QCOMPARE(broker.call(createTopic("%RETRY%CG", 1)).code, ResponseCode::kSuccess);
        QCOMPARE(broker.call(request(RequestCode::kDeleteTopicInBroker, {{"topic", "AdminTopic"}})).code,
                 ResponseCode::kSuccess);
        table = parsed(test::bodyOf(broker.call(request(RequestCode::kGetAllTopicConfig))));
        QVERIFY(at(table, {"topicConfigTable", "AdminTopic"}).isNull());
        QVERIFY(at(table, {"topicConfigTable", "%RETRY%CG_AdminTopic"}).isNull());
        QVERIFY(at(table, {"topicConfigTable", "%RETRY%CG"}).isObject());
        const JsonValue offsets = parsed(test::bodyOf(broker.call(request(RequestCode::kGetAllConsumerOffset))));
        QVERIFY(at(offsets, {"offsetTable", "AdminTopic@CG"}).isNull());
        QVERIFY(at(offsets, {"offsetTable", "Kept@CG"}).isObject());
        // Deleting an absent topic succeeds (mqadmin sends it to every master).
        QCOMPARE(broker.call(request(RequestCode::kDeleteTopicInBroker, {{"topic", "AdminTopic"}})).code,
                 ResponseCode::kSuccess);
        bad = broker.call(request(RequestCode::kDeleteTopicInBroker, {{"topic", "SCHEDULE_TOPIC_XXXX"}}));
        QCOMPARE(bad.code, ResponseCode::kSystemError);
        QCOMPARE(*bad.remark, std::string("The topic[SCHEDULE_TOPIC_XXXX] is conflict with system topic."));
        QCOMPARE(broker.call(request(RequestCode::kDeleteTopicInBroker)).code, ResponseCode::kSystemError);

        // The system topic list.
        RemotingCommand system = broker.call(request(RequestCode::kGetSystemTopicListFromBroker));
        QCOMPARE(system.code, ResponseCode::kSuccess);
        const std::string systemBody = test::bodyOf(system);
        for (const char *name :
             {"SCHEDULE_TOPIC_XXXX", "TBW102", "DefaultCluster", "broker-a", "OFFSET_MOVED_EVENT", "BenchmarkTest"})
            QVERIFY2(systemBody.find(std::string("\"") + name + "\"") != std::string::npos, systemBody.c_str());
        QVERIFY(systemBody.find("Kept") == std::string::npos);
        // RocketMQ's benchmark Producer and Consumer find their topic, with Java's 1024 queues.
        const JsonValue benchmark =
            parsed(test::bodyOf(broker.call(request(RequestCode::kGetTopicConfig, {{"topic", "BenchmarkTest"}}))));
        QCOMPARE(at(benchmark, {"readQueueNums"}).asInteger(), int64_t{1024});
        QCOMPARE(at(benchmark, {"writeQueueNums"}).asInteger(), int64_t{1024});
    }

    // GET_TOPIC_CONFIG (351): the 5.x mqadmin's topicStatus and consumerProgress ask for it first.
    void topicConfigOfOneTopic()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(createTopic("OneTopic", 3)).code, ResponseCode::kSuccess);

        // Java's TopicConfigAndQueueMapping with no mappingDetail: the TopicConfig fields.
        RemotingCommand answer = broker.call(request(RequestCode::kGetTopicConfig, {{"topic", "OneTopic"}, {"lo", "true"}}));
        QCOMPARE(answer.code, ResponseCode::kSuccess);
        const JsonValue config = parsed(test::bodyOf(answer));
        QCOMPARE(at(config, {"topicName"}).asString(), std::string("OneTopic"));
        QCOMPARE(at(config, {"readQueueNums"}).asInteger(), int64_t{3});
        QCOMPARE(at(config, {"writeQueueNums"}).asInteger(), int64_t{3});
        QCOMPARE(at(config, {"perm"}).asInteger(), int64_t{6});
        QCOMPARE(at(config, {"topicFilterType"}).asString(), std::string("SINGLE_TAG"));
        QVERIFY(at(config, {"attributes"}).isObject());
        QVERIFY(at(config, {"mappingDetail"}).isNull());
        // A system topic is answered too (the tools look up %RETRY% topics).
        QCOMPARE(broker.call(request(RequestCode::kGetTopicConfig, {{"topic", "TBW102"}})).code, ResponseCode::kSuccess);

        // An absent topic: TOPIC_NOT_EXIST with Java's remark; bad and missing names: SYSTEM_ERROR naming the field.
        RemotingCommand bad = broker.call(request(RequestCode::kGetTopicConfig, {{"topic", "NoSuchTopic"}}));
        QCOMPARE(bad.code, ResponseCode::kTopicNotExist);
        QCOMPARE(*bad.remark, std::string("No topic in this broker. topic: NoSuchTopic"));
        bad = broker.call(request(RequestCode::kGetTopicConfig, {{"topic", "../escape"}}));
        QCOMPARE(bad.code, ResponseCode::kSystemError);
        QVERIFY2(bad.remark->find("topic") != std::string::npos, bad.remark->c_str());
        bad = broker.call(request(RequestCode::kGetTopicConfig));
        QCOMPARE(bad.code, ResponseCode::kSystemError);
        QVERIFY2(bad.remark->find("topic") != std::string::npos, bad.remark->c_str());
    }

    void topicStatsHaveTheObjectKeyedShape()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        for (int i = 0; i < 3; ++i)
            QCOMPARE(broker.call(sendV2("StatsTopic", 1, "m" + std::to_string(i))).code, ResponseCode::kSuccess);

        RemotingCommand stats;
        // The queue's max offset follows the dispatcher.
        QTRY_VERIFY_WITH_TIMEOUT(
            (stats = broker.call(request(RequestCode::kGetTopicStatsInfo, {{"topic", "StatsTopic"}})),
             test::bodyOf(stats).find("\"maxOffset\":3") != std::string::npos), test::kPatienceMs);
        QCOMPARE(stats.code, ResponseCode::kSuccess);
        const std::string body = test::bodyOf(stats);
        QVERIFY2(body.starts_with("{\"offsetTable\":{{\"brokerName\":\"broker-a\",\"queueId\":0,\"topic\":\"StatsTopic\"}:"
                                  "{\"lastUpdateTimestamp\":0,\"maxOffset\":0,\"minOffset\":0},"),
                 body.c_str());
        const JsonValue table = parsedQueueKeyed(body);
        QCOMPARE(at(table, {"offsetTable"}).asObject().size(), size_t{4});
        QCOMPARE(at(table, {"offsetTable", "StatsTopic/1", "maxOffset"}).asInteger(), int64_t{3});
        QCOMPARE(at(table, {"offsetTable", "StatsTopic/1", "minOffset"}).asInteger(), int64_t{0});
        QVERIFY(at(table, {"offsetTable", "StatsTopic/1", "lastUpdateTimestamp"}).asInteger() > 0);

        RemotingCommand bad = broker.call(request(RequestCode::kGetTopicStatsInfo, {{"topic", "NoSuchTopic"}}));
        QCOMPARE(bad.code, ResponseCode::kTopicNotExist);
        QCOMPARE(broker.call(request(RequestCode::kGetTopicStatsInfo)).code, ResponseCode::kSystemError);
    }

    void consumeStatsAndOffsetTables()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        for (int i = 0; i < 5; ++i)
            QCOMPARE(broker.call(sendV2("CsTopic", 0, "m")).code, ResponseCode::kSuccess);
        QCOMPARE(broker.call(commitOffset("CsGroup", "CsTopic", 0, 2)).code, ResponseCode::kSuccess);

        const auto consumeStats = [&](const std::string &topic) {
            ExtFields fields{{"consumerGroup", "CsGroup"}};
            if (!topic.empty())
                fields.set("topic", topic);
            return broker.call(request(RequestCode::kGetConsumeStats, std::move(fields)));
        };
        RemotingCommand stats;
        QTRY_VERIFY_WITH_TIMEOUT((stats = consumeStats("CsTopic"),
                                  test::bodyOf(stats).find("\"brokerOffset\":5") != std::string::npos), test::kPatienceMs);
        QCOMPARE(stats.code, ResponseCode::kSuccess);
        QVERIFY2(test::bodyOf(stats).starts_with("{\"consumeTps\":0.0,\"offsetTable\":{{\"brokerName\":\"broker-a\","
                                                 "\"queueId\":0,\"topic\":\"CsTopic\"}:{\"brokerOffset\":5,"
                                                 "\"consumerOffset\":2,\"lastTimestamp\":"),
                 test::bodyOf(stats).c_str());
        JsonValue table = parsedQueueKeyed(test::bodyOf(stats));
        QVERIFY(at(table, {"offsetTable", "CsTopic/0", "lastTimestamp"}).asInteger() > 0);
        QCOMPARE(at(table, {"offsetTable", "CsTopic/1", "consumerOffset"}).asInteger(), int64_t{0});
        QCOMPARE(at(table, {"offsetTable", "CsTopic/1", "lastTimestamp"}).asInteger(), int64_t{0});
        // pullOffset (5.x; mqadmin's in-flight = pullOffset - consumerOffset): never behind the
        // committed offset, then where the group's last pull ended (a reset: at the end).
        QCOMPARE(at(table, {"offsetTable", "CsTopic/0", "pullOffset"}).asInteger(), int64_t{2});
        QCOMPARE(broker.call(pullRequest("CsGroup", "CsTopic", 0, 2)).code, ResponseCode::kSuccess);
        table = parsedQueueKeyed(test::bodyOf(consumeStats("CsTopic")));
        QCOMPARE(at(table, {"offsetTable", "CsTopic/0", "pullOffset"}).asInteger(), int64_t{5});
        QCOMPARE(at(table, {"offsetTable", "CsTopic/0", "consumerOffset"}).asInteger(), int64_t{2});
        // Blank topic: every topic the group has offsets for.
        table = parsedQueueKeyed(test::bodyOf(consumeStats("")));
        QCOMPARE(at(table, {"offsetTable"}).asObject().size(), size_t{4});
        QCOMPARE(broker.call(request(RequestCode::kGetConsumeStats)).code, ResponseCode::kSystemError);

        RemotingCommand all = broker.call(request(RequestCode::kGetAllConsumerOffset));
        QCOMPARE(all.code, ResponseCode::kSuccess);
        QVERIFY2(test::bodyOf(all).find("\"CsTopic@CsGroup\":{\"0\":2}") != std::string::npos, test::bodyOf(all).c_str());

        RemotingCommand delay = broker.call(request(RequestCode::kGetAllDelayOffset));
        QCOMPARE(delay.code, ResponseCode::kSuccess);
        QCOMPARE(test::bodyOf(delay), std::string("{\"offsetTable\":{}}"));
        broker.controller().delayOffsets().updateOffset(3, 7);
        delay = broker.call(request(RequestCode::kGetAllDelayOffset));
        QCOMPARE(test::bodyOf(delay), std::string("{\"offsetTable\":{\"3\":7}}"));

        // Who consumes: stored offsets and live subscriptions.
        QCOMPARE(broker.call(heartbeat("client-1", "LiveGroup", "CsTopic")).code, ResponseCode::kSuccess);
        RemotingCommand who = broker.call(request(RequestCode::kQueryTopicConsumeByWho, {{"topic", "CsTopic"}}));
        QCOMPARE(who.code, ResponseCode::kSuccess);
        QCOMPARE(test::bodyOf(who), std::string("{\"groupList\":[\"CsGroup\",\"LiveGroup\"]}"));
        QCOMPARE(broker.call(request(RequestCode::kQueryTopicConsumeByWho)).code, ResponseCode::kSystemError);
        // A group subscribed elsewhere has its stale offsets on CsTopic skipped.
        QCOMPARE(broker.call(heartbeat("client-2", "CsGroup", "OtherTopic")).code, ResponseCode::kSuccess);
        table = parsedQueueKeyed(test::bodyOf(consumeStats("CsTopic")));
        QCOMPARE(at(table, {"offsetTable"}).asObject().size(), size_t{0});

        // An offset reset forgets where the group's pulls ended (Java clearPullOffset).
        for (int32_t queueId = 0; queueId < 4; ++queueId)
            QCOMPARE(broker.call(commitOffset("CsReset", "CsTopic", queueId, 0)).code, ResponseCode::kSuccess);
        QCOMPARE(broker.call(pullRequest("CsReset", "CsTopic", 0, 0)).code, ResponseCode::kSuccess);
        const auto resetStats = [&] {
            return parsedQueueKeyed(test::bodyOf(broker.call(
                request(RequestCode::kGetConsumeStats, {{"consumerGroup", "CsReset"}, {"topic", "CsTopic"}}))));
        };
        QCOMPARE(at(resetStats(), {"offsetTable", "CsTopic/0", "pullOffset"}).asInteger(), int64_t{5});
        QCOMPARE(broker.call(request(RequestCode::kInvokeBrokerToResetOffset,
                                     {{"topic", "CsTopic"}, {"group", "CsReset"}, {"timestamp", "0"}, {"isForce", "true"}}))
                     .code,
                 ResponseCode::kSuccess);
        QCOMPARE(at(resetStats(), {"offsetTable", "CsTopic/0", "pullOffset"}).asInteger(), int64_t{0});
    }

    // GET_BROKER_CONSUME_STATS (317, mqadmin brokerConsumeStats): every subscription group's
    // stats per topic it has offsets for, with the lag and in-flight totals.
    void brokerConsumeStatsOfEveryGroup()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(createTopic("BcTopic", 2)).code, ResponseCode::kSuccess);
        for (int i = 0; i < 5; ++i)
            QCOMPARE(broker.call(sendV2("BcTopic", 0, "m")).code, ResponseCode::kSuccess);
        // Dispatched to the queue (a loaded machine runs the reput thread late) before the pull.
        QTRY_COMPARE_WITH_TIMEOUT(broker.controller().store().maxOffsetInQueue("BcTopic", 0), int64_t{5}, test::kPatienceMs);
        for (const char *group : {"BcGroup", "BcIdle"}) {
            RemotingCommand create = request(RequestCode::kUpdateAndCreateSubscriptiongroup);
            setBodyText(create, std::string("{\"groupName\":\"") + group + "\"}");
            QCOMPARE(broker.call(create).code, ResponseCode::kSuccess);
        }
        QCOMPARE(broker.call(commitOffset("BcGroup", "BcTopic", 0, 2)).code, ResponseCode::kSuccess);
        QCOMPARE(broker.call(commitOffset("BcGroup", "BcTopic", 1, 0)).code, ResponseCode::kSuccess);
        QCOMPARE(broker.call(pullRequest("BcGroup", "BcTopic", 0, 2)).code, ResponseCode::kSuccess); // pulled up to 5

        RemotingCommand answer;
        QTRY_VERIFY_WITH_TIMEOUT((answer = broker.call(request(RequestCode::kGetBrokerConsumeStats, {{"isOrder", "false"}})),
                                  test::bodyOf(answer).find("\"totalDiff\":3,") != std::string::npos), test::kPatienceMs);
        QCOMPARE(answer.code, ResponseCode::kSuccess);
        const std::string body = test::bodyOf(answer);
        QVERIFY2(body.starts_with("{\"brokerAddr\":\"" + broker.controller().brokerAddress() + "\",\"consumeStatsList\":["),
                 body.c_str());
        QVERIFY2(body.ends_with(",\"totalDiff\":3,\"totalInflightDiff\":3}"), body.c_str());
        // BcGroup's one ConsumeStats (BcTopic), in GET_CONSUME_STATS's shape; BcIdle has none.
        // (consumeTps: the 3 messages pulled over the minute's window, > 0; ClientCallsTest checks it)
        QVERIFY2(body.find("{\"BcGroup\":[{\"consumeTps\":") != std::string::npos, body.c_str());
        QVERIFY2(body.find(",\"offsetTable\":{{\"brokerName\":\"broker-a\",\"queueId\":0,"
                           "\"topic\":\"BcTopic\"}:{\"brokerOffset\":5,\"consumerOffset\":2,")
                     != std::string::npos,
                 body.c_str());
        QVERIFY2(body.find("{\"BcIdle\":[]}") != std::string::npos, body.c_str());
        // isOrder: order topics only (BcTopic is not one); without the field, every topic.
        const std::string orderOnly =
            test::bodyOf(broker.call(request(RequestCode::kGetBrokerConsumeStats, {{"isOrder", "true"}})));
        QVERIFY2(orderOnly.find("{\"BcGroup\":[]}") != std::string::npos && orderOnly.ends_with("\"totalDiff\":0,\"totalInflightDiff\":0}"),
                 orderOnly.c_str());
        QVERIFY(test::bodyOf(broker.call(request(RequestCode::kGetBrokerConsumeStats))).ends_with("\"totalDiff\":3,\"totalInflightDiff\":3}"));
    }

    void subscriptionGroupsAreCreatedListedAndDeleted()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        RemotingCommand create = request(RequestCode::kUpdateAndCreateSubscriptiongroup);
        setBodyText(create, "{\"groupName\":\"SubGroup\",\"retryMaxTimes\":3,\"consumeBroadcastEnable\":false}");
        QCOMPARE(broker.call(create).code, ResponseCode::kSuccess);

        RemotingCommand all = broker.call(request(RequestCode::kGetAllSubscriptiongroupConfig));
        QCOMPARE(all.code, ResponseCode::kSuccess);
        JsonValue table = parsed(test::bodyOf(all));
        QCOMPARE(at(table, {"subscriptionGroupTable", "SubGroup", "retryMaxTimes"}).asInteger(), int64_t{3});
        QCOMPARE(at(table, {"subscriptionGroupTable", "SubGroup", "consumeBroadcastEnable"}).asBool(true), false);
        QCOMPARE(at(table, {"subscriptionGroupTable", "SubGroup", "retryQueueNums"}).asInteger(), int64_t{1});
        QVERIFY(at(table, {"dataVersion", "counter"}).isInteger());
        // Every 4.9.8 member, defaults included, sorted (remoting spec §8).
        QVERIFY2(test::bodyOf(all).find(
                     "\"SubGroup\":{\"brokerId\":0,\"consumeBroadcastEnable\":false,\"consumeEnable\":true,"
                     "\"consumeFromMinEnable\":true,\"groupName\":\"SubGroup\",\"notifyConsumerIdsChangedEnable\":true,"
                     "\"retryMaxTimes\":3,\"retryQueueNums\":1,\"whichBrokerWhenConsumeSlowly\":1}")
                     != std::string::npos,
                 test::bodyOf(all).c_str());

        RemotingCommand bad = request(RequestCode::kUpdateAndCreateSubscriptiongroup);
        setBodyText(bad, "{\"groupName\":");
        QCOMPARE(broker.call(bad).code, ResponseCode::kSystemError);
        setBodyText(bad, "{\"retryMaxTimes\":3}");
        QCOMPARE(broker.call(bad).code, ResponseCode::kSystemError);

        QCOMPARE(broker.call(commitOffset("SubGroup", "T", 0, 4)).code, ResponseCode::kSuccess);
        QCOMPARE(broker.call(request(RequestCode::kDeleteSubscriptiongroup,
                                     {{"groupName", "SubGroup"}, {"removeOffset", "true"}}))
                     .code,
                 ResponseCode::kSuccess);
        table = parsed(test::bodyOf(broker.call(request(RequestCode::kGetAllSubscriptiongroupConfig))));
        QVERIFY(at(table, {"subscriptionGroupTable", "SubGroup"}).isNull());
        QVERIFY(test::bodyOf(broker.call(request(RequestCode::kGetAllConsumerOffset))).find("SubGroup") == std::string::npos);
        QCOMPARE(broker.call(request(RequestCode::kDeleteSubscriptiongroup)).code, ResponseCode::kSystemError);
    }

    void connectionsOfConsumersAndProducers()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        RemotingCommand offline = broker.call(request(RequestCode::kGetConsumerConnectionList, {{"consumerGroup", "ConnGroup"}}));
        QCOMPARE(offline.code, ResponseCode::kConsumerNotOnline);
        QCOMPARE(*offline.remark, std::string("the consumer group[ConnGroup] not online"));

        QCOMPARE(broker.call(heartbeat("192.0.2.2@1", "ConnGroup", "ConnTopic", "ConnProducer")).code, ResponseCode::kSuccess);
        RemotingCommand online = broker.call(request(RequestCode::kGetConsumerConnectionList, {{"consumerGroup", "ConnGroup"}}));
        QCOMPARE(online.code, ResponseCode::kSuccess);
        remoting::ConsumerConnection connection;
        QVERIFY2(remoting::ConsumerConnection::fromJson(test::bodyOf(online), connection, error), error.c_str());
        QCOMPARE(connection.connectionSet.size(), size_t{1});
        QCOMPARE(connection.connectionSet[0].clientId, std::string("192.0.2.2@1"));
        QCOMPARE(connection.connectionSet[0].language, std::string("JAVA"));
        QVERIFY(connection.connectionSet[0].clientAddr.starts_with("127.0.0.1:"));
        QCOMPARE(connection.subscriptionTable.size(), size_t{1});
        QCOMPARE(connection.subscriptionTable[0].topic, std::string("ConnTopic"));
        QCOMPARE(connection.messageModel, std::string("CLUSTERING"));
        QCOMPARE(broker.call(request(RequestCode::kGetConsumerConnectionList)).code, ResponseCode::kSystemError);

        RemotingCommand producers = broker.call(request(RequestCode::kGetProducerConnectionList, {{"producerGroup", "ConnProducer"}}));
        QCOMPARE(producers.code, ResponseCode::kSuccess);
        std::vector<remoting::ClientConnection> list;
        QVERIFY2(remoting::decodeProducerConnection(test::bodyOf(producers), list, error), error.c_str());
        QCOMPARE(list.size(), size_t{1});
        QCOMPARE(list[0].clientId, std::string("192.0.2.2@1"));
        RemotingCommand unknown = broker.call(request(RequestCode::kGetProducerConnectionList, {{"producerGroup", "Nobody"}}));
        QCOMPARE(unknown.code, ResponseCode::kSystemError);
        QCOMPARE(*unknown.remark, std::string("the producer group[Nobody] not exist"));
    }

    void runtimeInfoAndBrokerConfig()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        for (int i = 0; i < 4; ++i)
            QCOMPARE(broker.call(sendV2("RtTopic", 0, "runtime")).code, ResponseCode::kSuccess);

        RemotingCommand info = broker.call(request(RequestCode::kGetBrokerRuntimeInfo));
        QCOMPARE(info.code, ResponseCode::kSuccess);
        remoting::KVTable table;
        QVERIFY2(remoting::KVTable::fromJson(test::bodyOf(info), table, error), error.c_str());
        QCOMPARE(table.table["brokerVersionDesc"], std::string("V4_9_8"));
        QCOMPARE(table.table["brokerVersion"], std::string("409"));
        QCOMPARE(table.table["msgPutTotalTodayNow"], std::string("4"));
        QCOMPARE(table.table["putMessageTimesTotal"], std::string("4"));
        QVERIFY(std::regex_match(table.table["putTps"], std::regex(R"([0-9.]+ [0-9.]+ [0-9.]+)")));
        QVERIFY(std::regex_match(table.table["getTotalTps"], std::regex(R"([0-9.]+ [0-9.]+ [0-9.]+)")));
        QVERIFY(std::stoll(table.table["commitLogMaxOffset"]) > 0);
        QCOMPARE(table.table["commitLogMinOffset"], std::string("0"));
        QVERIFY2(std::regex_match(table.table["commitLogDirCapacity"],
                                  std::regex(R"(Total : [0-9.]+ [KMGTPE]?i?B, Free : [0-9.]+ [KMGTPE]?i?B\.)")),
                 table.table["commitLogDirCapacity"].c_str());
        QVERIFY(std::regex_match(table.table["runtime"], std::regex(R"(\[ \d+ days, \d+ hours, \d+ minutes, \d+ seconds \])")));
        QCOMPARE(table.table["bootTimestamp"], std::to_string(broker.controller().bootTimestamp()));
        QVERIFY(std::stoll(table.table["earliestMessageTimeStamp"]) > 0);
        for (const char *key : {"dispatchBehindBytes", "remainHowManyDataToFlush", "msgGetTotalTodayNow",
                                "msgPutTotalTodayMorning", "msgPutTotalYesterdayMorning", "commitLogDiskRatio"})
            QVERIFY2(table.table.contains(key), key);
        QCOMPARE(table.table["flushDiskType"], std::string("ASYNC_FLUSH"));
        QCOMPARE(table.table["transientStorePoolEnable"], std::string("false"));
        QVERIFY(table.table.contains("storeWriteFault"));
        QCOMPARE(table.table["storeWriteFault"], std::string()); // writes healthy
        // The keys mqadmin 5.x clusterList prints besides (Java 5.x writes them too).
        for (const char *key : {"sendThreadPoolQueueSize", "sendThreadPoolQueueHeadWaitTimeMills",
                                "pullThreadPoolQueueSize", "pullThreadPoolQueueHeadWaitTimeMills",
                                "pageCacheLockTimeMills", "timerReadBehind", "timerOffsetBehind", "timerCongestNum"})
            QVERIFY2(std::regex_match(table.table[key], std::regex(R"(\d+)")), key);
        QCOMPARE(table.table["brokerActive"], std::string("true"));
        QCOMPARE(table.table["timerEnqueueTps"], std::string("0.0"));
        QCOMPARE(table.table["timerDequeueTps"], std::string("0.0"));
        QCOMPARE(table.table["getTransferredTps"], table.table["getTransferedTps"]);
        // The puts sent right after the start count in the TPS windows once the next sample
        // is taken (the windows begin at the boot-time counters).
        QTRY_VERIFY_WITH_TIMEOUT(std::stod(runtimeInfoOf(broker)["putTps"].substr(
                                     runtimeInfoOf(broker)["putTps"].find(' ') + 1))
                                     > 0.0, test::kPatienceMs);

        // GET_BROKER_CONFIG: the settings and the topic table's data version.
        RemotingCommand config = broker.call(request(RequestCode::kGetBrokerConfig));
        QCOMPARE(config.code, ResponseCode::kSuccess);
        QVERIFY(test::bodyOf(config).find("flushDiskType=ASYNC_FLUSH\n") != std::string::npos);
        const JsonValue version = parsed(config.extFields.value("version"));
        QVERIFY2(at(version, {"counter"}).isInteger(), config.extFields.value("version").c_str());
        QVERIFY(at(version, {"timestamp"}).asInteger() > 0);
        const int64_t counter = at(version, {"counter"}).asInteger();
        QCOMPARE(broker.call(createTopic("VersionTopic", 2)).code, ResponseCode::kSuccess);
        const JsonValue after = parsed(broker.call(request(RequestCode::kGetBrokerConfig)).extFields.value("version"));
        QVERIFY(at(after, {"counter"}).asInteger() > counter);

        // The live flush switch shows in the runtime info.
        RemotingCommand update = request(RequestCode::kUpdateBrokerConfig);
        setBodyText(update, "flushDiskType=SYNC_FLUSH\n");
        QCOMPARE(broker.call(update).code, ResponseCode::kSuccess);
        QVERIFY(runtimeInfoOf(broker)["flushDiskType"] == "SYNC_FLUSH");
    }

    void queryAndViewMessages()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        const std::string uniq = "0A0000010000000000000000000000AB";
        QCOMPARE(broker.call(sendV2("QmTopic", 0, "first", "KEYS\001order-1 shared\002UNIQ_KEY\001" + uniq + "\002")).code,
                 ResponseCode::kSuccess);
        QCOMPARE(broker.call(sendV2("QmTopic", 1, "second", "KEYS\001shared\002")).code, ResponseCode::kSuccess);
        QCOMPARE(broker.call(sendV2("OtherTopic", 0, "third", "KEYS\001shared\002")).code, ResponseCode::kSuccess);

        const int64_t now = common::wallMillis();
        const auto query = [&](const std::string &key, int64_t begin, int64_t end, bool unique = false) {
            ExtFields fields{{"topic", "QmTopic"}, {"key", key}, {"maxNum", "32"},
                             {"beginTimestamp", std::to_string(begin)}, {"endTimestamp", std::to_string(end)}};
            if (unique)
                fields.set("_UNIQUE_KEY_QUERY", "true");
            return broker.call(request(RequestCode::kQueryMessage, std::move(fields)));
        };
        RemotingCommand found;
        QTRY_VERIFY_WITH_TIMEOUT((found = query("shared", 0, now + 3600000), decodeRecords(found.body).size() == 2), test::kPatienceMs);
        QCOMPARE(found.code, ResponseCode::kSuccess);
        QVERIFY(found.extFields.contains("indexLastUpdateTimestamp"));
        QVERIFY(found.extFields.contains("indexLastUpdatePhyoffset"));
        std::vector<common::StoredMessage> records = decodeRecords(found.body);
        QCOMPARE(records[0].topic, std::string("QmTopic"));
        QVERIFY(records[0].bodyText() == "first" || records[1].bodyText() == "first");

        found = query(uniq, 0, now + 3600000, true);
        QCOMPARE(found.code, ResponseCode::kSuccess);
        records = decodeRecords(found.body);
        QCOMPARE(records.size(), size_t{1});
        QCOMPARE(records[0].bodyText(), std::string("first"));

        // maxMsgsNumBatch caps every query whatever its maxNum, defaultQueryMaxNum is a lookup
        // by message id's maxNum; both live, as in Java.
        QCOMPARE(decodeRecords(query("shared", 0, now + 3600000, true).body).size(), size_t{2});
        RemotingCommand limits = request(RequestCode::kUpdateBrokerConfig);
        setBodyText(limits, "maxMsgsNumBatch=1\n");
        QCOMPARE(broker.call(limits).code, ResponseCode::kSuccess);
        QCOMPARE(decodeRecords(query("shared", 0, now + 3600000).body).size(), size_t{1});
        setBodyText(limits, "maxMsgsNumBatch=64\ndefaultQueryMaxNum=1\n");
        QCOMPARE(broker.call(limits).code, ResponseCode::kSuccess);
        QCOMPARE(decodeRecords(query("shared", 0, now + 3600000).body).size(), size_t{2});
        QCOMPARE(decodeRecords(query("shared", 0, now + 3600000, true).body).size(), size_t{1});

        RemotingCommand none = query("shared", 0, 1000);
        QCOMPARE(none.code, ResponseCode::kQueryNotFound);
        QCOMPARE(*none.remark, std::string("can not find message, maybe time range not correct"));
        QCOMPARE(query("no-such-key", 0, now + 3600000).code, ResponseCode::kQueryNotFound);
        RemotingCommand missing = request(RequestCode::kQueryMessage, {{"topic", "QmTopic"}, {"key", "shared"}});
        QCOMPARE(broker.call(missing).code, ResponseCode::kSystemError);

        // VIEW_MESSAGE_BY_ID: the record at a commit-log offset, byte for byte.
        const int64_t offset = records[0].physicalOffset;
        RemotingCommand view = broker.call(request(RequestCode::kViewMessageById, {{"offset", std::to_string(offset)}}));
        QCOMPARE(view.code, ResponseCode::kSuccess);
        QCOMPARE(view.body.size(), static_cast<size_t>(records[0].totalSize));
        records = decodeRecords(view.body);
        QCOMPARE(records.size(), size_t{1});
        QCOMPARE(records[0].bodyText(), std::string("first"));
        RemotingCommand gone = broker.call(request(RequestCode::kViewMessageById, {{"offset", "999999999"}}));
        QCOMPARE(gone.code, ResponseCode::kSystemError);
        QCOMPARE(*gone.remark, std::string("can not find message by the offset, 999999999"));
        QCOMPARE(broker.call(request(RequestCode::kViewMessageById, {{"offset", "1"}})).code, ResponseCode::kSystemError);
        QCOMPARE(broker.call(request(RequestCode::kViewMessageById)).code, ResponseCode::kSystemError);
    }

    // The 4.x way (useServerSideResetOffset=false); the broker-side reset is ClientCallsTest's.
    void resetOffsetOfAnOfflineGroupWritesTheOffsets()
    {
        TestBroker broker([](server::BrokerSettings &settings) { settings.broker.useServerSideResetOffset = false; });
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(createTopic("ResetTopic", 2)).code, ResponseCode::kSuccess);
        for (int queue = 0; queue < 2; ++queue) {
            for (int i = 0; i < 3; ++i)
                QCOMPARE(broker.call(sendV2("ResetTopic", queue, "r")).code, ResponseCode::kSuccess);
            QCOMPARE(broker.call(commitOffset("ResetGroup", "ResetTopic", queue, 1)).code, ResponseCode::kSuccess);
        }
        QTRY_COMPARE_WITH_TIMEOUT(broker.controller().store().maxOffsetInQueue("ResetTopic", 1), int64_t{3}, test::kPatienceMs);
        const auto reset = [&](const std::string &group, const std::string &timestamp, bool force) {
            return broker.call(request(RequestCode::kInvokeBrokerToResetOffset,
                                       {{"topic", "ResetTopic"}, {"group", group}, {"timestamp", timestamp},
                                        {"isForce", force ? "true" : "false"}}));
        };
        RemotingCommand latest = reset("ResetGroup", "-1", true);
        QCOMPARE(latest.code, ResponseCode::kSuccess);
        QCOMPARE(test::bodyOf(latest),
                 std::string("{\"offsetTable\":{{\"brokerName\":\"broker-a\",\"queueId\":0,\"topic\":\"ResetTopic\"}:3,"
                             "{\"brokerName\":\"broker-a\",\"queueId\":1,\"topic\":\"ResetTopic\"}:3}}"));
        QCOMPARE(broker.controller().offsets().queryOffset("ResetGroup", "ResetTopic", 0), int64_t{3});

        // Back to the start (timestamp 0 is before every message).
        QCOMPARE(reset("ResetGroup", "0", false).code, ResponseCode::kSuccess);
        QCOMPARE(broker.controller().offsets().queryOffset("ResetGroup", "ResetTopic", 1), int64_t{0});
        // Not forced: a target beyond the committed offset keeps the committed one.
        RemotingCommand kept = reset("ResetGroup", "-1", false);
        QVERIFY2(test::bodyOf(kept).find("\"topic\":\"ResetTopic\"}:0") != std::string::npos, test::bodyOf(kept).c_str());
        QCOMPARE(broker.controller().offsets().queryOffset("ResetGroup", "ResetTopic", 1), int64_t{0});

        RemotingCommand bad = reset("NoOffsets", "-1", true);
        QCOMPARE(bad.code, ResponseCode::kSystemError);
        QCOMPARE(*bad.remark, std::string("THe consumer group <NoOffsets> not exist"));
        bad = broker.call(request(RequestCode::kInvokeBrokerToResetOffset,
                                  {{"topic", "Absent"}, {"group", "ResetGroup"}, {"timestamp", "-1"}, {"isForce", "true"}}));
        QCOMPARE(bad.code, ResponseCode::kSystemError);
        QCOMPARE(broker.call(request(RequestCode::kInvokeBrokerToResetOffset, {{"topic", "ResetTopic"}})).code,
                 ResponseCode::kSystemError);

        // CLONE_GROUP_OFFSET copies the offsets to another group.
        QCOMPARE(broker.call(request(RequestCode::kCloneGroupOffset, {{"srcGroup", "ResetGroup"}, {"destGroup", "Copy"},
                                                                      {"topic", "ResetTopic"}, {"offline", "true"}}))
                     .code,
                 ResponseCode::kSuccess);
        QCOMPARE(broker.controller().offsets().queryOffset("Copy", "ResetTopic", 0), int64_t{0});
        QCOMPARE(broker.call(request(RequestCode::kCloneGroupOffset, {{"srcGroup", "ResetGroup"}, {"destGroup", "All"}})).code,
                 ResponseCode::kSuccess);
        QCOMPARE(broker.controller().offsets().queryOffset("All", "ResetTopic", 1), int64_t{0});
        QCOMPARE(broker.call(request(RequestCode::kCloneGroupOffset, {{"destGroup", "X"}})).code, ResponseCode::kSystemError);
    }

    void resetOffsetOfAnOnlineGroupIsPushedToItsConsumers()
    {
        remoting::ProcessorExecutor executor("consumer");
        std::mutex mutex;
        std::vector<RemotingCommand> pushed;
        remoting::RemotingClient consumer;
        consumer.registerProcessor(
            RequestCode::kResetConsumerClientOffset,
            [&](const remoting::RequestContext &, RemotingCommand push, remoting::Responder) {
                std::lock_guard lock(mutex);
                pushed.push_back(std::move(push));
            },
            executor);
        TestBroker broker([](server::BrokerSettings &settings) { settings.broker.useServerSideResetOffset = false; });
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(createTopic("PushTopic", 1)).code, ResponseCode::kSuccess);
        QCOMPARE(broker.call(sendV2("PushTopic", 0, "p")).code, ResponseCode::kSuccess);
        QCOMPARE(broker.call(commitOffset("PushGroup", "PushTopic", 0, 0)).code, ResponseCode::kSuccess);
        QVERIFY(consumer.invokeSync(broker.brokerAddress(), heartbeat("c-1", "PushGroup", "PushTopic"),
                                    std::chrono::milliseconds(5000)).ok());
        QTRY_COMPARE_WITH_TIMEOUT(broker.controller().store().maxOffsetInQueue("PushTopic", 0), int64_t{1}, test::kPatienceMs);

        RemotingCommand reset = broker.call(request(RequestCode::kInvokeBrokerToResetOffset,
                                                    {{"topic", "PushTopic"}, {"group", "PushGroup"},
                                                     {"timestamp", "-1"}, {"isForce", "true"}}));
        QCOMPARE(reset.code, ResponseCode::kSuccess);
        const auto pushedCount = [&] {
            std::lock_guard lock(mutex);
            return pushed.size();
        };
        QTRY_VERIFY_WITH_TIMEOUT(pushedCount() > 0, test::kPatienceMs);
        std::lock_guard lock(mutex);
        QCOMPARE(pushed[0].extFields.value("group"), std::string("PushGroup"));
        QCOMPARE(pushed[0].extFields.value("isForce"), std::string("true"));
        QCOMPARE(test::bodyOf(pushed[0]), test::bodyOf(reset));
        // The consumers apply and commit it; the broker leaves its table alone (as Java).
        QCOMPARE(broker.controller().offsets().queryOffset("PushGroup", "PushTopic", 0), int64_t{0});
    }

    void flushSamplesArriveEverySecondAndFollowTheFlushMode()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        const auto samples = [&](const std::string &since) {
            RemotingCommand response = broker.call(request(RequestCode::kGetFlushSamples, {{"sinceSequence", since}}));
            return response.code == ResponseCode::kSuccess ? parsed(test::bodyOf(response)) : JsonValue();
        };
        JsonValue first;
        QTRY_VERIFY_WITH_TIMEOUT((first = samples("0"), at(first, {"samples"}).asArray().size() >= 2), test::kPatienceMs);
        QCOMPARE(at(first, {"flushDiskType"}).asString(), std::string("ASYNC_FLUSH"));
        QCOMPARE(at(first, {"transientStorePoolEnable"}).asBool(true), false);
        QCOMPARE(at(first, {"capacity"}).asInteger(), int64_t{1024});
        const common::JsonArray &list = at(first, {"samples"}).asArray();
        for (const char *key : {"sequence", "timestamp", "epochSecond", "puts", "putTps", "putBytes", "flushes",
                                "bytesFlushed", "flushTimeouts", "flushP50Micros", "flushP99Micros", "flushMaxMicros",
                                "putToAckP50Micros", "putToAckP99Micros", "putToAckMaxMicros", "dataAtRiskBytes",
                                "flushDiskType", "transientStorePoolEnable"})
            QVERIFY2(list[0].find(key) != nullptr, key);
        QCOMPARE(at(list[1], {"sequence"}).asInteger(), at(list[0], {"sequence"}).asInteger() + 1);
        const int64_t next = at(first, {"nextSequence"}).asInteger();
        QCOMPARE(next, at(list.back(), {"sequence"}).asInteger());

        // sinceSequence filters: only newer samples, each exactly once.
        const JsonValue newer = samples(std::to_string(next - 1));
        QVERIFY(!at(newer, {"samples"}).asArray().empty());
        QCOMPARE(at(at(newer, {"samples"}).asArray()[0], {"sequence"}).asInteger(), next);

        // A sequence the broker never reached (it restarted): every sample comes back.
        const JsonValue restarted = samples("100000000");
        QVERIFY(!at(restarted, {"samples"}).asArray().empty());
        QVERIFY(at(restarted, {"nextSequence"}).asInteger() < 100000000);

        RemotingCommand update = request(RequestCode::kUpdateBrokerConfig);
        setBodyText(update, "flushDiskType=SYNC_FLUSH\n");
        QCOMPARE(broker.call(update).code, ResponseCode::kSuccess);
        QCOMPARE(broker.call(sendV2("FlushTopic", 0, "synced")).code, ResponseCode::kSuccess);
        JsonValue later;
        QTRY_VERIFY_WITH_TIMEOUT((later = samples(std::to_string(next)),
                                  !at(later, {"samples"}).asArray().empty()
                                      && at(at(later, {"samples"}).asArray().back(), {"flushDiskType"}).asString()
                                             == "SYNC_FLUSH"), test::kPatienceMs);
        QCOMPARE(at(later, {"flushDiskType"}).asString(), std::string("SYNC_FLUSH"));
        for (const JsonValue &sample : at(later, {"samples"}).asArray())
            QVERIFY(at(sample, {"sequence"}).asInteger() > next);

        RemotingCommand bad = broker.call(request(RequestCode::kGetFlushSamples, {{"sinceSequence", "abc"}}));
        QCOMPARE(bad.code, ResponseCode::kSystemError);
        QVERIFY(!remoting::requestCodeName(RequestCode::kGetFlushSamples).empty());
    }

    // mqdeskExtensionsEnable=false: the broker answers MQDesk's codes and its runtime info as a
    // Java broker does (what the console's Java fallback is tested against).
    void extensionsDisabledAnswerLikeJava()
    {
        TestBroker broker([](server::BrokerSettings &settings) { settings.broker.mqdeskExtensionsEnable = false; });
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        for (const int32_t code : {RequestCode::kGetFlushSamples, RequestCode::kGetActivityTotals}) {
            const RemotingCommand answer = broker.call(request(code));
            QCOMPARE(answer.code, ResponseCode::kRequestCodeNotSupported);
            QCOMPARE(answer.remark.value_or(""), " request type " + std::to_string(code) + " not supported");
        }
        QCOMPARE(broker.call(sendV2("JavaShapedTopic", 0, "one")).code, ResponseCode::kSuccess);
        const auto runtime = runtimeInfoOf(broker);
        QVERIFY(runtime.contains("putTps") && runtime.contains("remainHowManyDataToFlush"));
        // Java's latency buckets: 13 ranges, every put counted once.
        const QStringList ranges = QString::fromStdString(runtime.at("putMessageDistributeTime")).split(u' ', Qt::SkipEmptyParts);
        QCOMPARE(ranges.size(), 13);
        QVERIFY(ranges.first().startsWith(QStringLiteral("[<=0ms]:")) && ranges.last().startsWith(QStringLiteral("[10s~]:")));
        int puts = 0;
        for (const QString &range : ranges)
            puts += range.section(u':', 1).toInt();
        QCOMPARE(puts, 1);
        QVERIFY(!runtime.contains("flushDiskType") && !runtime.contains("transientStorePoolEnable"));
        QCOMPARE(broker.call(request(RequestCode::kGetBrokerRuntimeInfo)).code, ResponseCode::kSuccess);
    }

    void activityTotalsAnswerEveryTopicAndGroupInOneRequest()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(createTopic("ActTopic", 2)).code, ResponseCode::kSuccess);
        for (int i = 0; i < 5; ++i)
            QCOMPARE(broker.call(sendV2("ActTopic", i % 2, "m")).code, ResponseCode::kSuccess);
        // Queue 0 holds 3, queue 1 holds 2: committing 1 and 2 leaves a lag of 2 + 0.
        QCOMPARE(broker.call(commitOffset("ActGroup", "ActTopic", 0, 1)).code, ResponseCode::kSuccess);
        QCOMPARE(broker.call(commitOffset("ActGroup", "ActTopic", 1, 2)).code, ResponseCode::kSuccess);
        QCOMPARE(broker.call(commitOffset("ActGroup", "%RETRY%ActGroup", 0, 0)).code, ResponseCode::kSuccess);
        const auto totals = [&] { return parsed(test::bodyOf(broker.call(request(RequestCode::kGetActivityTotals)))); };
        JsonValue body;
        // Sends are dispatched to the consume queues asynchronously.
        QTRY_VERIFY_WITH_TIMEOUT((body = totals(), at(body, {"topics", "ActTopic"}).asInteger() == 5), test::kPatienceMs);
        QCOMPARE(at(body, {"groups", "ActGroup"}).asInteger(), int64_t{2});
        QVERIFY(at(body, {"topics", "TBW102"}).isInteger()); // system topics are counted too
        QVERIFY(at(body, {"bootTimestamp"}).asInteger() > 0);
        QVERIFY(at(body, {"timestamp"}).asInteger() >= at(body, {"bootTimestamp"}).asInteger());

        QCOMPARE(broker.call(sendV2("ActTopic", 1, "m")).code, ResponseCode::kSuccess);
        QTRY_VERIFY_WITH_TIMEOUT((body = totals(), at(body, {"groups", "ActGroup"}).asInteger() == 3), test::kPatienceMs);
        QCOMPARE(at(body, {"topics", "ActTopic"}).asInteger(), int64_t{6});
        QCOMPARE(std::string(remoting::requestCodeName(RequestCode::kGetActivityTotals)), std::string("GET_ACTIVITY_TOTALS"));
    }

    // A figure, not a check of time: what one GET_ACTIVITY_TOTALS costs on a broker with 1,000
    // topics and 2,500 groups (the console sends one a second per broker).
    void activityTotalsAtScale()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        server::BrokerController &controller = broker.controller();
        for (int i = 0; i < 1000; ++i) {
            store::TopicConfig topic;
            topic.topicName = "ScaleTopic" + std::to_string(i);
            topic.readQueueNums = topic.writeQueueNums = 4;
            topic.perm = 6;
            QVERIFY2(controller.topics().updateTopic(topic, error), error.c_str());
        }
        for (int i = 0; i < 2500; ++i)
            for (int queueId = 0; queueId < 4; ++queueId)
                controller.offsets().commitOffset("test", "ScaleGroup" + std::to_string(i),
                                                  "ScaleTopic" + std::to_string(i % 1000), queueId, 0);
        std::vector<double> millis;
        size_t bodyBytes = 0;
        for (int round = 0; round < 11; ++round) {
            QElapsedTimer timer;
            timer.start();
            const RemotingCommand answer = broker.call(request(RequestCode::kGetActivityTotals));
            millis.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
            QCOMPARE(answer.code, ResponseCode::kSuccess);
            bodyBytes = answer.body.size();
        }
        const JsonValue body = parsed(test::bodyOf(broker.call(request(RequestCode::kGetActivityTotals))));
        QVERIFY(at(body, {"topics"}).asObject().size() >= 1000);
        // The broker may hold a group of its own beside the 2,500 (seen once under ASan).
        QVERIFY(at(body, {"groups"}).asObject().size() >= 2500);
        std::sort(millis.begin(), millis.end());
        qInfo("GET_ACTIVITY_TOTALS, 1000 topics x 4 queues, 2500 groups: median %.2f ms, max %.2f ms, body %zu bytes",
              millis[millis.size() / 2], millis.back(), bodyBytes);
    }
};

QObject *createAdminTest()
{
    return new AdminTest;
}

#include "tst_admin.moc"
