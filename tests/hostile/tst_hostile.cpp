// The hostile-client suite (issue 12): one real mqdesk-broker, a raw socket client written here,
// one case per class of bad input — bytes trusted as stored data, names that walk out of the
// store, frames that make the io thread work without bound, requests that grow memory or files.
// After each case another client is answered, every acknowledged message is
// pullable, nothing exists outside the store's folder and the log stays bounded; the suite ends
// with the same checks after a clean restart and after SIGKILL + restart.

#include "hostile_fixture.h"

#include "broker/common/bytes.h"

#include <sys/inotify.h>

#include <thread>

using namespace mqdesk;
using namespace mqdesk::hostile;

namespace {

constexpr const char *kTopic = "HostileTopic";
// At most this many log lines per case: a fault repeating without bound (the dispatcher's
// 1,200 lines a second) breaks it at once, ordinary warnings do not.
constexpr int kMaxLogLinesPerCase = 60;

// Fills `fields` with `count` distinct keys of `width` characters ("kkk…17"), each valued "v".
void manyKeys(size_t count, size_t width, Fields &fields)
{
    fields.clear();
    fields.reserve(count);
    for (size_t i = 0; i < count; ++i) {
        std::string key = std::to_string(i);
        key.insert(0, width - std::min(width, key.size()), 'k');
        fields.emplace_back(std::move(key), "v");
    }
}

} // namespace

class HostileTest : public QObject
{
    Q_OBJECT

private:
    HostileFixture fixture_;
    int logBefore_ = 0;

    void sendControl(const std::string &label)
    {
        const auto response = fixture_.send(kTopic, 0, "control after " + label, "TAGS\x01" "control\x02");
        QVERIFY(response);
        QCOMPARE(response->code, remoting::ResponseCode::kSuccess);
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(fixture_.start(), qPrintable(fixture_.broker().log()));
        QVERIFY(fixture_.createTopic(kTopic));
        sendControl("start");
    }

    void init() { logBefore_ = fixture_.broker().logLines(); }

    // The checks every case ends with.
    void cleanup()
    {
        QVERIFY2(fixture_.broker().running(), qPrintable(fixture_.broker().log().right(3000)));
        QVERIFY2(fixture_.otherClientAnswered(), "another client was not answered");
        sendControl(QTest::currentTestFunction());
        const std::string missing = fixture_.missingAcknowledged();
        QVERIFY2(missing.empty(), missing.c_str());
        const std::string escaped = fixture_.escapedFiles();
        QVERIFY2(escaped.empty(), ("files outside the store: " + escaped).c_str());
        const int lines = fixture_.broker().logLines() - logBefore_;
        QVERIFY2(lines <= kMaxLogLinesPerCase,
                 qPrintable(QStringLiteral("%1 log lines in one case:\n").arg(lines) + fixture_.broker().log().right(3000)));
    }

    // Stored bytes: a property value holding NUL (and one without the trailing 0x02) is stored
    // as sent, served, and the dispatcher keeps going for every topic.
    void propertyBytesAreStoredAsSent_data()
    {
        QTest::addColumn<bool>("binaryHeader");
        QTest::newRow("json header") << false;
        QTest::newRow("rocketmq header") << true;
    }
    void propertyBytesAreStoredAsSent()
    {
        QFETCH(bool, binaryHeader);
        const std::string withNul("KEYS\x01" "bad\x02X\x01" "a\0b\x02", 15);
        auto response = fixture_.send(kTopic, 1, "nul in a property", withNul, binaryHeader);
        QVERIFY(response);
        QCOMPARE(response->code, remoting::ResponseCode::kSuccess);
        response = fixture_.send(kTopic, 2, "no trailing separator", "TAGS\x01" "t1\x02KEYS\x01" "k1", binaryHeader);
        QVERIFY(response);
        QCOMPARE(response->code, remoting::ResponseCode::kSuccess);
        response = fixture_.send("HostileOther", 0, "another topic after the NUL", "TAGS\x01" "x\x02", binaryHeader);
        QVERIFY(response);
        QCOMPARE(response->code, remoting::ResponseCode::kSuccess);
    }

    // Names: every request that names a topic or group gets RocketMQ's rules at the boundary.
    void namesThatLeaveTheStoreAreRefused_data()
    {
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("name");
        const QString escapes[] = {QStringLiteral("x/../../../../../tmp/ESC"), QStringLiteral("../../ESC"),
                                   QStringLiteral(".."), QStringLiteral("a\\b"), QStringLiteral("nul\x01name"),
                                   QString(300, QLatin1Char('g'))};
        int row = 0;
        for (const QString &name : escapes) {
            const QByteArray tag = QByteArray::number(row++);
            QTest::newRow("send-back group " + tag) << int(remoting::RequestCode::kConsumerSendMsgBack) << QStringLiteral("group") << name;
            QTest::newRow("send topic " + tag) << int(remoting::RequestCode::kSendMessageV2) << QStringLiteral("b") << name;
            QTest::newRow("pull group " + tag) << int(remoting::RequestCode::kPullMessage) << QStringLiteral("consumerGroup") << name;
            QTest::newRow("offset group " + tag) << int(remoting::RequestCode::kUpdateConsumerOffset) << QStringLiteral("consumerGroup") << name;
            QTest::newRow("create topic " + tag) << int(remoting::RequestCode::kUpdateAndCreateTopic) << QStringLiteral("topic") << name;
        }
    }
    void namesThatLeaveTheStoreAreRefused()
    {
        QFETCH(int, code);
        QFETCH(QString, field);
        QFETCH(QString, name);
        const std::string bad = name.toStdString();
        Fields fields;
        if (code == remoting::RequestCode::kSendMessageV2) {
            fields = sendFields(bad, 0, "TAGS\x01" "a\x02");
        } else {
            fields = {{"offset", "0"}, {"delayLevel", "-1"}, {"originMsgId", "00"}, {"originTopic", kTopic},
                      {"unitMode", "false"}, {"maxReconsumeTimes", "16"}, {"topic", kTopic}, {"queueId", "0"},
                      {"queueOffset", "0"}, {"commitOffset", "0"}, {"maxMsgNums", "1"}, {"sysFlag", "0"},
                      {"suspendTimeoutMillis", "0"}, {"subscription", "*"}, {"subVersion", "0"},
                      {"consumerGroup", "good_group"}, {"group", "good_group"}, {"defaultTopic", "TBW102"},
                      {"readQueueNums", "1"}, {"writeQueueNums", "1"}, {"perm", "6"}};
            for (auto &[key, value] : fields) {
                if (key == field.toStdString())
                    value = bad;
            }
        }
        const auto response = fixture_.client().call(code, fields, bytesOf("x"));
        QVERIFY(response);
        QVERIFY2(response->code != remoting::ResponseCode::kSuccess, response->remark.c_str());
        QVERIFY2(response->remark.find(field.toStdString()) != std::string::npos, response->remark.c_str());
    }

    // Names in bodies: a heartbeat's groups and subscriptions, a lock batch's queues.
    void namesInBodiesAreRefused()
    {
        const std::string heartbeat = R"({"clientID":"h@1","consumerDataSet":[{"groupName":"ok_group","consumeType":)"
                                      R"("CONSUME_PASSIVELY","messageModel":"CLUSTERING","consumeFromWhere":)"
                                      R"("CONSUME_FROM_LAST_OFFSET","unitMode":false,"subscriptionDataSet":[{"topic":)"
                                      R"("../../ESC","subString":"*","tagsSet":[],"codeSet":[],"subVersion":1}]}],)"
                                      R"("producerDataSet":[]})";
        auto response = fixture_.client().call(remoting::RequestCode::kHeartBeat, {}, bytesOf(heartbeat));
        QVERIFY(response);
        QCOMPARE(response->code, remoting::ResponseCode::kSystemError);
        QVERIFY2(response->remark.find("subscriptionDataSet[0].topic") != std::string::npos, response->remark.c_str());

        const std::string lock = R"({"consumerGroup":"ok_group","clientId":"h@1","mqSet":[{"topic":"a/b","brokerName":"b","queueId":0}]})";
        response = fixture_.client().call(remoting::RequestCode::kLockBatchMq, {}, bytesOf(lock));
        QVERIFY(response);
        QCOMPARE(response->code, remoting::ResponseCode::kSystemError);
        QVERIFY2(response->remark.find("mqSet[0].topic") != std::string::npos, response->remark.c_str());

        const std::string group = std::string(R"({"groupName":"..\u0000x","retryQueueNums":1})");
        response = fixture_.client().call(remoting::RequestCode::kUpdateAndCreateSubscriptiongroup, {}, bytesOf(group));
        QVERIFY(response);
        QVERIFY2(response->code != remoting::ResponseCode::kSuccess, response->remark.c_str());
    }

    // Work: a header of 40,000 keys (JSON and binary) is refused or decoded fast; either way
    // every other client is served meanwhile.
    void hugeHeadersStallNoOne_data()
    {
        QTest::addColumn<bool>("binaryHeader");
        QTest::addColumn<int>("keys");
        QTest::newRow("json 40000") << false << 40000;
        QTest::newRow("binary 40000") << true << 40000;
        QTest::newRow("json 1000") << false << 1000;
    }
    void hugeHeadersStallNoOne()
    {
        QFETCH(bool, binaryHeader);
        QFETCH(int, keys);
        Fields fields;
        manyKeys(static_cast<size_t>(keys), 10, fields);
        RawClient &hostile = fixture_.client();
        std::thread sender([&] {
            if (binaryHeader)
                hostile.sendBinary(remoting::RequestCode::kGetBrokerRuntimeInfo, fields);
            else
                hostile.sendJson(remoting::RequestCode::kGetBrokerRuntimeInfo, fields);
        });
        const bool answered = fixture_.otherClientAnswered();
        sender.join();
        QVERIFY2(answered, "another client was not answered while the header was sent");
    }

    // Lying or unfinished frames close only their own connection.
    void malformedFramesCloseOnlyTheirConnection_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        const auto lengths = [](int32_t total, int32_t mark) {
            QByteArray out(8, 0);
            common::storeBigEndian(out.data(), total);
            common::storeBigEndian(out.data() + 4, mark);
            return out;
        };
        QTest::newRow("header longer than frame") << lengths(10, 1000) + QByteArray(6, 'x');
        QTest::newRow("negative length") << lengths(-5, 0);
        QTest::newRow("over 16 MiB") << lengths(64 << 20, 10);
        QTest::newRow("unknown serialize type") << lengths(12, (7 << 24) | 4) + QByteArray(8, 'x');
        QTest::newRow("json header not an object") << lengths(8, 4) + QByteArray("[1]]");
        QTest::newRow("binary ext past the header") << lengths(29, (1 << 24) | 25) + QByteArray(17, 0) + QByteArray("\x7f\xff\xff\xff", 4) + QByteArray(4, 0);
    }
    void malformedFramesCloseOnlyTheirConnection()
    {
        QFETCH(QByteArray, bytes);
        RawClient &hostile = fixture_.client();
        QVERIFY(hostile.sendBytes(std::span(reinterpret_cast<const uint8_t *>(bytes.constData()), static_cast<size_t>(bytes.size()))));
        QVERIFY(fixture_.otherClientAnswered());
    }

    void halfAFrameThenSilence()
    {
        RawClient &hostile = fixture_.client();
        const std::string header = jsonHeader(remoting::RequestCode::kSendMessageV2, 1, sendFields(kTopic, 0, ""));
        const auto whole = frame(bytesOf(header), bytesOf(std::string(100000, 'b')), false);
        QVERIFY(hostile.sendBytes(std::span(whole).first(whole.size() / 2)));
        QVERIFY(fixture_.otherClientAnswered());
    }

    // Requests that would grow files or memory without bound are refused with RocketMQ's codes.
    void unboundedRequestsAreRefused()
    {
        RawClient &admin = fixture_.client();
        auto response = admin.call(remoting::RequestCode::kUpdateAndCreateTopic,
                                   {{"topic", "TooManyQueues"}, {"readQueueNums", "100000"}, {"writeQueueNums", "100000"},
                                    {"perm", "6"}});
        QVERIFY(response);
        QCOMPARE(response->code, remoting::ResponseCode::kSystemError);
        QVERIFY2(response->remark.find("1024") != std::string::npos, response->remark.c_str());
        QVERIFY(!std::filesystem::exists(fixture_.storeDir() + "/consumequeue/TooManyQueues"));

        response = fixture_.send(kTopic, 0, "long properties", "KEYS\x01" + std::string(40000, 'k') + "\x02");
        QVERIFY(response);
        QCOMPARE(response->code, remoting::ResponseCode::kMessageIllegal);

        // A batch of 70,000 empty messages (each 22 bytes): over the per-batch bound.
        std::vector<uint8_t> batch;
        for (int i = 0; i < 70000; ++i) {
            uint8_t message[22] = {};
            common::writeInt32(message, 22);
            batch.insert(batch.end(), message, message + sizeof message);
        }
        Fields fields = sendFields(kTopic, 0, "");
        for (auto &[key, value] : fields) {
            if (key == "m")
                value = "true";
        }
        response = fixture_.client().call(remoting::RequestCode::kSendBatchMessage, fields, batch);
        QVERIFY(response);
        QCOMPARE(response->code, remoting::ResponseCode::kMessageIllegal);
    }

    // A heartbeat naming 2,000 new groups writes subscriptionGroup.json and topics.json once
    // each (counted with inotify on the config folder), not once per group.
    void heartbeatOfManyGroupsWritesEachFileOnce()
    {
        const std::string configDir = fixture_.storeDir() + "/config";
        const int watch = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        QVERIFY(watch >= 0);
        QVERIFY(inotify_add_watch(watch, configDir.c_str(), IN_MOVED_TO | IN_CLOSE_WRITE) >= 0);
        const std::string group = "{\"consumeType\":\"CONSUME_PASSIVELY\",\"messageModel\":\"CLUSTERING\","
                                  "\"consumeFromWhere\":\"CONSUME_FROM_LAST_OFFSET\",\"unitMode\":false,"
                                  "\"subscriptionDataSet\":[],\"groupName\":\"many_";
        std::string body = "{\"clientID\":\"many@1\",\"producerDataSet\":[],\"consumerDataSet\":[";
        for (int i = 0; i < 2000; ++i)
            body += (i ? "," : "") + group + std::to_string(i) + "\"}";
        body += "]}";
        const auto response = fixture_.client().call(remoting::RequestCode::kHeartBeat, {}, bytesOf(body));
        QVERIFY(response);
        QCOMPARE(response->code, remoting::ResponseCode::kSuccess);
        QTest::qWait(200);
        std::map<std::string, int> renamedTo;
        alignas(inotify_event) char events[65536];
        ssize_t n = 0;
        while ((n = ::read(watch, events, sizeof events)) > 0) {
            for (char *p = events; p < events + n;) {
                const auto *event = reinterpret_cast<const inotify_event *>(p);
                if ((event->mask & IN_MOVED_TO) && event->len > 0)
                    ++renamedTo[event->name];
                p += sizeof(inotify_event) + event->len;
            }
        }
        ::close(watch);
        QVERIFY2(renamedTo["subscriptionGroup.json"] <= 1, qPrintable(QString::number(renamedTo["subscriptionGroup.json"])));
        QVERIFY2(renamedTo["topics.json"] <= 1, qPrintable(QString::number(renamedTo["topics.json"])));
        QVERIFY(std::filesystem::exists(configDir + "/subscriptionGroup.json"));
    }

    // Connections past serverMaxConnections are closed at once; once some close, new clients
    // are served again.
    void connectionsPastTheLimitAreClosed()
    {
        std::vector<std::unique_ptr<RawClient>> idle;
        int closedByBroker = 0;
        for (int i = 0; i < HostileFixture::kMaxConnections + 50; ++i) {
            idle.push_back(std::make_unique<RawClient>());
            QVERIFY(idle.back()->connect(fixture_.broker().brokerAddress()));
        }
        for (const auto &connection : idle)
            closedByBroker += connection->waitClosed(30ms) ? 1 : 0;
        QVERIFY2(closedByBroker >= 50, qPrintable(QString::number(closedByBroker)));
        idle.clear();
        QTRY_VERIFY_WITH_TIMEOUT(fixture_.otherClientAnswered(), 10000);
    }

    // Last: everything acknowledged survives a clean restart (which leaves no abort file) and a
    // SIGKILL + restart.
    void acknowledgedMessagesSurviveRestarts()
    {
        std::string error = fixture_.restart(SIGTERM);
        QVERIFY2(error.empty(), error.c_str());
        error = fixture_.missingAcknowledged();
        QVERIFY2(error.empty(), error.c_str());
        sendControl("clean restart");
        error = fixture_.restart(SIGKILL);
        QVERIFY2(error.empty(), error.c_str());
        error = fixture_.missingAcknowledged();
        QVERIFY2(error.empty(), error.c_str());
    }
};

QTEST_GUILESS_MAIN(HostileTest)

#include "tst_hostile.moc"
