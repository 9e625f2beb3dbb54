// The config files the Java broker wrote (shared/fixtures/java-written/*/config): every topic,
// group and offset they hold loads, and re-writing them gives the same bytes.

#include "config_test_util.h"

#include "broker/store/config/consumer_filter_manager.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/delay_offset_manager.h"
#include "broker/store/config/subscription_group_manager.h"
#include "broker/store/config/topic_config_manager.h"

#include <filesystem>
#include <memory>

using namespace mqdesk::store;
using mqdesk::test::fixtureConfigDir;
using mqdesk::test::q;
using mqdesk::test::readText;

namespace {

struct ExpectedTopic
{
    const char *name;
    int32_t queueNums; // read = write in these files
    int32_t perm;
};

// topics.json of both 2019 brokers, in file order (Java's ConcurrentHashMap bucket order).
const ExpectedTopic kTopics[] = {
    {"TopicTest", 4, 6},
    {"SELF_TEST_TOPIC", 1, 6},
    {"DefaultCluster", 16, 7},
    {"RMQ_SYS_TRANS_HALF_TOPIC", 1, 6},
    {"broker-a", 1, 7},
    {"TBW102", 8, 7},
    {"BenchmarkTest", 1024, 6},
    {"OFFSET_MOVED_EVENT", 1, 6},
    {"%RETRY%please_rename_unique_group_name_4", 1, 6},
};

const char *const kGroups[] = {"SELF_TEST_C_GROUP", "please_rename_unique_group_name_4", "CID_ONSAPI_OWNER",
                               "CID_ONSAPI_PERMISSION", "TOOLS_CONSUMER", "CID_ONS-HTTP-PROXY",
                               "FILTERSRV_CONSUMER", "CID_ONSAPI_PULL"};

const std::string kGroup = "please_rename_unique_group_name_4";
const std::string kRetryTopic = "%RETRY%please_rename_unique_group_name_4";

std::unique_ptr<ConfigManager> managerFor(const std::string &fileName)
{
    if (fileName == TopicConfigManager::kFileName)
        return std::make_unique<TopicConfigManager>();
    if (fileName == ConsumerOffsetManager::kFileName)
        return std::make_unique<ConsumerOffsetManager>();
    if (fileName == SubscriptionGroupManager::kFileName)
        return std::make_unique<SubscriptionGroupManager>();
    if (fileName == DelayOffsetManager::kFileName)
        return std::make_unique<DelayOffsetManager>();
    if (fileName == ConsumerFilterManager::kFileName)
        return std::make_unique<ConsumerFilterManager>();
    return nullptr;
}

void checkTopics(const TopicConfigManager &manager, size_t count)
{
    const std::vector<TopicConfig> topics = manager.topicConfigs();
    QCOMPARE(topics.size(), count);
    for (size_t i = 0; i < count; ++i) {
        const TopicConfig &topic = topics[i];
        QCOMPARE(q(topic.topicName), QString::fromLatin1(kTopics[i].name));
        QCOMPARE(topic.readQueueNums, kTopics[i].queueNums);
        QCOMPARE(topic.writeQueueNums, kTopics[i].queueNums);
        QCOMPARE(topic.perm, kTopics[i].perm);
        QCOMPARE(q(topic.topicFilterType), QStringLiteral("SINGLE_TAG"));
        QCOMPARE(topic.topicSysFlag, 0);
        QCOMPARE(topic.order, false);
        QVERIFY(topic.attributes.empty());
        QVERIFY(topic.extras.unknown.empty());
        QVERIFY(topic.extras.isAbsent("attributes")); // a 2019 broker did not have them yet
        QCOMPARE(manager.selectTopicConfig(kTopics[i].name), std::optional<TopicConfig>(topic));
    }
}

} // namespace

class JavaFixturesTest : public QObject
{
    Q_OBJECT

private slots:
    void loadsEveryTopic_data()
    {
        QTest::addColumn<QString>("store");
        QTest::addColumn<qint64>("timestamp");
        QTest::newRow("study-2019") << QStringLiteral("study-2019") << qint64(1551626364371);
        QTest::newRow("study-b") << QStringLiteral("study-b") << qint64(1567223845416);
    }

    void loadsEveryTopic()
    {
        QFETCH(QString, store);
        QFETCH(qint64, timestamp);
        TopicConfigManager manager;
        std::string error;
        QVERIFY2(manager.load(fixtureConfigDir(store.toStdString()), error), error.c_str());
        QCOMPARE(manager.lastLoad().source, ConfigSource::Primary);
        QVERIFY(manager.lastLoad().warning.empty());
        checkTopics(manager, 9);
        QCOMPARE(manager.dataVersion().counter, int64_t{3});
        QCOMPARE(manager.dataVersion().timestamp, timestamp);
        QCOMPARE(manager.dataVersion().stateVersion, int64_t{0});
        QVERIFY(manager.dataVersion().extras.isAbsent("stateVersion"));
        QVERIFY(!manager.selectTopicConfig("TopicTest2"));
        QVERIFY(!manager.contains("topictest"));
    }

    void loadsTheJavaBackupWhenTopicsJsonIsGone_data()
    {
        QTest::addColumn<QString>("store");
        QTest::addColumn<qint64>("timestamp");
        QTest::newRow("study-2019") << QStringLiteral("study-2019") << qint64(1551626277404);
        QTest::newRow("study-b") << QStringLiteral("study-b") << qint64(1567221262613);
    }

    void loadsTheJavaBackupWhenTopicsJsonIsGone()
    {
        QFETCH(QString, store);
        QFETCH(qint64, timestamp);
        QTemporaryDir dir;
        const std::string config = mqdesk::test::copyFixtureConfig(dir, store.toStdString());
        std::filesystem::remove(config + "/topics.json");
        TopicConfigManager manager;
        std::string error;
        QVERIFY2(manager.load(config, error), error.c_str());
        QCOMPARE(manager.lastLoad().source, ConfigSource::Backup);
        QVERIFY2(q(manager.lastLoad().warning).contains(q(config + "/topics.json is missing")),
                 manager.lastLoad().warning.c_str());
        // The broker wrote the backup before it created the retry topic.
        checkTopics(manager, 8);
        QVERIFY(!manager.contains(kRetryTopic));
        QCOMPARE(manager.dataVersion().counter, int64_t{2});
        QCOMPARE(manager.dataVersion().timestamp, timestamp);
    }

    void loadsEveryConsumerOffset_data()
    {
        QTest::addColumn<QString>("store");
        QTest::addColumn<qint64>("queue2");
        QTest::newRow("study-2019") << QStringLiteral("study-2019") << qint64(250);
        QTest::newRow("study-b") << QStringLiteral("study-b") << qint64(251);
    }

    void loadsEveryConsumerOffset()
    {
        QFETCH(QString, store);
        QFETCH(qint64, queue2);
        ConsumerOffsetManager manager;
        std::string error;
        QVERIFY2(manager.load(fixtureConfigDir(store.toStdString()), error), error.c_str());
        const auto table = manager.offsetTable();
        QCOMPARE(table.size(), size_t{2});
        QCOMPARE(q(table[0].first), q("TopicTest@" + kGroup));
        QCOMPARE(table[0].second, (ConsumerOffsetManager::QueueOffsets{{0, 250}, {1, 250}, {2, queue2}, {3, 250}}));
        QCOMPARE(q(table[1].first), q(kRetryTopic + "@" + kGroup));
        QCOMPARE(table[1].second, (ConsumerOffsetManager::QueueOffsets{{0, 0}}));
        QCOMPARE(manager.queryOffset(kGroup, "TopicTest", 0), int64_t{250});
        QCOMPARE(manager.queryOffset(kGroup, "TopicTest", 2), int64_t{queue2});
        QCOMPARE(manager.queryOffset(kGroup, "TopicTest", 3), int64_t{250});
        QCOMPARE(manager.queryOffset(kGroup, kRetryTopic, 0), int64_t{0});
        QCOMPARE(manager.queryOffset(kGroup, "TopicTest", 4), int64_t{-1});
        QCOMPARE(manager.queryOffset("other", "TopicTest", 0), int64_t{-1});
        QCOMPARE(manager.whichTopicByConsumer(kGroup), (std::set<std::string>{"TopicTest", kRetryTopic}));
        QCOMPARE(manager.whichGroupByTopic("TopicTest"), std::set<std::string>{kGroup});
        // A 4.x file: neither dataVersion nor the derived groupTopicMap, and none are added.
        const std::string encoded = manager.encode();
        QVERIFY(!q(encoded).contains(QStringLiteral("dataVersion")));
        QVERIFY(!q(encoded).contains(QStringLiteral("groupTopicMap")));
    }

    void loadsEverySubscriptionGroup_data()
    {
        QTest::addColumn<QString>("store");
        QTest::addColumn<qint64>("timestamp");
        QTest::newRow("study-2019") << QStringLiteral("study-2019") << qint64(1551626364364);
        QTest::newRow("study-b") << QStringLiteral("study-b") << qint64(1567223845410);
    }

    void loadsEverySubscriptionGroup()
    {
        QFETCH(QString, store);
        QFETCH(qint64, timestamp);
        SubscriptionGroupManager manager;
        std::string error;
        QVERIFY2(manager.load(fixtureConfigDir(store.toStdString()), error), error.c_str());
        QCOMPARE(manager.dataVersion().counter, int64_t{1});
        QCOMPARE(manager.dataVersion().timestamp, timestamp);
        QVERIFY(manager.forbiddenTable().empty());
        const auto groups = manager.subscriptionGroupConfigs();
        QCOMPARE(groups.size(), std::size(kGroups));
        for (size_t i = 0; i < groups.size(); ++i) {
            const SubscriptionGroupConfig &g = groups[i];
            QCOMPARE(q(g.groupName), QString::fromLatin1(kGroups[i]));
            QCOMPARE(g.brokerId, int64_t{0});
            QCOMPARE(g.consumeBroadcastEnable, true);
            QCOMPARE(g.consumeEnable, true);
            QCOMPARE(g.consumeFromMinEnable, true);
            QCOMPARE(g.notifyConsumerIdsChangedEnable, true);
            QCOMPARE(g.retryMaxTimes, 16);
            QCOMPARE(g.retryQueueNums, 1);
            QCOMPARE(g.whichBrokerWhenConsumeSlowly, int64_t{1});
            // Not in a 2019 file: Java's defaults.
            QCOMPARE(g.consumeMessageOrderly, false);
            QCOMPARE(g.consumeTimeoutMinute, 15);
            QCOMPARE(g.groupSysFlag, 0);
            QVERIFY(g.groupRetryPolicy.isDefault());
            QVERIFY(!g.subscriptionDataSet);
            QVERIFY(g.attributes.empty());
            QVERIFY(g.extras.isAbsent("consumeMessageOrderly"));
            QCOMPARE(manager.findSubscriptionGroupConfig(kGroups[i]), std::optional<SubscriptionGroupConfig>(g));
        }
        QVERIFY(manager.containsSubscriptionGroup(kGroup));
        QVERIFY(!manager.containsSubscriptionGroup("nobody"));
    }

    void loadsDelayOffsetsAndConsumerFilters_data()
    {
        QTest::addColumn<QString>("store");
        QTest::newRow("fork-2021") << QStringLiteral("fork-2021");
        QTest::newRow("study-2019") << QStringLiteral("study-2019");
        QTest::newRow("study-b") << QStringLiteral("study-b");
    }

    void loadsDelayOffsetsAndConsumerFilters()
    {
        QFETCH(QString, store);
        const std::string config = fixtureConfigDir(store.toStdString());
        DelayOffsetManager delay;
        std::string error;
        QVERIFY2(delay.load(config, error), error.c_str());
        QCOMPARE(delay.lastLoad().source, ConfigSource::Primary);
        QVERIFY(delay.offsetTable().empty()); // no delay message was ever sent
        QVERIFY(!delay.offset(1));
        QVERIFY(!q(delay.encode()).contains(QStringLiteral("dataVersion")));

        ConsumerFilterManager filters;
        QVERIFY2(filters.load(config, error), error.c_str());
        const bool hasFile = mqdesk::test::exists(config + "/consumerFilter.json");
        QCOMPARE(filters.lastLoad().source, hasFile ? ConfigSource::Primary : ConfigSource::None);
        QVERIFY(filters.topics().empty());
    }

    void rewritesEveryFixtureFileByteForByte_data()
    {
        QTest::addColumn<QString>("store");
        QTest::addColumn<QString>("file");
        int rows = 0;
        for (const auto &store : std::filesystem::directory_iterator(mqdesk::test::fixturesDir())) {
            const auto config = store.path() / "config";
            if (!std::filesystem::is_directory(config))
                continue;
            for (const auto &file : std::filesystem::directory_iterator(config)) {
                const std::string storeName = store.path().filename().string();
                const std::string fileName = file.path().filename().string();
                QTest::newRow((storeName + "/" + fileName).c_str()) << q(storeName) << q(fileName);
                ++rows;
            }
        }
        QCOMPARE(rows, 13);
    }

    void rewritesEveryFixtureFileByteForByte()
    {
        QFETCH(QString, store);
        QFETCH(QString, file);
        std::string name = file.toStdString();
        const bool backup = name.size() > 4 && name.compare(name.size() - 4, 4, ".bak") == 0;
        if (backup)
            name.resize(name.size() - 4);
        const std::string original = readText(fixtureConfigDir(store.toStdString()) + "/" + file.toStdString());

        // In memory: decode, then encode as Java's ConfigManager.persist would.
        std::unique_ptr<ConfigManager> manager = managerFor(name);
        QVERIFY2(manager, name.c_str());
        std::string error;
        QVERIFY2(manager->decode(original, error), error.c_str());
        QCOMPARE(q(manager->encode()), q(original));

        // On disk: load from a copy, persist, and find the same bytes in X (and in X.bak).
        QTemporaryDir dir;
        const std::string config = mqdesk::test::copyFixtureConfig(dir, store.toStdString());
        if (backup)
            std::filesystem::remove(config + "/" + name);
        std::unique_ptr<ConfigManager> loaded = managerFor(name);
        QVERIFY2(loaded->load(config, error), error.c_str());
        QCOMPARE(loaded->lastLoad().source, backup ? ConfigSource::Backup : ConfigSource::Primary);
        QVERIFY2(loaded->persist(error), error.c_str());
        QCOMPARE(q(readText(config + "/" + name)), q(original));
        if (!backup)
            QCOMPARE(q(readText(config + "/" + name + ".bak")), q(original));
        QVERIFY(!mqdesk::test::exists(config + "/" + name + ".tmp"));
    }
};

QObject *createJavaFixturesTest() { return new JavaFixturesTest; }

#include "tst_java_fixtures.moc"
