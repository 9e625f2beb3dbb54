#include "ui/flush/flush_monitor_source.h"

#include "broker/client/admin_client.h"
#include "ui/broker_host.h"
#include "ui/connection/cluster_connection.h"
#include "ui/flush/fdatasync_probe.h"
#include "ui/history/history_store.h"

#include <QApplication>
#include <QLocale>
#include <QPointer>
#include <QThreadPool>
#include <QTimer>

namespace mqdesk::ui {

namespace {

FlushMode modeOf(const std::string &flushDiskType, bool pool)
{
    return flushDiskType == "SYNC_FLUSH" ? FlushMode::SyncFlush
           : pool                        ? FlushMode::AsyncFlushWithPool
                                         : FlushMode::AsyncFlush;
}

} // namespace

FlushMonitorSource::FlushMonitorSource(BrokerHost &host, ClusterConnection &connection, QObject *parent)
    : QObject(parent), host_(host), connection_(connection)
{
    timer_ = new QTimer(this);
    timer_->setInterval(1000);
    connect(timer_, &QTimer::timeout, this, [this] {
        // The brokers of the cluster change rarely: listed again every 10 s.
        if (++ticks_ % 10 == 0)
            listBrokers();
        poll();
    });
    timer_->start();
    connect(&connection_, &ClusterConnection::namesrvAddressChanged, this, &FlushMonitorSource::listBrokers);
    connect(&host_, &BrokerHost::stateChanged, this, &FlushMonitorSource::listBrokers);
    QTimer::singleShot(0, this, &FlushMonitorSource::listBrokers);
}

FlushMonitorSource::~FlushMonitorSource() = default;

QString FlushMonitorSource::modeText(FlushMode mode)
{
    switch (mode) {
    case FlushMode::SyncFlush: return tr("SYNC_FLUSH");
    case FlushMode::AsyncFlush: return tr("ASYNC_FLUSH");
    case FlushMode::AsyncFlushWithPool: return tr("ASYNC_FLUSH + transient store pool");
    }
    return {};
}

void FlushMonitorSource::showBanner(const QString &text)
{
    // Sent even when unchanged: the view's label is shared with its own messages (exports), and
    // a repeated banner (a Java broker's explanation) must come back over them.
    banner_ = text;
    emit bannerChanged(text);
}

void FlushMonitorSource::setHistory(HistoryStore *history)
{
    history_ = history;
    historyState_ = HistoryState::None;
}

void FlushMonitorSource::loadHistory()
{
    historyState_ = HistoryState::Loading;
    const QString broker = brokerAddr_;
    const quint64 generation = generation_;
    const int64_t to = history_->now();
    const auto from = to - static_cast<int64_t>(FlushSeries::kDefaultMaxSamples) * 1000;
    history_->run(
        this,
        [broker, from, to](HistoryDatabase &db) { return db.flushSamples(broker, from, to, HistoryResolution::Second); },
        [this, generation](std::vector<client::FlushSample> stored) {
            if (generation != generation_) {
                historyState_ = HistoryState::None; // another broker is drawn now: load its history
                return;
            }
            historyState_ = HistoryState::Loaded;
            series_.seed(stored, static_cast<double>(history_->startedAt()) / 1000.0);
            emit samplesTaken(stored, series_.newMarkers());
            poll();
        });
}

bool FlushMonitorSource::showsEmbeddedBroker() const
{
    return host_.state() == BrokerHost::State::Running && brokerAddr_ == host_.brokerAddress();
}

void FlushMonitorSource::listBrokers()
{
    if (!connection_.isConnected()) {
        emit brokersListed({}, brokerAddr_); // the broker drawn stays (with its history) until the cluster is back
        return;
    }
    const QString namesrv = connection_.namesrvAddress();
    connection_.run(
        this, [](client::AdminClient &admin) { return admin.clusterInfo(); },
        [this, namesrv](client::Result<remoting::ClusterInfo> info) {
            // A late answer of the NameServer shown before (the embedded broker restarted on
            // other ports, another cluster was picked) would pick a broker of the wrong cluster.
            if (!info.ok || namesrv != connection_.namesrvAddress())
                return; // a failure: the poll's banner says why
            QList<BrokerChoice> brokers;
            QStringList addresses;
            for (const auto &[name, broker] : info.value.brokerAddrTable)
                for (const auto &[id, address] : broker.brokerAddrs) {
                    const QString addr = QString::fromStdString(address);
                    brokers.append({id == 0 ? tr("%1 (%2)").arg(QString::fromStdString(name), addr)
                                            : tr("%1 #%2 (%3)").arg(QString::fromStdString(name)).arg(id).arg(addr),
                                    addr});
                    addresses << addr;
                }
            const QString embedded = host_.state() == BrokerHost::State::Running ? host_.brokerAddress() : QString();
            if (followEmbedded_ && addresses.contains(embedded)) {
                // The embedded broker restarted on another port: still the same broker's history.
                setBroker(embedded, wasEmbedded_);
            } else if (!addresses.contains(brokerAddr_) && !addresses.isEmpty()) {
                setBroker(addresses.first(), false);
            }
            emit brokersListed(brokers, brokerAddr_);
        });
}

void FlushMonitorSource::selectBroker(const QString &address)
{
    followEmbedded_ = host_.state() == BrokerHost::State::Running && address == host_.brokerAddress();
    setBroker(address, false);
}

void FlushMonitorSource::setBroker(const QString &address, bool keepHistory)
{
    wasEmbedded_ = host_.state() == BrokerHost::State::Running && address == host_.brokerAddress();
    if (address == brokerAddr_)
        return;
    brokerAddr_ = address;
    ++generation_;
    inFlight_ = false;
    if (!keepHistory) {
        reset();
        fallback_ = false;
        sampler_ = RuntimeSampler();
        historyState_ = HistoryState::None; // the stored hour of this broker is drawn first
    }
    poll();
}

void FlushMonitorSource::reset()
{
    series_ = FlushSeries();
    brokerReference_ = false;
    reported_.clear();
    emit graphReset();
    emit reportedModeChanged({});
    showBanner({});
    if (showsEmbeddedBroker() && probeMicros_ > 0)
        emit referenceChanged(probeMicros_, probeLabel_);
}

void FlushMonitorSource::poll()
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

void FlushMonitorSource::onAnswer(int64_t requestedSince, const client::Result<client::FlushSamples> &answer)
{
    inFlight_ = false;
    if (!answer.ok) {
        if (answer.isNotSupported()) {
            // A Java broker (or MQDesk posing as one): what every RocketMQ broker answers instead.
            fallback_ = true;
            showBanner(fallbackBanner());
            QTimer::singleShot(0, this, &FlushMonitorSource::poll);
        } else {
            showBanner(tr("Reading flush samples failed: %1").arg(QString::fromStdString(answer.error)));
        }
        return;
    }
    if (!modeRequestPending_ && banner_.startsWith(tr("Reading flush samples failed")))
        showBanner({});
    if (answer.value.fdatasyncReferenceMicros > 0) {
        brokerReference_ = true;
        emit referenceChanged(static_cast<double>(answer.value.fdatasyncReferenceMicros),
                              tr("disk fdatasync (broker): %1 µs").arg(answer.value.fdatasyncReferenceMicros));
    } else if (showsEmbeddedBroker()) {
        startProbe(); // the broker's disk is this machine's
    }
    take(answer.value, requestedSince);
}

void FlushMonitorSource::onRuntime(const RuntimePoll &poll)
{
    inFlight_ = false;
    if (!poll.status.ok) {
        showBanner(tr("Reading GET_BROKER_RUNTIME_INFO from %1 failed: %2")
                       .arg(brokerAddr_, QString::fromStdString(poll.status.error)));
        return;
    }
    const client::FlushSamples answer = sampler_.toAnswer(poll);
    if (!modeRequestPending_ && !banner_.contains(tr("after a restart")))
        showBanner(fallbackBanner());
    take(answer, series_.nextSequence());
}

QString FlushMonitorSource::fallbackBanner() const
{
    return tr("%1 does not answer GET_FLUSH_SAMPLES (a Java broker): drawn from GET_BROKER_RUNTIME_INFO once a "
              "second. Not reported: %2. Put-to-ack p50/p99 are bucket bounds of putMessageDistributeTime; "
              "put-to-ack max is putMessageEntireTimeMax since the broker started.")
        .arg(brokerAddr_, sampler_.missingSeries().join(QStringLiteral(", ")));
}

void FlushMonitorSource::take(const client::FlushSamples &answer, int64_t requestedSince)
{
    bool reload = false;
    std::vector<client::FlushSample> fresh = series_.take(answer, requestedSince, &reload);
    if (reload && fallback_) {
        fresh = series_.take(answer, 0, &reload); // one sample an answer: nothing to fetch again
    } else if (reload) {
        QTimer::singleShot(0, this, &FlushMonitorSource::poll);
        return;
    }
    // The history keeps what MQDesk brokers report; a Java broker's samples have gaps by design.
    if (history_ && !fresh.empty() && !fallback_)
        history_->recordFlushSamples(brokerAddr_, fresh);
    QString reported = tr("Broker reports: %1").arg(series_.currentMode());
    if (fallback_ && sampler_.configuredMode() != sampler_.runningMode())
        reported = tr("Broker reports: %1 (%2 after a restart)").arg(sampler_.runningMode(), sampler_.configuredMode());
    if (reported_ != reported) {
        reported_ = reported;
        emit reportedModeChanged(reported);
        if (showsEmbeddedBroker())
            emit brokerModeChanged(series_.currentMode()); // the status bar is the embedded broker's
    }
    if (fallback_)
        emit writePathUnavailable(tr("A Java broker's runtime info does not report its write path."));
    else
        emit writePathReported(answer.writePath);
    if (!modeRequestPending_) {
        const FlushMode shown = fallback_ ? modeOf(sampler_.configuredMode().section(QLatin1Char(' '), 0, 0).toStdString(),
                                                   sampler_.configuredMode().contains(QLatin1Char('+')))
                                          : modeOf(answer.flushDiskType, answer.transientStorePoolEnable);
        emit shownModeChanged(shown);
    }
    emit samplesTaken(fresh, series_.newMarkers());
}

void FlushMonitorSource::startProbe()
{
    if (probeStarted_ || brokerReference_ || host_.storeDir().isEmpty())
        return;
    probeStarted_ = true;
    const QString dir = host_.storeDir();
    QPointer<FlushMonitorSource> guard(this);
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
                    emit guard->referenceChanged(guard->probeMicros_, guard->probeLabel_);
            },
            Qt::QueuedConnection);
    });
}

void FlushMonitorSource::requestMode(FlushMode mode)
{
    if (modeRequestPending_) {
        // One switch at a time (its updates must not interleave with another's): the latest
        // asked for runs when the one under way has answered.
        queuedMode_ = mode;
        return;
    }
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
            const bool pool = mode == FlushMode::AsyncFlushWithPool;
            const std::string type = mode == FlushMode::SyncFlush ? "SYNC_FLUSH" : "ASYNC_FLUSH";
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
            if (runQueuedMode())
                return;
            if (status.ok)
                showBanner(tr("Flush mode set to %1.").arg(modeText(mode)));
            else
                showBanner(tr("Switching the flush mode failed: %1").arg(QString::fromStdString(status.error)));
            poll();
        });
}

void FlushMonitorSource::requestWriteWithoutMmap(bool on)
{
    if (!connection_.isConnected() || brokerAddr_.isEmpty() || fallback_) {
        emit writePathSwitchFinished();
        showBanner(tr("writeWithoutMmap can be switched live only on a running MQDesk broker."));
        return;
    }
    showBanner(tr("Switching writeWithoutMmap to %1…").arg(on ? QStringLiteral("true") : QStringLiteral("false")));
    const std::string addr = brokerAddr_.toStdString();
    connection_.run(
        this,
        [addr, on](client::AdminClient &admin) {
            return admin.updateBrokerConfig(addr, {{"writeWithoutMmap", on ? "true" : "false"}});
        },
        [this, on](client::Status status) {
            emit writePathSwitchFinished();
            if (status.ok)
                showBanner(tr("writeWithoutMmap set to %1: appends go through %2 from now on.")
                               .arg(on ? QStringLiteral("true") : QStringLiteral("false"),
                                    FlushSeries::writePathName(on)));
            else
                showBanner(tr("Switching writeWithoutMmap failed: %1").arg(QString::fromStdString(status.error)));
            poll();
        });
}

bool FlushMonitorSource::runQueuedMode()
{
    if (!queuedMode_)
        return false;
    const FlushMode next = *queuedMode_;
    queuedMode_.reset();
    requestMode(next);
    return true;
}

void FlushMonitorSource::requestModeOfJavaBroker(FlushMode mode)
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
                addr, {{"flushDiskType", mode == FlushMode::SyncFlush ? "SYNC_FLUSH" : "ASYNC_FLUSH"},
                       {"transientStorePoolEnable", mode == FlushMode::AsyncFlushWithPool ? "true" : "false"}});
        },
        [this, mode](client::Status status) {
            modeRequestPending_ = false;
            if (runQueuedMode())
                return;
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
