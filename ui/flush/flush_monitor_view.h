#pragma once

// FlushMonitorView: a broker's flush behaviour, live — any broker of the shown cluster, the
// embedded one by default. Once a second it asks the broker for its per-second flush samples since the last one it has (GET_FLUSH_SAMPLES, so a
// late poll misses nothing) and draws three stacked graphs over time: latency (flush p50/p99/max
// and put-to-ack p50/p99, µs, log scale, with the disk's fdatasync p50 as a reference line),
// throughput (put TPS, bytes flushed) and data at risk (written, not yet flushed). Markers show
// where the flush mode changed, where writeWithoutMmap was switched and where the broker
// restarted. The mode switch applies UPDATE_BROKER_CONFIG live; the mode shown is the one the
// samples report. Below the graph, the write-path panel (ui/write_path_panel.h) shows the
// broker's write-path knobs, switches writeWithoutMmap live, and tables what each write path cost.
//
// A broker that answers GET_FLUSH_SAMPLES with REQUEST_CODE_NOT_SUPPORTED (a Java broker) is
// polled with GET_BROKER_RUNTIME_INFO instead (RuntimeSampler): fewer series, named in a banner;
// its mode switch is saved in its config and, as Java does, applies after its restart.
//
// Every call goes through the ClusterConnection (off the GUI thread); the fdatasync probe runs
// on a pool thread. With a HistoryStore, samples are recorded and the last hour is drawn on start. Pausing freezes the graph; samples keep arriving and are drawn on resume.

#include "broker/client/flush_samples.h"
#include "ui/flush/flush_fallback.h"
#include "ui/flush/flush_series.h"

#include <QElapsedTimer>
#include <QWidget>

class QCPAxisRect;
class QCPRange;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QComboBox;
class QCustomPlot;
class QLabel;
class QPushButton;
class QTimer;

namespace mqdesk::ui {

class WritePathPanel;
class BrokerHost;
class ClusterConnection;
class HistoryStore;

class FlushMonitorView : public QWidget
{
    Q_OBJECT

public:
    enum class Mode { SyncFlush, AsyncFlush, AsyncFlushWithPool };
    Q_ENUM(Mode)

    FlushMonitorView(BrokerHost &host, ClusterConnection &connection, QWidget *parent = nullptr);
    ~FlushMonitorView() override;

    // Records every sample taken into `history` and, before the first poll, draws the samples
    // it holds of the last hour for this broker (so the graph survives an app restart, with a
    // marker where the app started).
    void setHistory(HistoryStore *history);
    bool historyLoaded() const { return historyState_ == HistoryState::Loaded; }

    // Switches the broker's flush mode (what the mode selector does).
    void requestMode(Mode mode);
    // Switches writeWithoutMmap live (what the write-path panel's box does).
    void requestWriteWithoutMmap(bool on);
    // Draws the broker at `address` ("ip:port", one of brokerAddresses()) from now on.
    void selectBroker(const QString &address);
    QString brokerAddress() const { return brokerAddr_; }
    QStringList brokerAddresses() const;
    // Lists the brokers of the shown cluster again (also done every 10 s).
    void listBrokers();
    // The broker does not answer GET_FLUSH_SAMPLES: GET_BROKER_RUNTIME_INFO is drawn instead.
    bool isRuntimeInfoFallback() const { return fallback_; }
    void setPaused(bool paused);
    bool isPaused() const { return paused_; }
    // The visible time window in seconds (60, 300, 900; the selector's choices).
    void setWindowSeconds(int seconds);
    // Exports the graph as PNG / every held sample as CSV; false with `error` set.
    bool exportPng(const QString &path, QString *error = nullptr);
    bool exportCsv(const QString &path, QString *error = nullptr) const;

    // For tests and screenshots.
    const FlushSeries &series() const { return series_; }
    int pointCount() const;      // points drawn per graph
    int markerCount() const;     // mode-change and restart markers drawn
    double fdatasyncReferenceMicros() const { return referenceMicros_; }
    QCustomPlot *plot() const { return plot_; }
    WritePathPanel *writePathPanel() const { return writePath_; }
    QString bannerText() const;
    QString reportedModeText() const; // "Broker reports: ASYNC_FLUSH (SYNC_FLUSH after a restart)"

    static QString modeText(Mode mode);

signals:
    // The brokers of the shown cluster were listed (the picker is filled).
    void brokersListed();
    // The mode the embedded broker reports changed ("SYNC_FLUSH", "ASYNC_FLUSH + pool", …): the status
    // bar shows it.
    void brokerModeChanged(const QString &mode);

private:
    void poll();
    void loadHistory();
    void setBroker(const QString &address, bool keepHistory);
    bool showsEmbeddedBroker() const;
    void resetGraph();
    void onAnswer(int64_t requestedSince, const client::Result<client::FlushSamples> &answer);
    void onRuntime(const RuntimePoll &poll);
    void take(const client::FlushSamples &answer, int64_t requestedSince);
    void requestModeOfJavaBroker(Mode mode);
    QString fallbackBanner() const;
    void draw(const std::vector<client::FlushSample> &samples);
    void addMarker(const FlushSeries::Marker &marker);
    void setReference(double micros, const QString &label);
    void startProbe();
    void followLatest();
    void rescaleValues();
    void syncRanges(const QCPRange &range);
    void showBanner(const QString &text);
    void showHover(const QPoint &pos);
    void chooseExportPng();
    void chooseExportCsv();
    QCPAxisRect *addRect(const QString &leftLabel);

    BrokerHost &host_;
    ClusterConnection &connection_;
    FlushSeries series_;
    std::vector<client::FlushSample> pending_; // taken while paused, drawn on resume
    std::vector<FlushSeries::Marker> pendingMarkers_;

    QTimer *timer_ = nullptr;
    QCustomPlot *plot_ = nullptr;
    QComboBox *brokerBox_ = nullptr;
    QComboBox *modeBox_ = nullptr;
    QComboBox *windowBox_ = nullptr;
    QPushButton *pauseButton_ = nullptr;
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
    int markers_ = 0;

    QString brokerAddr_; // the broker drawn; empty before the cluster was listed
    bool followEmbedded_ = true; // the embedded broker is drawn when the shown cluster has it
    bool wasEmbedded_ = false;   // brokerAddr_ was the embedded broker's when chosen
    bool fallback_ = false;
    RuntimeSampler sampler_;
    quint64 generation_ = 0; // answers about a broker no longer drawn are dropped
    int ticks_ = 0;
    double probeMicros_ = 0; // the local disk's fdatasync p50, for the embedded broker
    QString probeLabel_;

    bool inFlight_ = false;
    QElapsedTimer inFlightSince_;
    bool paused_ = false;
    bool modeRequestPending_ = false;
    bool updatingRange_ = false;
    double windowSeconds_ = 300;
    double referenceMicros_ = 0;
    bool probeStarted_ = false;
    bool brokerReference_ = false;
    HistoryStore *history_ = nullptr;
    enum class HistoryState { None, Loading, Loaded };
    HistoryState historyState_ = HistoryState::None;
};

} // namespace mqdesk::ui
