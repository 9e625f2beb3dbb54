// UPDATE_BROKER_CONFIG under concurrent readers (issue 12): settings are replaced through an
// immutable snapshot, so readers on other threads only ever see a whole old or a whole new value
// (also run under ThreadSanitizer by the tsan preset); a key is applied live or refused with an
// error naming it, never stored and ignored.

#include "admin_test_util.h"
#include "broker_test_util.h"

#include "broker/server/topic_manager.h"
#include "broker/store/message_store.h"

#include <QFile>
#include <QTemporaryDir>

#include <atomic>
#include <thread>

using namespace mqdesk;
using namespace mqdesk::server;

class ConfigUpdateTest : public QObject
{
    Q_OBJECT

private slots:
    void readersSeeWholeSnapshotsWhileUpdatesRun()
    {
        test::TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        BrokerController &controller = broker.controller();
        const std::string shortRegion = "R";
        const std::string longRegion(4096, 'L'); // long enough that a torn copy would show
        std::atomic<bool> running{true};
        std::atomic<int64_t> reads{0};
        std::atomic<int64_t> torn{0};
        std::vector<std::thread> readers;
        for (int t = 0; t < 3; ++t) {
            readers.emplace_back([&] {
                while (running.load(std::memory_order_relaxed)) {
                    const std::string region = controller.brokerConfig().regionId; // a copy, as a request makes
                    const auto snapshot = controller.settings();
                    const bool whole = region == shortRegion || region == longRegion || region == "DefaultRegion";
                    const bool consistent = (snapshot->broker.regionId == longRegion)
                                            == (snapshot->broker.shortPollingTimeMills == 1234);
                    if (!whole || !consistent)
                        torn.fetch_add(1);
                    (void)controller.configText();
                    reads.fetch_add(1, std::memory_order_relaxed);
                }
            });
        }
        int updates = 0;
        bool lastWasLong = false;
        // At least 400 updates, and until the readers made a few thousand reads among them.
        for (int i = 0; i < 400 || (reads.load() < 3000 && i < 100000); ++i) {
            const bool isLong = i % 2 == 0;
            const std::string result = controller.updateConfig(
                {{"regionId", isLong ? longRegion : shortRegion}, {"shortPollingTimeMills", isLong ? "1234" : "1000"},
                 {"flushDiskType", isLong ? "SYNC_FLUSH" : "ASYNC_FLUSH"}});
            QVERIFY2(result.empty(), result.c_str());
            lastWasLong = isLong;
            ++updates;
        }
        running.store(false);
        for (auto &reader : readers)
            reader.join();
        qInfo("%d updates while 3 threads made %lld reads", updates, static_cast<long long>(reads.load()));
        QCOMPARE(torn.load(), int64_t{0});
        QVERIFY(reads.load() > 0);
        // The last update is what everybody sees now, the store included.
        QCOMPARE(controller.brokerConfig().regionId, lastWasLong ? longRegion : shortRegion);
        QCOMPARE(controller.store().commitLog().flushDiskType(),
                 lastWasLong ? store::FlushDiskType::SyncFlush : store::FlushDiskType::AsyncFlush);
    }

    void everyKeyIsAppliedOrRefusedByName()
    {
        test::TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        BrokerController &controller = broker.controller();
        // Live: the store reads them on its next turn.
        QCOMPARE(controller.updateConfig({{"flushIntervalCommitLog", "77"}, {"flushDiskType", "SYNC_FLUSH"}}),
                 std::string());
        QCOMPARE(controller.store().commitLog().flushIntervalCommitLog(), 77);
        QCOMPARE(controller.store().commitLog().flushDiskType(), store::FlushDiskType::SyncFlush);
        QVERIFY(controller.configText().find("flushIntervalCommitLog=77\n") != std::string::npos);
        // Read only at start: refused by name, and nothing of the request is applied.
        for (const char *key : {"maxMessageSize", "mappedFileSizeConsumeQueue", "sendMessageThreadPoolNums",
                                "autoCreateTopicEnable", "aclEnable", "listenPort", "storePathRootDir"}) {
            const std::string refused = controller.updateConfig({{"regionId", "Changed"}, {key, "1"}});
            QVERIFY2(refused.find(key) != std::string::npos, refused.c_str());
            QVERIFY(controller.brokerConfig().regionId != "Changed");
        }
        const std::string unknown = controller.updateConfig({{"noSuchKey", "1"}});
        QVERIFY2(unknown.find("noSuchKey") != std::string::npos, unknown.c_str());
        const std::string badValue = controller.updateConfig({{"flushDiskType", "SOMETIMES"}});
        QVERIFY2(badValue.find("flushDiskType") != std::string::npos, badValue.c_str());
        QCOMPARE(controller.store().commitLog().flushDiskType(), store::FlushDiskType::SyncFlush);
    }

    // A config file damaged by a crash or a hand (here topics.json truncated and
    // consumerOffset.json random bytes) is read from its .bak — and said so, naming the file, in
    // the broker's warnings and its runtime info, never silently.
    void aConfigReadFromItsBackupIsSaid()
    {
        QTemporaryDir dir;
        const QString store = dir.path();
        {
            test::TestBroker first({}, store);
            std::string error;
            QVERIFY2(first.start(error), error.c_str());
            QCOMPARE(first.call(test::createTopic("KeptTopic", 2)).code, remoting::ResponseCode::kSuccess);
            QCOMPARE(first.call(test::createTopic("KeptTopic2", 2)).code, remoting::ResponseCode::kSuccess);
            QCOMPARE(first.call(test::commitOffset("KeptGroup", "KeptTopic", 0, 1)).code,
                     remoting::ResponseCode::kSuccess);
            QCOMPARE(first.call(test::commitOffset("KeptGroup", "KeptTopic", 1, 1)).code,
                     remoting::ResponseCode::kSuccess);
        }
        {
            test::TestBroker again({}, store); // a second clean stop: every file has its .bak now
            std::string error;
            QVERIFY2(again.start(error), error.c_str());
        }
        const QString config = store + QStringLiteral("/config/");
        QVERIFY(QFile::exists(config + QStringLiteral("topics.json.bak")));
        // With enableLmq (MQDesk's default) the offsets are read from lmqConsumerOffset.json, as
        // Java 5.5 reads them; consumerOffset.json is written beside it.
        QVERIFY(QFile::exists(config + QStringLiteral("consumerOffset.json.bak")));
        QVERIFY(QFile::exists(config + QStringLiteral("lmqConsumerOffset.json.bak")));
        QFile topics(config + QStringLiteral("topics.json"));
        QVERIFY(topics.resize(topics.size() / 2));
        QFile offsets(config + QStringLiteral("lmqConsumerOffset.json"));
        QVERIFY(offsets.open(QIODevice::WriteOnly | QIODevice::Truncate));
        offsets.write(QByteArray("\x13\x9f\x00garbage{", 10));
        offsets.close();

        test::TestBroker second({}, store);
        std::string error;
        QVERIFY2(second.start(error), error.c_str());
        const std::vector<std::string> &warnings = second.controller().configLoadWarnings();
        QCOMPARE(warnings.size(), size_t(2));
        const std::string info = test::runtimeInfoOf(second)["configLoadWarnings"];
        QVERIFY2(info.find("topics.json") != std::string::npos, info.c_str());
        QVERIFY2(info.find("lmqConsumerOffset.json") != std::string::npos, info.c_str());
        QVERIFY(second.controller().topics().find("KeptTopic").has_value()); // from the backup
    }
};

QObject *createConfigUpdateTest() { return new ConfigUpdateTest; }

#include "tst_config_update.moc"
