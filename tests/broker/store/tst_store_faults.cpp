// Stored bytes and names the store must survive (issue 12): records with NUL bytes in their
// properties as the Java broker stores them, records the dispatcher cannot decode (stepped over,
// never waited on, and a clean stop stays clean), and topics that would name a file outside the
// store (refused by the store itself).

#include "store_fault_util.h"
#include "store_reader_test_util.h"

#include "broker/common/service_thread.h"
#include "broker/store/consume_queue_store.h"
#include "broker/store/store_files.h"

#include <QTemporaryDir>

using namespace mqdesk;
using namespace mqdesk::store;

namespace {

const std::string kNulProperties = std::string("KEYS\x01" "bad\x02" "X\x01" "a\0b\x02", 15);
// No trailing 0x02 and a NUL inside a value: Java keeps such bytes as sent.
const std::string kUnterminatedProperties = std::string("UNIQ_KEY\x01" "u1\x02" "Y\x01" "c\0d", 18);

std::string rawBytesOf(const GetMessageResult &result)
{
    return std::string(result.recordBytes.begin(), result.recordBytes.end());
}

} // namespace

class StoreFaultsTest : public QObject
{
    Q_OBJECT

private slots:
    void recordsWithNulPropertiesOpenRecoverAndServe()
    {
        QTemporaryDir dir;
        const auto config = test::smallStoreConfig(dir.path(), 64 * 1024);
        int64_t end = 0;
        {
            auto store = test::openStore(config);
            for (int i = 0; i < 3; ++i)
                QCOMPARE(store->putMessage(test::makeMessage("T", 0, "before-" + std::to_string(i))).status,
                         PutMessageStatus::PutOk);
            end = store->commitLog().maxOffset();
        }
        // Two records as Java writes them, appended after the clean stop.
        const auto first = test::handWrittenRecord("T", 0, 3, end, "nul-1", kNulProperties, 1700000000100);
        const auto second = test::handWrittenRecord("T", 0, 4, end + static_cast<int64_t>(first.size()), "nul-2",
                                                    kUnterminatedProperties, 1700000000200);
        QVERIFY(test::patchFile(test::commitLogFile(config, end), end, first));
        QVERIFY(test::patchFile(test::commitLogFile(config, end), end + static_cast<int64_t>(first.size()), second));
        const std::string expected = std::string(first.begin(), first.end()) + std::string(second.begin(), second.end());

        for (const bool crashed : {false, true}) {
            if (crashed) {
                std::string error;
                QVERIFY(abort_file::create(config.rootDir(), error)); // as a SIGKILL leaves it
            }
            auto store = test::openStore(config);
            QVERIFY(store);
            QCOMPARE(store->recoveryReport().abnormal, crashed);
            QVERIFY2(store->recoveryReport().cleanEnd, store->recoveryReport().stopReason.c_str());
            QCOMPARE(store->dispatchSkippedRecords(), uint64_t{0});
            QVERIFY(store->maxOffsetInQueue("T", 0) >= 5);
            GetMessageOptions raw;
            raw.rawRecords = true;
            const auto served = store->getMessage("T", 0, 3, 2, raw);
            QCOMPARE(served.messageCount, 2);
            QVERIFY(rawBytesOf(served) == expected); // byte for byte, NULs included
            const auto later = store->putMessage(test::makeMessage("T", 0, crashed ? "after-crash" : "after-clean"));
            QCOMPARE(later.status, PutMessageStatus::PutOk);
            store->waitForDispatch();
            QCOMPARE(store->getMessage("T", 0, 0, 100).messageCount, static_cast<int32_t>(store->maxOffsetInQueue("T", 0)));
        }
        // The explorer's reader and the health check agree.
        auto reader = test::openReader(config.rootDir());
        QVERIFY(reader);
        QCOMPARE(test::allMessages(*reader).size(), size_t{7});
        const auto report = verifyStore(*reader);
        for (const auto &fault : report.faults)
            qWarning("%s @%lld %s: %s", fault.file.c_str(), static_cast<long long>(fault.offset), fault.kind.c_str(),
                     fault.message.c_str());
        QVERIFY(report.healthy());
    }

    void undecodableRecordsAreSteppedOverNotWaitedOn()
    {
        QTemporaryDir dir;
        auto config = test::smallStoreConfig(dir.path(), 4096);
        config.messageIndexEnable = false;
        constexpr int kCount = 200; // ~35 records a file: six files, the damage lies before the last three
        std::vector<int64_t> offsets;
        {
            auto store = test::openStore(config);
            for (int i = 0; i < kCount; ++i) {
                const auto r = store->putMessage(test::makeMessage("T", 0, "message-" + std::to_string(i)));
                QCOMPARE(r.status, PutMessageStatus::PutOk);
                QCOMPARE(r.queueOffset, int64_t{i});
                offsets.push_back(r.wroteOffset);
            }
        }
        // Record 5: a bad magic under a sane TOTALSIZE (stepped over by its size). Record 8: both
        // size and magic destroyed (the dispatcher finds the next record start itself).
        const uint8_t badMagic[4] = {0xDE, 0xAD, 0xBE, 0xEF};
        const uint8_t garbage[8] = {0x7F, 0xFF, 0xFF, 0xF0, 0x01, 0x02, 0x03, 0x04};
        QVERIFY(test::patchFile(test::commitLogFile(config, offsets[5]), offsets[5] % 4096 + 4, badMagic));
        QVERIFY(test::patchFile(test::commitLogFile(config, offsets[8]), offsets[8] % 4096, garbage));
        // The queue forgets everything from entry 5 on, so dispatch starts before the damage
        // (which normal recovery, checking the last three files, does not look at).
        const std::string queueFile = config.rootDir() + "/consumequeue/T/0/" + offsetToFileName(0);
        QVERIFY(test::patchFile(queueFile, 5 * 20, std::vector<uint8_t>((kCount - 5) * 20, 0)));

        {
            auto store = test::openStore(config);
            QVERIFY(store);
            QVERIFY(!store->recoveryReport().abnormal);
            QCOMPARE(store->dispatchSkippedRecords(), uint64_t{2});
            // Every other record keeps its queue offset: the skipped ones became fillers.
            QCOMPARE(store->maxOffsetInQueue("T", 0), int64_t{kCount});
            for (const int i : {4, 6, 7, 9, kCount - 1}) {
                const auto one = store->getMessage("T", 0, i, 1);
                QCOMPARE(one.messageCount, 1);
                QCOMPARE(one.messages.front().bodyText(), "message-" + std::to_string(i));
            }
            QCOMPARE(store->getMessage("T", 0, 0, kCount).messageCount, kCount - 2);
            // The dispatcher keeps going for what is sent now.
            const auto fresh = store->putMessage(test::makeMessage("T", 0, "fresh"));
            QCOMPARE(fresh.queueOffset, int64_t{kCount});
            QTRY_COMPARE_WITH_TIMEOUT(store->getMessage("T", 0, kCount, 1).messageCount, 1, 10000);
            store->shutdown();
            // A clean stop is clean even with undecodable records in the log.
            QVERIFY(!abort_file::exists(config.rootDir()));
        }
        auto store = test::openStore(config);
        QVERIFY(!store->recoveryReport().abnormal);
        QCOMPARE(store->getMessage("T", 0, kCount, 1).messageCount, 1);
    }

    void topicsThatWouldLeaveTheStoreAreRefused()
    {
        QTemporaryDir parent;
        const QString root = parent.path() + QStringLiteral("/store");
        const auto config = test::smallStoreConfig(root, 64 * 1024);
        auto store = test::openStore(config);
        QVERIFY(store);
        const std::vector<std::string> hostile = {
            "../x", "..", ".", "", "a/b", "x/../../../../../tmp/ESC", std::string("a\0b", 3), std::string(256, 'a'),
            "%DLQ%x/../../y"};
        for (const std::string &topic : hostile) {
            const auto r = store->putMessage(test::makeMessage(topic, 0, "escape"));
            QCOMPARE(r.status, PutMessageStatus::MessageIllegal);
            QVERIFY2(r.error.find("topic '") != std::string::npos && r.error.find("refused") != std::string::npos,
                     r.error.c_str());
            QVERIFY2(r.error.find(config.rootDir()) != std::string::npos, r.error.c_str()); // names the path
            std::string error;
            QVERIFY(!store->consumeQueues().find(topic, 0, true, &error));
            QVERIFY(!error.empty());
        }
        // Names that look odd but stay one component are the request boundary's business, not a wall's.
        QCOMPARE(store->putMessage(test::makeMessage("%RETRY%g..h", 0, "fine")).status, PutMessageStatus::PutOk);
        const auto before = store->commitLog().maxOffset();
        // A record with such a topic already in the log (a store written elsewhere) gets no queue,
        // is reported and does not stop the dispatcher.
        store->shutdown();
        const auto escaped = test::handWrittenRecord("../../x", 0, 0, before, "old", "", 1700000000300);
        QVERIFY(test::patchFile(test::commitLogFile(config, before), before, escaped));
        store = test::openStore(config);
        QVERIFY(store);
        QCOMPARE(store->putMessage(test::makeMessage("T", 0, "after")).status, PutMessageStatus::PutOk);
        store->waitForDispatch();
        QCOMPARE(store->getMessage("T", 0, 0, 1).messageCount, 1);
        store.reset();
        QCOMPARE(test::namesIn(parent.path().toStdString()), std::vector<std::string>{"store"});
        QVERIFY(!std::filesystem::exists(config.rootDir() + "/x"));
    }

    void aThrowingServiceStopsWithoutEndingTheProcess()
    {
        // The store's threads are ServiceThreads: one that throws must not take the process down.
        class Throwing : public common::ServiceThread
        {
        public:
            Throwing() : ServiceThread("Throwing") {}
            ~Throwing() override { stop(); }
            std::atomic<bool> ran{false};

        protected:
            void run() override
            {
                ran.store(true);
                throw std::runtime_error("disk on fire");
            }
        };
        Throwing service;
        service.start();
        QTRY_VERIFY_WITH_TIMEOUT(service.ran.load(), 10000);
        service.stop(); // joins the thread that ended by the exception; we are still here
        QVERIFY(service.isStopped());
    }
};

QObject *createStoreFaultsTest() { return new StoreFaultsTest; }

#include "tst_store_faults.moc"
