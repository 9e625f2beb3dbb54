#pragma once

// WritePathPanel: the flush monitor's write-path strip. It shows the broker's write-path knobs as
// the store runs them (GET_FLUSH_SAMPLES' writePath: writeWithoutMmap, the put lock, the file
// warm-up and what warming has cost so far) and a table of what each write path cost under each
// flush mode over the seconds the monitor holds (FlushSeries::writePathCosts: medians of put TPS,
// put-to-ack and flush latency). Switching writeWithoutMmap under the same load and reading the
// two rows side by side is how a user sees what the knob buys on their disk.
//
// The panel never talks to the broker: ticking the box emits writeWithoutMmapRequested, the view
// applies it (UPDATE_BROKER_CONFIG) and the box then follows what the broker reports. GUI thread
// only.

#include "broker/client/flush_samples.h"
#include "ui/flush/flush_series.h"

#include <QWidget>

#include <vector>

class QCheckBox;
class QLabel;
class QTableView;

namespace mqdesk::ui {

class WritePathCostModel;

class WritePathPanel : public QWidget
{
    Q_OBJECT

public:
    explicit WritePathPanel(QWidget *parent = nullptr);

    // The knobs from the broker's last answer; a state that is not `known` (a broker that does
    // not report its write path) disables the switch and says so.
    void showState(const client::WritePathState &state);
    // A broker drawn from GET_BROKER_RUNTIME_INFO: no write path to show; `why` says so.
    void showUnavailable(const QString &why);
    void showCosts(const std::vector<FlushSeries::WritePathCost> &costs);
    // While a switch is on its way the box is disabled, so a second click cannot race it.
    void setSwitchPending(bool pending);

    // For tests and screenshots.
    QString knobsText() const;
    QCheckBox *writeWithoutMmapBox() const { return mmapBox_; }
    QTableView *costTable() const { return table_; }

    // "2 files, 32.00 MiB in 85 ms (42 ms a file)", or "none yet".
    static QString warmUpText(int64_t files, int64_t bytes, int64_t micros);

signals:
    void writeWithoutMmapRequested(bool on);

private:
    QCheckBox *mmapBox_ = nullptr;
    QLabel *knobs_ = nullptr;
    QTableView *table_ = nullptr;
    WritePathCostModel *model_ = nullptr;
    bool pending_ = false;
    bool known_ = false;
};

} // namespace mqdesk::ui
