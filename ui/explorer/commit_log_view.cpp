#include "ui/explorer/commit_log_view.h"

#include "ui/explorer/background_scan.h"

#include "broker/common/message_id.h"
#include "ui/explorer/explorer_view_util.h"
#include "ui/explorer/record_view.h"

#include <QDateTimeEdit>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace mqdesk::ui {

CommitLogView::CommitLogView(std::shared_ptr<const store::StoreReader> reader, QWidget *parent)
    : QWidget(parent), reader_(std::move(reader)), model_(new RecordTableModel(reader_, this)),
      timeLookup_(new BackgroundScan(this))
{
    table_ = makeExplorerTable(model_, tr("records.csv"), [this](const QString &outcome) { emit message(outcome); }, this);
    keepLogOrder(table_);
    recordView_ = new RecordView(reader_, this);
    // The record below the table: its hex pane needs the width of 16 bytes twice over.
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(table_);
    splitter->addWidget(recordView_);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(buildToolbar());
    layout->addWidget(splitter, 1);

    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &CommitLogView::onCurrentRowChanged);
    connect(model_, &RecordTableModel::pageLoaded, this, &CommitLogView::onPageLoaded);
    connect(model_, &RecordTableModel::scanProgress, this, &CommitLogView::onScanProgress);
    connect(model_, &RecordTableModel::loadingChanged, this, &CommitLogView::updateStatus);
    connect(model_, &QAbstractItemModel::modelReset, this, [this] { recordView_->clear(); });
}

QWidget *CommitLogView::buildToolbar()
{
    auto *bar = new QWidget(this);
    offsetEdit_ = new QLineEdit(bar);
    offsetEdit_->setPlaceholderText(tr("commit-log offset or offset msgId"));
    offsetEdit_->setClearButtonEnabled(true);
    auto *goOffset = new QPushButton(tr("Go to offset"), bar);
    timeEdit_ = new QDateTimeEdit(QDateTime::currentDateTime(), bar);
    timeEdit_->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
    timeEdit_->setCalendarPopup(true);
    auto *goTime = new QPushButton(tr("Go to time"), bar);
    auto *fromStart = new QPushButton(tr("From the start"), bar);
    auto *toEnd = new QPushButton(tr("To the end"), bar);
    topicEdit_ = new QLineEdit(bar);
    topicEdit_->setPlaceholderText(tr("topic"));
    tagEdit_ = new QLineEdit(bar);
    tagEdit_->setPlaceholderText(tr("tag (A || B)"));
    keyEdit_ = new QLineEdit(bar);
    keyEdit_->setPlaceholderText(tr("key or UNIQ_KEY"));
    for (QLineEdit *edit : {topicEdit_, tagEdit_, keyEdit_})
        edit->setClearButtonEnabled(true);
    auto *filter = new QPushButton(tr("Filter"), bar);
    progress_ = new QProgressBar(bar);
    progress_->setRange(0, 1000);
    progress_->setTextVisible(true);
    progress_->hide();
    cancel_ = new QPushButton(tr("Cancel"), bar);
    cancel_->hide();
    resume_ = new QPushButton(tr("Continue"), bar);
    resume_->hide();
    status_ = new QLabel(bar);

    auto *jumps = new QHBoxLayout;
    jumps->addWidget(offsetEdit_, 1);
    jumps->addWidget(goOffset);
    jumps->addWidget(timeEdit_);
    jumps->addWidget(goTime);
    jumps->addWidget(fromStart);
    jumps->addWidget(toEnd);
    auto *filters = new QHBoxLayout;
    filters->addWidget(topicEdit_, 2);
    filters->addWidget(tagEdit_, 1);
    filters->addWidget(keyEdit_, 1);
    filters->addWidget(filter);
    auto *scan = new QHBoxLayout;
    scan->addWidget(status_, 1);
    scan->addWidget(progress_, 1);
    scan->addWidget(cancel_);
    scan->addWidget(resume_);
    auto *layout = new QVBoxLayout(bar);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->addLayout(jumps);
    layout->addLayout(filters);
    layout->addLayout(scan);

    const auto goToOffset = [this] {
        const QString text = offsetEdit_->text().trimmed();
        bool ok = false;
        qint64 offset = text.toLongLong(&ok);
        // An offset message id (store host ‖ port ‖ commit-log offset) names the offset too.
        if (const auto id = ok ? std::nullopt : common::decodeOffsetMessageId(text.toStdString())) {
            offset = id->commitLogOffset;
            ok = true;
        }
        if (!ok || offset < 0) {
            emit message(tr("'%1' is neither a commit-log offset (a number of bytes, 0 or more) nor an offset "
                            "message id (32 or 56 hex digits).").arg(text));
            return;
        }
        jumpToOffset(offset);
    };
    connect(goOffset, &QPushButton::clicked, this, goToOffset);
    connect(offsetEdit_, &QLineEdit::returnPressed, this, goToOffset);
    connect(goTime, &QPushButton::clicked, this, [this] { jumpToTime(timeEdit_->dateTime()); });
    connect(fromStart, &QPushButton::clicked, this, [this] { jumpToOffset(0); });
    connect(toEnd, &QPushButton::clicked, this, &CommitLogView::jumpToEnd);
    const auto applyEdits = [this] { applyFilter(filterFromEdits()); };
    connect(filter, &QPushButton::clicked, this, applyEdits);
    for (QLineEdit *edit : {topicEdit_, tagEdit_, keyEdit_})
        connect(edit, &QLineEdit::returnPressed, this, applyEdits);
    connect(cancel_, &QPushButton::clicked, this, [this] {
        model_->cancelScan();
        updateStatus();
    });
    connect(resume_, &QPushButton::clicked, this, [this] { model_->resumeScan(); });
    return bar;
}

RecordFilter CommitLogView::filterFromEdits() const
{
    return {topicEdit_->text().trimmed(), tagEdit_->text().trimmed(), keyEdit_->text().trimmed()};
}

void CommitLogView::showFromStart()
{
    if (started_)
        return;
    started_ = true;
    model_->restart(0, filterFromEdits());
}

void CommitLogView::jumpToOffset(qint64 offset)
{
    started_ = true;
    selectLast_ = false;
    selectOffset_ = offset;
    offsetEdit_->setText(QString::number(offset));
    model_->restart(offset, filterFromEdits());
}

void CommitLogView::showRecordAt(qint64 offset)
{
    for (QLineEdit *edit : {topicEdit_, tagEdit_, keyEdit_})
        edit->clear();
    jumpToOffset(offset);
}

void CommitLogView::jumpToEnd()
{
    started_ = true;
    selectOffset_ = -1;
    selectLast_ = true;
    for (QLineEdit *edit : {topicEdit_, tagEdit_, keyEdit_})
        edit->clear(); // the last page is the log's, unfiltered
    model_->restartAtEnd();
}

void CommitLogView::jumpToTime(const QDateTime &time)
{
    timeEdit_->setDateTime(time);
    const qint64 millis = time.toMSecsSinceEpoch();
    auto reader = reader_;
    status_->setText(tr("Looking for the first record stored at or after %1…").arg(timeEdit_->text()));
    timeLookup_->start([reader, millis](const store::ScanProgress &) { return reader->offsetByTime(millis); },
                       [this](int64_t offset) { jumpToOffset(offset); });
}

void CommitLogView::applyFilter(const RecordFilter &filter)
{
    topicEdit_->setText(filter.topic);
    tagEdit_->setText(filter.tag);
    keyEdit_->setText(filter.key);
    started_ = true;
    progress_->setValue(0);
    progress_->setFormat(tr("starting…"));
    model_->restart(model_->startOffset(), filter);
}

void CommitLogView::refresh() { model_->restart(model_->startOffset(), model_->filter()); }

void CommitLogView::followEnd() { model_->followEnd(); }

void CommitLogView::focusFilter()
{
    topicEdit_->setFocus(Qt::ShortcutFocusReason);
    topicEdit_->selectAll();
}

void CommitLogView::onCurrentRowChanged()
{
    const store::CommitLogRecord *record = model_->record(table_->currentIndex().row());
    if (record)
        recordView_->showRecord(record->offset, record->size);
    else
        recordView_->clear();
}

void CommitLogView::onPageLoaded()
{
    if (selectLast_ && model_->rowCount() > 0) {
        selectLast_ = false;
        selectOffset_ = model_->record(model_->rowCount() - 1)->offset;
    }
    if (selectOffset_ >= 0 && model_->rowCount() > 0) {
        // The record at the target, else the first one after it (a jump into a record's middle).
        const int row = qMax(model_->rowOfOffset(selectOffset_), 0);
        selectOffset_ = -1;
        table_->selectRow(row);
        table_->setCurrentIndex(model_->index(row, 0));
        table_->scrollTo(model_->index(row, 0), QAbstractItemView::PositionAtTop);
    }
    updateStatus();
}

void CommitLogView::onScanProgress(qint64 scanned, qint64 total)
{
    progress_->setValue(total > 0 ? static_cast<int>(qMin<qint64>(1000, scanned * 1000 / total)) : 0);
    progress_->setFormat(tr("%1 of %2 scanned").arg(QLocale().formattedDataSize(scanned), QLocale().formattedDataSize(total)));
    updateStatus();
}

QString CommitLogView::statusText() const { return status_->text(); }

void CommitLogView::updateStatus()
{
    const bool filtered = !model_->filter().isEmpty();
    const bool loading = model_->isLoading();
    progress_->setVisible(filtered && (loading || model_->isPaused()));
    cancel_->setVisible(filtered && loading);
    resume_->setVisible(filtered && model_->isPaused() && !loading);
    const QString rows = filtered ? tr("%n matching record(s) from offset %1", nullptr, model_->rowCount()).arg(model_->startOffset())
                                  : tr("%n record(s) from offset %1", nullptr, model_->rowCount()).arg(model_->startOffset());
    QString state;
    if (loading)
        state = filtered ? tr("searching…") : tr("loading…");
    else if (model_->isPaused())
        state = tr("search stopped at offset %1").arg(model_->nextOffset());
    else if (model_->isAtEnd())
        state = tr("end of the data at offset %1").arg(model_->nextOffset());
    else
        state = tr("scroll for more");
    status_->setText(rows + QStringLiteral(" — ") + state);
    if (model_->rowCount() == 0 && !loading && model_->isAtEnd())
        status_->setText(filtered ? tr("No record matches the filter after offset %1.").arg(model_->startOffset())
                                  : tr("No records after offset %1.").arg(model_->startOffset()));
}

} // namespace mqdesk::ui
