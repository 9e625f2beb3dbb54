// Message traces as RocketMQ's clients write them: every context type and field count the Java
// client's TraceDataEncoder has written over the versions, damaged contexts skipped, a message's
// trace put together (each consume matched with its end by request id), and
// AdminClient::queryMessageTrace over a real in-process broker whose trace topic holds trace
// messages keyed as the Java client keys them.

#include "../server/broker_test_util.h"

#include "broker/client/admin_client.h"
#include "broker/client/message_trace.h"
#include "broker/client/producer.h"
#include "test_support.h"

#include <QElapsedTimer>
#include <QThread>

using namespace mqdesk;
using namespace mqdesk::client;
using mqdesk::test::TestBroker;

namespace {

// One context as TraceDataEncoder writes it: fields joined by 0x01, ended by 0x02.
std::string context(std::initializer_list<std::string> fields)
{
    std::string text;
    for (const std::string &field : fields)
        text += (text.empty() ? "" : "\x01") + field;
    return text + '\x02';
}

std::string pub(const std::string &msgId, int64_t time, int costMs, bool success = true)
{
    return context({"Pub", std::to_string(time), "DefaultRegion", "PG_TRACE", "TraceTopic", msgId, "TagA", "key-1",
                    "127.0.0.1:10911", "11", std::to_string(costMs), "0", "7F00000100002A9F0000000000000000",
                    success ? "true" : "false", "127.0.0.1@12345"});
}

std::string subBefore(const std::string &msgId, const std::string &group, const std::string &requestId, int64_t time,
                      int retries)
{
    return context({"SubBefore", std::to_string(time), "DefaultRegion", group, requestId, msgId,
                    std::to_string(retries), "key-1"});
}

std::string subAfter(const std::string &msgId, const std::string &requestId, int costMs, bool success, int code,
                     int64_t time)
{
    return context({"SubAfter", requestId, msgId, std::to_string(costMs), success ? "true" : "false", "key-1",
                    std::to_string(code), std::to_string(time)});
}

} // namespace

class MessageTraceTest : public QObject
{
    Q_OBJECT

private slots:
    void decodesEveryContextType()
    {
        const std::string body = pub("M1", 1000, 3)
                                 + context({"EndTransaction", "1010", "R", "PG", "T", "M1", "tag", "k", "host:1", "1",
                                            "tx-1", "COMMIT_MESSAGE", "true"})
                                 + subBefore("M1", "CG", "req-1", 1020, 0) + subAfter("M1", "req-1", 5, true, 0, 1025);
        const std::vector<TraceEvent> events = decodeTraceData(body);
        QCOMPARE(events.size(), size_t(4));
        QCOMPARE(events[0].type, TraceType::Pub);
        QCOMPARE(events[0].timestamp, int64_t(1000));
        QCOMPARE(events[0].group, std::string("PG_TRACE"));
        QCOMPARE(events[0].topic, std::string("TraceTopic"));
        QCOMPARE(events[0].tags, std::string("TagA"));
        QCOMPARE(events[0].storeHost, std::string("127.0.0.1:10911"));
        QCOMPARE(events[0].bodyLength, 11);
        QCOMPARE(events[0].costTimeMs, 3);
        QCOMPARE(events[0].offsetMsgId, std::string("7F00000100002A9F0000000000000000"));
        QVERIFY(events[0].success);
        QCOMPARE(events[0].clientHost, std::string("127.0.0.1@12345"));
        QCOMPARE(events[1].type, TraceType::EndTransaction);
        QCOMPARE(events[1].transactionId, std::string("tx-1"));
        QCOMPARE(events[1].transactionState, std::string("COMMIT_MESSAGE"));
        QVERIFY(events[1].fromTransactionCheck);
        QCOMPARE(events[1].messageType, 1);
        QCOMPARE(events[2].type, TraceType::SubBefore);
        QCOMPARE(events[2].requestId, std::string("req-1"));
        QCOMPARE(events[2].group, std::string("CG"));
        QCOMPARE(events[3].type, TraceType::SubAfter);
        QCOMPARE(events[3].costTimeMs, 5);
        QCOMPARE(events[3].timestamp, int64_t(1025));
    }

    // Older clients wrote fewer fields: Pub without offsetMsgId and clientHost, SubAfter without
    // contextCode and time.
    void decodesOlderClientsFields()
    {
        const std::vector<TraceEvent> events = decodeTraceData(
            context({"Pub", "5", "R", "PG", "T", "M", "", "", "h:1", "2", "1", "3", "false"})
            + context({"Pub", "6", "R", "PG", "T", "M", "", "", "h:1", "2", "1", "0", "OFFSET", "true"})
            + context({"SubAfter", "req", "M", "9", "false", ""}));
        QCOMPARE(events.size(), size_t(3));
        QVERIFY(!events[0].success);
        QCOMPARE(events[0].messageType, 3);
        QCOMPARE(events[1].offsetMsgId, std::string("OFFSET"));
        QVERIFY(events[1].success);
        QCOMPARE(events[2].costTimeMs, 9);
        QCOMPARE(events[2].timestamp, int64_t(0));
    }

    void skipsDamagedContexts()
    {
        const std::vector<TraceEvent> events = decodeTraceData(
            context({"Pub", "not-a-time", "R", "PG", "T", "M", "", "", "h", "2", "1", "0", "true"}) // bad number
            + context({"Sub", "1"})                                                             // unknown type
            + context({"SubBefore", "1", "R", "CG"})                                            // too few fields
            + std::string("\x02\x02\x01\x01\x02") + subBefore("M", "CG", "r", 7, 2)                 // empty, then good
            + std::string("SubBefore\x01") /* cut short, no terminator */);
        QCOMPARE(events.size(), size_t(1));
        QCOMPARE(events[0].retryTimes, 2);
        QVERIFY(decodeTraceData("").empty());
        QVERIFY(decodeTraceData(std::string(1000, '\x01')).empty());
    }

    void assemblesOneMessagesTrace()
    {
        const std::vector<TraceEvent> events =
            decodeTraceData(pub("M1", 1000, 2) + pub("OTHER", 900, 1) + subBefore("M1", "CG-B", "r2", 1100, 0)
                            + subBefore("M1", "CG-A", "r3", 1300, 1) + subAfter("M1", "r3", 8, true, 0, 1308)
                            + subBefore("M1", "CG-A", "r1", 1050, 0) + subAfter("M1", "r1", 4, false, 4, 1054)
                            + subAfter("OTHER", "r2", 1, true, 0, 1101));
        const MessageTrace trace = assembleMessageTrace(events, "M1");
        QVERIFY(trace.publish.has_value());
        QCOMPARE(trace.publish->timestamp, int64_t(1000));
        QCOMPARE(trace.consumes.size(), size_t(3));
        // CG-A's two attempts in time order: the first failed (FAILED), the retry succeeded.
        QCOMPARE(trace.consumes[0].group, std::string("CG-A"));
        QCOMPARE(trace.consumes[0].beginTimestamp, int64_t(1050));
        QVERIFY(trace.consumes[0].finished);
        QVERIFY(!trace.consumes[0].success);
        QCOMPARE(consumeReturnTypeName(trace.consumes[0].contextCode), std::string("FAILED"));
        QCOMPARE(trace.consumes[1].retryTimes, 1);
        QVERIFY(trace.consumes[1].success);
        QCOMPARE(trace.consumes[1].costTimeMs, 8);
        // CG-B's SubAfter was about another message: still running as far as M1's trace knows.
        QCOMPARE(trace.consumes[2].group, std::string("CG-B"));
        QVERIFY(!trace.consumes[2].finished);
        QVERIFY(assembleMessageTrace(events, "NOBODY").empty());
    }

    // The Java client sends trace messages to the trace topic keyed by the traced msgId and keys;
    // the console finds them by that key.
    void queriesTheTraceTopicOfARealBroker()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        ClientConfig config;
        config.namesrvAddr = broker.namesrvAddress();
        AdminClient admin(config);

        // Before any client traced anything there is no trace topic: an empty trace, no error.
        Result<MessageTrace> none = admin.queryMessageTrace("0A00000000002A9F0000000000000001");
        QVERIFY2(none.ok, none.error.c_str());
        QVERIFY(none.value.empty());

        Producer producer(config, ProducerOptions{.group = "PG_TRACE"});
        QVERIFY(producer.start().ok);
        Message traced;
        traced.topic = "TraceTopic";
        traced.keys = {"key-1"};
        traced.setBody("hello trace");
        Result<SendResult> sent = producer.send(traced);
        QVERIFY2(sent.ok, sent.error.c_str());
        const std::string msgId = sent.value.uniqKey; // the id clients trace by (Java: SendResult.getMsgId())

        auto sendTrace = [&](const std::string &body) {
            Message trace;
            trace.topic = kDefaultTraceTopic;
            trace.keys = {msgId, "key-1"};
            trace.setBody(body);
            Result<SendResult> result = producer.send(trace);
            QVERIFY2(result.ok, result.error.c_str());
        };
        sendTrace(pub(msgId, 1000, 3));
        sendTrace(subBefore(msgId, "CG1", "r1", 1010, 0) + subAfter(msgId, "r1", 2, true, 0, 1012));
        sendTrace(subBefore(msgId, "CG2", "r2", 1011, 0));

        // The index is built by the dispatcher, just after the put.
        QElapsedTimer timer;
        timer.start();
        Result<MessageTrace> trace;
        do {
            trace = admin.queryMessageTrace(msgId);
            QVERIFY2(trace.ok, trace.error.c_str());
            if (trace.value.publish && trace.value.consumes.size() == 2)
                break;
            QThread::msleep(50);
        } while (timer.elapsed() < 10000);
        QVERIFY(trace.value.publish.has_value());
        QCOMPARE(trace.value.publish->costTimeMs, 3);
        QCOMPARE(trace.value.consumes.size(), size_t(2));
        QCOMPARE(trace.value.consumes[0].group, std::string("CG1"));
        QVERIFY(trace.value.consumes[0].finished);
        QCOMPARE(trace.value.consumes[1].group, std::string("CG2"));
        QVERIFY(!trace.value.consumes[1].finished);
        producer.shutdown();
    }
};

QObject *createMessageTraceTest() { return new MessageTraceTest; }

#include "tst_message_trace.moc"
