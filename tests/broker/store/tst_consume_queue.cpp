// Consume queues, dispatch and the store's queries (store-format §5, §10, §11, §15).

#include "store_test_util.h"

#include "broker/common/bytes.h"
#include "broker/common/java_hash.h"
#include "broker/common/message_id.h"
#include "broker/common/record_codec.h"
#include "broker/store/consume_queue.h"
#include "broker/store/consume_queue_store.h"
#include "broker/store/store_services.h"

#include <QDir>

#include <sys/stat.h>

#include <ctime>
#include <filesystem>
#include <mutex>
#include <map>

using namespace mqdesk;
using namespace mqdesk::store;
using mqdesk::test::q;
namespace fs = std::filesystem;

namespace {

// Several topics, queues, tags and keys, in an order that interleaves them in the commit log.
std::vector<PutMessageResult> putMixed(MessageStore &store, int count)
{
    std::vector<PutMessageResult> results;
    for (int i = 0; i < count; ++i) {
        auto m = test::makeMessage("Topic" + std::to_string(i % 3), i % 4, "body-" + std::to_string(i),
                                   "key-" + std::to_string(i) + " shared-" + std::to_string(i % 5));
        m.properties.set(common::property::kTags, i % 2 ? "TagOdd" : "TagEven");
        results.push_back(store.putMessage(m));
    }
    return results;
}

// Every entry of every queue points at a record of that topic, queue and queue offset.
void checkQueuesAgreeWithLog(MessageStore &store, size_t expectedEntries)
{
    size_t entries = 0;
    store.consumeQueues().forEach([&](ConsumeQueue &queue) {
        for (int64_t offset = queue.minOffset(); offset < queue.maxOffset(); ++offset) {
            const auto entry = queue.entryAt(offset);
            QVERIFY(entry);
            const auto message = store.lookMessageByOffset(entry->commitLogOffset);
            QVERIFY(message);
            QCOMPARE(q(message->topic), q(queue.topic()));
            QCOMPARE(message->queueId, queue.queueId());
            QCOMPARE(message->queueOffset, offset);
            QCOMPARE(entry->size, message->totalSize);
            QCOMPARE(entry->tagsCode, common::tagsCodeOf(message->tags()));
            ++entries;
        }
    });
    QCOMPARE(entries, expectedEntries);
}

} // namespace

class ConsumeQueueTest : public QObject
{
    Q_OBJECT

private slots:
    void writesSpecEntryAfterFillers()
    {
        // §17.1: the first file ever of a queue whose first entry is queue offset 5.
        QTemporaryDir dir;
        SimpleConsumeQueue queue("TopicTest", 1, dir.path().toStdString(), 6000000);
        std::string error;
        QVERIFY(queue.load(error));
        QVERIFY(queue.putEntry(0, 123, common::tagsCodeOf("TagA"), 5, 1700000000123, 1, error));
        QCOMPARE(queue.minOffset(), int64_t{5});
        QCOMPARE(queue.maxOffset(), int64_t{6});
        const auto bytes = test::readFile(dir.path().toStdString() + "/00000000000000000000");
        QCOMPARE(bytes.size(), size_t{6000000});
        for (int i = 0; i < 5; ++i)
            QCOMPARE(q(common::toUpperHex(std::span<const uint8_t>(bytes.data() + i * 20, 20))),
                     QStringLiteral("00000000000000007FFFFFFF0000000000000000"));
        QCOMPARE(q(common::toUpperHex(std::span<const uint8_t>(bytes.data() + 100, 20))),
                 QStringLiteral("00000000000000000000007B000000000027A807"));
        // Re-dispatching the same record changes nothing.
        QVERIFY(queue.putEntry(0, 123, common::tagsCodeOf("TagA"), 5, 1700000000123, 1, error));
        QCOMPARE(queue.maxOffset(), int64_t{6});
        QVERIFY(queue.entryAt(4)->isFiller());
        QCOMPARE(queue.entryAt(5)->size, 123);
    }

    void dispatchBuildsQueuesThatAgreeWithTheLog()
    {
        QTemporaryDir dir;
        auto config = test::smallStoreConfig(dir.path(), 64 * 1024);
        config.mappedFileSizeConsumeQueue = 20 * 50; // several queue files
        auto store = test::openStore(config);
        putMixed(*store, 600);
        store->waitForDispatch();
        QCOMPARE(store->dispatchBehindBytes(), int64_t{0});
        checkQueuesAgreeWithLog(*store, 600);
        QCOMPARE(store->maxOffsetInQueue("Topic1", 1), int64_t{50});
        QCOMPARE(store->minOffsetInQueue("Topic1", 1), int64_t{0});
        QCOMPARE(store->messageCountInQueue("Topic1", 1, 10, 1000), int64_t{40});
        QVERIFY(fs::exists(dir.path().toStdString() + "/consumequeue/Topic2/3/00000000000000000000"));
    }

    // Entries overwritten after a clean stop — pointing past the commit log, or at another
    // topic's record — are trusted by recovery; the reads that meet them rebuild them from the
    // commit log, and every message is served, in order, as raw records and decoded alike.
    void damagedEntriesAreRebuiltWhereTheyAreRead_data()
    {
        QTest::addColumn<bool>("rawRecords");
        QTest::newRow("decoded") << false;
        QTest::newRow("raw records") << true;
    }

    void damagedEntriesAreRebuiltWhereTheyAreRead()
    {
        QFETCH(bool, rawRecords);
        QTemporaryDir dir;
        const auto config = test::smallStoreConfig(dir.path(), 64 * 1024);
        {
            auto store = test::openStore(config);
            for (int i = 0; i < 200; ++i) {
                QCOMPARE(store->putMessage(test::makeMessage("R", 0, "message-" + std::to_string(i))).status,
                         PutMessageStatus::PutOk);
                if (i % 2 == 0)
                    store->putMessage(test::makeMessage("S", 0, "other-" + std::to_string(i)));
            }
            store->waitForDispatch();
        } // a clean stop
        const std::string queueFile = dir.path().toStdString() + "/consumequeue/R/0/00000000000000000000";
        const std::string otherFile = dir.path().toStdString() + "/consumequeue/S/0/00000000000000000000";
        std::vector<uint8_t> entries = test::readFile(queueFile);
        const std::vector<uint8_t> other = test::readFile(otherFile);
        for (const int q : {3, 50, 120, 198, 199}) // past the end of the log
            common::writeInt64(entries.data() + q * 20, int64_t{1} << 40);
        std::copy_n(other.begin() + 20 * 7, 20, entries.begin() + 20 * 51); // another topic's record
        test::writeFile(queueFile, entries);

        auto store = test::openStore(config);
        QVERIFY(store);
        QCOMPARE(store->maxOffsetInQueue("R", 0), int64_t{200});
        GetMessageOptions options;
        options.rawRecords = rawRecords;
        std::vector<std::string> bodies;
        for (int64_t offset = 0; offset < 200;) {
            const GetMessageResult got = store->getMessage("R", 0, offset, 32, options);
            QCOMPARE(got.status, GetMessageStatus::Found);
            if (rawRecords) {
                for (size_t at = 0; at < got.recordBytes.size();) {
                    const auto decoded = common::decodeRecord(std::span(got.recordBytes).subspan(at));
                    QCOMPARE(decoded.status, common::DecodeStatus::Ok);
                    bodies.emplace_back(reinterpret_cast<const char *>(decoded.record.body.data()), decoded.record.body.size());
                    at += static_cast<size_t>(decoded.record.totalSize);
                }
            } else {
                for (const auto &message : got.messages)
                    bodies.push_back(message.bodyText());
            }
            offset = got.nextBeginOffset;
        }
        QCOMPARE(bodies.size(), size_t{200});
        for (int i = 0; i < 200; ++i)
            QCOMPARE(bodies[static_cast<size_t>(i)], "message-" + std::to_string(i));
        // The file now says what the log says: the entries were rewritten, not only served.
        const std::vector<uint8_t> repaired = test::readFile(queueFile);
        for (const int q : {3, 50, 51, 120, 198, 199}) {
            const auto record = store->commitLog().readMessage(common::readInt64(repaired.data() + q * 20));
            QVERIFY(record);
            QCOMPARE(record->topic, std::string("R"));
            QCOMPARE(record->queueOffset, int64_t{q});
        }
        QCOMPARE(store->putMessage(test::makeMessage("R", 0, "after")).queueOffset, int64_t{200});
    }

    void readsMessagesWithOffsetsAndTagFilter()
    {
        QTemporaryDir dir;
        auto store = test::openStore(test::smallStoreConfig(dir.path()));
        putMixed(*store, 120);
        store->waitForDispatch();
        // Topic0 queue 0 holds i = 0, 12, 24, ...: all even.
        auto all = store->getMessage("Topic0", 0, 0, 5);
        QCOMPARE(all.status, GetMessageStatus::Found);
        QCOMPARE(all.messages.size(), size_t{5});
        QCOMPARE(all.nextBeginOffset, int64_t{5});
        QCOMPARE(q(all.messages[1].bodyText()), QStringLiteral("body-12"));
        // Topic1 queue 1 holds i = 1, 13, ... (odd) : an even filter finds nothing but moves on.
        const std::set<int64_t> even{common::tagsCodeOf("TagEven")};
        const auto none = store->getMessage("Topic1", 1, 0, 4, &even);
        QCOMPARE(none.status, GetMessageStatus::NoMatchedMessage);
        QVERIFY(none.nextBeginOffset > 0);
        QCOMPARE(store->getMessage("Topic0", 0, 10, 5).status, GetMessageStatus::OffsetOverflowOne);
        QCOMPARE(store->getMessage("Topic0", 0, 11, 5).status, GetMessageStatus::OffsetOverflowBadly);
        QCOMPARE(store->getMessage("Topic0", 0, 11, 5).nextBeginOffset, int64_t{10});
        QCOMPARE(store->getMessage("Nope", 0, 0, 5).status, GetMessageStatus::NoMatchedLogicQueue);
    }

    void findsMessagesByKeyThroughTheIndex()
    {
        QTemporaryDir dir;
        auto config = test::smallStoreConfig(dir.path());
        config.maxHashSlotNum = 97; // collisions on purpose: the store must filter them out
        config.maxIndexNum = 400;   // several index files
        auto store = test::openStore(config);
        putMixed(*store, 300);
        auto unique = test::makeMessage("Topic0", 0, "with uniq key");
        unique.properties.set(common::property::kUniqClientMessageId, "7F00000112345E2DE80C47B7607B0000");
        store->putMessage(unique);
        store->waitForDispatch();

        const auto one = store->queryMessage("Topic0", "key-3", 32, 0, INT64_MAX);
        QCOMPARE(one.messages.size(), size_t{1});
        QCOMPARE(q(one.messages[0].bodyText()), QStringLiteral("body-3"));
        QVERIFY(store->queryMessage("Topic1", "key-3", 32, 0, INT64_MAX).messages.empty()); // other topic
        // shared-0 in Topic0: i ≡ 0 (mod 15), 20 messages; maxCount bounds the answer.
        QCOMPARE(store->queryMessage("Topic0", "shared-0", 64, 0, INT64_MAX).messages.size(), size_t{20});
        QCOMPARE(store->queryMessage("Topic0", "shared-0", 5, 0, INT64_MAX).messages.size(), size_t{5});
        const auto byUniq = store->queryMessage("Topic0", "7F00000112345E2DE80C47B7607B0000", 32, 0, INT64_MAX);
        QCOMPARE(byUniq.messages.size(), size_t{1});
        QCOMPARE(q(byUniq.messages[0].bodyText()), QStringLiteral("with uniq key"));
        // Every key of every message is found.
        for (int i = 0; i < 300; ++i) {
            const auto found = store->queryMessage("Topic" + std::to_string(i % 3), "key-" + std::to_string(i), 4, 0,
                                                   INT64_MAX);
            QCOMPARE(found.messages.size(), size_t{1});
        }
        // A time range before everything finds nothing.
        QVERIFY(store->queryMessage("Topic0", "key-3", 32, 0, 1000).messages.empty());
    }

    void tellsListenersOfArrivingMessages()
    {
        QTemporaryDir dir;
        MessageStore store(test::smallStoreConfig(dir.path()));
        std::mutex mutex;
        std::vector<std::pair<std::string, int64_t>> arrived; // "topic-queue", queue offset
        store.setMessageArrivingListener([&](const DispatchRequest &request) {
            std::lock_guard lock(mutex);
            arrived.emplace_back(request.topic + "-" + std::to_string(request.queueId), request.consumeQueueOffset);
        });
        std::string error;
        QVERIFY2(store.open(error), error.c_str());
        store.putMessage(test::makeMessage("Arrive", 2, "a"));
        store.putMessage(test::makeMessage("Arrive", 2, "b"));
        auto half = test::makeMessage("Arrive", 2, "half"); // no queue entry, so no arrival
        half.sysFlag = common::sysflag::kTransactionPrepared;
        store.putMessage(half);
        store.waitForDispatch();
        std::lock_guard lock(mutex);
        QCOMPARE(arrived.size(), size_t{2});
        QCOMPARE(q(arrived[1].first), QStringLiteral("Arrive-2"));
        QCOMPARE(arrived[1].second, int64_t{1});
    }

    void retentionRunsInTheDeleteHourAndRefusesPutsOnAFullDisk()
    {
        QTemporaryDir dir;
        auto config = test::smallStoreConfig(dir.path(), 8 * 1024);
        config.fileReservedTime = 0;
        const time_t now = std::time(nullptr);
        std::tm local{};
        localtime_r(&now, &local);
        config.deleteWhen = "99;" + std::to_string(local.tm_hour); // this hour (and a never-hour)
        config.diskSpaceWarningLevelRatio = 0;                       // any used space is "full"
        auto store = test::openStore(config);
        putMixed(*store, 100);
        store->waitForDispatch();
        const auto cleaned = store->cleanExpiredFiles(false); // not forced: the hour allows it
        QVERIFY(cleaned.commitLogFiles >= 1);
        QVERIFY(cleaned.diskUsedRatio > 0);
        const auto refused = store->putMessage(test::makeMessage("Full", 0, "no room"));
        QCOMPARE(refused.status, PutMessageStatus::ServiceNotAvailable);
        QVERIFY2(refused.error.find("diskSpaceWarningLevelRatio") != std::string::npos, refused.error.c_str());
    }

    // A disk with a large root reserve (the build machines have one: 252 GiB, 12 GiB used, 80 GiB
    // usable) is not full: Java's and df's ratio leaves the reserve out. Counting it as used
    // refused puts at "92.5%" on a machine with tens of GiB usable.
    void diskUsageLeavesTheRootReserveOut()
    {
        constexpr uint64_t GiB = 1ull << 30;
        const DiskSpace reserved{252 * GiB, 240 * GiB, 80 * GiB, true};
        QCOMPARE(reserved.usedRatio(), 0.14); // 12 / 92, rounded up to a whole percent as Java does
        const DiskSpace exact{100 * GiB, 25 * GiB, 25 * GiB, true};
        QCOMPARE(exact.usedRatio(), 0.75);
        const DiskSpace noRoomForUs{100 * GiB, 5 * GiB, 0, true};
        QCOMPARE(noRoomForUs.usedRatio(), 1.0);
        QCOMPARE(DiskSpace{}.usedRatio(), -1.0);
        QCOMPARE((DiskSpace{10, 20, 0, true}.usedRatio()), -1.0); // free beyond the total: not believed

        const DiskSpace here = diskSpaceOf(QDir::tempPath().toStdString());
        QVERIFY(here.known);
        QVERIFY(here.free <= here.total && here.usable <= here.free);
        QCOMPARE(diskUsedRatio(QDir::tempPath().toStdString()), here.usedRatio());
        QVERIFY(!diskSpaceOf("/no/such/directory").known);
    }

    void findsOffsetsByTime()
    {
        QTemporaryDir dir;
        auto store = test::openStore(test::smallStoreConfig(dir.path()));
        std::vector<int64_t> times;
        for (int i = 0; i < 6; ++i) {
            times.push_back(store->putMessage(test::makeMessage("Timed", 0, "m")).storeTimestamp);
            QTest::qWait(5); // distinct store times
        }
        store->waitForDispatch();
        QCOMPARE(store->offsetInQueueByTime("Timed", 0, 0), int64_t{0});
        QCOMPARE(store->offsetInQueueByTime("Timed", 0, times[3]), int64_t{3});
        QCOMPARE(store->offsetInQueueByTime("Timed", 0, times[3] + 1), int64_t{4});
        QCOMPARE(store->offsetInQueueByTime("Timed", 0, times[5] + 1), int64_t{6});
        QCOMPARE(store->earliestMessageTime("Timed", 0), times[0]);
        QCOMPARE(store->earliestMessageTime(), times[0]);
    }

    void restartsKeepQueuesAndOffsets()
    {
        QTemporaryDir dir;
        const auto config = test::smallStoreConfig(dir.path(), 16 * 1024);
        {
            auto store = test::openStore(config);
            putMixed(*store, 200);
        }
        auto store = test::openStore(config);
        QVERIFY(!store->recoveryReport().abnormal);
        checkQueuesAgreeWithLog(*store, 200);
        // The next put of Topic1/1 continues that queue (i = 1, 13, ..., 193: 17 messages).
        QCOMPARE(store->putMessage(test::makeMessage("Topic1", 1, "next")).queueOffset, int64_t{17});
    }

    // Consume-queue files are full size but sparse: a queue's blocks are reserved as its entries
    // need them (64 KiB ahead), so a topic of many queues costs the disk what its entries take,
    // not 6 MB a queue — also after a restart, which continues reserving where the queue ends.
    void queueFilesTakeTheDiskTheirEntriesNeed()
    {
        QTemporaryDir dir;
        auto config = test::smallStoreConfig(dir.path(), 4 * 1024 * 1024);
        QCOMPARE(config.mappedFileSizeConsumeQueue, int64_t{300000 * 20}); // RocketMQ's default
        // What the file system adds for its own extent blocks, on top of the reserved data blocks.
        const int64_t metadata = 16 * 1024;
        const auto allocated = [&](int queueId) {
            const std::string path = dir.path().toStdString() + "/consumequeue/Wide/" + std::to_string(queueId)
                                     + "/00000000000000000000";
            struct stat st{};
            if (::stat(path.c_str(), &st) != 0)
                return std::pair<int64_t, int64_t>{-1, -1};
            return std::pair<int64_t, int64_t>{st.st_size, int64_t{st.st_blocks} * 512};
        };
        const int perRun = 4000; // past the first 64 KiB of queue 0 (3,276 entries)
        {
            auto store = test::openStore(config);
            for (int queueId = 0; queueId < 64; ++queueId)
                QCOMPARE(store->putMessage(test::makeMessage("Wide", queueId, "one")).status, PutMessageStatus::PutOk);
            for (int i = 1; i < perRun; ++i)
                QCOMPARE(store->putMessage(test::makeMessage("Wide", 0, "m" + std::to_string(i))).queueOffset,
                         int64_t{i});
            store->waitForDispatch();
        }
        for (int queueId = 1; queueId < 64; ++queueId) {
            const auto [size, blocks] = allocated(queueId);
            QCOMPARE(size, config.mappedFileSizeConsumeQueue);
            QVERIFY2(blocks > 0 && blocks <= 64 * 1024 + metadata, qPrintable(QString::number(blocks)));
        }
        QVERIFY2(allocated(0).second >= perRun * 20 && allocated(0).second <= 128 * 1024 + metadata,
                 qPrintable(QString::number(allocated(0).second)));

        auto store = test::openStore(config);
        QVERIFY(!store->recoveryReport().abnormal);
        for (int i = perRun; i < 2 * perRun; ++i) // past 128 KiB
            QCOMPARE(store->putMessage(test::makeMessage("Wide", 0, "m" + std::to_string(i))).queueOffset,
                     int64_t{i});
        store->waitForDispatch();
        checkQueuesAgreeWithLog(*store, 2 * perRun + 63);
        const auto last = store->getMessage("Wide", 0, 2 * perRun - 1, 1);
        QCOMPARE(last.messageCount, 1);
        QCOMPARE(last.messages.front().bodyText(), "m" + std::to_string(2 * perRun - 1));
        QVERIFY2(allocated(0).second >= 2 * perRun * 20 && allocated(0).second <= 192 * 1024 + metadata,
                 qPrintable(QString::number(allocated(0).second)));
    }

    // Deleting a topic's queues forgets its numbering and files, and only the topics named: a
    // name that is another's prefix ("Topic1" of "Topic1-x") is not taken along, and a topic the
    // store never had is a no-op (nothing to hold puts for).
    void deletedQueuesStartAgainAtZero()
    {
        QTemporaryDir dir;
        auto store = test::openStore(test::smallStoreConfig(dir.path(), 16 * 1024));
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(store->putMessage(test::makeMessage("Topic1", 0, "a")).status, PutMessageStatus::PutOk);
            QCOMPARE(store->putMessage(test::makeMessage("Topic1-x", 0, "b")).status, PutMessageStatus::PutOk);
        }
        QVERIFY(store->commitLog().numbersQueuesOf("Topic1") && store->commitLog().numbersQueuesOf("Topic1-x"));
        QVERIFY(!store->commitLog().numbersQueuesOf("Topic"));
        std::string error;
        QVERIFY2(store->deleteTopicQueues({"NeverStored"}, error), error.c_str());
        QVERIFY2(store->deleteTopicQueues({"Topic1"}, error), error.c_str());
        QVERIFY(!store->commitLog().numbersQueuesOf("Topic1") && !store->consumeQueues().hasTopic("Topic1"));
        QVERIFY(store->commitLog().numbersQueuesOf("Topic1-x"));
        QTRY_VERIFY(store->consumeQueues().hasTopic("Topic1-x"));
        QCOMPARE(store->putMessage(test::makeMessage("Topic1", 0, "again")).queueOffset, int64_t{0});
        QCOMPARE(store->putMessage(test::makeMessage("Topic1-x", 0, "next")).queueOffset, int64_t{3});
    }

    void uncleanStopRebuildsQueuesFromTheLog()
    {
        QTemporaryDir dir;
        const QString live = dir.path() + QStringLiteral("/live");
        const QString crashed = dir.path() + QStringLiteral("/crashed");
        auto store = test::openStore(test::smallStoreConfig(live, 16 * 1024));
        putMixed(*store, 300);
        store->waitForDispatch();
        fs::copy(live.toStdString(), crashed.toStdString(), fs::copy_options::recursive);
        fs::remove(crashed.toStdString() + "/lock");
        store.reset();
        // Lose some queues and the index, as a crash before their flush would.
        fs::remove_all(crashed.toStdString() + "/consumequeue/Topic0");
        fs::remove_all(crashed.toStdString() + "/consumequeue/Topic2/1");
        fs::remove_all(crashed.toStdString() + "/index");

        auto recovered = test::openStore(test::smallStoreConfig(crashed, 16 * 1024));
        QVERIFY(recovered->recoveryReport().abnormal);
        checkQueuesAgreeWithLog(*recovered, 300);
        for (int i = 0; i < 300; i += 7)
            QCOMPARE(recovered->queryMessage("Topic" + std::to_string(i % 3), "key-" + std::to_string(i), 4, 0, INT64_MAX)
                         .messages.size(),
                     size_t{1});
        QCOMPARE(recovered->putMessage(test::makeMessage("Topic0", 0, "next")).queueOffset, int64_t{25});
    }

    void truncatedLogCutsTheQueues()
    {
        QTemporaryDir dir;
        const auto config = test::smallStoreConfig(dir.path(), 64 * 1024);
        std::vector<PutMessageResult> results;
        {
            auto store = test::openStore(config);
            results = putMixed(*store, 40);
        }
        // Damage record 30: recovery cuts the log there and the queues with it.
        const std::string file = config.commitLogDir() + "/00000000000000000000";
        auto bytes = test::readFile(file);
        bytes[static_cast<size_t>(results[30].wroteOffset) + 90] ^= 0xFF;
        test::writeFile(file, bytes);
        auto store = test::openStore(config);
        QCOMPARE(store->recoveryReport().processOffset, results[30].wroteOffset);
        checkQueuesAgreeWithLog(*store, 30);
    }

    void retentionDeletesOldFilesEverywhere()
    {
        QTemporaryDir dir;
        auto config = test::smallStoreConfig(dir.path(), 8 * 1024);
        config.mappedFileSizeConsumeQueue = 20 * 10;
        config.fileReservedTime = 0;
        auto store = test::openStore(config);
        putMixed(*store, 300);
        store->waitForDispatch();
        const size_t before = store->commitLog().mappedFileQueue().fileCount();
        QVERIFY(before > 5);
        const auto cleaned = store->cleanExpiredFiles(true);
        QVERIFY(cleaned.commitLogFiles >= 1);
        QVERIFY(cleaned.consumeQueueFiles >= 1);
        QCOMPARE(store->commitLog().mappedFileQueue().fileCount(), before - static_cast<size_t>(cleaned.commitLogFiles));
        QVERIFY(store->commitLog().mappedFileQueue().fileCount() >= 1);
        const int64_t minOffset = store->commitLog().minOffset();
        QVERIFY(minOffset > 0);
        // Every queue now starts at an entry whose record is still there.
        store->consumeQueues().forEach([&](ConsumeQueue &queue) {
            const auto entry = queue.entryAt(queue.minOffset());
            if (entry)
                QVERIFY(entry->commitLogOffset >= minOffset);
        });
        // The queue of the last message (i = 299: Topic2, queue 3) still holds its newest ones.
        const auto early = store->getMessage("Topic2", 3, 0, 1);
        QCOMPARE(early.status, GetMessageStatus::OffsetTooSmall);
        QVERIFY(early.nextBeginOffset > 0);
        const auto rest = store->getMessage("Topic2", 3, early.nextBeginOffset, 100);
        QCOMPARE(rest.status, GetMessageStatus::Found);
        QCOMPARE(q(rest.messages.back().bodyText()), QStringLiteral("body-299"));
    }
};

QObject *createConsumeQueueTest() { return new ConsumeQueueTest; }

#include "tst_consume_queue.moc"
