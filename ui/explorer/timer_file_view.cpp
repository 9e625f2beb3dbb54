#include "ui/explorer/timer_file_view.h"

#include "ui/explorer/background_scan.h"
#include "ui/explorer/explorer_view_util.h"
#include "ui/explorer/hex_view.h"
#include "ui/explorer/timer_entry_model.h"

#include "broker/store/reader/store_timer_reader.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace mqdesk::ui {

TimerFileView::TimerFileView(std::shared_ptr<const store::StoreReader> reader, QWidget *parent)
    : QWidget(parent), reader_(std::move(reader))
{
    faultScan_ = new BackgroundScan(this);
    bytesScan_ = new BackgroundScan(this);
    banner_ = makeBanner(this);
    model_ = new TimerEntryModel(reader_, this);
    table_ = makeExplorerTable(model_, tr("timer.csv"), [this](const QString &outcome) {
        showBanner(banner_, outcome, false);
    }, this);
    table_->setSortingEnabled(false); // rows follow the file; sorting would only sort the pages read
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    hex_ = new HexView(this);
    findings_ = new QListWidget(this);
    findings_->setWordWrap(true);

    auto *lower = new QSplitter(Qt::Horizontal, this);
    lower->addWidget(hex_);
    lower->addWidget(findings_);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(table_);
    splitter->addWidget(lower);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(banner_);
    layout->addWidget(splitter, 1);

    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &TimerFileView::onSelection);
    connect(model_, &TimerEntryModel::modelReset, this, [this] {
        connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &TimerFileView::onSelection,
                Qt::UniqueConnection);
    });
    connect(model_, &TimerEntryModel::fetched, this, &TimerFileView::onFetched);
    // Enter / double-click on a timer-log unit: its message in rmq_sys_wheel_timer.
    connect(table_, &QTableView::activated, this, [this](const QModelIndex &index) {
        if (model_->mode() != TimerEntryModel::Mode::Log || !index.isValid())
            return;
        bool ok = false;
        const qint64 offset = model_->row(index.row()).cells.value(10).toLongLong(&ok);
        const store::CommitLogSnapshot log = reader_->commitLogSnapshot();
        if (ok)
            if (const auto location = commitLogLocation(*reader_, log, offset))
                emit locationRequested(*location);
    });
}

bool TimerFileView::isLoading() const { return model_->isFetching() || faultScan_->isRunning(); }
QString TimerFileView::bannerText() const { return banner_->isHidden() ? QString() : banner_->text(); }

bool TimerFileView::showLocation(const StoreLocation &location) { return open(location, false); }

bool TimerFileView::open(const StoreLocation &location, bool reread)
{
    if (TimerEntryModel::modeOf(location.file) == TimerEntryModel::Mode::None)
        return false;
    pendingPosition_ = qMax<qint64>(location.offset, 0);
    if (!reread && location.file == model_->file() && model_->rowCount() > 0) {
        model_->fetchUntil(location.file, pendingPosition_);
        return true;
    }
    model_->setFile(location.file);
    faultsRead_ = false;
    faultScan_->start([reader = reader_](const store::ScanProgress &) { return store::verifyTimerFiles(*reader); },
                      [this](std::vector<store::StoreFault> faults) {
                          faults_ = std::move(faults);
                          faultsRead_ = true;
                          onSelection();
                          if (!model_->isFetching())
                              emit loaded();
                      });
    return true;
}

void TimerFileView::reload()
{
    if (model_->file().isEmpty())
        return;
    const int row = table_->currentIndex().row();
    open({model_->file(), row >= 0 && row < model_->rowCount() ? model_->row(row).position : 0}, true);
}

void TimerFileView::onFetched()
{
    if (!model_->error().isEmpty())
        showBanner(banner_, model_->error(), true);
    else if (model_->rowCount() == 0)
        showBanner(banner_, tr("%1 holds no entries.").arg(model_->file()), false);
    else
        showBanner(banner_, QString(), false);
    if (pendingPosition_ >= 0) {
        const qint64 position = pendingPosition_;
        const int row = model_->rowOf(model_->file(), position);
        if (row < 0 && position > 0 && model_->canFetchMore({})) {
            model_->fetchUntil(model_->file(), position); // a later page holds it; fetched() again
            return;
        }
        pendingPosition_ = -1;
        if (row >= 0)
            table_->selectRow(row);
        else if (model_->rowCount() > 0 && position == 0)
            table_->selectRow(0);
    }
    table_->resizeColumnsToContents();
    if (!faultScan_->isRunning())
        emit loaded();
}

void TimerFileView::onSelection()
{
    findings_->clear();
    const int row = table_->currentIndex().row();
    if (row < 0 || row >= model_->rowCount()) {
        hex_->setBytes({}, 0);
        return;
    }
    const TimerEntryModel::Row &entry = model_->row(row);
    bytesScan_->start([reader = reader_, file = entry.file.toStdString(), position = entry.position,
                       length = entry.length](const store::ScanProgress &) {
        return store::readFileBytes(*reader, file, position, length);
    }, [this, position = entry.position](std::vector<uint8_t> bytes) {
        hex_->setBytes(QByteArray(reinterpret_cast<const char *>(bytes.data()), static_cast<qsizetype>(bytes.size())), position);
    });
    if (!faultsRead_) {
        findings_->addItem(tr("Checking the timer files…"));
        return;
    }
    for (const auto &fault : faults_) {
        if (qtText(fault.file) == entry.file && fault.offset >= entry.position && fault.offset < entry.position + qMax<qint64>(entry.length, 1))
            findings_->addItem(QStringLiteral("%1: %2").arg(qtText(fault.kind), qtText(fault.message)));
    }
    if (findings_->count() == 0)
        findings_->addItem(tr("No health findings for these bytes."));
}

} // namespace mqdesk::ui
