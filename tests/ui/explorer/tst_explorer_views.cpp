// The store explorer's index, checkpoint, config and health views, driven offscreen over real
// stores: copies of the Java-written fixtures, a store written by MessageStore here, a damaged
// copy of it and a store large enough for a verify to be cancelled while it runs. Every store's
// files are fingerprinted (content CRC, size, mtime, mode) before and compared after: opening,
// browsing and verifying change nothing.

#include "explorer_views_test_util.h"
#include "ui_test_util.h"

#include "ui/explorer/checkpoint_view.h"
#include "ui/explorer/config_files_view.h"
#include "ui/explorer/health_report_view.h"
#include "ui/explorer/index_entry_model.h"
#include "ui/explorer/index_file_view.h"
#include "ui/explorer/index_occupancy_chart.h"
#include "ui/widgets/table_text.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeView>

#include <filesystem>

using namespace mqdesk;
using namespace mqdesk::test;
using ui::StoreLocation;
namespace fs = std::filesystem;

class ExplorerViewsTest : public QObject
{
    Q_OBJECT

    QTemporaryDir dir_;
    std::string written_; // the store MessageStore writes in initTestCase

    std::string largeStore() { return writeLargeStore(dir_.path().toStdString() + "/large"); }

    std::string copyWritten(const QString &name)
    {
        const std::string root = dir_.path().toStdString() + "/" + name.toStdString();
        fs::copy(written_, root, fs::copy_options::recursive);
        return root;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        written_ = dir_.path().toStdString() + "/written";
        auto store = test::openStore(test::storeConfig(q(written_)));
        QVERIFY(store);
        for (int i = 0; i < test::kMessages; ++i)
            QCOMPARE(store->putMessage(test::numbered(i)).status, store::PutMessageStatus::PutOk);
        store.reset(); // a clean shutdown: index, queues and checkpoint flushed, no abort file
        writeStoreConfig(written_);
    }

    void javaWrittenStores_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::newRow("fork-2021") << QStringLiteral("fork-2021");
        QTest::newRow("study-2019") << QStringLiteral("study-2019");
        QTest::newRow("study-b") << QStringLiteral("study-b");
    }

    void javaWrittenStores()
    {
        QFETCH(QString, fixture);
        const std::string root = dir_.path().toStdString() + "/java-" + fixture.toStdString();
        test::copyFixture(fixture.toStdString(), root);
        const auto before = test::fingerprint(root);
        const auto reader = openShared(root);
        QVERIFY(reader);

        ui::CheckpointView checkpoint(reader);
        checkpoint.resize(1000, 560);
        checkpoint.show();
        QTRY_VERIFY_WITH_TIMEOUT(!checkpoint.isLoading(), kWait);
        const auto values = reader->readCheckpoint();
        if (!fs::exists(root + "/checkpoint")) {
            QVERIFY(!values);
            QVERIFY2(checkpoint.bannerText().contains(QStringLiteral("checkpoint")), qPrintable(checkpoint.bannerText()));
            QCOMPARE(checkpoint.model()->rowCount(), 0);
        } else {
            QVERIFY(values);
            const auto longs = checkpointLongs(root);
            const auto *model = checkpoint.model();
            const int rows[] = {ui::CheckpointView::PhysicRow, ui::CheckpointView::LogicsRow,
                                ui::CheckpointView::IndexRow, ui::CheckpointView::MasterFlushedRow,
                                ui::CheckpointView::ConfirmPhyRow};
            for (int i = 0; i < 5; ++i)
                QCOMPARE(cell(model, rows[i], ui::CheckpointView::ValueColumn), QString::number(longs[i]));
            QCOMPARE(longs[0], values->physicMsgTimestamp);
            QCOMPARE(longs[1], values->logicsMsgTimestamp);
            QCOMPARE(cell(model, ui::CheckpointView::PhysicRow, ui::CheckpointView::LocalTimeColumn),
                     timeText(longs[0]));
            QCOMPARE(cell(model, ui::CheckpointView::LogicsRow, ui::CheckpointView::LocalTimeColumn),
                     timeText(longs[1]));
            QCOMPARE(cell(model, ui::CheckpointView::MinTimestampRow, ui::CheckpointView::ValueColumn),
                     QString::number(std::max<int64_t>(0, std::min(longs[0], longs[1]) - 3000)));
        }
        const bool abort = fs::exists(root + "/abort");
        QCOMPARE(checkpoint.abortText().contains(QStringLiteral("present")), abort);
        QVERIFY2(checkpoint.lockText().contains(QStringLiteral("not held")), qPrintable(checkpoint.lockText()));

        ui::ConfigFilesView config(reader);
        config.resize(1000, 560);
        config.show();
        QTRY_VERIFY_WITH_TIMEOUT(!config.isLoading(), kWait);
        QCOMPARE(configNamesShown(config), configNamesOnDisk(root));
        if (fs::exists(root + "/config/topics.json"))
            checkJavaTopics(config, root);
        if (fs::exists(root + "/config/consumerOffset.json"))
            checkJavaOffsets(config, root);
        if (fs::exists(root + "/config/subscriptionGroup.json"))
            checkJavaGroups(config, root);
        if (fs::exists(root + "/config/consumerFilter.json")) {
            QVERIFY(config.selectFile(QStringLiteral("consumerFilter.json"))); // no table of its own: a tree
            QVERIFY(config.contentModel());
            QCOMPARE(config.contentTree()->model(), config.contentModel());
            QCOMPARE(cell(config.contentModel(), 0, 2), QStringLiteral("object"));
        }
        QVERIFY(config.selectFile(QStringLiteral("delayOffset.json")));
        QCOMPARE(config.contentModel()->rowCount(), 0); // {"offsetTable":{}} in every fixture
        QCOMPARE(config.contentModel()->headerData(0, Qt::Horizontal).toString(), QStringLiteral("Delay level"));

        ui::IndexFileView index(reader);
        QTRY_VERIFY_WITH_TIMEOUT(!index.isLoading(), kWait);
        QCOMPARE(index.fileModel()->rowCount(), 0); // these brokers' index files are not included
        QVERIFY(index.bannerText().contains(QStringLiteral("No index files")));

        ui::HealthReportView health(reader);
        QSignalSpy finished(&health, &ui::HealthReportView::verifyFinished);
        health.verify();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kWait);
        QCOMPARE(finished.first().first().toBool(), false);
        QVERIFY2(health.summaryText().contains(QStringLiteral("Healthy")), qPrintable(health.summaryText()));
        QCOMPARE(health.faultModel()->rowCount(), 0);

        if (fixture == QStringLiteral("study-2019")) {
            test::saveScreenshot(checkpoint, QStringLiteral("explorer-checkpoint"));
            QVERIFY(config.selectFile(QStringLiteral("topics.json")));
            test::saveScreenshot(config, QStringLiteral("explorer-config"));
        }
        QCOMPARE(test::fingerprint(root), before);
    }

    void storeWrittenByMessageStore()
    {
        const auto before = test::fingerprint(written_);
        const auto reader = openShared(written_);
        QVERIFY(reader);
        ui::IndexFileView index(reader);
        QSignalSpy requested(&index, &ui::IndexFileView::locationRequested);
        QSignalSpy occupancy(&index, &ui::IndexFileView::occupancyShown);
        index.resize(1100, 700);
        index.show();
        QTRY_VERIFY_WITH_TIMEOUT(!index.isLoading(), kWait);
        const auto summaries = reader->indexFiles();
        QVERIFY(!summaries.empty());
        QCOMPARE(index.fileModel()->rowCount(), static_cast<int>(summaries.size()));
        const store::IndexFileSummary &newest = summaries.back();
        QCOMPARE(index.selectedFile(), q(newest.file.name));
        const QString header = index.headerText();
        QVERIFY2(header.contains(QString::number(newest.header.beginTimestamp)), qPrintable(header));
        QVERIFY(header.contains(timeText(newest.header.endTimestamp)));
        QVERIFY(header.contains(QStringLiteral("Slot capacity (inferred): %1").arg(QLocale().toString(test::kIndexSlots))));

        // The chart counts the slots this test counts in the file itself.
        QTRY_VERIFY_WITH_TIMEOUT(occupancy.count() >= 1, kWait);
        const auto bytes = test::readFile(newest.file.path);
        int64_t occupied = 0;
        for (int slot = 0; slot < newest.hashSlotNum; ++slot)
            occupied += common::readInt32(bytes.data() + 40 + slot * 4) != 0 ? 1 : 0;
        QCOMPARE(index.occupancyChart()->occupiedSlots(), occupied);
        QVERIFY(index.occupancyChart()->bucketCount() >= 100 && index.occupancyChart()->bucketCount() <= 200);
        QVERIFY(index.occupancyChart()->hoverText(0).contains(QStringLiteral("occupied")));

        // Entries read lazily; entry 1 as the reader and the file have it.
        index.tabs()->setCurrentIndex(ui::IndexFileView::EntriesTab);
        QTRY_VERIFY_WITH_TIMEOUT(index.entryModel()->rowCount() > 0, kWait);
        const auto first = reader->readIndexEntries(newest.file.name, 1, 1).front();
        QCOMPARE(cell(index.entryModel(), 0, ui::IndexEntryModel::PhyOffsetColumn), QString::number(first.phyOffset));
        const int64_t entriesAt = 40 + int64_t{newest.hashSlotNum} * 4; // entry n at entriesAt + n × 20
        QCOMPARE(first.filePosition, entriesAt + 20);
        QCOMPARE(common::readInt32(bytes.data() + entriesAt + 20), first.keyHash);
        QCOMPARE(common::readInt64(bytes.data() + entriesAt + 24), first.phyOffset);
        doubleClick(index.entryTable(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(requested.count(), 1, kWait);
        const auto log = reader->commitLogSnapshot();
        const auto *holder = log.fileFor(first.phyOffset);
        QCOMPARE(requested.takeFirst().first().value<StoreLocation>(),
                 (StoreLocation{QStringLiteral("commitlog/") + q(holder->name()), first.phyOffset - holder->startOffset()}));
        // showLocation of an entry's bytes selects that entry.
        QVERIFY(index.showLocation({QStringLiteral("index/") + q(newest.file.name), entriesAt + 20 * 2}));
        QTRY_COMPARE_WITH_TIMEOUT(index.entryTable()->currentIndex().row(), 1, kWait);

        // A key lookup walks to the record that carries it.
        const auto records = reader->readRecords({.limit = 10, .topic = "T", .key = "k7", .includeMarkers = false});
        QCOMPARE(records.records.size(), size_t{1});
        const int64_t k7 = records.records.front().offset;
        QSignalSpy lookedUp(&index, &ui::IndexFileView::lookupFinished);
        index.lookUp(QStringLiteral("T"), QStringLiteral("k7"));
        QTRY_COMPARE_WITH_TIMEOUT(lookedUp.count(), 1, kWait);
        const auto *chain = index.chainModel();
        int hit = -1;
        for (int row = 0; row < chain->rowCount(); ++row)
            if (cell(chain, row, ui::IndexFileView::HasKeyColumn) == QStringLiteral("yes"))
                hit = row;
        QVERIFY2(hit >= 0, qPrintable(index.lookupSummary()));
        QCOMPARE(cell(chain, hit, ui::IndexFileView::ChainPhyOffsetColumn), QString::number(k7));
        QCOMPARE(cell(chain, hit, ui::IndexFileView::HashMatchColumn), QStringLiteral("yes"));
        QVERIFY(findRow(chain, ui::IndexFileView::StepColumn, QStringLiteral("stop")) > hit);
        QVERIFY(index.lookupSummary().contains(QStringLiteral("T#k7")));
        doubleClick(index.chainTable(), hit);
        QTRY_COMPARE_WITH_TIMEOUT(requested.count(), 1, kWait);
        const auto *k7File = log.fileFor(k7);
        QCOMPARE(requested.takeFirst().first().value<StoreLocation>(),
                 (StoreLocation{QStringLiteral("commitlog/") + q(k7File->name()), k7 - k7File->startOffset()}));
        test::saveScreenshot(index, QStringLiteral("explorer-index"));
        index.tabs()->setCurrentIndex(ui::IndexFileView::OccupancyTab);
        test::saveScreenshot(index, QStringLiteral("explorer-index-occupancy"));

        checkWrittenConfig(*reader);
        checkWrittenCheckpoint(reader);
        QCOMPARE(test::fingerprint(written_), before);
    }

private:
    void checkWrittenConfig(const store::StoreReader &reader)
    {
        auto shared = std::shared_ptr<const store::StoreReader>(&reader, [](const store::StoreReader *) {});
        ui::ConfigFilesView config(shared);
        QTRY_VERIFY_WITH_TIMEOUT(!config.isLoading(), kWait);
        QVERIFY(config.selectFile(QStringLiteral("consumerOffset.json")));
        const QStandardItemModel *model = config.contentModel();
        QVERIFY(model);
        QCOMPARE(model->rowCount(), 3);
        for (const auto &[queue, committed] : {std::pair{0, kCommittedT0}, std::pair{1, kCommittedT1}}) {
            const int row = findRow(model, 2, QString::number(queue));
            QVERIFY(row >= 0);
            const int64_t max = reader.consumeQueue("T", queue)->maxOffset;
            QVERIFY(max > committed);
            QCOMPARE(cell(model, row, 0), QStringLiteral("G"));
            QCOMPARE(cell(model, row, 3), QString::number(committed));
            QCOMPARE(cell(model, row, 4), QString::number(max));
            QCOMPARE(cell(model, row, 5), QString::number(max - committed));
        }
        const int missing = findRow(model, 2, QStringLiteral("5"));
        QCOMPARE(cell(model, missing, 4), QStringLiteral("no consume queue"));
        QVERIFY(config.selectFile(QStringLiteral("broker.properties")));
        QCOMPARE(cell(config.contentModel(), 0, 0), QStringLiteral("brokerName"));
        QCOMPARE(cell(config.contentModel(), 0, 1), QStringLiteral("b-1"));
    }

    void checkWrittenCheckpoint(const std::shared_ptr<const store::StoreReader> &reader)
    {
        ui::CheckpointView checkpoint(reader);
        QSignalSpy requested(&checkpoint, &ui::CheckpointView::locationRequested);
        checkpoint.resize(1000, 560);
        checkpoint.show();
        QTRY_VERIFY_WITH_TIMEOUT(!checkpoint.isLoading(), kWait);
        const auto longs = checkpointLongs(reader->rootDir());
        QVERIFY(longs[0] > 0);
        QCOMPARE(cell(checkpoint.model(), ui::CheckpointView::IndexRow, ui::CheckpointView::ValueColumn),
                 QString::number(longs[2]));
        QCOMPARE(cell(checkpoint.model(), ui::CheckpointView::IndexRow, ui::CheckpointView::LocalTimeColumn),
                 longs[2] == 0 ? QStringLiteral("—") : timeText(longs[2]));
        QVERIFY(checkpoint.abortText().contains(QStringLiteral("absent")));
        doubleClick(checkpoint.table(), ui::CheckpointView::LogicsRow);
        QTRY_COMPARE_WITH_TIMEOUT(requested.count(), 1, kWait);
        QCOMPARE(requested.first().first().value<StoreLocation>(), (StoreLocation{QStringLiteral("checkpoint"), 8}));
        QVERIFY(checkpoint.showLocation({QStringLiteral("checkpoint"), 32}));
        QCOMPARE(checkpoint.table()->currentIndex().row(), int(ui::CheckpointView::ConfirmPhyRow));
        QVERIFY(!checkpoint.showLocation({QStringLiteral("checkpoint"), 40})); // zero padding, no field
        QVERIFY(!checkpoint.showLocation({QStringLiteral("abort"), 0}));
    }

private slots:
    void damagedStore()
    {
        const std::string root = copyWritten(QStringLiteral("damaged"));
        // A flipped body byte in record 10, garbage in topics.json, a consume-queue file cut short.
        int64_t recordOffset = 0;
        {
            const auto reader = test::openReader(root);
            recordOffset = test::allMessages(*reader).at(10).offset;
        }
        const std::string logFile = root + "/commitlog/00000000000000000000";
        QVERIFY(recordOffset + test::kBodyAt < test::kLogFileSize);
        test::patch(logFile, recordOffset + test::kBodyAt, {static_cast<uint8_t>(test::readFile(logFile)[recordOffset + test::kBodyAt] ^ 0x20)});
        const std::string garbage = "{\n\t\"topicConfigTable\":{ this is not json\n";
        test::writeFile(root + "/config/topics.json", std::vector<uint8_t>(garbage.begin(), garbage.end()));
        const std::string cqFile = root + "/consumequeue/T/0/00000000000000000000";
        fs::resize_file(cqFile, 500);
        std::string indexName;
        for (const auto &entry : fs::directory_iterator(root + "/index"))
            indexName = entry.path().filename().string();
        fs::resize_file(root + "/index/" + indexName, 1001); // no slot and entry count make this size

        const auto before = test::fingerprint(root);
        const auto reader = openShared(root);
        const auto expected = store::verifyStore(*reader);
        QVERIFY(test::hasFault(expected, "record-crc", "commitlog/00000000000000000000", recordOffset));
        const auto topics = reader->configFile("topics.json");
        QVERIFY(topics && !topics->parsed && topics->errorOffset > 0);
        QVERIFY2(test::hasFault(expected, "config-parse", "config/topics.json", topics->errorOffset),
                 test::listFaults(expected).c_str());
        QVERIFY2(test::hasFault(expected, "file-size", "consumequeue/T/0/00000000000000000000", 500),
                 test::listFaults(expected).c_str());
        const auto indexes = reader->indexFiles();
        QCOMPARE(indexes.size(), size_t{1});
        QVERIFY(!indexes.front().layoutError.empty());

        ui::HealthReportView health(reader);
        QSignalSpy finished(&health, &ui::HealthReportView::verifyFinished);
        QSignalSpy requested(&health, &ui::HealthReportView::locationRequested);
        health.resize(1200, 640);
        health.show();
        QTest::mouseClick(health.verifyButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kWait);
        QVERIFY(health.summaryText().contains(QStringLiteral("fault(s) found")));
        QVERIFY(health.progressText().contains(QStringLiteral("MB/s")));
        const auto *faults = health.faultModel();
        QCOMPARE(faults->rowCount(), static_cast<int>(expected.faults.size()));
        for (const auto &fault : expected.faults) {
            bool shown = false;
            for (int row = 0; row < faults->rowCount() && !shown; ++row)
                shown = cell(faults, row, 0) == q(fault.file) && cell(faults, row, 1) == QString::number(fault.offset)
                        && cell(faults, row, 2) == q(fault.kind) && cell(faults, row, 3) == q(fault.message);
            QVERIFY2(shown, (fault.kind + " " + fault.file).c_str());
        }
        // Filtered by kind, then a double-click on the CRC fault asks for its place.
        health.kindFilter()->setCurrentText(QStringLiteral("record-crc"));
        QCOMPARE(faults->rowCount(), 1);
        QCOMPARE(cell(faults, 0, 2), QStringLiteral("record-crc"));
        doubleClick(health.faultTable(), 0);
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.takeFirst().first().value<StoreLocation>(),
                 (StoreLocation{QStringLiteral("commitlog/00000000000000000000"), recordOffset}));
        // Enter on the config fault does the same.
        health.kindFilter()->setCurrentText(QStringLiteral("config-parse"));
        health.faultTable()->setFocus();
        health.faultTable()->setCurrentIndex(faults->index(0, 0));
        QTest::keyClick(health.faultTable(), Qt::Key_Return);
        QCOMPARE(requested.count(), 1);
        const auto configPlace = requested.takeFirst().first().value<StoreLocation>();
        QCOMPARE(configPlace, (StoreLocation{QStringLiteral("config/topics.json"), topics->errorOffset}));
        health.kindFilter()->setCurrentIndex(0);
        // Ctrl+C copies the selected faults with the header; Export CSV writes every row shown.
        health.faultTable()->selectAll();
        QTest::keyClick(health.faultTable(), Qt::Key_C, Qt::ControlModifier);
        const QString copied = QApplication::clipboard()->text();
        QVERIFY2(copied.startsWith(QStringLiteral("File\tOffset\tKind\tMessage\n")), qPrintable(copied));
        QCOMPARE(copied.count(QLatin1Char('\n')), faults->rowCount() + 1);
        QVERIFY(copied.contains(QStringLiteral("record-crc")));
        const QString csv = dir_.filePath(QStringLiteral("faults.csv"));
        QVERIFY(ui::writeTableCsv(*health.faultTable()->model(), csv));
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        QCOMPARE(csvFile.readAll().count("\r\n"), faults->rowCount() + 1);
        test::saveScreenshot(health, QStringLiteral("explorer-health"));

        // The index view names the layout fault in the header instead of drawing a chart.
        ui::IndexFileView index(reader);
        QTRY_VERIFY_WITH_TIMEOUT(!index.isLoading(), kWait);
        QVERIFY2(index.headerText().contains(QStringLiteral("Layout: ") + q(indexes.front().layoutError)),
                 qPrintable(index.headerText()));
        QCOMPARE(index.occupancyChart()->bucketCount(), 0);
        QCOMPARE(index.entryModel()->entryCount(), 0);

        // The config view shows the broken file as text with the error's place.
        ui::ConfigFilesView config(reader);
        config.resize(1000, 560);
        config.show();
        QTRY_VERIFY_WITH_TIMEOUT(!config.isLoading(), kWait);
        QVERIFY(config.showLocation(configPlace));
        QCOMPARE(config.selectedFile(), QStringLiteral("topics.json"));
        QCOMPARE(config.tabs()->currentIndex(), int(ui::ConfigFilesView::RawTab));
        QVERIFY2(config.rawErrorText().contains(QStringLiteral("topics.json")), qPrintable(config.rawErrorText()));
        QCOMPARE(config.rawText()->textCursor().position(), static_cast<int>(topics->errorOffset)); // ASCII text
        QCOMPARE(config.rawText()->extraSelections().size(), 2);
        QCOMPARE(config.contentModel(), nullptr);
        QVERIFY(config.fileModel()->findItems(QStringLiteral("does not parse"), Qt::MatchExactly,
                                              ui::ConfigFilesView::StatusColumn).size() == 1);
        test::saveScreenshot(config, QStringLiteral("explorer-config-raw"));
        QCOMPARE(test::fingerprint(root), before);
    }

    void liveStore()
    {
        // A broker's store open while the views read it: the lock is live, reload() follows appends.
        const std::string root = copyWritten(QStringLiteral("live"));
        auto store = test::openStore(test::storeConfig(q(root)));
        QVERIFY(store);
        const auto reader = openShared(root);
        ui::CheckpointView checkpoint(reader);
        QTRY_VERIFY_WITH_TIMEOUT(!checkpoint.isLoading(), kWait);
        QVERIFY2(checkpoint.lockText().contains(QStringLiteral("held")) && !checkpoint.lockText().contains(QStringLiteral("not held")),
                 qPrintable(checkpoint.lockText()));
        QVERIFY(checkpoint.abortText().contains(QStringLiteral("present"))); // a running broker keeps one

        ui::IndexFileView index(reader);
        QTRY_VERIFY_WITH_TIMEOUT(!index.isLoading(), kWait);
        const QString countBefore = cell(index.fileModel(), 0, ui::IndexFileView::EntriesColumn);
        for (int i = test::kMessages; i < test::kMessages + 20; ++i)
            QCOMPARE(store->putMessage(test::numbered(i)).status, store::PutMessageStatus::PutOk);
        store->waitForDispatch();
        index.reload();
        QTRY_COMPARE_WITH_TIMEOUT(cell(index.fileModel(), 0, ui::IndexFileView::EntriesColumn),
                                  QString::number(countBefore.toInt() + 40), kWait); // a key and a tag each
        QSignalSpy lookedUp(&index, &ui::IndexFileView::lookupFinished);
        index.lookUp(QStringLiteral("T"), QStringLiteral("k%1").arg(test::kMessages + 1));
        QTRY_COMPARE_WITH_TIMEOUT(lookedUp.count(), 1, kWait);
        QVERIFY(findRow(index.chainModel(), ui::IndexFileView::HasKeyColumn, QStringLiteral("yes")) >= 0);

        ui::HealthReportView health(reader);
        QSignalSpy finished(&health, &ui::HealthReportView::verifyFinished);
        health.verify();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kWait);
        QVERIFY2(health.summaryText().contains(QStringLiteral("Live: a broker holds the lock")),
                 qPrintable(health.summaryText()));
    }

    void largeStoreIndex()
    {
        // 26,000 keyed and tagged messages: 52,000 entries in fourteen index files of 4,000 entries,
        // read 500 at a time.
        const std::string root = largeStore();
        QVERIFY(!root.empty());
        const auto before = test::fingerprint(root);
        const auto reader = openShared(root);
        ui::IndexFileView index(reader);
        index.resize(1100, 700);
        index.show();
        QTRY_VERIFY_WITH_TIMEOUT(!index.isLoading(), kWait);
        QCOMPARE(index.fileModel()->rowCount(), 14);
        QVERIFY(index.selectFile(cell(index.fileModel(), 0, ui::IndexFileView::NameColumn)));
        QCOMPARE(index.entryModel()->entryCount(), 3999);
        index.tabs()->setCurrentIndex(ui::IndexFileView::EntriesTab);
        QTRY_COMPARE_WITH_TIMEOUT(index.entryModel()->rowCount(), ui::IndexEntryModel::kPageSize, kWait);
        const auto summary = reader->indexFiles().front();
        const int64_t entriesAt = 40 + int64_t{summary.hashSlotNum} * 4;
        QVERIFY(index.showLocation({QStringLiteral("index/") + q(summary.file.name), entriesAt + 20 * 3000}));
        QTRY_COMPARE_WITH_TIMEOUT(index.entryTable()->currentIndex().row(), 2999, kWait);
        QCOMPARE(cell(index.entryModel(), 2999, ui::IndexEntryModel::EntryColumn), QStringLiteral("3000"));
        QCOMPARE(cell(index.entryModel(), 2999, ui::IndexEntryModel::PhyOffsetColumn),
                 QString::number(reader->readIndexEntries(summary.file.name, 3000, 1).front().phyOffset));

        // A lookup walks the key's slot in every file and finds the one record.
        QSignalSpy lookedUp(&index, &ui::IndexFileView::lookupFinished);
        index.lookUp(QStringLiteral("Big"), QStringLiteral("b12345"));
        QTRY_COMPARE_WITH_TIMEOUT(lookedUp.count(), 1, kWait);
        int stops = 0;
        int hits = 0;
        for (int row = 0; row < index.chainModel()->rowCount(); ++row) {
            stops += cell(index.chainModel(), row, ui::IndexFileView::StepColumn) == QStringLiteral("stop") ? 1 : 0;
            hits += cell(index.chainModel(), row, ui::IndexFileView::HasKeyColumn) == QStringLiteral("yes") ? 1 : 0;
        }
        QCOMPARE(stops, 14);
        QCOMPARE(hits, 1);
        QCOMPARE(test::fingerprint(root), before);
    }

    // A figure, not a pass/fail on time: a full verify of the ~100 MiB store with the longest GUI
    // stall while it runs (the GUI thread only receives progress and the report).
    void fullVerifyOfALargeStore()
    {
        const auto reader = openShared(largeStore());
        QVERIFY(reader);
        ui::HealthReportView health(reader);
        QSignalSpy finished(&health, &ui::HealthReportView::verifyFinished);
        health.resize(1000, 500);
        health.show();
        GuiStallMeter meter;
        health.verify();
        QStringList progressShown;
        QVERIFY(runEventLoopUntil([&] {
            if (health.isRunning() && health.progressText().contains(QStringLiteral(" of "))
                && !progressShown.contains(health.progressText()))
                progressShown << health.progressText();
            return finished.count() > 0;
        }, kWait));
        QVERIFY2(health.summaryText().contains(QStringLiteral("Healthy")), qPrintable(health.summaryText()));
        qInfo("full verify: %s; progress lines shown while running: %lld (%s); longest GUI stall %lld ms over %lld ms",
              qPrintable(health.progressText()), static_cast<long long>(progressShown.size()),
              qPrintable(progressShown.join(QStringLiteral(" | "))), static_cast<long long>(meter.longestStallMs()),
              static_cast<long long>(meter.elapsedMs()));
    }

    void cancelStopsAVerify()
    {
        const std::string root = largeStore();
        QVERIFY(!root.empty());
        const auto before = test::fingerprint(root);
        const auto reader = openShared(root);
        ui::HealthReportView health(reader);
        QSignalSpy finished(&health, &ui::HealthReportView::verifyFinished);
        health.resize(1000, 500);
        health.show();
        const QString initialSummary = health.summaryText();
        health.verify();
        QVERIFY(health.isRunning());
        QVERIFY(!health.verifyButton()->isEnabled());
        // Cancelled at once: the scan stops at its first progress check, 64 MiB in, far from its end.
        QTest::mouseClick(health.cancelButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kWait);
        QCOMPARE(finished.first().first().toBool(), true);
        QVERIFY(!health.isRunning());
        QVERIFY(health.verifyButton()->isEnabled());
        QVERIFY(health.progressText().contains(QStringLiteral("cancelled")));
        QCOMPARE(health.summaryText(), initialSummary); // no report from a cancelled verify
        QCOMPARE(test::fingerprint(root), before);
    }
};

QTEST_MAIN(ExplorerViewsTest)
#include "tst_explorer_views.moc"
