// verifyStore's progress and cancel on a store large enough to report (every 64 MiB): the log
// scan reports on the calling thread while the consume queues and the index are checked on
// others, and a cancel stops them all with a report that says so.

#include "store_reader_test_util.h"

#include "broker/store/index_file.h"

#include <filesystem>
#include <thread>

using namespace mqdesk;
using namespace mqdesk::store;
using namespace mqdesk::test;

class StoreVerifierTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::string root_;

private slots:
    void initTestCase()
    {
        root_ = dir_.path().toStdString() + "/store";
        auto store = test::openStore(test::smallStoreConfig(q(root_), 16 * 1024 * 1024));
        QVERIFY(store);
        for (int i = 0; i < 90000; ++i) // ~100 MB in 7 files
            QCOMPARE(store->putMessage(makeMessage("V", i % 3, std::string(1000, 'v'), "k" + std::to_string(i))).status,
                     PutMessageStatus::PutOk);
    }

    void reportsProgressOnTheCallingThread()
    {
        auto reader = openReader(root_);
        QVERIFY(reader);
        const auto caller = std::this_thread::get_id();
        std::vector<std::pair<int64_t, int64_t>> reports;
        bool otherThread = false;
        VerifyOptions options;
        options.progress = [&](int64_t done, int64_t total) {
            otherThread |= std::this_thread::get_id() != caller;
            reports.emplace_back(done, total);
            return true;
        };
        const auto report = verifyStore(*reader, options);
        QVERIFY2(report.healthy(), listFaults(report).c_str());
        QCOMPARE(report.records, uint64_t{90000});
        QCOMPARE(report.consumeQueueEntries, uint64_t{90000});
        QVERIFY(report.indexEntries >= 90000);
        QVERIFY(!reports.empty());
        QVERIFY(!otherThread);
        for (size_t i = 1; i < reports.size(); ++i)
            QVERIFY(reports[i].first >= reports[i - 1].first && reports[i].first <= reports[i].second);
    }

    void cancelStopsEveryCheck()
    {
        auto reader = openReader(root_);
        VerifyOptions options;
        int calls = 0;
        options.progress = [&calls](int64_t, int64_t) { return ++calls < 1; }; // cancel at the first report
        const auto report = verifyStore(*reader, options);
        QCOMPARE(calls, 1);
        QVERIFY(report.cancelled);
        QVERIFY(!report.healthy());
        QVERIFY2(report.faults.empty(), listFaults(report).c_str()); // nothing judged half-way
    }

    // RocketMQ 5.5 also indexes a record with TAGS under "<topic>#T#<TAGS>", and so does MQDesk
    // now (a Java 5.5 broker on its store finds messages by tag). Such an entry is healthy; one
    // whose hash matches no key, uniq key or tag of its record is still a fault.
    void writesAndAcceptsTagIndexEntries()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString() + "/store";
        PutMessageResult put;
        {
            auto store = test::openStore(test::smallStoreConfig(q(root)));
            QVERIFY(store);
            put = store->putMessage(makeMessage("J", 0, "tagged", "k1")); // TAGS TagA
            QCOMPARE(put.status, PutMessageStatus::PutOk);
        }
        std::string indexPath;
        for (const auto &entry : std::filesystem::directory_iterator(root + "/index"))
            indexPath = entry.path().string();
        QVERIFY(!indexPath.empty());
        {
            std::string error;
            auto index = IndexFile::load(indexPath, 1000, 4000, error); // smallStoreConfig's layout
            QVERIFY2(index, error.c_str());
            // J#k1 and, as RocketMQ 5.5 writes it, J#T#TagA (makeMessage sets no UNIQ_KEY).
            QCOMPARE(index->indexCount(), 3);
        }
        auto reader = openReader(root);
        QVERIFY(reader);
        auto report = verifyStore(*reader, {});
        QVERIFY2(report.healthy(), listFaults(report).c_str());
        QCOMPARE(report.indexEntries, uint64_t{2});
        // A lookup of "T#TagA" (mqdesk-admin store index --key T#TagA) finds the record carrying it.
        const auto lookups = reader->lookupIndexKey("J", "T#TagA");
        QCOMPARE(lookups.size(), size_t{1});
        QCOMPARE(lookups[0].chain.size(), size_t{1});
        QVERIFY(lookups[0].chain[0].hashMatches);
        QCOMPARE(lookups[0].chain[0].recordHasKey, std::optional<bool>(true));
        QCOMPARE(reader->lookupIndexKey("J", "T#TagB")[0].chain.size(), size_t{0});

        {
            std::string error;
            auto index = IndexFile::load(indexPath, 1000, 4000, error);
            QVERIFY2(index, error.c_str());
            QVERIFY(index->putKey("J#T#TagB", put.wroteOffset, put.storeTimestamp, error)); // not its tag
            QVERIFY(index->flush(error));
        }
        reader = openReader(root);
        report = verifyStore(*reader, {});
        QCOMPARE(report.faults.size(), size_t{1});
        QCOMPARE(report.faults[0].kind, std::string("index-hash-mismatch"));
        QVERIFY2(report.faults[0].message.find("T#TagA") != std::string::npos, report.faults[0].message.c_str());
    }
};

QObject *createStoreVerifierTest() { return new StoreVerifierTest; }

#include "tst_store_verifier.moc"
