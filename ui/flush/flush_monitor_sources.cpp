// FlushMonitorView's data sources: which broker is drawn (the picker), the per-second polls —
// GET_FLUSH_SAMPLES, or GET_BROKER_RUNTIME_INFO for a broker that does not answer it — and the
// flush-mode switch. The graph itself is drawn in flush_monitor_view.cpp.

#include "ui/flush/flush_monitor_view.h"

#include "broker/client/admin_client.h"
#include "broker/remoting/remoting_codes.h"
#include "ui/broker_host.h"
#include "ui/connection/cluster_connection.h"
#include "ui/flush/fdatasync_probe.h"
#include "ui/history/history_store.h"
#include "ui/flush/write_path_panel.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLocale>
#include <QPointer>
#include <QThreadPool>
#include <QTimer>

namespace mqdesk::ui {

namespace {

FlushMonitorView::Mode modeOf(const std::string &flushDiskType, bool pool)
{
    using Mode = FlushMonitorView::Mode;
    return flushDiskType == "SYNC_FLUSH" ? Mode::SyncFlush : pool ? Mode::AsyncFlushWithPool : Mode::AsyncFlush;
}

} // namespace

QStringList FlushMonitorView::brokerAddresses() const
{
    QStringList addresses;
    for (int i = 0; i < brokerBox_->count(); ++i)
        addresses << brokerBox_->itemData(i).toString();
    return addresses;
}

bool FlushMonitorView::showsEmbeddedBroker() const
{
    return host_.state() == BrokerHost::State::Running && brokerAddr_ == host_.brokerAddress();
}

void FlushMonitorView::listBrokers()
{
    if (!connection_.isConnected()) {
        brokerBox_->clear();
        return; // the broker drawn stays (with its history) until the cluster is back
    }
    const QString namesrv = connection_.namesrvAddress();
    connection_.run(
        this, [](client::AdminClient &admin) { return admin.clusterInfo(); },
        [this, namesrv](client::Result<remoting::ClusterInfo> info) {
            // A late answer of the NameServer shown before (the embedded broker restarted on
            // other ports, another cluster was picked) would pick a broker of the wrong cluster.
            if (!info.ok || namesrv != connection_.namesrvAddress())
                return; // a failure: the poll's banner says why
            const QSignalBlocker block(brokerBox_);
            brokerBox_->clear();
            for (const auto &[name, broker] : info.value.brokerAddrTable)
                for (const auto &[id, address] : broker.brokerAddrs)
                    brokerBox_->addItem(id == 0 ? tr("%1 (%2)").arg(QString::fromStdString(name), QString::fromStdString(address))
                                                : tr("%1 #%2 (%3)").arg(QString::fromStdString(name)).arg(id).arg(
                                                      QString::fromStdString(address)),
                                        QString::fromStdString(address));
            const QString embedded = host_.state() == BrokerHost::State::Running ? host_.brokerAddress() : QString();
            const QStringList addresses = brokerAddresses();
            if (followEmbedded_ && addresses.contains(embedded)) {
                // The embedded broker restarted on another port: still the same broker's history.
                setBroker(embedded, wasEmbedded_);
            } else if (!addresses.contains(brokerAddr_) && !addresses.isEmpty()) {
                setBroker(addresses.first(), false);
            }
            brokerBox_->setCurrentIndex(brokerBox_->findData(brokerAddr_));
            emit brokersListed();
        });
}

void FlushMonitorView::selectBroker(const QString &address)
{
    followEmbedded_ = host_.state() == BrokerHost::State::Running && address == host_.brokerAddress();
    setBroker(address, false);
    brokerBox_->setCurrentIndex(brokerBox_->findData(address));
}

void FlushMonitorView::setBroker(const QString &address, bool keepHistory)
{
    wasEmbedded_ = host_.state() == BrokerHost::State::Running && address == host_.brokerAddress();
    if (address == brokerAddr_)
        return;
    brokerAddr_ = address;
    ++generation_;
    inFlight_ = false;
    if (!keepHistory) {
        resetGraph();
        fallback_ = false;
        sampler_ = RuntimeSampler();
        historyState_ = HistoryState::None; // the stored hour of this broker is drawn first
    }
    poll();
}

void FlushMonitorView::resetGraph()
{
    series_ = FlushSeries();
    pending_.clear();
    pendingMarkers_.clear();
    for (int i = 0; i < plot_->graphCount(); ++i)
        plot_->graph(i)->data()->clear();
    plot_->clearItems(); // markers and the reference line
    referenceLine_ = nullptr;
    referenceText_ = nullptr;
    referenceMicros_ = 0;
    brokerReference_ = false;
    markers_ = 0;
    modeLabel_->clear();
    writePath_->showCosts({});
    showBanner({});
    if (showsEmbeddedBroker() && probeMicros_ > 0)
        setReference(probeMicros_, probeLabel_);
    followLatest();
}

void FlushMonitorView::poll()
{
    if (inFlight_ && inFlightSince_.elapsed() < 10000)
        return;
    inFlight_ = false;
    if (!connection_.isConnected() || brokerAddr_.isEmpty())
        return;
    if (history_ && historyState_ != HistoryState::Loaded) {
        if (historyState_ == HistoryState::None)
            loadHistory(); // polls once the stored samples are drawn
        return;
    }
    const std::string addr = brokerAddr_.toStdString();
    const quint64 generation = generation_;
    inFlight_ = true;
    inFlightSince_.start();
    if (fallback_) {
        connection_.run(
            this, [addr](client::AdminClient &admin) { return pollRuntime(admin, addr); },
            [this, generation](RuntimePoll answer) {
                if (generation == generation_)
                    onRuntime(answer);
            });
        return;
    }
    const int64_t since = series_.nextSequence();
    connection_.run(
        this, [addr, since](client::AdminClient &admin) { return client::getFlushSamples(admin.api(), addr, since); },
        [this, since, generation](client::Result<client::FlushSamples> answer) {
            if (generation == generation_)
                onAnswer(since, answer);
        });
}

void FlushMonitorView::onAnswer(int64_t requestedSince, const client::Result<client::FlushSamples> &answer)
{
    inFlight_ = false;
    if (!answer.ok) {
        if (answer.code == remoting::ResponseCode::kRequestCodeNotSupported) {
            // A Java broker (or MQDesk posing as one): what every RocketMQ broker answers instead.
            fallback_ = true;
            showBanner(fallbackBanner());
            QTimer::singleShot(0, this, &FlushMonitorView::poll);
        } else {
            showBanner(tr("Reading flush samples failed: %1").arg(QString::fromStdString(answer.error)));
        }
        return;
    }
    if (!modeRequestPending_ && banner_->text().startsWith(tr("Reading flush samples failed")))
        showBanner({});
    if (answer.value.fdatasyncReferenceMicros > 0) {
        brokerReference_ = true;
        setReference(static_cast<double>(answer.value.fdatasyncReferenceMicros),
                     tr("disk fdatasync (broker): %1 µs").arg(answer.value.fdatasyncReferenceMicros));
    } else if (showsEmbeddedBroker()) {
        startProbe(); // the broker's disk is this machine's
    }
    take(answer.value, requestedSince);
}

void FlushMonitorView::onRuntime(const RuntimePoll &poll)
{
    inFlight_ = false;
    if (!poll.status.ok) {
        showBanner(tr("Reading GET_BROKER_RUNTIME_INFO from %1 failed: %2")
                       .arg(brokerAddr_, QString::fromStdString(poll.status.error)));
        return;
    }
    const client::FlushSamples answer = sampler_.toAnswer(poll);
    if (!modeRequestPending_ && !banner_->text().contains(tr("after a restart")))
        showBanner(fallbackBanner());
    take(answer, series_.nextSequence());
}

QString FlushMonitorView::fallbackBanner() const
{
    return tr("%1 does not answer GET_FLUSH_SAMPLES (a Java broker): drawn from GET_BROKER_RUNTIME_INFO once a "
              "second. Not reported: %2. Put-to-ack p50/p99 are bucket bounds of putMessageDistributeTime; "
              "put-to-ack max is putMessageEntireTimeMax since the broker started.")
        .arg(brokerAddr_, sampler_.missingSeries().join(QStringLiteral(", ")));
}

void FlushMonitorView::take(const client::FlushSamples &answer, int64_t requestedSince)
{
    bool reload = false;
    std::vector<client::FlushSample> fresh = series_.take(answer, requestedSince, &reload);
    if (reload && fallback_) {
        fresh = series_.take(answer, 0, &reload); // one sample an answer: nothing to fetch again
    } else if (reload) {
        QTimer::singleShot(0, this, &FlushMonitorView::poll);
        return;
    }
    // The history keeps what MQDesk brokers report; a Java broker's samples have gaps by design.
    if (history_ && !fresh.empty() && !fallback_)
        history_->recordFlushSamples(brokerAddr_, fresh);
    QString reported = tr("Broker reports: %1").arg(series_.currentMode());
    if (fallback_ && sampler_.configuredMode() != sampler_.runningMode())
        reported = tr("Broker reports: %1 (%2 after a restart)").arg(sampler_.runningMode(), sampler_.configuredMode());
    if (modeLabel_->text() != reported) {
        modeLabel_->setText(reported);
        modeLabel_->setToolTip(reported);
        if (showsEmbeddedBroker())
            emit brokerModeChanged(series_.currentMode()); // the status bar is the embedded broker's
    }
    if (fallback_)
        writePath_->showUnavailable(tr("A Java broker's runtime info does not report its write path."));
    else
        writePath_->showState(answer.writePath);
    writePath_->showCosts(series_.writePathCosts());
    if (!modeRequestPending_) {
        const Mode shown = fallback_ ? modeOf(sampler_.configuredMode().section(QLatin1Char(' '), 0, 0).toStdString(),
                                              sampler_.configuredMode().contains(QLatin1Char('+')))
                                     : modeOf(answer.flushDiskType, answer.transientStorePoolEnable);
        modeBox_->setCurrentIndex(modeBox_->findData(static_cast<int>(shown)));
    }
    const auto &markers = series_.newMarkers();
    if (paused_) {
        pending_.insert(pending_.end(), fresh.begin(), fresh.end());
        pendingMarkers_.insert(pendingMarkers_.end(), markers.begin(), markers.end());
        return;
    }
    for (const FlushSeries::Marker &marker : markers)
        addMarker(marker);
    draw(fresh);
}

void FlushMonitorView::startProbe()
{
    if (probeStarted_ || brokerReference_ || host_.storeDir().isEmpty())
        return;
    probeStarted_ = true;
    const QString dir = host_.storeDir();
    QPointer<FlushMonitorView> guard(this);
    QThreadPool::globalInstance()->start([dir, guard] {
        const FdatasyncProbeResult result = measureFdatasync(dir);
        QMetaObject::invokeMethod(
            qApp,
            [guard, result] {
                if (!guard || guard->brokerReference_)
                    return;
                if (!result.ok) {
                    guard->showBanner(tr("Measuring the disk's fdatasync time failed: %1").arg(result.error));
                    return;
                }
                guard->probeMicros_ = result.p50Micros;
                guard->probeLabel_ = tr("disk fdatasync p50: %1 µs (4 KiB append, %2 runs)")
                                         .arg(QLocale().toString(result.p50Micros, 'f', 0))
                                         .arg(result.count);
                if (guard->showsEmbeddedBroker())
                    guard->setReference(guard->probeMicros_, guard->probeLabel_);
            },
            Qt::QueuedConnection);
    });
}

void FlushMonitorView::requestMode(Mode mode)
{
    modeBox_->setCurrentIndex(modeBox_->findData(static_cast<int>(mode)));
    if (!connection_.isConnected() || brokerAddr_.isEmpty()) {
        showBanner(tr("The broker is not running: start it to switch the flush mode."));
        return;
    }
    if (fallback_)
        return requestModeOfJavaBroker(mode);
    modeRequestPending_ = true;
    showBanner(tr("Switching the flush mode to %1…").arg(modeText(mode)));
    const std::string addr = brokerAddr_.toStdString();
    connection_.run(
        this,
        [addr, mode](client::AdminClient &admin) {
            // The pool goes off before SYNC_FLUSH and on after ASYNC_FLUSH: it only runs with
            // asynchronous flushing.
            const bool pool = mode == Mode::AsyncFlushWithPool;
            const std::string type = mode == Mode::SyncFlush ? "SYNC_FLUSH" : "ASYNC_FLUSH";
            if (!pool) {
                client::Status status = admin.updateBrokerConfig(addr, {{"transientStorePoolEnable", "false"}});
                if (!status.ok)
                    return status;
            }
            client::Status status = admin.updateBrokerConfig(addr, {{"flushDiskType", type}});
            if (status.ok && pool)
                status = admin.updateBrokerConfig(addr, {{"transientStorePoolEnable", "true"}});
            return status;
        },
        [this, mode](client::Status status) {
            modeRequestPending_ = false;
            if (status.ok)
                showBanner(tr("Flush mode set to %1.").arg(modeText(mode)));
            else
                showBanner(tr("Switching the flush mode failed: %1").arg(QString::fromStdString(status.error)));
            poll();
        });
}

void FlushMonitorView::requestWriteWithoutMmap(bool on)
{
    if (!connection_.isConnected() || brokerAddr_.isEmpty() || fallback_) {
        writePath_->setSwitchPending(false);
        showBanner(tr("writeWithoutMmap can be switched live only on a running MQDesk broker."));
        return;
    }
    writePath_->setSwitchPending(true);
    showBanner(tr("Switching writeWithoutMmap to %1…").arg(on ? QStringLiteral("true") : QStringLiteral("false")));
    const std::string addr = brokerAddr_.toStdString();
    connection_.run(
        this,
        [addr, on](client::AdminClient &admin) {
            return admin.updateBrokerConfig(addr, {{"writeWithoutMmap", on ? "true" : "false"}});
        },
        [this, on](client::Status status) {
            writePath_->setSwitchPending(false);
            if (status.ok)
                showBanner(tr("writeWithoutMmap set to %1: appends go through %2 from now on.")
                               .arg(on ? QStringLiteral("true") : QStringLiteral("false"),
                                    FlushSeries::writePathName(on)));
            else
                showBanner(tr("Switching writeWithoutMmap failed: %1").arg(QString::fromStdString(status.error)));
            poll();
        });
}

void FlushMonitorView::requestModeOfJavaBroker(Mode mode)
{
    // A Java broker stores UPDATE_BROKER_CONFIG in its broker.conf, but picks its flush service
    // and its transient store pool once, at start: the switch waits for its next restart.
    modeRequestPending_ = true;
    showBanner(tr("Saving flushDiskType in %1's configuration…").arg(brokerAddr_));
    const std::string addr = brokerAddr_.toStdString();
    connection_.run(
        this,
        [addr, mode](client::AdminClient &admin) {
            return admin.updateBrokerConfig(
                addr, {{"flushDiskType", mode == Mode::SyncFlush ? "SYNC_FLUSH" : "ASYNC_FLUSH"},
                       {"transientStorePoolEnable", mode == Mode::AsyncFlushWithPool ? "true" : "false"}});
        },
        [this, mode](client::Status status) {
            modeRequestPending_ = false;
            if (status.ok)
                showBanner(tr("%1 is configured for %2 now. A Java broker applies the flush mode only after a restart: "
                              "until then it keeps flushing as %3.")
                               .arg(brokerAddr_, modeText(mode), sampler_.runningMode()));
            else
                showBanner(tr("Saving the flush mode failed: %1").arg(QString::fromStdString(status.error)));
            poll();
        });
}

} // namespace mqdesk::ui
