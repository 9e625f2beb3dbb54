// StoreReader and the store health check (store_verifier.h): the Java-written stores read in
// place without a byte changed, a store written by MessageStore, damaged copies, the lock probe
// and a store that grows while it is read.

#include "store_reader_test_util.h"

#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/delay_offset_manager.h"
#include "broker/store/config/topic_config_manager.h"

#include <filesystem>
#include <numeric>
#include <thread>

using namespace mqdesk;
using namespace mqdesk::store;
using namespace mqdesk::test;
namespace fs = std::filesystem;

class StoreReaderTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir baseDir_;
    std::string base_; // a clean store written by MessageStore, copied by the damage tests
    std::vector<PutMessageResult> puts_;

    std::string copyBase(QTemporaryDir &dir)
    {
        const std::string root = dir.path().toStdString() + "/store";
        fs::copy(base_, root, fs::copy_options::recursive);
        return root;
    }

    VerifyReport verify(const std::string &root)
    {
        auto reader = openReader(root);
        return reader ? verifyStore(*reader) : VerifyReport{};
    }

private slots:
    void initTestCase()
    {
        base_ = baseDir_.path().toStdString() + "/store";
        auto store = test::openStore(storeConfig(q(base_)));
        QVERIFY(store);
        for (int i = 0; i < kMessages; ++i) {
            puts_.push_back(store->putMessage(numbered(i)));
            QCOMPARE(puts_.back().status, PutMessageStatus::PutOk);
        }
        store.reset();
        QVERIFY(fs::exists(base_ + "/commitlog/00000000000000016384"));
    }

    void readsJavaWrittenStoresInPlace_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<int>("records");
        QTest::addColumn<bool>("abort");
        QTest::newRow("fork-2021") << QStringLiteral("fork-2021") << 47 << false;
        QTest::newRow("study-2019") << QStringLiteral("study-2019") << 47 << true;
        QTest::newRow("study-b") << QStringLiteral("study-b") << 0 << false;
    }

    void readsJavaWrittenStoresInPlace()
    {
        QFETCH(QString, fixture);
        QFETCH(int, records);
        QFETCH(bool, abort);
        const std::string root = test::fixturesDir() + "/" + fixture.toStdString();
        const auto before = fingerprint(root);
        auto reader = openReader(root);
        QVERIFY(reader);

        std::map<std::string, StoreFileKind> kinds;
        for (const auto &file : reader->listFiles())
            kinds[file.relativePath] = file.kind;
        QCOMPARE(kinds.at("lock"), StoreFileKind::Lock);
        QVERIFY(kinds.count("config/delayOffset.json") && kinds.at("config/delayOffset.json") == StoreFileKind::Config);

        const auto page = reader->readRecords({.fromOffset = 0, .limit = 1000});
        QVERIFY(page.atEnd);
        const auto messages = allMessages(*reader);
        QCOMPARE(messages.size(), static_cast<size_t>(records));
        for (size_t i = 0; i < messages.size(); ++i) {
            QCOMPARE(q(messages[i].message.topic), QStringLiteral("abc"));
            QCOMPARE(messages[i].message.queueOffset, static_cast<int64_t>(i));
            QVERIFY(messages[i].crcOk && messages[i].positionOk);
        }
        if (records > 0) {
            QCOMPARE(kinds.at("commitlog/00000000000000000000"), StoreFileKind::CommitLog);
            QCOMPARE(reader->commitLogFiles().fileSize, kLogFileSize); // inferred from the file
            QCOMPARE(page.records.back().kind, RecordKind::Blank);
            QCOMPARE(page.records.back().offset, int64_t{8084});
            QCOMPARE(page.records.back().size, int32_t{108});
            QCOMPARE(reader->commitLogDataEnd(), int64_t{8084});
        }

        const auto checkpoint = reader->readCheckpoint();
        QCOMPARE(checkpoint.has_value(), fixture != QStringLiteral("fork-2021"));
        if (fixture == QStringLiteral("study-2019")) {
            QCOMPARE(checkpoint->physicMsgTimestamp, int64_t{0x0000016944217872});
            QCOMPARE(checkpoint->logicsMsgTimestamp, int64_t{0x0000016944217872});
            QCOMPARE(checkpoint->fileSize, int64_t{4096});
        }
        QCOMPARE(reader->readAbort().present, abort);

        const auto lock = reader->probeLock();
        QVERIFY(lock.present && !lock.live);
        QCOMPARE(q(lock.content), QStringLiteral("lock"));

        const auto delay = reader->configFile("delayOffset.json");
        QVERIFY(delay && delay->parsed && delay->error.empty());
        QVERIFY(dynamic_cast<store::DelayOffsetManager *>(delay->manager.get()));
        if (fixture != QStringLiteral("fork-2021")) {
            const auto configs = reader->configFiles();
            QCOMPARE(configs.size(), size_t{6}); // five files and topics.json.bak
            for (const auto &config : configs)
                QVERIFY2(config.parsed && config.manager, config.name.c_str());
            const auto topics = reader->configFile("topics.json");
            auto *topicManager = dynamic_cast<store::TopicConfigManager *>(topics->manager.get());
            QVERIFY(topicManager);
            QCOMPARE(topicManager->selectTopicConfig("TopicTest")->readQueueNums, 4);
            QVERIFY(topics->text.starts_with("{\n\t\"dataVersion\""));
            const auto offsets = reader->configFile("consumerOffset.json");
            auto *offsetManager = dynamic_cast<store::ConsumerOffsetManager *>(offsets->manager.get());
            QVERIFY(offsetManager);
            QCOMPARE(offsetManager->queryOffset("please_rename_unique_group_name_4", "TopicTest", 0), int64_t{250});
        }

        const auto report = verifyStore(*reader);
        QVERIFY2(report.healthy(), listFaults(report).c_str());
        QCOMPARE(report.records, static_cast<uint64_t>(records));
        QCOMPARE(report.abortPresent, abort);
        QCOMPARE(fingerprint(root), before); // nothing written, created or touched
    }

    void readsAStoreWrittenByMessageStore()
    {
        const auto before = fingerprint(base_);
        auto reader = openReader(base_);
        QVERIFY(reader);
        const auto messages = allMessages(*reader);
        QCOMPARE(messages.size(), static_cast<size_t>(kMessages));
        for (int i = 0; i < kMessages; ++i) {
            QCOMPARE(messages[i].offset, puts_[i].wroteOffset);
            QCOMPARE(messages[i].message.queueOffset, puts_[i].queueOffset);
            QCOMPARE(q(messages[i].message.bodyText()), q("message-" + std::to_string(i) + "-payload"));
        }
        QCOMPARE(reader->commitLogDataEnd(), puts_.back().wroteOffset + puts_.back().wroteBytes);

        // Consume queues: T/0, T/1 and U/0, each spread over several 1000-byte files.
        const auto queues = reader->consumeQueues();
        QCOMPARE(queues.size(), size_t{3});
        QCOMPARE(reader->consumeQueueFileSize(), int64_t{1000});
        QCOMPARE(q(queues[0].topic), QStringLiteral("T"));
        QCOMPARE(queues[0].maxOffset, int64_t{100}); // i % 3 != 0 and i even
        QVERIFY(queues[0].files.size() > 1);
        QCOMPARE(queues[2].maxOffset, int64_t{100});
        const auto entries = reader->readConsumeQueue("T", 1, 0, 1000);
        QVERIFY(entries.atEnd);
        QCOMPARE(entries.entries.size(), size_t{100});
        QCOMPARE(entries.entries[70].entry.commitLogOffset, reader->readRecords({.fromOffset = 0, .limit = 1000,
                                                                                   .topic = "T", .key = "k211"})
                                                                .records.at(0)
                                                                .offset);
        QCOMPARE(entries.entries[70].file, std::string("00000000000000001000"));
        QCOMPARE(entries.entries[70].filePosition, int64_t{400});

        // The index: its layout inferred from the size, a key's chain walked.
        const auto indexFiles = reader->indexFiles();
        QCOMPARE(indexFiles.size(), size_t{1});
        QCOMPARE(indexFiles[0].hashSlotNum, kIndexSlots);
        QCOMPARE(indexFiles[0].header.indexCount, 2 * kMessages + 1); // a key and a tag entry each
        const auto lookups = reader->lookupIndexKey("T", "k7");
        QCOMPARE(lookups.size(), size_t{1});
        const auto &chain = lookups[0].chain;
        const auto found = std::find_if(chain.begin(), chain.end(), [](const IndexChainStep &s) {
            return s.recordHasKey.value_or(false);
        });
        QVERIFY(found != chain.end());
        QVERIFY(found->hashMatches);
        QCOMPARE(found->phyOffset, puts_[7].wroteOffset);
        QCOMPARE(q(lookups[0].stopReason), QStringLiteral("end of chain"));
        const auto otherTopic = reader->lookupIndexKey("T", "k9"); // k9 went to topic U
        for (const auto &step : otherTopic.at(0).chain)
            QVERIFY(!step.recordHasKey.value_or(false));
        const auto occupancy = reader->indexSlotOccupancy(indexFiles[0].file.name, 10);
        QCOMPARE(std::accumulate(occupancy.begin(), occupancy.end(), int64_t{0}),
                 int64_t{indexFiles[0].header.hashSlotCount});
        QCOMPARE(reader->readIndexEntries(indexFiles[0].file.name, 1, 5).size(), size_t{5});

        const auto report = verifyStore(*reader);
        QVERIFY2(report.healthy(), listFaults(report).c_str());
        QCOMPARE(report.consumeQueueEntries, static_cast<uint64_t>(kMessages));
        QCOMPARE(report.indexEntries, static_cast<uint64_t>(2 * kMessages));
        QVERIFY(report.normalRecovery.cleanEnd && report.normalRecovery.recordsLost == 0);
        QCOMPARE(report.normalRecovery.processOffset, reader->commitLogDataEnd());
        QCOMPARE(fingerprint(base_), before);
    }

    void pagesFiltersAndTimes()
    {
        auto reader = openReader(base_);
        QVERIFY(reader);
        auto page = reader->readRecords({.fromOffset = 0, .limit = 10});
        QCOMPARE(page.records.size(), size_t{10});
        QCOMPARE(page.nextOffset, puts_[10].wroteOffset);
        page = reader->readRecords({.fromOffset = page.nextOffset, .limit = 10, .includeMarkers = false});
        QCOMPARE(page.records.front().offset, puts_[10].wroteOffset);

        QCOMPARE(allMessages(*reader, {.topic = "U"}).size(), size_t{100});
        QCOMPARE(allMessages(*reader, {.tag = "TagB"}).size(), size_t{60});
        QCOMPARE(allMessages(*reader, {.tag = "TagA || TagB"}).size(), size_t{kMessages});
        const auto byKey = allMessages(*reader, {.key = "k42"});
        QCOMPARE(byKey.size(), size_t{1});
        QCOMPARE(byKey[0].offset, puts_[42].wroteOffset);
        // A bounded scan stops early and says where to resume.
        page = reader->readRecords({.fromOffset = 0, .limit = 1000, .key = "k299", .maxScanBytes = 4096});
        QVERIFY(page.records.empty() && !page.atEnd && page.nextOffset >= 4096);

        const int64_t time = puts_[150].storeTimestamp;
        const int64_t at = reader->offsetByTime(time);
        QVERIFY(at <= puts_[150].wroteOffset);
        QVERIFY(reader->readRecordAt(at)->message.storeTimestamp >= time);
        QCOMPARE(reader->offsetByTime(time + 3600000), reader->commitLogDataEnd());
        QCOMPARE(reader->readCommitLogBytes(puts_[3].wroteOffset, 4).size(), size_t{4});
    }

    // The page before an offset: found through the consume queues' entries, or (a Java store
    // without queues, damaged entries) by scanning from a file's start; the same records either way.
    void pageBeforeAnOffset()
    {
        QTemporaryDir dir;
        const std::string root = copyBase(dir);
        auto reader = openReader(root);
        const auto all = allMessages(*reader);
        QCOMPARE(all.size(), size_t{kMessages});
        const int64_t end = reader->commitLogDataEnd();
        QCOMPARE(end, puts_.back().wroteOffset + puts_.back().wroteBytes);
        const auto expectPage = [&](const RecordPage &page, size_t endIndex, size_t count) {
            QCOMPARE(page.records.size(), count);
            for (size_t i = 0; i < count; ++i)
                QCOMPARE(page.records[i].offset, all[endIndex - count + i].offset);
        };
        expectPage(reader->readRecordsBefore(end, 10), all.size(), 10);
        expectPage(reader->readRecordsBefore(puts_[150].wroteOffset, 20), 150, 20);
        const auto everything = reader->readRecordsBefore(end, 1000);
        expectPage(everything, all.size(), all.size());
        QVERIFY(everything.atEnd);
        QVERIFY(!reader->readRecordsBefore(end, 10).atEnd);
        QVERIFY(reader->readRecordsBefore(puts_[0].wroteOffset, 10).records.empty());

        // Queue entries pointing nowhere are not trusted: the scan starts at a file's start.
        for (const auto &queue : reader->consumeQueues())
            for (const auto &file : queue.files)
                test::writeFile(file.path, std::vector<uint8_t>(static_cast<size_t>(file.size), 0x11));
        auto damaged = openReader(root);
        QCOMPARE(damaged->commitLogDataEnd(), end);
        expectPage(damaged->readRecordsBefore(end, 10), all.size(), 10);
        expectPage(damaged->readRecordsBefore(puts_[150].wroteOffset, 20), 150, 20);

        auto java = openReader(test::fixturesDir() + "/study-2019");
        const auto javaAll = allMessages(*java);
        const auto javaLast = java->readRecordsBefore(java->commitLogDataEnd(), 5);
        QCOMPARE(javaLast.records.size(), size_t{5});
        QCOMPARE(javaLast.records.back().offset, javaAll.back().offset);
    }

    void flippedBodyByteIsACrcFault()
    {
        QTemporaryDir dir;
        const std::string root = copyBase(dir);
        const auto &victim = puts_[kMessages - 5]; // in the last file: normal recovery sees it
        const std::string name = offsetToFileName(victim.wroteOffset / kLogFileSize * kLogFileSize);
        const int64_t position = victim.wroteOffset % kLogFileSize;
        auto bytes = test::readFile(root + "/commitlog/" + name);
        bytes[position + kBodyAt] ^= 0x01;
        test::writeFile(root + "/commitlog/" + name, bytes);

        auto reader = openReader(root);
        QVERIFY(!reader->readRecordAt(victim.wroteOffset)->crcOk);
        const auto report = verifyStore(*reader);
        QVERIFY2(hasFault(report, "record-crc", "commitlog/" + name, position), listFaults(report).c_str());
        QVERIFY2(hasFault(report, "recovery-normal", "commitlog/" + name, position), listFaults(report).c_str());
        QCOMPARE(report.normalRecovery.processOffset, victim.wroteOffset);
        QVERIFY(!report.normalRecovery.cleanEnd);
        QCOMPARE(report.normalRecovery.recordsLost, uint64_t{4}); // the valid ones after it
        QCOMPARE(report.normalRecovery.truncatedBytes,
                 report.normalRecovery.previousEnd - victim.wroteOffset);
    }

    // The data end stops at the first record that does not decode, as a scan from the file's
    // start finds it, whether or not the consume queues name records after it.
    void dataEndStopsAtABrokenRecordDespiteTheQueues()
    {
        QTemporaryDir dir;
        const std::string root = copyBase(dir);
        const auto &victim = puts_[kMessages - 5]; // in the last file, dispatched records follow
        const std::string name = offsetToFileName(victim.wroteOffset / kLogFileSize * kLogFileSize);
        patch(root + "/commitlog/" + name, victim.wroteOffset % kLogFileSize + 4, {0xDE, 0xAD, 0xBE, 0xEF});
        auto reader = openReader(root);
        QCOMPARE(reader->commitLogDataEnd(), victim.wroteOffset);
        QCOMPARE(reader->offsetByTime(puts_.back().storeTimestamp + 3600000), victim.wroteOffset);
    }

    // Found by fuzz_checkpoint: an empty checkpoint file (a store copied mid-creation) reads
    // as zeros with its size, not as undefined behaviour (memcpy from the empty mapping's null).
    void emptyCheckpointReadsAsZeros()
    {
        QTemporaryDir dir;
        const std::string root = copyBase(dir);
        test::writeFile(root + "/checkpoint", {});
        auto reader = openReader(root);
        const auto checkpoint = reader->readCheckpoint();
        QVERIFY(checkpoint);
        QCOMPARE(checkpoint->fileSize, int64_t{0});
        QCOMPARE(checkpoint->physicMsgTimestamp, int64_t{0});
        QCOMPARE(checkpoint->confirmPhyOffset, int64_t{0});
    }

    void brokenMagicIsSkippedToTheNextRecord()
    {
        QTemporaryDir dir;
        const std::string root = copyBase(dir);
        const auto &victim = puts_[100];
        const std::string name = offsetToFileName(victim.wroteOffset / kLogFileSize * kLogFileSize);
        const int64_t position = victim.wroteOffset % kLogFileSize;
        patch(root + "/commitlog/" + name, position + 4, {0xDE, 0xAD, 0xBE, 0xEF});
        auto reader = openReader(root);
        const auto page = reader->readRecords({.fromOffset = puts_[99].wroteOffset, .limit = 3});
        QCOMPARE(page.records.at(1).kind, RecordKind::Invalid);
        QCOMPARE(page.records.at(1).offset, victim.wroteOffset);
        QCOMPARE(page.records.at(1).size, victim.wroteBytes); // up to where records start again
        QVERIFY2(page.records.at(1).error.find("magic") != std::string::npos, page.records.at(1).error.c_str());
        QCOMPARE(page.records.at(2).offset, puts_[101].wroteOffset);
        QCOMPARE(allMessages(*reader).size(), size_t{kMessages - 1});
        const auto report = verifyStore(*reader);
        QVERIFY2(hasFault(report, "record-magic", "commitlog/" + name, position), listFaults(report).c_str());
    }

    void cutFileIsReported()
    {
        QTemporaryDir dir;
        const std::string root = copyBase(dir);
        const std::string path = root + "/commitlog/00000000000000008192";
        fs::resize_file(path, 5000);
        auto reader = openReader(root);
        const auto report = verifyStore(*reader);
        QVERIFY2(hasFault(report, "file-size", "commitlog/00000000000000008192", 5000), listFaults(report).c_str());
        // The record crossing the cut.
        const auto crossing = std::find_if(puts_.begin(), puts_.end(), [](const PutMessageResult &p) {
            return p.wroteOffset < 8192 + 5000 && p.wroteOffset + p.wroteBytes > 8192 + 5000;
        });
        QVERIFY(crossing != puts_.end());
        QVERIFY2(hasFault(report, "record-length", "commitlog/00000000000000008192", crossing->wroteOffset - 8192),
                 listFaults(report).c_str());
        QVERIFY(!report.normalRecovery.wouldOpen);
        QVERIFY(report.normalRecovery.openError.find("00000000000000008192") != std::string::npos);
        // The reader still shows everything around the damage.
        QVERIFY(allMessages(*reader).size() < static_cast<size_t>(kMessages));
        QVERIFY(allMessages(*reader).size() > static_cast<size_t>(kMessages) - 40);
    }

    void misdirectedConsumeQueueEntries()
    {
        QTemporaryDir dir;
        const std::string root = copyBase(dir);
        const std::string file = "consumequeue/T/0/00000000000000000000";
        auto reader = openReader(root);
        const auto entries = reader->readConsumeQueue("T", 0, 0, 10).entries;
        patch(root + "/" + file, 3 * 20, int64Bytes(entries[5].entry.commitLogOffset)); // another record
        patch(root + "/" + file, 4 * 20, int64Bytes(puts_.back().wroteOffset + 100000)); // past the end
        patch(root + "/" + file, 7 * 20, std::vector<uint8_t>(20, 0)); // a hole recovery would stop at
        const auto report = verify(root);
        QVERIFY2(hasFault(report, "cq-wrong-record", file, 60), listFaults(report).c_str());
        QVERIFY2(hasFault(report, "cq-past-end", file, 80), listFaults(report).c_str());
        QVERIFY2(hasFault(report, "cq-invalid-entry", file, 140), listFaults(report).c_str());
        QCOMPARE(report.faults.size(), size_t{3});
        const auto shown = reader->readConsumeQueue("T", 0, 0, 10).entries; // the hole, and what follows it
        QCOMPARE(shown.size(), size_t{10});
        QVERIFY(!shown[7].valid && shown[8].valid);
    }

    void garbageConfig()
    {
        QTemporaryDir dir;
        const std::string root = copyBase(dir);
        fs::create_directory(root + "/config");
        fs::copy_file(test::fixturesDir() + "/study-2019/config/subscriptionGroup.json",
                      root + "/config/subscriptionGroup.json");
        const std::string garbage = "{\n\t\"dataVersion\":{\n\t\t\"counter\":@3\n\t}\n}";
        test::writeFile(root + "/config/topics.json", std::vector<uint8_t>(garbage.begin(), garbage.end()));
        auto reader = openReader(root);
        const auto topics = reader->configFile("topics.json");
        QVERIFY(topics && !topics->parsed && !topics->manager);
        QCOMPARE(topics->text, garbage);
        const auto report = verifyStore(*reader);
        QVERIFY2(hasFault(report, "config-parse", "config/topics.json", static_cast<int64_t>(garbage.find('@'))),
                 listFaults(report).c_str());
        QCOMPARE(report.faults.size(), size_t{1}); // the copied Java file is fine
        QVERIFY(reader->configFile("subscriptionGroup.json")->parsed);
    }

    void indexEntryAtTheWrongRecord()
    {
        QTemporaryDir dir;
        const std::string root = copyBase(dir);
        auto reader = openReader(root);
        const std::string name = reader->indexFiles().at(0).file.name;
        // Entry 9 indexes message 4's key ("k4"; each message has a key and a tag entry); make it
        // point at message 6's record.
        const auto entry = reader->readIndexEntries(name, 9, 1).at(0);
        QCOMPARE(entry.phyOffset, puts_[4].wroteOffset);
        patch(root + "/index/" + name, entry.filePosition + 4, int64Bytes(puts_[6].wroteOffset));
        const auto report = verifyStore(*reader);
        QVERIFY2(hasFault(report, "index-hash-mismatch", "index/" + name, entry.filePosition),
                 listFaults(report).c_str());
        QCOMPARE(report.faults.size(), size_t{1});
        const auto lookup = reader->lookupIndexKey("T", "k4").at(0);
        QVERIFY(std::any_of(lookup.chain.begin(), lookup.chain.end(), [&](const IndexChainStep &s) {
            return s.entry == 9 && s.hashMatches && s.recordHasKey == false;
        }));
    }

    void zeroedBytesLoseTheRecordsAfterThem()
    {
        QTemporaryDir dir;
        const std::string root = copyBase(dir);
        const auto &first = puts_[kMessages - 10];
        const std::string name = offsetToFileName(first.wroteOffset / kLogFileSize * kLogFileSize);
        const int64_t position = first.wroteOffset % kLogFileSize;
        const auto &last = puts_[kMessages - 9]; // zero exactly one record
        QCOMPARE(last.wroteOffset / kLogFileSize, first.wroteOffset / kLogFileSize);
        patch(root + "/commitlog/" + name, position, std::vector<uint8_t>(static_cast<size_t>(first.wroteBytes), 0));
        const auto report = verify(root);
        QVERIFY2(hasFault(report, "commitlog-zero-gap", "commitlog/" + name, position), listFaults(report).c_str());
        QVERIFY2(hasFault(report, "recovery-normal", "commitlog/" + name, position), listFaults(report).c_str());
        QVERIFY(report.normalRecovery.cleanEnd); // zeros look like the end to recovery...
        QCOMPARE(report.normalRecovery.recordsLost, uint64_t{9}); // ...which drops what follows
    }

    void strayMissingAndUndecodedFiles()
    {
        QTemporaryDir dir;
        const std::string root = copyBase(dir);
        test::writeFile(root + "/commitlog/notes.txt", {'h', 'i'});
        fs::remove(root + "/commitlog/00000000000000016384");
        test::writeFile(root + "/timerwheel", std::vector<uint8_t>(64, 0));
        auto reader = openReader(root);
        const auto files = reader->listFiles();
        const auto timer = std::find_if(files.begin(), files.end(),
                                        [](const StoreFileInfo &f) { return f.relativePath == "timerwheel"; });
        QVERIFY(timer != files.end());
        QCOMPARE(timer->kind, StoreFileKind::Other);
        QCOMPARE(timer->size, int64_t{64});
        const auto report = verifyStore(*reader);
        QVERIFY2(hasFault(report, "file-name", "commitlog/notes.txt", 0), listFaults(report).c_str());
        QVERIFY2(hasFault(report, "file-gap", "commitlog/00000000000000024576", 0), listFaults(report).c_str());
        QVERIFY2(std::none_of(report.faults.begin(), report.faults.end(),
                              [](const StoreFault &f) { return f.kind == "commitlog-no-end-record"; }),
                 listFaults(report).c_str()); // every remaining file still ends with its end record
        // Queue entries of the missing file's records now point where no file is.
        QVERIFY(std::any_of(report.faults.begin(), report.faults.end(),
                            [](const StoreFault &f) { return f.kind == "cq-bad-target"; }));
    }

    void probesTheLockOfALiveStore()
    {
        QTemporaryDir dir;
        const auto config = storeConfig(dir.path());
        auto store = test::openStore(config);
        QVERIFY(store);
        auto reader = openReader(config.rootDir());
        auto lock = reader->probeLock();
        QVERIFY2(lock.live, lock.error.c_str()); // OFD locks conflict within one process too
        QCOMPARE(q(lock.content), QStringLiteral("lock"));
        QVERIFY(verifyStore(*reader).live);
        store.reset();
        lock = reader->probeLock();
        QVERIFY(lock.present && !lock.live);
        QVERIFY(test::openStore(config)); // probing took nothing
    }

    void followsAGrowingStore()
    {
        QTemporaryDir dir;
        const auto config = storeConfig(dir.path());
        auto store = test::openStore(config);
        QVERIFY(store);
        for (int i = 0; i < 5; ++i)
            store->putMessage(numbered(i));
        auto reader = openReader(config.rootDir());
        QCOMPARE(allMessages(*reader).size(), size_t{5});
        const size_t filesBefore = reader->commitLogFiles().files.size();

        PutMessageResult lastPut;
        for (int i = 5; i < 200; ++i)
            lastPut = store->putMessage(numbered(i));
        const auto messages = allMessages(*reader);
        QCOMPARE(messages.size(), size_t{200});
        QCOMPARE(messages.back().offset, lastPut.wroteOffset);
        QCOMPARE(reader->commitLogDataEnd(), lastPut.wroteOffset + lastPut.wroteBytes);
        QVERIFY(reader->commitLogFiles().files.size() > filesBefore);
        store->waitForDispatch();
        QCOMPARE(reader->consumeQueue("U", 0)->maxOffset, int64_t{67});
        QCOMPARE(reader->readConsumeQueue("U", 0, 60, 100).entries.size(), size_t{7});

        // While puts run: every view is a consistent prefix (a torn tail shows as the end).
        std::atomic<bool> done{false};
        std::thread writer([&] {
            for (int i = 200; i < 500; ++i)
                store->putMessage(numbered(i));
            done = true;
        });
        size_t seen = 200;
        bool monotonic = true; // checked after the join: a QVERIFY here would leave the thread running
        while (!done) {
            const size_t now = allMessages(*reader).size();
            monotonic = monotonic && now >= seen;
            seen = now;
            verifyStore(*reader);
        }
        writer.join();
        QVERIFY(monotonic);
        QCOMPARE(allMessages(*reader).size(), size_t{500});
    }
};

QObject *createStoreReaderTest() { return new StoreReaderTest; }

#include "tst_store_reader.moc"
