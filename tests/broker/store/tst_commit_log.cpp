// Appending to the commit log: records, queue offsets, batches, roll-over, limits, metrics.

#include "store_test_util.h"

#include "broker/common/bytes.h"
#include "broker/common/message_id.h"
#include "broker/common/record_codec.h"

#include <sys/resource.h>

#include <csignal>

using namespace mqdesk;
using namespace mqdesk::store;
using mqdesk::test::q;

class CommitLogTest : public QObject
{
    Q_OBJECT

private slots:
    void appendsAndReadsBack()
    {
        QTemporaryDir dir;
        auto store = test::openStore(test::smallStoreConfig(dir.path()));
        QVERIFY(store);
        const auto result = store->putMessage(test::makeMessage("TopicTest", 1, "Hello", "k1"));
        QCOMPARE(result.status, PutMessageStatus::PutOk);
        QCOMPARE(result.wroteOffset, int64_t{0});
        QCOMPARE(result.queueOffset, int64_t{0});
        QVERIFY(result.storeTimestamp > 1700000000000);
        const auto read = store->commitLog().readMessage(0);
        QVERIFY(read);
        QCOMPARE(q(read->topic), QStringLiteral("TopicTest"));
        QCOMPARE(q(read->bodyText()), QStringLiteral("Hello"));
        QCOMPARE(read->storeTimestamp, result.storeTimestamp);
        QCOMPARE(q(read->storeHost.toString()), QStringLiteral("127.0.0.1:10911"));
        QCOMPARE(read->totalSize, result.wroteBytes);
        QCOMPARE(q(store->commitLog().messageId(result.wroteOffset)),
                 QStringLiteral("7F00000100002A9F0000000000000000"));
        std::string error;
        QVERIFY(!store->commitLog().readMessage(5, &error));
        QVERIFY2(error.find("offset 5") != std::string::npos, error.c_str());
    }

    void assignsQueueOffsetsPerTopicQueue()
    {
        QTemporaryDir dir;
        auto store = test::openStore(test::smallStoreConfig(dir.path()));
        QVERIFY(store);
        const std::vector<std::pair<std::string, int>> order = {
            {"A", 0}, {"A", 1}, {"B", 0}, {"A", 0}, {"A", 0}, {"B", 0}, {"A", 1}};
        const std::vector<int64_t> expected = {0, 0, 0, 1, 2, 1, 1};
        for (size_t i = 0; i < order.size(); ++i) {
            const auto r = store->putMessage(test::makeMessage(order[i].first, order[i].second, "x"));
            QCOMPARE(r.queueOffset, expected[i]);
        }
        QCOMPARE(store->commitLog().nextQueueOffset("A", 0), int64_t{3});
        // A prepared transaction record carries queue offset 0 and does not advance the queue.
        auto half = test::makeMessage("A", 0, "half");
        half.sysFlag = common::sysflag::kTransactionPrepared;
        QCOMPARE(store->putMessage(half).queueOffset, int64_t{0});
        QCOMPARE(store->commitLog().nextQueueOffset("A", 0), int64_t{3});
        const auto records = test::allRecords(store->commitLog());
        QCOMPARE(records.size(), order.size() + 1);
        QCOMPARE(records.back().queueOffset, int64_t{0});
    }

    void storesBatchesContiguously()
    {
        QTemporaryDir dir;
        auto store = test::openStore(test::smallStoreConfig(dir.path()));
        QVERIFY(store);
        store->putMessage(test::makeMessage("T", 2, "before"));
        std::vector<common::BrokerMessage> batch;
        for (int i = 0; i < 3; ++i)
            batch.push_back(test::makeMessage("T", 2, "batch-" + std::to_string(i)));
        const auto r = store->commitLog().putMessages(batch);
        QCOMPARE(r.status, PutMessageStatus::PutOk);
        QCOMPARE(r.messageCount, 3);
        QCOMPARE(r.queueOffset, int64_t{1});
        QCOMPARE(r.recordSizes.size(), size_t{3});
        const auto records = test::allRecords(store->commitLog());
        QCOMPARE(records.size(), size_t{4});
        int64_t offset = r.wroteOffset;
        for (int i = 0; i < 3; ++i) {
            const auto &m = records[static_cast<size_t>(i) + 1];
            QCOMPARE(m.physicalOffset, offset);
            QCOMPARE(m.queueOffset, int64_t{1 + i});
            QCOMPARE(m.storeTimestamp, r.storeTimestamp);
            QCOMPARE(q(m.bodyText()), q("batch-" + std::to_string(i)));
            offset += m.totalSize;
        }
        QCOMPARE(offset, r.wroteOffset + r.wroteBytes);

        batch.push_back(test::makeMessage("Other", 2, "x"));
        const auto mixed = store->commitLog().putMessages(batch);
        QCOMPARE(mixed.status, PutMessageStatus::MessageIllegal);
        QVERIFY(mixed.error.find("same topic") != std::string::npos);
        QCOMPARE(store->commitLog().putMessages({}).status, PutMessageStatus::MessageIllegal);
    }

    void rollsOverWithABlankRecord()
    {
        QTemporaryDir dir;
        auto store = test::openStore(test::smallStoreConfig(dir.path(), 4096));
        QVERIFY(store);
        std::vector<PutMessageResult> results;
        for (int i = 0; i < 60; ++i)
            results.push_back(store->putMessage(test::makeMessage("Roll", 0, std::string(200, 'a' + i % 26))));
        auto &queue = store->commitLog().mappedFileQueue();
        QVERIFY(queue.fileCount() >= 3);
        for (const auto &file : queue.files()) {
            if (!file->isFull())
                continue;
            // Find the blank: walk the file's records.
            int64_t position = 0;
            for (;;) {
                const auto d = common::decodeRecord(
                    std::span<const uint8_t>(file->data() + position, static_cast<size_t>(4096 - position)));
                if (d.status == common::DecodeStatus::Blank) {
                    QCOMPARE(int64_t{d.size}, 4096 - position);
                    break;
                }
                QCOMPARE(d.status, common::DecodeStatus::Ok);
                position += d.size;
                QVERIFY(4096 - position >= 8); // at least 8 bytes stay after any record
            }
        }
        for (size_t i = 1; i < results.size(); ++i) {
            QCOMPARE(results[i].queueOffset, static_cast<int64_t>(i));
            // No record spans two files.
            QCOMPARE(results[i].wroteOffset / 4096, (results[i].wroteOffset + results[i].wroteBytes - 1) / 4096);
        }
        QCOMPARE(test::allRecords(store->commitLog()).size(), size_t{60});
    }

    void enforcesSizeLimitsAndKeepsRunning()
    {
        QTemporaryDir dir;
        auto config = test::smallStoreConfig(dir.path(), 64 * 1024);
        config.maxMessageSize = 1024;
        auto store = test::openStore(config);
        QVERIFY(store);
        const auto tooBig = store->putMessage(test::makeMessage("T", 0, std::string(1025, 'x')));
        QCOMPARE(tooBig.status, PutMessageStatus::MessageIllegal);
        QVERIFY2(tooBig.error.find("maxMessageSize") != std::string::npos, tooBig.error.c_str());
        auto props = test::makeMessage("T", 0, "x");
        props.properties.set("BIG", std::string(33000, 'p'));
        QCOMPARE(store->putMessage(props).status, PutMessageStatus::PropertiesSizeExceeded);
        QCOMPARE(store->putMessage(test::makeMessage("", 0, "x")).status, PutMessageStatus::MessageIllegal);
        QCOMPARE(store->putMessage(test::makeMessage("T", 0, "fine")).status, PutMessageStatus::PutOk);
        QCOMPARE(store->putMessage(test::makeMessage("T", 0, "fine")).queueOffset, int64_t{1});

        QTemporaryDir tiny;
        auto tinyConfig = test::smallStoreConfig(tiny.path(), 4096);
        auto tinyStore = test::openStore(tinyConfig);
        const auto wontFit = tinyStore->putMessage(test::makeMessage("T", 0, std::string(4000, 'x')));
        QCOMPARE(wontFit.status, PutMessageStatus::MessageIllegal);
        QVERIFY2(wontFit.error.find("cannot fit") != std::string::npos, wontFit.error.c_str());
    }

    void fullDiskFailsCleanlyAndKeepsWhatIsStored()
    {
        // RLIMIT_FSIZE stands in for a full disk: reserving the next file fails (EFBIG here,
        // ENOSPC on a real disk) exactly where a full disk would make it fail.
        QTemporaryDir dir;
        auto store = test::openStore(test::smallStoreConfig(dir.path(), 64 * 1024));
        QVERIFY(store);
        const auto first = store->putMessage(test::makeMessage("Full", 0, "first"));
        QCOMPARE(first.status, PutMessageStatus::PutOk);
        rlimit saved{};
        ::getrlimit(RLIMIT_FSIZE, &saved);
        const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit limited = saved;
        limited.rlim_cur = 32 * 1024; // no room for another 64 KiB file
        ::setrlimit(RLIMIT_FSIZE, &limited);
        std::vector<PutMessageResult> results{first};
        for (int i = 0; i < 200; ++i)
            results.push_back(store->putMessage(test::makeMessage("Full", 0, std::string(1000, 'f'))));
        ::setrlimit(RLIMIT_FSIZE, &saved);
        std::signal(SIGXFSZ, previousHandler);

        size_t stored = 0;
        while (stored < results.size() && results[stored].status == PutMessageStatus::PutOk)
            ++stored;
        QVERIFY(stored > 0 && stored < results.size());
        const auto &failure = results[stored];
        QCOMPARE(failure.status, PutMessageStatus::CreateMappedFileFailed);
        // The file that could not be made follows the last one written (the allocation service
        // may have made one more ahead of time, before the limit).
        const int64_t missingFile = results[stored - 1].wroteOffset / 65536 * 65536 + 65536;
        QVERIFY2(failure.error.find(offsetToFileName(missingFile)) != std::string::npos, failure.error.c_str());
        QCOMPARE(test::allRecords(store->commitLog()).size(), stored);
        // With room again the store carries on where it stopped.
        const auto next = store->putMessage(test::makeMessage("Full", 0, "after"));
        QCOMPARE(next.status, PutMessageStatus::PutOk);
        QCOMPARE(next.queueOffset, static_cast<int64_t>(stored));
        QCOMPARE(next.wroteOffset, missingFile);
    }

    void refusesPutsWhenStopped()
    {
        QTemporaryDir dir;
        auto store = test::openStore(test::smallStoreConfig(dir.path()));
        store->shutdown();
        const auto r = store->commitLog().putMessage(test::makeMessage("T", 0, "late"));
        QCOMPARE(r.status, PutMessageStatus::ServiceNotAvailable);
    }

    void samplesEverySecondWithoutGaps()
    {
        QTemporaryDir dir;
        auto store = test::openStore(test::smallStoreConfig(dir.path()));
        auto &metrics = store->metrics();
        const uint64_t before = metrics.samplesSince(0).empty() ? 0 : metrics.samplesSince(0).back().sequence;
        for (int i = 0; i < 10; ++i)
            store->putMessage(test::makeMessage("M", 0, std::string(100, 'm')));
        store->tick();
        store->tick();
        const auto samples = metrics.samplesSince(before);
        QVERIFY(samples.size() >= 2);
        uint64_t puts = 0, bytes = 0;
        for (size_t i = 0; i < samples.size(); ++i) {
            if (i > 0)
                QCOMPARE(samples[i].sequence, samples[i - 1].sequence + 1);
            puts += samples[i].puts;
            bytes += samples[i].putBytes;
        }
        QCOMPARE(puts, uint64_t{10});
        QVERIFY(bytes > 1000);
        QCOMPARE(metrics.putLatency().count(), uint64_t{10});

        FlushMetrics ring;
        for (int i = 0; i < 1100; ++i)
            ring.takeSecondSample(i, {});
        const auto kept = ring.samplesSince(0);
        QCOMPARE(kept.size(), FlushMetrics::kSampleCapacity);
        QCOMPARE(kept.front().sequence, uint64_t{1100 - FlushMetrics::kSampleCapacity + 1});
        QCOMPARE(kept.back().epochSecond, int64_t{1099});
        QCOMPARE(ring.samplesSince(1098).size(), size_t{2});
        QVERIFY(ring.samplesSince(1100).empty());
    }
};

QObject *createCommitLogTest() { return new CommitLogTest; }

#include "tst_commit_log.moc"
