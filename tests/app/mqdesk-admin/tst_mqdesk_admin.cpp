// mqdesk-admin's store commands run for real, as a user runs them: against a copy of a
// Java-written store, a store written by MessageStore here, a damaged copy, and bad input.

#include "broker/store/store_test_util.h"
#include "json_lines.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>

#include <filesystem>

using namespace mqdesk;
using mqdesk::test::jsonLines;
namespace fs = std::filesystem;

class MqdeskAdminTest : public QObject
{
    Q_OBJECT

private:
    struct Run
    {
        int exitCode = -1;
        QByteArray out;
        QByteArray err;
    };

    static Run admin(const QStringList &arguments)
    {
        QProcess process;
        process.start(QStringLiteral(MQDESK_ADMIN_PATH), arguments);
        process.waitForFinished(120000);
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                process.readAllStandardOutput(), process.readAllStandardError()};
    }

    static Run store(const QString &command, const std::string &dir, QStringList more = {})
    {
        return admin(QStringList{QStringLiteral("store"), command, test::q(dir)} + more);
    }


    static std::map<std::string, std::vector<uint8_t>> contents(const std::string &root)
    {
        std::map<std::string, std::vector<uint8_t>> out;
        for (const auto &entry : fs::recursive_directory_iterator(root))
            if (entry.is_regular_file())
                out[entry.path().string()] = test::readFile(entry.path().string());
        return out;
    }

    QTemporaryDir dir_;
    std::string study_;    // a copy of study-2019
    std::string written_;  // written by MessageStore: topics T (2 queues) and U, keys k0..k29
    std::string binary_;   // one message with a body that is not UTF-8
    const std::vector<uint8_t> binaryBody_{0xFF, 0x00, 0xFE, 0x80, 0x41, 0xC3};

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        study_ = dir_.path().toStdString() + "/study-2019";
        test::copyFixture("study-2019", study_);

        written_ = dir_.path().toStdString() + "/written";
        {
            auto s = test::openStore(test::smallStoreConfig(test::q(written_)));
            QVERIFY(s);
            for (int i = 0; i < 30; ++i) {
                const auto result = s->putMessage(
                    test::makeMessage(i % 3 == 2 ? "U" : "T", i % 2, "body " + std::to_string(i), "k" + std::to_string(i)));
                QCOMPARE(result.status, store::PutMessageStatus::PutOk);
            }
        }

        binary_ = dir_.path().toStdString() + "/binary";
        {
            auto s = test::openStore(test::smallStoreConfig(test::q(binary_)));
            QVERIFY(s);
            auto message = test::makeMessage("B", 0, "");
            message.body = binaryBody_;
            QCOMPARE(s->putMessage(message).status, store::PutMessageStatus::PutOk);
        }
    }

    void summaryOfJavaStore()
    {
        const Run human = store(QStringLiteral("summary"), study_);
        QVERIFY2(human.exitCode == 0, human.err.constData());
        QVERIFY(human.out.contains("commitlog/00000000000000000000"));
        QVERIFY(human.out.contains("abort:"));
        QVERIFY(human.out.contains("present (the broker did not stop cleanly)"));

        const Run json = store(QStringLiteral("summary"), study_, {QStringLiteral("--json")});
        QVERIFY2(json.exitCode == 0, json.err.constData());
        const auto lines = jsonLines(json.out);
        QCOMPARE(lines.size(), 1);
        const QJsonObject summary = lines.front();
        QCOMPARE(summary.value(QStringLiteral("commitLogFileSize")).toInteger(), 8192);
        QCOMPARE(summary.value(QStringLiteral("commitLogDataEnd")).toInteger(), 8084);
        QVERIFY(summary.value(QStringLiteral("abort")).toBool());
        QVERIFY(summary.value(QStringLiteral("checkpoint")).toBool());
        QVERIFY(!summary.value(QStringLiteral("live")).toBool());
        QCOMPARE(summary.value(QStringLiteral("files")).toArray().size(), 10);
    }

    void recordsOfJavaStoreAsJson()
    {
        const Run run = store(QStringLiteral("records"), study_, {QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const auto lines = jsonLines(run.out);
        QCOMPARE(lines.size(), 47);
        int64_t expectedOffset = 0;
        for (int i = 0; i < lines.size(); ++i) {
            const QJsonObject &r = lines[i];
            for (const char *field : {"offset", "size", "topic", "queueId", "queueOffset", "storeTimestamp", "tags",
                                      "keys", "body"})
                QVERIFY2(r.contains(QLatin1String(field)), field);
            QVERIFY(!r.contains(QStringLiteral("bodyBase64")));
            QCOMPARE(r.value(QStringLiteral("offset")).toInteger(), expectedOffset);
            expectedOffset += r.value(QStringLiteral("size")).toInteger();
            QCOMPARE(r.value(QStringLiteral("topic")).toString(), QStringLiteral("abc"));
            QCOMPARE(r.value(QStringLiteral("queueOffset")).toInteger(), i);
            QCOMPARE(r.value(QStringLiteral("tags")).toString(), QStringLiteral("TAG1"));
            QCOMPARE(r.value(QStringLiteral("body")).toString(), QStringLiteral("Once, there was a chance for me!"));
            QVERIFY(r.value(QStringLiteral("crcOk")).toBool());
        }
        QCOMPARE(lines.front().value(QStringLiteral("storeTimestamp")).toInteger(), 1551613204834);
        QCOMPARE(lines.front().value(QStringLiteral("keys")).toString(), QStringLiteral("1551613204833"));

        // --markers adds the end-of-file record.
        const auto marked = jsonLines(store(QStringLiteral("records"), study_, {QStringLiteral("--json"),
                                                                              QStringLiteral("--markers")}).out);
        QCOMPARE(marked.size(), 48);
        QCOMPARE(marked.back().value(QStringLiteral("kind")).toString(), QStringLiteral("blank"));
        QCOMPARE(marked.back().value(QStringLiteral("offset")).toInteger(), 8084);
    }

    void recordsFilteredAndPaged()
    {
        const Run run = store(QStringLiteral("records"), study_,
                              {QStringLiteral("--topic"), QStringLiteral("abc"), QStringLiteral("--limit"), QStringLiteral("5")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QList<QByteArray> lines = run.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 7); // header, 5 records, the trailer
        QVERIFY(lines.front().startsWith("OFFSET"));
        QVERIFY(lines[1].startsWith("0 "));
        QVERIFY(lines[1].contains("abc"));
        QVERIFY(lines[1].contains("Once, there was a chance for me!"));
        QVERIFY(lines.back().contains("next offset 860"));

        const auto page = jsonLines(store(QStringLiteral("records"), study_,
                                          {QStringLiteral("--json"), QStringLiteral("--from"), QStringLiteral("860"),
                                           QStringLiteral("--limit"), QStringLiteral("2")}).out);
        QCOMPARE(page.size(), 2);
        QCOMPARE(page.front().value(QStringLiteral("offset")).toInteger(), 860);
        QCOMPARE(page.front().value(QStringLiteral("queueOffset")).toInteger(), 5);

        QVERIFY(store(QStringLiteral("records"), study_, {QStringLiteral("--topic"), QStringLiteral("nope"),
                                                          QStringLiteral("--json")}).out.isEmpty());
        const auto byTag = jsonLines(store(QStringLiteral("records"), study_,
                                           {QStringLiteral("--json"), QStringLiteral("--tag"), QStringLiteral("X || TAG1")}).out);
        QCOMPARE(byTag.size(), 47);
        const auto byKey = jsonLines(store(QStringLiteral("records"), written_,
                                           {QStringLiteral("--json"), QStringLiteral("--key"), QStringLiteral("k7")}).out);
        QCOMPARE(byKey.size(), 1);
        QCOMPARE(byKey.front().value(QStringLiteral("body")).toString(), QStringLiteral("body 7"));
    }

    // --from-time jumps to the first record stored at or after a time, in each accepted spelling.
    void recordsAndQueueFromTime()
    {
        const auto all = jsonLines(store(QStringLiteral("records"), study_, {QStringLiteral("--json")}).out);
        QCOMPARE(all.size(), 47);
        const int64_t time = all[20].value(QStringLiteral("storeTimestamp")).toInteger();
        const auto firstAtOrAfter = [&all](int64_t t) -> int64_t {
            for (const auto &r : all)
                if (r.value(QStringLiteral("storeTimestamp")).toInteger() >= t)
                    return r.value(QStringLiteral("offset")).toInteger();
            return int64_t{-1};
        };
        const QDateTime local = QDateTime::fromMSecsSinceEpoch(time);
        for (const QString &spelling : {QString::number(time), local.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")),
                                        local.toString(QStringLiteral("yyyy-MM-dd#HH:mm:ss:zzz"))}) {
            const Run run = store(QStringLiteral("records"), study_,
                                  {QStringLiteral("--json"), QStringLiteral("--from-time"), spelling,
                                   QStringLiteral("--limit"), QStringLiteral("2")});
            QVERIFY2(run.exitCode == 0, run.err.constData());
            const auto page = jsonLines(run.out);
            QCOMPARE(page.size(), 2);
            QCOMPARE(page.front().value(QStringLiteral("offset")).toInteger(), firstAtOrAfter(time));
        }
        // Seconds only: the first record of that second or later.
        const auto seconds = jsonLines(store(QStringLiteral("records"), study_,
                                             {QStringLiteral("--json"), QStringLiteral("--limit"), QStringLiteral("1"),
                                              QStringLiteral("--from-time"),
                                              local.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))}).out);
        QCOMPARE(seconds.size(), 1);
        QCOMPARE(seconds.front().value(QStringLiteral("offset")).toInteger(), firstAtOrAfter(time / 1000 * 1000));
        // After the last record: nothing.
        const int64_t last = all.back().value(QStringLiteral("storeTimestamp")).toInteger();
        const Run after = store(QStringLiteral("records"), study_,
                                {QStringLiteral("--json"), QStringLiteral("--from-time"), QString::number(last + 1)});
        QCOMPARE(after.exitCode, 0);
        QVERIFY(after.out.isEmpty());

        // cq: the first entry whose record is at or after the time.
        const auto records = jsonLines(store(QStringLiteral("records"), written_, {QStringLiteral("--json")}).out);
        const auto entries = jsonLines(store(QStringLiteral("cq"), written_,
                                             {QStringLiteral("--json"), QStringLiteral("--topic"), QStringLiteral("T"),
                                              QStringLiteral("--queue"), QStringLiteral("1")}).out);
        QVERIFY(records.size() == 30 && entries.size() > 5);
        const QJsonObject &middle = records[15];
        const int64_t middleTime = middle.value(QStringLiteral("storeTimestamp")).toInteger();
        int64_t firstRecord = -1;
        for (const auto &r : records)
            if (firstRecord < 0 && r.value(QStringLiteral("storeTimestamp")).toInteger() >= middleTime)
                firstRecord = r.value(QStringLiteral("offset")).toInteger();
        int64_t expected = entries.size();
        for (const auto &e : entries)
            if (expected == entries.size() && e.value(QStringLiteral("commitLogOffset")).toInteger() >= firstRecord)
                expected = e.value(QStringLiteral("queueOffset")).toInteger();
        const auto fromTime = jsonLines(store(QStringLiteral("cq"), written_,
                                              {QStringLiteral("--json"), QStringLiteral("--topic"), QStringLiteral("T"),
                                               QStringLiteral("--queue"), QStringLiteral("1"), QStringLiteral("--from-time"),
                                               QString::number(middleTime)}).out);
        QCOMPARE(fromTime.size(), static_cast<int>(entries.size() - expected));
        if (!fromTime.isEmpty())
            QCOMPARE(fromTime.front().value(QStringLiteral("queueOffset")).toInteger(), expected);
        const auto fromZero = jsonLines(store(QStringLiteral("cq"), written_,
                                              {QStringLiteral("--json"), QStringLiteral("--topic"), QStringLiteral("T"),
                                               QStringLiteral("--queue"), QStringLiteral("1"),
                                               QStringLiteral("--from-time"), QStringLiteral("0")}).out);
        QCOMPARE(fromZero.size(), entries.size());

        // Bad input.
        const Run bad = store(QStringLiteral("records"), study_, {QStringLiteral("--from-time"), QStringLiteral("yesterday")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("--from-time yesterday: expected"), bad.err.constData());
        const Run both = store(QStringLiteral("records"), study_, {QStringLiteral("--from"), QStringLiteral("0"),
                                                                   QStringLiteral("--from-time"), QStringLiteral("0")});
        QCOMPARE(both.exitCode, 2);
        const Run noQueue = store(QStringLiteral("cq"), written_, {QStringLiteral("--from-time"), QStringLiteral("0")});
        QCOMPARE(noQueue.exitCode, 2);
        QVERIFY2(noQueue.err.contains("--from-time needs --topic and --queue"), noQueue.err.constData());
    }

    void checkpointValues()
    {
        const Run json = store(QStringLiteral("checkpoint"), study_, {QStringLiteral("--json")});
        QVERIFY2(json.exitCode == 0, json.err.constData());
        const auto lines = jsonLines(json.out);
        QCOMPARE(lines.size(), 1);
        QCOMPARE(lines.front().value(QStringLiteral("physicMsgTimestamp")).toInteger(), 1551626238066);
        QCOMPARE(lines.front().value(QStringLiteral("logicsMsgTimestamp")).toInteger(), 1551626238066);
        QCOMPARE(lines.front().value(QStringLiteral("indexMsgTimestamp")).toInteger(), 0);
        QCOMPARE(lines.front().value(QStringLiteral("minTimestamp")).toInteger(), 1551626235066);

        const Run human = store(QStringLiteral("checkpoint"), study_); // TZ=UTC (ctest and the brief)
        QVERIFY(QString::fromUtf8(human.out).contains(
            QRegularExpression(QStringLiteral("^physicMsgTimestamp: +1551626238066"), QRegularExpression::MultilineOption)));
        if (qgetenv("TZ") == "UTC")
            QVERIFY(human.out.contains("2019-03-03 15:17:18.066"));
    }

    void configAsJson()
    {
        const Run run = store(QStringLiteral("config"), study_, {QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const auto lines = jsonLines(run.out);
        QCOMPARE(lines.size(), 6);
        QMap<QString, QJsonObject> byName;
        for (const auto &line : lines) {
            byName.insert(line.value(QStringLiteral("name")).toString(), line);
            QVERIFY(line.value(QStringLiteral("parsed")).toBool());
        }
        QVERIFY(byName.contains(QStringLiteral("topics.json.bak")));
        // fastjson's unquoted integer keys come out as strict JSON.
        const QJsonObject offsets = byName.value(QStringLiteral("consumerOffset.json"))
                                        .value(QStringLiteral("content")).toObject()
                                        .value(QStringLiteral("offsetTable")).toObject()
                                        .value(QStringLiteral("TopicTest@please_rename_unique_group_name_4")).toObject();
        QCOMPARE(offsets.value(QStringLiteral("0")).toInteger(), 250);
        QVERIFY(byName.value(QStringLiteral("topics.json")).value(QStringLiteral("content")).toObject()
                    .contains(QStringLiteral("topicConfigTable")));

        const Run one = store(QStringLiteral("config"), study_, {QStringLiteral("--name"), QStringLiteral("delayOffset.json")});
        QCOMPARE(one.exitCode, 0);
        const auto raw = test::readFile(study_ + "/config/delayOffset.json");
        QCOMPARE(one.out.trimmed(), QByteArray(reinterpret_cast<const char *>(raw.data()), qsizetype(raw.size())).trimmed());
        const Run missing = store(QStringLiteral("config"), study_, {QStringLiteral("--name"), QStringLiteral("nope.json")});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY(missing.err.contains("nope.json"));
    }

    void verifyJavaStore()
    {
        // The abort file only means the next start runs abnormal recovery, which here stops at
        // the clean end of the data: no fault.
        const auto before = contents(study_);
        const Run human = store(QStringLiteral("verify"), study_);
        QVERIFY2(human.exitCode == 0, human.out.constData());
        QVERIFY(human.out.contains("abort file:"));
        QVERIFY(human.out.contains("present: the next start runs abnormal recovery"));
        QVERIFY(human.out.contains("healthy"));

        const auto lines = jsonLines(store(QStringLiteral("verify"), study_, {QStringLiteral("--json")}).out);
        QCOMPARE(lines.size(), 1);
        QVERIFY(lines.front().value(QStringLiteral("healthy")).toBool());
        QVERIFY(lines.front().value(QStringLiteral("abortPresent")).toBool());
        QCOMPARE(lines.front().value(QStringLiteral("records")).toInteger(), 47);
        QVERIFY(lines.front().value(QStringLiteral("abnormalRecovery")).toObject().value(QStringLiteral("cleanEnd")).toBool());
        QVERIFY(contents(study_) == before); // read-only, every command
    }

    void consumeQueuesOfWrittenStore()
    {
        const auto queues = jsonLines(store(QStringLiteral("cq"), written_, {QStringLiteral("--json")}).out);
        QCOMPARE(queues.size(), 4); // T/0, T/1, U/0, U/1
        const Run list = store(QStringLiteral("cq"), written_, {QStringLiteral("--topic"), QStringLiteral("T")});
        QCOMPARE(list.exitCode, 0);
        QCOMPARE(list.out.trimmed().split('\n').size(), 3);

        // T gets i % 3 != 2, queue i % 2: i = 0, 4, 6, 10, 12, 16, 18, 22, 24, 28 in queue 0.
        const Run run = store(QStringLiteral("cq"), written_, {QStringLiteral("--topic"), QStringLiteral("T"),
                                                               QStringLiteral("--queue"), QStringLiteral("0"),
                                                               QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const auto entries = jsonLines(run.out);
        QCOMPARE(entries.size(), 10);
        const auto records = jsonLines(store(QStringLiteral("records"), written_,
                                             {QStringLiteral("--json"), QStringLiteral("--topic"), QStringLiteral("T")}).out);
        QList<QJsonObject> queue0;
        for (const auto &r : records)
            if (r.value(QStringLiteral("queueId")).toInt() == 0)
                queue0.push_back(r);
        QCOMPARE(queue0.size(), 10);
        for (int i = 0; i < entries.size(); ++i) {
            QCOMPARE(entries[i].value(QStringLiteral("queueOffset")).toInteger(), i);
            QVERIFY(entries[i].value(QStringLiteral("valid")).toBool());
            QCOMPARE(entries[i].value(QStringLiteral("commitLogOffset")).toInteger(),
                     queue0[i].value(QStringLiteral("offset")).toInteger());
            QCOMPARE(entries[i].value(QStringLiteral("size")).toInteger(), queue0[i].value(QStringLiteral("size")).toInteger());
        }
        const auto paged = jsonLines(store(QStringLiteral("cq"), written_,
                                           {QStringLiteral("--topic"), QStringLiteral("T"), QStringLiteral("--queue"),
                                            QStringLiteral("0"), QStringLiteral("--from"), QStringLiteral("8"),
                                            QStringLiteral("--json")}).out);
        QCOMPARE(paged.size(), 2);

        const Run missing = store(QStringLiteral("cq"), written_, {QStringLiteral("--topic"), QStringLiteral("T"),
                                                                   QStringLiteral("--queue"), QStringLiteral("7")});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY(missing.err.contains("no consume queue T/7"));
        const Run noTopic = store(QStringLiteral("cq"), written_, {QStringLiteral("--queue"), QStringLiteral("0")});
        QCOMPARE(noTopic.exitCode, 2);
        QVERIFY(noTopic.err.contains("--topic"));
    }

    void indexOfWrittenStore()
    {
        const auto files = jsonLines(store(QStringLiteral("index"), written_, {QStringLiteral("--json")}).out);
        QCOMPARE(files.size(), 1);
        QCOMPARE(files.front().value(QStringLiteral("hashSlotNum")).toInt(), 1000);

        const auto record = jsonLines(store(QStringLiteral("records"), written_,
                                            {QStringLiteral("--json"), QStringLiteral("--key"), QStringLiteral("k7")}).out);
        QCOMPARE(record.size(), 1);
        const Run run = store(QStringLiteral("index"), written_, {QStringLiteral("--key"), QStringLiteral("k7"),
                                                                  QStringLiteral("--topic"), QStringLiteral("T"),
                                                                  QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const auto lookups = jsonLines(run.out);
        QCOMPARE(lookups.size(), 1);
        QCOMPARE(lookups.front().value(QStringLiteral("indexKey")).toString(), QStringLiteral("T#k7"));
        const QJsonArray hits = lookups.front().value(QStringLiteral("hits")).toArray();
        QCOMPARE(hits.size(), 1);
        QCOMPARE(hits.at(0).toInteger(), record.front().value(QStringLiteral("offset")).toInteger());

        const Run human = store(QStringLiteral("index"), written_, {QStringLiteral("--key"), QStringLiteral("k7"),
                                                                    QStringLiteral("--topic"), QStringLiteral("T")});
        QVERIFY(human.out.contains("key T#k7"));
        QVERIFY(human.out.contains("RECORD HAS KEY"));

        // k8 went to topic U: no hit under T.
        const auto other = jsonLines(store(QStringLiteral("index"), written_,
                                           {QStringLiteral("--key"), QStringLiteral("k8"), QStringLiteral("--topic"),
                                            QStringLiteral("T"), QStringLiteral("--json")}).out);
        QCOMPARE(other.size(), 1);
        QVERIFY(other.front().value(QStringLiteral("hits")).toArray().isEmpty());

        const Run noTopic = store(QStringLiteral("index"), written_, {QStringLiteral("--key"), QStringLiteral("k7")});
        QCOMPARE(noTopic.exitCode, 2);
        QVERIFY(noTopic.err.contains("--topic"));
        QCOMPARE(store(QStringLiteral("verify"), written_).exitCode, 0);
    }

    void binaryBodyIsBase64()
    {
        const auto lines = jsonLines(store(QStringLiteral("records"), binary_, {QStringLiteral("--json")}).out);
        QCOMPARE(lines.size(), 1);
        QVERIFY(!lines.front().contains(QStringLiteral("body")));
        const QByteArray body = QByteArray::fromBase64(lines.front().value(QStringLiteral("bodyBase64")).toString().toLatin1());
        QCOMPARE(body, QByteArray(reinterpret_cast<const char *>(binaryBody_.data()), qsizetype(binaryBody_.size())));
        const Run human = store(QStringLiteral("records"), binary_);
        QCOMPARE(human.exitCode, 0);
        QVERIFY(human.out.contains("B "));
    }

    void verifyReportsDamagedCopy()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString() + "/damaged";
        test::copyFixture("study-2019", root);
        const std::string log = root + "/commitlog/00000000000000000000";
        auto bytes = test::readFile(log);
        const int64_t recordAt = 172 * 3; // the fourth record; a V1 record's body starts 88 bytes in
        bytes[recordAt + 88 + 5] ^= 0x01;
        test::writeFile(log, bytes);

        const Run human = store(QStringLiteral("verify"), root);
        QCOMPARE(human.exitCode, 3);
        QVERIFY(human.out.contains("record-crc"));
        QVERIFY(human.out.contains("commitlog/00000000000000000000  516"));

        const Run json = store(QStringLiteral("verify"), root, {QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 3);
        const auto lines = jsonLines(json.out);
        QVERIFY(lines.size() >= 2);
        bool found = false;
        for (qsizetype i = 0; i + 1 < lines.size(); ++i) {
            for (const char *field : {"file", "offset", "kind", "message"})
                QVERIFY(lines[i].contains(QLatin1String(field)));
            if (lines[i].value(QStringLiteral("kind")).toString() == QStringLiteral("record-crc")) {
                QCOMPARE(lines[i].value(QStringLiteral("file")).toString(), QStringLiteral("commitlog/00000000000000000000"));
                QCOMPARE(lines[i].value(QStringLiteral("offset")).toInteger(), recordAt);
                found = true;
            }
        }
        QVERIFY(found);
        QVERIFY(!lines.back().value(QStringLiteral("healthy")).toBool());

        // The record still lists, marked.
        const auto records = jsonLines(store(QStringLiteral("records"), root, {QStringLiteral("--json")}).out);
        QCOMPARE(records.size(), 47);
        QVERIFY(!records[3].value(QStringLiteral("crcOk")).toBool());
    }

    void badInput()
    {
        const Run missingDir = admin({QStringLiteral("store"), QStringLiteral("summary")});
        QCOMPARE(missingDir.exitCode, 2);
        QVERIFY(missingDir.err.contains("DIR"));

        const Run noSuchDir = store(QStringLiteral("summary"), dir_.path().toStdString() + "/nowhere");
        QCOMPARE(noSuchDir.exitCode, 1);
        QVERIFY(noSuchDir.err.contains("nowhere"));
        QVERIFY(noSuchDir.out.isEmpty());

        const Run unknown = store(QStringLiteral("bogus"), study_);
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY(unknown.err.contains("unknown store command 'bogus'"));

        const std::string notStore = dir_.path().toStdString() + "/not-a-store";
        fs::create_directories(notStore + "/stuff");
        const Run notAStore = store(QStringLiteral("records"), notStore);
        QCOMPARE(notAStore.exitCode, 1);
        QVERIFY(notAStore.err.contains("is not a RocketMQ store"));
        QVERIFY(notAStore.err.contains("not-a-store"));

        const Run badFlag = store(QStringLiteral("records"), study_, {QStringLiteral("--limit"), QStringLiteral("-3")});
        QCOMPARE(badFlag.exitCode, 2);
        QVERIFY(badFlag.err.contains("--limit"));
        const Run unknownFlag = store(QStringLiteral("records"), study_, {QStringLiteral("--frob")});
        QCOMPARE(unknownFlag.exitCode, 2);
        QVERIFY(unknownFlag.err.contains("--frob"));

        const std::string lockOnly = dir_.path().toStdString() + "/lock-only";
        fs::create_directories(lockOnly);
        test::writeFile(lockOnly + "/lock", {'l', 'o', 'c', 'k'});
        const Run noCheckpoint = store(QStringLiteral("checkpoint"), lockOnly);
        QCOMPARE(noCheckpoint.exitCode, 1);
        QVERIFY2(noCheckpoint.err.contains("lock-only/checkpoint"), noCheckpoint.err.constData());

        const Run help = admin({QStringLiteral("store"), QStringLiteral("records"), QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("--from"));
    }
};

QTEST_GUILESS_MAIN(MqdeskAdminTest)
#include "tst_mqdesk_admin.moc"
