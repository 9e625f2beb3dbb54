// UPDATE_BROKER_CONFIG under concurrent readers (issue 12): settings are replaced through an
// immutable snapshot, so readers on other threads only ever see a whole old or a whole new value
// (also run under ThreadSanitizer by the tsan preset); a key is applied live or refused with an
// error naming it, never stored and ignored.

#include "admin_test_util.h"
#include "broker_test_util.h"

#include "broker/remoting/net/tls_context.h"
#include "broker/server/consumer_manager.h"
#include "broker/server/java_only_keys.h"
#include "broker/server/topic_manager.h"
#include "broker/store/message_store.h"

#include <QFile>
#include <QTemporaryDir>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

using namespace mqdesk;
using namespace mqdesk::server;

namespace {

struct JavaKey
{
    std::string key;
    std::string javaDefault;
};

// tests/fixtures/java-5.5-broker-keys.tsv: every key Java 5.5.0's broker reads from broker.conf.
std::vector<JavaKey> javaBrokerKeys()
{
    std::vector<JavaKey> keys;
    std::ifstream in(std::string(MQDESK_PROJECT_FIXTURES_DIR) + "/java-5.5-broker-keys.tsv");
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        std::vector<std::string> fields;
        std::stringstream cells(line);
        for (std::string cell; std::getline(cells, cell, '\t');)
            fields.push_back(cell);
        if (fields.size() == 3)
            fields.emplace_back();
        if (fields.size() == 4)
            keys.push_back({fields[1], fields[3]});
    }
    return keys;
}

bool servedByMqdesk(std::string_view key)
{
    static const BrokerSettings defaults;
    static const auto properties = defaults.toProperties();
    return remoting::TlsSettings::isKey(key)
           || std::any_of(properties.begin(), properties.end(), [&](const auto &property) { return property.first == key; });
}

} // namespace

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
        // Read by each scan of the client tables.
        QCOMPARE(controller.updateConfig({{"channelExpiredTimeout", "30000"}}), std::string());
        QCOMPARE(controller.brokerConfig().channelExpiredTimeout, int64_t{30000});
        // realTimeNotifyConsumerChange=false holds a group's change back for the next 15 s turn.
        controller.notifyConsumerIdsChanged("NotifiedGroup");
        QVERIFY(controller.consumers().takeDeferredNotifications().empty());
        QCOMPARE(controller.updateConfig({{"realTimeNotifyConsumerChange", "false"}}), std::string());
        controller.notifyConsumerIdsChanged("NotifiedGroup");
        controller.notifyConsumerIdsChanged("NotifiedGroup");
        QCOMPARE(controller.consumers().takeDeferredNotifications(), std::vector<std::string>{"NotifiedGroup"});
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

    // Every broker.conf key of Java 5.5 is MQDesk's own, or in the table of keys MQDesk does not
    // serve with Java's default as the 5.5.0 jars have it.
    void everyJavaKeyIsServedOrListedWithItsReason()
    {
        const std::vector<JavaKey> keys = javaBrokerKeys();
        QVERIFY2(keys.size() > 500, "tests/fixtures/java-5.5-broker-keys.tsv missing or short");
        std::set<std::string> listed;
        for (const JavaKey &key : keys) {
            const JavaOnlyKey *javaOnly = findJavaOnlyKey(key.key);
            QVERIFY2(servedByMqdesk(key.key) != (javaOnly != nullptr), key.key.c_str());
            if (!javaOnly)
                continue;
            listed.insert(key.key);
            QVERIFY2(javaOnly->javaDefault == key.javaDefault, key.key.c_str());
            QVERIFY2(checkJavaOnlyValue(*javaOnly, key.javaDefault).empty(), key.key.c_str());
        }
        QCOMPARE(listed.size(), javaOnlyKeys().size()); // nothing listed that Java does not have
        QVERIFY(std::is_sorted(javaOnlyKeys().begin(), javaOnlyKeys().end(),
                               [](const JavaOnlyKey &a, const JavaOnlyKey &b) { return a.key < b.key; }));
    }

    // A Java broker.conf starts MQDesk when it only tunes what MQDesk does its own way or keeps
    // Java's defaults; a value that would change what clients see is refused at start, naming
    // the key, the value and why.
    void javasKeysAreAcceptedOrRefusedAtStartWithTheReason()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("broker.conf")).toStdString();
        const auto load = [&](const std::string &text, std::vector<std::string> &unknown, std::string &error) {
            std::ofstream(path) << text;
            BrokerSettings settings;
            return settings.loadFile(path, unknown, error);
        };
        std::vector<std::string> unknown;
        std::string error;
        QVERIFY2(load("brokerClusterName=DefaultCluster\nbrokerName=broker-a\nbrokerId=0\ndeleteWhen=04\n"
                      "brokerRole=ASYNC_MASTER\nflushDiskType=ASYNC_FLUSH\nserverWorkerThreads=64\nhaListenPort=10912\n"
                      "enableControllerMode = false\nslaveReadEnable=FALSE\nstoreType=default\nmaxTopicLength=127.0\n"
                      "authenticationProvider=org.apache.rocketmq.auth.authentication.provider.DefaultAuthenticationProvider\n"
                      "metricsExporterType=PROM\nnoSuchKey=1\n",
                      unknown, error),
                 error.c_str());
        QCOMPARE(unknown, std::vector<std::string>{"noSuchKey"});
        // What RocketMQ's own integration tests set on their brokers (IntegrationTestBase,
        // BaseConf, the POP and lock tests) starts MQDesk.
        QVERIFY2(load("enablePropertyFilter=true\nenableCalcFilterBitMap=true\nappendAckAsync=true\nappendCkAsync=true\n"
                      "recallMessageEnable=true\nenableConsumeQueueExt=true\nloadBalancePollNameServerInterval=500\n"
                      "mappedFileSizeCommitLog=104857600\nmaxIndexNum=1000\nmaxHashSlotNum=4000\n"
                      "deleteWhen=01;02;03;04;05;06;07;08;09;10;11;12;13;14;15;16;17;18;19;20;21;22;23;00\n"
                      "maxTransferCountOnMessageInMemory=1024\nmaxTransferCountOnMessageInDisk=1024\nhaListenPort=0\n"
                      "enableSingleTopicRegister=true\nenablePopBufferMerge=true\nenableSplitRegistration=true\n"
                      "compatibleWithOldNameSrv=false\nlockInStrictMode=true\nenableRemoteEscape=true\n"
                      "enableBuildConsumeQueueConcurrently=true\nconsumerOffsetUpdateVersionStep=1\n"
                      "delayOffsetUpdateVersionStep=1\nenableNotifyAfterPopOrderLockRelease=true\n",
                      unknown, error),
                 error.c_str());
        QVERIFY(unknown.empty());
        const std::pair<const char *, const char *> refused[] = {
            {"brokerRole=SLAVE", "replicas"}, {"brokerRole=SYNC_MASTER", "replicas"}, {"enableControllerMode=true", "Controller"},
            {"storeType=defaultRocksDB", "RocksDB"}, {"enableRetryTopicV2=true", "V1 retry topics"},
            {"authorizationProvider=com.example.MyProvider", "cannot be loaded"}, {"maxTopicLength=64", "Java's default (127)"},
            {"fetchNamesrvAddrByAddressServer=true", "namesrvAddr"}, {"controllerAddr=127.0.0.1:9878", "Java's default (empty)"}};
        for (const auto &[line, why] : refused) {
            QVERIFY2(!load(std::string(line) + "\n", unknown, error), line);
            QVERIFY2(error.find(path) != std::string::npos && error.find(line) != std::string::npos
                         && error.find(why) != std::string::npos,
                     error.c_str());
        }
        // At run time (updateBrokerConfig) such a key is refused whatever its value, with the reason.
        BrokerSettings settings;
        const std::string live = settings.set("serverWorkerThreads", "8");
        QVERIFY2(live.find("serverWorkerThreads") != std::string::npos && live.find("does not serve") != std::string::npos,
                 live.c_str());
    }

    void theDocsShowTheJavaOnlyKeys()
    {
        const std::filesystem::path docs =
            std::filesystem::path(MQDESK_PROJECT_FIXTURES_DIR).parent_path().parent_path() / "docs/compatibility.md";
        std::ifstream in(docs);
        QVERIFY2(in, docs.c_str());
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const std::string begin = "<!-- java-only keys: begin -->\n", end = "<!-- java-only keys: end -->";
        const size_t from = text.find(begin), to = text.find(end);
        QVERIFY2(from != std::string::npos && to != std::string::npos, "markers missing in docs/compatibility.md");
        const std::string expected = markdownOfJavaOnlyKeys();
        const std::string shown = text.substr(from + begin.size(), to - from - begin.size());
        if (shown != expected && qEnvironmentVariableIsSet("MQDESK_WRITE_DOCS")) {
            text.replace(from + begin.size(), to - from - begin.size(), expected);
            std::ofstream(docs) << text;
            return;
        }
        QVERIFY2(shown == expected, "docs/compatibility.md is stale: run tst_broker_server theDocsShowTheJavaOnlyKeys "
                                    "with MQDESK_WRITE_DOCS=1");
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
