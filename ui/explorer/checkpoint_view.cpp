#include "ui/explorer/checkpoint_view.h"

#include "ui/explorer/background_scan.h"
#include "ui/explorer/explorer_view_util.h"

#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <iterator>

namespace mqdesk::ui {

struct CheckpointView::Snapshot
{
    std::optional<store::CheckpointValues> checkpoint;
    std::string checkpointError;
    store::AbortInfo abort;
    store::LockState lock;
};

namespace {

// Byte offset of each stored field in the checkpoint file (store-format §7); minTimestamp is
// derived, not stored.
constexpr qint64 kFieldOffsets[] = {0, 8, 16, -1, 24, 32};

} // namespace

CheckpointView::CheckpointView(std::shared_ptr<const store::StoreReader> reader, QWidget *parent)
    : QWidget(parent), reader_(std::move(reader))
{
    scan_ = new BackgroundScan(this);
    banner_ = makeBanner(this);
    model_ = new QStandardItemModel(0, 4, this);
    model_->setHorizontalHeaderLabels({tr("Field"), tr("Value"), tr("Local time"), tr("What it means")});
    table_ = makeExplorerTable(model_, tr("checkpoint.csv"), [this](const QString &outcome) {
        showBanner(banner_, outcome, false);
    }, this);
    table_->setSortingEnabled(false); // the rows follow the file's layout
    table_->setWordWrap(true);
    table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // the meanings wrap instead
    connect(table_->horizontalHeader(), &QHeaderView::sectionResized, table_, &QTableView::resizeRowsToContents);
    connect(table_, &QTableView::activated, this, [this](const QModelIndex &index) {
        const qint64 offset = kFieldOffsets[index.row()];
        if (offset >= 0)
            emit locationRequested({QStringLiteral("checkpoint"), offset});
    });

    abort_ = new QLabel(this);
    lock_ = new QLabel(this);
    for (QLabel *label : {abort_, lock_}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    auto *files = new QGroupBox(tr("Abort file and lock"), this);
    auto *filesLayout = new QVBoxLayout(files);
    filesLayout->addWidget(abort_);
    filesLayout->addWidget(lock_);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(banner_);
    layout->addWidget(table_, 1);
    layout->addWidget(files);
    reload();
}

bool CheckpointView::isLoading() const { return scan_->isRunning(); }
QString CheckpointView::bannerText() const { return banner_->isHidden() ? QString() : banner_->text(); }
QString CheckpointView::abortText() const { return abort_->text(); }
QString CheckpointView::lockText() const { return lock_->text(); }

bool CheckpointView::showLocation(const StoreLocation &location)
{
    if (location.file != QStringLiteral("checkpoint") || location.offset < 0)
        return false;
    const auto *field = std::find(std::begin(kFieldOffsets), std::end(kFieldOffsets), location.offset);
    const int row = static_cast<int>(field - std::begin(kFieldOffsets));
    if (field == std::end(kFieldOffsets) || row >= model_->rowCount())
        return false;
    table_->selectRow(row);
    return true;
}

void CheckpointView::reload()
{
    scan_->start([reader = reader_](const store::ScanProgress &) {
        Snapshot snapshot;
        snapshot.checkpoint = reader->readCheckpoint(&snapshot.checkpointError);
        snapshot.abort = reader->readAbort();
        snapshot.lock = reader->probeLock();
        return snapshot;
    }, [this](const Snapshot &snapshot) {
        showSnapshot(snapshot);
        emit loaded();
    });
}

void CheckpointView::showSnapshot(const Snapshot &snapshot)
{
    model_->removeRows(0, model_->rowCount());
    if (!snapshot.checkpoint) {
        showBanner(banner_, tr("No checkpoint to show: %1/checkpoint: %2")
                                .arg(qtText(reader_->rootDir()), qtText(snapshot.checkpointError)), true);
    } else {
        showBanner(banner_, QString(), false);
        const store::CheckpointValues &c = *snapshot.checkpoint;
        const auto addTime = [this](const QString &field, qint64 millis, const QString &meaning) {
            model_->appendRow({textItem(field), numberItem(millis), textItem(localTimeText(millis)), textItem(meaning)});
        };
        const auto addOffset = [this](const QString &field, qint64 offset, const QString &meaning) {
            model_->appendRow({textItem(field), numberItem(offset), textItem(QString()), textItem(meaning)});
        };
        addTime(QStringLiteral("physicMsgTimestamp"), c.physicMsgTimestamp,
                tr("Store time of the last commit-log record known to be flushed to disk."));
        addTime(QStringLiteral("logicsMsgTimestamp"), c.logicsMsgTimestamp,
                tr("Store time of the last record whose consume-queue entry was flushed."));
        addTime(QStringLiteral("indexMsgTimestamp"), c.indexMsgTimestamp,
                tr("End time of the last completely filled index file that was flushed; after a crash, "
                   "index files ending later are deleted and rebuilt."));
        addTime(QStringLiteral("minTimestamp"), c.minTimestamp(),
                tr("min(physic, logics) − 3 s: abnormal recovery starts from the newest commit-log file whose "
                   "first record is older than this (the file before the one holding it), so nothing written "
                   "after the last flush is trusted."));
        addOffset(QStringLiteral("masterFlushedOffset"), c.masterFlushedOffset,
                  tr("HA: the master's flushed commit-log offset as a slave last saw it (0 on a master)."));
        addOffset(QStringLiteral("confirmPhyOffset"), c.confirmPhyOffset,
                  tr("Commit-log confirm offset: set at recovery to the start of the last valid record."));
        for (int column : {FieldColumn, ValueColumn, LocalTimeColumn})
            table_->resizeColumnToContents(column);
        table_->resizeRowsToContents();
    }

    const store::AbortInfo &abort = snapshot.abort;
    abort_->setText(abort.present
                        ? tr("abort: present — the broker did not stop cleanly; its next start runs abnormal "
                             "recovery (from the checkpoint's minTimestamp)%1.")
                              .arg(abort.content.empty() ? QString() : tr(", pid %1").arg(qtText(abort.content)))
                        : tr("abort: absent — the last stop was clean; the next start runs normal recovery."));
    const store::LockState &lock = snapshot.lock;
    QString lockText;
    if (!lock.error.empty())
        lockText = tr("lock: cannot be probed: %1").arg(qtText(lock.error));
    else if (!lock.present)
        lockText = tr("lock: absent.");
    else if (!lock.live)
        lockText = tr("lock: present, not held — no broker runs on this store.");
    else if (lock.holderPid > 0)
        lockText = tr("lock: held by process %1 — a broker runs on this store; what is shown may change.")
                       .arg(lock.holderPid);
    else
        lockText = tr("lock: held by a running broker (its pid is not told by this kind of lock); what is "
                      "shown may change.");
    lock_->setText(lockText);
}

} // namespace mqdesk::ui
