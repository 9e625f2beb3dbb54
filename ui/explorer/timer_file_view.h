#pragma once

// TimerFileView: one timer file of RocketMQ 5's timer store (store-format §12.2) — the
// timerwheel's non-empty slots, the timer log's units (end-of-file blanks and damaged bytes
// included), config/timercheck's fields or config/timermetrics' topics — as a table
// (TimerEntryModel, paged), the selected entry's bytes in a HexView and its health findings
// (verifyTimerFiles' faults within those bytes). Read off the GUI thread; reload() reads again.

#include "broker/store/reader/store_reader.h"
#include "broker/store/reader/store_verifier.h"
#include "ui/explorer/store_location.h"

#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QListWidget;
class QTableView;

namespace mqdesk::ui {

class BackgroundScan;
class HexView;
class TimerEntryModel;

class TimerFileView : public QWidget
{
    Q_OBJECT

public:
    explicit TimerFileView(std::shared_ptr<const store::StoreReader> reader, QWidget *parent = nullptr);

    void reload();
    // Shows `location.file` and selects the entry holding `location.offset`; false when the file
    // is no timer file.
    bool showLocation(const StoreLocation &location);

    bool isLoading() const;
    TimerEntryModel *model() const { return model_; }
    QTableView *table() const { return table_; }
    HexView *hexView() const { return hex_; }
    QListWidget *findings() const { return findings_; }
    QString bannerText() const;

signals:
    void locationRequested(const mqdesk::ui::StoreLocation &location);
    // The file's first page (and its health findings) are shown, or a showLocation's entry selected.
    void loaded();

private:
    // Shows `location`; `reread` reads the file again even when it is the one shown.
    bool open(const StoreLocation &location, bool reread);
    void onSelection();
    void onFetched();

    std::shared_ptr<const store::StoreReader> reader_;
    BackgroundScan *faultScan_ = nullptr;
    BackgroundScan *bytesScan_ = nullptr;
    QLabel *banner_ = nullptr;
    TimerEntryModel *model_ = nullptr;
    QTableView *table_ = nullptr;
    HexView *hex_ = nullptr;
    QListWidget *findings_ = nullptr;
    std::vector<store::StoreFault> faults_;
    bool faultsRead_ = false;
    qint64 pendingPosition_ = -1; // showLocation's offset, selected once loaded
};

} // namespace mqdesk::ui
