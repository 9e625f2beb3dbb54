// The five managers: their accessors, fastjson's layout and Java's map order for what they
// create, round trips through the disk, unknown and missing properties, and concurrent use.

#include "config_test_util.h"

#include "broker/common/json.h"
#include "broker/store/config/consumer_filter_manager.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/delay_offset_manager.h"
#include "broker/store/config/subscription_group_manager.h"
#include "broker/store/config/topic_config_manager.h"

#include <atomic>
#include <thread>

using namespace mqdesk::store;
using mqdesk::test::q;
using mqdesk::test::readText;
using mqdesk::test::writeText;

namespace {

std::string dataVersionText(const DataVersion &version)
{
    return "\t\"dataVersion\":{\n\t\t\"counter\":" + std::to_string(version.counter)
           + ",\n\t\t\"stateVersion\":0,\n\t\t\"timestamp\":" + std::to_string(version.timestamp) + "\n\t},\n";
}

std::string topicText(const std::string &name, int queues, const std::string &attributes)
{
    const std::string n = std::to_string(queues);
    return "\t\t\"" + name + "\":{\n\t\t\t\"attributes\":" + attributes
           + ",\n\t\t\t\"order\":false,\n\t\t\t\"perm\":6,\n\t\t\t\"readQueueNums\":" + n
           + ",\n\t\t\t\"topicFilterType\":\"SINGLE_TAG\",\n\t\t\t\"topicName\":\"" + name
           + "\",\n\t\t\t\"topicSysFlag\":0,\n\t\t\t\"writeQueueNums\":" + n + "\n\t\t}";
}

template<typename Manager>
void roundTrip(Manager &manager, Manager &reread)
{
    QTemporaryDir dir;
    std::string error;
    manager.setConfigDir(dir.path().toStdString());
    QVERIFY2(manager.persist(error), error.c_str());
    QVERIFY2(reread.load(dir.path().toStdString(), error), error.c_str());
    QCOMPARE(reread.lastLoad().source, ConfigSource::Primary);
    QCOMPARE(q(reread.encode()), q(manager.encode()));
    QCOMPARE(q(readText(manager.configFilePath())), q(manager.encode()));
}

} // namespace

class ConfigManagersTest : public QObject
{
    Q_OBJECT

private slots:
    void writesTopicsInFastjsonLayoutAndJavaOrder()
    {
        TopicConfigManager manager;
        for (const auto &[name, queues] : {std::pair{"TopicTest", 4}, {"SCHEDULE_TOPIC_XXXX", 18}, {"BatchTopic", 1}}) {
            TopicConfig config;
            config.topicName = name;
            config.readQueueNums = queues;
            config.writeQueueNums = queues;
            if (config.topicName == "BatchTopic")
                config.attributes.insertOrAssign("queue.type", "BatchCQ");
            manager.updateTopicConfig(config);
        }
        QCOMPARE(manager.dataVersion().counter, int64_t{3});
        // ConcurrentHashMap(1024) iterates by bucket of a 2048 table: BatchTopic 15,
        // SCHEDULE_TOPIC_XXXX 210, TopicTest 217.
        const std::string expected = "{\n" + dataVersionText(manager.dataVersion()) + "\t\"topicConfigTable\":{\n"
                                     + topicText("BatchTopic", 1, "{\n\t\t\t\t\"queue.type\":\"BatchCQ\"\n\t\t\t}") + ",\n"
                                     + topicText("SCHEDULE_TOPIC_XXXX", 18, "{}") + ",\n"
                                     + topicText("TopicTest", 4, "{}") + "\n\t}\n}";
        QCOMPARE(q(manager.encode()), q(expected));

        TopicConfig changed = *manager.selectTopicConfig("TopicTest");
        changed.perm = perm::kRead | perm::kWrite | perm::kInherit;
        manager.updateTopicConfig(changed, 9);
        QCOMPARE(manager.selectTopicConfig("TopicTest")->perm, 7);
        QCOMPARE(manager.dataVersion().counter, int64_t{4});
        QCOMPARE(manager.dataVersion().stateVersion, int64_t{9});
        QCOMPARE(q(manager.topicConfigs().back().topicName), QStringLiteral("TopicTest")); // kept its place
        QVERIFY(manager.deleteTopicConfig("SCHEDULE_TOPIC_XXXX"));
        QVERIFY(!manager.deleteTopicConfig("SCHEDULE_TOPIC_XXXX"));
        QCOMPARE(manager.dataVersion().counter, int64_t{5});
        QCOMPARE(manager.size(), size_t{2});

        TopicConfigManager reread;
        roundTrip(manager, reread);
        QCOMPARE(reread.topicConfigs(), manager.topicConfigs());
    }

    void keepsUnknownPropertiesAndOrder()
    {
        // A file from a newer broker: properties this code does not know, at every level.
        const std::string text = "{\n"
                                 "\t\"aNewRootList\":[1,2,{\n\t\t\"k\":\"v\"\n\t}],\n"
                                 "\t\"dataVersion\":{\n\t\t\"counter\":7,\n\t\t\"future\":true,\n\t\t\"stateVersion\":3,\n\t\t\"timestamp\":1\n\t},\n"
                                 "\t\"topicConfigTable\":{\n"
                                 "\t\t\"Z\":{\n\t\t\t\"perm\":2,\n\t\t\t\"topicName\":\"Z\",\n\t\t\t\"zNew\":{5:1,6:2\n\t\t\t}\n\t\t},\n"
                                 "\t\t\"A\":{\n\t\t\t\"attributes\":{\n\t\t\t\t\"b\":\"1\",\n\t\t\t\t\"a\":\"2\"\n\t\t\t},\n"
                                 "\t\t\t\"topicFilterType\":\"MULTI_TAG\",\n\t\t\t\"topicName\":\"A\"\n\t\t}\n"
                                 "\t},\n"
                                 "\t\"zNewRoot\":0.5\n"
                                 "}";
        TopicConfigManager manager;
        std::string error;
        QVERIFY2(manager.decode(text, error), error.c_str());
        QCOMPARE(q(manager.encode()), q(text));
        const TopicConfig z = *manager.selectTopicConfig("Z");
        QCOMPARE(z.perm, 2);
        QCOMPARE(z.readQueueNums, 16); // Java's default for a missing property
        QCOMPARE(z.extras.unknown.size(), size_t{1});
        const TopicConfig a = *manager.selectTopicConfig("A");
        QCOMPARE(q(a.topicFilterType), QStringLiteral("MULTI_TAG"));
        QCOMPARE(q(*a.attributes.find("a")), QStringLiteral("2"));
        QCOMPARE(manager.dataVersion().stateVersion, int64_t{3});

        // A property the file lacked is written once it leaves its default.
        TopicConfig changed = z;
        changed.readQueueNums = 2;
        manager.updateTopicConfig(changed);
        QVERIFY(q(manager.encode()).contains(QStringLiteral("\t\t\t\"readQueueNums\":2,\n\t\t\t\"topicName\":\"Z\"")));
        QVERIFY(!q(manager.encode()).contains(QStringLiteral("\"writeQueueNums\"")));
    }

    void writesSubscriptionGroupsLikeTheSpec()
    {
        SubscriptionGroupManager manager;
        SubscriptionGroupConfig group;
        group.groupName = "group_a";
        manager.updateSubscriptionGroupConfig(group);
        // store-format §8.4, with this run's data version.
        const std::string expected = "{\n" + dataVersionText(manager.dataVersion())
                                     + "\t\"forbiddenTable\":{},\n"
                                       "\t\"subscriptionGroupTable\":{\n"
                                       "\t\t\"group_a\":{\n"
                                       "\t\t\t\"attributes\":{},\n"
                                       "\t\t\t\"brokerId\":0,\n"
                                       "\t\t\t\"consumeBroadcastEnable\":true,\n"
                                       "\t\t\t\"consumeEnable\":true,\n"
                                       "\t\t\t\"consumeFromMinEnable\":true,\n"
                                       "\t\t\t\"consumeMessageOrderly\":false,\n"
                                       "\t\t\t\"consumeTimeoutMinute\":15,\n"
                                       "\t\t\t\"groupName\":\"group_a\",\n"
                                       "\t\t\t\"groupRetryPolicy\":{\n"
                                       "\t\t\t\t\"type\":\"CUSTOMIZED\"\n"
                                       "\t\t\t},\n"
                                       "\t\t\t\"groupSysFlag\":0,\n"
                                       "\t\t\t\"notifyConsumerIdsChangedEnable\":true,\n"
                                       "\t\t\t\"retryMaxTimes\":16,\n"
                                       "\t\t\t\"retryQueueNums\":1,\n"
                                       "\t\t\t\"whichBrokerWhenConsumeSlowly\":1\n"
                                       "\t\t}\n"
                                       "\t}\n"
                                       "}";
        QCOMPARE(q(manager.encode()), q(expected));
        QCOMPARE(manager.dataVersion().counter, int64_t{1});

        // Every optional part, through the disk and back.
        group.groupName = "group_b";
        group.consumeMessageOrderly = true;
        group.groupRetryPolicy.type = "EXPONENTIAL";
        group.groupRetryPolicy.exponentialRetryPolicy = ExponentialRetryPolicy{1000, 60000, 3, {}};
        group.groupRetryPolicy.customizedRetryPolicy = CustomizedRetryPolicy();
        group.subscriptionDataSet = std::vector<SimpleSubscriptionData>{{"T", "TAG", "a || b", 42, {}}};
        group.attributes.insertOrAssign("x", "y");
        manager.updateSubscriptionGroupConfig(group);
        const QString encoded = q(manager.encode());
        QVERIFY2(encoded.contains(QStringLiteral("\"subscriptionDataSet\":[{\n\t\t\t\t\"expression\":\"a || b\",\n"
                                                 "\t\t\t\t\"expressionType\":\"TAG\",\n\t\t\t\t\"topic\":\"T\",\n"
                                                 "\t\t\t\t\"version\":42\n\t\t\t}],")),
                 qPrintable(encoded));
        QVERIFY(encoded.contains(QStringLiteral("\"next\":[1000,5000,10000,30000,60000,120000,")));
        SubscriptionGroupManager reread;
        roundTrip(manager, reread);
        QCOMPARE(reread.subscriptionGroupConfigs(), manager.subscriptionGroupConfigs());
        QCOMPARE(reread.findSubscriptionGroupConfig("group_b")->groupRetryPolicy.exponentialRetryPolicy->multiplier,
                 int64_t{3});

        QVERIFY(manager.deleteSubscriptionGroupConfig("group_a"));
        QVERIFY(!manager.deleteSubscriptionGroupConfig("group_a"));
        QCOMPARE(manager.size(), size_t{1});
    }

    void keepsTheVintageOfOldGroups()
    {
        SubscriptionGroupManager manager;
        std::string error;
        QVERIFY(manager.load(mqdesk::test::fixtureConfigDir("study-2019"), error));
        SubscriptionGroupConfig tools = *manager.findSubscriptionGroupConfig("TOOLS_CONSUMER");
        tools.consumeMessageOrderly = true; // leaves its default: now written
        manager.updateSubscriptionGroupConfig(tools);
        SubscriptionGroupConfig fresh;
        fresh.groupName = "group_new";
        manager.updateSubscriptionGroupConfig(fresh);
        const std::string text = manager.encode();
        const size_t toolsAt = text.find("\"TOOLS_CONSUMER\":{");
        const std::string toolsText = text.substr(toolsAt, text.find('}', toolsAt) - toolsAt);
        QVERIFY2(q(toolsText).contains(QStringLiteral("\"consumeMessageOrderly\":true,\n\t\t\t\"groupName\"")),
                 toolsText.c_str());
        QVERIFY(!q(toolsText).contains(QStringLiteral("consumeTimeoutMinute")));
        const size_t freshAt = text.find("\"group_new\":{");
        QVERIFY(freshAt != std::string::npos);
        QVERIFY(q(text.substr(freshAt)).contains(QStringLiteral("\"consumeTimeoutMinute\":15")));
        QCOMPARE(manager.dataVersion().counter, int64_t{3});
        QVERIFY(!q(text).contains(QStringLiteral("forbiddenTable"))); // the 2019 file had none
    }

    void setsAndClearsForbiddenBits()
    {
        SubscriptionGroupManager manager;
        manager.updateForbidden("g", "t", 1, true);
        manager.updateForbidden("g", "t", 3, true);
        QCOMPARE(manager.getForbidden("g", "t"), 10);
        QVERIFY(manager.getForbidden("g", "t", 3));
        QVERIFY(!manager.getForbidden("g", "t", 0));
        QCOMPARE(manager.getForbidden("g", "other"), 0);
        QVERIFY(q(manager.encode()).contains(QStringLiteral("\t\"forbiddenTable\":{\n\t\t\"g\":{\n\t\t\t\"t\":10\n\t\t}\n\t},")));
        SubscriptionGroupManager reread;
        roundTrip(manager, reread);
        QCOMPARE(reread.forbiddenTable(), manager.forbiddenTable());
        manager.updateForbidden("g", "t", 1, false);
        QCOMPARE(manager.getForbidden("g", "t"), 8);
        manager.updateForbidden("g", "t", 3, false);
        QVERIFY(manager.forbiddenTable().empty()); // Java drops the group's entry at 0
    }

    void commitsAndQueriesConsumerOffsetsInJavaOrder()
    {
        ConsumerOffsetManager manager(2); // move the data version every 2nd commit
        for (int32_t queue : {3, 0, 70, 2, 64, 1})
            manager.commitOffset("127.0.0.1:1", "group_a", "TopicTest", queue, 100 + queue);
        manager.commitOffset("h", "group_a", "%RETRY%group_a", 0, 0);
        manager.commitOffset("h", "group_b", "TopicB", 0, 9);
        manager.commitOffset("h", "CID_x", "TopicTest", 0, 1);
        manager.commitOffset("h", "group_a", "TopicTest", 2, 5); // backwards is accepted, as in Java
        QCOMPARE(manager.dataVersion().counter, int64_t{5});
        QCOMPARE(manager.queryOffset("group_a", "TopicTest", 2), int64_t{5});
        QCOMPARE(manager.queryOffset("group_a", "TopicTest", 70), int64_t{170});
        // ConcurrentHashMap(32) → 64 buckets: 0 and 64 share bucket 0, 70 is in bucket 6.
        QCOMPARE(manager.queryOffsets("group_a", "TopicTest"),
                 (ConsumerOffsetManager::QueueOffsets{{0, 100}, {64, 164}, {1, 101}, {2, 5}, {3, 103}, {70, 170}}));
        // ConcurrentHashMap(512) → 1024 buckets: 317, 520, 666, 841.
        std::vector<std::string> keys;
        for (const auto &entry : manager.offsetTable())
            keys.push_back(entry.first);
        QCOMPARE(keys, (std::vector<std::string>{"TopicTest@CID_x", "%RETRY%group_a@group_a", "TopicB@group_b",
                                                  "TopicTest@group_a"}));
        // HashMap(128) of HashSet(8): CID_x 69, group_a 92, group_b 95; TopicTest 1, %RETRY%group_a 3.
        using GroupTopics = std::vector<std::pair<std::string, std::vector<std::string>>>;
        QCOMPARE(manager.groupTopicMap(), (GroupTopics{{"CID_x", {"TopicTest"}},
                                                       {"group_a", {"TopicTest", "%RETRY%group_a"}},
                                                       {"group_b", {"TopicB"}}}));
        const QString text = q(manager.encode());
        QVERIFY2(text.contains(QStringLiteral("\t\"groupTopicMap\":{\n\t\t\"CID_x\":[\"TopicTest\"],\n"
                                              "\t\t\"group_a\":[\"TopicTest\",\"%RETRY%group_a\"],\n"
                                              "\t\t\"group_b\":[\"TopicB\"]\n\t},\n")),
                 qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("\t\t\"TopicTest@group_a\":{0:100,64:164,1:101,2:5,3:103,70:170\n\t\t}\n")));

        ConsumerOffsetManager reread;
        roundTrip(manager, reread);
        QCOMPARE(reread.offsetTable(), manager.offsetTable());

        manager.cloneOffset("group_a", "group_c", "TopicTest");
        QCOMPARE(manager.queryOffsets("group_c", "TopicTest"), manager.queryOffsets("group_a", "TopicTest"));
        manager.removeOffset("group_a");
        QCOMPARE(manager.whichTopicByConsumer("group_a"), std::set<std::string>{});
        QCOMPARE(manager.whichGroupByTopic("TopicTest"), (std::set<std::string>{"CID_x", "group_c"}));
        QVERIFY(manager.removeConsumerOffset("TopicB@group_b"));
        QVERIFY(!manager.removeConsumerOffset("TopicB@group_b"));
        QCOMPARE(manager.size(), size_t{2});
    }

    // With enableLmq Java 5.5 keeps the offsets in lmqConsumerOffset.json only: that file wins
    // when it is there (a stale consumerOffset.json beside it is ignored, as Java ignores it),
    // the old file is read when it is not, and both are written.
    void readsAndWritesLmqConsumerOffsetBesideTheOldFile()
    {
        QTemporaryDir dir;
        const std::string configDir = dir.path().toStdString();
        const std::string oldFile = configDir + "/consumerOffset.json";
        const std::string lmqFile = configDir + "/lmqConsumerOffset.json";
        writeText(oldFile, R"({"offsetTable":{"T@g":{0:5}}})");

        ConsumerOffsetManager migrated;
        migrated.setAlternateFileName(ConsumerOffsetManager::kLmqFileName);
        std::string error;
        QVERIFY2(migrated.load(configDir, error), error.c_str());
        QCOMPARE(migrated.queryOffset("g", "T", 0), int64_t{5});
        migrated.commitOffset("test", "g", "%LMQ%$P$a", 0, 7);
        QVERIFY2(migrated.persist(error), error.c_str());
        QVERIFY(mqdesk::test::exists(lmqFile));
        QCOMPARE(readText(lmqFile), readText(oldFile));

        writeText(lmqFile, R"({"offsetTable":{"T@g":{0:9}},"lmqOffsetTable":{}})");
        writeText(oldFile, R"({"offsetTable":{"T@g":{0:1}}})");
        ConsumerOffsetManager javaStore;
        javaStore.setAlternateFileName(ConsumerOffsetManager::kLmqFileName);
        QVERIFY2(javaStore.load(configDir, error), error.c_str());
        QCOMPARE(javaStore.queryOffset("g", "T", 0), int64_t{9});

        ConsumerOffsetManager withoutLmq;
        QVERIFY2(withoutLmq.load(configDir, error), error.c_str());
        QCOMPARE(withoutLmq.queryOffset("g", "T", 0), int64_t{1});
    }

    // Java 5.5 keeps the offset of a group that is itself an LMQ in lmqOffsetTable ("topic@group"
    // → offset): read as queue 0, and written back there, not into offsetTable.
    void readsAndWritesTheLmqOffsetTable()
    {
        QTemporaryDir dir;
        const std::string configDir = dir.path().toStdString();
        const std::string lmqFile = configDir + "/lmqConsumerOffset.json";
        writeText(lmqFile, R"({"offsetTable":{"T@g":{0:9}},"lmqOffsetTable":{"%LMQ%x@%LMQ%x":42,"bad":"no"}})");
        ConsumerOffsetManager refused;
        refused.setAlternateFileName(ConsumerOffsetManager::kLmqFileName);
        std::string error;
        QVERIFY(!refused.load(configDir, error));
        QVERIFY2(error.find("lmqOffsetTable") != std::string::npos, error.c_str());

        writeText(lmqFile, R"({"offsetTable":{"T@g":{0:9}},"lmqOffsetTable":{"%LMQ%x@%LMQ%x":42}})");
        ConsumerOffsetManager manager;
        manager.setAlternateFileName(ConsumerOffsetManager::kLmqFileName);
        error.clear();
        QVERIFY2(manager.load(configDir, error), error.c_str());
        QCOMPARE(manager.queryOffset("%LMQ%x", "%LMQ%x", 0), int64_t{42});
        QCOMPARE(manager.queryOffset("g", "T", 0), int64_t{9});
        manager.commitOffset("test", "%LMQ%x", "%LMQ%x", 0, 43);
        QVERIFY2(manager.persist(error), error.c_str());
        const std::string written = readText(lmqFile);
        const mqdesk::common::JsonParseResult parsed = mqdesk::common::parseJson(written);
        QVERIFY2(parsed.ok(), written.c_str());
        const mqdesk::common::JsonValue *lmq = parsed.value.find("lmqOffsetTable");
        QVERIFY2(lmq && lmq->find("%LMQ%x@%LMQ%x") && lmq->find("%LMQ%x@%LMQ%x")->asInteger() == 43, written.c_str());
        const mqdesk::common::JsonValue *plain = parsed.value.find("offsetTable");
        QVERIFY2(plain && plain->find("T@g") && !plain->find("%LMQ%x@%LMQ%x"), written.c_str());
    }

    void splitsKeysLikeJava()
    {
        std::string topic;
        std::string group;
        QVERIFY(ConsumerOffsetManager::splitKey("t@g", topic, group));
        QCOMPARE(q(topic + "|" + group), QStringLiteral("t|g"));
        QVERIFY(ConsumerOffsetManager::splitKey("t@g@", topic, group)); // trailing empty parts dropped
        QVERIFY(!ConsumerOffsetManager::splitKey("t@g@broadcast", topic, group));
        QVERIFY(!ConsumerOffsetManager::splitKey("t@@g", topic, group));
        QVERIFY(!ConsumerOffsetManager::splitKey("tg", topic, group));
    }

    void keepsDelayOffsetsByLevel()
    {
        DelayOffsetManager manager(2);
        manager.updateOffset(3, 5);
        manager.updateOffset(1, 17);
        manager.updateOffset(2, 0);
        QCOMPARE(manager.offset(1), std::optional<int64_t>(17));
        QVERIFY(!manager.offset(4));
        QCOMPARE(manager.dataVersion().counter, int64_t{1});
        // store-format §8.5.
        QCOMPARE(q(manager.encode()),
                 q("{\n" + dataVersionText(manager.dataVersion()) + "\t\"offsetTable\":{1:17,2:0,3:5\n\t}\n}"));
        DelayOffsetManager reread;
        roundTrip(manager, reread);
        QCOMPARE(reread.offsetTable(), (std::vector<std::pair<int32_t, int64_t>>{{1, 17}, {2, 0}, {3, 5}}));
    }

    void roundTripsConsumerFilters()
    {
        // A populated file as the Java broker writes it (bean properties sorted, `dead` derived).
        const std::string text = "{\n"
                                 "\t\"filterDataByTopic\":{\n"
                                 "\t\t\"TopicSql\":{\n"
                                 "\t\t\t\"groupFilterData\":{\n"
                                 "\t\t\t\t\"cg\":{\n"
                                 "\t\t\t\t\t\"bloomFilterData\":{\n"
                                 "\t\t\t\t\t\t\"bitNum\":64,\n"
                                 "\t\t\t\t\t\t\"bitPos\":[3,17,42]\n"
                                 "\t\t\t\t\t},\n"
                                 "\t\t\t\t\t\"bornTime\":1700000000000,\n"
                                 "\t\t\t\t\t\"clientVersion\":413,\n"
                                 "\t\t\t\t\t\"consumerGroup\":\"cg\",\n"
                                 "\t\t\t\t\t\"dead\":false,\n"
                                 "\t\t\t\t\t\"deadTime\":0,\n"
                                 "\t\t\t\t\t\"expression\":\"a > 5 AND b = 'x'\",\n"
                                 "\t\t\t\t\t\"expressionType\":\"SQL92\",\n"
                                 "\t\t\t\t\t\"topic\":\"TopicSql\",\n"
                                 "\t\t\t\t\t\"unknownLater\":\"kept\"\n"
                                 "\t\t\t\t}\n"
                                 "\t\t\t},\n"
                                 "\t\t\t\"topic\":\"TopicSql\"\n"
                                 "\t\t}\n"
                                 "\t}\n"
                                 "}";
        ConsumerFilterManager manager;
        std::string error;
        QVERIFY2(manager.decode(text, error), error.c_str());
        QCOMPARE(q(manager.encode()), q(text));
        const ConsumerFilterData data = *manager.get("TopicSql", "cg");
        QCOMPARE(q(data.expression), QStringLiteral("a > 5 AND b = 'x'"));
        QCOMPARE(data.clientVersion, int64_t{413});
        QCOMPARE(data.bloomFilterData->bitPos, (std::vector<int32_t>{3, 17, 42}));
        QVERIFY(!data.isDead());
        QCOMPARE(manager.topics(), std::vector<std::string>{"TopicSql"});

        ConsumerFilterData dead = data;
        dead.consumerGroup = "cg2";
        dead.deadTime = dead.bornTime + 1;
        dead.extras = BeanExtras();
        manager.put(dead);
        QCOMPARE(manager.getByTopic("TopicSql").size(), size_t{2});
        QVERIFY(q(manager.encode()).contains(QStringLiteral("\"dead\":true")));
        ConsumerFilterManager reread;
        roundTrip(manager, reread);
        QCOMPARE(reread.getByTopic("TopicSql"), manager.getByTopic("TopicSql"));
        QVERIFY(manager.remove("TopicSql", "cg2"));
        QVERIFY(!manager.remove("TopicSql", "cg2"));
        QVERIFY(!manager.get("TopicSql", "cg2"));
    }

    void survivesConcurrentUse()
    {
        QTemporaryDir dir;
        ConsumerOffsetManager manager;
        manager.setConfigDir(dir.path().toStdString());
        std::atomic<bool> done{false};
        std::atomic<int> persistFailures{0};
        std::thread persister([&] {
            std::string error;
            while (!done.load()) {
                if (!manager.persist(error))
                    ++persistFailures;
            }
        });
        std::vector<std::thread> committers;
        for (int t = 0; t < 4; ++t) {
            committers.emplace_back([&manager, t] {
                const std::string group = "g" + std::to_string(t);
                for (int i = 0; i < 2000; ++i) {
                    manager.commitOffset("h", group, "T", i % 8, i);
                    (void)manager.queryOffset(group, "T", i % 8);
                }
            });
        }
        for (std::thread &thread : committers)
            thread.join();
        done = true;
        persister.join();
        QCOMPARE(persistFailures.load(), 0);
        std::string error;
        QVERIFY(manager.persist(error));
        for (int t = 0; t < 4; ++t) {
            for (int queue = 0; queue < 8; ++queue)
                QCOMPARE(manager.queryOffset("g" + std::to_string(t), "T", queue), int64_t{1992 + queue});
        }
        ConsumerOffsetManager reread;
        QVERIFY2(reread.load(dir.path().toStdString(), error), error.c_str());
        QCOMPARE(reread.offsetTable(), manager.offsetTable());
        QCOMPARE(manager.dataVersion().counter, int64_t{16}); // 8000 commits, a step of 500
    }
};

QObject *createConfigManagersTest() { return new ConfigManagersTest; }

#include "tst_config_managers.moc"
