#pragma once

// CheckpointView: the store's `checkpoint` (store-format §7) — the three flush times as local
// date-times and raw milliseconds with what each one means, masterFlushedOffset, confirmPhyOffset
// and minTimestamp, the point abnormal recovery trusts — plus the `abort` file and the `lock`.
// Read off the GUI thread; reload() reads again (the store may be live).

#include "broker/store/reader/store_reader.h"
#include "ui/explorer/store_location.h"

#include <QWidget>

#include <memory>

class QLabel;
class QStandardItemModel;
class QTableView;

namespace mqdesk::ui {

class BackgroundScan;

class CheckpointView : public QWidget
{
    Q_OBJECT

public:
    enum Row { PhysicRow, LogicsRow, IndexRow, MinTimestampRow, MasterFlushedRow, ConfirmPhyRow };
    enum Column { FieldColumn, ValueColumn, LocalTimeColumn, MeaningColumn };

    explicit CheckpointView(std::shared_ptr<const store::StoreReader> reader, QWidget *parent = nullptr);

    void reload();
    // Selects the field stored at `location`'s offset of "checkpoint"; false for another file or
    // an offset that holds no field.
    bool showLocation(const StoreLocation &location);

    bool isLoading() const;
    QStandardItemModel *model() const { return model_; }
    QTableView *table() const { return table_; }
    QString bannerText() const;
    QString abortText() const;
    QString lockText() const;

signals:
    void locationRequested(const mqdesk::ui::StoreLocation &location);
    // A reload's results are shown.
    void loaded();

private:
    struct Snapshot;
    void showSnapshot(const Snapshot &snapshot);

    std::shared_ptr<const store::StoreReader> reader_;
    BackgroundScan *scan_ = nullptr;
    QLabel *banner_ = nullptr;
    QStandardItemModel *model_ = nullptr;
    QTableView *table_ = nullptr;
    QLabel *abort_ = nullptr;
    QLabel *lock_ = nullptr;
};

} // namespace mqdesk::ui
