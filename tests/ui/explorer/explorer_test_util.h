#pragma once

// Helpers of tst_explorer.cpp: a fingerprint of a directory tree, the numbered messages of the
// stores the tests write, a reader's view to compare the window with, and paging a record model
// to its end.

#include "test_support.h"

#include "broker/store/message_store.h"
#include "broker/store/reader/store_reader.h"
#include "ui/explorer/commit_log_view.h"
#include "ui/explorer/explorer_window.h"
#include "ui/explorer/record_table_model.h"
#include "ui/explorer/record_view.h"
#include "ui/explorer/store_file_model.h"
#include "ui_test_util.h"

#include <QTableView>
#include <QTreeWidget>

#include <QCryptographicHash>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QMap>

namespace mqdesk::test {

inline constexpr int kWait = 20000; // ms: generous for a loaded CI machine, never a measured figure

// Path → size, modification time and SHA-256 of every file under `root`.
inline QMap<QString, QString> fingerprint(const QString &root)
{
    QMap<QString, QString> out;
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            continue;
        QCryptographicHash hash(QCryptographicHash::Sha256);
        hash.addData(&file);
        const QFileInfo info(path);
        out[path] = QStringLiteral("%1:%2:%3").arg(info.size()).arg(info.lastModified().toMSecsSinceEpoch())
                        .arg(QString::fromLatin1(hash.result().toHex()));
    }
    return out;
}

inline store::MessageStoreConfig storeConfig(const QString &root, int64_t fileSize)
{
    store::MessageStoreConfig config;
    config.storePathRootDir = root.toStdString();
    config.mappedFileSizeCommitLog = fileSize;
    config.mappedFileSizeConsumeQueue = 20 * 500;
    config.maxHashSlotNum = 1000;
    config.maxIndexNum = 4000;
    return config;
}

// Message i: topic U (queue 0) every third, else T (queue i % 2); key k<i>; TagB every fifth.
inline common::BrokerMessage numbered(int i)
{
    common::BrokerMessage m;
    m.topic = i % 3 == 0 ? "U" : "T";
    m.queueId = m.topic == "U" ? 0 : i % 2;
    m.setBody("message-" + std::to_string(i) + "-payload");
    m.properties.set(common::property::kTags, i % 5 == 0 ? "TagB" : "TagA");
    m.properties.set(common::property::kKeys, "k" + std::to_string(i));
    m.bornTimestamp = 1700000000000;
    m.bornHost = common::HostAddress::ipv4(127, 0, 0, 1, 40000);
    return m;
}

inline std::unique_ptr<store::StoreReader> openReader(const QString &root)
{
    std::string error;
    return store::StoreReader::open(root.toStdString(), {}, error);
}

inline std::vector<store::CommitLogRecord> allMessages(const store::StoreReader &reader)
{
    store::RecordQuery query;
    query.limit = 1000000;
    query.includeMarkers = false;
    return reader.readRecords(query).records;
}

// Fetches every page of `model` (what scrolling to the end does).
inline bool fetchAll(ui::RecordTableModel &model)
{
    QElapsedTimer waited;
    waited.start();
    while (waited.elapsed() < kWait * 3) {
        if (model.isLoading()) {
            QTest::qWait(5);
            continue;
        }
        if (!model.canFetchMore({}))
            return model.isAtEnd();
        model.fetchMore({});
    }
    return false;
}

inline int messageRows(const ui::RecordTableModel &model)
{
    int count = 0;
    for (int row = 0; row < model.rowCount(); ++row)
        count += model.record(row)->kind == store::RecordKind::Message;
    return count;
}


// An explorer window over `root`, shown, once its file tree is there.
inline std::unique_ptr<ui::ExplorerWindow> openWindow(const QString &root)
{
    auto window = std::make_unique<ui::ExplorerWindow>(root);
    window->show();
    QSignalSpy tree(window.get(), &ui::ExplorerWindow::treeRefreshed);
    if (!tree.wait(kWait))
        qWarning("the explorer did not show a tree: %s", qPrintable(window->errorText()));
    return window;
}

inline bool waitForFirstPage(ui::ExplorerWindow &window)
{
    ui::RecordTableModel &model = *window.commitLogView()->model();
    return QTest::qWaitFor([&] { return !model.isLoading() && (model.rowCount() > 0 || model.isAtEnd()); }, kWait);
}

inline bool waitForRecordView(ui::RecordView &view)
{
    return QTest::qWaitFor([&] { return !view.isLoading() && view.fieldTree()->topLevelItemCount() > 0; }, kWait);
}

// The store both suites browse: 3,000 numbered messages MessageStore writes into 64 KiB
// commit-log files, and the records as the reader sees them.
struct WrittenStore
{
    QTemporaryDir dir;
    QString root;
    std::vector<store::CommitLogRecord> records;

    bool write()
    {
        root = dir.path() + QStringLiteral("/store");
        auto s = std::make_unique<store::MessageStore>(storeConfig(root, 64 * 1024));
        std::string error;
        if (!dir.isValid() || !s->open(error)) {
            qWarning("cannot open the store: %s", error.c_str());
            return false;
        }
        for (int i = 0; i < 3000; ++i)
            if (!s->putMessage(numbered(i)).stored())
                return false;
        s->shutdown();
        records = allMessages(*openReader(root));
        return records.size() == 3000;
    }
};

// Prints (qInfo) how long an ExplorerWindow over `root` takes to its first screen of records, a
// filter that matches nothing to scan the whole log, To the end, and a jump to the newest
// record's store time. Figures to report, never to assert.
inline void measureExplorerFigures(const QString &root)
{
    using namespace mqdesk::ui;
    QElapsedTimer clock;
    clock.start();
    ExplorerWindow window(root);
    window.show();
    QVERIFY(QTest::qWaitFor([&] { return window.commitLogView() && window.commitLogView()->model()->rowCount() > 0; }, 60000));
    QTableView *table = window.commitLogView()->table();
    table->viewport()->repaint(); // the rows painted: what the user sees
    const qint64 firstScreen = clock.elapsed();
    QVERIFY(QTest::qWaitFor([&] { return window.fileModel()->rowCount() > 0; }, 600000));
    qInfo("time to the first screen of records: %lld ms (%d rows; the tree after %lld ms)", firstScreen,
          window.commitLogView()->model()->rowCount(), clock.elapsed());
    saveScreenshot(window, QStringLiteral("explorer-big-store"));
    RecordTableModel &model = *window.commitLogView()->model();
    // Scrolling on: 50 more pages, each fetched when the view reaches the bottom.
    {
        GuiStallMeter stall;
        clock.restart();
        for (int page = 0; page < 50; ++page) {
            const int rows = model.rowCount();
            table->scrollToBottom();
            runEventLoopUntil([&] { return model.rowCount() > rows; }, 10000);
        }
        qInfo("scrolled on to %d rows in %lld ms; the GUI thread's longest stall: %lld ms", model.rowCount(),
              clock.elapsed(), stall.longestStallMs());
    }

    // A filter that matches nothing scans the whole log through the GUI's chunked path.
    {
        GuiStallMeter stall;
        clock.restart();
        window.commitLogView()->applyFilter({QStringLiteral("no-such-topic"), {}, {}});
        QVERIFY(runEventLoopUntil([&] { return model.isAtEnd() && !model.isLoading(); }, 120000));
        qInfo("filtered scan of the whole log (%lld bytes): %lld ms; the GUI thread's longest stall: %lld ms",
              model.nextOffset(), clock.elapsed(), stall.longestStallMs());
    }
    // To the end (the last page), then a jump to the newest record's store time.
    clock.restart();
    window.commitLogView()->jumpToEnd();
    QVERIFY(QTest::qWaitFor([&] { return !model.isLoading() && model.rowCount() > 0; }, 60000));
    qInfo("to the end (last page): %lld ms", clock.elapsed());
    const qint64 newest = model.record(model.rowCount() - 1)->message.storeTimestamp;
    QSignalSpy jumped(&model, &RecordTableModel::pageLoaded);
    clock.restart();
    window.commitLogView()->jumpToTime(QDateTime::fromMSecsSinceEpoch(newest));
    QVERIFY(jumped.wait(60000));
    qInfo("jump to the newest record's store time: %lld ms", clock.elapsed());
}

} // namespace mqdesk::test
