// The client's wire pieces without a broker: object-keyed admin bodies, UNIQ_KEY, batch bodies,
// GET_ACTIVITY_TOTALS bodies.

#include "broker/client/activity_totals.h"
#include "broker/client/admin_bodies.h"
#include "broker/client/mq_client_api.h"
#include "broker/client/uniq_key.h"
#include "broker/common/bytes.h"
#include "broker/common/message_id.h"
#include "test_support.h"

#include <unistd.h>

#include <chrono>

using namespace mqdesk;
using namespace mqdesk::client;

class ClientBodiesTest : public QObject
{
    Q_OBJECT

private slots:
    void topicStatsWithObjectKeys()
    {
        // The spec §8 example, as fastjson writes it.
        const std::string body =
            "{\"offsetTable\":{{\"brokerName\":\"broker-a\",\"queueId\":0,\"topic\":\"TopicTest\"}:{\"lastUpdateTimestamp\":1700000000005,\"maxOffset\":2,\"minOffset\":0},{\"brokerName\":\"broker-a\",\"queueId\":1,\"topic\":\"TopicTest\"}:{\"lastUpdateTimestamp\":0,\"maxOffset\":0,\"minOffset\":0}}}";
        TopicStatsTable table;
        std::string error;
        QVERIFY2(TopicStatsTable::fromJson(body, table, error), error.c_str());
        QCOMPARE(table.offsetTable.size(), size_t(2));
        const TopicOffset &q0 = table.offsetTable.at({"TopicTest", "broker-a", 0});
        QCOMPARE(q0.maxOffset, int64_t(2));
        QCOMPARE(q0.lastUpdateTimestamp, int64_t(1700000000005));
        QCOMPARE(table.totalMessages(), int64_t(2));
    }

    void consumeStatsWithObjectKeysAndStrictJson()
    {
        const std::string fastjson =
            "{\"consumeTps\":1.5,\"offsetTable\":{{\"brokerName\":\"broker-a\",\"queueId\":0,\"topic\":\"T\"}:{\"brokerOffset\":7,\"consumerOffset\":2,\"lastTimestamp\":1700000000005}}}";
        ConsumeStats stats;
        std::string error;
        QVERIFY2(ConsumeStats::fromJson(fastjson, stats, error), error.c_str());
        QCOMPARE(stats.consumeTps, 1.5);
        QCOMPARE(stats.totalLag(), int64_t(5));
        // A port that quotes the key object as a string reads the same.
        const std::string strict =
            "{\"consumeTps\":0.0,\"offsetTable\":{\"{\\\"brokerName\\\":\\\"b\\\",\\\"queueId\\\":3,\\\"topic\\\":\\\"T\\\"}\":{\"brokerOffset\":4,\"consumerOffset\":4}}}";
        QVERIFY2(ConsumeStats::fromJson(strict, stats, error), error.c_str());
        QCOMPARE(stats.offsetTable.begin()->first, (MessageQueue{"T", "b", 3}));
        QCOMPARE(stats.totalLag(), int64_t(0));
        // Strings holding braces are not keys.
        std::string out;
        QVERIFY(quoteObjectKeys("{\"a\":\"{x}\",\"b\":[{\"c\":1}]}", out, error));
        QCOMPARE(out, std::string("{\"a\":\"{x}\",\"b\":[{\"c\":1}]}"));
        QVERIFY(!ConsumeStats::fromJson("{\"offsetTable\":{{\"queueId\":\"x\"}:{}}}", stats, error));
        QVERIFY2(error.find("offsetTable[0].key.queueId") != std::string::npos, error.c_str());
        QVERIFY(!quoteObjectKeys("{\"offsetTable\":{{\"a\":1", out, error));
    }

    void allConsumerOffsetsWithBareIntegerKeys()
    {
        ConsumerOffsetTable table;
        std::string error;
        QVERIFY2(ConsumerOffsetTable::fromJson("{\"offsetTable\":{\"T@G\":{0:5,1:3}}}", table, error), error.c_str());
        QCOMPARE(table.offsetTable.at("T@G").at(1), int64_t(3));
    }

    void subscriptionGroupRoundTrip()
    {
        SubscriptionGroupConfig config;
        config.groupName = "G1";
        config.retryMaxTimes = 3;
        const std::string json = config.toJson();
        QVERIFY(json.starts_with("{\"brokerId\":0,\"consumeBroadcastEnable\":true"));
        SubscriptionGroupWrapper wrapper;
        std::string error;
        QVERIFY2(SubscriptionGroupWrapper::fromJson(
                     "{\"dataVersion\":{\"counter\":2,\"timestamp\":1},\"subscriptionGroupTable\":{\"G1\":" + json + "}}",
                     wrapper, error),
                 error.c_str());
        QVERIFY(wrapper.find("G1"));
        QCOMPARE(*wrapper.find("G1"), config);
    }

    void activityTotalsBodies()
    {
        ActivityTotals totals;
        std::string error;
        QVERIFY2(parseActivityTotals(R"({"bootTimestamp":1700000000000,"groups":{"G1":12,"G2":0},)"
                                     R"("timestamp":1700000041000,"topics":{"T":982113}})",
                                     totals, error),
                 error.c_str());
        QCOMPARE(totals.bootTimestamp, int64_t(1700000000000));
        QCOMPARE(totals.timestamp, int64_t(1700000041000));
        QCOMPARE(totals.groups.at("G1"), int64_t(12));
        QCOMPARE(totals.groups.size(), size_t(2));
        QCOMPARE(totals.topics.at("T"), int64_t(982113));

        // Bad bodies are refused naming the member.
        ActivityTotals bad;
        QVERIFY(!parseActivityTotals(R"({"groups":{"G1":"twelve"}})", bad, error));
        QVERIFY2(error.find("groups.G1") != std::string::npos, error.c_str());
        QVERIFY(!parseActivityTotals(R"({"topics":[1,2]})", bad, error));
        QVERIFY2(error.find("topics") != std::string::npos, error.c_str());
        QVERIFY(!parseActivityTotals("{\"timestamp\":", bad, error));
        QVERIFY(!error.empty());
    }

    void uniqKeyDecodes()
    {
        UniqKeyGenerator generator("10.1.2.3");
        const std::string first = generator.next();
        const std::string second = generator.next();
        QCOMPARE(first.size(), size_t(32));
        QCOMPARE(first.substr(0, 20), second.substr(0, 20)); // ip ‖ pid ‖ hash fixed
        const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count();
        const auto info = common::decodeUniqKey(first, now);
        QVERIFY(info);
        QCOMPARE(info->ipString(), std::string("10.1.2.3"));
        QCOMPARE(info->pid, static_cast<uint16_t>(::getpid()));
        const auto next = common::decodeUniqKey(second, now);
        QCOMPARE(static_cast<uint16_t>(next->counter - info->counter), uint16_t(1));
        // Decoding reconstructs the send time from the month start (a sanity bound, not timing).
        QVERIFY(std::llabs(info->approximateTimestamp - now) < 3600 * 1000);
    }

    void batchBodyLayout()
    {
        const std::vector<uint8_t> body = encodeBatchBody({{7, {'a', 'b'}, "K\001V"}, {0, {'c'}, ""}});
        QCOMPARE(body.size(), size_t(22 + 2 + 3 + 22 + 1));
        QCOMPARE(common::readInt32(body.data()), 27);
        QCOMPARE(common::readInt32(body.data() + 12), 7);
        QCOMPARE(common::readInt32(body.data() + 16), 2);
        QCOMPARE(common::readInt16(body.data() + 22), int16_t(3));
        QCOMPARE(common::readInt32(body.data() + 27), 23);
    }
};

QObject *createClientBodiesTest() { return new ClientBodiesTest; }

#include "tst_client_bodies.moc"
