// The write path's knobs (issue 16): writeWithoutMmap, warmMapedFileEnable and
// useReentrantLockWhenPutMessage change how bytes reach the file, never which bytes: every test
// reads back what it put, from the running store and from a reopened one.

#include "store_test_util.h"

#include "broker/store/index_file.h"
#include "broker/store/mapped_file.h"

#include <sys/stat.h>

#include <QFile>

#include <atomic>
#include <filesystem>
#include <thread>

using namespace mqdesk;
using namespace mqdesk::store;
using mqdesk::test::q;

namespace {

// Every record of a store reopened from `config`, after a clean shutdown of the one written.
// A ~320-byte record's body.
std::string bodyFor(int i)
{
    return "body-" + std::to_string(i) + std::string(200, '.');
}

std::vector<common::StoredMessage> reopenAndRead(const MessageStoreConfig &config, bool &abnormal)
{
    auto reopened = test::openStore(config);
    if (!reopened)
        return {};
    abnormal = reopened->recoveryReport().abnormal;
    return test::allRecords(reopened->commitLog());
}

// The blocks the files under `directory` hold on disk, and the bytes they are long.
struct DiskUse
{
    int64_t allocated = 0;
    int64_t length = 0;
};

DiskUse diskUseUnder(const std::string &directory)
{
    DiskUse use;
    for (const auto &entry : std::filesystem::recursive_directory_iterator(directory)) {
        struct stat st{};
        if (entry.is_regular_file() && ::stat(entry.path().c_str(), &st) == 0) {
            use.allocated += int64_t{st.st_blocks} * 512;
            use.length += st.st_size;
        }
    }
    return use;
}

} // namespace

class WritePathTest : public QObject
{
    Q_OBJECT

private slots:
    void writeWithoutMmap_data()
    {
        QTest::addColumn<int>("flush");
        QTest::newRow("ASYNC_FLUSH") << static_cast<int>(FlushDiskType::AsyncFlush);
        QTest::newRow("SYNC_FLUSH") << static_cast<int>(FlushDiskType::SyncFlush);
    }

    // Appends through pwrite, across file ends (blank records included), read back through the
    // mapping while running and after a restart, exactly as appends through the mapping.
    void writeWithoutMmap()
    {
        QFETCH(int, flush);
        QTemporaryDir dir;
        auto config = test::smallStoreConfig(dir.path(), 16 * 1024, static_cast<FlushDiskType>(flush));
        config.writeWithoutMmap = true;
        constexpr int kCount = 120; // ~300-byte records: several 16 KiB files
        {
            auto store = test::openStore(config);
            QVERIFY(store);
            QVERIFY(store->commitLog().writeWithoutMmap());
            for (int i = 0; i < kCount; ++i) {
                const auto r = store->putMessage(test::makeMessage("P", i % 3, bodyFor(i)));
                QCOMPARE(r.status, PutMessageStatus::PutOk);
                const auto read = store->commitLog().readMessage(r.wroteOffset);
                QVERIFY(read);
                QCOMPARE(q(read->bodyText()), q(bodyFor(i)));
            }
            QVERIFY(store->commitLog().mappedFileQueue().files().size() >= 3);
        }
        bool abnormal = true;
        const auto records = reopenAndRead(config, abnormal);
        QVERIFY(!abnormal);
        QCOMPARE(records.size(), size_t{kCount});
        for (int i = 0; i < kCount; ++i)
            QCOMPARE(q(records[static_cast<size_t>(i)].bodyText()), q(bodyFor(i)));
    }

    // Switched while puts flow, in both directions: the log stays one gap-free sequence.
    void writeWithoutMmapSwitchesLive()
    {
        QTemporaryDir dir;
        const auto config = test::smallStoreConfig(dir.path(), 16 * 1024);
        {
            auto store = test::openStore(config);
            QVERIFY(store);
            std::atomic<bool> done{false};
            std::thread flipper([&] {
                for (bool on = true; !done.load(); on = !on) {
                    store->commitLog().setWriteWithoutMmap(on);
                    std::this_thread::yield();
                }
            });
            for (int i = 0; i < 300; ++i)
                QCOMPARE(store->putMessage(test::makeMessage("L", 0, "m" + std::to_string(i))).status,
                         PutMessageStatus::PutOk);
            done = true;
            flipper.join();
        }
        bool abnormal = true;
        const auto records = reopenAndRead(config, abnormal);
        QVERIFY(!abnormal);
        QCOMPARE(records.size(), size_t{300});
        for (int i = 0; i < 300; ++i) {
            QCOMPARE(records[static_cast<size_t>(i)].queueOffset, int64_t{i});
            QCOMPARE(q(records[static_cast<size_t>(i)].bodyText()), q("m" + std::to_string(i)));
        }
    }

    // A failed pwrite fails that put (naming the file and the cause), advances nothing, and
    // the next put takes its place: no hole, no duplicate queue offset.
    void failedWriteFailsOnlyThatPut()
    {
        QTemporaryDir dir;
        auto config = test::smallStoreConfig(dir.path(), 1 << 20, FlushDiskType::SyncFlush);
        config.writeWithoutMmap = true;
        {
            auto store = test::openStore(config);
            QVERIFY(store);
            QCOMPARE(store->putMessage(test::makeMessage("F", 0, "first")).status, PutMessageStatus::PutOk);
            const int64_t end = store->commitLog().maxOffset();
            failNextWritesForTesting(1, 5 /* EIO */);
            const auto failed = store->putMessage(test::makeMessage("F", 0, "lost"));
            QCOMPARE(failed.status, PutMessageStatus::UnknownError);
            QVERIFY2(failed.error.find("00000000000000000000") != std::string::npos, failed.error.c_str());
            QVERIFY2(failed.error.find("Input/output error") != std::string::npos, failed.error.c_str());
            QCOMPARE(store->commitLog().maxOffset(), end);
            const auto next = store->putMessage(test::makeMessage("F", 0, "second"));
            QCOMPARE(next.status, PutMessageStatus::PutOk);
            QCOMPARE(next.wroteOffset, end);
            QCOMPARE(next.queueOffset, int64_t{1});
        }
        bool abnormal = true;
        const auto records = reopenAndRead(config, abnormal);
        QCOMPARE(records.size(), size_t{2});
        QCOMPARE(q(records[1].bodyText()), q("second"));
    }

    // A warmed file: the files made ahead are written over with zeros and synced before use
    // (the flush metrics count them); the data put into them reads back unchanged.
    void warmedFilesHoldExactlyWhatWasPut()
    {
        QTemporaryDir dir;
        auto config = test::smallStoreConfig(dir.path(), 256 * 1024);
        config.warmMapedFileEnable = true;
        config.flushLeastPagesWhenWarmMapedFile = 8;
        constexpr int kCount = 2500; // ~800 KB: four files, the first warmed at start
        {
            auto store = test::openStore(config);
            QVERIFY(store);
            QVERIFY(store->metrics().totalWarmUps() >= 1); // the first file, before the first put
            QCOMPARE(store->metrics().totalWarmedBytes(), uint64_t{256 * 1024});
            for (int i = 0; i < kCount; ++i)
                QCOMPARE(store->putMessage(test::makeMessage("W", 0, "warm-" + bodyFor(i))).status,
                         PutMessageStatus::PutOk);
            QTRY_VERIFY_WITH_TIMEOUT(store->metrics().totalWarmUps() >= 3, 10000);

            // The per-second samples (GET_FLUSH_SAMPLES) account for every warm-up exactly once,
            // and say which write path was on. A file may still be warming meanwhile.
            const uint64_t warmUpsBefore = store->metrics().totalWarmUps();
            const uint64_t bytesBefore = store->metrics().totalWarmedBytes();
            store->commitLog().setWriteWithoutMmap(true);
            store->tick();
            uint64_t sampledWarmUps = 0, sampledBytes = 0;
            for (const auto &sample : store->metrics().samplesSince(0)) {
                sampledWarmUps += sample.warmUps;
                sampledBytes += sample.warmedBytes;
            }
            QVERIFY(sampledWarmUps >= warmUpsBefore && sampledWarmUps <= store->metrics().totalWarmUps());
            QVERIFY(sampledBytes >= bytesBefore && sampledBytes <= store->metrics().totalWarmedBytes());
            QVERIFY(store->metrics().samplesSince(0).back().writeWithoutMmap);
        }
        bool abnormal = true;
        const auto records = reopenAndRead(config, abnormal);
        QVERIFY(!abnormal);
        QCOMPARE(records.size(), size_t{kCount});
        QCOMPARE(q(records.back().bodyText()), q("warm-" + bodyFor(kCount - 1)));
    }

    // A failing disk during a warm-up leaves a usable file: puts go on.
    void failedWarmUpLeavesAUsableFile()
    {
        QTemporaryDir dir;
        auto config = test::smallStoreConfig(dir.path(), 64 * 1024);
        config.warmMapedFileEnable = true;
        failNextWritesForTesting(1);
        auto store = test::openStore(config);
        QVERIFY(store);
        QCOMPARE(store->metrics().totalWarmUps(), uint64_t{0});
        for (int i = 0; i < 400; ++i)
            QCOMPARE(store->putMessage(test::makeMessage("X", 0, "x")).status, PutMessageStatus::PutOk);
        QCOMPARE(test::allRecords(store->commitLog()).size(), size_t{400});
    }

    // useReentrantLockWhenPutMessage=false: the spin lock orders concurrent puts just as the
    // mutex does (more threads than cores, so holders do lose their CPU).
    void spinLockKeepsQueueOffsetsGapFree()
    {
        QTemporaryDir dir;
        auto config = test::smallStoreConfig(dir.path(), 64 * 1024);
        config.useReentrantLockWhenPutMessage = false;
        config.writeWithoutMmap = true; // a longer critical section
        constexpr int kThreads = 8, kPerThread = 150;
        {
            auto store = test::openStore(config);
            QVERIFY(store);
            std::vector<std::thread> threads;
            for (int t = 0; t < kThreads; ++t) {
                threads.emplace_back([&store, t] {
                    for (int i = 0; i < kPerThread; ++i)
                        store->putMessage(test::makeMessage("S", t % 2, "t" + std::to_string(t)));
                });
            }
            for (auto &thread : threads)
                thread.join();
        }
        bool abnormal = true;
        const auto records = reopenAndRead(config, abnormal);
        QCOMPARE(records.size(), size_t{kThreads * kPerThread});
        int64_t next[2] = {0, 0};
        for (const auto &m : records)
            QCOMPARE(m.queueOffset, next[m.queueId]++);
    }

    // A store takes the disk its records need, as Java's sparse files do: RocketMQ's default
    // 1 GiB commit-log files (and the one made ahead) and 420 MB index files keep their full
    // length (store-format §2) but hold only the blocks written or reserved just ahead — also
    // after a restart, which reserves on from where the files end.
    void filesTakeTheDiskTheirRecordsNeed()
    {
        QTemporaryDir dir;
        MessageStoreConfig config; // RocketMQ's file sizes
        config.storePathRootDir = dir.path().toStdString();
        constexpr int64_t MiB = 1024 * 1024;
        for (int round = 0; round < 2; ++round) {
            auto store = test::openStore(config);
            QVERIFY(store);
            for (int i = 0; i < 300; ++i) {
                const auto put = store->putMessage(test::makeMessage("T", 0, bodyFor(i), "key-" + std::to_string(i)));
                QCOMPARE(put.status, PutMessageStatus::PutOk);
            }
            store->waitForDispatch();
        }
        const DiskUse log = diskUseUnder(config.commitLogDir());
        QVERIFY2(log.length >= 1024 * MiB, std::to_string(log.length).c_str());
        QVERIFY2(log.allocated <= 2 * MiB, std::to_string(log.allocated).c_str());
        const DiskUse index = diskUseUnder(config.storePathRootDir + "/index");
        QCOMPARE(index.length, IndexFile::fileSizeFor(config.maxHashSlotNum, config.maxIndexNum));
        // The header and the 5,000,000 slots (20 MB, written anywhere) are reserved whole.
        QVERIFY2(index.allocated <= 22 * MiB, std::to_string(index.allocated).c_str());
        QVERIFY2(diskUseUnder(config.storePathRootDir).allocated <= 26 * MiB,
                 std::to_string(diskUseUnder(config.storePathRootDir).allocated).c_str());
    }

    void knobsAreBrokerConfKeys()
    {
        MessageStoreConfig config;
        QVERIFY(!config.writeWithoutMmap);
        QVERIFY(!config.warmMapedFileEnable);
        QCOMPARE(config.flushLeastPagesWhenWarmMapedFile, 4096);
        QVERIFY(config.useReentrantLockWhenPutMessage);
        const auto result = config.apply({{"writeWithoutMmap", "true"}, {"warmMapedFileEnable", "true"},
                                          {"flushLeastPagesWhenWarmMapedFile", "64"},
                                          {"useReentrantLockWhenPutMessage", "false"}});
        QVERIFY(result.unknownKeys.empty());
        QVERIFY(config.writeWithoutMmap && config.warmMapedFileEnable && !config.useReentrantLockWhenPutMessage);
        QCOMPARE(config.flushLeastPagesWhenWarmMapedFile, 64);
        QVERIFY(!config.set("flushLeastPagesWhenWarmMapedFile", "0").empty());
    }
};

QObject *createWritePathTest() { return new WritePathTest; }

#include "tst_write_path.moc"
