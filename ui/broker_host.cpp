#include "ui/broker_host.h"

#include "broker/grpc/grpc_endpoint.h"
#include "broker/server/broker_controller.h"

#include <QCoreApplication>
#include <QElapsedTimer>

namespace mqdesk::ui {

BrokerWorker::BrokerWorker() = default;

BrokerWorker::~BrokerWorker()
{
    if (grpc_)
        grpc_->shutdown();
    if (broker_)
        broker_->shutdown(); // normally done already by the host's blocking stop()
}

void BrokerWorker::startGrpc(int32_t port)
{
    grpc::GrpcEndpointOptions options;
    options.bindAddress = broker_->broker().brokerConfig().bindAddress;
    options.port = static_cast<uint16_t>(port);
    grpc_ = std::make_unique<grpc::GrpcEndpoint>(broker_->broker(), options);
    std::string error;
    QString note;
    if (!grpc_->start(error) && port != 0) {
        // Another program (a RocketMQ Proxy, a second MQDesk) has the port: the broker is still
        // worth having, and the Overview shows where the endpoint went.
        note = tr("port %1 was taken").arg(port);
        options.port = 0;
        grpc_ = std::make_unique<grpc::GrpcEndpoint>(broker_->broker(), options);
        if (!grpc_->start(error))
            grpc_.reset();
    } else if (grpc_->address().empty()) {
        grpc_.reset();
    }
    if (!grpc_)
        note = QString::fromStdString(error);
    emit grpcStarted(grpc_ ? QString::fromStdString(grpc_->address()) : QString(), note);
}

void BrokerWorker::start(const server::EmbeddedBrokerOptions &options)
{
    server::EmbeddedBrokerOptions reporting = options;
    reporting.recoveryProgress = [this, next = options.recoveryProgress](const store::RecoveryProgress &progress) {
        if (next)
            next(progress);
        emit recoveryProgress(progress.done, progress.total,
                              QString::fromUtf8(progress.phase.data(), static_cast<qsizetype>(progress.phase.size())));
    };
    broker_ = std::make_unique<server::EmbeddedBroker>(reporting);
    std::string error;
    if (!broker_->start(error)) {
        broker_.reset();
        // The ports are free again now: probing tells which one another program holds.
        emit started(false, QString::fromStdString(error), {}, {}, {}, findPortConflict(options));
        return;
    }
    if (options.grpcPort >= 0)
        startGrpc(options.grpcPort);
    emit started(true, {}, QString::fromStdString(broker_->namesrvAddress()),
                 QString::fromStdString(broker_->brokerAddress()), QString::fromStdString(broker_->storeDir()), {});
}

void BrokerWorker::stop()
{
    if (grpc_) {
        grpc_->shutdown();
        grpc_.reset();
    }
    if (broker_) {
        broker_->shutdown();
        broker_.reset();
    }
    emit stopped();
}

BrokerHost::BrokerHost(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<server::EmbeddedBrokerOptions>();
    qRegisterMetaType<PortConflict>();
    thread_.setObjectName(QStringLiteral("BrokerHost"));
    worker_ = new BrokerWorker;
    worker_->moveToThread(&thread_);
    connect(this, &BrokerHost::startRequested, worker_, &BrokerWorker::start);
    connect(this, &BrokerHost::stopRequested, worker_, &BrokerWorker::stop);
    connect(worker_, &BrokerWorker::started, this, &BrokerHost::onStarted);
    connect(worker_, &BrokerWorker::stopped, this, &BrokerHost::onStopped);
    connect(worker_, &BrokerWorker::grpcStarted, this, &BrokerHost::onGrpcStarted);
    connect(worker_, &BrokerWorker::recoveryProgress, this, [this](qint64 done, qint64 total, const QString &phase) {
        emit recoveryProgress(done, total, recoveryPhaseText(phase));
    });
    thread_.start();
}

BrokerHost::~BrokerHost()
{
    // Shut the broker down on its own thread and wait for it (a start still in progress
    // finishes first: queued calls run in order), then end the thread.
    QMetaObject::invokeMethod(worker_, &BrokerWorker::stop, Qt::BlockingQueuedConnection);
    thread_.quit();
    thread_.wait();
    delete worker_;
}

QString BrokerHost::stateName(State state)
{
    switch (state) {
    case State::Stopped: return tr("stopped");
    case State::Starting: return tr("starting");
    case State::Running: return tr("running");
    case State::Stopping: return tr("stopping");
    case State::Failed: return tr("failed");
    }
    return {};
}

QString BrokerHost::recoveryPhaseText(const QString &phase)
{
    if (phase == QLatin1String("consume queues"))
        return tr("Recovering consume queues");
    if (phase == QLatin1String("commit log"))
        return tr("Checking the commit log");
    if (phase == QLatin1String("dispatch"))
        return tr("Rebuilding consume queues and index");
    return phase;
}

void BrokerHost::setState(State state)
{
    if (state_ == state)
        return;
    state_ = state;
    emit stateChanged(state);
}

void BrokerHost::start(const server::EmbeddedBrokerOptions &options)
{
    if (state_ == State::Running || state_ == State::Starting || state_ == State::Stopping)
        return;
    options_ = options;
    lastError_.clear();
    portConflict_ = {};
    // A start runs the configured mode (a live switch does not outlive the broker).
    QString mode = QString::fromUtf8(store::flushDiskTypeName(options_.settings.store.flushDiskType).data());
    if (options_.settings.store.transientStorePoolEnable)
        mode += QStringLiteral(" + pool");
    setReportedFlushMode(mode);
    setState(State::Starting);
    emit startRequested(options_);
}

void BrokerHost::setReportedFlushMode(const QString &mode)
{
    if (mode.isEmpty() || mode == flushMode_)
        return;
    flushMode_ = mode;
    emit flushModeChanged(mode);
}

void BrokerHost::stop()
{
    if (state_ != State::Running && state_ != State::Starting)
        return;
    setState(State::Stopping);
    emit stopRequested();
}

void BrokerHost::restart()
{
    if (state_ == State::Running) {
        restartPending_ = true;
        stop();
    } else if (state_ == State::Stopped || state_ == State::Failed) {
        start(options_);
    }
}

void BrokerHost::startOnPorts(quint16 namesrvPort, quint16 brokerPort)
{
    if (state_ != State::Stopped && state_ != State::Failed)
        return;
    server::EmbeddedBrokerOptions options = options_;
    options.namesrvPort = namesrvPort;
    options.settings.store.listenPort = brokerPort;
    rememberPorts(namesrvPort, brokerPort);
    start(options);
}

bool BrokerHost::waitIdle(int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while ((state_ == State::Starting || state_ == State::Stopping || restartPending_) && timer.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    return state_ != State::Starting && state_ != State::Stopping && !restartPending_;
}

void BrokerHost::onStarted(bool ok, const QString &error, const QString &namesrv, const QString &broker,
                           const QString &store, const PortConflict &conflict)
{
    if (!ok) {
        lastError_ = error;
        portConflict_ = conflict;
        setState(State::Failed);
        emit failed(error);
        return;
    }
    namesrvAddress_ = namesrv;
    brokerAddress_ = broker;
    storeDir_ = store;
    setState(State::Running);
    emit ready(namesrv, broker, store);
}

void BrokerHost::onGrpcStarted(const QString &address, const QString &note)
{
    grpcAddress_ = address;
    grpcNote_ = note;
}

void BrokerHost::onStopped()
{
    if (state_ != State::Stopping)
        return; // the stop that follows a failed start, or the destructor's
    namesrvAddress_.clear();
    brokerAddress_.clear();
    grpcAddress_.clear();
    grpcNote_.clear();
    setState(State::Stopped);
    if (restartPending_) {
        restartPending_ = false;
        start(options_);
    }
}

} // namespace mqdesk::ui
