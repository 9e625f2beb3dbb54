#pragma once

// ExplorerWindow: one opened store, read-only — a top-level window per store (several may be
// open). The store's file tree on the left (StoreFileModel); the selected item's page on the
// right: the commit log's records and the selected record's fields and bytes (CommitLogView), a
// consume queue's entries (ConsumeQueueView), or the file's facts. The reader is opened off the
// GUI thread; a store a broker holds the lock of is followed (tree and the tables' ends every 2 s).

#include "ui/explorer/store_location.h"

#include "broker/store/reader/store_reader.h"

#include <QMainWindow>
#include <QModelIndex>

#include <memory>
#include <optional>

class QLabel;
class QStackedWidget;
class QTimer;
class QTreeView;

namespace mqdesk::ui {

class BackgroundScan;
class CheckpointView;
class CommitLogView;
class ConfigFilesView;
class ConsumeQueueView;
class HealthReportView;
class IndexFileView;
class StoreFileModel;
class TimerFileView;
struct StoreTreeNode;

class ExplorerWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit ExplorerWindow(const QString &storeDir, QWidget *parent = nullptr);
    ~ExplorerWindow() override;

    QString storeDir() const { return storeDir_; }
    bool isOpen() const { return reader_ != nullptr; }
    bool isLive() const { return live_; }
    QString errorText() const { return error_; }
    std::shared_ptr<const store::StoreReader> reader() const { return reader_; }

    // Goes to a place in the store: a commit-log file + offset → that record in the record table
    // and view; a consume-queue file + offset → the entry there (offset / 20); any other file →
    // that file in the tree. Before the store is open, it goes there once it is.
    void showLocation(const StoreLocation &location);
    // The record at commit-log `offset`: the record table jumps there and the record view shows it.
    void showRecord(qint64 offset);
    void refresh(); // F5: the tree and the page shown
    // Tools ▸ Verify Store: the health report page, its verify started.
    void verifyStore();

    // For tests and screenshots.
    QTreeView *fileTree() const { return tree_; }
    StoreFileModel *fileModel() const { return fileModel_; }
    CommitLogView *commitLogView() const { return commitLog_; }
    ConsumeQueueView *consumeQueueView() const { return queueView_; }
    // The per-kind pages, created when first shown (nullptr before).
    IndexFileView *indexView() const { return indexView_; }
    CheckpointView *checkpointView() const { return checkpointView_; }
    ConfigFilesView *configView() const { return configView_; }
    HealthReportView *healthView() const { return healthView_; }
    TimerFileView *timerView() const { return timerView_; }
    QStackedWidget *pages() const { return pages_; }
    QString bannerText() const;

signals:
    void opened();        // the reader is open and the tree shown
    void openFailed(const QString &error);
    void treeRefreshed(); // a (re)built tree is shown

private:
    struct Opened;
    void startOpen();
    void onOpened(std::shared_ptr<const store::StoreReader> reader, const store::LockState &lock);
    void buildPages();
    void buildMenus();
    void refreshTree();
    void setLive(bool live);
    void onTreeSelection();
    void showFileFacts(const StoreTreeNode &node);
    qint64 queueOffsetAt(const StoreTreeNode &file, qint64 position) const;
    // The page of an index, checkpoint / abort / lock, config or timer item, showing that item; nullptr
    // for other kinds (the file's facts are shown then).
    QWidget *viewForFileKind(const StoreTreeNode &node, qint64 offset = 0);
    // Creates a per-kind page on first use and routes its locationRequested to showLocation.
    template <typename View>
    View *ensureView(View *&view);
    // `view`->showLocation(location) once the view has listed its files.
    template <typename View>
    void showInView(View *view, const StoreLocation &location);
    void selectTreeItem(const QModelIndex &index);
    // The relative paths of the expanded tree items, to expand them again after a reset.
    QStringList expandedPaths(const QModelIndex &parent = {}) const;
    void showMessage(const QString &text);

    QString storeDir_;
    QString error_;
    std::shared_ptr<const store::StoreReader> reader_;
    BackgroundScan *openScan_ = nullptr;
    BackgroundScan *treeScan_ = nullptr;
    StoreFileModel *fileModel_ = nullptr;
    QTreeView *tree_ = nullptr;
    QStackedWidget *pages_ = nullptr;
    QLabel *placeholder_ = nullptr; // "opening…", the open error, or a file's facts
    QLabel *banner_ = nullptr;
    CommitLogView *commitLog_ = nullptr;
    ConsumeQueueView *queueView_ = nullptr;
    IndexFileView *indexView_ = nullptr;
    CheckpointView *checkpointView_ = nullptr;
    ConfigFilesView *configView_ = nullptr;
    HealthReportView *healthView_ = nullptr;
    TimerFileView *timerView_ = nullptr;
    QTimer *followTimer_ = nullptr;
    bool live_ = false;
    bool selectingProgrammatically_ = false;
    std::optional<StoreLocation> pendingLocation_;
};

} // namespace mqdesk::ui
