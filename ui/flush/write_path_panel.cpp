#include "ui/flush/write_path_panel.h"

#include <QAbstractTableModel>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableView>
#include <QVBoxLayout>

namespace mqdesk::ui {

// One row per (write path, flush mode) the monitor holds seconds of; replaced whole every
// second (a handful of rows).
class WritePathCostModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { WritePath, FlushMode, BusySeconds, PutTps, AckP50, AckP99, FlushP50, WarmUps, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;

    void setCosts(const std::vector<FlushSeries::WritePathCost> &costs)
    {
        if (costs.size() != costs_.size()) {
            beginResetModel();
            costs_ = costs;
            endResetModel();
            return;
        }
        costs_ = costs;
        if (!costs_.empty())
            emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    }

    int rowCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : static_cast<int>(costs_.size());
    }
    int columnCount(const QModelIndex &parent = {}) const override { return parent.isValid() ? 0 : ColumnCount; }

    QVariant data(const QModelIndex &index, int role) const override
    {
        if (!index.isValid() || index.row() >= rowCount())
            return {};
        const FlushSeries::WritePathCost &c = costs_[static_cast<size_t>(index.row())];
        if (role == Qt::TextAlignmentRole)
            return index.column() >= BusySeconds && index.column() != WarmUps
                       ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                       : QVariant();
        if (role != Qt::DisplayRole)
            return {};
        const QLocale locale;
        const auto number = [&locale](int64_t value) { return locale.toString(static_cast<qlonglong>(value)); };
        switch (index.column()) {
        case WritePath: return FlushSeries::writePathName(c.writeWithoutMmap);
        case FlushMode: return c.flushMode;
        case BusySeconds: return number(c.busySeconds);
        case PutTps: return number(c.putTps);
        case AckP50: return number(c.putToAckP50Micros);
        case AckP99: return number(c.putToAckP99Micros);
        case FlushP50: return c.flushP50Micros > 0 ? number(c.flushP50Micros) : QStringLiteral("–");
        case WarmUps: return WritePathPanel::warmUpText(c.warmUps, c.warmedBytes, c.warmMicros);
        default: return {};
        }
    }

    QVariant headerData(int section, Qt::Orientation orientation, int role) const override
    {
        if (orientation != Qt::Horizontal)
            return {};
        if (role == Qt::ToolTipRole && section >= PutTps && section <= FlushP50)
            return tr("The median of the per-second figures over the busy seconds");
        if (role != Qt::DisplayRole)
            return {};
        switch (section) {
        case WritePath: return tr("Write path");
        case FlushMode: return tr("Flush mode");
        case BusySeconds: return tr("Seconds with puts");
        case PutTps: return tr("Put TPS");
        case AckP50: return tr("Put-to-ack p50 (µs)");
        case AckP99: return tr("Put-to-ack p99 (µs)");
        case FlushP50: return tr("Flush p50 (µs)");
        case WarmUps: return tr("File warm-ups");
        default: return {};
        }
    }

private:
    std::vector<FlushSeries::WritePathCost> costs_;
};

WritePathPanel::WritePathPanel(QWidget *parent) : QWidget(parent)
{
    mmapBox_ = new QCheckBox(tr("Write without mmap (pwrite)"), this);
    mmapBox_->setObjectName(QStringLiteral("writeWithoutMmapBox"));
    mmapBox_->setToolTip(tr("writeWithoutMmap, applied live with UPDATE_BROKER_CONFIG: appends go through "
                            "pwrite instead of a copy into the mapped file. Usually faster with SYNC_FLUSH, "
                            "slower with ASYNC_FLUSH: compare the rows below."));
    mmapBox_->setEnabled(false);
    connect(mmapBox_, &QCheckBox::clicked, this, [this](bool on) {
        setSwitchPending(true);
        emit writeWithoutMmapRequested(on);
    });
    knobs_ = new QLabel(this);
    knobs_->setObjectName(QStringLiteral("writePathKnobs"));
    knobs_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    knobs_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // clipped, never widening
    knobs_->setToolTip(tr("useReentrantLockWhenPutMessage, warmMapedFileEnable and "
                          "flushLeastPagesWhenWarmMapedFile are read from broker.conf when the broker starts"));

    model_ = new WritePathCostModel(this);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("writePathCosts"));
    table_->setModel(model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setToolTip(tr("What each write path cost under each flush mode over the seconds this monitor "
                          "holds. Switch writeWithoutMmap or the flush mode under the same load to compare."));
    // Room for a header and four rows: enough for both write paths under two flush modes.
    table_->setMaximumHeight(table_->horizontalHeader()->sizeHint().height()
                             + 4 * table_->verticalHeader()->defaultSectionSize() + 4);

    auto *row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(mmapBox_);
    row->addWidget(knobs_, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(table_);
}

QString WritePathPanel::warmUpText(int64_t files, int64_t bytes, int64_t micros)
{
    if (files <= 0)
        return tr("none yet");
    const QLocale locale;
    const auto millis = [&locale](int64_t us) { return locale.toString(static_cast<double>(us) / 1000.0, 'f', 0); };
    if (files == 1)
        return tr("1 file, %1 in %2 ms").arg(locale.formattedDataSize(bytes), millis(micros));
    return tr("%1 files, %2 in %3 ms (%4 ms a file)")
        .arg(QString::number(files), locale.formattedDataSize(bytes), millis(micros), millis(micros / files));
}

void WritePathPanel::showState(const client::WritePathState &state)
{
    known_ = state.known;
    if (!state.known) {
        showUnavailable(tr("This broker does not report its write path."));
        return;
    }
    if (!pending_) {
        mmapBox_->setEnabled(true);
        mmapBox_->setChecked(state.writeWithoutMmap);
    }
    const QString lock = state.useReentrantLockWhenPutMessage ? tr("mutex") : tr("spin lock");
    const QString warm = state.warmMapedFileEnable
                             ? tr("on, fdatasync every %1 pages; so far %2")
                                   .arg(state.flushLeastPagesWhenWarmMapedFile)
                                   .arg(warmUpText(state.warmUps, state.warmedBytes, state.warmMicros))
                             : tr("off");
    const QString text = tr("Put lock: %1 · File warm-up: %2").arg(lock, warm);
    if (knobs_->text() != text)
        knobs_->setText(text);
}

void WritePathPanel::showUnavailable(const QString &why)
{
    known_ = false;
    mmapBox_->setEnabled(false);
    if (knobs_->text() != why)
        knobs_->setText(why);
}

void WritePathPanel::showCosts(const std::vector<FlushSeries::WritePathCost> &costs)
{
    model_->setCosts(costs);
}

void WritePathPanel::setSwitchPending(bool pending)
{
    pending_ = pending;
    mmapBox_->setEnabled(!pending && known_);
}

QString WritePathPanel::knobsText() const
{
    return knobs_->text();
}

} // namespace mqdesk::ui

#include "write_path_panel.moc"
