// The three flush behaviours, flush timeouts and failures, and switching mode and pool live.

#include "store_test_util.h"

#include "broker/store/store_checkpoint.h"

#include <atomic>
#include <set>
#include <thread>

using namespace mqdesk;
using namespace mqdesk::store;
using namespace std::chrono_literals;
using mqdesk::test::q;

class FlushTest : public QObject
{
    Q_OBJECT

private slots:
    void syncFlushAcknowledgesOnlyFlushedPuts()
    {
        QTemporaryDir dir;
        auto store = test::openStore(test::smallStoreConfig(dir.path(), 1 << 20, FlushDiskType::SyncFlush));
        QVERIFY(store);
        for (int i = 0; i < 20; ++i) {
            const auto r = store->putMessage(test::makeMessage("S", 0, "durable"));
            QCOMPARE(r.status, PutMessageStatus::PutOk);
            QVERIFY(store->commitLog().flushedWhere() >= r.wroteOffset + r.wroteBytes);
        }
        const auto events = store->metrics().recentFlushes(100);
        QVERIFY(!events.empty());
        uint32_t satisfied = 0;
        for (const auto &e : events) {
            QCOMPARE(e.kind, FlushKind::GroupCommit);
            QVERIFY(e.bytes > 0);
            satisfied += e.satisfiedPuts;
        }
        QVERIFY(satisfied > 0 && satisfied <= 20);
        QCOMPARE(store->metrics().putLatency().count(), uint64_t{20});
    }

    void groupCommitServesConcurrentPuts()
    {
        QTemporaryDir dir;
        auto store = test::openStore(test::smallStoreConfig(dir.path(), 1 << 20, FlushDiskType::SyncFlush));
        QVERIFY(store);
        std::atomic<int> ok{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 16; ++t) {
            threads.emplace_back([&, t] {
                for (int i = 0; i < 25; ++i) {
                    if (store->putMessage(test::makeMessage("G", t % 4, "m")).status == PutMessageStatus::PutOk)
                        ++ok;
                }
            });
        }
        for (auto &t : threads)
            t.join();
        QCOMPARE(ok.load(), 400);
        uint64_t satisfied = 0;
        for (const auto &e : store->metrics().recentFlushes(10000))
            satisfied += e.satisfiedPuts;
        QVERIFY(satisfied >= 1 && satisfied <= 400);
        QCOMPARE(store->commitLog().unflushedBytes(), int64_t{0});
    }

    void waitFalsePutsDoNotWait()
    {
        QTemporaryDir dir;
        auto store = test::openStore(test::smallStoreConfig(dir.path(), 1 << 20, FlushDiskType::SyncFlush));
        auto m = test::makeMessage("W", 0, "fire and forget");
        m.properties.set("WAIT", "false");
        QCOMPARE(store->putMessage(m).status, PutMessageStatus::PutOk);
        // The group-commit service still flushes it soon.
        QTRY_COMPARE_WITH_TIMEOUT(store->commitLog().unflushedBytes(), int64_t{0}, 10000);
    }

    void slowDiskGivesFlushDiskTimeout()
    {
        QTemporaryDir dir;
        auto config = test::smallStoreConfig(dir.path(), 1 << 20, FlushDiskType::SyncFlush);
        config.syncFlushTimeout = 50;
        auto store = test::openStore(config);
        store->commitLog().mappedFileQueue().setFlushFaultForTesting([] {
            std::this_thread::sleep_for(400ms);
            return std::string();
        });
        const auto r = store->putMessage(test::makeMessage("Slow", 0, "late but kept"));
        QCOMPARE(r.status, PutMessageStatus::FlushDiskTimeout);
        QVERIFY(r.stored());
        QVERIFY2(r.error.find("syncFlushTimeout") != std::string::npos, r.error.c_str());
        QVERIFY(store->metrics().totalFlushTimeouts() >= 1);
        store->commitLog().mappedFileQueue().setFlushFaultForTesting({});
        QVERIFY(store->commitLog().readMessage(r.wroteOffset));
        QTRY_COMPARE_WITH_TIMEOUT(store->commitLog().unflushedBytes(), int64_t{0}, 10000);
    }

    void failedFlushIsNeverRetriedIntoSuccess()
    {
        QTemporaryDir dir;
        auto config = test::smallStoreConfig(dir.path(), 1 << 20, FlushDiskType::SyncFlush);
        config.syncFlushTimeout = 2000;
        std::vector<int64_t> acknowledged;
        {
            auto store = test::openStore(config);
            const auto before = store->putMessage(test::makeMessage("EIO", 0, "on disk"));
            QCOMPARE(before.status, PutMessageStatus::PutOk);
            acknowledged.push_back(before.wroteOffset);
            const int64_t flushedBefore = store->commitLog().flushedWhere();
            failNextDataSyncsForTesting(1); // the next fdatasync fails with EIO, later ones would succeed
            const auto failed = store->putMessage(test::makeMessage("EIO", 0, "x"));
            QCOMPARE(failed.status, PutMessageStatus::FlushDiskTimeout);
            // The put's error names the file, the bytes and errno.
            QVERIFY2(failed.error.find("00000000000000000000 failed for bytes") != std::string::npos, failed.error.c_str());
            QVERIFY2(failed.error.find("errno 5") != std::string::npos, failed.error.c_str());
            // From now on: no put is acknowledged, the reason is visible, nothing is reported flushed.
            const auto refused = store->putMessage(test::makeMessage("EIO", 0, "y"));
            QCOMPARE(refused.status, PutMessageStatus::ServiceNotAvailable);
            QVERIFY2(refused.error.find("errno 5") != std::string::npos, refused.error.c_str());
            QVERIFY(!store->writeFault().empty());
            std::this_thread::sleep_for(50ms); // the group-commit thread keeps trying in SYNC_FLUSH
            QCOMPARE(store->commitLog().flushedWhere(), flushedBefore);
            store->setFlushDiskType(FlushDiskType::AsyncFlush);
            QCOMPARE(store->putMessage(test::makeMessage("EIO", 0, "z")).status, PutMessageStatus::ServiceNotAvailable);
            QCOMPARE(store->commitLog().flushedWhere(), flushedBefore);
        }
        // Reopened (abnormally: the shutdown could not flush), the store works again and keeps
        // what it acknowledged.
        auto store = test::openStore(config);
        QVERIFY(store->recoveryReport().abnormal);
        QVERIFY(store->writeFault().empty());
        for (const int64_t offset : acknowledged)
            QVERIFY(store->lookMessageByOffset(offset));
        QCOMPARE(store->putMessage(test::makeMessage("EIO", 0, "after")).status, PutMessageStatus::PutOk);
    }

    void asyncFlushOnTimerAndThoroughly()
    {
        QTemporaryDir dir;
        auto config = test::smallStoreConfig(dir.path(), 1 << 20);
        config.flushIntervalCommitLog = 20;
        config.flushCommitLogThoroughInterval = 200;
        auto store = test::openStore(config);
        // Less than the 4 pages a timed flush needs: only a thorough flush takes it.
        const auto r = store->putMessage(test::makeMessage("A", 0, std::string(500, 'a')));
        QCOMPARE(r.status, PutMessageStatus::PutOk);
        QTRY_COMPARE_WITH_TIMEOUT(store->commitLog().unflushedBytes(), int64_t{0}, 10000);
        bool sawThorough = false;
        for (const auto &e : store->metrics().recentFlushes(100))
            sawThorough |= e.kind == FlushKind::Thorough;
        QVERIFY(sawThorough);
        // Enough for the page rule: a timed flush.
        for (int i = 0; i < 40; ++i)
            store->putMessage(test::makeMessage("A", 0, std::string(1000, 'b')));
        QTRY_COMPARE_WITH_TIMEOUT(store->commitLog().unflushedBytes(), int64_t{0}, 10000);
        bool sawTimed = false;
        for (const auto &e : store->metrics().recentFlushes(100))
            sawTimed |= e.kind == FlushKind::Timed;
        QVERIFY(sawTimed);
        QVERIFY(store->checkpoint().physicMsgTimestamp() > 0);
    }

    void asyncFlushWokenByPuts()
    {
        QTemporaryDir dir;
        auto config = test::smallStoreConfig(dir.path(), 1 << 20);
        config.flushCommitLogTimed = false;
        config.wakeFlushWhenPutMessage = true;
        config.flushIntervalCommitLog = 600000; // only a wakeup can trigger it in this test
        config.flushCommitLogLeastPages = 0;
        auto store = test::openStore(config);
        QTest::qWait(50); // let the service enter its long wait
        store->putMessage(test::makeMessage("N", 0, "wake up"));
        QTRY_COMPARE_WITH_TIMEOUT(store->commitLog().unflushedBytes(), int64_t{0}, 10000);
    }

    void transientPoolCommitsThenFlushes()
    {
        QTemporaryDir dir;
        auto config = test::smallStoreConfig(dir.path(), 64 * 1024);
        config.transientStorePoolEnable = true;
        config.transientStorePoolSize = 2;
        config.flushIntervalCommitLog = 20;
        config.flushCommitLogThoroughInterval = 50;
        config.commitIntervalCommitLog = 20;
        auto store = test::openStore(config);
        QVERIFY(store->commitLog().transientStorePoolEnabled());
        std::vector<PutMessageResult> results;
        for (int i = 0; i < 400; ++i) // several files: buffers go back to the pool and come again
            results.push_back(store->putMessage(test::makeMessage("P", i % 2, std::string(500, 'p'))));
        for (const auto &r : results)
            QCOMPARE(r.status, PutMessageStatus::PutOk);
        QTRY_COMPARE_WITH_TIMEOUT(store->commitLog().unflushedBytes(), int64_t{0}, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(store->commitLog().maxOffset(),
                                  results.back().wroteOffset + results.back().wroteBytes, 10000);
        QCOMPARE(test::allRecords(store->commitLog()).size(), size_t{400});
        store->shutdown();
        auto reopened = test::openStore(config);
        QCOMPARE(test::allRecords(reopened->commitLog()).size(), size_t{400});
    }

    void shutdownAnswersEveryPutInFlight()
    {
        // Shutting down while SYNC puts flow: every put gets an answer (none hangs), and every
        // put answered PUT_OK is in the log afterwards.
        QTemporaryDir dir;
        const auto config = test::smallStoreConfig(dir.path(), 64 * 1024, FlushDiskType::SyncFlush);
        auto store = test::openStore(config);
        std::atomic<bool> go{true};
        std::vector<std::vector<int64_t>> okOffsets(8);
        std::vector<std::thread> writers;
        for (size_t t = 0; t < okOffsets.size(); ++t) {
            writers.emplace_back([&, t] {
                while (go.load()) {
                    const auto r = store->putMessage(test::makeMessage("Stop", static_cast<int>(t), "m"));
                    if (r.status == PutMessageStatus::PutOk)
                        okOffsets[t].push_back(r.wroteOffset);
                    else if (r.status == PutMessageStatus::ServiceNotAvailable)
                        break;
                }
            });
        }
        QTest::qWait(100);
        store->shutdown();
        go = false;
        for (auto &w : writers)
            w.join(); // would hang if a put were never answered
        store.reset();

        auto reopened = test::openStore(config);
        QVERIFY(!reopened->recoveryReport().abnormal);
        std::set<int64_t> present;
        for (const auto &m : test::allRecords(reopened->commitLog()))
            present.insert(m.physicalOffset);
        size_t ok = 0;
        for (const auto &offsets : okOffsets) {
            for (int64_t offset : offsets)
                QVERIFY(present.count(offset));
            ok += offsets.size();
        }
        QVERIFY(ok > 0);
    }

    void switchesModeAndPoolWhileWriting()
    {
        QTemporaryDir dir;
        auto config = test::smallStoreConfig(dir.path(), 256 * 1024);
        config.flushIntervalCommitLog = 10;
        config.commitIntervalCommitLog = 10;
        config.transientStorePoolSize = 3;
        auto store = test::openStore(config);
        constexpr int kThreads = 4;
        constexpr int kPerThread = 1500;
        std::atomic<int> stored{0}, failed{0};
        std::atomic<bool> writing{true};
        std::vector<std::thread> writers;
        for (int t = 0; t < kThreads; ++t) {
            writers.emplace_back([&, t] {
                for (int i = 0; i < kPerThread; ++i) {
                    const auto r = store->putMessage(
                        test::makeMessage("Switch", t, "t" + std::to_string(t) + "-" + std::to_string(i)));
                    r.status == PutMessageStatus::PutOk ? ++stored : ++failed;
                }
            });
        }
        std::thread switcher([&] {
            for (int i = 0; writing.load(); ++i) {
                store->setFlushDiskType(i % 2 ? FlushDiskType::SyncFlush : FlushDiskType::AsyncFlush);
                if (i % 3 == 0)
                    store->setTransientStorePoolEnable(i % 2 == 0);
                std::this_thread::sleep_for(2ms);
            }
        });
        for (auto &w : writers)
            w.join();
        writing = false;
        switcher.join();
        QCOMPARE(failed.load(), 0);
        QCOMPARE(stored.load(), kThreads * kPerThread);
        store->setFlushDiskType(FlushDiskType::SyncFlush);
        store->shutdown();

        auto reopened = test::openStore(config);
        QVERIFY(!reopened->recoveryReport().abnormal);
        const auto records = test::allRecords(reopened->commitLog());
        QCOMPARE(records.size(), size_t{kThreads * kPerThread});
        std::vector<int64_t> next(kThreads, 0);
        for (const auto &m : records) {
            // Per queue: every message, in order, with gap-free queue offsets.
            QCOMPARE(m.queueOffset, next[static_cast<size_t>(m.queueId)]);
            QCOMPARE(q(m.bodyText()), q("t" + std::to_string(m.queueId) + "-" + std::to_string(m.queueOffset)));
            ++next[static_cast<size_t>(m.queueId)];
        }
    }
};

QObject *createFlushTest() { return new FlushTest; }

#include "tst_flush.moc"
