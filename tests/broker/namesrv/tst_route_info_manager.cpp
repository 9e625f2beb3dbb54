// RouteInfoManager's tables (remoting spec §5.4): registration, the rebuild only on a new data
// version, slaves, unregistration, expiry and connection close with explicit times, topic
// deletion, write-permission changes and the cluster/topic listings.

#include "test_support.h"

#include "broker/namesrv/route_info_manager.h"

using namespace mqdesk::namesrv;
using namespace mqdesk::remoting;

namespace {

constexpr const char *kCluster = "DefaultCluster";
constexpr const char *kMasterA = "10.0.0.1:10911";
constexpr const char *kSlaveA = "10.0.0.2:10911";
constexpr const char *kMasterB = "10.0.0.3:10911";

TopicConfigSerializeWrapper topics(int64_t counter, std::vector<TopicConfigData> configs)
{
    TopicConfigSerializeWrapper wrapper;
    wrapper.dataVersion.counter = counter;
    wrapper.dataVersion.timestamp = 1700000000000 + counter;
    wrapper.topicConfigTable = std::move(configs);
    return wrapper;
}

TopicConfigData topic(const std::string &name, int32_t queues = 4, int32_t perm = 6)
{
    TopicConfigData config;
    config.topicName = name;
    config.readQueueNums = queues;
    config.writeQueueNums = queues;
    config.perm = perm;
    return config;
}

} // namespace

class RouteInfoManagerTest : public QObject
{
    Q_OBJECT

private slots:
    void masterRegistrationServesRoutes()
    {
        RouteInfoManager routes;
        const RegisterBrokerResult result = routes.registerBroker(
            kCluster, kMasterA, "broker-a", 0, "10.0.0.1:10912", topics(1, {topic("T"), topic("TBW102", 8, 7)}), 5, 1000);
        QVERIFY(result.masterAddr.empty());
        QVERIFY(result.haServerAddr.empty());

        const std::optional<TopicRouteData> route = routes.topicRoute("T");
        QVERIFY(route);
        QCOMPARE(route->queueDatas.size(), size_t(1));
        QCOMPARE(route->queueDatas[0], (QueueData{"broker-a", 4, 4, 6, 0}));
        QCOMPARE(route->brokerDatas.size(), size_t(1));
        QCOMPARE(route->brokerDatas[0].masterAddress(), std::string(kMasterA));
        QCOMPARE(route->brokerDatas[0].cluster, std::string(kCluster));
        QCOMPARE(routes.topicRoute("TBW102")->queueDatas[0].perm, 7);
        QVERIFY(!routes.topicRoute("Unknown"));

        const std::optional<BrokerLiveInfo> live = routes.liveInfo(kMasterA);
        QVERIFY(live);
        QCOMPARE(live->lastUpdateMillis, int64_t(1000));
        QCOMPARE(live->connectionId, uint64_t(5));
        QCOMPARE(live->dataVersion.counter, int64_t(1));
    }

    void queuesRebuildOnlyWhenTheVersionChanges()
    {
        RouteInfoManager routes;
        routes.registerBroker(kCluster, kMasterA, "broker-a", 0, "", topics(1, {topic("T", 4)}), 1, 1000);
        // Same version, different table: ignored (the broker's periodic re-registration).
        routes.registerBroker(kCluster, kMasterA, "broker-a", 0, "", topics(1, {topic("T", 8), topic("U")}), 1, 2000);
        QCOMPARE(routes.topicRoute("T")->queueDatas[0].writeQueueNums, 4);
        QVERIFY(!routes.topicRoute("U"));
        QCOMPARE(routes.liveInfo(kMasterA)->lastUpdateMillis, int64_t(2000));
        // New version: rebuilt; a topic missing from the table is not removed by registration.
        routes.registerBroker(kCluster, kMasterA, "broker-a", 0, "", topics(2, {topic("U", 2)}), 1, 3000);
        QVERIFY(routes.topicRoute("U"));
        QCOMPARE(routes.topicRoute("T")->queueDatas[0].writeQueueNums, 4);
        // Registration without a topic table keeps the version and the queues.
        routes.registerBroker(kCluster, kMasterA, "broker-a", 0, "", std::nullopt, 1, 4000);
        QCOMPARE(routes.liveInfo(kMasterA)->dataVersion.counter, int64_t(2));
        QVERIFY(routes.topicRoute("U"));
    }

    void slaveGetsItsMasterAndAddsNoQueues()
    {
        RouteInfoManager routes;
        // A slave before its master: nothing to report.
        RegisterBrokerResult result =
            routes.registerBroker(kCluster, kSlaveA, "broker-a", 1, "10.0.0.2:10912", topics(1, {topic("S")}), 2, 1000);
        QVERIFY(result.masterAddr.empty());
        QVERIFY(!routes.topicRoute("S")); // slaves' tables are ignored

        routes.registerBroker(kCluster, kMasterA, "broker-a", 0, "10.0.0.1:10912", topics(1, {topic("T")}), 1, 1000);
        result = routes.registerBroker(kCluster, kSlaveA, "broker-a", 1, "10.0.0.2:10912", topics(1, {}), 2, 1500);
        QCOMPARE(result.masterAddr, std::string(kMasterA));
        QCOMPARE(result.haServerAddr, std::string("10.0.0.1:10912"));
        const std::map<int64_t, std::string> expected{{0, kMasterA}, {1, kSlaveA}};
        QCOMPARE(routes.topicRoute("T")->brokerDatas[0].brokerAddrs, expected);

        // The slave comes back as master (id 0) at the same address: its old id goes.
        routes.unregisterBroker(kCluster, kMasterA, "broker-a", 0);
        routes.registerBroker(kCluster, kSlaveA, "broker-a", 0, "10.0.0.2:10912", topics(3, {topic("T")}), 2, 2000);
        const std::map<int64_t, std::string> promoted{{0, kSlaveA}};
        QCOMPARE(routes.topicRoute("T")->brokerDatas[0].brokerAddrs, promoted);
    }

    void unregisterRemovesTheGroupWhenEmpty()
    {
        RouteInfoManager routes;
        routes.registerBroker(kCluster, kMasterA, "broker-a", 0, "", topics(1, {topic("T"), topic("Shared")}), 1, 0);
        routes.registerBroker(kCluster, kSlaveA, "broker-a", 1, "", std::nullopt, 2, 0);
        routes.registerBroker(kCluster, kMasterB, "broker-b", 0, "", topics(1, {topic("Shared")}), 3, 0);

        routes.unregisterBroker(kCluster, kMasterA, "broker-a", 0);
        QVERIFY(routes.topicRoute("T")); // the slave still serves reads
        QCOMPARE(routes.topicRoute("T")->brokerDatas[0].masterAddress(), std::string());

        routes.unregisterBroker(kCluster, kSlaveA, "broker-a", 1);
        QVERIFY(!routes.topicRoute("T"));
        QCOMPARE(routes.topicRoute("Shared")->queueDatas.size(), size_t(1));
        QCOMPARE(routes.clusterInfo().clusterAddrTable[kCluster], std::vector<std::string>{"broker-b"});
        QVERIFY(!routes.liveInfo(kSlaveA));
    }

    void expiryUsesTheGivenTimes()
    {
        RouteInfoManager routes;
        routes.registerBroker(kCluster, kMasterA, "broker-a", 0, "", topics(1, {topic("T"), topic("Shared")}), 1, 1000);
        routes.registerBroker(kCluster, kMasterB, "broker-b", 0, "", topics(1, {topic("Shared")}), 2, 50000);

        QVERIFY(routes.scanExpiredBrokers(121000).empty()); // exactly 120 s silent: still alive
        QCOMPARE(routes.scanExpiredBrokers(121001), std::vector<std::string>{kMasterA});
        QVERIFY(!routes.topicRoute("T"));
        QVERIFY(!routes.liveInfo(kMasterA));
        QCOMPARE(routes.topicRoute("Shared")->brokerDatas[0].brokerName, std::string("broker-b"));
        QVERIFY(!routes.clusterInfo().brokerAddrTable.contains("broker-a"));

        QCOMPARE(routes.scanExpiredBrokers(60000, 5000), std::vector<std::string>{kMasterB});
        QVERIFY(routes.clusterInfo().clusterAddrTable.empty());
        QVERIFY(routes.allTopics().topicList.empty());
    }

    void connectionCloseDropsItsBrokers()
    {
        RouteInfoManager routes;
        routes.registerBroker(kCluster, kMasterA, "broker-a", 0, "", topics(1, {topic("T")}), 7, 0);
        routes.registerBroker(kCluster, kMasterB, "broker-b", 0, "", topics(1, {topic("U")}), 0, 0); // in-process
        QVERIFY(routes.onConnectionClosed(8).empty());
        QVERIFY(routes.onConnectionClosed(0).empty()); // in-process registrations never match
        QCOMPARE(routes.onConnectionClosed(7), std::vector<std::string>{kMasterA});
        QVERIFY(!routes.topicRoute("T"));
        QVERIFY(routes.topicRoute("U"));
    }

    void deleteTopicWholeOrPerCluster()
    {
        RouteInfoManager routes;
        routes.registerBroker("c1", kMasterA, "broker-a", 0, "", topics(1, {topic("T"), topic("U")}), 1, 0);
        routes.registerBroker("c2", kMasterB, "broker-b", 0, "", topics(1, {topic("T"), topic("U")}), 2, 0);
        QVERIFY(routes.deleteTopic("T"));
        QVERIFY(!routes.topicRoute("T"));
        QVERIFY(!routes.deleteTopic("T"));
        QVERIFY(routes.deleteTopic("U", std::string("c1")));
        QCOMPARE(routes.topicRoute("U")->queueDatas.size(), size_t(1));
        QCOMPARE(routes.topicRoute("U")->queueDatas[0].brokerName, std::string("broker-b"));
        QVERIFY(!routes.deleteTopic("U", std::string("nope")));
        // The next registration with a new version brings a deleted topic back.
        routes.registerBroker("c1", kMasterA, "broker-a", 0, "", topics(2, {topic("T")}), 1, 0);
        QVERIFY(routes.topicRoute("T"));
    }

    void clusterInfoAndTopicLists()
    {
        RouteInfoManager routes;
        routes.registerBroker("c1", kMasterA, "broker-a", 0, "", topics(1, {topic("T"), topic("X")}), 1, 0);
        routes.registerBroker("c1", kSlaveA, "broker-a", 1, "", std::nullopt, 2, 0);
        routes.registerBroker("c2", kMasterB, "broker-b", 0, "", topics(1, {topic("U"), topic("X")}), 3, 0);

        const ClusterInfo info = routes.clusterInfo();
        QCOMPARE(info.brokerAddrTable.size(), size_t(2));
        QCOMPARE(info.brokerAddrTable.at("broker-a").brokerAddrs.size(), size_t(2));
        QCOMPARE(info.clusterAddrTable.at("c1"), std::vector<std::string>{"broker-a"});
        QCOMPARE(info.clusterAddrTable.at("c2"), std::vector<std::string>{"broker-b"});

        QCOMPARE(routes.allTopics().topicList, (std::vector<std::string>{"T", "U", "X"}));
        QCOMPARE(routes.topicsByCluster("c1").topicList, (std::vector<std::string>{"T", "X"}));
        QVERIFY(routes.topicsByCluster("none").topicList.empty());
        const TopicList system = routes.systemTopics();
        QCOMPARE(system.topicList, (std::vector<std::string>{"broker-a", "broker-b", "c1", "c2"}));
        QCOMPARE(system.brokerAddr, std::string(kMasterA));
    }

    void writePermissionWipeAndAdd()
    {
        RouteInfoManager routes;
        routes.registerBroker(kCluster, kMasterA, "broker-a", 0, "",
                              topics(1, {topic("T"), topic("R", 4, 4), topic("TBW102", 8, 7)}), 1, 0);
        QCOMPARE(routes.wipeWritePermOfBroker("broker-a"), 2); // R had no write bit
        QCOMPARE(routes.topicRoute("T")->queueDatas[0].perm, 4);
        QCOMPARE(routes.topicRoute("TBW102")->queueDatas[0].perm, 5);
        QCOMPARE(routes.wipeWritePermOfBroker("broker-x"), 0);
        QCOMPARE(routes.addWritePermOfBroker("broker-a"), 3);
        QCOMPARE(routes.topicRoute("R")->queueDatas[0].perm, 6);
    }

    void queryDataVersionRefreshesLivenessWhenUnchanged()
    {
        RouteInfoManager routes;
        const TopicConfigSerializeWrapper table = topics(4, {topic("T")});
        routes.registerBroker(kCluster, kMasterA, "broker-a", 0, "", table, 1, 1000);
        QVERIFY(routes.queryDataVersionChanged("10.9.9.9:1", table.dataVersion, 2000)); // unknown broker
        DataVersionData other = table.dataVersion;
        ++other.counter;
        QVERIFY(routes.queryDataVersionChanged(kMasterA, other, 2000));
        QCOMPARE(routes.liveInfo(kMasterA)->lastUpdateMillis, int64_t(1000));
        QVERIFY(!routes.queryDataVersionChanged(kMasterA, table.dataVersion, 3000));
        QCOMPARE(routes.liveInfo(kMasterA)->lastUpdateMillis, int64_t(3000));
    }
};

QObject *createRouteInfoManagerTest() { return new RouteInfoManagerTest; }

#include "tst_route_info_manager.moc"
