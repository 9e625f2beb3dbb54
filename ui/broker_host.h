#pragma once

// BrokerHost: the desktop app's embedded broker (NameServer + Broker, broker/server's
// EmbeddedBroker) on a thread of its own. Starting recovers the store, which can take seconds
// on a large one, and stopping flushes it: neither ever runs on the GUI thread. The GUI asks
// with start()/stop()/restart() and learns the outcome from the signals, delivered on its own
// thread. When the options ask for one (grpcPort >= 0) the worker also serves the RocketMQ 5
// gRPC endpoint (broker/grpc's GrpcEndpoint) over that broker, started after it and stopped
// before it; a taken port falls back to a free one (grpcNote says so) rather than failing.

#include "broker/server/embedded_broker.h"
#include "ui/port_choice.h"

#include <QObject>
#include <QString>
#include <QThread>

namespace mqdesk::grpc {
class GrpcEndpoint;
}

namespace mqdesk::ui {

class BrokerWorker;

class BrokerHost : public QObject
{
    Q_OBJECT

public:
    enum class State { Stopped, Starting, Running, Stopping, Failed };
    Q_ENUM(State)

    explicit BrokerHost(QObject *parent = nullptr);
    // Stops the broker (cleanly: no abort file) and joins the thread.
    ~BrokerHost() override;

    State state() const { return state_; }
    QString namesrvAddress() const { return namesrvAddress_; }
    QString brokerAddress() const { return brokerAddress_; }
    QString storeDir() const { return storeDir_; }
    // "127.0.0.1:8081" while running with a gRPC endpoint, else empty.
    QString grpcAddress() const { return grpcAddress_; }
    // Why the endpoint is not where it was asked to be ("port 8081 was taken"), else empty.
    QString grpcNote() const { return grpcNote_; }
    QString lastError() const { return lastError_; }
    // After a failed start: which ports were taken and free ones to use instead.
    PortConflict portConflict() const { return portConflict_; }
    const server::EmbeddedBrokerOptions &options() const { return options_; }
    // The flush mode of the embedded broker as every view shows it ("SYNC_FLUSH",
    // "ASYNC_FLUSH + pool"): the started options' mode, then what the broker reports after a
    // live switch (setReportedFlushMode, fed by the flush monitor's samples).
    QString flushMode() const { return flushMode_; }
    void setReportedFlushMode(const QString &mode);

    // Starts with `options` (ignored while a broker runs or starts).
    void start(const server::EmbeddedBrokerOptions &options);
    void stop();
    // Stops, then starts again with the last options.
    void restart();
    // Starts again (stopped or failed) on these ports, and remembers them for the next start
    // of the app (rememberPorts).
    void startOnPorts(quint16 namesrvPort, quint16 brokerPort);
    // Blocks until the host leaves Starting/Stopping or `timeoutMs` passes (tests, quit).
    bool waitIdle(int timeoutMs);

    static QString stateName(State state);
    // "Checking the commit log" for the engine's "commit log", and so on.
    static QString recoveryPhaseText(const QString &phase);

signals:
    void stateChanged(mqdesk::ui::BrokerHost::State state);
    // The broker accepts connections at these addresses.
    void ready(const QString &namesrvAddress, const QString &brokerAddress, const QString &storeDir);
    // Starting failed; `error` names what (a port in use, a store that cannot open).
    void failed(const QString &error);
    // While Starting: the store's recovery, `done` of `total` in the phase's unit (bytes, or
    // queues), `phase` as the user reads it (recoveryPhaseText). Order and guarantees: see
    // broker/store/recovery_progress.h.
    void recoveryProgress(qint64 done, qint64 total, const QString &phase);

    // To the worker (queued onto its thread).
    void startRequested(const mqdesk::server::EmbeddedBrokerOptions &options);
    void stopRequested();
    // flushMode() changed (a start, or a live switch the broker reported).
    void flushModeChanged(const QString &mode);

private:
    void setState(State state);
    void onStarted(bool ok, const QString &error, const QString &namesrv, const QString &broker, const QString &store,
                   const mqdesk::ui::PortConflict &conflict);
    void onGrpcStarted(const QString &address, const QString &note);
    void onStopped();

    QThread thread_;
    BrokerWorker *worker_ = nullptr; // lives on thread_
    server::EmbeddedBrokerOptions options_;
    State state_ = State::Stopped;
    bool restartPending_ = false;
    QString namesrvAddress_;
    QString brokerAddress_;
    QString storeDir_;
    QString grpcAddress_;
    QString grpcNote_;
    QString flushMode_;
    QString lastError_;
    PortConflict portConflict_;
};

// Lives on the host's thread and owns the broker.
class BrokerWorker : public QObject
{
    Q_OBJECT

public:
    BrokerWorker(); // out of line: GrpcEndpoint is incomplete here
    ~BrokerWorker() override;
    void start(const server::EmbeddedBrokerOptions &options);
    void stop();

signals:
    // `conflict` says which ports were taken when a start failed.
    void started(bool ok, const QString &error, const QString &namesrv, const QString &broker, const QString &store,
                 const mqdesk::ui::PortConflict &conflict);
    void stopped();
    // Before started(true, ...): where the gRPC endpoint serves, and why not where asked.
    void grpcStarted(const QString &address, const QString &note);
    // The engine's phase name ("commit log"), from the worker's thread.
    void recoveryProgress(qint64 done, qint64 total, const QString &phase);

private:
    void startGrpc(int32_t port);

    std::unique_ptr<server::EmbeddedBroker> broker_;
    std::unique_ptr<grpc::GrpcEndpoint> grpc_; // stopped before broker_
};

} // namespace mqdesk::ui

Q_DECLARE_METATYPE(mqdesk::server::EmbeddedBrokerOptions)
