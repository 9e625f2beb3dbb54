#include "ui/overview_view.h"

#include "ui/brokers_panel.h"

#include <QGuiApplication>
#include <QClipboard>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace mqdesk::ui {

OverviewView::OverviewView(BrokerHost &host, ClusterConnection &connection, QWidget *parent)
    : QWidget(parent), host_(host)
{
    auto *layout = new QVBoxLayout(this);
    title_ = new QLabel(this);
    QFont big = title_->font();
    big.setPointSizeF(big.pointSizeF() * 1.4);
    big.setBold(true);
    title_->setFont(big);
    details_ = new QLabel(this);
    details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    details_->setWordWrap(true);
    snippet_ = new QPlainTextEdit(this);
    snippet_->setReadOnly(true);
    snippet_->setMaximumHeight(80);
    auto *copy = new QPushButton(tr("Copy NameServer address"), this);
    connect(copy, &QPushButton::clicked, this, [this] {
        QGuiApplication::clipboard()->setText(host_.namesrvAddress());
    });
    layout->addWidget(title_);
    layout->addWidget(details_);
    layout->addWidget(new QLabel(tr("Connect a client (Node.js, ali-ons):"), this));
    layout->addWidget(snippet_);
    layout->addWidget(copy, 0, Qt::AlignLeft);
    brokers_ = new BrokersPanel(connection, this);
    layout->addWidget(brokers_, 1);

    connect(&host_, &BrokerHost::stateChanged, this, &OverviewView::refresh);
    refresh();
}

void OverviewView::refresh()
{
    const auto state = host_.state();
    title_->setText(tr("Embedded broker: %1").arg(BrokerHost::stateName(state)));
    const auto &options = host_.options();
    const QString flush = QString::fromUtf8(store::flushDiskTypeName(options.settings.store.flushDiskType).data());
    if (state == BrokerHost::State::Running) {
        details_->setText(tr("NameServer: %1\nBroker: %2 (%3, cluster %4)\nStore: %5\nFlush mode: %6")
                              .arg(host_.namesrvAddress(), host_.brokerAddress(),
                                   QString::fromStdString(options.settings.broker.brokerName),
                                   QString::fromStdString(options.settings.broker.brokerClusterName), host_.storeDir(),
                                   flush));
        snippet_->setPlainText(QStringLiteral("const { Producer } = require('ali-ons');\n"
                                              "const producer = new Producer({ httpclient: {}, nameSrv: '%1',"
                                              " producerGroup: 'PG' });")
                                   .arg(host_.namesrvAddress()));
    } else if (state == BrokerHost::State::Failed) {
        details_->setText(tr("The broker could not start: %1\nChoose other ports or another store folder, "
                             "then use Broker ▸ Start.")
                              .arg(host_.lastError()));
        snippet_->clear();
    } else {
        details_->setText(tr("Store: %1").arg(QString::fromStdString(options.settings.store.rootDir())));
        snippet_->clear();
    }
}

} // namespace mqdesk::ui
