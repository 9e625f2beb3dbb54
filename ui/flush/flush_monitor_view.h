#pragma once

// FlushMonitorView: a broker's flush behaviour, live — the thin view over FlushMonitorSource
// (ui/flush/flush_monitor_source.h), which picks the broker, polls it, keeps the samples and
// switches its modes. The view draws three stacked graphs over time: latency (flush p50/p99/max
// and put-to-ack p50/p99/max, µs, log scale, with the disk's fdatasync p50 as a reference line),
// throughput (put TPS, bytes flushed) and data at risk (written, not yet flushed), with markers
// where the flush mode changed, where writeWithoutMmap was switched and where the broker
// restarted; below them the write-path panel (ui/flush/write_path_panel.h). A broker drawn from
// GET_BROKER_RUNTIME_INFO (a Java broker) gets fewer series, named in the banner. The graphs
// are a TimeChart (ui/widgets/time_chart.h: window, zoom, markers, pause, export); pausing
// freezes them, samples keep arriving and are drawn on resume. GUI thread only.

#include "ui/flush/flush_monitor_source.h"

#include <QWidget>

class QCPAxisRect;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QComboBox;
class QCustomPlot;
class QLabel;

namespace mqdesk::ui {

class TimeChart;
class WritePathPanel;

class FlushMonitorView : public QWidget
{
    Q_OBJECT

public:
    using Mode = FlushMode;

    FlushMonitorView(BrokerHost &host, ClusterConnection &connection, QWidget *parent = nullptr);
    ~FlushMonitorView() override;

    // Records every sample taken into `history` and, before the first poll, draws the samples
    // it holds of the last hour for this broker (so the graph survives an app restart, with a
    // marker where the app started).
    void setHistory(HistoryStore *history) { source_->setHistory(history); }
    bool historyLoaded() const { return source_->historyLoaded(); }

    // Switches the broker's flush mode (what the mode selector does).
    void requestMode(Mode mode);
    // Switches writeWithoutMmap live (what the write-path panel's box does).
    void requestWriteWithoutMmap(bool on);
    // Draws the broker at `address` ("ip:port", one of brokerAddresses()) from now on.
    void selectBroker(const QString &address);
    QString brokerAddress() const { return source_->brokerAddress(); }
    QStringList brokerAddresses() const;
    // Lists the brokers of the shown cluster again (also done every 10 s).
    void listBrokers() { source_->listBrokers(); }
    // The broker does not answer GET_FLUSH_SAMPLES: GET_BROKER_RUNTIME_INFO is drawn instead.
    bool isRuntimeInfoFallback() const { return source_->isRuntimeInfoFallback(); }
    void setPaused(bool paused);
    bool isPaused() const;
    // The visible time window in seconds (60, 300, 900; the selector's choices).
    void setWindowSeconds(int seconds);
    // Exports the graph as PNG / every held sample as CSV; false with `error` set.
    bool exportPng(const QString &path, QString *error = nullptr);
    bool exportCsv(const QString &path, QString *error = nullptr) const;

    // For tests and screenshots.
    const FlushSeries &series() const { return source_->series(); }
    FlushMonitorSource &source() const { return *source_; }
    int pointCount() const;      // points drawn per graph
    int markerCount() const;     // mode-change and restart markers drawn
    double fdatasyncReferenceMicros() const { return referenceMicros_; }
    QCustomPlot *plot() const;
    WritePathPanel *writePathPanel() const { return writePath_; }
    QString bannerText() const;
    QString reportedModeText() const; // "Broker reports: ASYNC_FLUSH (SYNC_FLUSH after a restart)"

    static QString modeText(Mode mode) { return FlushMonitorSource::modeText(mode); }

signals:
    // The brokers of the shown cluster were listed (the picker is filled).
    void brokersListed();
    // The mode the embedded broker reports changed ("SYNC_FLUSH", "ASYNC_FLUSH + pool", …): the status
    // bar shows it.
    void brokerModeChanged(const QString &mode);

private:
    void fillBrokerBox(const QList<FlushMonitorSource::BrokerChoice> &brokers, const QString &drawn);
    void resetGraph();
    void onSamples(const std::vector<client::FlushSample> &samples, const std::vector<FlushSeries::Marker> &markers);
    void draw(const std::vector<client::FlushSample> &samples);
    void addMarker(const FlushSeries::Marker &marker);
    void setReference(double micros, const QString &label);
    void followLatest();
    void rescaleValues();
    void onPausedChanged(bool paused);
    void showBanner(const QString &text);
    QString hoverText(double seconds) const;

    FlushMonitorSource *source_ = nullptr;
    std::vector<client::FlushSample> pending_; // taken while paused, drawn on resume
    std::vector<FlushSeries::Marker> pendingMarkers_;

    TimeChart *chart_ = nullptr;
    QComboBox *brokerBox_ = nullptr;
    QComboBox *modeBox_ = nullptr;
    QLabel *modeLabel_ = nullptr;
    QLabel *banner_ = nullptr;
    WritePathPanel *writePath_ = nullptr;

    QCPAxisRect *latencyRect_ = nullptr;
    QCPAxisRect *rateRect_ = nullptr;
    QCPAxisRect *riskRect_ = nullptr;
    QCPGraph *flushP50_ = nullptr;
    QCPGraph *flushP99_ = nullptr;
    QCPGraph *flushMax_ = nullptr;
    QCPGraph *ackP50_ = nullptr;
    QCPGraph *ackP99_ = nullptr;
    QCPGraph *ackMax_ = nullptr;
    QCPGraph *putTps_ = nullptr;
    QCPGraph *bytesFlushed_ = nullptr;
    QCPGraph *dataAtRisk_ = nullptr;
    QCPItemStraightLine *referenceLine_ = nullptr;
    QCPItemText *referenceText_ = nullptr;
    double referenceMicros_ = 0;
};

} // namespace mqdesk::ui
