// The store explorer (ui/explorer) offscreen: every Java-written fixture store opened from a copy
// with the right tree and records; a store MessageStore writes in the test (a few thousand
// records over many files): paging by scrolling, jumps to an offset, a msgId and a time, filters
// with their progress, Cancel and Continue, consume-queue entries opening their records,
// locations and the per-kind pages; field ↔ hex selection both ways; every file's bytes and
// times unchanged by opening and browsing; and all of it once more as a person does it, with
// clicks, typing and the menu only. Damaged, live and bad stores: tst_explorer_stores.cpp.

#include "explorer_test_util.h"
#include "ui_test_util.h"

#include "broker/common/message_id.h"
#include "ui/explorer/background_scan.h"
#include "ui/explorer/checkpoint_view.h"
#include "ui/explorer/commit_log_view.h"
#include "ui/explorer/config_files_view.h"
#include "ui/explorer/consume_queue_view.h"
#include "ui/explorer/explorer_actions.h"
#include "ui/explorer/explorer_window.h"
#include "ui/explorer/health_report_view.h"
#include "ui/explorer/hex_view.h"
#include "ui/explorer/index_file_view.h"
#include "ui/explorer/record_view.h"
#include "ui/explorer/store_file_model.h"
#include "ui/main_window.h"

#include <QApplication>
#include <QClipboard>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableView>
#include <QTreeView>
#include <QTreeWidget>

#include <filesystem>
#include <map>
#include <stdexcept>

using namespace mqdesk;
using namespace mqdesk::ui;

using namespace mqdesk::test;

class ExplorerTest : public QObject
{
    Q_OBJECT

private:
    WrittenStore written_;

private slots:
    void initTestCase()
    {
        QVERIFY(written_.write());
    }

    void javaWrittenStores_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<int>("configFiles");
        QTest::newRow("fork-2021") << "fork-2021" << 1;
        QTest::newRow("study-2019") << "study-2019" << 6;
        QTest::newRow("study-b") << "study-b" << 6;
    }

    void javaWrittenStores()
    {
        QFETCH(QString, fixture);
        QFETCH(int, configFiles);
        QTemporaryDir dir;
        const QString root = dir.path() + QLatin1Char('/') + fixture;
        test::copyFixture(fixture.toStdString(), root.toStdString());
        // A file of no kind the explorer knows is listed all the same.
        QFile unknown(root + QStringLiteral("/unknown.dat"));
        QVERIFY(unknown.open(QIODevice::WriteOnly));
        unknown.write("0123456789");
        unknown.close();
        const auto before = fingerprint(root);
        const auto expected = allMessages(*openReader(root));

        auto window = openWindow(root);
        QVERIFY2(window->isOpen(), qPrintable(window->errorText()));
        QVERIFY(window->windowTitle().contains(fixture));
        QVERIFY(!window->isLive());
        StoreFileModel &files = *window->fileModel();
        const QModelIndex log = files.indexOfPath(QStringLiteral("commitlog"));
        QVERIFY(log.isValid());
        QCOMPARE(files.rowCount(log), QDir(root + QStringLiteral("/commitlog")).entryList(QDir::Files).size());
        QCOMPARE(files.rowCount(files.indexOfPath(QStringLiteral("config"))), configFiles);
        QVERIFY(files.indexOfPath(QStringLiteral("lock")).isValid());
        QVERIFY(files.indexOfPath(QStringLiteral("checkpoint")).isValid() == QFile::exists(root + QStringLiteral("/checkpoint")));
        if (!expected.empty()) {
            const QModelIndex first = files.index(0, StoreFileModel::SizeColumn, log);
            QCOMPARE(first.data().toString(), QLocale().formattedDataSize(8192, 1, QLocale::DataSizeTraditionalFormat));
            // One file: filled up to the end of its last record (its end-of-file record follows).
            const double fill = double(openReader(root)->commitLogDataEnd()) * 100 / 8192;
            QCOMPARE(files.index(0, StoreFileModel::FillColumn, log).data().toString(), QLocale().toString(fill, 'f', 1) + QLatin1Char('%'));
        }

        // The commit-log page is shown first, with the records the engine reads.
        QCOMPARE(window->pages()->currentWidget(), static_cast<QWidget *>(window->commitLogView()));
        RecordTableModel &model = *window->commitLogView()->model();
        QVERIFY(waitForFirstPage(*window));
        QVERIFY(fetchAll(model));
        QCOMPARE(messageRows(model), static_cast<int>(expected.size()));
        int row = 0;
        for (const auto &record : expected) {
            while (model.record(row)->kind != store::RecordKind::Message)
                ++row;
            QCOMPARE(model.record(row)->offset, record.offset);
            QCOMPARE(model.index(row, RecordTableModel::TopicColumn).data().toString(), QString::fromStdString(record.message.topic));
            QCOMPARE(model.index(row, RecordTableModel::StatusColumn).data().toString(), QStringLiteral("OK"));
            ++row;
        }
        if (!expected.empty()) {
            window->commitLogView()->table()->selectRow(0);
            QVERIFY(waitForRecordView(*window->commitLogView()->recordView()));
        }
        test::saveScreenshot(*window, QStringLiteral("explorer-java-") + fixture);

        // The lock, checkpoint and abort: the checkpoint page; config files: the config page.
        window->showLocation({QStringLiteral("lock"), 0});
        QCOMPARE(files.node(window->fileTree()->currentIndex())->relativePath, QStringLiteral("lock"));
        QCOMPARE(window->pages()->currentWidget(), static_cast<QWidget *>(window->checkpointView()));
        QTRY_VERIFY_WITH_TIMEOUT(!window->checkpointView()->isLoading(), kWait);
        const QString config = files.node(files.index(0, 0, files.indexOfPath(QStringLiteral("config"))))->relativePath;
        window->fileTree()->setCurrentIndex(files.indexOfPath(config));
        QCOMPARE(window->pages()->currentWidget(), static_cast<QWidget *>(window->configView()));
        QTRY_COMPARE_WITH_TIMEOUT(QStringLiteral("config/") + window->configView()->selectedFile(), config, kWait);
        test::saveScreenshot(*window, QStringLiteral("explorer-window-config-") + fixture);
        // Any other file: listed with its size, its facts shown.
        const QModelIndex timer = files.indexOfPath(QStringLiteral("unknown.dat"));
        QVERIFY(timer.isValid());
        QCOMPARE(files.index(timer.row(), StoreFileModel::SizeColumn, timer.parent()).data().toString(),
                 QLocale().formattedDataSize(10, 1, QLocale::DataSizeTraditionalFormat));
        window->showLocation({QStringLiteral("unknown.dat"), 0});
        QVERIFY(qobject_cast<QLabel *>(window->pages()->currentWidget()));
        QVERIFY(qobject_cast<QLabel *>(window->pages()->currentWidget())->text().contains(QStringLiteral("unknown.dat")));
        test::saveScreenshot(*window, QStringLiteral("explorer-file-facts-") + fixture);

        // Tools ▸ Verify Store: the health report.
        window->verifyStore();
        QCOMPARE(window->pages()->currentWidget(), static_cast<QWidget *>(window->healthView()));
        QTRY_VERIFY_WITH_TIMEOUT(!window->healthView()->isRunning(), kWait);
        test::saveScreenshot(*window, QStringLiteral("explorer-window-health-") + fixture);
        window.reset();
        QCOMPARE(fingerprint(root), before);
    }

    // The store the Java broker 5.5.0 wrote in the interop scenario JavaStoreOpenedByMqdesk
    // (tests/fixtures/java-5.5.0: plain, keyed, tagged, delayed and transactional messages, their
    // consume queues and the index), rebuilt at its Java sizes: every record as the Java producer
    // sent it, a healthy verify, and the keys and tags found through the Java-written index.
    void javaFiveFiveStore()
    {
        QTemporaryDir dir;
        const QString root = dir.path() + QStringLiteral("/java-5.5.0");
        test::restoreJava550Store(root.toStdString());
        const auto before = fingerprint(root);
        const auto expected = allMessages(*openReader(root));
        QCOMPARE(expected.size(), size_t{31});
        const std::string topic = "peerjava_3gdids_1";
        std::map<std::string, int> perTopic;
        for (const auto &record : expected) {
            ++perTopic[record.message.topic];
            QVERIFY(record.crcOk && record.positionOk);
        }
        QCOMPARE(perTopic[topic], 24); // 6 plain, 6 keyed, 6 tagged, 3 delayed, 3 committed
        QCOMPARE(perTopic["SCHEDULE_TOPIC_XXXX"], 3);
        QCOMPARE(perTopic["RMQ_SYS_TRANS_HALF_TOPIC"], 3);
        QCOMPARE(perTopic["RMQ_SYS_TRANS_OP_HALF_TOPIC"], 1);

        auto window = openWindow(root);
        QVERIFY2(window->isOpen(), qPrintable(window->errorText()));
        RecordTableModel &model = *window->commitLogView()->model();
        QVERIFY(waitForFirstPage(*window));
        QVERIFY(fetchAll(model));
        QCOMPARE(messageRows(model), 31);
        std::map<std::string, int> tags;
        int row = 0;
        for (const auto &record : expected) {
            while (model.record(row)->kind != store::RecordKind::Message)
                ++row;
            QCOMPARE(model.record(row)->offset, record.offset);
            QCOMPARE(model.index(row, RecordTableModel::TopicColumn).data().toString(), q(record.message.topic));
            QCOMPARE(model.index(row, RecordTableModel::StatusColumn).data().toString(), QStringLiteral("OK"));
            if (record.message.topic == topic)
                ++tags[record.message.tags()];
            ++row;
        }
        QCOMPARE(tags["TagA"] + tags["TagB"], 6);
        QCOMPARE(tags["Delayed"], 3);
        QCOMPARE(tags["Tx"], 3);
        // A record opened from the list as a person does: a click on its row.
        const QRect first = window->commitLogView()->table()->visualRect(model.index(0, RecordTableModel::TopicColumn));
        QTest::mouseClick(window->commitLogView()->table()->viewport(), Qt::LeftButton, {}, first.center());
        QVERIFY(waitForRecordView(*window->commitLogView()->recordView()));
        test::saveScreenshot(*window, QStringLiteral("explorer-java-5.5.0"));

        // Keys and tags through the index the Java broker wrote (5.5 also indexes `T#<tags>`).
        const auto reader = openReader(root);
        for (const std::string key : {"key-1", "other-1", "tx-0", "delay-2", "T#TagA", "T#Tx"}) {
            int found = 0;
            for (const auto &lookup : reader->lookupIndexKey(topic, key))
                for (const auto &step : lookup.chain)
                    found += step.hashMatches && step.recordHasKey.value_or(false);
            QVERIFY2(found > 0, key.c_str());
        }

        // Tools ▸ Verify Store: healthy.
        window->verifyStore();
        QCOMPARE(window->pages()->currentWidget(), static_cast<QWidget *>(window->healthView()));
        QTRY_VERIFY_WITH_TIMEOUT(!window->healthView()->isRunning(), kWait * 3);
        QCOMPARE(window->healthView()->faultModel()->rowCount(), 0);
        test::saveScreenshot(*window, QStringLiteral("explorer-window-health-java-5.5.0"));
        window.reset();
        QCOMPARE(fingerprint(root), before);
    }

    void fieldAndHexSelectEachOther()
    {
        QTemporaryDir dir;
        const QString root = dir.path() + QStringLiteral("/fork");
        test::copyFixture("fork-2021", root.toStdString());
        auto window = openWindow(root);
        QVERIFY(waitForFirstPage(*window));
        window->commitLogView()->table()->selectRow(1);
        RecordView &view = *window->commitLogView()->recordView();
        QVERIFY(waitForRecordView(view));
        QCOMPARE(view.recordOffset(), window->commitLogView()->model()->record(1)->offset);
        const auto layout = store::recordLayout(openReader(root)->readCommitLogBytes(view.recordOffset(), 4096));

        // Field → bytes.
        QVERIFY(view.selectField(QStringLiteral("TOPIC")));
        const auto topic = std::find_if(layout.fields.begin(), layout.fields.end(), [](const auto &f) { return f.name == "TOPIC"; });
        QCOMPARE(view.hexView()->highlightPosition(), topic->offset);
        QCOMPARE(view.hexView()->highlightLength(), topic->length);
        QCOMPARE(view.hexView()->bytes().mid(topic->offset, topic->length), QByteArray("abc"));
        view.hexView()->setFocus();
        QTest::keySequence(view.hexView(), QKeySequence::Copy);
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("61 62 63"));
        QVERIFY(view.selectField(QStringLiteral("PROPERTIES/TAGS")) || view.selectField(QStringLiteral("PROPERTIES/UNIQ_KEY")));
        QVERIFY(view.hexView()->highlightLength() > 0);

        // Byte → field: a click on a body byte selects BODY, one on a port byte the port.
        const auto body = std::find_if(layout.fields.begin(), layout.fields.end(), [](const auto &f) { return f.name == "BODY"; });
        HexView &hex = *view.hexView();
        QTest::mouseClick(hex.viewport(), Qt::LeftButton, {}, hex.hexCellRect(body->offset + 1).center());
        QCOMPARE(view.fieldTree()->currentItem()->text(0), QStringLiteral("BODY"));
        QCOMPARE(hex.highlightPosition(), body->offset);
        QTest::mouseClick(hex.viewport(), Qt::LeftButton, {}, hex.hexCellRect(54).center());
        QCOMPARE(view.fieldTree()->currentItem()->text(0), QStringLiteral("port"));
        QCOMPARE(view.fieldTree()->currentItem()->parent()->text(0), QStringLiteral("BORNHOST"));
        QVERIFY(view.selectField(QStringLiteral("STORETIMESTAMP")));
        test::saveScreenshot(*window, QStringLiteral("explorer-record"));
    }

    void pagesJumpsAndLocations()
    {
        const auto before = fingerprint(written_.root);
        auto window = openWindow(written_.root);
        CommitLogView &log = *window->commitLogView();
        RecordTableModel &model = *log.model();
        QVERIFY(waitForFirstPage(*window));
        QCOMPARE(static_cast<size_t>(model.rowCount()), RecordTableModel::kPageSize);
        // Scrolling to the bottom fetches the next pages.
        for (int i = 0; i < 3; ++i) {
            log.table()->scrollToBottom();
            QVERIFY(QTest::qWaitFor([&] { return model.rowCount() >= static_cast<int>(RecordTableModel::kPageSize) * (i + 2); }, kWait));
        }
        QVERIFY(model.record(model.rowCount() - 1)->offset > written_.records[500].offset);
        test::saveScreenshot(*window, QStringLiteral("explorer-records"));

        // Jump to an offset: the table starts there, the record is selected and shown.
        const auto &target = written_.records[1500];
        log.jumpToOffset(target.offset);
        QVERIFY(waitForRecordView(*log.recordView()));
        QTRY_COMPARE_WITH_TIMEOUT(log.recordView()->recordOffset(), target.offset, kWait);
        QCOMPARE(model.record(log.table()->currentIndex().row())->offset, target.offset);

        // The offset field takes an offset message id too (typed, then Enter).
        const auto &byId = written_.records[2222];
        log.offsetEdit()->clear();
        QTest::keyClicks(log.offsetEdit(), QString::fromStdString(common::createOffsetMessageId(byId.message.storeHost, byId.offset)));
        QTest::keyClick(log.offsetEdit(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(log.recordView()->recordOffset(), byId.offset, kWait);
        log.offsetEdit()->setText(QStringLiteral("not-an-offset"));
        QTest::keyClick(log.offsetEdit(), Qt::Key_Return);
        QVERIFY(window->statusBar()->currentMessage().contains(QStringLiteral("'not-an-offset' is neither a commit-log offset")));
        QCOMPARE(model.startOffset(), byId.offset); // nothing moved

        // Jump to a time: the first record stored at or after it, as the engine finds it.
        const auto later = std::find_if(written_.records.begin(), written_.records.end(), [&](const auto &r) {
            return r.message.storeTimestamp > written_.records[1000].message.storeTimestamp;
        });
        if (later != written_.records.end()) {
            log.jumpToTime(QDateTime::fromMSecsSinceEpoch(later->message.storeTimestamp));
            QTRY_COMPARE_WITH_TIMEOUT(log.recordView()->recordOffset(), later->offset, kWait);
        }
        log.jumpToTime(QDateTime::fromMSecsSinceEpoch(written_.records.back().message.storeTimestamp + 60000));
        QTRY_VERIFY_WITH_TIMEOUT(model.startOffset() > written_.records.back().offset && !model.isLoading(), kWait);
        QCOMPARE(messageRows(model), 0);

        // To the end: the last page of messages, the newest selected.
        log.jumpToEnd();
        QTRY_COMPARE_WITH_TIMEOUT(log.recordView()->recordOffset(), written_.records.back().offset, kWait);
        QCOMPARE(model.record(model.rowCount() - 1)->offset, written_.records.back().offset);
        QCOMPARE(static_cast<size_t>(model.rowCount()), RecordTableModel::kPageSize);

        // Locations: a commit-log file + offset, a consume-queue file + offset, another file.
        const QModelIndex secondFile = window->fileModel()->index(1, 0, window->fileModel()->indexOfPath(QStringLiteral("commitlog")));
        const StoreTreeNode *file = window->fileModel()->node(secondFile);
        const auto inSecond = std::find_if(written_.records.begin(), written_.records.end(), [&](const auto &r) {
            return r.offset > file->startOffset + 100;
        });
        window->showLocation({file->relativePath, inSecond->offset - file->startOffset});
        QTRY_COMPARE_WITH_TIMEOUT(log.recordView()->recordOffset(), inSecond->offset, kWait);
        window->showLocation({QStringLiteral("consumequeue/T/1/00000000000000000000"), 3 * 20});
        ConsumeQueueView &queue = *window->consumeQueueView();
        QCOMPARE(window->pages()->currentWidget(), static_cast<QWidget *>(&queue));
        QTRY_VERIFY_WITH_TIMEOUT(queue.model()->rowCount() > 0, kWait);
        QCOMPARE(queue.model()->entry(queue.table()->currentIndex().row())->queueOffset, qint64(3));
        window->showLocation({QStringLiteral("checkpoint"), 0});
        QCOMPARE(window->fileModel()->node(window->fileTree()->currentIndex())->relativePath, QStringLiteral("checkpoint"));
        QCOMPARE(window->pages()->currentWidget(), static_cast<QWidget *>(window->checkpointView()));

        // An index file's page; its locationRequested (an entry's record) comes back as a record.
        StoreFileModel &files = *window->fileModel();
        const QString indexFile = files.node(files.index(0, 0, files.indexOfPath(QStringLiteral("index"))))->relativePath;
        window->showLocation({indexFile, 0});
        IndexFileView *index = window->indexView();
        QCOMPARE(window->pages()->currentWidget(), static_cast<QWidget *>(index));
        QTRY_COMPARE_WITH_TIMEOUT(QStringLiteral("index/") + index->selectedFile(), indexFile, kWait);
        test::saveScreenshot(*window, QStringLiteral("explorer-window-index"));
        const auto &tenth = written_.records[10];
        emit index->locationRequested({file->relativePath.section(QLatin1Char('/'), 0, 0) + QStringLiteral("/00000000000000000000"), tenth.offset});
        QCOMPARE(window->pages()->currentWidget(), static_cast<QWidget *>(&log));
        QTRY_COMPARE_WITH_TIMEOUT(log.recordView()->recordOffset(), tenth.offset, kWait);
        window.reset();
        QCOMPARE(fingerprint(written_.root), before);
    }

    void consumeQueueEntryOpensItsRecord()
    {
        auto window = openWindow(written_.root);
        StoreFileModel &files = *window->fileModel();
        const QModelIndex queueIndex = files.indexOfQueue(QStringLiteral("T"), 1);
        QVERIFY(queueIndex.isValid());
        QCOMPARE(files.index(queueIndex.row(), StoreFileModel::CountColumn, queueIndex.parent()).data().toString(),
                 QLocale().toString(1000));
        window->fileTree()->setCurrentIndex(queueIndex);
        ConsumeQueueView &queue = *window->consumeQueueView();
        QCOMPARE(window->pages()->currentWidget(), static_cast<QWidget *>(&queue));
        QTRY_COMPARE_WITH_TIMEOUT(queue.model()->rowCount(), 200, kWait);
        QCOMPARE(queue.model()->index(0, ConsumeQueueModel::ValidColumn).data().toString(), QStringLiteral("valid"));
        queue.table()->scrollToBottom();
        QTRY_VERIFY_WITH_TIMEOUT(queue.model()->rowCount() > 200, kWait);
        test::saveScreenshot(*window, QStringLiteral("explorer-consume-queue"));

        // Enter on entry 7 of T/1 opens message i = 15 (T/1 holds i = 1, 5, 7, 11, 13, 15, …).
        queue.table()->setCurrentIndex(queue.model()->index(7, 0));
        queue.table()->setFocus();
        QTest::keyClick(queue.table(), Qt::Key_Return);
        const qint64 pointed = queue.model()->entry(7)->entry.commitLogOffset;
        CommitLogView &log = *window->commitLogView();
        QCOMPARE(window->pages()->currentWidget(), static_cast<QWidget *>(&log));
        QTRY_COMPARE_WITH_TIMEOUT(log.recordView()->recordOffset(), pointed, kWait);
        const store::CommitLogRecord *shown = log.model()->record(log.table()->currentIndex().row());
        QCOMPARE(shown->offset, pointed);
        QCOMPARE(shown->message.topic, std::string("T"));
        QCOMPARE(shown->message.queueId, 1);
        QCOMPARE(shown->message.queueOffset, qint64(7));
    }

    void filtersScanWithProgressAndCancel()
    {
        auto window = openWindow(written_.root);
        CommitLogView &log = *window->commitLogView();
        RecordTableModel &model = *log.model();
        QVERIFY(waitForFirstPage(*window));
        model.setScanChunkBytes(8 * 1024); // many chunks over the ~500 KB log: the progress path

        QSignalSpy progress(&model, &RecordTableModel::scanProgress);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        log.applyFilter({QStringLiteral("U"), QStringLiteral("TagB"), {}});
        QVERIFY(log.progressBar()->isVisible());
        QVERIFY(fetchAll(model));
        QCOMPARE(model.rowCount(), 200); // i % 15 == 0: 200 of 3000
        for (int row = 0; row < model.rowCount(); ++row) {
            QCOMPARE(model.record(row)->message.topic, std::string("U"));
            QCOMPARE(model.record(row)->message.tags(), std::string("TagB"));
        }
        QVERIFY(progress.count() > 10);
        QVERIFY(inserted.count() > 1); // rows appeared as they were found
        QCOMPARE(progress.last().at(0).toLongLong(), progress.last().at(1).toLongLong());
        test::saveScreenshot(*window, QStringLiteral("explorer-filter"));

        // A key: exactly its record. Ctrl+F focuses the filter.
        log.applyFilter({{}, {}, QStringLiteral("k1234")});
        QVERIFY(fetchAll(model));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.record(0)->offset, written_.records[1234].offset);

        // Cancel stops the scan where it is; Continue goes on to the end.
        model.setScanChunkBytes(512);
        progress.clear();
        log.applyFilter({QStringLiteral("no-such-topic"), {}, {}});
        QTRY_VERIFY_WITH_TIMEOUT(progress.count() > 2 && log.cancelButton()->isVisible(), kWait);
        QTest::mouseClick(log.cancelButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!model.isLoading(), kWait);
        QVERIFY(model.isPaused());
        QVERIFY(!model.isAtEnd());
        QVERIFY(model.nextOffset() > 0 && model.nextOffset() < written_.records.back().offset);
        QVERIFY(log.statusText().contains(QStringLiteral("stopped")));
        test::saveScreenshot(*window, QStringLiteral("explorer-filter-cancelled"));
        model.setScanChunkBytes(1024 * 1024);
        model.resumeScan();
        QVERIFY(fetchAll(model));
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(log.statusText().contains(QStringLiteral("No record matches")));

        QTest::keySequence(window.get(), QKeySequence::Find);
        QTRY_VERIFY(QApplication::focusWidget() && QApplication::focusWidget()->inherits("QLineEdit"));

        // F5 reads the page again, with the filter kept.
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QTest::keySequence(window.get(), QKeySequence::Refresh);
        QCOMPARE(reset.count(), 1);
        QCOMPARE(model.filter().topic, QStringLiteral("no-such-topic"));
    }

    // A person finds messages with the mouse and the keys only: the jump buttons, a click on a
    // row and on a field, the filter fields typed and "Filter" clicked or Enter pressed, a consume
    // queue clicked in the file tree and an entry double-clicked, View ▸ Find Records….
    void aPersonFindsMessagesWithMouseAndKeys()
    {
        auto window = openWindow(written_.root);
        CommitLogView &log = *window->commitLogView();
        RecordTableModel &model = *log.model();
        QVERIFY(waitForFirstPage(*window));
        const auto button = [&log](const QString &text) {
            for (auto *candidate : log.findChildren<QPushButton *>())
                if (candidate->text() == text)
                    return candidate;
            return static_cast<QPushButton *>(nullptr);
        };
        const auto edit = [&log](const QString &placeholder) {
            for (auto *candidate : log.findChildren<QLineEdit *>())
                if (candidate->placeholderText() == placeholder)
                    return candidate;
            return static_cast<QLineEdit *>(nullptr);
        };

        QTest::mouseClick(button(QStringLiteral("To the end")), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(log.recordView()->recordOffset(), written_.records.back().offset, kWait);
        QTest::mouseClick(button(QStringLiteral("From the start")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(model.startOffset() == 0 && !model.isLoading() && model.rowCount() > 3, kWait);

        // A click on the third row shows its record; a click on its TOPIC field marks its bytes.
        QTableView *table = log.table();
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(model.index(2, 0)).center());
        QTRY_COMPARE_WITH_TIMEOUT(log.recordView()->recordOffset(), model.record(2)->offset, kWait);
        RecordView &record = *log.recordView();
        QVERIFY(waitForRecordView(record));
        const auto topicItems = record.fieldTree()->findItems(QStringLiteral("TOPIC"), Qt::MatchExactly);
        QCOMPARE(topicItems.size(), 1);
        QTreeWidget *fields = record.fieldTree();
        fields->scrollToItem(topicItems.first());
        QTest::mouseClick(fields->viewport(), Qt::LeftButton, {}, fields->visualItemRect(topicItems.first()).center());
        const std::string &topic = model.record(2)->message.topic;
        QCOMPARE(record.hexView()->highlightLength(), static_cast<int>(topic.size()));
        QCOMPARE(record.hexView()->bytes().mid(record.hexView()->highlightPosition(), record.hexView()->highlightLength()),
                 QByteArray::fromStdString(topic));

        // Typed filters: topic and tag, then "Filter"; a key, then Enter.
        QTest::keyClicks(edit(QStringLiteral("topic")), QStringLiteral("U"));
        QTest::keyClicks(edit(QStringLiteral("tag (A || B)")), QStringLiteral("TagB"));
        QTest::mouseClick(button(QStringLiteral("Filter")), Qt::LeftButton);
        QVERIFY(fetchAll(model));
        QCOMPARE(model.rowCount(), 200); // i % 15 == 0: 200 of 3000
        for (QLineEdit *typed : {edit(QStringLiteral("topic")), edit(QStringLiteral("tag (A || B)"))}) {
            typed->setFocus(Qt::MouseFocusReason);
            QTest::keyClick(typed, Qt::Key_A, Qt::ControlModifier);
            QTest::keyClick(typed, Qt::Key_Delete);
        }
        QLineEdit *key = edit(QStringLiteral("key or UNIQ_KEY"));
        QTest::keyClicks(key, QStringLiteral("k1234"));
        QTest::keyClick(key, Qt::Key_Return);
        QVERIFY(fetchAll(model));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.record(0)->offset, written_.records[1234].offset);

        // The consume queue T/1 clicked in the file tree; its entry 7 double-clicked opens the record
        // it points at: queue T/1's eighth message.
        QTreeView *tree = window->fileTree();
        const QModelIndex queueIndex = window->fileModel()->indexOfQueue(QStringLiteral("T"), 1);
        tree->scrollTo(queueIndex);
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(queueIndex).center());
        ConsumeQueueView &queue = *window->consumeQueueView();
        QCOMPARE(window->pages()->currentWidget(), static_cast<QWidget *>(&queue));
        QTRY_VERIFY_WITH_TIMEOUT(queue.model()->rowCount() > 7, kWait);
        const QRect entry = queue.table()->visualRect(queue.model()->index(7, 0));
        // A double click is a press and release, then the second press (the double-click event).
        QTest::mouseClick(queue.table()->viewport(), Qt::LeftButton, {}, entry.center());
        QTest::mouseDClick(queue.table()->viewport(), Qt::LeftButton, {}, entry.center());
        QCOMPARE(window->pages()->currentWidget(), static_cast<QWidget *>(&log));
        const qint64 pointed = queue.model()->entry(7)->entry.commitLogOffset;
        QTRY_COMPARE_WITH_TIMEOUT(log.recordView()->recordOffset(), pointed, kWait);
        const store::CommitLogRecord *shown = model.record(table->currentIndex().row());
        QCOMPARE(shown->message.topic, std::string("T"));
        QCOMPARE(shown->message.queueId, 1);
        QCOMPARE(shown->message.queueOffset, qint64(7));

        // View ▸ Find Records… puts the keyboard in a filter field.
        QVERIFY(test::chooseMenuItem(*window, QStringLiteral("&View"), QStringLiteral("&Find Records…")));
        QTRY_VERIFY(QApplication::focusWidget() && QApplication::focusWidget()->inherits("QLineEdit"));
        test::saveScreenshot(*window, QStringLiteral("explorer-person"));
    }

    // A scan whose work throws (a damaged store can make an allocation huge) ends in finished(true)
    // and failed(message) instead of ending the app; the next scan runs and delivers.
    void throwingScanIsReportedAndTheNextOneRuns()
    {
        BackgroundScan scan;
        QSignalSpy finished(&scan, &BackgroundScan::finished);
        QSignalSpy failed(&scan, &BackgroundScan::failed);
        bool delivered = false;
        scan.start([](const store::ScanProgress &) -> int { throw std::length_error("vector::_M_default_append"); },
                   [&delivered](int) { delivered = true; });
        QVERIFY(failed.wait(5000));
        QCOMPARE(failed.first().first().toString(), QStringLiteral("vector::_M_default_append"));
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.first().first().toBool(), true);
        QVERIFY(!delivered && !scan.isRunning());

        int result = 0;
        scan.start([](const store::ScanProgress &) { return 42; }, [&result](int value) { result = value; });
        QVERIFY(finished.wait(5000));
        QCOMPARE(result, 42);
        QCOMPARE(failed.count(), 1);
    }
};

QObject *createExplorerStoresTest(); // tst_explorer_stores.cpp

// Both suites in one executable; naming test functions on the command line runs only the suite
// that has them (test_support.h).
int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    int status = 0;
    for (QObject *suite : std::initializer_list<QObject *>{new ExplorerTest, createExplorerStoresTest()}) {
        if (mqdesk::test::suiteSelected(suite, argc, argv))
            status |= QTest::qExec(suite, argc, argv);
        delete suite;
    }
    return status;
}

#include "tst_explorer.moc"
