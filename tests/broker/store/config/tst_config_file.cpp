// The crash-safe file store: X.tmp → fsync → X.bak → rename, the fall back to X.bak after a
// crash, and the messages that name the file and the line:column of bad JSON.

#include "config_test_util.h"

#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/topic_config_manager.h"

#include <filesystem>

using namespace mqdesk::store;
using mqdesk::test::exists;
using mqdesk::test::q;
using mqdesk::test::readText;
using mqdesk::test::writeText;

namespace {

TopicConfig topic(const std::string &name, int32_t queues)
{
    TopicConfig config;
    config.topicName = name;
    config.readQueueNums = queues;
    config.writeQueueNums = queues;
    return config;
}

std::vector<std::string> topicNames(const TopicConfigManager &manager)
{
    std::vector<std::string> names;
    for (const TopicConfig &config : manager.topicConfigs())
        names.push_back(config.topicName);
    return names;
}

} // namespace

class ConfigFileTest : public QObject
{
    Q_OBJECT

private slots:
    void startsEmptyWithoutFilesAndWritesWithoutBackupFirst()
    {
        QTemporaryDir dir;
        const std::string config = dir.path().toStdString();
        TopicConfigManager manager;
        std::string error;
        QVERIFY2(manager.load(config, error), error.c_str());
        QCOMPARE(manager.lastLoad().source, ConfigSource::None);
        QCOMPARE(manager.size(), size_t{0});
        QCOMPARE(q(manager.configFilePath()), q(config + "/topics.json"));
        manager.updateTopicConfig(topic("A", 4));
        QVERIFY2(manager.persist(error), error.c_str());
        QVERIFY(exists(config + "/topics.json"));
        QVERIFY(!exists(config + "/topics.json.bak")); // nothing before it to keep
        QVERIFY(!exists(config + "/topics.json.tmp"));
    }

    void persistRequiresADirectory()
    {
        TopicConfigManager manager;
        std::string error;
        QVERIFY(!manager.persist(error));
        QVERIFY(q(error).contains(QStringLiteral("topics.json")));
    }

    void keepsThePreviousContentAsBackup()
    {
        QTemporaryDir dir;
        const std::string config = dir.path().toStdString();
        TopicConfigManager manager;
        manager.setConfigDir(config);
        std::string error;
        manager.updateTopicConfig(topic("A", 4));
        QVERIFY(manager.persist(error));
        const std::string first = readText(config + "/topics.json");
        manager.updateTopicConfig(topic("B", 8));
        QVERIFY(manager.persist(error));
        const std::string second = readText(config + "/topics.json");
        QVERIFY(first != second);
        QCOMPARE(q(readText(config + "/topics.json.bak")), q(first));
        QCOMPARE(q(second), q(manager.encode()));

        TopicConfigManager reread;
        QVERIFY2(reread.load(config, error), error.c_str());
        QCOMPARE(reread.lastLoad().source, ConfigSource::Primary);
        QCOMPARE(reread.topicConfigs(), manager.topicConfigs());
        QCOMPARE(reread.dataVersion(), manager.dataVersion());
    }

    void fallsBackToTheBackupAfterACrash_data()
    {
        QTest::addColumn<int>("keptBytes"); // of X, after the crash
        QTest::addColumn<bool>("emptyWarning");
        // Java 5.1–5.3.3 rewrite X in place: a crash can leave it empty or cut short.
        QTest::newRow("X emptied") << 0 << true;
        QTest::newRow("X cut short") << 40 << false;
    }

    void fallsBackToTheBackupAfterACrash()
    {
        QFETCH(int, keptBytes);
        QFETCH(bool, emptyWarning);
        QTemporaryDir dir;
        const std::string config = dir.path().toStdString();
        const std::string path = config + "/topics.json";
        std::string error;
        {
            TopicConfigManager manager;
            manager.setConfigDir(config);
            manager.updateTopicConfig(topic("A", 4));
            QVERIFY(manager.persist(error)); // X = {A}
            manager.updateTopicConfig(topic("B", 8));
            QVERIFY(manager.persist(error)); // X = {A, B}, X.bak = {A}
            // The crash: the next content reached X.tmp, X was torn.
            manager.updateTopicConfig(topic("C", 1));
            writeText(path + ".tmp", manager.encode());
            std::filesystem::resize_file(path, static_cast<uintmax_t>(keptBytes));
        }
        const std::string backup = readText(path + ".bak");

        TopicConfigManager recovered;
        QVERIFY2(recovered.load(config, error), error.c_str());
        QCOMPARE(recovered.lastLoad().source, ConfigSource::Backup);
        QCOMPARE(topicNames(recovered), std::vector<std::string>{"A"}); // the last good content
        const QString warning = q(recovered.lastLoad().warning);
        QVERIFY2(warning.contains(q(path)), qPrintable(warning));
        QVERIFY2(warning.contains(q("loaded " + path + ".bak instead")), qPrintable(warning));
        if (emptyWarning) {
            QVERIFY2(warning.contains(QStringLiteral("is empty")), qPrintable(warning));
        } else {
            // 40 bytes end inside `"counter":…` on line 3 (or just after): a line:column is given.
            QVERIFY2(warning.contains(q(path + ":")), qPrintable(warning));
            QVERIFY2(QRegularExpression(QStringLiteral(":\\d+:\\d+: ")).match(warning).hasMatch(), qPrintable(warning));
        }

        // The next persist must not rotate the torn X over the good backup.
        recovered.updateTopicConfig(topic("D", 2));
        QVERIFY2(recovered.persist(error), error.c_str());
        QCOMPARE(q(readText(path + ".bak")), q(backup));
        QCOMPARE(exists(path + ".corrupt"), !emptyWarning); // a torn X is kept for inspection
        QVERIFY(!exists(path + ".tmp"));
        TopicConfigManager again;
        QVERIFY2(again.load(config, error), error.c_str());
        QCOMPARE(again.lastLoad().source, ConfigSource::Primary);
        QCOMPARE(topicNames(again), topicNames(recovered));
        QCOMPARE(topicNames(again).size(), size_t{2});
    }

    void ignoresALeftoverTempFile()
    {
        QTemporaryDir dir;
        const std::string config = dir.path().toStdString();
        std::string error;
        TopicConfigManager manager;
        manager.setConfigDir(config);
        manager.updateTopicConfig(topic("A", 4));
        QVERIFY(manager.persist(error));
        writeText(config + "/topics.json.tmp", "{\n\t\"topicConfigTable\":{\n\t\t\"Half"); // crash while writing it
        TopicConfigManager reread;
        QVERIFY2(reread.load(config, error), error.c_str());
        QCOMPARE(reread.lastLoad().source, ConfigSource::Primary);
        QCOMPARE(topicNames(reread), std::vector<std::string>{"A"});
        QVERIFY(reread.persist(error));
        QVERIFY(!exists(config + "/topics.json.tmp"));
    }

    void namesFileAndLineColumnOfBadJson()
    {
        QTemporaryDir dir;
        const std::string config = dir.path().toStdString();
        const std::string path = config + "/topics.json";
        // Line 4, column 11: the value of "perm" is missing.
        writeText(path, "{\n\t\"topicConfigTable\":{\n\t\t\"A\":{\n\t\t\t\"perm\":,\n\t\t\t\"topicName\":\"A\"\n\t\t}\n\t}\n}");
        TopicConfigManager manager;
        manager.updateTopicConfig(topic("before", 1));
        std::string error;
        QVERIFY(!manager.load(config, error));
        QVERIFY2(q(error).startsWith(q(path + ":4:11: unexpected character ','")), error.c_str());
        QVERIFY2(q(error).contains(q("no backup " + path + ".bak")), error.c_str());
        QCOMPARE(topicNames(manager), std::vector<std::string>{"before"}); // unchanged

        // With a backup that is bad too, both are named.
        writeText(path + ".bak", "{\"topicConfigTable\":{\"A\":{\"perm\":\"six\"}}}");
        QVERIFY(!manager.load(config, error));
        QVERIFY2(q(error).contains(q(path + ":4:11:")), error.c_str());
        QVERIFY2(q(error).contains(q(path + ".bak: topicConfigTable[\"A\"].perm: expected an integer")),
                 error.c_str());
    }

    void namesThePathOfWrongTypes()
    {
        QTemporaryDir dir;
        const std::string config = dir.path().toStdString();
        writeText(config + "/consumerOffset.json", "{\"offsetTable\":{\"T@g\":{0:1,1:[2]}}}");
        ConsumerOffsetManager manager;
        std::string error;
        QVERIFY(!manager.load(config, error));
        QVERIFY2(q(error).contains(QStringLiteral("consumerOffset.json: offsetTable[\"T@g\"][\"1\"]: expected an integer")),
                 error.c_str());
        writeText(config + "/consumerOffset.json", "{\"offsetTable\":{\"T@g\":{\"x\":1}}}");
        QVERIFY(!manager.load(config, error));
        QVERIFY2(q(error).contains(QStringLiteral("(queue id)")), error.c_str());
    }

    void acceptsStrictJsonAndWritesIntegerKeysUnquoted()
    {
        QTemporaryDir dir;
        const std::string config = dir.path().toStdString();
        // What a strict JSON tool would write: quoted queue ids, spaces, no TABs, a newline at the end.
        writeText(config + "/consumerOffset.json",
                  "{\n  \"offsetTable\": {\n    \"TopicTest@g\": {\"0\": 5, \"1\": 7}\n  }\n}\n");
        ConsumerOffsetManager manager;
        std::string error;
        QVERIFY2(manager.load(config, error), error.c_str());
        QCOMPARE(manager.queryOffset("g", "TopicTest", 0), int64_t{5});
        QCOMPARE(manager.queryOffset("g", "TopicTest", 1), int64_t{7});
        QVERIFY(manager.persist(error));
        QCOMPARE(q(readText(config + "/consumerOffset.json")),
                 QStringLiteral("{\n\t\"offsetTable\":{\n\t\t\"TopicTest@g\":{0:5,1:7\n\t\t}\n\t}\n}"));
    }
};

QObject *createConfigFileTest() { return new ConfigFileTest; }

#include "tst_config_file.moc"
