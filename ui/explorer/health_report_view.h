#pragma once

// HealthReportView: the store health check (verifyStore) run in the background with a progress
// bar (bytes, MB/s) and Cancel; then a summary — records, bytes scanned, consume-queue and index
// entries, the live and abort flags, where normal and abnormal recovery would stop and what they
// would cut — and the faults in a sortable table filtered by kind (Ctrl+C, Export CSV…).
// Double-click or Enter on a fault asks the explorer to show its file and offset.

#include "broker/store/reader/store_verifier.h"
#include "ui/explorer/store_location.h"

#include <QElapsedTimer>
#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;

namespace mqdesk::ui {

class BackgroundScan;

class HealthReportView : public QWidget
{
    Q_OBJECT

public:
    enum Column { FileColumn, OffsetColumn, KindColumn, MessageColumn };

    explicit HealthReportView(std::shared_ptr<const store::StoreReader> reader, QWidget *parent = nullptr);

    // Starts a verify (the report shown stays until the new one is done).
    void verify();
    void cancel();
    // The store may have changed: the report shown is dropped; Verify runs it again.
    void reload();

    bool isRunning() const;
    QString summaryText() const;
    QString bannerText() const;
    QString progressText() const;
    QSortFilterProxyModel *faultModel() const { return proxy_; }
    QTableView *faultTable() const { return table_; }
    QComboBox *kindFilter() const { return kindFilter_; }
    QPushButton *verifyButton() const { return verifyButton_; }
    QPushButton *cancelButton() const { return cancelButton_; }

signals:
    void locationRequested(const mqdesk::ui::StoreLocation &location);
    // A verify ended: its report is shown, or it was cancelled.
    void verifyFinished(bool cancelled);

private:
    QWidget *buildToolbar();
    void showProgress(qint64 done, qint64 total);
    void showReport(const store::VerifyReport &report);
    void showSummary(const store::VerifyReport &report);
    QString recoveryText(const store::RecoverySimulation &recovery) const;
    void applyKindFilter();

    std::shared_ptr<const store::StoreReader> reader_;
    BackgroundScan *scan_ = nullptr;
    QElapsedTimer elapsed_;
    QPushButton *verifyButton_ = nullptr;
    QPushButton *cancelButton_ = nullptr;
    QProgressBar *progress_ = nullptr;
    QLabel *progressLabel_ = nullptr;
    QLabel *banner_ = nullptr;
    QLabel *summary_ = nullptr;
    QComboBox *kindFilter_ = nullptr;
    QStandardItemModel *faults_ = nullptr;
    QSortFilterProxyModel *proxy_ = nullptr;
    QTableView *table_ = nullptr;
};

} // namespace mqdesk::ui
