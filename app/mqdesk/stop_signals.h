#pragma once

// StopSignals: SIGTERM, SIGINT and SIGHUP (a `kill`, Ctrl+C, the end of a login session) as a Qt
// signal on the GUI thread. The handler only write()s the signal number to a socketpair (the
// async-signal-safe part); a QSocketNotifier on the other end reads it and emits received(), so
// the app quits through its normal path: the window state is saved and the embedded broker
// stopped cleanly (no abort file left in the store).

#include <QObject>

class QSocketNotifier;

namespace mqdesk::app {

class StopSignals : public QObject
{
    Q_OBJECT

public:
    // Installs the handlers (one instance per process); false when the socketpair or a
    // sigaction failed (the default actions then stay).
    explicit StopSignals(QObject *parent = nullptr);
    ~StopSignals() override;
    bool installed() const { return installed_; }

    static const char *signalName(int signal);

signals:
    // On the GUI thread, once per signal delivered.
    void received(int signal);

private:
    void readSignals();

    QSocketNotifier *notifier_ = nullptr;
    bool installed_ = false;
};

} // namespace mqdesk::app
