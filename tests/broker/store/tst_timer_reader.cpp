// The store explorer's reading of the timer files (store_timer_reader.h) and of the POP revive
// bodies (revive_body.h): over a store MessageStore writes with parked timer messages, over the
// Java broker 5.5.0's timer files (tests/fixtures/java-5.5.0-timer) and over damaged copies —
// each damage found with its kind, file and offset, no call crashing.

#include "store_test_util.h"

#include "broker/common/bytes.h"
#include "broker/common/java_hash.h"
#include "broker/store/reader/revive_body.h"
#include "broker/store/reader/store_timer_reader.h"
#include "broker/store/timer_message_store.h"
#include "broker/store/timer_put_transform.h"

#include <QTemporaryDir>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace mqdesk;
using namespace mqdesk::store;
namespace fs = std::filesystem;

namespace {

// Writes `bytes` at `position` of `path` in place.
void patch(const std::string &path, int64_t position, const std::vector<uint8_t> &bytes)
{
    std::fstream file(path, std::ios::binary | std::ios::in | std::ios::out);
    file.seekp(position);
    file.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

std::vector<uint8_t> int32Bytes(int32_t v)
{
    std::vector<uint8_t> b(4);
    common::writeInt32(b.data(), v);
    return b;
}
std::vector<uint8_t> int64Bytes(int64_t v)
{
    std::vector<uint8_t> b(8);
    common::writeInt64(b.data(), v);
    return b;
}

std::unique_ptr<StoreReader> openReader(const std::string &root)
{
    std::string error;
    auto reader = StoreReader::open(root, {}, error);
    if (!reader)
        qWarning("%s", error.c_str());
    return reader;
}

bool hasFault(const std::vector<StoreFault> &faults, const std::string &kind, const std::string &file, int64_t offset)
{
    for (const auto &f : faults)
        if (f.kind == kind && f.file == file && f.offset == offset)
            return true;
    return false;
}

QString faultText(const std::vector<StoreFault> &faults)
{
    QString text;
    for (const auto &f : faults)
        text += QString::fromStdString(f.kind + " " + f.file + "@" + std::to_string(f.offset) + ": " + f.message + "\n");
    return text;
}

} // namespace

// Also used by the explorer's GUI test: a store with three messages parked for an hour.
class TimerReaderTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::string root_;

private slots:
    void initTestCase()
    {
        root_ = dir_.path().toStdString() + "/store";
        MessageStoreConfig config = test::smallStoreConfig(QString::fromStdString(root_), 1024 * 1024);
        config.mappedFileSizeTimerLog = 52 * 200;
        config.timerFlushIntervalMs = 100;
        auto store = test::openStore(config);
        QVERIFY(store && store->timerMessageStore());
        for (int i = 0; i < 3; ++i) {
            common::BrokerMessage message = test::makeMessage("TimerT", 0, "parked-" + std::to_string(i));
            message.properties.set(timer_property::kDelaySec, std::to_string(3600 + i * 10));
            QVERIFY(store->putMessage(message).stored());
        }
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (store->timerMessageStore()->queueOffset() < 3 && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        QCOMPARE(store->timerMessageStore()->queueOffset(), int64_t{3});
        store.reset(); // a clean stop flushes the wheel, the log and the checkpoint
    }

    void readsTheWheelLogAndCheckpointMessageStoreWrote()
    {
        auto reader = openReader(root_);
        QVERIFY(reader);
        const TimerLogPage log = readTimerLogEntries(*reader, 0, 100);
        QVERIFY2(log.error.empty(), log.error.c_str());
        QCOMPARE(log.entries.size(), size_t{3});
        QCOMPARE(log.fileSize, int64_t{52 * 200});
        for (size_t i = 0; i < 3; ++i) {
            const auto &e = log.entries[i];
            QCOMPARE(int(e.kind), int(TimerLogEntryKind::Unit));
            QCOMPARE(e.offset, int64_t(i * 52));
            QCOMPARE(e.file, std::string("timerlog/00000000000000000000"));
            QCOMPARE(e.unit.magic, TimerLogUnit::kMagicDefault);
            QCOMPARE(e.unit.realTopicHash, common::javaStringHashCode("TimerT"));
        }
        QCOMPARE(log.dataEnd, int64_t{156});
        QVERIFY(log.atEnd);

        // Paged: one at a time resumes where the last page stopped.
        const TimerLogPage first = readTimerLogEntries(*reader, 0, 1);
        QCOMPARE(first.entries.size(), size_t{1});
        QVERIFY(!first.atEnd);
        QCOMPARE(first.nextOffset, int64_t{52});
        QCOMPARE(readTimerLogEntries(*reader, first.nextOffset, 10).entries.size(), size_t{2});

        const TimerWheelPage wheel = readTimerWheelSlots(*reader, 0, 100);
        QVERIFY2(wheel.error.empty(), wheel.error.c_str());
        QCOMPARE(wheel.slotCount, 2 * 7 * 86400);
        QCOMPARE(wheel.occupied.size(), size_t{3}); // 10 s apart: three slots
        for (const auto &slot : wheel.occupied) {
            QCOMPARE(slot.num, 1);
            QCOMPARE(slot.firstPos, slot.lastPos);
            QCOMPARE(slot.time % wheel.slotCount, int64_t{slot.index});
            QCOMPARE(slot.filePosition, int64_t{slot.index} * 32);
            bool parked = false;
            for (const auto &e : log.entries)
                parked = parked || (e.offset == slot.lastPos && e.unit.targetMs() == slot.timeMs);
            QVERIFY(parked);
        }
        // Paging the wheel: from after the first slot on.
        const TimerWheelPage rest = readTimerWheelSlots(*reader, wheel.occupied[0].index + 1, 100);
        QCOMPARE(rest.occupied.size(), size_t{2});

        std::string error;
        const auto checkpoint = readTimerCheckpointFile(*reader, &error);
        QVERIFY2(checkpoint, error.c_str());
        QCOMPARE(checkpoint->fileSize, int64_t{4096});
        QCOMPARE(checkpoint->lastTimerQueueOffset, int64_t{3});
        QVERIFY(checkpoint->lastTimerLogFlushPos <= 156); // MQDesk's stop may leave it behind the log

        const TimerMetricsRead metrics = readTimerMetricsFile(*reader);
        QVERIFY2(metrics.error.empty(), metrics.error.c_str());
        QCOMPARE(metrics.entries.size(), size_t{1});
        QCOMPARE(metrics.entries[0].topic, std::string("TimerT"));
        QCOMPARE(metrics.entries[0].count, int64_t{3});

        const auto faults = verifyTimerFiles(*reader);
        QVERIFY2(faults.empty(), qPrintable(faultText(faults)));
        const VerifyReport report = verifyStore(*reader);
        QVERIFY2(report.healthy(), qPrintable(faultText(report.faults)));
        QCOMPARE(readFileBytes(*reader, "timerlog/00000000000000000000", 52, 52).size(), size_t{52});
    }

    void damagedCopiesAreNamedByKindFileAndOffset()
    {
        QTemporaryDir copyDir;
        const std::string copy = copyDir.path().toStdString() + "/store";
        fs::copy(root_, copy, fs::copy_options::recursive);
        const std::string logFile = "timerlog/00000000000000000000";
        patch(copy + "/" + logFile, 52 + 12, int32Bytes(0x40));   // unit 1: bad magic
        patch(copy + "/" + logFile, 104, int32Bytes(51));         // unit 2: bad size
        auto reader = openReader(copy);
        QVERIFY(reader);
        const TimerWheelPage wheel = readTimerWheelSlots(*reader, 0, 100);
        QCOMPARE(wheel.occupied.size(), size_t{3});
        patch(copy + "/timerwheel", wheel.occupied[0].filePosition + 16, int64Bytes(52 * 1000)); // past the log
        patch(copy + "/timerwheel", wheel.occupied[1].filePosition + 28, int32Bytes(0x100));     // bad magic
        patch(copy + "/timerwheel", wheel.occupied[2].filePosition, int64Bytes(wheel.occupied[2].time + 1)); // wrong slot
        fs::resize_file(copy + "/config/timercheck", 20);
        { std::ofstream(copy + "/config/timermetrics", std::ios::trunc) << R"({"timingCount":{"TimerT":5}})"; }

        const TimerLogPage log = readTimerLogEntries(*reader, 0, 100);
        QCOMPARE(log.entries.size(), size_t{3});
        QCOMPARE(int(log.entries[1].kind), int(TimerLogEntryKind::Invalid));
        QVERIFY2(log.entries[1].error.find(logFile + " at 52") != std::string::npos, log.entries[1].error.c_str());
        QCOMPARE(int(log.entries[2].kind), int(TimerLogEntryKind::Invalid));
        std::string error;
        QVERIFY(!readTimerCheckpointFile(*reader, &error));
        QVERIFY2(error.find("config/timercheck: 20 bytes") != std::string::npos, error.c_str());
        QVERIFY(!readTimerMetricsFile(*reader).error.empty());

        const auto faults = verifyTimerFiles(*reader);
        const QString text = faultText(faults);
        QVERIFY2(hasFault(faults, "timer-unit-magic", logFile, 52), qPrintable(text));
        QVERIFY2(hasFault(faults, "timer-unit-size", logFile, 104), qPrintable(text));
        QVERIFY2(hasFault(faults, "timer-slot-position", "timerwheel", wheel.occupied[0].filePosition + 16), qPrintable(text));
        QVERIFY2(hasFault(faults, "timer-slot-magic", "timerwheel", wheel.occupied[1].filePosition + 28), qPrintable(text));
        QVERIFY2(hasFault(faults, "timer-slot-index", "timerwheel", wheel.occupied[2].filePosition), qPrintable(text));
        QVERIFY2(hasFault(faults, "timer-checkpoint", "config/timercheck", 0), qPrintable(text));
        QVERIFY2(hasFault(faults, "timer-metrics", "config/timermetrics", 0), qPrintable(text));
        // verifyStore lists them too.
        QVERIFY(hasFault(verifyStore(*reader).faults, "timer-unit-magic", logFile, 52));

        // Missing files: clear errors naming them.
        fs::remove(copy + "/timerwheel");
        fs::remove_all(copy + "/timerlog");
        fs::remove(copy + "/config/timercheck");
        QCOMPARE(readTimerWheelSlots(*reader, 0, 10).error, std::string("timerwheel: missing or not readable"));
        QCOMPARE(readTimerLogEntries(*reader, 0, 10).error, std::string("timerlog/: no timer-log files"));
        QVERIFY(!readTimerCheckpointFile(*reader, &error));
        QCOMPARE(error, std::string("config/timercheck: missing or not readable"));
        QVERIFY(!hasFault(verifyTimerFiles(*reader), "timer-checkpoint", "config/timercheck", 0));
    }

    void blankMarkerEndsAFile()
    {
        QTemporaryDir tmp;
        const std::string root = tmp.path().toStdString();
        fs::create_directories(root + "/timerlog");
        std::string error;
        {
            TimerLog log(root + "/timerlog", 52 * 3 + 20);
            QVERIFY2(log.load(error), error.c_str());
            for (int i = 0; i < 4; ++i) {
                TimerLogUnit unit;
                unit.prevPos = -1;
                unit.writeTimeMs = 1000 + i;
                QVERIFY2(log.append(unit, error) >= 0, error.c_str());
            }
            QVERIFY2(log.flushAll(error), error.c_str());
        }
        auto reader = openReader(root);
        QVERIFY(reader);
        const TimerLogPage page = readTimerLogEntries(*reader, 0, 100);
        QCOMPARE(page.entries.size(), size_t{5}); // 3 units, the blank, the unit in the second file
        QCOMPARE(int(page.entries[3].kind), int(TimerLogEntryKind::Blank));
        QCOMPARE(page.entries[3].length, 20);
        QVERIFY(page.entries[3].error.empty());
        QCOMPARE(page.entries[4].offset, int64_t{52 * 3 + 20});
        QCOMPARE(page.entries[4].file, std::string("timerlog/00000000000000000176"));
        QVERIFY(verifyTimerFiles(*reader).empty());
    }

    // The Java broker 5.5.0's timer files, rebuilt at their Java sizes: every slot and unit read,
    // and healthy.
    void javaWrittenTimerFilesRead()
    {
        const std::string fixture = std::string(MQDESK_PROJECT_FIXTURES_DIR) + "/java-5.5.0-timer";
        QTemporaryDir tmp;
        const std::string root = tmp.path().toStdString();
        fs::create_directories(root + "/timerlog");
        fs::copy(fixture + "/config", root + "/config", fs::copy_options::recursive);
        fs::copy_file(fixture + "/timerlog/00000000000000000000.used", root + "/timerlog/00000000000000000000");
        fs::resize_file(root + "/timerlog/00000000000000000000", 104'857'600);
        { std::ofstream create(root + "/timerwheel", std::ios::binary); }
        fs::resize_file(root + "/timerwheel", 38'707'200);
        std::ifstream lines(fixture + "/timerwheel.occupied.txt");
        std::vector<std::array<int64_t, 6>> rows;
        for (std::array<int64_t, 6> r{}; lines >> r[0] >> r[1] >> r[2] >> r[3] >> r[4] >> r[5];) {
            rows.push_back(r);
            std::vector<uint8_t> slot = int64Bytes(r[1]);
            for (auto part : {int64Bytes(r[2]), int64Bytes(r[3]), int32Bytes(int32_t(r[4])), int32Bytes(int32_t(r[5]))})
                slot.insert(slot.end(), part.begin(), part.end());
            patch(root + "/timerwheel", r[0] * 32, slot);
        }
        auto reader = openReader(root);
        QVERIFY(reader);
        const TimerWheelPage wheel = readTimerWheelSlots(*reader, 0, 100);
        QCOMPARE(wheel.occupied.size(), rows.size());
        for (size_t i = 0; i < rows.size(); ++i) {
            QCOMPARE(int64_t{wheel.occupied[i].index}, rows[i][0]);
            QCOMPARE(wheel.occupied[i].timeMs, rows[i][1] * 1000);
            QCOMPARE(wheel.occupied[i].lastPos, rows[i][3]);
        }
        const TimerLogPage log = readTimerLogEntries(*reader, 0, 100);
        QCOMPARE(log.entries.size(), size_t{4});
        QCOMPARE(log.dataEnd, int64_t{208});
        for (const auto &e : log.entries)
            QCOMPARE(e.unit.realTopicHash, 937639450);
        std::string error;
        const auto checkpoint = readTimerCheckpointFile(*reader, &error);
        QVERIFY2(checkpoint, error.c_str());
        QCOMPARE(checkpoint->lastReadTimeMs, int64_t{1796222039000});
        QCOMPARE(checkpoint->versionCounter, int64_t{10});
        const TimerMetricsRead metrics = readTimerMetricsFile(*reader);
        QCOMPARE(metrics.entries.size(), size_t{1});
        QCOMPARE(metrics.entries[0].count, int64_t{2});
        const auto faults = verifyTimerFiles(*reader);
        QVERIFY2(faults.empty(), qPrintable(faultText(faults)));
    }

    void reviveBodiesDecode()
    {
        const ReviveBody ck = decodeReviveBody(
            "ck", R"({"bm":0,"bn":"broker-a","c":"G1","d":[0,1],"it":60000,"n":2,"pt":1700000000000,"q":1,"reviveTime":1700000060000,"ro":7,"so":10,"t":"T1"})");
        QVERIFY2(ck.error.empty(), ck.error.c_str());
        QCOMPARE(ck.kind, std::string("CK"));
        QCOMPARE(ck.fields.size(), size_t{12});
        QCOMPARE(ck.fields[0].name, std::string("bitMap"));
        QCOMPARE(ck.fields[3].value, std::string("[0,1]"));
        QCOMPARE(ck.fields[11].name, std::string("topic"));
        QCOMPARE(ck.fields[11].value, std::string("T1"));

        const ReviveBody ack = decodeReviveBody("ack", R"({"ao":11,"bn":"broker-a","c":"G1","pt":1700000000000,"q":1,"so":10,"t":"T1"})");
        QVERIFY2(ack.error.empty(), ack.error.c_str());
        QCOMPARE(ack.kind, std::string("ACK"));
        QCOMPARE(ack.fields[0].name, std::string("ackOffset"));
        const ReviveBody batch = decodeReviveBody("bAck", R"({"aol":[11,12],"bn":"b","c":"G1","pt":1,"q":1,"so":10,"t":"T1"})");
        QCOMPARE(batch.kind, std::string("BATCH_ACK"));
        QVERIFY(batch.error.empty());

        QVERIFY(decodeReviveBody("ck", "not json").error.find("not JSON") != std::string::npos);
        QVERIFY(decodeReviveBody("ck", "[1]").error.find("not an object") != std::string::npos);
        QCOMPARE(decodeReviveBody("ack", R"({"so":1})").error, std::string("ACK body lacks pt, q, t, c, ao"));
        QVERIFY(isReviveTopic("rmq_sys_REVIVE_LOG_DefaultCluster"));
        QVERIFY(!isReviveTopic("TopicA"));
    }
};

QObject *createTimerReaderTest() { return new TimerReaderTest; }

#include "tst_timer_reader.moc"
