#include "ui/explorer/health_report_view.h"

#include "ui/explorer/background_scan.h"
#include "ui/explorer/explorer_view_util.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include <set>

namespace mqdesk::ui {

HealthReportView::HealthReportView(std::shared_ptr<const store::StoreReader> reader, QWidget *parent)
    : QWidget(parent), reader_(std::move(reader))
{
    scan_ = new BackgroundScan(this);
    banner_ = makeBanner(this);
    summary_ = new QLabel(tr("Verify reads every commit-log record, consume-queue entry, index entry and config "
                             "file of the store (read-only) and lists what is wrong, and where."),
                          this);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setAlignment(Qt::AlignTop | Qt::AlignLeft);

    faults_ = new QStandardItemModel(0, 4, this);
    faults_->setHorizontalHeaderLabels({tr("File"), tr("Offset"), tr("Kind"), tr("Message")});
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(faults_);
    proxy_->setFilterKeyColumn(KindColumn);
    table_ = makeExplorerTable(proxy_, tr("store-faults.csv"), [this](const QString &outcome) {
        showBanner(banner_, outcome, false);
    }, this);
    table_->sortByColumn(FileColumn, Qt::AscendingOrder);
    table_->setColumnWidth(FileColumn, 260);
    table_->setColumnWidth(KindColumn, 160);
    table_->hide(); // until a report lists faults
    connect(table_, &QTableView::activated, this, [this](const QModelIndex &index) {
        const QModelIndex source = proxy_->mapToSource(index);
        const QString file = faults_->item(source.row(), FileColumn)->text();
        const qint64 offset = faults_->item(source.row(), OffsetColumn)->data(Qt::DisplayRole).toLongLong();
        emit locationRequested({file, offset});
    });

    connect(scan_, &BackgroundScan::progressChanged, this, &HealthReportView::showProgress);
    // After finished(true): the run ended without a report.
    connect(scan_, &BackgroundScan::failed, this,
            [this](const QString &message) { progressLabel_->setText(tr("Verify failed: %1").arg(message)); });
    connect(scan_, &BackgroundScan::finished, this, [this](bool cancelled) {
        verifyButton_->setEnabled(true);
        cancelButton_->setEnabled(false);
        progress_->hide();
        if (cancelled) {
            progressLabel_->setText(tr("Verify cancelled."));
            emit verifyFinished(true);
        }
    });

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(buildToolbar());
    layout->addWidget(banner_);
    layout->addWidget(summary_);
    layout->addWidget(table_, 1);
}

QWidget *HealthReportView::buildToolbar()
{
    auto *bar = new QWidget(this);
    verifyButton_ = new QPushButton(tr("Verify"), bar);
    verifyButton_->setToolTip(tr("Check every file of the store (read-only; nothing is changed)"));
    connect(verifyButton_, &QPushButton::clicked, this, &HealthReportView::verify);
    cancelButton_ = new QPushButton(tr("Cancel"), bar);
    cancelButton_->setEnabled(false);
    connect(cancelButton_, &QPushButton::clicked, this, &HealthReportView::cancel);
    progress_ = new QProgressBar(bar);
    progress_->setRange(0, 1000); // per mille: byte counts do not fit an int
    progress_->setTextVisible(false);
    progress_->hide();
    progressLabel_ = new QLabel(bar);
    kindFilter_ = new QComboBox(bar);
    kindFilter_->addItem(tr("All kinds"));
    connect(kindFilter_, &QComboBox::currentIndexChanged, this, &HealthReportView::applyKindFilter);

    auto *layout = new QHBoxLayout(bar);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(verifyButton_);
    layout->addWidget(cancelButton_);
    layout->addWidget(progress_, 1);
    layout->addWidget(progressLabel_, 1);
    layout->addWidget(new QLabel(tr("Kind:"), bar));
    layout->addWidget(kindFilter_);
    return bar;
}

bool HealthReportView::isRunning() const { return scan_->isRunning(); }
QString HealthReportView::summaryText() const { return summary_->text(); }
QString HealthReportView::bannerText() const { return banner_->isHidden() ? QString() : banner_->text(); }
QString HealthReportView::progressText() const { return progressLabel_->text(); }

void HealthReportView::verify()
{
    verifyButton_->setEnabled(false);
    cancelButton_->setEnabled(true);
    progress_->setValue(0);
    progress_->show();
    progressLabel_->setText(tr("Verifying…"));
    elapsed_.start();
    scan_->start([reader = reader_](const store::ScanProgress &progress) {
        store::VerifyOptions options;
        options.progress = progress;
        return store::verifyStore(*reader, options);
    }, [this](const store::VerifyReport &report) {
        showReport(report);
        emit verifyFinished(false);
    });
}

void HealthReportView::cancel() { scan_->cancel(); }

void HealthReportView::reload()
{
    if (scan_->isRunning())
        return; // the running verify reads the store as it is now
    faults_->removeRows(0, faults_->rowCount());
    summary_->setText(tr("The store may have changed since the last verify: run Verify again."));
}

void HealthReportView::showProgress(qint64 done, qint64 total)
{
    if (total > 0)
        progress_->setValue(static_cast<int>(std::min<qint64>(1000, done * 1000 / total)));
    const double seconds = std::max<qint64>(elapsed_.elapsed(), 1) / 1000.0;
    const QLocale locale;
    progressLabel_->setText(tr("%1 of %2, %3 MB/s")
                                .arg(byteSizeText(done), byteSizeText(total),
                                     locale.toString(done / seconds / 1e6, 'f', 1)));
}

void HealthReportView::showReport(const store::VerifyReport &report)
{
    const double seconds = std::max<qint64>(elapsed_.elapsed(), 1) / 1000.0;
    progressLabel_->setText(tr("Verified in %2 s: %1 of commit log (%3 MB/s).")
                                .arg(byteSizeText(report.bytesScanned), QLocale().toString(seconds, 'f', 2),
                                     QLocale().toString(report.bytesScanned / seconds / 1e6, 'f', 1)));
    faults_->removeRows(0, faults_->rowCount());
    std::set<QString> kinds;
    for (const store::StoreFault &fault : report.faults) {
        faults_->appendRow({textItem(qtText(fault.file)), numberItem(fault.offset), textItem(qtText(fault.kind)),
                            textItem(qtText(fault.message))});
        kinds.insert(qtText(fault.kind));
    }
    const QString currentKind = kindFilter_->currentIndex() > 0 ? kindFilter_->currentText() : QString();
    kindFilter_->blockSignals(true);
    kindFilter_->clear();
    kindFilter_->addItem(tr("All kinds"));
    for (const QString &kind : kinds)
        kindFilter_->addItem(kind);
    kindFilter_->setCurrentIndex(std::max(0, kindFilter_->findText(currentKind)));
    kindFilter_->blockSignals(false);
    applyKindFilter();
    table_->setVisible(!report.faults.empty());
    showSummary(report);
}

void HealthReportView::showSummary(const store::VerifyReport &report)
{
    const QLocale locale;
    QString verdict = report.healthy()
                          ? tr("<b>Healthy:</b> no faults found.")
                          : tr("<b>%n fault(s) found</b> — double-click one to see it in its file.", nullptr,
                               static_cast<int>(report.faults.size()));
    QStringList lines{verdict};
    lines << tr("Records: %1 in %2 of commit log scanned (data ends at offset %3).")
                 .arg(locale.toString(static_cast<qulonglong>(report.records)), byteSizeText(report.bytesScanned))
                 .arg(report.commitLogDataEnd);
    lines << tr("Consume-queue entries: %1; index entries: %2.")
                 .arg(locale.toString(static_cast<qulonglong>(report.consumeQueueEntries)),
                      locale.toString(static_cast<qulonglong>(report.indexEntries)));
    lines << (report.abortPresent ? tr("Abort file: present — the next start runs abnormal recovery.")
                                  : tr("Abort file: absent — the next start runs normal recovery."));
    if (report.live)
        lines << tr("Live: a broker holds the lock; the tail may change while it is scanned.");
    lines << tr("Normal recovery: %1").arg(recoveryText(report.normalRecovery));
    lines << tr("Abnormal recovery: %1").arg(recoveryText(report.abnormalRecovery));
    summary_->setText(lines.join(QStringLiteral("<br>")));
}

QString HealthReportView::recoveryText(const store::RecoverySimulation &r) const
{
    if (!r.wouldOpen)
        return tr("would not open: %1").arg(qtText(r.openError).toHtmlEscaped());
    // The engine's fixed reasons for a clean end are worded here (a fault found there stays as
    // the engine names it, like the fault table's messages).
    QString reason = qtText(r.stopReason);
    if (r.stopReason == "end of data")
        reason = tr("end of data");
    else if (r.stopReason == "end of data (end-of-file record of the last file)")
        reason = tr("end of data (end-of-file record of the last file)");
    else if (r.stopReason == "no commit-log files")
        reason = tr("no commit-log files");
    QString text = tr("stops at offset %1 (%2 @%3), %4")
                       .arg(r.stopOffset)
                       .arg(qtText(r.stopFile).toHtmlEscaped())
                       .arg(r.stopFilePosition)
                       .arg(reason.toHtmlEscaped());
    if (r.recordsLost > 0 || r.filesDeleted > 0 || !r.cleanEnd)
        text += tr("; <b>would truncate %1 bytes, lose %2 record(s) and delete %3 file(s)</b>")
                    .arg(r.truncatedBytes)
                    .arg(r.recordsLost)
                    .arg(r.filesDeleted);
    else if (r.truncatedBytes > 0)
        text += tr("; nothing would be lost (the %1 bytes after it hold no record and would be zeroed)")
                    .arg(r.truncatedBytes);
    else
        text += tr("; nothing would be cut");
    return text;
}

void HealthReportView::applyKindFilter()
{
    if (kindFilter_->currentIndex() <= 0)
        proxy_->setFilterFixedString(QString());
    else
        proxy_->setFilterRegularExpression(
            QRegularExpression(QRegularExpression::anchoredPattern(QRegularExpression::escape(kindFilter_->currentText()))));
}

} // namespace mqdesk::ui
