#include "ui/explorer/explorer_window.h"

#include "ui/explorer/background_scan.h"
#include "ui/explorer/checkpoint_view.h"
#include "ui/explorer/commit_log_view.h"
#include "ui/explorer/config_files_view.h"
#include "ui/explorer/explorer_actions.h"
#include "ui/explorer/consume_queue_view.h"
#include "ui/explorer/health_report_view.h"
#include "ui/explorer/index_file_view.h"
#include "ui/explorer/record_view.h"
#include "ui/explorer/store_file_model.h"
#include "ui/explorer/timer_entry_model.h"
#include "ui/explorer/timer_file_view.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

namespace mqdesk::ui {

namespace {
constexpr int kFollowIntervalMs = 2000;
constexpr qint64 kEntrySize = store::SimpleConsumeQueue::kEntrySize;
} // namespace

// The queue offset of the entry at byte `position` of a consume-queue file: by its place in a
// SimpleCQ file, the unit's own in a BatchCQ one (its first message).
qint64 ExplorerWindow::queueOffsetAt(const StoreTreeNode &file, qint64 position) const
{
    if (!file.relativePath.startsWith(QLatin1String("batchconsumequeue/")))
        return (file.startOffset + position) / kEntrySize;
    constexpr qint64 unit = store::BatchConsumeQueue::kUnitSize;
    const auto view = reader_->view(file.relativePath.toStdString());
    const qint64 at = position / unit * unit;
    if (!view || at + unit > static_cast<qint64>(view->bytes().size()))
        return file.rangeStart;
    return store::BatchConsumeQueue::readUnit(view->bytes().data() + at).queueOffset;
}

struct ExplorerWindow::Opened
{
    std::shared_ptr<const store::StoreReader> reader;
    store::LockState lock;
    QString error;
};

ExplorerWindow::ExplorerWindow(const QString &storeDir, QWidget *parent)
    : QMainWindow(parent), storeDir_(QDir::cleanPath(QFileInfo(storeDir).absoluteFilePath())),
      openScan_(new BackgroundScan(this)), treeScan_(new BackgroundScan(this)), followTimer_(new QTimer(this))
{
    setWindowTitle(tr("%1 — MQDesk Store Explorer").arg(QDir::toNativeSeparators(storeDir_)));
    resize(1480, 900);
    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    banner_ = new QLabel(central);
    banner_->setWordWrap(true);
    banner_->setMargin(6);
    banner_->setStyleSheet(QStringLiteral("background: palette(highlight); color: palette(highlighted-text);"));
    banner_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    banner_->hide();
    placeholder_ = new QLabel(tr("Opening %1…").arg(QDir::toNativeSeparators(storeDir_)), central);
    placeholder_->setAlignment(Qt::AlignCenter);
    placeholder_->setWordWrap(true);
    placeholder_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    pages_ = new QStackedWidget(central);
    pages_->addWidget(placeholder_);
    layout->addWidget(banner_);
    layout->addWidget(pages_, 1);
    setCentralWidget(central);
    followTimer_->setInterval(kFollowIntervalMs);
    connect(followTimer_, &QTimer::timeout, this, &ExplorerWindow::refreshTree);
    startOpen();
}

ExplorerWindow::~ExplorerWindow() = default;

QString ExplorerWindow::bannerText() const { return banner_->isVisible() ? banner_->text() : QString(); }

void ExplorerWindow::startOpen()
{
    const std::string dir = storeDir_.toStdString();
    openScan_->start(
        [dir](const store::ScanProgress &) {
            Opened opened;
            std::string error;
            std::shared_ptr<const store::StoreReader> reader = store::StoreReader::open(dir, {}, error);
            if (!reader) {
                opened.error = QString::fromStdString(error);
                return opened;
            }
            opened.lock = reader->probeLock();
            opened.reader = std::move(reader);
            return opened;
        },
        [this](Opened opened) {
            if (!opened.reader) {
                error_ = tr("Cannot open the store %1: %2").arg(QDir::toNativeSeparators(storeDir_), opened.error);
                placeholder_->setText(error_);
                emit openFailed(error_);
                return;
            }
            onOpened(std::move(opened.reader), opened.lock);
        });
}

void ExplorerWindow::onOpened(std::shared_ptr<const store::StoreReader> reader, const store::LockState &lock)
{
    reader_ = std::move(reader);
    buildPages();
    buildMenus();
    setLive(lock.live);
    // The records come first: the tree needs every file listed and the log's end found, which
    // takes longer on a big store than one page of records.
    pages_->setCurrentWidget(commitLog_);
    commitLog_->showFromStart();
    refreshTree();
    emit opened();
}

void ExplorerWindow::buildPages()
{
    fileModel_ = new StoreFileModel(this);
    tree_ = new QTreeView(this);
    tree_->setModel(fileModel_);
    tree_->setUniformRowHeights(true);
    tree_->header()->setStretchLastSection(false);
    commitLog_ = new CommitLogView(reader_, this);
    queueView_ = new ConsumeQueueView(reader_, this);
    pages_->addWidget(commitLog_);
    pages_->addWidget(queueView_);
    // The pages move from the central widget into the splitter, right of the tree.
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    centralWidget()->layout()->removeWidget(pages_);
    splitter->addWidget(tree_);
    splitter->addWidget(pages_);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({470, 1010});
    static_cast<QVBoxLayout *>(centralWidget()->layout())->addWidget(splitter, 1);
    connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this, &ExplorerWindow::onTreeSelection);
    connect(commitLog_, &CommitLogView::message, this, &ExplorerWindow::showMessage);
    connect(queueView_, &ConsumeQueueView::message, this, &ExplorerWindow::showMessage);
    connect(queueView_, &ConsumeQueueView::recordRequested, this, &ExplorerWindow::showRecord);
}

void ExplorerWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    addStoreExplorerActions(file, this, {});
    file->addAction(tr("&Close"), QKeySequence::Close, this, &QWidget::close);
    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Refresh"), QKeySequence::Refresh, this, &ExplorerWindow::refresh);
    view->addAction(tr("&Find Records…"), QKeySequence::Find, this, [this] {
        if (!commitLog_)
            return;
        selectTreeItem(fileModel_->indexOfPath(QStringLiteral("commitlog")));
        commitLog_->focusFilter();
    });
    QMenu *tools = menuBar()->addMenu(tr("&Tools"));
    tools->addAction(tr("&Verify Store"), this, &ExplorerWindow::verifyStore);
}

void ExplorerWindow::verifyStore()
{
    if (!reader_)
        return;
    pages_->setCurrentWidget(ensureView(healthView_));
    healthView_->verify();
}

template <typename View>
View *ExplorerWindow::ensureView(View *&view)
{
    if (!view) {
        view = new View(reader_, this);
        pages_->addWidget(view);
        connect(view, &View::locationRequested, this, &ExplorerWindow::showLocation);
    }
    return view;
}

void ExplorerWindow::setLive(bool live)
{
    live_ = live;
    if (live) {
        banner_->setText(tr("live — a broker holds this store's lock; the view follows it every 2 s"));
        banner_->show();
        followTimer_->start();
    } else {
        banner_->hide();
        followTimer_->stop();
    }
    setWindowTitle((live ? tr("%1 (live) — MQDesk Store Explorer") : tr("%1 — MQDesk Store Explorer"))
                       .arg(QDir::toNativeSeparators(storeDir_)));
}

void ExplorerWindow::refreshTree()
{
    if (!reader_ || treeScan_->isRunning())
        return;
    auto reader = reader_;
    struct Tree
    {
        std::shared_ptr<StoreTreeNode> root;
        bool live = false;
    };
    treeScan_->start(
        [reader](const store::ScanProgress &) {
            Tree tree;
            tree.root = buildStoreTree(*reader);
            tree.live = reader->probeLock().live;
            return tree;
        },
        [this](Tree tree) {
            const bool first = fileModel_->rowCount() == 0;
            // A live store's new files reset the tree: expansion and the current item come back.
            const QStringList expanded = expandedPaths();
            const QString current = first ? QString() : fileModel_->node(tree_->currentIndex())->relativePath;
            if (fileModel_->setTree(std::move(tree.root)) && !first) {
                for (const QString &path : expanded)
                    tree_->expand(fileModel_->indexOfPath(path));
                for (int column = StoreFileModel::SizeColumn; column < StoreFileModel::ColumnCount; ++column)
                    tree_->resizeColumnToContents(column);
                if (!current.isEmpty()) {
                    selectingProgrammatically_ = true; // the page shown stays as it is
                    selectTreeItem(fileModel_->indexOfPath(current));
                    selectingProgrammatically_ = false;
                }
            }
            if (tree.live != live_)
                setLive(tree.live);
            if (first) {
                tree_->expandToDepth(0);
                for (int column = 0; column < StoreFileModel::ColumnCount; ++column)
                    tree_->resizeColumnToContents(column);
                if (!pendingLocation_ && pages_->currentWidget() == commitLog_) {
                    selectingProgrammatically_ = true; // the page already shows the log
                    selectTreeItem(fileModel_->indexOfPath(QStringLiteral("commitlog")));
                    selectingProgrammatically_ = false;
                }
            }
            if (live_) {
                commitLog_->followEnd();
                queueView_->followEnd();
            }
            if (pendingLocation_) {
                const StoreLocation location = *pendingLocation_;
                pendingLocation_.reset();
                showLocation(location);
            }
            emit treeRefreshed();
        });
}

void ExplorerWindow::refresh()
{
    refreshTree();
    QWidget *page = pages_->currentWidget();
    if (page == commitLog_)
        commitLog_->refresh();
    else if (page == queueView_)
        queueView_->refresh();
    else if (page && page == indexView_)
        indexView_->reload();
    else if (page && page == checkpointView_)
        checkpointView_->reload();
    else if (page && page == configView_)
        configView_->reload();
    else if (page && page == healthView_)
        healthView_->reload();
    else if (page && page == timerView_)
        timerView_->reload();
}

QStringList ExplorerWindow::expandedPaths(const QModelIndex &parent) const
{
    QStringList paths;
    for (int row = 0; row < fileModel_->rowCount(parent); ++row) {
        const QModelIndex index = fileModel_->index(row, 0, parent);
        if (!tree_->isExpanded(index))
            continue;
        paths << fileModel_->node(index)->relativePath;
        paths << expandedPaths(index);
    }
    return paths;
}

void ExplorerWindow::selectTreeItem(const QModelIndex &index)
{
    if (!index.isValid())
        return;
    tree_->scrollTo(index);
    tree_->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

void ExplorerWindow::onTreeSelection()
{
    if (selectingProgrammatically_)
        return;
    const StoreTreeNode *node = fileModel_->node(tree_->currentIndex());
    if (!node || node == fileModel_->node({}))
        return;
    if (node->kind == store::StoreFileKind::CommitLog && node->type == StoreTreeNode::Type::Group) {
        pages_->setCurrentWidget(commitLog_);
        commitLog_->showFromStart();
    } else if (node->kind == store::StoreFileKind::CommitLog && node->startOffset >= 0) {
        pages_->setCurrentWidget(commitLog_);
        commitLog_->jumpToOffset(node->startOffset);
    } else if (node->queueId >= 0) {
        pages_->setCurrentWidget(queueView_);
        queueView_->showQueue(node->topic, node->queueId, qMax<qint64>(node->rangeStart, 0));
    } else if (QWidget *view = viewForFileKind(*node)) {
        pages_->setCurrentWidget(view);
    } else {
        showFileFacts(*node);
    }
}

template <typename View>
void ExplorerWindow::showInView(View *view, const StoreLocation &location)
{
    if (!view->isLoading()) {
        view->showLocation(location);
        return;
    }
    auto once = std::make_shared<QMetaObject::Connection>();
    *once = connect(view, &View::loaded, this, [view, location, once] {
        disconnect(*once);
        view->showLocation(location);
    });
}

QWidget *ExplorerWindow::viewForFileKind(const StoreTreeNode &node, qint64 offset)
{
    const bool file = node.type == StoreTreeNode::Type::File;
    if (file && TimerEntryModel::modeOf(node.relativePath) != TimerEntryModel::Mode::None) {
        showInView(ensureView(timerView_), {node.relativePath, offset});
        return timerView_;
    }
    switch (node.kind) {
    case store::StoreFileKind::Index:
        if (file)
            showInView(ensureView(indexView_), {node.relativePath, offset});
        return ensureView(indexView_);
    case store::StoreFileKind::Config:
        if (file)
            showInView(ensureView(configView_), {node.relativePath, offset});
        return ensureView(configView_);
    case store::StoreFileKind::Checkpoint:
    case store::StoreFileKind::Abort:
    case store::StoreFileKind::Lock: return ensureView(checkpointView_);
    default: return nullptr;
    }
}

void ExplorerWindow::showFileFacts(const StoreTreeNode &node)
{
    const QLocale locale;
    QString text = QStringLiteral("<b>%1</b>").arg(node.relativePath.isEmpty() ? node.name.toHtmlEscaped() : node.relativePath.toHtmlEscaped());
    text += QStringLiteral("<br>") + tr("Kind: %1").arg(QString::fromUtf8(store::storeFileKindName(node.kind).data(),
                                                                         static_cast<qsizetype>(store::storeFileKindName(node.kind).size())));
    if (node.size >= 0)
        text += QStringLiteral("<br>") + tr("Size: %1 (%2 bytes)").arg(locale.formattedDataSize(node.size), locale.toString(node.size));
    if (node.count >= 0)
        text += QStringLiteral("<br>") + tr("Entries: %1").arg(locale.toString(node.count));
    if (node.rangeStart >= 0)
        text += QStringLiteral("<br>") + tr("Commit-log range: %1 – %2").arg(locale.toString(node.rangeStart), locale.toString(node.rangeEnd));
    if (node.type == StoreTreeNode::Type::Group)
        text += QStringLiteral("<br>") + tr("%n item(s)", nullptr, static_cast<int>(node.children.size()));
    placeholder_->setText(text);
    pages_->setCurrentWidget(placeholder_);
}

void ExplorerWindow::showRecord(qint64 offset)
{
    if (!commitLog_)
        return;
    selectingProgrammatically_ = true;
    selectTreeItem(fileModel_->indexOfPath(QStringLiteral("commitlog")));
    selectingProgrammatically_ = false;
    pages_->setCurrentWidget(commitLog_);
    commitLog_->showRecordAt(offset);
}

void ExplorerWindow::showLocation(const StoreLocation &location)
{
    if (!reader_ || fileModel_->rowCount() == 0) {
        pendingLocation_ = location;
        return;
    }
    const QModelIndex index = fileModel_->indexOfPath(location.file);
    const StoreTreeNode *node = index.isValid() ? fileModel_->node(index) : nullptr;
    if (!node) {
        showMessage(tr("%1 is not in this store (any more).").arg(location.file));
        return;
    }
    if (node->kind == store::StoreFileKind::CommitLog && node->startOffset >= 0) {
        showRecord(node->startOffset + location.offset);
    } else if (node->kind == store::StoreFileKind::ConsumeQueue && node->queueId >= 0 && node->startOffset >= 0) {
        selectingProgrammatically_ = true;
        selectTreeItem(index);
        selectingProgrammatically_ = false;
        pages_->setCurrentWidget(queueView_);
        queueView_->showQueue(node->topic, node->queueId, queueOffsetAt(*node, location.offset));
    } else {
        selectingProgrammatically_ = true;
        selectTreeItem(index);
        selectingProgrammatically_ = false;
        if (QWidget *view = viewForFileKind(*node, location.offset))
            pages_->setCurrentWidget(view);
        else
            showFileFacts(*node);
    }
}

void ExplorerWindow::showMessage(const QString &text) { statusBar()->showMessage(text, 10000); }

} // namespace mqdesk::ui
