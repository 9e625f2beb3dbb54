// The timer store's files byte for byte against store-format §12.2 and Java's writers:
// timerwheel slots, timerlog units and the end-of-file blank, config/timercheck and
// config/timermetrics. Each is written through our code, then read back as raw bytes.

#include "test_support.h"

#include "broker/common/bytes.h"
#include "broker/common/java_hash.h"
#include "broker/store/config/timer_metrics.h"
#include "broker/store/mapped_file.h"
#include "broker/store/timer_checkpoint.h"
#include "broker/store/timer_log.h"
#include "broker/store/timer_wheel.h"

#include <QTemporaryDir>

#include <array>
#include <filesystem>
#include <fstream>
#include <map>

using namespace mqdesk;
using namespace mqdesk::store;
using common::readInt32;
using common::readInt64;

class TimerFilesTest : public QObject
{
    Q_OBJECT

private slots:
    void wheelSlotsAreJavasLayout()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/timerwheel";
        const int64_t timeMs = 1'700'000'123'000;
        std::string error;
        {
            auto wheel = TimerWheel::open(path, 604800, 1000, error);
            QVERIFY2(wheel, error.c_str());
            wheel->putSlot(timeMs, 52, 104, 2, 0);
            QVERIFY2(wheel->flush(error), error.c_str());
        }
        const auto bytes = test::readFile(path);
        QCOMPARE(bytes.size(), size_t{38'707'200}); // 1,209,600 slots × 32 bytes
        const size_t at = static_cast<size_t>(timeMs / 1000 % 1'209'600) * 32;
        QCOMPARE(readInt64(bytes.data() + at), timeMs / 1000); // precision units, not ms
        QCOMPARE(readInt64(bytes.data() + at + 8), int64_t{52});
        QCOMPARE(readInt64(bytes.data() + at + 16), int64_t{104});
        QCOMPARE(readInt32(bytes.data() + at + 24), 2);
        QCOMPARE(readInt32(bytes.data() + at + 28), 0);

        auto wheel = TimerWheel::open(path, 604800, 1000, error);
        QVERIFY2(wheel, error.c_str());
        const TimerSlot slot = wheel->slot(timeMs + 999); // same second, same slot
        QCOMPARE(slot.timeMs, timeMs);
        QCOMPARE(slot.lastPos, int64_t{104});
        // The same index a whole wheel later holds another time: empty.
        QCOMPARE(wheel->slot(timeMs + int64_t{1'209'600} * 1000).timeMs, int64_t{-1});
        wheel.reset();

        std::filesystem::resize_file(path, 1000);
        QVERIFY(!TimerWheel::open(path, 604800, 1000, error));
        QVERIFY2(error.find("timer wheel length 1000") != std::string::npos, error.c_str());
    }

    // The wheel keeps only the pages that hold data: slots another writer left anywhere in the
    // file (here raw bytes, as Java's mapping writes them), at the first and last slot of a page
    // and of the file, are read back, and the untouched rest reads as empty.
    void wheelReadsSlotsFromEveryPartOfTheFile()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/timerwheel";
        constexpr int64_t kSlots = 1'209'600;
        const int64_t base = 1'700'000'000; // seconds; slot index = second % kSlots
        const std::array<int64_t, 5> indexes = {0, 127, 128, 604'800, kSlots - 1}; // 128 slots per 4 KiB page
        std::vector<int64_t> seconds;
        {
            std::filesystem::resize_file((std::ofstream(path), path), uintmax_t{kSlots} * 32);
            std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
            for (const int64_t index : indexes) {
                const int64_t second = base - base % kSlots + kSlots + index;
                seconds.push_back(second);
                std::array<uint8_t, 32> slot{};
                common::writeInt64(slot.data(), second);
                common::writeInt64(slot.data() + 8, index * 100);
                common::writeInt64(slot.data() + 16, index * 100 + 52);
                common::writeInt32(slot.data() + 24, 3);
                file.seekp(static_cast<std::streamoff>(index * 32));
                file.write(reinterpret_cast<const char *>(slot.data()), slot.size());
            }
        }
        std::string error;
        auto wheel = TimerWheel::open(path, 604800, 1000, error);
        QVERIFY2(wheel, error.c_str());
        for (size_t i = 0; i < indexes.size(); ++i) {
            const TimerSlot slot = wheel->slot(seconds[i] * 1000);
            QCOMPARE(slot.timeMs, seconds[i] * 1000);
            QCOMPARE(slot.firstPos, indexes[i] * 100);
            QCOMPARE(slot.lastPos, indexes[i] * 100 + 52);
            QCOMPARE(slot.num, 3);
        }
        QCOMPARE(wheel->slot((seconds[0] + 1) * 1000).timeMs, int64_t{-1});
        QCOMPARE(wheel->allNum(seconds[0] * 1000), int64_t{3 * indexes.size()});
        QCOMPARE(wheel->checkPhyPos(seconds[0] * 1000, 127 * 100 + 52), int64_t{128 * 100});

        // A slot written in a page that held nothing, flushed and read back after a reopen.
        const int64_t fresh = seconds[0] + 300'000;
        wheel->putSlot(fresh * 1000, 7, 9, 1, 0);
        QVERIFY2(wheel->flush(error), error.c_str());
        wheel = TimerWheel::open(path, 604800, 1000, error);
        QVERIFY2(wheel, error.c_str());
        QCOMPARE(wheel->slot(fresh * 1000).lastPos, int64_t{9});
        QCOMPARE(wheel->slot(seconds[3] * 1000).lastPos, indexes[3] * 100 + 52);
        QCOMPARE(wheel->allNum(seconds[0] * 1000), int64_t{3 * indexes.size() + 1});
    }

    // An idle broker's wheel takes memory for what it holds, not for its 38.7 MB file.
    void aWheelHoldingLittleTakesLittleMemory()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/timerwheel";
        std::string error;
        const int64_t before = test::residentAnonymousBytes();
        auto wheel = TimerWheel::open(path, 604800, 1000, error);
        QVERIFY2(wheel, error.c_str());
        wheel->putSlot(1'700'000'123'000, 52, 104, 2, 0);
        QVERIFY2(wheel->flush(error), error.c_str());
        wheel = TimerWheel::open(path, 604800, 1000, error);
        QVERIFY2(wheel, error.c_str());
        const int64_t grown = test::residentAnonymousBytes() - before;
        QVERIFY2(grown < 8 * 1024 * 1024, qPrintable(QStringLiteral("grew by %1 bytes").arg(grown)));
    }

    void timerLogUnitsAndBlankAreJavasLayout()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString() + "/timerlog";
        const int64_t fileSize = 200; // three units, then 44 bytes: too few for a unit + 16
        std::string error;
        {
            TimerLog log(root, fileSize);
            QVERIFY2(log.load(error), error.c_str());
            for (int i = 0; i < 4; ++i) {
                TimerLogUnit unit;
                unit.prevPos = i == 0 ? -1 : (i - 1) * 52;
                unit.magic = i == 3 ? (TimerLogUnit::kMagicDefault | TimerLogUnit::kMagicRoll) : TimerLogUnit::kMagicDefault;
                unit.writeTimeMs = 1'700'000'000'000 + i;
                unit.delayMs = 5000;
                unit.commitLogOffset = 4096 * i;
                unit.commitLogSize = 300 + i;
                unit.realTopicHash = 0x12345678;
                const int64_t expected = i < 3 ? i * 52 : 200;
                QCOMPARE(log.append(unit, error), expected);
            }
            QVERIFY2(log.flushAll(error), error.c_str());
        }
        const auto first = test::readFile(root + "/00000000000000000000");
        QCOMPARE(first.size(), size_t{200});
        const uint8_t *u1 = first.data() + 52;
        QCOMPARE(readInt32(u1), 52);
        QCOMPARE(readInt64(u1 + 4), int64_t{0});
        QCOMPARE(readInt32(u1 + 12), 1);
        QCOMPARE(readInt64(u1 + 16), int64_t{1'700'000'000'001});
        QCOMPARE(readInt32(u1 + 24), 5000);
        QCOMPARE(readInt64(u1 + 28), int64_t{4096});
        QCOMPARE(readInt32(u1 + 36), 301);
        QCOMPARE(readInt32(u1 + 40), 0x12345678);
        QCOMPARE(readInt64(u1 + 44), int64_t{0});
        // The blank: remaining length, a zero long, the blank magic (== the commit log's).
        QCOMPARE(readInt32(first.data() + 156), 44);
        QCOMPARE(readInt64(first.data() + 160), int64_t{0});
        QCOMPARE(static_cast<uint32_t>(readInt32(first.data() + 168)), 0xCBD43194u);
        const auto second = test::readFile(root + "/00000000000000000200");
        QCOMPARE(readInt32(second.data() + 12), 3);
        QCOMPARE(readInt64(second.data() + 4), int64_t{104});
    }

    void timerLogFilesGoOnceTheirMessagesLeftTheCommitLog()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString() + "/timerlog";
        std::string error;
        TimerLog log(root, 200); // three units a file
        QVERIFY2(log.load(error), error.c_str());
        QCOMPARE(log.offsetOfLastUnit(), int64_t{104}); // Java's getOffsetForLastUnit
        for (int i = 0; i < 8; ++i) { // files 0 and 200 full, 400 holds two
            TimerLogUnit unit;
            unit.commitLogOffset = 1000 * (i + 1);
            unit.commitLogSize = 100;
            QVERIFY(log.append(unit, error) >= 0);
        }
        QCOMPARE(log.files().fileCount(), size_t{3});
        QCOMPARE(log.deleteExpiredFiles(3000, error), 0); // file 0's last unit parks 3000: kept
        QCOMPARE(log.deleteExpiredFiles(6001, error), 2);  // files 0 and 200 only parked below
        QCOMPARE(log.files().firstFile()->fileFromOffset(), int64_t{400});
        QCOMPARE(log.deleteExpiredFiles(1'000'000, error), 0); // never the last file
        QVERIFY(!std::filesystem::exists(root + "/00000000000000000000"));
        QVERIFY(log.read(400).has_value());
    }

    void checkpointIsJavasLayout()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/timercheck";
        std::string error;
        {
            auto checkpoint = TimerCheckpoint::open(path, error);
            QVERIFY2(checkpoint, error.c_str());
            QVERIFY(checkpoint->versionTimestamp() > 0); // a new DataVersion is stamped now
            checkpoint->setLastReadTimeMs(1'700'000'000'100);
            checkpoint->setLastTimerLogFlushPos(520);
            checkpoint->setLastTimerQueueOffset(10);
            checkpoint->setMasterTimerQueueOffset(11);
            checkpoint->nextVersion(7);
            QVERIFY2(checkpoint->flush(error), error.c_str());
        }
        const auto bytes = test::readFile(path);
        QCOMPARE(bytes.size(), size_t{4096});
        QCOMPARE(readInt64(bytes.data()), int64_t{1'700'000'000'100});
        QCOMPARE(readInt64(bytes.data() + 8), int64_t{520});
        QCOMPARE(readInt64(bytes.data() + 16), int64_t{10});
        QCOMPARE(readInt64(bytes.data() + 24), int64_t{11});
        QCOMPARE(readInt64(bytes.data() + 32), int64_t{7});
        QVERIFY(readInt64(bytes.data() + 40) > 0);
        QCOMPARE(readInt64(bytes.data() + 48), int64_t{1});
        for (size_t i = 56; i < bytes.size(); ++i)
            QCOMPARE(bytes[i], uint8_t{0});
        auto reopened = TimerCheckpoint::open(path, error);
        QCOMPARE(reopened->lastTimerQueueOffset(), int64_t{10});
        QCOMPARE(reopened->versionCounter(), int64_t{1});
    }

    void metricsAreJavasCompactJson()
    {
        QTemporaryDir dir;
        const std::string configDir = dir.path().toStdString();
        std::string error;
        TimerMetrics metrics;
        metrics.setConfigDir(configDir);
        metrics.add("TopicA", 1);
        metrics.add("TopicA", 1);
        metrics.add("TopicB", -1);
        QVERIFY2(metrics.persist(error), error.c_str());
        const auto bytes = test::readFile(configDir + "/timermetrics");
        const std::string text(bytes.begin(), bytes.end());
        const auto version = metrics.dataVersion();
        const auto counts = metrics.timingCount();
        QCOMPARE(counts.size(), size_t{2});
        std::string expected = "{\"dataVersion\":{\"counter\":" + std::to_string(version.counter)
                               + ",\"stateVersion\":0,\"timestamp\":" + std::to_string(version.timestamp)
                               + "},\"timingCount\":{";
        for (size_t i = 0; i < counts.size(); ++i) {
            expected += (i ? ",\"" : "\"") + counts[i].first + "\":{\"count\":" + std::to_string(counts[i].second.count)
                        + ",\"timeStamp\":" + std::to_string(counts[i].second.timeStamp) + "}";
        }
        expected += "}}";
        QCOMPARE(text, expected);
        QCOMPARE(version.counter, int64_t{3});

        TimerMetrics loaded;
        QVERIFY2(loaded.load(configDir, error), error.c_str());
        QCOMPARE(loaded.count("TopicA"), int64_t{2});
        QCOMPARE(loaded.count("TopicB"), int64_t{-1});
        QCOMPARE(loaded.encode(), metrics.encode());
    }

    // The timer files of a Java broker 5.5.0 store (tests/fixtures/java-5.5.0-timer, see its
    // README): read with our readers, and written back unchanged where we write them.
    void javaWrittenTimerFiles()
    {
        const std::string fixture = std::string(MQDESK_PROJECT_FIXTURES_DIR) + "/java-5.5.0-timer";
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        std::string error;

        // timermetrics: loaded and re-encoded byte for byte (compact, as Java's writeJSONString).
        std::filesystem::copy_file(fixture + "/config/timermetrics", root + "/timermetrics");
        const auto metricsBytes = test::readFile(root + "/timermetrics");
        TimerMetrics metrics;
        QVERIFY2(metrics.load(root, error), error.c_str());
        QCOMPARE(metrics.count("peerjava_3o6e46_1"), int64_t{2});
        QCOMPARE(metrics.encode(), std::string(metricsBytes.begin(), metricsBytes.end()));

        // timercheck: the values Java wrote; flushing them back changes no byte.
        std::filesystem::copy_file(fixture + "/config/timercheck", root + "/timercheck");
        const auto checkBytes = test::readFile(root + "/timercheck");
        {
            auto checkpoint = TimerCheckpoint::open(root + "/timercheck", error);
            QVERIFY2(checkpoint, error.c_str());
            QCOMPARE(checkpoint->lastReadTimeMs(), int64_t{1796222039000});
            QCOMPARE(checkpoint->lastTimerLogFlushPos(), int64_t{208});
            QCOMPARE(checkpoint->lastTimerQueueOffset(), int64_t{4});
            QCOMPARE(checkpoint->masterTimerQueueOffset(), int64_t{4});
            QCOMPARE(checkpoint->versionCounter(), int64_t{10});
            QVERIFY2(checkpoint->flush(error), error.c_str());
        }
        QVERIFY(test::readFile(root + "/timercheck") == checkBytes);

        // timerlog: four 52-byte units, each parking a message of the topic (its String.hashCode).
        const auto log = test::readFile(fixture + "/timerlog/00000000000000000000.used");
        QCOMPARE(log.size(), size_t{4 * 52});
        std::map<int64_t, TimerLogUnit> units;
        for (size_t at = 0; at < log.size(); at += TimerLogUnit::kSize) {
            const TimerLogUnit unit = TimerLogUnit::decode(log.data() + at);
            QCOMPARE(unit.size, TimerLogUnit::kSize);
            QCOMPARE(unit.magic, TimerLogUnit::kMagicDefault);
            QCOMPARE(unit.realTopicHash, common::javaStringHashCode("peerjava_3o6e46_1"));
            QCOMPARE(unit.targetMs() % 1000, int64_t{0});
            units[static_cast<int64_t>(at)] = unit;
        }

        // timerwheel: Java's slots put back at their offsets in a sparse wheel; each is found by
        // its time, and its chain head is a unit parked for that time.
        const std::string wheelPath = root + "/timerwheel";
        {
            std::ofstream create(wheelPath, std::ios::binary);
        }
        std::filesystem::resize_file(wheelPath, 38'707'200);
        std::ifstream slotLines(fixture + "/timerwheel.slots.txt");
        std::vector<std::array<int64_t, 6>> expected;
        for (std::array<int64_t, 6> row{}; slotLines >> row[0] >> row[1] >> row[2] >> row[3] >> row[4] >> row[5];)
            expected.push_back(row);
        QCOMPARE(expected.size(), size_t{4});
        {
            std::fstream wheelFile(wheelPath, std::ios::binary | std::ios::in | std::ios::out);
            for (const auto &row : expected) {
                uint8_t bytes[32];
                common::writeInt64(bytes, row[1]);
                common::writeInt64(bytes + 8, row[2]);
                common::writeInt64(bytes + 16, row[3]);
                common::writeInt32(bytes + 24, static_cast<int32_t>(row[4]));
                common::writeInt32(bytes + 28, static_cast<int32_t>(row[5]));
                wheelFile.seekp(row[0] * 32);
                wheelFile.write(reinterpret_cast<const char *>(bytes), 32);
            }
        }
        auto wheel = TimerWheel::open(wheelPath, 604800, 1000, error);
        QVERIFY2(wheel, error.c_str());
        for (const auto &row : expected) {
            const int64_t timeMs = row[1] * 1000;
            QCOMPARE(int64_t{wheel->slotIndex(timeMs)}, row[0]);
            const TimerSlot slot = wheel->slot(timeMs);
            QCOMPARE(slot.timeMs, timeMs);
            QCOMPARE(slot.firstPos, row[2]);
            QCOMPARE(slot.lastPos, row[3]);
            QCOMPARE(int64_t{slot.num}, row[4]);
            QVERIFY(units.contains(slot.lastPos));
            QCOMPARE(units[slot.lastPos].targetMs(), timeMs);
        }
    }
};

QObject *createTimerFilesTest()
{
    return new TimerFilesTest;
}

#include "tst_timer_files.moc"
