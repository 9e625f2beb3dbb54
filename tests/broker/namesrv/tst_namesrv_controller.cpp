// NamesrvController over real sockets: a RemotingClient registers a broker (JSON and
// compressed bodies, CRC checks), asks for routes (found, TOPIC_NOT_EXIST, never created by a lookup),
// cluster info, topic lists, KV config, config text, and an unknown code.

#include "test_support.h"

#include "broker/remoting/remoting_net_test_util.h"

#include "broker/common/crc32.h"
#include "broker/namesrv/namesrv_controller.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/net/remoting_client.h"

#include <atomic>

using namespace mqdesk::namesrv;
using namespace mqdesk::remoting;
using namespace mqdesk::test;

namespace {

constexpr const char *kBrokerAddr = "127.0.0.1:10911";

std::vector<uint8_t> bytesOf(std::string_view text) { return {text.begin(), text.end()}; }
std::string textOf(const std::vector<uint8_t> &bytes) { return {bytes.begin(), bytes.end()}; }

RegisterBrokerBody registerBody(int64_t counter, std::vector<std::string> topicNames)
{
    RegisterBrokerBody body;
    body.topicConfigSerializeWrapper.dataVersion.counter = counter;
    body.topicConfigSerializeWrapper.dataVersion.timestamp = 1700000000000;
    for (const std::string &name : topicNames) {
        TopicConfigData config;
        config.topicName = name;
        config.readQueueNums = 4;
        config.writeQueueNums = 4;
        config.perm = name == "TBW102" ? 7 : 6;
        body.topicConfigSerializeWrapper.topicConfigTable.push_back(config);
    }
    return body;
}

RemotingCommand registerRequest(std::vector<uint8_t> body, bool compressed = false, bool withCrc = true)
{
    ExtFields fields{{"brokerName", "broker-a"},
                     {"brokerAddr", kBrokerAddr},
                     {"clusterName", "DefaultCluster"},
                     {"haServerAddr", "127.0.0.1:10912"},
                     {"brokerId", "0"}};
    if (compressed)
        setField(fields, "compressed", true);
    if (withCrc)
        setField(fields, "bodyCrc32", mqdesk::common::maskedBodyCrc(body));
    RemotingCommand request = RemotingCommand::createRequest(RequestCode::kRegisterBroker, std::move(fields));
    request.body = std::move(body);
    return request;
}

RemotingCommand routeRequest(const std::string &topic)
{
    return RemotingCommand::createRequest(RequestCode::kGetRouteinfoByTopic, {{"topic", topic}});
}

} // namespace

class NamesrvControllerTest : public QObject
{
    Q_OBJECT

    std::unique_ptr<NamesrvController> namesrv_;
    std::unique_ptr<RemotingClient> client_;
    std::string address_;

    RemotingCommand call(RemotingCommand request)
    {
        InvokeResult result = client_->invokeSync(address_, std::move(request), kWait);
        if (result.ok())
            return std::move(result.response);
        qWarning("invoke failed: %s", result.errorMessage.c_str());
        RemotingCommand failed;
        failed.code = -1;
        return failed;
    }

private slots:
    void init()
    {
        NamesrvConfig config;
        config.listenPort = 0;
        namesrv_ = std::make_unique<NamesrvController>(config);
        std::string error;
        QVERIFY2(namesrv_->start(error), error.c_str());
        QVERIFY(namesrv_->localPort() != 0);
        address_ = localAddress(namesrv_->localPort());
        client_ = std::make_unique<RemotingClient>();
    }

    void cleanup()
    {
        client_.reset();
        namesrv_.reset();
    }

    void registerThenRoute()
    {
        const RemotingCommand registered = call(registerRequest(bytesOf(registerBody(1, {"TopicTest", "TBW102"}).toJson())));
        QCOMPARE(registered.code, ResponseCode::kSuccess);
        QVERIFY(!registered.extFields.contains("masterAddr"));

        const RemotingCommand route = call(routeRequest("TopicTest"));
        QCOMPARE(route.code, ResponseCode::kSuccess);
        QCOMPARE(textOf(route.body),
                 std::string(R"({"brokerDatas":[{"brokerAddrs":{"0":"127.0.0.1:10911"},"brokerName":"broker-a","cluster":"DefaultCluster"}],)"
                             R"("filterServerTable":{},"queueDatas":[{"brokerName":"broker-a","perm":6,"readQueueNums":4,"topicSysFlag":0,"writeQueueNums":4}]})"));
        QVERIFY(!route.remark);

        const RemotingCommand missing = call(routeRequest("NoSuchTopic"));
        QCOMPARE(missing.code, ResponseCode::kTopicNotExist);
        // Java 5.5's remark, FAQ link included.
        QCOMPARE(missing.remark, std::optional<std::string>("No topic route info in name server for the topic: NoSuchTopic\n"
                                                            "See https://rocketmq.apache.org/docs/bestPractice/06FAQ for "
                                                            "further details."));
        QVERIFY(missing.body.empty());

        const RemotingCommand noTopic = call(RemotingCommand::createRequest(RequestCode::kGetRouteinfoByTopic));
        QCOMPARE(noTopic.code, ResponseCode::kSystemError);
        QCOMPARE(noTopic.remark, std::optional<std::string>("the custom field <topic> is null"));
    }

    void routeLookupsNeverCreateTopics()
    {
        QCOMPARE(call(registerRequest(bytesOf(registerBody(1, {"TBW102"}).toJson()))).code, ResponseCode::kSuccess);
        for (int i = 0; i < 20; ++i)
            QCOMPARE(call(routeRequest("Typo" + std::to_string(i))).code, ResponseCode::kTopicNotExist);
        const RemotingCommand all = call(RemotingCommand::createRequest(RequestCode::kGetAllTopicListFromNameserver));
        QCOMPARE(all.code, ResponseCode::kSuccess);
        QVERIFY2(textOf(all.body).find("Typo") == std::string::npos, textOf(all.body).c_str());
    }

    void compressedBodyAndCrcCheck()
    {
        const RemotingCommand registered =
            call(registerRequest(registerBody(2, {"Zipped"}).encodeCompressed(), /*compressed=*/true));
        QCOMPARE(registered.code, ResponseCode::kSuccess);
        QCOMPARE(call(routeRequest("Zipped")).code, ResponseCode::kSuccess);

        RemotingCommand tampered = registerRequest(bytesOf(registerBody(3, {"Bad"}).toJson()));
        tampered.body.push_back(' ');
        const RemotingCommand rejected = call(std::move(tampered));
        QCOMPARE(rejected.code, ResponseCode::kSystemError);
        QCOMPARE(rejected.remark, std::optional<std::string>("crc32 not match"));
        QCOMPARE(call(routeRequest("Bad")).code, ResponseCode::kTopicNotExist);

        const RemotingCommand badJson = call(registerRequest(bytesOf(R"({"topicConfigSerializeWrapper":[]})")));
        QCOMPARE(badJson.code, ResponseCode::kSystemError);
        QCOMPARE(badJson.remark,
                 std::optional<std::string>("register broker body: topicConfigSerializeWrapper: expected an object, found array"));

        RemotingCommand noName = registerRequest({});
        noName.extFields.remove("brokerName");
        QCOMPARE(call(std::move(noName)).remark, std::optional<std::string>("the custom field <brokerName> is null"));
    }

    void clusterInfoTopicListsAndDelete()
    {
        QCOMPARE(call(registerRequest(bytesOf(registerBody(1, {"A", "B"}).toJson()))).code, ResponseCode::kSuccess);

        const RemotingCommand cluster = call(RemotingCommand::createRequest(RequestCode::kGetBrokerClusterInfo));
        QCOMPARE(cluster.code, ResponseCode::kSuccess);
        QCOMPARE(textOf(cluster.body),
                 std::string(R"({"brokerAddrTable":{"broker-a":{"brokerAddrs":{"0":"127.0.0.1:10911"},"brokerName":"broker-a",)"
                             R"("cluster":"DefaultCluster"}},"clusterAddrTable":{"DefaultCluster":["broker-a"]}})"));

        QCOMPARE(textOf(call(RemotingCommand::createRequest(RequestCode::kGetAllTopicListFromNameserver)).body),
                 std::string(R"({"topicList":["A","B"]})"));
        QCOMPARE(textOf(call(RemotingCommand::createRequest(RequestCode::kGetTopicsByCluster, {{"cluster", "DefaultCluster"}})).body),
                 std::string(R"({"topicList":["A","B"]})"));
        QCOMPARE(textOf(call(RemotingCommand::createRequest(RequestCode::kGetSystemTopicListFromNs)).body),
                 std::string(R"({"brokerAddr":"127.0.0.1:10911","topicList":["DefaultCluster","broker-a"]})"));

        QCOMPARE(call(RemotingCommand::createRequest(RequestCode::kDeleteTopicInNamesrv, {{"topic", "A"}})).code,
                 ResponseCode::kSuccess);
        QCOMPARE(call(routeRequest("A")).code, ResponseCode::kTopicNotExist);

        const RemotingCommand wiped = call(RemotingCommand::createRequest(RequestCode::kWipeWritePermOfBroker, {{"brokerName", "broker-a"}}));
        QCOMPARE(wiped.extFields.value("wipeTopicCount"), std::string("1"));
        const RemotingCommand added = call(RemotingCommand::createRequest(RequestCode::kAddWritePermOfBroker, {{"brokerName", "broker-a"}}));
        QCOMPARE(added.extFields.value("addTopicCount"), std::string("1"));
    }

    void kvConfigAndOrderTopicConf()
    {
        const auto put = [&](const char *ns, const char *key, const char *value) {
            return call(RemotingCommand::createRequest(RequestCode::kPutKvConfig, {{"namespace", ns}, {"key", key}, {"value", value}})).code;
        };
        QCOMPARE(put("ns1", "k1", "v1"), ResponseCode::kSuccess);
        QCOMPARE(put("ns1", "k2", "v2"), ResponseCode::kSuccess);

        const RemotingCommand got = call(RemotingCommand::createRequest(RequestCode::kGetKvConfig, {{"namespace", "ns1"}, {"key", "k1"}}));
        QCOMPARE(got.code, ResponseCode::kSuccess);
        QCOMPARE(got.extFields.value("value"), std::string("v1"));
        const RemotingCommand absent = call(RemotingCommand::createRequest(RequestCode::kGetKvConfig, {{"namespace", "ns1"}, {"key", "zz"}}));
        QCOMPARE(absent.code, ResponseCode::kQueryNotFound);
        QCOMPARE(absent.remark, std::optional<std::string>("No config item, Namespace: ns1 Key: zz"));

        const RemotingCommand list = call(RemotingCommand::createRequest(RequestCode::kGetKvlistByNamespace, {{"namespace", "ns1"}}));
        QCOMPARE(textOf(list.body), std::string(R"({"table":{"k1":"v1","k2":"v2"}})"));
        QCOMPARE(call(RemotingCommand::createRequest(RequestCode::kDeleteKvConfig, {{"namespace", "ns1"}, {"key", "k1"}})).code,
                 ResponseCode::kSuccess);
        QCOMPARE(call(RemotingCommand::createRequest(RequestCode::kGetKvConfig, {{"namespace", "ns1"}, {"key", "k1"}})).code,
                 ResponseCode::kQueryNotFound);
        QCOMPARE(call(RemotingCommand::createRequest(RequestCode::kGetKvlistByNamespace, {{"namespace", "none"}})).remark,
                 std::optional<std::string>("No config item, Namespace: none"));

        // ORDER_TOPIC_CONFIG: returned by REGISTER_BROKER, and in routes once orderMessageEnable is set.
        QCOMPARE(put("ORDER_TOPIC_CONFIG", "T", "broker-a:4"), ResponseCode::kSuccess);
        const RemotingCommand registered = call(registerRequest(bytesOf(registerBody(1, {"T"}).toJson())));
        QCOMPARE(textOf(registered.body), std::string(R"({"table":{"T":"broker-a:4"}})"));
        QVERIFY(textOf(call(routeRequest("T")).body).find("orderTopicConf") == std::string::npos);

        RemotingCommand update = RemotingCommand::createRequest(RequestCode::kUpdateNamesrvConfig);
        update.body = bytesOf("orderMessageEnable=true\nscanNotActiveBrokerInterval=5000\n");
        QCOMPARE(call(update).code, ResponseCode::kSuccess);
        QVERIFY(textOf(call(routeRequest("T")).body).find(R"("orderTopicConf":"broker-a:4")") != std::string::npos);
        QCOMPARE(namesrv_->config().scanPeriod, std::chrono::milliseconds(5000));

        const std::string configText = textOf(call(RemotingCommand::createRequest(RequestCode::kGetNamesrvConfig)).body);
        QVERIFY(configText.find("orderMessageEnable=true\n") != std::string::npos);
        QVERIFY(configText.find("brokerChannelExpiredTime=120000\n") != std::string::npos);

        update.body = bytesOf("listenPort=1");
        QCOMPARE(call(update).code, ResponseCode::kNoPermission);
        update.body = bytesOf("brokerChannelExpiredTime=soon");
        QCOMPARE(call(update).code, ResponseCode::kSystemError);
    }

    void unregisterConnectionCloseAndDataVersion()
    {
        QCOMPARE(call(registerRequest(bytesOf(registerBody(5, {"T"}).toJson()))).code, ResponseCode::kSuccess);

        RemotingCommand query = RemotingCommand::createRequest(
            RequestCode::kQueryDataVersion,
            {{"brokerName", "broker-a"}, {"brokerAddr", kBrokerAddr}, {"clusterName", "DefaultCluster"}, {"brokerId", "0"}});
        query.body = bytesOf(registerBody(5, {}).topicConfigSerializeWrapper.dataVersion.toJson());
        const RemotingCommand unchanged = call(query);
        QCOMPARE(unchanged.extFields.value("changed"), std::string("false"));
        QCOMPARE(textOf(unchanged.body), std::string(R"({"counter":5,"timestamp":1700000000000})"));
        query.body = bytesOf(R"({"counter":6,"timestamp":1})");
        QCOMPARE(call(query).extFields.value("changed"), std::string("true"));

        // Closing the broker's connection drops it at once.
        client_->closeConnection(address_);
        bool gone = false;
        for (int i = 0; i < 500 && !gone; ++i) {
            gone = !namesrv_->routes().liveInfo(kBrokerAddr);
            if (!gone)
                QTest::qWait(10);
        }
        QVERIFY(gone);
        QCOMPARE(call(routeRequest("T")).code, ResponseCode::kTopicNotExist);

        QCOMPARE(call(registerRequest(bytesOf(registerBody(5, {"T"}).toJson()))).code, ResponseCode::kSuccess);
        const RemotingCommand unregistered = call(RemotingCommand::createRequest(
            RequestCode::kUnregisterBroker,
            {{"brokerName", "broker-a"}, {"brokerAddr", kBrokerAddr}, {"clusterName", "DefaultCluster"}, {"brokerId", "0"}}));
        QCOMPARE(unregistered.code, ResponseCode::kSuccess);
        QCOMPARE(call(routeRequest("T")).code, ResponseCode::kTopicNotExist);
    }

    void unknownCodeIsNotSupported()
    {
        const RemotingCommand response = call(RemotingCommand::createRequest(4242));
        QCOMPARE(response.code, ResponseCode::kRequestCodeNotSupported);
        QCOMPARE(response.remark, std::optional<std::string>(" request type 4242 not supported"));
    }

    void secondControllerOnTheSamePortFails()
    {
        NamesrvConfig config;
        config.listenPort = namesrv_->localPort();
        NamesrvController other(config);
        std::string error;
        QVERIFY(!other.start(error));
        QVERIFY(!error.empty());
    }
};

QObject *createNamesrvControllerTest() { return new NamesrvControllerTest; }

#include "tst_namesrv_controller.moc"
