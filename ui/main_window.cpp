#include "ui/main_window.h"

#include "ui/access/access_view.h"
#include "ui/connection/connection_bar.h"
#include "ui/explorer/explorer_actions.h"
#include "ui/flush/flush_monitor_view.h"
#include "ui/groups/groups_view.h"
#include "ui/history/history_recorder.h"
#include "ui/language.h"
#include "ui/messages/messages_view.h"
#include "ui/overview/overview_view.h"
#include "ui/topics/topics_view.h"
#include "ui/window_state.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace mqdesk::ui {

MainWindow::MainWindow(const server::EmbeddedBrokerOptions &options, QWidget *parent)
    : QMainWindow(parent), connections_(history_)
{
    setWindowTitle(tr("MQDesk"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/mqdesk.svg")));
    resize(1100, 700);

    recorder_ = new HistoryRecorder(connection_, history_, this);
    navigation_ = new QListWidget(this);
    navigation_->setObjectName(QStringLiteral("navigation"));
    pages_ = new QStackedWidget(this);
    overview_ = new OverviewView(host_, connection_, pages_);
    connect(navigation_, &QListWidget::currentRowChanged, pages_, &QStackedWidget::setCurrentIndex);
    addView(overview_, tr("Overview"));
    addView(new TopicsView(connection_, pages_), tr("Topics"));
    auto *groups = new GroupsView(connection_, pages_);
    groups->setHistory(history_, *recorder_);
    addView(groups, tr("Consumer groups"));
    addView(new MessagesView(connection_, pages_), tr("Messages"));
    auto *flushMonitor = new FlushMonitorView(host_, connection_, pages_);
    flushMonitor->setHistory(&history_);
    addView(flushMonitor, tr("Flush monitor"));
    addView(new AccessView(connection_, pages_), tr("Access control"));
    navigation_->setCurrentRow(0);

    splitter_ = new QSplitter(this);
    splitter_->addWidget(navigation_);
    splitter_->addWidget(pages_);
    splitter_->setStretchFactor(1, 1);
    splitter_->setSizes({180, 920});
    // The Connections toolbar picks the cluster; its banner sits above the views.
    connectionBar_ = new ConnectionBar(connections_, connection_, this);
    addToolBar(connectionBar_);
    auto *central = new QWidget(this);
    auto *centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(connectionBar_->banner());
    // A corrupt or locked history database was replaced: said once, with the paths.
    historyBanner_ = new QLabel(this);
    historyBanner_->setWordWrap(true);
    historyBanner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    historyBanner_->setContentsMargins(6, 4, 6, 4);
    historyBanner_->hide();
    connect(&history_, &HistoryStore::problem, this, [this](const QString &text) {
        historyBanner_->setText(text);
        historyBanner_->show();
        statusBar()->showMessage(text, 15000);
    });
    centralLayout->addWidget(historyBanner_);
    centralLayout->addWidget(splitter_, 1);
    setCentralWidget(central);
    if (const int view = restoreWindowState(*this, *splitter_); view >= 0 && view < pages_->count())
        navigation_->setCurrentRow(view);
    connect(&connections_, &ConnectionManager::selectionChanged, this, &MainWindow::followSelectedConnection);
    connect(&connections_, &ConnectionManager::credentialsChanged, this, [this](int index) {
        if (index == connections_.selectedIndex())
            followSelectedConnection();
    });
    connect(&connection_, &ClusterConnection::tlsCertificateTrusted, this,
            [this](const QString &address, const QString &endpoint, const QString &fingerprint) {
                const SavedConnection *selected = connections_.selectedConnection();
                if (!selected || selected->namesrvAddress != address)
                    return;
                const QString name = selected->name;
                connections_.trustCertificate(name, endpoint, fingerprint);
                statusBar()->showMessage(tr("%1: the certificate of %2 is trusted from now on (first use): %3")
                                             .arg(name, endpoint, fingerprint),
                                         15000);
            });

    stateLabel_ = new QLabel(this);
    addressLabel_ = new QLabel(this);
    addressLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    flushLabel_ = new QLabel(this);
    statusBar()->addWidget(stateLabel_);
    statusBar()->addWidget(addressLabel_, 1);
    recoveryBar_ = new QProgressBar(this);
    recoveryBar_->setObjectName(QStringLiteral("recoveryProgressBar"));
    recoveryBar_->setRange(0, 1000); // per mille: byte counts overflow an int
    recoveryBar_->setMinimumWidth(320);
    recoveryBar_->hide();
    statusBar()->addWidget(recoveryBar_);
    statusBar()->addPermanentWidget(flushLabel_);
    // Permanent, so it stays beside the failure message (a message hides the normal widgets).
    usePortsButton_ = new QToolButton(this);
    usePortsButton_->setObjectName(QStringLiteral("statusUsePortsButton"));
    usePortsButton_->setDefaultAction(overview_->usePortsAction());
    statusBar()->addPermanentWidget(usePortsButton_);
    // The mode the embedded broker reports, which a switch changes live, is kept by the host:
    // the status bar and the Overview both show host_.flushMode().
    connect(flushMonitor, &FlushMonitorView::brokerModeChanged, &host_, &BrokerHost::setReportedFlushMode);
    connect(&host_, &BrokerHost::flushModeChanged, this, &MainWindow::updateStatus);

    buildMenus();
    connect(&host_, &BrokerHost::stateChanged, this, &MainWindow::onStateChanged);
    connect(&host_, &BrokerHost::failed, this, &MainWindow::onFailed);
    connect(&host_, &BrokerHost::recoveryProgress, this, &MainWindow::onRecoveryProgress);
    host_.start(options);
    followSelectedConnection(); // a saved connection picked last time is shown at once
    updateStatus();
}

MainWindow::~MainWindow() = default;

int MainWindow::addView(QWidget *view, const QString &title)
{
    const int index = pages_->addWidget(view);
    navigation_->addItem(title);
    // Ctrl+1..9 switch views.
    if (index < 9) {
        auto *shortcut = new QAction(this);
        shortcut->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + index)));
        connect(shortcut, &QAction::triggered, this, [this, index] { showView(index); });
        addAction(shortcut);
    }
    return index;
}

void MainWindow::showView(int index)
{
    navigation_->setCurrentRow(index);
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    // The embedded broker's store, also while it is stopped (explored read-only either way).
    addStoreExplorerActions(file, this, [this] {
        const QString running = host_.storeDir();
        return running.isEmpty() ? QString::fromStdString(host_.options().settings.store.storePathRootDir) : running;
    });
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    // The platform's Quit keys, and Ctrl+Q where its theme binds none (a bare X server without a
    // desktop, offscreen): the key a Linux user presses.
    QList<QKeySequence> quitKeys = QKeySequence::keyBindings(QKeySequence::Quit);
    if (!quitKeys.contains(QKeySequence(Qt::CTRL | Qt::Key_Q)))
        quitKeys.append(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setShortcuts(quitKeys);

    QMenu *broker = menuBar()->addMenu(tr("&Broker"));
    startAction_ = broker->addAction(tr("&Start"), this, [this] { host_.start(host_.options()); });
    stopAction_ = broker->addAction(tr("S&top"), this, [this] { host_.stop(); });
    restartAction_ = broker->addAction(tr("&Restart"), this, [this] { host_.restart(); });

    connectionBar_->addActionsTo(menuBar()->addMenu(tr("&Connections")));

    QMenu *view = menuBar()->addMenu(tr("&View"));
    addLanguageMenu(*view, *statusBar());
}

QString MainWindow::historyBannerText() const
{
    return historyBanner_->isVisible() ? historyBanner_->text() : QString();
}

QString MainWindow::statusText() const
{
    return stateLabel_->text() + QLatin1Char(' ') + addressLabel_->text() + QLatin1Char(' ') + flushLabel_->text();
}

void MainWindow::onStateChanged(BrokerHost::State state)
{
    // The views follow the embedded broker while it runs, when it is the cluster picked.
    if (!connections_.selectedConnection()) {
        // With ACL 2.0 on, the embedded broker's own Super user (from its broker.conf) signs.
        const acl::Credentials credentials = server::consoleCredentials(host_.options());
        if (state == BrokerHost::State::Running)
            connection_.setTarget(host_.namesrvAddress(), QString::fromStdString(credentials.accessKey),
                                  QString::fromStdString(credentials.secretKey));
        else
            connection_.setTarget({});
    }
    updateStatus();
}

void MainWindow::followSelectedConnection()
{
    if (const SavedConnection *selected = connections_.selectedConnection()) {
        const ClusterConnection::Tls tls{selected->tls, selected->tlsPin};
        if (selected->accessKey.isEmpty()) {
            connection_.setTarget(selected->namesrvAddress, {}, {}, tls);
        } else {
            // The secret comes from the keyring (which may first ask to be unlocked).
            connections_.credentialsFor(
                selected->name, this,
                [this, name = selected->name, tls](const QString &accessKey, const QString &secretKey,
                                                   const QString &error) {
                    const SavedConnection *still = connections_.selectedConnection();
                    if (!still || still->name != name)
                        return;
                    if (!error.isEmpty())
                        statusBar()->showMessage(tr("Requests to %1 are not signed: %2").arg(name, error), 15000);
                    connection_.setTarget(still->namesrvAddress, accessKey, secretKey, tls);
                });
        }
    } else {
        onStateChanged(host_.state());
    }
    updateStatus();
}

void MainWindow::onFailed(const QString &error)
{
    // The status bar (updateStatus) and the overview say it; the overview also says what to do.
    Q_UNUSED(error);
    navigation_->setCurrentRow(0);
}

void MainWindow::onRecoveryProgress(qint64 done, qint64 total, const QString &phase)
{
    if (host_.state() != BrokerHost::State::Starting)
        return;
    recoveryBar_->setValue(total > 0 ? static_cast<int>(done * 1000 / total) : 1000);
    recoveryBar_->setFormat(tr("%1: %p%").arg(phase));
    recoveryBar_->show();
}

void MainWindow::updateStatus()
{
    const BrokerHost::State state = host_.state();
    if (state != BrokerHost::State::Starting)
        recoveryBar_->hide(); // shown again by the next start's first report
    stateLabel_->setText(tr("Broker %1").arg(BrokerHost::stateName(state)));
    QStringList parts;
    const PortConflict conflict = host_.portConflict();
    if (state == BrokerHost::State::Running)
        parts << tr("NameServer %1 · broker %2").arg(host_.namesrvAddress(), host_.brokerAddress());
    else if (state == BrokerHost::State::Failed && conflict.any())
        parts << tr("port %1 is in use — choose another port")
                     .arg(conflict.namesrvTaken ? conflict.namesrvPort : conflict.brokerPort);
    else if (state == BrokerHost::State::Failed)
        parts << tr("could not start: %1").arg(host_.lastError());
    // The embedded broker's addresses stay in view; when another cluster is picked, say so.
    if (const SavedConnection *selected = connections_.selectedConnection()) {
        parts << (selected->accessKey.isEmpty()
                      ? tr("Views show %1 (%2)").arg(selected->name, selected->namesrvAddress)
                      : tr("Views show %1 (%2) as %3").arg(selected->name, selected->namesrvAddress, selected->accessKey));
    }
    addressLabel_->setText(parts.join(QStringLiteral(" · ")));
    flushLabel_->setText(host_.flushMode());
    usePortsButton_->setVisible(overview_->usePortsAction()->isVisible());
    startAction_->setEnabled(state == BrokerHost::State::Stopped || state == BrokerHost::State::Failed);
    stopAction_->setEnabled(state == BrokerHost::State::Running);
    restartAction_->setEnabled(state == BrokerHost::State::Running);
}

void MainWindow::rememberWindowState()
{
    saveWindowState(*this, *splitter_, navigation_->currentRow());
}

void MainWindow::shutDown()
{
    if (shutDown_)
        return;
    shutDown_ = true;
    // The host stops the broker on its own thread and the window waits only for that (a
    // flush), never for anything on the network.
    rememberWindowState();
    statusBar()->showMessage(tr("Stopping the broker…"));
    host_.stop();
    host_.waitIdle(30000);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    // Quitting shuts the broker down cleanly.
    shutDown();
    event->accept();
}

} // namespace mqdesk::ui
