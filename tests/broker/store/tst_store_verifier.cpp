// verifyStore's progress and cancel on a store large enough to report (every 64 MiB): the log
// scan reports on the calling thread while the consume queues and the index are checked on
// others, and a cancel stops them all with a report that says so.

#include "store_reader_test_util.h"

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
};

QObject *createStoreVerifierTest() { return new StoreVerifierTest; }

#include "tst_store_verifier.moc"
