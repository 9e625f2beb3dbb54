// ReaderFiles (reader_files.h): a store held in MemoryReaderFiles reads exactly as the same store
// on disk — listing, records, queues, index, checkpoint, config, health — so that the fuzz targets
// that use it test the reader users run; MemoryReaderFiles' own rules (replace, remove, parents);
// the real listing does not follow a directory link out of the store.

#include "store_reader_test_util.h"

#include "broker/store/reader/reader_files.h"

#include <filesystem>

using namespace mqdesk;
using namespace mqdesk::store;
using namespace mqdesk::test;
namespace fs = std::filesystem;

namespace {

// Every regular file under `root` copied into memory under `memoryRoot`.
std::shared_ptr<MemoryReaderFiles> copyIntoMemory(const std::string &root, const std::string &memoryRoot)
{
    auto files = std::make_shared<MemoryReaderFiles>();
    files->addDirectory(memoryRoot);
    for (const auto &entry : fs::recursive_directory_iterator(root)) {
        const std::string relative = fs::relative(entry.path(), root).string();
        if (entry.is_directory())
            files->addDirectory(memoryRoot + "/" + relative);
        else if (entry.is_regular_file())
            files->put(memoryRoot + "/" + relative, readFile(entry.path().string()));
    }
    return files;
}

std::string describeFiles(const StoreReader &reader)
{
    std::string out;
    for (const auto &file : reader.listFiles()) {
        out += file.relativePath + " " + std::string(storeFileKindName(file.kind)) + " " + std::to_string(file.size)
               + " " + std::to_string(file.startOffset) + "\n";
    }
    return out;
}

std::string describeRecords(const StoreReader &reader)
{
    RecordQuery query;
    query.limit = 1000000;
    std::string out;
    for (const auto &record : reader.readRecords(query).records) {
        out += std::to_string(record.offset) + " " + std::to_string(record.size) + " "
               + std::to_string(static_cast<int>(record.kind)) + " " + record.file + " " + record.message.topic + " "
               + std::to_string(record.message.queueOffset) + " " + std::to_string(record.crcOk) + record.error + "\n";
    }
    for (const auto &record : reader.readRecordsBefore(reader.commitLogDataEnd(), 5).records)
        out += "tail " + std::to_string(record.offset) + "\n";
    return out;
}

std::string describeQueuesAndIndex(const StoreReader &reader)
{
    std::string out;
    for (const auto &queue : reader.consumeQueues()) {
        out += queue.topic + "/" + std::to_string(queue.queueId) + " " + std::to_string(queue.minOffset) + ".."
               + std::to_string(queue.maxOffset) + " files " + std::to_string(queue.files.size()) + ":";
        for (const auto &entry : reader.readConsumeQueue(queue.topic, queue.queueId, queue.minOffset, 1000).entries)
            out += " " + std::to_string(entry.entry.commitLogOffset);
        out += " byTime " + std::to_string(reader.consumeQueueOffsetByTime(queue.topic, queue.queueId, 0)) + "\n";
    }
    for (const auto &index : reader.indexFiles()) {
        out += index.file.name + " " + std::to_string(index.header.indexCount) + " " + std::to_string(index.hashSlotNum)
               + " " + index.layoutError + ":";
        for (const auto &step : reader.readIndexEntries(index.file.name, 1, 64))
            out += " " + std::to_string(step.phyOffset);
        out += "\n";
    }
    for (const auto &lookup : reader.lookupIndexKey("T", "k1"))
        out += "k1 in " + lookup.file + " chain " + std::to_string(lookup.chain.size()) + "\n";
    return out;
}

std::string describeSmallFiles(const StoreReader &reader)
{
    std::string out;
    if (const auto checkpoint = reader.readCheckpoint())
        out += "checkpoint " + std::to_string(checkpoint->physicMsgTimestamp) + " "
               + std::to_string(checkpoint->logicsMsgTimestamp) + "\n";
    const AbortInfo abort = reader.readAbort();
    out += "abort " + std::to_string(abort.present) + " " + abort.content + "\n";
    out += "lock " + std::to_string(reader.probeLock().present) + "\n";
    for (const auto &config : reader.configFiles())
        out += config.name + " " + std::to_string(config.size) + " parsed " + std::to_string(config.parsed) + "\n";
    const VerifyReport report = verifyStore(reader);
    out += "records " + std::to_string(report.records) + " faults" + listFaults(report) + "\n";
    return out;
}

} // namespace

class ReaderFilesTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::string written_; // a store written by MessageStore

private slots:
    void initTestCase()
    {
        written_ = dir_.path().toStdString() + "/written";
        auto store = test::openStore(storeConfig(q(written_)));
        QVERIFY(store);
        for (int i = 0; i < 120; ++i)
            QCOMPARE(store->putMessage(numbered(i)).status, PutMessageStatus::PutOk);
    }

    void memoryStoreReadsAsOnDisk_data()
    {
        QTest::addColumn<QString>("root");
        for (const char *fixture : {"fork-2021", "study-2019", "study-b"})
            QTest::newRow(fixture) << QString::fromStdString(test::fixturesDir() + "/" + fixture);
        QTest::newRow("written by MessageStore") << QString::fromStdString(written_);
    }

    void memoryStoreReadsAsOnDisk()
    {
        QFETCH(QString, root);
        const auto disk = openReader(root.toStdString());
        QVERIFY(disk);
        StoreReaderOptions options;
        options.files = copyIntoMemory(root.toStdString(), "/mem/store");
        std::string error;
        const auto memory = StoreReader::open("/mem/store", options, error);
        QVERIFY2(memory, error.c_str());

        QCOMPARE(q(describeFiles(*memory)), q(describeFiles(*disk)));
        QVERIFY(!disk->listFiles().empty());
        QCOMPARE(q(describeRecords(*memory)), q(describeRecords(*disk)));
        QCOMPARE(q(describeQueuesAndIndex(*memory)), q(describeQueuesAndIndex(*disk)));
        // The lock file is there in both; only a real one can be held by a process.
        QCOMPARE(q(describeSmallFiles(*memory)), q(describeSmallFiles(*disk)));
    }

    void memoryFilesReplaceRemoveAndList()
    {
        MemoryReaderFiles files;
        files.put("/s/consumequeue/T/0/00000000000000000000", std::vector<uint8_t>(40, 1));
        files.put("/s/consumequeue/T/1/00000000000000000000", std::vector<uint8_t>{});
        files.put("/s/checkpoint", std::vector<uint8_t>(8, 2));

        FileStatus status;
        QCOMPARE(files.status("/s/consumequeue", status), 0);
        QVERIFY(status.directory && !status.regular);
        QCOMPARE(files.status("/s/consumequeue/T/1/00000000000000000000", status), 0);
        QVERIFY(status.regular && status.size == 0);
        QCOMPARE(files.status("/s/nothing", status), ENOENT);
        QCOMPARE(files.checkReadableDirectory("/s/checkpoint"), ENOTDIR);
        // "/s/c" is a prefix of names under /s but no directory.
        QCOMPARE(files.status("/s/c", status), ENOENT);

        std::vector<std::string> names;
        for (const auto &entry : files.list("/s"))
            names.push_back(entry.name);
        QCOMPARE(names, (std::vector<std::string>{"checkpoint", "consumequeue"}));

        MappedRegion first;
        QCOMPARE(files.map("/s/consumequeue/T/0/00000000000000000000", first), 0);
        files.put("/s/consumequeue/T/0/00000000000000000000", std::vector<uint8_t>(20, 3));
        MappedRegion second;
        QCOMPARE(files.map("/s/consumequeue/T/0/00000000000000000000", second), 0);
        QVERIFY(first.status.inode != second.status.inode);
        QCOMPARE(first.bytes().size(), size_t{40}); // a mapping keeps the bytes it was given
        QCOMPARE(int{first.bytes()[39]}, 1);
        QCOMPARE(second.bytes().size(), size_t{20});
        QCOMPARE(files.map("/s/consumequeue", second), EISDIR);

        files.remove("/s/consumequeue/T");
        QCOMPARE(files.status("/s/consumequeue/T/0/00000000000000000000", status), ENOENT);
        QCOMPARE(files.status("/s/consumequeue", status), ENOENT); // no file left under it
        QCOMPARE(files.status("/s/checkpoint", status), 0);
    }

    void readerFollowsAReplacedFileInMemory()
    {
        auto files = copyIntoMemory(written_, "/w");
        StoreReaderOptions options;
        options.files = files;
        std::string error;
        const auto reader = StoreReader::open("/w", options, error);
        QVERIFY(reader);
        const auto before = reader->consumeQueue("U", 0);
        QVERIFY(before && before->maxOffset == 40);
        // The queue's files replaced by one empty file: the reader sees it at once.
        files->remove("/w/consumequeue/U/0");
        files->put("/w/consumequeue/U/0/00000000000000000000", std::vector<uint8_t>{});
        const auto after = reader->consumeQueue("U", 0);
        QVERIFY(after);
        QCOMPARE(after->maxOffset, int64_t{0});
    }

    void listingDoesNotFollowADirectoryLinkOutOfTheStore()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString() + "/store";
        const std::string outside = dir.path().toStdString() + "/outside";
        fs::create_directories(root + "/config");
        fs::create_directories(outside);
        writeFile(outside + "/secret.json", std::vector<uint8_t>{'{', '}'});
        writeFile(root + "/config/topics.json", std::vector<uint8_t>{'{', '}'});
        fs::create_directory_symlink(outside, root + "/linked");
        fs::create_directory_symlink(root, root + "/loop");
        const auto reader = openReader(root);
        QVERIFY(reader);
        std::vector<std::string> paths;
        for (const auto &file : reader->listFiles())
            paths.push_back(file.relativePath);
        QCOMPARE(paths, (std::vector<std::string>{"config/topics.json"}));
    }
};

QObject *createReaderFilesTest()
{
    return new ReaderFilesTest;
}

#include "tst_reader_files.moc"
