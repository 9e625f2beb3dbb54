// The namesrv's wire bodies (remoting spec §5): the §5.1 route example byte for byte, both
// spellings of integer keys, errors naming the member, and the compressed registration body.

#include "test_support.h"

#include "broker/remoting/protocol/route_data.h"

using namespace mqdesk::remoting;
using namespace mqdesk::test;

namespace {

// Spec §5.1, "for version ≥ 401 or acceptStandardJsonOnly=true".
constexpr std::string_view kStandardRoute =
    R"({"brokerDatas":[{"brokerAddrs":{"0":"127.0.0.1:10911"},"brokerName":"broker-a","cluster":"DefaultCluster"}],)"
    R"("filterServerTable":{},"queueDatas":[{"brokerName":"broker-a","perm":6,"readQueueNums":4,"topicSysFlag":0,"writeQueueNums":4}]})";
// The same as a 4.9.8 namesrv writes it for old clients: a bare integer key.
constexpr std::string_view kFastjsonRoute =
    R"({"brokerDatas":[{"brokerAddrs":{0:"127.0.0.1:10911"},"brokerName":"broker-a","cluster":"DefaultCluster"}],)"
    R"("filterServerTable":{},"queueDatas":[{"brokerName":"broker-a","perm":6,"readQueueNums":4,"topicSysFlag":0,"writeQueueNums":4}]})";

TopicRouteData exampleRoute()
{
    TopicRouteData route;
    route.brokerDatas.push_back({.cluster = "DefaultCluster", .brokerName = "broker-a",
                                 .brokerAddrs = {{0, "127.0.0.1:10911"}}});
    route.queueDatas.push_back(
        {.brokerName = "broker-a", .readQueueNums = 4, .writeQueueNums = 4, .perm = 6, .topicSysFlag = 0});
    return route;
}

RegisterBrokerBody exampleRegisterBody()
{
    RegisterBrokerBody body;
    body.topicConfigSerializeWrapper.dataVersion.counter = 7;
    body.topicConfigSerializeWrapper.dataVersion.timestamp = 1700000000000;
    body.topicConfigSerializeWrapper.topicConfigTable = {
        {.topicName = "TopicTest", .readQueueNums = 4, .writeQueueNums = 4, .perm = 6},
        {.topicName = "TBW102", .readQueueNums = 8, .writeQueueNums = 8, .perm = 7},
    };
    return body;
}

} // namespace

class RouteDataTest : public QObject
{
    Q_OBJECT

private slots:
    void permNames()
    {
        QCOMPARE(topicPerm::permName(6), std::string("RW-"));
        QCOMPARE(topicPerm::permName(7), std::string("RWX"));
        QCOMPARE(topicPerm::permName(4), std::string("R--"));
        QCOMPARE(topicPerm::permName(0), std::string("---"));
        QVERIFY(topicPerm::isReadable(6) && topicPerm::isWriteable(6));
        QVERIFY(!topicPerm::isWriteable(4 | 8));
    }

    void routeWritesTheSpecExampleExactly()
    {
        QCOMPARE(exampleRoute().toJson(), std::string(kStandardRoute));
    }

    void routeReadsQuotedAndBareIntegerKeys()
    {
        for (std::string_view body : {kStandardRoute, kFastjsonRoute}) {
            TopicRouteData route;
            std::string error;
            QVERIFY2(TopicRouteData::fromJson(body, route, error), error.c_str());
            QVERIFY(route == exampleRoute());
            QCOMPARE(route.brokerDatas[0].masterAddress(), std::string("127.0.0.1:10911"));
        }
    }

    void routeRoundTripsEverything()
    {
        TopicRouteData route = exampleRoute();
        route.orderTopicConf = "broker-a:4;broker-b:4";
        route.brokerDatas.push_back(
            {.cluster = "c2", .brokerName = "broker-b", .brokerAddrs = {{1, "10.0.0.2:10911"}, {2, "10.0.0.3:10911"}}});
        route.queueDatas.push_back({.brokerName = "broker-b", .readQueueNums = 2, .writeQueueNums = 1, .perm = 4});
        route.filterServerTable["10.0.0.2:10911"] = {"10.0.0.9:1", "10.0.0.9:2"};
        TopicRouteData back;
        std::string error;
        QVERIFY2(TopicRouteData::fromJson(route.toJson(), back, error), error.c_str());
        QVERIFY(back == route);
        QCOMPARE(back.brokerDatas[1].masterAddress(), std::string()); // slaves only
        QVERIFY(route.toJson().find(R"("orderTopicConf":"broker-a:4;broker-b:4")") != std::string::npos);
    }

    void routeErrorsNameTheMember()
    {
        TopicRouteData route;
        std::string error;
        QVERIFY(!TopicRouteData::fromJson(
            R"({"queueDatas":[{"brokerName":"a","perm":6},{"brokerName":"b","perm":"rw"}]})", route, error));
        QCOMPARE(error, std::string("queueDatas[1].perm: expected an integer, found string"));
        QVERIFY(!TopicRouteData::fromJson(R"({"brokerDatas":[{"brokerAddrs":{"x":"a"}}]})", route, error));
        QCOMPARE(error, std::string("brokerDatas[0].brokerAddrs: key \"x\" is not a broker id"));
        QVERIFY(!TopicRouteData::fromJson(R"({"brokerDatas":{}})", route, error));
        QCOMPARE(error, std::string("brokerDatas: expected an array, found object"));
        QVERIFY(!TopicRouteData::fromJson("[1]", route, error));
        QVERIFY(!TopicRouteData::fromJson("{", route, error));
        QVERIFY(!error.empty());
        // Numbers as strings are read like fastjson does; unknown members ignored.
        QVERIFY2(TopicRouteData::fromJson(R"({"queueDatas":[{"perm":"6","topicSynFlag":1}],"x":1})", route, error),
                 error.c_str());
        QCOMPARE(route.queueDatas.at(0).perm, 6);
    }

    void clusterInfoRoundTrip()
    {
        ClusterInfo info;
        info.brokerAddrTable["broker-a"] = exampleRoute().brokerDatas[0];
        info.clusterAddrTable["DefaultCluster"] = {"broker-a"};
        QCOMPARE(info.toJson(),
                 std::string(R"({"brokerAddrTable":{"broker-a":{"brokerAddrs":{"0":"127.0.0.1:10911"},)"
                             R"("brokerName":"broker-a","cluster":"DefaultCluster"}},)"
                             R"("clusterAddrTable":{"DefaultCluster":["broker-a"]}})"));
        // Spec §5.3's fastjson form, bare key.
        ClusterInfo back;
        std::string error;
        QVERIFY2(ClusterInfo::fromJson(R"({"brokerAddrTable":{"broker-a":{"brokerAddrs":{0:"127.0.0.1:10911"},)"
                                       R"("brokerName":"broker-a","cluster":"DefaultCluster"}},)"
                                       R"("clusterAddrTable":{"DefaultCluster":["broker-a"]}})",
                                       back, error),
                 error.c_str());
        QVERIFY(back == info);
    }

    void topicListKvTableAndDataVersion()
    {
        TopicList list;
        list.topicList = {"TopicTest", "TBW102"};
        QCOMPARE(list.toJson(), std::string(R"({"topicList":["TopicTest","TBW102"]})"));
        list.brokerAddr = "127.0.0.1:10911";
        QCOMPARE(list.toJson(), std::string(R"({"brokerAddr":"127.0.0.1:10911","topicList":["TopicTest","TBW102"]})"));
        TopicList listBack;
        std::string error;
        QVERIFY2(TopicList::fromJson(list.toJson(), listBack, error), error.c_str());
        QVERIFY(listBack == list);

        KVTable kv{.table = {{"b", "2"}, {"a", "1"}}};
        QCOMPARE(kv.toJson(), std::string(R"({"table":{"a":"1","b":"2"}})"));
        KVTable kvBack;
        QVERIFY2(KVTable::fromJson(kv.toJson(), kvBack, error), error.c_str());
        QVERIFY(kvBack == kv);

        DataVersionData version;
        version.counter = 3;
        version.timestamp = 1700000000000;
        QCOMPARE(version.toJson(), std::string(R"({"counter":3,"timestamp":1700000000000})"));
        version.stateVersion = 2;
        QCOMPARE(version.toJson(), std::string(R"({"counter":3,"stateVersion":2,"timestamp":1700000000000})"));
        DataVersionData versionBack;
        QVERIFY2(DataVersionData::fromJson(version.toJson(), versionBack, error), error.c_str());
        QVERIFY(versionBack == version);
        QVERIFY(!DataVersionData::fromJson(R"({"counter":true})", versionBack, error));
        QCOMPARE(error, std::string("counter: expected an integer, found boolean"));
    }

    void registerBodyReadsTheSpecExample()
    {
        const std::string_view body =
            R"({"filterServerList":[],
 "topicConfigSerializeWrapper":{
   "dataVersion":{"counter":7,"timestamp":1700000000000},
   "topicConfigTable":{
     "TopicTest":{"order":false,"perm":6,"readQueueNums":4,"topicFilterType":"SINGLE_TAG","topicName":"TopicTest","topicSysFlag":0,"writeQueueNums":4},
     "TBW102":{"order":false,"perm":7,"readQueueNums":8,"topicFilterType":"SINGLE_TAG","topicName":"TBW102","topicSysFlag":0,"writeQueueNums":8}}}})";
        RegisterBrokerBody parsed;
        std::string error;
        QVERIFY2(RegisterBrokerBody::fromJson(body, parsed, error), error.c_str());
        QVERIFY(parsed == exampleRegisterBody());

        RegisterBrokerBody back;
        QVERIFY2(RegisterBrokerBody::fromJson(parsed.toJson(), back, error), error.c_str());
        QVERIFY(back == parsed);
        QVERIFY(parsed.toJson().starts_with(
            R"({"filterServerList":[],"topicConfigSerializeWrapper":{"dataVersion":{"counter":7,"timestamp":1700000000000},)"
            R"("topicConfigTable":{"TopicTest":{"order":false,"perm":6,"readQueueNums":4,"topicFilterType":"SINGLE_TAG",)"));

        QVERIFY(!RegisterBrokerBody::fromJson(
            R"({"topicConfigSerializeWrapper":{"topicConfigTable":{"T":{"readQueueNums":[]}}}})", back, error));
        QCOMPARE(error,
                 std::string("topicConfigSerializeWrapper.topicConfigTable.T.readQueueNums: expected an integer, found array"));
    }

    void topicConfigWrapperRoundTrip()
    {
        TopicConfigSerializeWrapper wrapper = exampleRegisterBody().topicConfigSerializeWrapper;
        wrapper.topicConfigTable[0].order = true;
        wrapper.topicConfigTable[0].topicSysFlag = 1;
        TopicConfigSerializeWrapper back;
        std::string error;
        QVERIFY2(TopicConfigSerializeWrapper::fromJson(wrapper.toJson(), back, error), error.c_str());
        QVERIFY(back == wrapper);
        // A member without topicName takes its key; 5.x attributes are read as they come.
        QVERIFY2(TopicConfigSerializeWrapper::fromJson(
                     R"({"topicConfigTable":{"X":{"perm":6,"attributes":{"+message.type":"NORMAL"}}}})", back, error),
                 error.c_str());
        QCOMPARE(back.topicConfigTable.at(0).topicName, std::string("X"));
        QCOMPARE(back.topicConfigTable.at(0).attributes,
                 (AttributeList{{"+message.type", "NORMAL"}}));
        // Written back only when there are some, in their order.
        wrapper.topicConfigTable[0].attributes = {{"message.type", "FIFO"}, {"queue.type", "SimpleCQ"}};
        QVERIFY(wrapper.toJson().find(R"("attributes":{"message.type":"FIFO","queue.type":"SimpleCQ"},"order")")
                != std::string::npos);
        QVERIFY2(TopicConfigSerializeWrapper::fromJson(wrapper.toJson(), back, error), error.c_str());
        QVERIFY(back == wrapper);
        QVERIFY(wrapper.topicConfigTable[1].toJsonValue().find("attributes") == nullptr);
    }

    // Static topics: a 5.x route's topicQueueMappingByBroker as a Java NameServer writes it
    // (fastjson, bare Integer keys), read, written back with quoted keys, and absent otherwise.
    void routeCarriesStaticTopicMappings()
    {
        const std::string java = std::string(kFastjsonRoute.substr(0, kFastjsonRoute.size() - 1))
                                 + R"(,"topicQueueMappingByBroker":{"broker-a":{"bname":"broker-a","currIdMap":{0:0,3:1},)"
                                   R"("dirty":false,"epoch":1700000000000,"scope":"__global__","topic":"S","totalQueues":4}}})";
        TopicRouteData route;
        std::string error;
        QVERIFY2(TopicRouteData::fromJson(java, route, error), error.c_str());
        const mqdesk::common::TopicQueueMappingInfo &info = route.topicQueueMappingByBroker.at("broker-a");
        QCOMPARE(info.totalQueues, 4);
        QCOMPARE(info.epoch, int64_t{1700000000000});
        QCOMPARE(info.scope, std::string("__global__"));
        QCOMPARE(info.currIdMap, (std::map<int32_t, int32_t>{{0, 0}, {3, 1}}));
        QVERIFY(route.toJson().ends_with(
            R"("topicQueueMappingByBroker":{"broker-a":{"bname":"broker-a","currIdMap":{"0":0,"3":1},"dirty":false,)"
            R"("epoch":1700000000000,"scope":"__global__","topic":"S","totalQueues":4}}})"));
        TopicRouteData back;
        QVERIFY2(TopicRouteData::fromJson(route.toJson(), back, error), error.c_str());
        QVERIFY(back == route);
        QCOMPARE(exampleRoute().toJson(), std::string(kStandardRoute));

        QVERIFY(!TopicRouteData::fromJson(
            R"({"topicQueueMappingByBroker":{"broker-a":{"currIdMap":{"x":1}}}})", back, error));
        QCOMPARE(error, std::string("topicQueueMappingByBroker.broker-a.currIdMap.x: expected a queue id → queue id entry"));
    }

    void registerBodiesCarryStaticTopicMappings()
    {
        RegisterBrokerBody body = exampleRegisterBody();
        mqdesk::common::TopicQueueMappingInfo info;
        info.topic = "S";
        info.bname = "broker-a";
        info.totalQueues = 4;
        info.epoch = 1700000000001;
        info.currIdMap = {{1, 0}, {3, 1}};
        body.topicConfigSerializeWrapper.topicQueueMappingInfoMap["S"] = info;
        RegisterBrokerBody back;
        std::string error;
        QVERIFY2(RegisterBrokerBody::fromJson(body.toJson(), back, error), error.c_str());
        QVERIFY(back == body);
        QVERIFY2(RegisterBrokerBody::decodeCompressed(body.encodeCompressed(), back, error), error.c_str());
        QCOMPARE(back.topicConfigSerializeWrapper.topicQueueMappingInfoMap, body.topicConfigSerializeWrapper.topicQueueMappingInfoMap);
        // No static topic: a count of 0.
        body.topicConfigSerializeWrapper.topicQueueMappingInfoMap.clear();
        QVERIFY2(RegisterBrokerBody::decodeCompressed(body.encodeCompressed(), back, error), error.c_str());
        QVERIFY(back.topicConfigSerializeWrapper.topicQueueMappingInfoMap.empty());
    }

    void compressedRegisterBodyRoundTrip()
    {
        RegisterBrokerBody body = exampleRegisterBody();
        body.filterServerList = {"127.0.0.1:1"};
        const std::vector<uint8_t> compressed = body.encodeCompressed();
        QVERIFY(compressed.size() > 2);
        QCOMPARE(compressed[0], uint8_t(0x78)); // a zlib header, as Java's Deflater writes
        RegisterBrokerBody back;
        std::string error;
        QVERIFY2(RegisterBrokerBody::decodeCompressed(compressed, back, error), error.c_str());
        QVERIFY(back == body);

        // Truncated and garbage input fail with a message, never crash.
        QVERIFY(!RegisterBrokerBody::decodeCompressed(
            std::span(compressed).first(compressed.size() / 2), back, error));
        QVERIFY(error.starts_with("compressed body"));
        const std::vector<uint8_t> garbage = {1, 2, 3, 4};
        QVERIFY(!RegisterBrokerBody::decodeCompressed(garbage, back, error));
        QVERIFY(!error.empty());
    }
};

QObject *createRouteDataTest() { return new RouteDataTest; }

#include "tst_route_data.moc"
