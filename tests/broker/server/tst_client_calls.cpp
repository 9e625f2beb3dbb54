// What the RocketMQ Dashboard and mqadmin ask a broker about its clients and traffic: the fast
// (VIP) channel at the port − 2, requests the broker forwards to a consumer over its own
// connection (GET_CONSUMER_RUNNING_INFO, CONSUME_MESSAGE_DIRECTLY,
// INVOKE_BROKER_TO_GET_CONSUMER_STATUS), the per-topic and per-group statistics
// (VIEW_BROKER_STATS_DATA, consume TPS, topic put TPS) and the send answer's transactionId.

#include "admin_test_util.h"
#include "broker_test_util.h"

#include "broker/common/message_id.h"
#include "broker/remoting/net/processor_executor.h"
#include "broker/remoting/protocol/queue_tables.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/subscription_group_manager.h"
#include "broker/store/message_store.h"
#include "test_support.h"

#include <mutex>

using namespace mqdesk;
using mqdesk::remoting::RemotingCommand;
using mqdesk::remoting::RequestCode;
using mqdesk::remoting::ResponseCode;
using mqdesk::test::TestBroker;

namespace {

std::string withPort(const std::string &address, int port)
{
    return address.substr(0, address.rfind(':') + 1) + std::to_string(port);
}

int portOf(const std::string &address)
{
    return std::stoi(address.substr(address.rfind(':') + 1));
}

common::JsonValue parseBody(const RemotingCommand &command)
{
    return common::parseJson(test::bodyOf(command)).value;
}

// A consumer connection that answers what the broker forwards to it, as the Java client does.
class AnsweringConsumer
{
public:
    AnsweringConsumer()
    {
        const auto answer = [this](const remoting::RequestContext &, RemotingCommand request,
                                   remoting::Responder respond) {
            RemotingCommand response = RemotingCommand::createResponse(request, ResponseCode::kSuccess, {});
            std::string body;
            if (request.code == RequestCode::kGetConsumerRunningInfo)
                body = "{\"jstack\":\"main thread\",\"properties\":{\"consumeType\":\"CONSUME_PASSIVELY\"},\"subscriptionSet\":[]}";
            else if (request.code == RequestCode::kConsumeMessageDirectly)
                body = "{\"autoCommit\":true,\"consumeResult\":\"CR_SUCCESS\",\"order\":false,\"spentTimeMills\":1}";
            else
                body = "{\"messageQueueTable\":{{\"brokerName\":\"b\",\"queueId\":1,\"topic\":\"StatusTopic\"}:7}}";
            response.body.assign(body.begin(), body.end());
            {
                std::lock_guard lock(mutex);
                received.push_back(std::move(request));
            }
            respond(std::move(response));
        };
        for (int32_t code : {RequestCode::kGetConsumerRunningInfo, RequestCode::kConsumeMessageDirectly,
                             RequestCode::kGetConsumerStatusFromClient})
            client.registerProcessor(code, answer, executor);
    }

    std::vector<RemotingCommand> takeReceived()
    {
        std::lock_guard lock(mutex);
        return std::exchange(received, {});
    }

    remoting::ProcessorExecutor executor{"consumer"};
    remoting::RemotingClient client;
    std::mutex mutex;
    std::vector<RemotingCommand> received;
};

} // namespace

class ClientCallsTest : public QObject
{
    Q_OBJECT

private slots:
    void theFastChannelServesAtThePortMinusTwo()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        const std::string fast = withPort(broker.brokerAddress(), portOf(broker.brokerAddress()) - 2);
        // Sends and admin requests, as a Java client with its VIP channel on sends them.
        QCOMPARE(broker.callAt(fast, test::createTopic("FastTopic", 2)).code, ResponseCode::kSuccess);
        QCOMPARE(broker.callAt(fast, test::sendV2("FastTopic", 0, "over the fast channel")).code, ResponseCode::kSuccess);
        QTRY_COMPARE_WITH_TIMEOUT(broker.controller().store().maxOffsetInQueue("FastTopic", 0), int64_t{1}, test::kPatienceMs);
        QCOMPARE(broker.controller().brokerConfig().fastListenPort, portOf(broker.brokerAddress()) - 2);

        TestBroker without([](server::BrokerSettings &settings) { settings.broker.fastListenPort = -1; });
        QVERIFY2(without.start(error), error.c_str());
        QCOMPARE(without.controller().brokerConfig().fastListenPort, -1);

        // A fast port that is taken stops the start with an error naming the key, as Java's bind does.
        TestBroker clash([&](server::BrokerSettings &settings) {
            settings.broker.fastListenPort = portOf(broker.brokerAddress());
        });
        QVERIFY(!clash.start(error));
        QVERIFY2(error.find("fastListenPort") != std::string::npos, error.c_str());
    }

    void sendAnswersTheMessagesUniqKeyAsTransactionId()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(test::createTopic("TxIdTopic", 1)).code, ResponseCode::kSuccess);
        const RemotingCommand response = broker.call(
            test::sendV2("TxIdTopic", 0, "x", std::string("UNIQ_KEY\001AC11000100002A9F0000000000000001\002")));
        QCOMPARE(response.code, ResponseCode::kSuccess);
        QCOMPARE(response.extFields.value("transactionId"), std::string("AC11000100002A9F0000000000000001"));
    }

    void brokerStatsCountPutsAndGetsPerTopicAndGroup()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(test::createTopic("StatsTopic", 2)).code, ResponseCode::kSuccess);
        for (int i = 0; i < 5; ++i)
            QCOMPARE(broker.call(test::sendV2("StatsTopic", i % 2, "m" + std::to_string(i))).code, ResponseCode::kSuccess);
        QTRY_COMPARE_WITH_TIMEOUT(broker.controller().store().maxOffsetInQueue("StatsTopic", 0), int64_t{3}, test::kPatienceMs);
        const RemotingCommand pulled = broker.call(test::pullRequest("StatsGroup", "StatsTopic", 0, 0));
        QCOMPARE(pulled.code, ResponseCode::kSuccess);
        QCOMPARE(test::decodeRecords(pulled.body).size(), size_t{3});

        const auto view = [&](const std::string &name, const std::string &key) {
            return broker.call(test::request(RequestCode::kViewBrokerStatsData, {{"statsName", name}, {"statsKey", key}}));
        };
        const RemotingCommand puts = view("TOPIC_PUT_NUMS", "StatsTopic");
        QCOMPARE(puts.code, ResponseCode::kSuccess);
        const common::JsonValue putStats = parseBody(puts);
        for (const char *window : {"statsMinute", "statsHour", "statsDay"}) {
            const common::JsonValue *stats = putStats.find(window);
            QVERIFY2(stats, test::bodyOf(puts).c_str());
            QCOMPARE(stats->find("sum")->asInteger(), int64_t{5});
            QCOMPARE(stats->find("avgpt")->asDouble(), 1.0); // one message per put
        }
        QVERIFY(putStats.find("statsMinute")->find("tps")->asDouble() > 0);
        QCOMPARE(parseBody(view("GROUP_GET_NUMS", "StatsTopic@StatsGroup")).find("statsMinute")->find("sum")->asInteger(),
                 int64_t{3});
        QCOMPARE(parseBody(view("QUEUE_PUT_NUMS", "StatsTopic@1")).find("statsDay")->find("sum")->asInteger(), int64_t{2});
        QVERIFY(parseBody(view("TOPIC_PUT_SIZE", "StatsTopic")).find("statsDay")->find("sum")->asInteger() > 5);
        QCOMPARE(parseBody(view("BROKER_PUT_NUMS", "DefaultCluster")).find("statsDay")->find("sum")->asInteger(), int64_t{5});

        const RemotingCommand unknown = view("TOPIC_PUT_NUMS", "NoSuchTopic");
        QCOMPARE(unknown.code, ResponseCode::kSystemError);
        QCOMPARE(unknown.remark.value_or(""), std::string("The stats <TOPIC_PUT_NUMS> <NoSuchTopic> not exist"));
        QCOMPARE(view("NO_SUCH_STATS", "StatsTopic").code, ResponseCode::kSystemError);

        // The group's consume TPS and the topic's put TPS come from the same counters.
        QCOMPARE(broker.call(test::commitOffset("StatsGroup", "StatsTopic", 0, 3)).code, ResponseCode::kSuccess);
        const RemotingCommand consume = broker.call(test::request(RequestCode::kGetConsumeStats,
                                                                  {{"consumerGroup", "StatsGroup"}, {"topic", "StatsTopic"}}));
        remoting::ConsumeStats consumeStats;
        QVERIFY2(remoting::ConsumeStats::fromJson(test::bodyOf(consume), consumeStats, error), error.c_str());
        QVERIFY2(consumeStats.consumeTps > 0, test::bodyOf(consume).c_str());
        const RemotingCommand topic = broker.call(test::request(RequestCode::kGetTopicStatsInfo, {{"topic", "StatsTopic"}}));
        remoting::TopicStatsTable topicStats;
        QVERIFY2(remoting::TopicStatsTable::fromJson(test::bodyOf(topic), topicStats, error), error.c_str());
        QVERIFY2(topicStats.topicPutTps > 0, test::bodyOf(topic).c_str());

        // A deleted topic's statistics go with it.
        QCOMPARE(broker.call(test::request(RequestCode::kDeleteTopicInBroker, {{"topic", "StatsTopic"}})).code,
                 ResponseCode::kSuccess);
        QCOMPARE(view("TOPIC_PUT_NUMS", "StatsTopic").code, ResponseCode::kSystemError);
    }

    // Java 5.x's default (useServerSideResetOffset): the broker assigns the offsets, refuses the
    // consumers' commits of their old position, and answers their next pull PULL_OFFSET_MOVED.
    void aResetOnTheBrokerMovesTheNextPull()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(test::createTopic("ResetTopic", 2)).code, ResponseCode::kSuccess);
        QCOMPARE(broker.call(test::heartbeat("10.0.0.7@r", "ResetGroup", "ResetTopic")).code, ResponseCode::kSuccess);
        for (int queue = 0; queue < 2; ++queue) {
            for (int i = 0; i < 3; ++i)
                QCOMPARE(broker.call(test::sendV2("ResetTopic", queue, "r")).code, ResponseCode::kSuccess);
            QCOMPARE(broker.call(test::commitOffset("ResetGroup", "ResetTopic", queue, 3)).code, ResponseCode::kSuccess);
        }
        QTRY_COMPARE_WITH_TIMEOUT(broker.controller().store().maxOffsetInQueue("ResetTopic", 1), int64_t{3}, test::kPatienceMs);
        const auto reset = [&](remoting::ExtFields fields) {
            fields.set("topic", fields.value("topic").empty() ? "ResetTopic" : fields.value("topic"));
            fields.set("isForce", "true");
            return broker.call(test::request(RequestCode::kInvokeBrokerToResetOffset, std::move(fields)));
        };
        const RemotingCommand toStart = reset({{"group", "ResetGroup"}, {"timestamp", "0"}});
        QCOMPARE(toStart.code, ResponseCode::kSuccess);
        QCOMPARE(test::bodyOf(toStart),
                 std::string("{\"offsetTable\":{{\"brokerName\":\"broker-a\",\"queueId\":0,\"topic\":\"ResetTopic\"}:0,"
                             "{\"brokerName\":\"broker-a\",\"queueId\":1,\"topic\":\"ResetTopic\"}:0}}"));
        QCOMPARE(broker.controller().offsets().queryOffset("ResetGroup", "ResetTopic", 0), int64_t{0});

        // The consumer still commits its old position: refused until its next pull.
        QCOMPARE(broker.call(test::commitOffset("ResetGroup", "ResetTopic", 0, 3)).code, ResponseCode::kSuccess);
        QCOMPARE(broker.controller().offsets().queryOffset("ResetGroup", "ResetTopic", 0), int64_t{0});
        const RemotingCommand moved = broker.call(test::pullRequest("ResetGroup", "ResetTopic", 0, 3));
        QCOMPARE(moved.code, ResponseCode::kPullOffsetMoved);
        QCOMPARE(moved.extFields.value("nextBeginOffset"), std::string("0"));
        const RemotingCommand again = broker.call(test::pullRequest("ResetGroup", "ResetTopic", 0, 0));
        QCOMPARE(again.code, ResponseCode::kSuccess);
        QCOMPARE(test::decodeRecords(again.body).size(), size_t{3});
        QCOMPARE(broker.call(test::commitOffset("ResetGroup", "ResetTopic", 0, 2)).code, ResponseCode::kSuccess);
        QCOMPARE(broker.controller().offsets().queryOffset("ResetGroup", "ResetTopic", 0), int64_t{2});

        // One queue to an offset; the other queue keeps its own.
        QCOMPARE(reset({{"group", "ResetGroup"}, {"timestamp", "-1"}, {"queueId", "1"}, {"offset", "2"}}).code,
                 ResponseCode::kSuccess);
        QCOMPARE(broker.controller().offsets().queryOffset("ResetGroup", "ResetTopic", 1), int64_t{2});
        QCOMPARE(broker.controller().offsets().queryOffset("ResetGroup", "ResetTopic", 0), int64_t{2});
        const RemotingCommand outside = reset({{"group", "ResetGroup"}, {"timestamp", "-1"}, {"queueId", "1"}, {"offset", "99"}});
        QCOMPARE(outside.code, ResponseCode::kSystemError);
        QCOMPARE(outside.remark.value_or(""), std::string("Target offset 99 not in consume queue range [0-3]"));

        const RemotingCommand noGroup = reset({{"group", "NoSuchGroup"}, {"timestamp", "-1"}});
        QCOMPARE(noGroup.code, ResponseCode::kSubscriptionGroupNotExist);
        QCOMPARE(noGroup.remark.value_or(""), std::string("Group NoSuchGroup does not exist"));
        const RemotingCommand noTopic = reset({{"group", "ResetGroup"}, {"timestamp", "-1"}, {"topic", "NoSuchTopic"}});
        QCOMPARE(noTopic.code, ResponseCode::kTopicNotExist);
        QCOMPARE(noTopic.remark.value_or(""), std::string("Topic NoSuchTopic does not exist"));
    }

    // The group and producer queries mqadmin 5.x and the Dashboard send besides the 4.x ones.
    void groupAndProducerQueriesOfTheToolsAreAnswered()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(test::createTopic("QueryTopic", 1)).code, ResponseCode::kSuccess);
        QCOMPARE(broker.call(test::heartbeat("10.0.0.5@q", "QueryGroup", "QueryTopic", "QueryProducers")).code,
                 ResponseCode::kSuccess);
        QCOMPARE(broker.call(test::commitOffset("QueryGroup", "QueryTopic", 0, 0)).code, ResponseCode::kSuccess);

        const RemotingCommand config =
            broker.call(test::request(RequestCode::kGetSubscriptiongroupConfig, {{"group", "QueryGroup"}}));
        QCOMPARE(config.code, ResponseCode::kSuccess);
        QCOMPARE(parseBody(config).find("groupName")->asString(), std::string("QueryGroup"));
        const RemotingCommand noConfig =
            broker.call(test::request(RequestCode::kGetSubscriptiongroupConfig, {{"group", "NoGroup"}}));
        QCOMPARE(noConfig.code, ResponseCode::kSubscriptionGroupNotExist);
        QCOMPARE(noConfig.remark.value_or(""), std::string("No group in this broker"));

        const RemotingCommand topics = broker.call(test::request(RequestCode::kQueryTopicsByConsumer, {{"group", "QueryGroup"}}));
        QCOMPARE(topics.code, ResponseCode::kSuccess);
        QVERIFY2(test::bodyOf(topics).find("\"topicList\":[\"QueryTopic\"]") != std::string::npos, test::bodyOf(topics).c_str());
        const RemotingCommand subscription = broker.call(
            test::request(RequestCode::kQuerySubscriptionByConsumer, {{"group", "QueryGroup"}, {"topic", "QueryTopic"}}));
        const common::JsonValue subscriptionBody = parseBody(subscription);
        const common::JsonValue *subscriptionData = subscriptionBody.find("subscriptionData");
        QVERIFY2(subscriptionData && subscriptionData->find("subString"), test::bodyOf(subscription).c_str());
        QCOMPARE(subscriptionData->find("subString")->asString(), std::string("*"));

        const RemotingCommand producers = broker.call(test::request(RequestCode::kGetAllProducerInfo));
        QCOMPARE(producers.code, ResponseCode::kSuccess);
        const common::JsonValue producerInfo = parseBody(producers);
        const common::JsonValue *data = producerInfo.find("data");
        QVERIFY2(data, test::bodyOf(producers).c_str());
        const common::JsonValue *group = data->find("QueryProducers");
        QVERIFY2(group && group->isArray() && group->asArray().size() == 1, test::bodyOf(producers).c_str());
        QCOMPARE(group->asArray()[0].find("clientId")->asString(), std::string("10.0.0.5@q"));

        RemotingCommand list = test::request(RequestCode::kUpdateAndCreateSubscriptiongroupList);
        const std::string body = "{\"groupConfigList\":[{\"groupName\":\"ListA\"},{\"groupName\":\"ListB\",\"retryMaxTimes\":3}]}";
        list.body.assign(body.begin(), body.end());
        QCOMPARE(broker.call(std::move(list)).code, ResponseCode::kSuccess);
        QCOMPARE(broker.controller().subscriptionGroups().findSubscriptionGroupConfig("ListB")->retryMaxTimes, 3);
        QVERIFY(broker.controller().subscriptionGroups().findSubscriptionGroupConfig("ListA").has_value());
        RemotingCommand bad = test::request(RequestCode::kUpdateAndCreateSubscriptiongroupList);
        const std::string badBody = "{\"groupConfigList\":[{\"groupName\":\"Fine\"},{\"groupName\":\"bad/name\"}]}";
        bad.body.assign(badBody.begin(), badBody.end());
        QCOMPARE(broker.call(std::move(bad)).code, ResponseCode::kSystemError);
        QVERIFY(!broker.controller().subscriptionGroups().findSubscriptionGroupConfig("Fine").has_value());
    }

    void runningInfoAndDirectConsumptionAreForwardedToTheClient()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(test::createTopic("CallTopic", 1)).code, ResponseCode::kSuccess);
        const RemotingCommand sent = broker.call(test::sendV2("CallTopic", 0, "consume me"));
        QCOMPARE(sent.code, ResponseCode::kSuccess);
        const std::string msgId = sent.extFields.value("msgId");

        AnsweringConsumer consumer;
        QVERIFY(consumer.client.invokeSync(broker.brokerAddress(), test::heartbeat("10.0.0.9@c1", "CallGroup", "CallTopic"),
                                           std::chrono::milliseconds(5000)).ok());

        const RemotingCommand info = broker.call(test::request(
            RequestCode::kGetConsumerRunningInfo,
            {{"consumerGroup", "CallGroup"}, {"clientId", "10.0.0.9@c1"}, {"jstackEnable", "true"}}));
        QCOMPARE(info.code, ResponseCode::kSuccess);
        QCOMPARE(parseBody(info).find("jstack")->asString(), std::string("main thread"));

        const RemotingCommand direct = broker.call(test::request(
            RequestCode::kConsumeMessageDirectly,
            {{"consumerGroup", "CallGroup"}, {"clientId", "10.0.0.9@c1"}, {"msgId", msgId}, {"topic", "CallTopic"}}));
        QCOMPARE(direct.code, ResponseCode::kSuccess);
        QCOMPARE(parseBody(direct).find("consumeResult")->asString(), std::string("CR_SUCCESS"));

        const std::vector<RemotingCommand> received = consumer.takeReceived();
        QCOMPARE(received.size(), size_t{2});
        QCOMPARE(received[0].extFields.value("jstackEnable"), std::string("true"));
        // The message travels as its stored record, with the broker's name added.
        const std::vector<common::StoredMessage> records = test::decodeRecords(received[1].body);
        QCOMPARE(records.size(), size_t{1});
        QCOMPARE(std::string(records[0].body.begin(), records[0].body.end()), std::string("consume me"));
        QCOMPARE(received[1].extFields.value("brokerName"), broker.controller().brokerConfig().brokerName);

        // Another topic named beside the message's id consumes nothing.
        const RemotingCommand wrongTopic = broker.call(test::request(
            RequestCode::kConsumeMessageDirectly,
            {{"consumerGroup", "CallGroup"}, {"clientId", "10.0.0.9@c1"}, {"msgId", msgId}, {"topic", "OtherTopic"}}));
        QCOMPARE(wrongTopic.code, ResponseCode::kSystemError);
        QVERIFY(consumer.takeReceived().empty());

        // INVOKE_BROKER_TO_GET_CONSUMER_STATUS asks every client and gathers their offsets.
        const RemotingCommand status = broker.call(test::request(
            RequestCode::kInvokeBrokerToGetConsumerStatus, {{"topic", "StatusTopic"}, {"group", "CallGroup"}}));
        QCOMPARE(status.code, ResponseCode::kSuccess);
        const std::string statusBody = test::bodyOf(status);
        QVERIFY2(statusBody.find("\"10.0.0.9@c1\":{{\"brokerName\":\"b\",\"queueId\":1,\"topic\":\"StatusTopic\"}:7}")
                     != std::string::npos,
                 statusBody.c_str());

        // A client that is not there: Java's remark.
        const RemotingCommand absent = broker.call(test::request(
            RequestCode::kGetConsumerRunningInfo, {{"consumerGroup", "CallGroup"}, {"clientId", "nobody"}}));
        QCOMPARE(absent.code, ResponseCode::kSystemError);
        QCOMPARE(absent.remark.value_or(""), std::string("The Consumer <CallGroup> <nobody> not online"));
        const RemotingCommand noGroup = broker.call(test::request(
            RequestCode::kInvokeBrokerToGetConsumerStatus, {{"topic", "StatusTopic"}, {"group", "NoGroup"}}));
        QCOMPARE(noGroup.code, ResponseCode::kSystemError);
        QCOMPARE(noGroup.remark.value_or(""), std::string("No Any Consumer online in the consumer group: [NoGroup]"));
    }
};

QObject *createClientCallsTest()
{
    return new ClientCallsTest;
}

#include "tst_client_calls.moc"
