// The bodies keyed by a MessageQueue (remoting/protocol/queue_tables): what the broker writes is
// fastjson's inline-object keys byte for byte, and what it writes reads back as the same table —
// also with names that need escaping — while a Java broker's 4.9.8 body without pullOffset reads.

#include "test_support.h"

#include "broker/remoting/protocol/consumer_running_info.h"
#include "broker/remoting/protocol/queue_tables.h"

#include <QFile>

#include <string>

using namespace mqdesk;
using namespace mqdesk::remoting;

class QueueTablesTest : public QObject
{
    Q_OBJECT

private slots:
    void topicStatsAreWrittenAsFastjsonDoes()
    {
        TopicStatsTable table;
        table.offsetTable[{"T", "broker-a", 1}] = {0, 3, 1700000000123};
        table.offsetTable[{"T", "broker-a", 0}] = {1, 2, 0};
        QCOMPARE(table.toJson(),
                 std::string(R"({"offsetTable":{{"brokerName":"broker-a","queueId":0,"topic":"T"}:)"
                             R"({"lastUpdateTimestamp":0,"maxOffset":2,"minOffset":1},)"
                             R"({"brokerName":"broker-a","queueId":1,"topic":"T"}:)"
                             R"({"lastUpdateTimestamp":1700000000123,"maxOffset":3,"minOffset":0}},"topicPutTps":0.0})"));
        TopicStatsTable read;
        std::string error;
        QVERIFY2(TopicStatsTable::fromJson(table.toJson(), read, error), error.c_str());
        QCOMPARE(read.offsetTable.size(), size_t{2});
        QCOMPARE(read.offsetTable.at({"T", "broker-a", 1}).lastUpdateTimestamp, int64_t{1700000000123});
        QCOMPARE(read.totalMessages(), int64_t{4});
    }

    void consumeStatsRoundTripWithEscapedNames()
    {
        ConsumeStats stats;
        stats.consumeTps = 12.5;
        const MessageQueue odd{"T\"quoted\\", "broker {b}", 7};
        stats.offsetTable[odd] = {10, 4, 1234, 6};
        stats.offsetTable[{"A", "b", 0}] = {3, 3, 0, 3};
        const std::string body = stats.toJson();
        QVERIFY2(body.starts_with(R"({"consumeTps":12.5,"offsetTable":{{"brokerName":"b","queueId":0,"topic":"A"}:)"),
                 body.c_str());
        ConsumeStats read;
        std::string error;
        QVERIFY2(ConsumeStats::fromJson(body, read, error), error.c_str());
        QCOMPARE(read.consumeTps, 12.5);
        QCOMPARE(read.offsetTable.size(), size_t{2});
        const OffsetWrapper &wrapper = read.offsetTable.at(odd);
        QCOMPARE(wrapper.brokerOffset, int64_t{10});
        QCOMPARE(wrapper.consumerOffset, int64_t{4});
        QCOMPARE(wrapper.lastTimestamp, int64_t{1234});
        QCOMPARE(wrapper.pullOffset, int64_t{6});
        QCOMPARE(read.totalLag(), int64_t{6});
    }

    void javaFourNineBodyWithoutPullOffsetReads()
    {
        const std::string java = R"({"consumeTps":0.0,"offsetTable":{{"brokerName":"broker-a","queueId":0,)"
                                 R"("topic":"TopicTest"}:{"brokerOffset":250,"consumerOffset":200,"lastTimestamp":1}}})";
        ConsumeStats read;
        std::string error;
        QVERIFY2(ConsumeStats::fromJson(java, read, error), error.c_str());
        QCOMPARE(read.offsetTable.at({"TopicTest", "broker-a", 0}).pullOffset, int64_t{0});
        QCOMPARE(read.totalLag(), int64_t{50});
    }

    // What the gRPC endpoint writes for a 5.x client (broker/grpc/client_calls.cpp) must read back
    // whole: a Java 5.3.3 consumer's running info, written again, reads as the same info.
    void consumerRunningInfoRoundTripsAJavaClientsInfo()
    {
        QFile sample(QStringLiteral(MQDESK_PROJECT_FIXTURES_DIR "/consumer-running-info-java-5.3.3.json"));
        QVERIFY(sample.open(QIODevice::ReadOnly));
        const std::string java = sample.readAll().toStdString();
        ConsumerRunningInfo first;
        std::string error;
        QVERIFY2(ConsumerRunningInfo::fromJson(java, first, error), error.c_str());
        QVERIFY(!first.queues.empty() && !first.subscriptions.empty() && !first.statusTable.empty());
        first.jstack = "\"main\" at java.lang.Thread.run(Thread.java:833)\n";
        const std::string written = first.toJson();
        QVERIFY2(written.starts_with(R"({"jstack":"\"main\" at )"), written.c_str());
        ConsumerRunningInfo again;
        QVERIFY2(ConsumerRunningInfo::fromJson(written, again, error), (error + " in " + written).c_str());
        QCOMPARE(again.jstack, first.jstack);
        QCOMPARE(again.properties, first.properties);
        QCOMPARE(again.subscriptions.size(), first.subscriptions.size());
        QCOMPARE(again.subscriptions.front().topic, first.subscriptions.front().topic);
        QCOMPARE(again.subscriptions.front().subString, first.subscriptions.front().subString);
        QCOMPARE(again.queues.size(), first.queues.size());
        const auto &[queue, info] = *first.queues.begin();
        QCOMPARE(again.queues.at(queue).commitOffset, info.commitOffset);
        QCOMPARE(again.queues.at(queue).lastPullTimestamp, info.lastPullTimestamp);
        QCOMPARE(again.statusTable.begin()->second.consumeOKTPS, first.statusTable.begin()->second.consumeOKTPS);

        ConsumeMessageDirectlyResult result;
        result.consumeResult = "CR_LATER";
        result.remark = "from gRPC client";
        ConsumeMessageDirectlyResult read;
        QVERIFY2(ConsumeMessageDirectlyResult::fromJson(result.toJson(), read, error), error.c_str());
        QCOMPARE(read.consumeResult, std::string("CR_LATER"));
        QCOMPARE(read.remark, result.remark);
        QVERIFY(read.autoCommit && !read.order);
    }

    void resetOffsetBodyRoundTripAndBadValues()
    {
        ResetOffsetBody body;
        body.offsetTable[{"T", "b", 0}] = 42;
        body.offsetTable[{"T", "b", 1}] = 0;
        QCOMPARE(body.toJson(), std::string(R"({"offsetTable":{{"brokerName":"b","queueId":0,"topic":"T"}:42,)"
                                            R"({"brokerName":"b","queueId":1,"topic":"T"}:0}})"));
        ResetOffsetBody read;
        std::string error;
        QVERIFY2(ResetOffsetBody::fromJson(body.toJson(), read, error), error.c_str());
        QCOMPARE(read.offsetTable, body.offsetTable);

        QVERIFY(!ResetOffsetBody::fromJson(R"({"offsetTable":{{"brokerName":"b","queueId":0,"topic":"T"}:"x"}})", read,
                                           error));
        QVERIFY2(error.find("offsetTable[0].value") != std::string::npos, error.c_str());
        QVERIFY(!ResetOffsetBody::fromJson(R"({"offsetTable":{{"brokerName":"b","queueId":"zero","topic":"T"}:1}})",
                                           read, error));
        QVERIFY2(error.find("offsetTable[0].key.queueId") != std::string::npos, error.c_str());
        QVERIFY(!ResetOffsetBody::fromJson(R"({"offsetTable":{{"brokerName":"b")", read, error));
    }
};

QObject *createQueueTablesTest()
{
    return new QueueTablesTest;
}

#include "tst_queue_tables.moc"
