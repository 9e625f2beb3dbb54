// Index files and the index service (store-format §6, §7 indexMsgTimestamp, §15, §17.1).

#include "store_test_util.h"

#include "broker/common/bytes.h"
#include "broker/common/java_hash.h"
#include "broker/store/index_service.h"
#include "broker/store/store_checkpoint.h"

#include <atomic>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <thread>

using namespace mqdesk;
using namespace mqdesk::store;
using common::readInt32;
using common::readInt64;
namespace fs = std::filesystem;

namespace {

constexpr int64_t kT0 = 1700000000123; // §17 store timestamp

DispatchRequest record(int64_t offset, int64_t storeTimestamp, const std::string &keys,
                       const std::string &uniqKey = {}, int32_t sysFlag = 0, const std::string &topic = "T")
{
    DispatchRequest r;
    r.topic = topic;
    r.commitLogOffset = offset;
    r.msgSize = 100;
    r.storeTimestamp = storeTimestamp;
    r.keys = keys;
    r.uniqKey = uniqKey;
    r.sysFlag = sysFlag;
    return r;
}

std::unique_ptr<StoreCheckpoint> openCheckpoint(const std::string &root)
{
    std::string error;
    auto checkpoint = StoreCheckpoint::open(root + "/checkpoint", error);
    if (!checkpoint)
        qWarning("%s", error.c_str());
    return checkpoint;
}

std::unique_ptr<IndexService> openIndex(const std::string &root, StoreCheckpoint &checkpoint, int32_t slotCount = 100,
                                        int32_t entries = 400, bool lastExitOk = true)
{
    auto index = std::make_unique<IndexService>(root, slotCount, entries);
    std::string error;
    if (!index->load(lastExitOk, checkpoint, error)) {
        qWarning("%s", error.c_str());
        return nullptr;
    }
    return index;
}

bool build(IndexService &index, const DispatchRequest &r)
{
    std::string error;
    if (!index.buildIndex(r, error))
        qWarning("%s", error.c_str());
    return error.empty();
}

QList<qint64> found(const IndexService &index, const std::string &key, int maxNum = 64, int64_t begin = 0,
                    int64_t end = INT64_MAX, int cap = IndexService::kDefaultMaxMsgsNumBatch)
{
    const auto result = index.queryOffset("T", key, maxNum, begin, end, cap);
    return QList<qint64>(result.phyOffsets.begin(), result.phyOffsets.end());
}

QList<qint64> select(const IndexFile &file, const std::string &key, int64_t begin = 0, int64_t end = INT64_MAX)
{
    std::vector<int64_t> out;
    file.selectPhyOffsets(out, key, 64, begin, end);
    return QList<qint64>(out.begin(), out.end());
}

std::unique_ptr<IndexFile> createFile(const std::string &dir, int32_t slotCount, int32_t entries,
                                      int64_t prevEndPhyOffset = 0, int64_t prevEndTimestamp = 0)
{
    std::string error;
    auto file = IndexFile::create(dir + "/20231114221320123", slotCount, entries, prevEndPhyOffset, prevEndTimestamp,
                                  error);
    if (!file)
        qWarning("%s", error.c_str());
    return file;
}

} // namespace

class IndexTest : public QObject
{
    Q_OBJECT

private slots:
    void workedExampleOnDisk()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        auto checkpoint = openCheckpoint(root);
        auto index = openIndex(root, *checkpoint, 5000000, 10); // default slots, few entries
        QVERIFY(index);
        QCOMPARE(IndexFile::keyHash("TopicTest#k1"), 2746024);
        QVERIFY(build(*index, record(0, kT0, "k1", {}, 0, "TopicTest")));
        std::string error;
        QVERIFY2(index->flush(error), error.c_str());

        const auto files = index->files();
        QCOMPARE(files.size(), size_t{1});
        const auto bytes = test::readFile(files[0].path);
        QCOMPARE(bytes.size(), size_t{40 + 5000000 * 4 + 10 * 20});
        QCOMPARE(readInt32(&bytes[40 + 2746024 * 4]), 1);
        const QByteArray entry(reinterpret_cast<const char *>(&bytes[20000060]), 20);
        QCOMPARE(entry.toHex(), QByteArrayLiteral("0029e6a8" "0000000000000000" "00000000" "00000000"));
        QCOMPARE(readInt64(&bytes[0]), kT0);
        QCOMPARE(readInt64(&bytes[8]), kT0);
        QCOMPARE(readInt64(&bytes[16]), int64_t{0});
        QCOMPARE(readInt64(&bytes[24]), int64_t{0});
        QCOMPARE(readInt32(&bytes[32]), 1);
        QCOMPARE(readInt32(&bytes[36]), 2);
        const auto result = index->queryOffset("TopicTest", "k1", 64, 0, INT64_MAX);
        QCOMPARE(result.phyOffsets.size(), size_t{1});
        QCOMPARE(result.phyOffsets[0], int64_t{0});
        QCOMPARE(result.indexLastUpdateTimestamp, kT0);
    }

    void namesFilesByLocalTime()
    {
        const QByteArray oldTz = qgetenv("TZ");
        qputenv("TZ", "UTC");
        tzset();
        QCOMPARE(test::q(indexFileName(kT0)), QStringLiteral("20231114221320123"));
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        auto checkpoint = openCheckpoint(root);
        auto index = openIndex(root, *checkpoint, 10, 2); // one entry per file: a file per message
        for (int i = 0; i < 6; ++i)
            QVERIFY(build(*index, record(i * 100, kT0 + i, "k")));
        const auto files = index->files();
        QCOMPARE(files.size(), size_t{6});
        std::string previous;
        for (const auto &info : files) { // unique and ascending though made within milliseconds
            const std::string name = fs::path(info.path).filename().string();
            QCOMPARE(name.size(), size_t{17});
            QVERIFY2(name > previous, name.c_str());
            previous = name;
        }
        oldTz.isNull() ? qunsetenv("TZ") : qputenv("TZ", oldTz);
        tzset();
    }

    void chainsFindCollidingKeysNewestFirst()
    {
        std::string error;
        QTemporaryDir dir;
        auto file = createFile(dir.path().toStdString(), 1, 50); // every key in one slot
        QVERIFY(file);
        QVERIFY(file->putKey("T#a", 0, kT0, error));
        QVERIFY(file->putKey("T#b", 10, kT0 + 1000, error));
        QVERIFY(file->putKey("T#a", 20, kT0 + 2500, error)); // reads back as kT0 + 2000: whole seconds
        QVERIFY(file->putKey("T#b", 30, kT0 + 3000, error));
        QVERIFY(file->putKey("T#a", 40, kT0 + 4000, error));
        QCOMPARE(file->hashSlotCount(), 1);
        QCOMPARE(file->indexCount(), 6);
        QCOMPARE(select(*file, "T#a"), (QList<qint64>{40, 20, 0}));
        QCOMPARE(select(*file, "T#b"), (QList<qint64>{30, 10}));
        QCOMPARE(select(*file, "T#a", kT0 + 1000, kT0 + 3000), (QList<qint64>{20}));
        QCOMPARE(select(*file, "T#a", kT0 + 2001, kT0 + 4000), (QList<qint64>{40}));
        QCOMPARE(select(*file, "T#c"), QList<qint64>{});
        const auto bytes = test::readFile(file->path());
        QCOMPARE(readInt32(&bytes[40 + 4 + 5 * 20 + 16]), 4); // entry 5 links to entry 4
        QCOMPARE(readInt32(&bytes[40 + 4 + 5 * 20 + 12]), 4); // timeDiff in seconds

        // Equal Java hashes ("Aa", "BB") are not told apart: the caller compares the keys.
        QTemporaryDir other;
        auto hashed = createFile(other.path().toStdString(), 100, 10);
        QVERIFY(hashed->putKey("Aa", 1, kT0, error) && hashed->putKey("BB", 2, kT0, error));
        QCOMPARE(select(*hashed, "Aa"), (QList<qint64>{2, 1}));
    }

    void integerMinValueHashIsZero()
    {
        std::string error;
        QCOMPARE(common::javaStringHashCode("polygenelubricants"), INT32_MIN);
        QCOMPARE(IndexFile::keyHash("polygenelubricants"), 0);
        QTemporaryDir dir;
        auto file = createFile(dir.path().toStdString(), 100, 10);
        QVERIFY(file->putKey("polygenelubricants", 77, kT0, error));
        const auto bytes = test::readFile(file->path());
        QCOMPARE(readInt32(&bytes[40]), 1); // slot 0
        QCOMPARE(readInt32(&bytes[40 + 400 + 20]), 0);
        QCOMPARE(select(*file, "polygenelubricants"), QList<qint64>{77});
    }

    void timeRangesExcludeFiles()
    {
        std::string error;
        QTemporaryDir dir;
        auto file = createFile(dir.path().toStdString(), 100, 10);
        QVERIFY(file->putKey("T#k", 0, kT0, error) && file->putKey("T#k", 100, kT0 + 10000, error));
        QVERIFY(file->isTimeMatched(kT0 - 5, kT0 + 20000));     // covers the file
        QVERIFY(file->isTimeMatched(kT0 + 5000, kT0 + 20000));  // starts inside
        QVERIFY(file->isTimeMatched(kT0 - 5000, kT0));          // ends inside
        QVERIFY(!file->isTimeMatched(kT0 + 10001, kT0 + 20000));
        QVERIFY(!file->isTimeMatched(0, kT0 - 1));

        // The service stops after the first file that begins before `begin` (§6.4), even where
        // an older file holds later store times.
        const std::string root = dir.path().toStdString() + "/store";
        auto checkpoint = openCheckpoint(dir.path().toStdString());
        auto index = openIndex(root, *checkpoint, 100, 3); // two entries per file
        QVERIFY(build(*index, record(0, kT0 + 2000, "k")) && build(*index, record(100, kT0 + 3000, "k")));
        QVERIFY(build(*index, record(200, kT0 + 1000, "k"))); // second file, begins earlier
        QCOMPARE(found(*index, "k"), (QList<qint64>{200, 100, 0}));
        QCOMPARE(found(*index, "k", 64, kT0 + 2000, kT0 + 5000), QList<qint64>{});
        QCOMPARE(found(*index, "k", 64, kT0, kT0 + 1500), QList<qint64>{200});
        QCOMPARE(found(*index, "k", 64, kT0 + 90000, INT64_MAX), QList<qint64>{});
    }

    void capsResultsAtMaxNum()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        auto checkpoint = openCheckpoint(root);
        auto index = openIndex(root, *checkpoint);
        for (int i = 0; i < 70; ++i)
            QVERIFY(build(*index, record(i * 100, kT0 + i * 1000, "k")));
        QCOMPARE(found(*index, "k", 3), (QList<qint64>{6900, 6800, 6700}));
        QCOMPARE(found(*index, "k", 1000).size(), qsizetype{64}); // maxMsgsNumBatch
        QCOMPARE(found(*index, "k", 1000).front(), qint64{6900});
        QCOMPARE(found(*index, "k", 1000, 0, INT64_MAX, 100).size(), qsizetype{70});
        QCOMPARE(found(*index, "k", 1000, 0, INT64_MAX, 5).size(), qsizetype{5});
    }

    void fullFileRollsWithInheritedHeader()
    {
        QTemporaryDir dir;
        // At file level: the inherited values are the header until the first entry.
        auto fresh = createFile(dir.path().toStdString(), 100, 10, 500, kT0);
        QCOMPARE(fresh->beginPhyOffset(), int64_t{500});
        QCOMPARE(fresh->endTimestamp(), kT0);
        QCOMPARE(fresh->indexCount(), 1);
        auto bytes = test::readFile(fresh->path());
        QCOMPARE(readInt64(&bytes[0]), kT0);
        QCOMPARE(readInt64(&bytes[24]), int64_t{500});
        QCOMPARE(readInt32(&bytes[36]), 0); // on disk until the first entry or flush
        fresh.reset();

        const std::string root = dir.path().toStdString() + "/store";
        auto checkpoint = openCheckpoint(dir.path().toStdString());
        auto index = openIndex(root, *checkpoint, 100, 5); // four entries per file
        for (int i = 0; i < 4; ++i)
            QVERIFY(build(*index, record(i * 100, kT0 + i * 1500, "k" + std::to_string(i))));
        QCOMPARE(index->fileCount(), size_t{1});
        QVERIFY(index->files()[0].full);
        QCOMPARE(checkpoint->indexMsgTimestamp(), int64_t{0}); // rolls lazily on the next record
        QVERIFY(build(*index, record(400, kT0 + 6000, "k4")));
        const auto files = index->files();
        QCOMPARE(files.size(), size_t{2});
        QCOMPARE(files[0].header.indexCount, 5);
        QCOMPARE(files[0].header.endTimestamp, kT0 + 4500);
        QCOMPARE(checkpoint->indexMsgTimestamp(), kT0 + 4500);
        QCOMPARE(readInt64(test::readFile(dir.path().toStdString() + "/checkpoint").data() + 16), kT0 + 4500);
        QCOMPARE(files[1].header.beginTimestamp, kT0 + 6000); // overwritten by the first entry
        QCOMPARE(files[1].header.beginPhyOffset, int64_t{400});
        QCOMPARE(files[1].header.indexCount, 2);
        bytes = test::readFile(files[1].path);
        QCOMPARE(readInt32(&bytes[40 + 400 + 20 + 12]), 1); // (6000 − 4500) / 1000 against the inherited begin
        for (int i = 0; i < 5; ++i)
            QCOMPARE(found(*index, "k" + std::to_string(i)), QList<qint64>{i * 100});
    }

    void abnormalLoadDeletesFilesNewerThanTheCheckpoint()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        {
            auto checkpoint = openCheckpoint(root);
            auto index = openIndex(root, *checkpoint, 100, 3);
            for (int i = 0; i < 3; ++i) // two in a full, flushed file; one in the current file
                QVERIFY(build(*index, record(i * 100, kT0 + i * 1000, "k" + std::to_string(i))));
        } // no shutdown: a crash
        auto checkpoint = openCheckpoint(root);
        QCOMPARE(checkpoint->indexMsgTimestamp(), kT0 + 1000);
        QCOMPARE(openIndex(root, *checkpoint, 100, 3, true)->fileCount(), size_t{2});
        auto index = openIndex(root, *checkpoint, 100, 3, false);
        QCOMPARE(index->fileCount(), size_t{1});
        QCOMPARE(found(*index, "k1"), QList<qint64>{100});
        QCOMPARE(found(*index, "k2"), QList<qint64>{});
        QCOMPARE(size_t(std::distance(fs::directory_iterator(root + "/index"), {})), size_t{1});
        QVERIFY(build(*index, record(200, kT0 + 2000, "k2"))); // re-dispatch rebuilds it
        QCOMPARE(found(*index, "k2"), QList<qint64>{200});
    }

    void deleteExpiredFilesKeepsTheLast()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        auto checkpoint = openCheckpoint(root);
        auto index = openIndex(root, *checkpoint, 100, 3);
        for (int i = 0; i < 6; ++i) // files end at 100, 300, 500
            QVERIFY(build(*index, record(i * 100, kT0 + i * 1000, "k")));
        QCOMPARE(index->fileCount(), size_t{3});
        std::string error;
        QVERIFY(index->deleteExpiredFiles(100, error));
        QCOMPARE(index->fileCount(), size_t{3});
        const std::string first = index->files()[0].path;
        QVERIFY(index->deleteExpiredFiles(101, error));
        QCOMPARE(index->fileCount(), size_t{2});
        QVERIFY(!fs::exists(first));
        QVERIFY2(index->deleteExpiredFiles(INT64_MAX, error), error.c_str());
        QCOMPARE(index->fileCount(), size_t{1});
        QCOMPARE(index->files()[0].header.endPhyOffset, int64_t{500});
        QCOMPARE(found(*index, "k"), (QList<qint64>{500, 400}));
    }

    void indexesByTransactionTypeUniqKeyAndKeys()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        auto checkpoint = openCheckpoint(root);
        auto index = openIndex(root, *checkpoint);
        QVERIFY(build(*index, record(0, kT0, "r", {}, 0xC)));   // ROLLBACK
        QVERIFY(build(*index, record(100, kT0, "p", {}, 0x4))); // PREPARED
        QVERIFY(build(*index, record(200, kT0, "c", {}, 0x8))); // COMMIT
        QCOMPARE(found(*index, "r"), QList<qint64>{});
        QCOMPARE(found(*index, "p"), QList<qint64>{100});
        QCOMPARE(found(*index, "c"), QList<qint64>{200});
        QVERIFY(build(*index, record(300, kT0, " a  b ", "U1")));
        QCOMPARE(index->files()[0].header.indexCount, 6); // p, c, U1, a, b
        QCOMPARE(found(*index, "U1"), QList<qint64>{300});
        QCOMPARE(found(*index, "a"), QList<qint64>{300});
        QCOMPARE(found(*index, "b"), QList<qint64>{300});
        QCOMPARE(found(*index, ""), QList<qint64>{});
        // The uniq key comes first: entry 3 is T#U1.
        const auto bytes = test::readFile(index->files()[0].path);
        QCOMPARE(readInt32(&bytes[40 + 400 + 3 * 20]), IndexFile::keyHash("T#U1"));
    }

    void redispatchedOffsetsAreNotIndexedTwice()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        auto checkpoint = openCheckpoint(root);
        auto index = openIndex(root, *checkpoint);
        for (int i = 0; i < 3; ++i)
            QVERIFY(build(*index, record(i * 100, kT0 + i, "k" + std::to_string(i))));
        QVERIFY(build(*index, record(0, kT0, "k0")));
        QVERIFY(build(*index, record(100, kT0 + 1, "k1")));
        QCOMPARE(index->files()[0].header.indexCount, 4);
        QCOMPARE(found(*index, "k0"), QList<qint64>{0});
        QCOMPARE(found(*index, "k1"), QList<qint64>{100});
        // RocketMQ compares with `<`: the record at exactly endPhyOffset is indexed again.
        QVERIFY(build(*index, record(200, kT0 + 2, "k2")));
        QCOMPARE(found(*index, "k2"), (QList<qint64>{200, 200}));
    }

    void restartFindsEarlierKeys()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        auto checkpoint = openCheckpoint(root);
        {
            auto index = openIndex(root, *checkpoint);
            QVERIFY(build(*index, record(0, kT0, "a")) && build(*index, record(100, kT0 + 1000, "b")));
            std::string error;
            QVERIFY2(index->shutdown(error), error.c_str());
            QVERIFY(!index->buildIndex(record(200, kT0, "c"), error));
        }
        auto index = openIndex(root, *checkpoint);
        QCOMPARE(found(*index, "a"), QList<qint64>{0});
        QCOMPARE(found(*index, "b"), QList<qint64>{100});
        QVERIFY(build(*index, record(50, kT0, "a"))); // below endPhyOffset: already indexed
        QVERIFY(build(*index, record(200, kT0 + 2000, "a")));
        QCOMPARE(index->fileCount(), size_t{1});
        QCOMPARE(found(*index, "a"), (QList<qint64>{200, 0}));
    }

    void readersRunDuringIndexing()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        auto checkpoint = openCheckpoint(root);
        auto index = openIndex(root, *checkpoint, 16, 50);
        std::atomic<bool> done{false};
        std::atomic<int> bad{0};
        std::thread reader([&] {
            while (!done.load()) {
                for (const int64_t offset : index->queryOffset("T", "k", 64, 0, INT64_MAX).phyOffsets)
                    if (offset % 100 != 0 || offset < 0 || offset >= 2000 * 100)
                        bad.fetch_add(1);
                for (const auto &info : index->files())
                    if (info.header.indexCount < 1 || info.header.indexCount > 50)
                        bad.fetch_add(1);
            }
        });
        for (int i = 0; i < 2000; ++i)
            build(*index, record(i * 100, kT0 + i, i % 2 ? "k" : "other"));
        done = true;
        reader.join();
        QCOMPARE(bad.load(), 0);
        QCOMPARE(found(*index, "k").front(), qint64{1999 * 100});
    }

    void refusesForeignAndMisSizedFiles()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        auto checkpoint = openCheckpoint(root);
        fs::create_directories(root + "/index");
        test::writeFile(root + "/index/20230101000000000.creating", std::vector<uint8_t>(10, 0));
        test::writeFile(root + "/index/20230101000000000", std::vector<uint8_t>(10, 0));
        IndexService index(root, 100, 400);
        std::string error;
        QVERIFY(!index.load(true, *checkpoint, error));
        QVERIFY2(error.find("20230101000000000") != std::string::npos, error.c_str());
        QVERIFY2(error.find("maxHashSlotNum") != std::string::npos, error.c_str());
        QVERIFY(!fs::exists(root + "/index/20230101000000000.creating"));
        fs::remove(root + "/index/20230101000000000");
        test::writeFile(root + "/index/notes.txt", {1});
        QVERIFY(!index.load(true, *checkpoint, error));
        QVERIFY2(error.find("notes.txt") != std::string::npos, error.c_str());
    }

    void configKeys()
    {
        MessageStoreConfig config;
        QCOMPARE(config.maxHashSlotNum, 5000000);
        QCOMPARE(config.maxIndexNum, 20000000);
        QVERIFY(config.messageIndexEnable);
        QVERIFY(config.set("maxHashSlotNum", "100").empty());
        QVERIFY(config.set("messageIndexEnable", "false").empty());
        QVERIFY(!config.messageIndexEnable);
        QVERIFY(!config.set("maxIndexNum", "1").empty());
        QVERIFY(config.set("maxIndexNum", "200000000").find("2 GiB") != std::string::npos);
        IndexService index(config);
        QCOMPARE(index.hashSlotNum(), 100);
        QCOMPARE(test::q(index.directory()), test::q(config.rootDir() + "/index"));
    }
};

QObject *createIndexTest() { return new IndexTest; }

#include "tst_index.moc"
