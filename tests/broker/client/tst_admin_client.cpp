// AdminClient against a real in-process broker: topics, stats, lag, groups, broker config and
// runtime info, offset reset and message lookups.

#include "../server/broker_test_util.h"

#include "broker/client/admin_client.h"
#include "broker/client/producer.h"
#include "test_support.h"

#include <algorithm>

using namespace mqdesk;
using namespace mqdesk::client;
using mqdesk::test::TestBroker;

class AdminClientTest : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestBroker> broker_;
    ClientConfig config_;

    static bool contains(const std::vector<std::string> &list, const std::string &item)
    {
        return std::find(list.begin(), list.end(), item) != list.end();
    }

    void sendTo(const std::string &topic, int32_t queueId, int count, const std::string &key = "k")
    {
        Producer producer(config_, {.group = "PG_ADMIN"});
        QVERIFY(producer.start().ok);
        for (int i = 0; i < count; ++i) {
            Message message;
            message.topic = topic;
            message.tags = "T";
            message.keys = {key};
            message.setBody("m" + std::to_string(i));
            Result<SendResult> sent = producer.send(
                message, [queueId](const std::vector<MessageQueue> &, const Message &) { return size_t(queueId); });
            QVERIFY2(sent.ok, sent.error.c_str());
        }
    }

private slots:
    void initTestCase()
    {
        broker_ = std::make_unique<TestBroker>();
        std::string error;
        QVERIFY2(broker_->start(error), error.c_str());
        config_.namesrvAddr = broker_->namesrvAddress();
    }
    void cleanupTestCase() { broker_.reset(); }

    void createTopicThenSeeIt()
    {
        AdminClient admin(config_);
        Result<remoting::ClusterInfo> cluster = admin.clusterInfo();
        QVERIFY2(cluster.ok, cluster.error.c_str());
        QVERIFY(cluster.value.clusterAddrTable.count("DefaultCluster"));
        Status created = admin.createTopic("DefaultCluster", {.topicName = "AdminTopic", .readQueueNums = 3, .writeQueueNums = 3});
        QVERIFY2(created.ok, created.error.c_str());
        Result<remoting::TopicList> list = admin.topicList();
        QVERIFY2(list.ok, list.error.c_str());
        QVERIFY(contains(list.value.topicList, "AdminTopic"));
        Result<remoting::TopicRouteData> route = admin.topicRoute("AdminTopic");
        QVERIFY2(route.ok, route.error.c_str());
        QCOMPARE(route.value.queueDatas.at(0).writeQueueNums, 3);
        sendTo("AdminTopic", 1, 2);
        // Queue offsets appear once the broker's dispatch has indexed the sends.
        QTRY_COMPARE_WITH_TIMEOUT(admin.topicStats("AdminTopic").value.totalMessages(), int64_t(2), 10000);
        Result<TopicStatsTable> stats = admin.topicStats("AdminTopic");
        QVERIFY2(stats.ok, stats.error.c_str());
        QCOMPARE(stats.value.offsetTable.size(), size_t(3));
        QCOMPARE(stats.value.offsetTable.at({"AdminTopic", "broker-a", 1}).maxOffset, int64_t(2));
        QVERIFY(stats.value.offsetTable.at({"AdminTopic", "broker-a", 1}).lastUpdateTimestamp > 0);
        QCOMPARE(stats.value.offsetTable.at({"AdminTopic", "broker-a", 0}).maxOffset, int64_t(0));
        Result<remoting::TopicConfigSerializeWrapper> configs =
            admin.api().getAllTopicConfig(broker_->brokerAddress());
        QVERIFY2(configs.ok, configs.error.c_str());
        QVERIFY(std::any_of(configs.value.topicConfigTable.begin(), configs.value.topicConfigTable.end(),
                            [](const auto &t) { return t.topicName == "AdminTopic" && t.readQueueNums == 3; }));
    }

    void deleteTopic()
    {
        AdminClient admin(config_);
        QVERIFY(admin.createTopic({}, {.topicName = "AdminDoomed", .readQueueNums = 1, .writeQueueNums = 1}).ok);
        Status deleted = admin.deleteTopic("AdminDoomed");
        QVERIFY2(deleted.ok, deleted.error.c_str());
        QVERIFY(!contains(admin.topicList().value.topicList, "AdminDoomed"));
    }

    void consumeStatsLagFollowsCommits()
    {
        AdminClient admin(config_);
        QVERIFY(admin.createTopic({}, {.topicName = "AdminLag", .readQueueNums = 2, .writeQueueNums = 2}).ok);
        sendTo("AdminLag", 0, 5);
        const std::string addr = broker_->brokerAddress();
        QTRY_COMPARE_WITH_TIMEOUT(admin.api().getMaxOffset(addr, "AdminLag", 0).value, int64_t(5), 10000);
        QVERIFY(admin.api().updateConsumerOffset(addr, "CG_LAG", "AdminLag", 0, 2).ok);
        QVERIFY(admin.api().updateConsumerOffset(addr, "CG_LAG", "AdminLag", 1, 0).ok);
        Result<ConsumeStats> stats = admin.consumeStats("CG_LAG", "AdminLag");
        QVERIFY2(stats.ok, stats.error.c_str());
        const OffsetWrapper &q0 = stats.value.offsetTable.at({"AdminLag", "broker-a", 0});
        QCOMPARE(q0.brokerOffset, int64_t(5));
        QCOMPARE(q0.consumerOffset, int64_t(2));
        QCOMPARE(q0.lag(), int64_t(3));
        QCOMPARE(stats.value.totalLag(), int64_t(3));
        QVERIFY(admin.api().updateConsumerOffset(addr, "CG_LAG", "AdminLag", 0, 5).ok);
        stats = admin.consumeStats("CG_LAG", "AdminLag");
        QVERIFY2(stats.ok, stats.error.c_str());
        QCOMPARE(stats.value.totalLag(), int64_t(0));
        Result<ConsumerOffsetTable> offsets = admin.api().getAllConsumerOffset(addr);
        QVERIFY2(offsets.ok, offsets.error.c_str());
        QCOMPARE(offsets.value.offsetTable.at("AdminLag@CG_LAG").at(0), int64_t(5));
        Result<std::vector<std::string>> groups = admin.api().queryTopicConsumeByWho(addr, "AdminLag");
        QVERIFY2(groups.ok, groups.error.c_str());
        QVERIFY(contains(groups.value, "CG_LAG"));

        // Reset to the beginning for the offline group: searchOffsetByTimestamp + commit.
        Result<std::map<MessageQueue, int64_t>> reset = admin.resetOffsetByTime("CG_LAG", "AdminLag", 0);
        QVERIFY2(reset.ok, reset.error.c_str());
        QCOMPARE(reset.value.size(), size_t(2));
        QCOMPARE(admin.api().queryConsumerOffset(addr, "CG_LAG", "AdminLag", 0).value, int64_t(0));
        QCOMPARE(admin.consumeStats("CG_LAG", "AdminLag").value.totalLag(), int64_t(5));
    }

    void subscriptionGroups()
    {
        AdminClient admin(config_);
        SubscriptionGroupConfig config;
        config.groupName = "CG_ADMIN_MADE";
        config.retryMaxTimes = 5;
        config.consumeBroadcastEnable = false;
        Status created = admin.createSubscriptionGroup({}, config);
        QVERIFY2(created.ok, created.error.c_str());
        Result<std::vector<SubscriptionGroupConfig>> groups = admin.subscriptionGroups(broker_->brokerAddress());
        QVERIFY2(groups.ok, groups.error.c_str());
        auto found = std::find_if(groups.value.begin(), groups.value.end(),
                                  [](const auto &g) { return g.groupName == "CG_ADMIN_MADE"; });
        QVERIFY(found != groups.value.end());
        QCOMPARE(found->retryMaxTimes, 5);
        QCOMPARE(found->consumeBroadcastEnable, false);
        Status deleted = admin.deleteSubscriptionGroup({}, "CG_ADMIN_MADE");
        QVERIFY2(deleted.ok, deleted.error.c_str());
        groups = admin.subscriptionGroups(broker_->brokerAddress());
        QVERIFY(std::none_of(groups.value.begin(), groups.value.end(),
                             [](const auto &g) { return g.groupName == "CG_ADMIN_MADE"; }));
    }

    void brokerConfigAndRuntimeInfo()
    {
        AdminClient admin(config_);
        const std::string addr = broker_->brokerAddress();
        Result<std::map<std::string, std::string>> before = admin.brokerConfig(addr);
        QVERIFY2(before.ok, before.error.c_str());
        QCOMPARE(before.value.at("flushDiskType"), std::string("ASYNC_FLUSH"));
        Status updated = admin.updateBrokerConfig(addr, {{"flushDiskType", "SYNC_FLUSH"}});
        QVERIFY2(updated.ok, updated.error.c_str());
        QCOMPARE(admin.brokerConfig(addr).value.at("flushDiskType"), std::string("SYNC_FLUSH"));
        QVERIFY(admin.updateBrokerConfig(addr, {{"flushDiskType", "ASYNC_FLUSH"}}).ok);

        Result<remoting::KVTable> runtime = admin.brokerRuntimeInfo(addr);
        QVERIFY2(runtime.ok, runtime.error.c_str());
        QVERIFY(runtime.value.table.count("brokerVersionDesc"));
        QVERIFY(runtime.value.table.count("putTps"));
    }

    void messageLookups()
    {
        AdminClient admin(config_);
        Producer producer(config_, {.group = "PG_LOOKUP"});
        QVERIFY(producer.start().ok);
        Message message;
        message.topic = "AdminLookup";
        message.keys = {"order-7", "customer-9"};
        message.setBody("find me");
        Result<SendResult> sent = producer.send(message);
        QVERIFY2(sent.ok, sent.error.c_str());

        Result<common::StoredMessage> byId = admin.viewMessage(sent.value.msgId);
        QVERIFY2(byId.ok, byId.error.c_str());
        QCOMPARE(byId.value.bodyText(), std::string("find me"));
        QVERIFY(!admin.viewMessage("XYZ").ok);

        // The index is built by the broker's dispatch, just after the send returns.
        QTRY_COMPARE_WITH_TIMEOUT(admin.queryMessageByKey("AdminLookup", "customer-9").value.size(), size_t(1), 10000);
        Result<std::vector<common::StoredMessage>> byKey = admin.queryMessageByKey("AdminLookup", "customer-9");
        QVERIFY2(byKey.ok, byKey.error.c_str());
        QCOMPARE(byKey.value[0].bodyText(), std::string("find me"));
        QVERIFY(admin.queryMessageByKey("AdminLookup", "nobody").value.empty());

        Result<common::StoredMessage> byUniq = admin.queryMessageByUniqKey("AdminLookup", sent.value.uniqKey);
        QVERIFY2(byUniq.ok, byUniq.error.c_str());
        QCOMPARE(byUniq.value.physicalOffset, byId.value.physicalOffset);
    }

    void errorsNameAddressRequestAndRemark()
    {
        AdminClient admin(config_);
        Result<TopicStatsTable> stats = admin.api().getTopicStatsInfo(broker_->brokerAddress(), "NoSuchTopicHere");
        QVERIFY(!stats.ok);
        QCOMPARE(stats.code, remoting::ResponseCode::kTopicNotExist);
        QVERIFY2(stats.error.find(broker_->brokerAddress()) != std::string::npos, stats.error.c_str());
        QVERIFY2(stats.error.find("GET_TOPIC_STATS_INFO") != std::string::npos, stats.error.c_str());
        QVERIFY2(stats.error.find("NoSuchTopicHere") != std::string::npos, stats.error.c_str());
        Result<remoting::KVTable> nobody = admin.api().getBrokerRuntimeInfo("127.0.0.1:1");
        QVERIFY(!nobody.ok);
        QCOMPARE(nobody.code, clientCode::kConnectFailed);
    }
};

QObject *createAdminClientTest() { return new AdminClientTest; }

#include "tst_admin_client.moc"
