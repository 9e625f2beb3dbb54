// BatchCQ topics (queue.type=BatchCQ): batchconsumequeue/ units, inner batches numbered at append,
// reads that hand a batch out whole, recovery and truncation of the units.

#include "store_reader_test_util.h"
#include "store_test_util.h"

#include "broker/common/bytes.h"
#include "broker/common/java_hash.h"
#include "broker/store/batch_consume_queue.h"
#include "broker/store/consume_queue_store.h"
#include "broker/store/reader/store_verifier.h"

#include <filesystem>

using namespace mqdesk;
using namespace mqdesk::store;
using mqdesk::test::q;
namespace fs = std::filesystem;

namespace {

const std::string kTopic = "Batched";

bool isBatchTopic(const std::string &topic) { return topic == kTopic; }

// What the broker stores for a SEND_BATCH_MESSAGE of `count` messages to a BatchCQ topic: one
// record whose body is the batch as sent (the store never reads it), flagged NEED_UNWRAP |
// INNER_BATCH, with INNER_NUM.
common::BrokerMessage innerBatch(int count, const std::string &tag = "TagA")
{
    common::BrokerMessage batch = test::makeMessage(kTopic, 0, "a batch of " + std::to_string(count));
    batch.sysFlag = common::sysflag::kNeedUnwrap | common::sysflag::kInnerBatch;
    batch.properties.set(common::property::kTags, tag);
    batch.properties.set(common::property::kInnerNum, std::to_string(count));
    return batch;
}

// Puts a plain message, inner batches of 3 and 2, and a plain one: queue offsets 0, 1–3, 4–5, 6.
std::vector<PutMessageResult> putMixedBatches(MessageStore &store)
{
    return {store.putMessage(test::makeMessage(kTopic, 0, "plain-0")), store.putMessage(innerBatch(3)),
            store.putMessage(innerBatch(2, "TagB")), store.putMessage(test::makeMessage(kTopic, 0, "plain-6"))};
}

} // namespace

class BatchConsumeQueueTest : public QObject
{
    Q_OBJECT

private slots:
    void innerBatchesTakeOneUnitAndTheirCountOfOffsets()
    {
        QTemporaryDir dir;
        auto store = test::openStore(test::smallStoreConfig(dir.path()), isBatchTopic);
        QVERIFY(store);
        const auto results = putMixedBatches(*store);
        QCOMPARE(results[0].queueOffset, int64_t{0});
        QCOMPARE(results[1].queueOffset, int64_t{1});
        QCOMPARE(results[1].messageCount, 3);
        QCOMPARE(results[2].queueOffset, int64_t{4});
        QCOMPARE(results[3].queueOffset, int64_t{6});
        store->waitForDispatch();

        // The record keeps its first offset in QUEUEOFFSET and INNER_BASE.
        const auto stored = store->lookMessageByOffset(results[2].wroteOffset);
        QVERIFY(stored);
        QCOMPARE(stored->queueOffset, int64_t{4});
        QCOMPARE(q(std::string(stored->properties.get(common::property::kInnerBase).value_or(""))), QStringLiteral("4"));

        // Four 46-byte units under batchconsumequeue/, nothing under consumequeue/.
        const std::string root = dir.path().toStdString();
        QVERIFY(!fs::exists(root + "/consumequeue/" + kTopic));
        const auto bytes = test::readFile(root + "/batchconsumequeue/" + kTopic + "/0/00000000000000000000");
        QCOMPARE(bytes.size(), size_t{13800000});
        const uint8_t *unit = bytes.data() + 2 * 46;
        QCOMPARE(common::readInt64(unit), results[2].wroteOffset);
        QCOMPARE(common::readInt32(unit + 8), results[2].wroteBytes);
        QCOMPARE(common::readInt64(unit + 12), common::tagsCodeOf("TagB"));
        QCOMPARE(common::readInt64(unit + 28), int64_t{4});
        QCOMPARE(common::readInt16(unit + 36), int16_t{2});
        QCOMPARE(common::readInt32(unit + 38), -1);
        QVERIFY(std::all_of(bytes.begin() + 4 * 46, bytes.begin() + 5 * 46, [](uint8_t b) { return b == 0; }));

        QCOMPARE(store->minOffsetInQueue(kTopic, 0), int64_t{0});
        QCOMPARE(store->maxOffsetInQueue(kTopic, 0), int64_t{7});
        QCOMPARE(store->putMessage(test::makeMessage(kTopic, 0, "plain-7")).queueOffset, int64_t{7});
    }

    void readsHandOutABatchWhole()
    {
        QTemporaryDir dir;
        auto store = test::openStore(test::smallStoreConfig(dir.path()), isBatchTopic);
        QVERIFY(store);
        putMixedBatches(*store);
        store->waitForDispatch();

        GetMessageResult all = store->getMessage(kTopic, 0, 0, 32);
        QCOMPARE(all.status, GetMessageStatus::Found);
        QCOMPARE(all.messages.size(), size_t{4});
        QCOMPARE(all.messageCount, 7);
        QCOMPARE(all.nextBeginOffset, int64_t{7});
        QCOMPARE(all.queueOffsets, (std::vector<int64_t>{0, 1, 4, 6}));
        QVERIFY(all.messages[1].sysFlag & common::sysflag::kInnerBatch);

        // From inside a batch: the whole batch, then on past it.
        GetMessageResult inside = store->getMessage(kTopic, 0, 2, 32);
        QCOMPARE(inside.queueOffsets.front(), int64_t{1});
        QCOMPARE(inside.nextBeginOffset, int64_t{7});
        // A batch that would pass maxCount waits for the next read (Java's isTheBatchFull)…
        GetMessageResult capped = store->getMessage(kTopic, 0, 0, 3);
        QCOMPARE(capped.messageCount, 1);
        QCOMPARE(capped.nextBeginOffset, int64_t{1});
        // …but a read's first batch is always handed out.
        GetMessageResult first = store->getMessage(kTopic, 0, 1, 1);
        QCOMPARE(first.messageCount, 3);
        QCOMPARE(first.nextBeginOffset, int64_t{4});
        // Tag filters skip a batch as one.
        const std::set<int64_t> tagB{common::tagsCodeOf("TagB")};
        GetMessageResult filtered = store->getMessage(kTopic, 0, 0, 32, &tagB);
        QCOMPARE(filtered.queueOffsets, (std::vector<int64_t>{4}));
        QCOMPARE(filtered.nextBeginOffset, int64_t{7});
        QCOMPARE(store->offsetInQueueByTime(kTopic, 0, 0), int64_t{0});
        QCOMPARE(store->messageCountInQueue(kTopic, 0, 0, INT64_MAX), int64_t{7});
    }

    void theExplorerReadsAndVerifiesTheUnits()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        {
            auto store = test::openStore(test::smallStoreConfig(dir.path()), isBatchTopic);
            QVERIFY(store);
            putMixedBatches(*store);
            store->putMessage(test::makeMessage("Simple", 0, "beside"));
        }
        auto reader = test::openReader(root);
        QVERIFY(reader);
        const auto queue = reader->consumeQueue(kTopic, 0);
        QVERIFY(queue);
        QVERIFY(queue->batch);
        QCOMPARE(queue->minOffset, int64_t{0});
        QCOMPARE(queue->maxOffset, int64_t{7});
        QVERIFY(!reader->consumeQueue("Simple", 0)->batch);

        const ConsumeQueuePage page = reader->readConsumeQueue(kTopic, 0, 2, 10);
        QCOMPARE(page.entries.size(), size_t{3});
        QCOMPARE(page.entries[0].queueOffset, int64_t{1});
        QCOMPARE(page.entries[0].entry.batchSize, 3);
        QCOMPARE(page.entries[0].filePosition, int64_t{46});
        QCOMPARE(page.entries[1].queueOffset, int64_t{4});
        QCOMPARE(page.entries[2].entry.batchSize, 1);
        QCOMPARE(page.nextQueueOffset, int64_t{7});
        QVERIFY(page.atEnd);
        QCOMPARE(reader->consumeQueueOffsetAt(*queue, page.entries[1].entry.commitLogOffset), int64_t{4});

        const VerifyReport report = verifyStore(*reader);
        QVERIFY2(report.healthy(), test::listFaults(report).c_str());
        QCOMPARE(report.consumeQueueEntries, uint64_t{5});

        // A unit pointing at another queue offset's record is named.
        const std::string file = root + "/batchconsumequeue/" + kTopic + "/0/00000000000000000000";
        auto bytes = test::readFile(file);
        common::writeInt64(bytes.data() + 46 + 28, 2);
        test::writeFile(file, bytes);
        const VerifyReport damaged = verifyStore(*test::openReader(root));
        QVERIFY(!damaged.healthy());
        QCOMPARE(q(damaged.faults.front().kind), QStringLiteral("cq-wrong-record"));
    }

    void innerBatchesAreRefusedWhereJavaRefusesThem()
    {
        QTemporaryDir dir;
        auto store = test::openStore(test::smallStoreConfig(dir.path()), isBatchTopic);
        QVERIFY(store);
        common::BrokerMessage onSimpleTopic = innerBatch(2);
        onSimpleTopic.topic = "Simple";
        PutMessageResult refused = store->putMessage(onSimpleTopic);
        QCOMPARE(refused.status, PutMessageStatus::MessageIllegal);
        QVERIFY2(refused.error.find("queue.type=BatchCQ") != std::string::npos, refused.error.c_str());

        common::BrokerMessage unflagged = test::makeMessage(kTopic, 0, "x");
        unflagged.properties.set(common::property::kInnerNum, "2");
        QCOMPARE(store->putMessage(unflagged).status, PutMessageStatus::MessageIllegal);

        for (const char *count : {"0", "40000", "two"}) {
            common::BrokerMessage bad = innerBatch(2);
            bad.properties.set(common::property::kInnerNum, count);
            refused = store->putMessage(bad);
            QCOMPARE(refused.status, PutMessageStatus::MessageIllegal);
            QVERIFY2(refused.error.find("INNER_NUM") != std::string::npos, refused.error.c_str());
        }
        QCOMPARE(store->maxOffsetInQueue(kTopic, 0), int64_t{0});
        QVERIFY(!fs::exists(dir.path().toStdString() + "/consumequeue/Simple"));

        // A client's batch whose messages claim to be inner batches (flag, INNER_NUM, INNER_BASE),
        // to either kind of topic: refused, and the queues keep their offsets.
        for (const std::string &topic : {kTopic, std::string("Simple")}) {
            std::vector<common::BrokerMessage> forged(2, innerBatch(1000));
            for (auto &message : forged) {
                message.topic = topic;
                message.properties.set(common::property::kInnerBase, "5");
            }
            PutMessageResult answer;
            store->asyncPutMessages(forged, [&answer](const PutMessageResult &result) { answer = result; });
            QCOMPARE(answer.status, PutMessageStatus::MessageIllegal);
        }
        QCOMPARE(store->putMessage(test::makeMessage(kTopic, 0, "after")).queueOffset, int64_t{0});
        QCOMPARE(store->putMessage(test::makeMessage("Simple", 0, "after")).queueOffset, int64_t{0});
        store->waitForDispatch();
        QCOMPARE(store->getMessage(kTopic, 0, 0, 32).messageCount, 1);
        QCOMPARE(store->getMessage("Simple", 0, 0, 32).messageCount, 1);
    }

    // A record that carries INNER_NUM and an INNER_BASE that is not its own queue offset (bytes a
    // client wrote, or damage) is one message: its unit never covers offsets the log did not give.
    void unitsTakeOnlyTheStoresOwnInnerBase()
    {
        QTemporaryDir dir;
        const auto config = test::smallStoreConfig(dir.path());
        {
            auto store = test::openStore(config, isBatchTopic);
            QVERIFY(store);
            QCOMPARE(store->putMessage(innerBatch(3)).queueOffset, int64_t{0});
            QCOMPARE(store->putMessage(test::makeMessage(kTopic, 0, "plain")).queueOffset, int64_t{3});
        }
        // Rewrite the first record's INNER_BASE from 0 to 7 (same length), then lose the units.
        const std::string file = config.commitLogDir() + "/00000000000000000000";
        auto bytes = test::readFile(file);
        const std::string from = std::string("INNER_BASE") + char(1) + "0";
        const auto at = std::search(bytes.begin(), bytes.end(), from.begin(), from.end());
        QVERIFY(at != bytes.end());
        *(at + static_cast<std::ptrdiff_t>(from.size()) - 1) = '7';
        test::writeFile(file, bytes);
        fs::remove_all(dir.path().toStdString() + "/batchconsumequeue");
        fs::remove(dir.path().toStdString() + "/checkpoint");
        auto store = test::openStore(config, isBatchTopic);
        QVERIFY(store);
        store->waitForDispatch();
        const GetMessageResult read = store->getMessage(kTopic, 0, 0, 32);
        QCOMPARE(read.queueOffsets, (std::vector<int64_t>{0, 3}));
        QCOMPARE(read.messageCount, 2);
    }

    void restartsAndCrashesKeepTheUnits()
    {
        QTemporaryDir dir;
        const QString live = dir.path() + QStringLiteral("/live");
        const QString crashed = dir.path() + QStringLiteral("/crashed");
        auto store = test::openStore(test::smallStoreConfig(live, 16 * 1024), isBatchTopic);
        QVERIFY(store);
        for (int i = 0; i < 40; ++i) // several commit-log files
            store->putMessage(i % 3 ? innerBatch(1 + i % 5) : test::makeMessage(kTopic, 0, std::string(300, 'p')));
        store->waitForDispatch();
        const int64_t max = store->maxOffsetInQueue(kTopic, 0);
        QVERIFY(max > 40);
        fs::copy(live.toStdString(), crashed.toStdString(), fs::copy_options::recursive);
        fs::remove(crashed.toStdString() + "/lock");
        store.reset();

        // A clean restart finds the topic's queues in batchconsumequeue/ whatever the broker says.
        auto restarted = test::openStore(test::smallStoreConfig(live, 16 * 1024));
        QVERIFY(restarted);
        QCOMPARE(restarted->maxOffsetInQueue(kTopic, 0), max);
        QCOMPARE(restarted->putMessage(test::makeMessage(kTopic, 0, "after")).queueOffset, max);
        restarted.reset();

        // A crash that lost the units: dispatch builds them again from the log.
        fs::remove_all(crashed.toStdString() + "/batchconsumequeue/" + kTopic);
        auto recovered = test::openStore(test::smallStoreConfig(crashed, 16 * 1024), isBatchTopic);
        QVERIFY(recovered);
        QVERIFY(recovered->recoveryReport().abnormal);
        QCOMPARE(recovered->maxOffsetInQueue(kTopic, 0), max);
        const GetMessageResult read = recovered->getMessage(kTopic, 0, 0, 1000);
        QCOMPARE(read.nextBeginOffset, max);
        int64_t expected = 0;
        for (size_t i = 0; i < read.messages.size(); ++i) {
            QCOMPARE(read.queueOffsets[i], expected);
            const auto number = read.messages[i].properties.get(common::property::kInnerNum);
            expected += number ? std::stoi(std::string(*number)) : 1;
        }
        QCOMPARE(expected, max);
    }

    void deletedBatchTopicsStartAgainAtZero()
    {
        QTemporaryDir dir;
        auto store = test::openStore(test::smallStoreConfig(dir.path()), isBatchTopic);
        QVERIFY(store);
        putMixedBatches(*store);
        store->waitForDispatch();
        std::string error;
        QVERIFY2(store->deleteTopicQueues({kTopic}, error), error.c_str());
        QVERIFY(!fs::exists(dir.path().toStdString() + "/batchconsumequeue/" + kTopic));
        QCOMPARE(store->putMessage(innerBatch(2)).queueOffset, int64_t{0});
        store->waitForDispatch();
        QCOMPARE(store->maxOffsetInQueue(kTopic, 0), int64_t{2});
    }

    void truncatedLogCutsTheUnits()
    {
        QTemporaryDir dir;
        const auto config = test::smallStoreConfig(dir.path(), 64 * 1024);
        std::vector<PutMessageResult> results;
        {
            auto store = test::openStore(config, isBatchTopic);
            QVERIFY(store);
            results = putMixedBatches(*store);
        }
        // Damage the batch of 2: recovery cuts the log there, and the units with it.
        const std::string file = config.commitLogDir() + "/00000000000000000000";
        auto bytes = test::readFile(file);
        bytes[static_cast<size_t>(results[2].wroteOffset) + 90] ^= 0xFF;
        test::writeFile(file, bytes);
        auto store = test::openStore(config, isBatchTopic);
        QVERIFY(store);
        QCOMPARE(store->recoveryReport().processOffset, results[2].wroteOffset);
        QCOMPARE(store->maxOffsetInQueue(kTopic, 0), int64_t{4});
        QCOMPARE(store->putMessage(innerBatch(2)).queueOffset, int64_t{4});
    }
};

QObject *createBatchConsumeQueueTest() { return new BatchConsumeQueueTest; }

#include "tst_batch_consume_queue.moc"
