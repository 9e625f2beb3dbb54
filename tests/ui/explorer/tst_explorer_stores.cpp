// The store explorer over stores that are not simply there to read (part of tst_ui_explorer): a
// damaged copy (bad CRC, invalid bytes, a zero-size queue entry) explained and left unchanged, a
// live store followed while MessageStore appends, a BatchCQ topic's units, bad directories, Open Recent, Explore Embedded
// Store from a real MainWindow, and the big-store figures (MQDESK_EXPLORER_BENCH_STORE).

#include "explorer_test_util.h"
#include "ui_test_util.h"

#include "broker/common/message_id.h"
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
#include <QFile>
#include <QStandardItemModel>
#include <QClipboard>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableView>
#include <QTreeView>
#include <QTreeWidget>

#include <filesystem>

using namespace mqdesk;
using namespace mqdesk::ui;
using namespace mqdesk::test;

class ExplorerStoresTest : public QObject
{
    Q_OBJECT

private:
    WrittenStore written_;

private slots:
    void initTestCase()
    {
        QVERIFY(written_.write());
    }

    void damagedRecordsSayWhy()
    {
        QTemporaryDir dir;
        const QString root = dir.path() + QStringLiteral("/damaged");
        std::filesystem::copy(written_.root.toStdString(), root.toStdString(), std::filesystem::copy_options::recursive);
        const auto &crcRecord = written_.records[5];
        const auto &brokenRecord = written_.records[7];
        {
            // A flipped body byte (BODYCRC no longer matches) and a destroyed MAGICCODE.
            QFile log(root + QStringLiteral("/commitlog/00000000000000000000"));
            QVERIFY(log.open(QIODevice::ReadWrite));
            QVERIFY(log.seek(crcRecord.offset + 88));
            QVERIFY(log.putChar('#'));
            QVERIFY(log.seek(brokenRecord.offset + 4));
            QCOMPARE(log.write("\x12\x34\x56\x78", 4), qint64(4));
        }
        {
            // Consume-queue entry 2 of T/0 with size 0: no record can be read through it.
            QFile queue(root + QStringLiteral("/consumequeue/T/0/00000000000000000000"));
            QVERIFY(queue.open(QIODevice::ReadWrite));
            QVERIFY(queue.seek(2 * 20 + 8));
            QCOMPARE(queue.write(QByteArray(4, '\0')), qint64(4));
        }
        const auto before = fingerprint(root);
        auto window = openWindow(root);
        RecordTableModel &model = *window->commitLogView()->model();
        QVERIFY(waitForFirstPage(*window));
        const int crcRow = model.rowOfOffset(crcRecord.offset);
        QVERIFY(crcRow >= 0);
        QCOMPARE(model.index(crcRow, RecordTableModel::StatusColumn).data().toString(), QStringLiteral("CRC mismatch"));
        const int brokenRow = model.rowOfOffset(brokenRecord.offset);
        QVERIFY(brokenRow >= 0);
        const QString status = model.index(brokenRow, RecordTableModel::StatusColumn).data().toString();
        QVERIFY2(status.startsWith(QStringLiteral("invalid: ")), qPrintable(status));
        // The records after the damage are read again from where they resume.
        QVERIFY(model.rowOfOffset(written_.records[8].offset) > brokenRow);

        RecordView &view = *window->commitLogView()->recordView();
        window->commitLogView()->table()->selectRow(brokenRow);
        QVERIFY(waitForRecordView(view));
        QVERIFY2(view.summaryText().contains(QStringLiteral("MAGICCODE 0x12345678")), qPrintable(view.summaryText()));
        test::saveScreenshot(*window, QStringLiteral("explorer-damaged"));

        // The bad queue entry says why, and Enter on it says so instead of jumping.
        window->fileTree()->setCurrentIndex(window->fileModel()->indexOfQueue(QStringLiteral("T"), 0));
        ConsumeQueueView &queue = *window->consumeQueueView();
        QTRY_VERIFY_WITH_TIMEOUT(queue.model()->rowCount() > 2, kWait);
        QCOMPARE(queue.model()->index(2, ConsumeQueueModel::ValidColumn).data().toString(),
                 QStringLiteral("invalid: the size 0 is not positive"));
        queue.table()->setCurrentIndex(queue.model()->index(2, 0));
        QTest::keyClick(queue.table(), Qt::Key_Return);
        QCOMPARE(window->pages()->currentWidget(), static_cast<QWidget *>(&queue));
        QVERIFY2(window->statusBar()->currentMessage().contains(QStringLiteral("points at no record")),
                 qPrintable(window->statusBar()->currentMessage()));
        test::saveScreenshot(*window, QStringLiteral("explorer-consume-queue-bad-entry"));
        window.reset();
        QCOMPARE(fingerprint(root), before);
    }

    // A store with a BatchCQ topic: batchconsumequeue/ in the tree, each unit's messages shown,
    // and a click on the queue lists its units from the first.
    void batchQueuesShowTheirUnits()
    {
        QTemporaryDir dir;
        const QString root = dir.path() + QStringLiteral("/batched");
        {
            store::MessageStore s(storeConfig(root, 64 * 1024));
            s.setBatchTopicTest([](const std::string &topic) { return topic == "B"; });
            std::string error;
            QVERIFY2(s.open(error), error.c_str());
            for (int count : {1, 4, 2}) {
                common::BrokerMessage m = numbered(count);
                m.topic = "B";
                m.queueId = 0;
                if (count > 1) {
                    m.sysFlag = common::sysflag::kNeedUnwrap | common::sysflag::kInnerBatch;
                    m.properties.set(common::property::kInnerNum, std::to_string(count));
                }
                QVERIFY(s.putMessage(m).stored());
            }
            s.waitForDispatch();
        }
        auto window = openWindow(root);
        QVERIFY(waitForFirstPage(*window));
        const QModelIndex queueIndex = window->fileModel()->indexOfQueue(QStringLiteral("B"), 0);
        QVERIFY(queueIndex.isValid());
        QVERIFY(window->fileModel()->indexOfPath(QStringLiteral("batchconsumequeue")).isValid());
        QTreeView *tree = window->fileTree();
        tree->expand(queueIndex.parent().parent());
        tree->expand(queueIndex.parent());
        tree->scrollTo(queueIndex);
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(queueIndex).center());
        ConsumeQueueView &queue = *window->consumeQueueView();
        QTRY_COMPARE_WITH_TIMEOUT(queue.model()->rowCount(), 3, kWait);
        QCOMPARE(window->pages()->currentWidget(), static_cast<QWidget *>(&queue));
        const auto cell = [&](int row, int column) { return queue.model()->index(row, column).data().toLongLong(); };
        QCOMPARE(cell(1, ConsumeQueueModel::QueueOffsetColumn), 1);
        QCOMPARE(cell(1, ConsumeQueueModel::MessagesColumn), 4);
        QCOMPARE(cell(2, ConsumeQueueModel::QueueOffsetColumn), 5);
        QCOMPARE(cell(2, ConsumeQueueModel::PositionColumn), 2 * 46);
        QCOMPARE(queue.model()->index(2, ConsumeQueueModel::ValidColumn).data().toString(), QStringLiteral("valid"));
        test::saveScreenshot(*window, QStringLiteral("explorer-batch-consume-queue"));
    }

    // A Java 5.5 broker's topicQueueMapping.json (tests/fixtures/java-5.5.0-static-topic), clicked in
    // the store tree: one row per item of each logical queue it hosts.
    void staticTopicMappingShowsItsLogicalQueues()
    {
        QTemporaryDir dir;
        const QString root = dir.path() + QStringLiteral("/static");
        {
            store::MessageStore s(storeConfig(root, 64 * 1024));
            std::string error;
            QVERIFY2(s.open(error), error.c_str());
            QVERIFY(s.putMessage(numbered(0)).stored());
        }
        QVERIFY(QFile::copy(QStringLiteral(MQDESK_PROJECT_FIXTURES_DIR "/java-5.5.0-static-topic/config/topicQueueMapping.json"),
                            root + QStringLiteral("/config/topicQueueMapping.json")));
        auto window = openWindow(root);
        QVERIFY(waitForFirstPage(*window));
        const QModelIndex file = window->fileModel()->indexOfPath(QStringLiteral("config/topicQueueMapping.json"));
        QVERIFY(file.isValid());
        QTreeView *tree = window->fileTree();
        tree->expand(file.parent());
        tree->scrollTo(file);
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(file).center());
        QTRY_VERIFY_WITH_TIMEOUT(window->configView() && window->configView()->contentModel()
                                     && window->configView()->contentModel()->rowCount() == 3,
                                 kWait);
        ConfigFilesView &config = *window->configView();
        QCOMPARE(window->pages()->currentWidget(), static_cast<QWidget *>(&config));
        const auto cell = [&](int row, int column) { return config.contentModel()->index(row, column).data().toString(); };
        // Logical queues 2, 5 and 8 of static_b14t9l_7 in physical queues 0, 1 and 2 of java-broker-3.
        QCOMPARE(cell(0, 0), QStringLiteral("static_b14t9l_7"));
        QCOMPARE(cell(0, 1), QStringLiteral("2"));
        QCOMPARE(cell(2, 1), QStringLiteral("8"));
        QCOMPARE(cell(2, 3), QStringLiteral("java-broker-3"));
        QCOMPARE(cell(2, 4), QStringLiteral("2"));
        QCOMPARE(cell(2, 7), QStringLiteral("open"));
        QCOMPARE(cell(2, 8), QStringLiteral("leader, here"));
        QCOMPARE(cell(2, 10), QStringLiteral("9"));
        test::saveScreenshot(*window, QStringLiteral("explorer-static-topic-mapping"));
    }

    void liveStoreIsFollowed()
    {
        QTemporaryDir dir;
        const QString root = dir.path() + QStringLiteral("/live");
        auto s = std::make_unique<store::MessageStore>(storeConfig(root, 8192));
        std::string error;
        QVERIFY2(s->open(error), error.c_str());
        for (int i = 0; i < 50; ++i)
            QVERIFY(s->putMessage(numbered(i)).stored());
        auto window = openWindow(root);
        QVERIFY(window->isLive());
        QVERIFY(window->bannerText().contains(QStringLiteral("live — a broker holds this store's lock")));
        QVERIFY(window->windowTitle().contains(QStringLiteral("live")));
        RecordTableModel &model = *window->commitLogView()->model();
        QVERIFY(waitForFirstPage(*window));
        QVERIFY(fetchAll(model));
        QCOMPARE(messageRows(model), 50);
        for (int i = 50; i < 120; ++i)
            QVERIFY(s->putMessage(numbered(i)).stored());
        s->waitForDispatch();
        QTRY_COMPARE_WITH_TIMEOUT(messageRows(model), 120, kWait);
        const QModelIndex queue = window->fileModel()->indexOfQueue(QStringLiteral("U"), 0);
        QTRY_COMPARE_WITH_TIMEOUT(window->fileModel()->index(queue.row(), StoreFileModel::CountColumn, queue.parent()).data().toString(),
                                  QStringLiteral("40"), kWait);
        // New files (a second commit-log file, new queues) reset the tree; what was open stays open.
        QVERIFY(window->fileTree()->isExpanded(window->fileModel()->indexOfPath(QStringLiteral("commitlog"))));
        QCOMPARE(window->fileModel()->node(window->fileTree()->currentIndex())->relativePath, QStringLiteral("commitlog"));
        test::saveScreenshot(*window, QStringLiteral("explorer-live"));
        s->shutdown();
        s.reset();
        QTRY_VERIFY_WITH_TIMEOUT(!window->isLive(), kWait);
        QVERIFY(window->bannerText().isEmpty());
    }

    void badDirectoriesSayWhy()
    {
        QTemporaryDir dir;
        const QString missing = dir.path() + QStringLiteral("/no-such-store");
        ExplorerWindow window(missing);
        QSignalSpy failed(&window, &ExplorerWindow::openFailed);
        QVERIFY(failed.wait(kWait));
        QVERIFY(window.errorText().contains(missing));
        QVERIFY(!window.isOpen());
        window.show();
        test::saveScreenshot(window, QStringLiteral("explorer-open-failed"));

        QFile plain(dir.path() + QStringLiteral("/plain-file"));
        QVERIFY(plain.open(QIODevice::WriteOnly));
        plain.close();
        ExplorerWindow notDir(plain.fileName());
        QSignalSpy failedToo(&notDir, &ExplorerWindow::openFailed);
        QVERIFY(failedToo.wait(kWait));
        QVERIFY(notDir.errorText().contains(QStringLiteral("plain-file")));
    }

    void openedStoresAreRecent()
    {
        ExplorerWindow *window = openStoreExplorer(written_.root);
        QSignalSpy opened(window, &ExplorerWindow::opened);
        QVERIFY(opened.wait(kWait));
        QCOMPARE(recentStores().value(0), QDir::cleanPath(written_.root));
        window->close(); // WA_DeleteOnClose
    }

    // The main window's File menu: Explore Embedded Store opens the running broker's own store,
    // live; Open Recent lists it afterwards.
    void mainWindowExploresItsEmbeddedStore()
    {
        QTemporaryDir dir;
        MainWindow main(optionsFor(dir.path() + QStringLiteral("/embedded")));
        main.show();
        QTRY_COMPARE_WITH_TIMEOUT(main.brokerHost().state(), BrokerHost::State::Running, 60000);
        QMenu *file = main.menuBar()->actions().first()->menu();
        QAction *explore = nullptr;
        QAction *open = nullptr;
        for (QAction *action : file->actions()) {
            if (action->text() == QStringLiteral("&Explore Embedded Store"))
                explore = action;
            if (action->text() == QStringLiteral("&Open Store…"))
                open = action;
        }
        QVERIFY(explore && open);
        QCOMPARE(open->shortcut(), QKeySequence(QKeySequence::Open));
        const auto before = QApplication::topLevelWidgets();
        explore->trigger();
        ExplorerWindow *window = nullptr;
        for (QWidget *widget : QApplication::topLevelWidgets())
            if (!before.contains(widget))
                window = qobject_cast<ExplorerWindow *>(widget);
        QVERIFY(window);
        QTRY_VERIFY_WITH_TIMEOUT(window->isOpen() && window->fileModel()->rowCount() > 0, kWait);
        QCOMPARE(window->storeDir(), QDir::cleanPath(main.brokerHost().storeDir()));
        QVERIFY(window->isLive());
        QTRY_VERIFY_WITH_TIMEOUT(!window->commitLogView()->model()->isLoading(), kWait);
        test::saveScreenshot(*window, QStringLiteral("explorer-embedded-live"));
        QCOMPARE(recentStores().value(0), window->storeDir());
        window->close();
    }

    // Not a test of a figure: prints the time from opening a store to the first screen of records.
    // Set MQDESK_EXPLORER_BENCH_STORE to a (big) store directory to measure it.
    void timeToFirstScreen()
    {
        const QString root = qEnvironmentVariable("MQDESK_EXPLORER_BENCH_STORE");
        if (root.isEmpty())
            QSKIP("MQDESK_EXPLORER_BENCH_STORE is not set");
        measureExplorerFigures(root);
    }};

QObject *createExplorerStoresTest() { return new ExplorerStoresTest; }

#include "tst_explorer_stores.moc"
