#pragma once

// FlushMonitorSource: everything the flush monitor knows, without a widget. It lists the brokers
// of the shown cluster and keeps the one drawn (the embedded broker by default, followed across
// its restarts), polls it once a second for its flush samples since the last ones it has
// (GET_FLUSH_SAMPLES, so a late poll misses nothing) or, for a broker that does not answer that
// (a Java broker), GET_BROKER_RUNTIME_INFO through RuntimeSampler; it loads the broker's last
// stored hour from the history before the first poll and records what arrives; it switches the
// flush mode and writeWithoutMmap (UPDATE_BROKER_CONFIG), and measures the local disk's fdatasync
// time for the embedded broker's reference line. FlushMonitorView draws what it emits.
//
// Every client call goes through the ClusterConnection (off the GUI thread); answers about a
// broker no longer drawn are dropped. GUI thread only.

#include "broker/client/flush_samples.h"
#include "ui/flush/flush_fallback.h"
#include "ui/flush/flush_series.h"

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>

#include <optional>
#include <vector>

class QTimer;

namespace mqdesk::ui {

class BrokerHost;
class ClusterConnection;
class HistoryStore;

enum class FlushMode { SyncFlush, AsyncFlush, AsyncFlushWithPool };

class FlushMonitorSource : public QObject
{
    Q_OBJECT

public:
    using BrokerChoice = QPair<QString, QString>; // (label, "ip:port")

    FlushMonitorSource(BrokerHost &host, ClusterConnection &connection, QObject *parent = nullptr);
    ~FlushMonitorSource() override;

    // Records every sample taken into `history` and, before the first poll, emits the samples it
    // holds of the last hour for this broker (with a marker where the app started).
    void setHistory(HistoryStore *history);
    bool historyLoaded() const { return historyState_ == HistoryState::Loaded; }

    void requestMode(FlushMode mode);
    void requestWriteWithoutMmap(bool on);
    // Draws the broker at `address` ("ip:port") from now on.
    void selectBroker(const QString &address);
    QString brokerAddress() const { return brokerAddr_; }
    // Lists the brokers of the shown cluster again (also done every 10 s).
    void listBrokers();
    bool isRuntimeInfoFallback() const { return fallback_; }
    bool isModeRequestPending() const { return modeRequestPending_; }

    const FlushSeries &series() const { return series_; }
    QString bannerText() const { return banner_; }

    static QString modeText(FlushMode mode);

signals:
    void brokersListed(const QList<mqdesk::ui::FlushMonitorSource::BrokerChoice> &brokers, const QString &drawn);
    // Another broker is drawn: what was drawn before is gone.
    void graphReset();
    // Samples to draw (from a poll or the history), oldest first, and the markers they bring.
    void samplesTaken(const std::vector<mqdesk::client::FlushSample> &samples,
                      const std::vector<mqdesk::ui::FlushSeries::Marker> &markers);
    void bannerChanged(const QString &text);
    // "Broker reports: …" and the mode the selector should show (not sent while a switch runs).
    void reportedModeChanged(const QString &text);
    void shownModeChanged(mqdesk::ui::FlushMode mode);
    // The mode the embedded broker reports changed ("SYNC_FLUSH", "ASYNC_FLUSH + pool", …).
    void brokerModeChanged(const QString &mode);
    // The reference line: the broker's own fdatasync figure, else the local disk's for the
    // embedded broker.
    void referenceChanged(double micros, const QString &label);
    void writePathReported(const mqdesk::client::WritePathState &state);
    void writePathUnavailable(const QString &why);
    void writePathSwitchFinished();

private:
    void poll();
    void loadHistory();
    void setBroker(const QString &address, bool keepHistory);
    bool showsEmbeddedBroker() const;
    void reset();
    void onAnswer(int64_t requestedSince, const client::Result<client::FlushSamples> &answer);
    void onRuntime(const RuntimePoll &poll);
    void take(const client::FlushSamples &answer, int64_t requestedSince);
    void requestModeOfJavaBroker(FlushMode mode);
    bool runQueuedMode(); // true when a queued switch was started
    QString fallbackBanner() const;
    void startProbe();
    void showBanner(const QString &text);

    BrokerHost &host_;
    ClusterConnection &connection_;
    FlushSeries series_;
    QTimer *timer_ = nullptr;
    QString banner_;
    QString reported_;

    QString brokerAddr_;         // the broker drawn; empty before the cluster was listed
    bool followEmbedded_ = true; // the embedded broker is drawn when the shown cluster has it
    bool wasEmbedded_ = false;   // brokerAddr_ was the embedded broker's when chosen
    bool fallback_ = false;
    RuntimeSampler sampler_;
    quint64 generation_ = 0; // answers about a broker no longer drawn are dropped
    int ticks_ = 0;
    double probeMicros_ = 0; // the local disk's fdatasync p50, for the embedded broker
    QString probeLabel_;
    bool probeStarted_ = false;
    bool brokerReference_ = false;

    bool inFlight_ = false;
    QElapsedTimer inFlightSince_;
    bool modeRequestPending_ = false;
    std::optional<FlushMode> queuedMode_; // asked for while another switch was under way
    HistoryStore *history_ = nullptr;
    enum class HistoryState { None, Loading, Loaded };
    HistoryState historyState_ = HistoryState::None;
};

} // namespace mqdesk::ui
