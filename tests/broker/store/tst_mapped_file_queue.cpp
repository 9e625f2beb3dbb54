// Mapped files and the mapped-file queue: names, sizes, positions, the page rule, truncation.

#include "store_test_util.h"

#include "broker/store/mapped_file_queue.h"

#include <filesystem>

using namespace mqdesk;
using namespace mqdesk::store;
using mqdesk::test::q;
namespace fs = std::filesystem;

class MappedFileQueueTest : public QObject
{
    Q_OBJECT

private slots:
    void namesFilesByTheirFirstOffset()
    {
        QTemporaryDir dir;
        MappedFileQueue queue(dir.path().toStdString(), 65536);
        std::string error;
        QVERIFY(queue.load(error));
        QVERIFY(queue.createFile(0, error));
        QVERIFY(queue.createFile(65536, error));
        QVERIFY(fs::exists(dir.path().toStdString() + "/00000000000000000000"));
        QCOMPARE(fs::file_size(dir.path().toStdString() + "/00000000000000065536"), uintmax_t{65536});
        QCOMPARE(q(offsetToFileName(1073741824)), QStringLiteral("00000000001073741824"));
        QCOMPARE(queue.findFileByOffset(70000)->fileFromOffset(), int64_t{65536});
        QVERIFY(!queue.findFileByOffset(2 * 65536));
    }

    void refusesFilesOfAnotherSize()
    {
        QTemporaryDir dir;
        {
            MappedFileQueue queue(dir.path().toStdString(), 65536);
            std::string error;
            QVERIFY(queue.load(error) && queue.createFile(0, error));
        }
        MappedFileQueue queue(dir.path().toStdString(), 131072);
        std::string error;
        QVERIFY(!queue.load(error));
        QVERIFY2(error.find("00000000000000000000") != std::string::npos, error.c_str());
        QVERIFY2(error.find("mappedFileSizeCommitLog") != std::string::npos, error.c_str());
        QVERIFY2(error.find("65536") != std::string::npos, error.c_str());
    }

    void refusesForeignFilesAndGaps()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        {
            MappedFileQueue queue(root, 4096);
            std::string error;
            QVERIFY(queue.load(error) && queue.createFile(0, error) && queue.createFile(8192, error));
        }
        std::string error;
        MappedFileQueue gap(root, 4096);
        QVERIFY(!gap.load(error));
        QVERIFY2(error.find("missing") != std::string::npos, error.c_str());
        fs::remove(root + "/00000000000000008192");
        test::writeFile(root + "/notes.txt", {1, 2, 3});
        MappedFileQueue foreign(root, 4096);
        QVERIFY(!foreign.load(error));
        QVERIFY2(error.find("notes.txt") != std::string::npos, error.c_str());
    }

    void dropsATrailingEmptyFile()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        {
            MappedFileQueue queue(root, 4096);
            std::string error;
            QVERIFY(queue.load(error) && queue.createFile(0, error));
        }
        test::writeFile(root + "/00000000000000004096", {}); // crash right after creation
        MappedFileQueue queue(root, 4096);
        std::string error;
        QVERIFY2(queue.load(error), error.c_str());
        QCOMPARE(queue.fileCount(), size_t{1});
        QVERIFY(!fs::exists(root + "/00000000000000004096"));
    }

    void removesFilesWhoseCreationWasInterrupted()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        test::writeFile(root + "/00000000000000000000.creating", std::vector<uint8_t>(100, 0));
        MappedFileQueue queue(root, 4096);
        std::string error;
        QVERIFY2(queue.load(error), error.c_str());
        QCOMPARE(queue.fileCount(), size_t{0});
        QVERIFY(!fs::exists(root + "/00000000000000000000.creating"));
        QVERIFY(queue.createFile(0, error));
        QVERIFY(!fs::exists(root + "/00000000000000000000.creating"));
        QCOMPARE(fs::file_size(root + "/00000000000000000000"), uintmax_t{4096});
    }

    void flushesByThePageRule()
    {
        QTemporaryDir dir;
        MappedFileQueue queue(dir.path().toStdString(), 65536);
        std::string error;
        QVERIFY(queue.load(error));
        auto file = queue.createFile(0, error);
        std::memset(file->appendTarget(), 0xAB, 5000);
        file->advanceWrote(5000, 42);
        QCOMPARE(queue.flush(4).bytes, int64_t{0}); // 1 page pending, 4 needed
        QCOMPARE(queue.flushedWhere(), int64_t{0});
        QCOMPARE(queue.flush(1).bytes, int64_t{5000});
        QCOMPARE(queue.storeTimestamp(), int64_t{0}); // only leastPages == 0 records it
        file->advanceWrote(100, 43);
        QCOMPARE(queue.flush(1).bytes, int64_t{0}); // still page 1
        QCOMPARE(queue.flush(0).bytes, int64_t{100});
        QCOMPARE(queue.storeTimestamp(), int64_t{43});
        QCOMPARE(file->flushedPosition(), int64_t{5100});
        // A full file is always flushable.
        file->advanceWrote(65536 - 5100, 44);
        QCOMPARE(queue.flush(1000).bytes, int64_t{65536 - 5100});
        QCOMPARE(queue.flushedWhere(), int64_t{65536});
    }

    void commitsTransientBuffersIntoTheFile()
    {
        QTemporaryDir dir;
        MappedFileQueue queue(dir.path().toStdString(), 65536);
        std::string error;
        QVERIFY(queue.load(error));
        auto file = queue.createFile(0, error);
        std::vector<uint8_t> buffer(65536, 0);
        file->attachTransientBuffer(buffer.data());
        std::memset(file->appendTarget(), 0x5A, 100);
        file->advanceWrote(100, 1);
        QCOMPARE(file->readPosition(), int64_t{0}); // readers see committed bytes only
        QCOMPARE(queue.flush(0).bytes, int64_t{0});
        QCOMPARE(queue.commit(0).bytes, int64_t{100});
        QCOMPARE(file->data()[99], uint8_t{0x5A});
        QCOMPARE(queue.flush(0).bytes, int64_t{100});
        QCOMPARE(file->detachTransientBuffer(), buffer.data());
    }

    void reportsInjectedFlushFaults()
    {
        QTemporaryDir dir;
        MappedFileQueue queue(dir.path().toStdString(), 65536);
        std::string error;
        QVERIFY(queue.load(error));
        auto file = queue.createFile(0, error);
        file->advanceWrote(10, 1);
        queue.setFlushFaultForTesting([] { return std::string("Input/output error"); });
        const auto result = queue.flush(0);
        QVERIFY(result.failed);
        QVERIFY(result.error.find("00000000000000000000: Input/output error") != std::string::npos);
        QCOMPARE(queue.flushedWhere(), int64_t{0});
        queue.setFlushFaultForTesting({});
        // Never retried into success: the failed flush's bytes stay unflushed for good.
        const auto again = queue.flush(0);
        QVERIFY(again.failed);
        QVERIFY2(again.error.find("no later flush is trusted") != std::string::npos, again.error.c_str());
        QCOMPARE(queue.flushedWhere(), int64_t{0});
        QVERIFY(queue.flushFailed());
    }

    void failedDataSyncIsStickyAndNamesErrno()
    {
        QTemporaryDir dir;
        MappedFileQueue queue(dir.path().toStdString(), 65536);
        std::string error;
        QVERIFY(queue.load(error));
        auto file = queue.createFile(0, error);
        file->advanceWrote(10, 1);
        QCOMPARE(queue.flush(0).bytes, int64_t{10});
        file->advanceWrote(20, 2);
        failNextDataSyncsForTesting(1); // the real fdatasync path, failing with EIO once
        const auto result = queue.flush(0);
        QVERIFY(result.failed);
        QVERIFY2(result.error.find("00000000000000000000 failed for bytes 10 to 30") != std::string::npos,
                 result.error.c_str());
        QVERIFY2(result.error.find("errno 5") != std::string::npos, result.error.c_str());
        // The disk "works" again (the injected fault is used up), yet nothing is reported flushed.
        QVERIFY(queue.flush(0).failed);
        QCOMPARE(queue.flushedWhere(), int64_t{10});
        QCOMPARE(queue.flushFailure(), result.error);
    }

    void truncatesAndZeroesTheTail()
    {
        QTemporaryDir dir;
        MappedFileQueue queue(dir.path().toStdString(), 8192);
        std::string error;
        QVERIFY(queue.load(error));
        auto first = queue.createFile(0, error);
        std::memset(first->appendTarget(), 0x77, 8192);
        first->advanceWrote(8192, 1);
        auto second = queue.createFile(8192, error);
        second->advanceWrote(100, 2);
        QVERIFY(queue.truncateDirtyFiles(5000, error));
        QCOMPARE(queue.fileCount(), size_t{1});
        QVERIFY(!fs::exists(dir.path().toStdString() + "/00000000000000008192"));
        QCOMPARE(first->wrotePosition(), int64_t{5000});
        QCOMPARE(first->data()[4999], uint8_t{0x77});
        for (int i = 5000; i < 8192; ++i)
            QCOMPARE(first->data()[i], uint8_t{0});
        const auto onDisk = test::readFile(dir.path().toStdString() + "/00000000000000000000");
        QCOMPARE(onDisk[5000], uint8_t{0});
        QCOMPARE(onDisk[8191], uint8_t{0});
    }
};

QObject *createMappedFileQueueTest() { return new MappedFileQueueTest; }

#include "tst_mapped_file_queue.moc"
