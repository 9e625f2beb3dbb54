#pragma once

// MQDesk's main window: the embedded broker's controls and state (status bar: state, the
// NameServer address clients should use, the broker address, the flush mode) and the views.
// The window only asks the BrokerHost and shows what it reports: it never waits for the
// broker itself.

#include "ui/broker_host.h"
#include "ui/connection/cluster_connection.h"
#include "ui/connection/connection_manager.h"
#include "ui/history/history_store.h"

#include <QMainWindow>

class QAction;
class QLabel;
class QProgressBar;
class QListWidget;
class QSplitter;
class QStackedWidget;
class QToolButton;

namespace mqdesk::ui {

class ConnectionBar;
class HistoryRecorder;
class OverviewView;

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    // Starts the embedded broker with `options` at once.
    explicit MainWindow(const server::EmbeddedBrokerOptions &options, QWidget *parent = nullptr);
    ~MainWindow() override;

    BrokerHost &brokerHost() { return host_; }
    // The cluster the views show: the embedded broker's NameServer while it runs, or the saved
    // connection picked in the Connections toolbar.
    ClusterConnection &connection() { return connection_; }
    ConnectionManager &connections() { return connections_; }
    ConnectionBar *connectionBar() const { return connectionBar_; }
    // The history database and what samples the cluster into it.
    HistoryStore &history() { return history_; }
    HistoryRecorder *historyRecorder() const { return recorder_; }
    // What the history banner says ("" when hidden): a replaced corrupt or locked database.
    QString historyBannerText() const;
    // Adds a page to the navigation (in order); returns its index.
    int addView(QWidget *view, const QString &title);
    void showView(int index);
    // The view pages, in navigation order (for tests and screenshots).
    QStackedWidget *pages() const { return pages_; }
    QString statusText() const;
    // The app's every quit path (closing the window, QCoreApplication::quit() on a stop signal
    // or at the session's end): saves the window state and stops the broker cleanly, waiting
    // for that (a flush, at most 30 s). Only the first call does anything.
    void shutDown();
    // Saves geometry, splitter and view (closing does it too; the session manager asks for it
    // before a logout).
    void rememberWindowState();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void buildMenus();
    void onStateChanged(BrokerHost::State state);
    void onFailed(const QString &error);
    void onRecoveryProgress(qint64 done, qint64 total, const QString &phase);
    void updateStatus();
    void followSelectedConnection();

    BrokerHost host_;
    ClusterConnection connection_;
    HistoryStore history_;
    ConnectionManager connections_;
    ConnectionBar *connectionBar_ = nullptr;
    HistoryRecorder *recorder_ = nullptr;
    QLabel *historyBanner_ = nullptr;
    QSplitter *splitter_ = nullptr;
    QListWidget *navigation_ = nullptr;
    QStackedWidget *pages_ = nullptr;
    OverviewView *overview_ = nullptr;
    QLabel *stateLabel_ = nullptr;
    QLabel *addressLabel_ = nullptr;
    QLabel *flushLabel_ = nullptr;
    QProgressBar *recoveryBar_ = nullptr; // the store's recovery, while the broker starts
    QToolButton *usePortsButton_ = nullptr; // "Use port N" beside the failure message
    QAction *startAction_ = nullptr;
    QAction *stopAction_ = nullptr;
    QAction *restartAction_ = nullptr;
    bool shutDown_ = false;
};

} // namespace mqdesk::ui
