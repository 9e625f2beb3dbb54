#include "ui/overview/overview_view.h"

#include "ui/overview/brokers_panel.h"
#include "ui/choose_ports_dialog.h"
#include "ui/overview/client_snippets.h"
#include "ui/connection/cluster_connection.h"

#include <QAction>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QClipboard>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace mqdesk::ui {

OverviewView::OverviewView(BrokerHost &host, ClusterConnection &connection, QWidget *parent)
    : QWidget(parent), host_(host), connection_(connection)
{
    auto *layout = new QVBoxLayout(this);
    title_ = new QLabel(this);
    QFont big = title_->font();
    big.setPointSizeF(big.pointSizeF() * 1.4);
    big.setBold(true);
    title_->setFont(big);
    details_ = new QLabel(this);
    details_->setObjectName(QStringLiteral("overviewDetails"));
    details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    details_->setWordWrap(true);
    // The snippets name the cluster the views show: the embedded broker's while it is picked
    // (and runs), else the saved connection picked.
    snippets_ = new ClientSnippets(this);
    snippets_->setObjectName(QStringLiteral("clientSnippets"));
    auto *copy = new QPushButton(tr("Copy NameServer address"), this);
    copy->setObjectName(QStringLiteral("copyNamesrvAddress"));
    connect(copy, &QPushButton::clicked, this, [this] {
        QGuiApplication::clipboard()->setText(connection_.namesrvAddress());
    });
    // A port conflict is fixed from here in one click.
    usePortsAction_ = new QAction(this);
    usePortsAction_->setObjectName(QStringLiteral("usePortsAction"));
    connect(usePortsAction_, &QAction::triggered, this, [this] {
        const PortConflict conflict = host_.portConflict();
        host_.startOnPorts(conflict.freeNamesrvPort, conflict.freeBrokerPort);
    });
    portFix_ = new QWidget(this);
    usePortsButton_ = new QPushButton(portFix_);
    usePortsButton_->setObjectName(QStringLiteral("usePortsButton"));
    connect(usePortsButton_, &QPushButton::clicked, usePortsAction_, &QAction::trigger);
    auto *chooseButton = new QPushButton(tr("Choose ports…"), portFix_);
    chooseButton->setObjectName(QStringLiteral("choosePortsButton"));
    connect(chooseButton, &QPushButton::clicked, this, &OverviewView::choosePorts);
    auto *fixLayout = new QHBoxLayout(portFix_);
    fixLayout->setContentsMargins(0, 0, 0, 0);
    fixLayout->addWidget(usePortsButton_);
    fixLayout->addWidget(chooseButton);
    fixLayout->addStretch(1);

    layout->addWidget(title_);
    layout->addWidget(details_);
    layout->addWidget(portFix_);
    clientPart_ = new QWidget(this);
    auto *clientLayout = new QVBoxLayout(clientPart_);
    clientLayout->setContentsMargins(0, 0, 0, 0);
    auto *clientHeading = new QHBoxLayout;
    clientHeading->addWidget(new QLabel(tr("Connect a client:"), clientPart_));
    clientHeading->addWidget(copy);
    clientHeading->addStretch(1);
    clientLayout->addLayout(clientHeading);
    clientLayout->addWidget(snippets_);
    layout->addWidget(clientPart_, 1);
    brokers_ = new BrokersPanel(connection, this);
    layout->addWidget(brokers_, 1);

    connect(&host_, &BrokerHost::stateChanged, this, &OverviewView::refresh);
    connect(&connection_, &ClusterConnection::namesrvAddressChanged, this, &OverviewView::refresh);
    connect(&host_, &BrokerHost::flushModeChanged, this, &OverviewView::refresh);
    refresh();
}

void OverviewView::refresh()
{
    const auto state = host_.state();
    title_->setText(tr("Embedded broker: %1").arg(BrokerHost::stateName(state)));
    const auto &options = host_.options();
    const QString flush = host_.flushMode(); // what the status bar shows, switched live too
    if (state == BrokerHost::State::Running) {
        QString text = tr("NameServer: %1\nBroker: %2 (%3, cluster %4)\nStore: %5\nFlush mode: %6")
                           .arg(host_.namesrvAddress(), host_.brokerAddress(),
                                QString::fromStdString(options.settings.broker.brokerName),
                                QString::fromStdString(options.settings.broker.brokerClusterName), host_.storeDir(), flush);
        // The 5.x SDKs' endpoints (what a RocketMQ Proxy would be).
        if (!host_.grpcAddress().isEmpty())
            text += QLatin1Char('\n') + tr("gRPC (RocketMQ 5 SDKs): %1").arg(host_.grpcAddress());
        if (!host_.grpcNote().isEmpty())
            text += QLatin1Char('\n') + tr("gRPC endpoint: %1").arg(host_.grpcNote());
        details_->setText(text);
    } else if (state == BrokerHost::State::Failed) {
        details_->setText(failureText());
    } else {
        details_->setText(tr("Store: %1").arg(QString::fromStdString(options.settings.store.rootDir())));
    }
    snippets_->setNamesrvAddress(connection_.namesrvAddress());
    // The 5.x SDKs' endpoint is known for the embedded broker only (a saved connection names
    // NameServers, not Proxies).
    const bool embeddedShown = state == BrokerHost::State::Running && connection_.namesrvAddress() == host_.namesrvAddress();
    snippets_->setGrpcEndpoint(embeddedShown ? host_.grpcAddress() : QString());
    clientPart_->setVisible(connection_.isConnected());
    const PortConflict conflict = host_.portConflict();
    const bool offerPorts = state == BrokerHost::State::Failed && conflict.any();
    portFix_->setVisible(offerPorts);
    usePortsAction_->setVisible(offerPorts);
    if (offerPorts) {
        const QString text = conflict.namesrvTaken && conflict.brokerTaken
                                 ? tr("Use ports %1 and %2").arg(conflict.freeNamesrvPort).arg(conflict.freeBrokerPort)
                                 : tr("Use port %1").arg(conflict.namesrvTaken ? conflict.freeNamesrvPort
                                                                               : conflict.freeBrokerPort);
        usePortsAction_->setText(text);
        usePortsButton_->setText(text);
    }
}

QString OverviewView::failureText() const
{
    const PortConflict conflict = host_.portConflict();
    QStringList lines{tr("The broker could not start: %1").arg(host_.lastError())};
    if (conflict.namesrvTaken)
        lines << tr("Port %1 (NameServer) is in use by another program; port %2 is free.")
                     .arg(conflict.namesrvPort)
                     .arg(conflict.freeNamesrvPort);
    if (conflict.brokerTaken)
        lines << tr("Port %1 (broker) is in use by another program; port %2 is free.")
                     .arg(conflict.brokerPort)
                     .arg(conflict.freeBrokerPort);
    lines << (conflict.any() ? tr("Use the free port below (remembered for the next start), or choose other ports.")
                             : tr("Choose other ports or another store folder, then use Broker ▸ Start."));
    return lines.join(QLatin1Char('\n'));
}

void OverviewView::choosePorts()
{
    const PortConflict conflict = host_.portConflict();
    const auto &options = host_.options();
    auto *dialog = new ChoosePortsDialog(QString::fromStdString(options.settings.broker.bindAddress),
                                         conflict.any() ? conflict.freeNamesrvPort : options.namesrvPort,
                                         conflict.any() ? conflict.freeBrokerPort
                                                        : static_cast<quint16>(options.settings.store.listenPort),
                                         this);
    dialog->setObjectName(QStringLiteral("choosePortsDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this,
            [this, dialog] { host_.startOnPorts(dialog->namesrvPort(), dialog->brokerPort()); });
    dialog->open();
}

} // namespace mqdesk::ui
