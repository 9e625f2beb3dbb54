#include "ui/overview/brokers_panel.h"

#include "ui/connection/cluster_connection.h"
#include "ui/overview/broker_data.h"
#include "ui/widgets/banner.h"

#include <QHeaderView>
#include <QLayout>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>

namespace mqdesk::ui {

namespace {
constexpr int kRefreshMillis = 5000;
}

BrokersPanel::BrokersPanel(ClusterConnection &connection, QWidget *parent)
    : TablePage({QString(), tr("Read the brokers again (F5)"), tr("brokers.csv"), QStringLiteral("brokers")}, parent),
      connection_(connection)
{
    model_ = new BrokerTableModel(this);
    sorter_ = new QSortFilterProxyModel(this);
    sorter_->setSourceModel(model_);
    sorter_->setSortRole(BrokerTableModel::SortRole);

    heading_ = new QLabel(this);
    QFont bold = heading_->font();
    bold.setBold(true);
    heading_->setFont(bold);
    addToolbarWidget(heading_, 1);
    layout()->setContentsMargins(0, 0, 0, 0);

    setModel(sorter_);
    QTableView *table = this->table();
    table->sortByColumn(BrokerTableModel::ClusterColumn, Qt::AscendingOrder);
    table->horizontalHeader()->setStretchLastSection(true);
    // A broker that did not answer has no numbers: its error spans the columns they would fill.
    const auto spanErrors = [this, table] {
        table->clearSpans();
        for (int row = 0; row < sorter_->rowCount(); ++row) {
            const BrokerRow &broker = model_->rows()[static_cast<size_t>(sorter_->mapToSource(sorter_->index(row, 0)).row())];
            if (!broker.error.isEmpty())
                table->setSpan(row, BrokerTableModel::VersionColumn, 1,
                               BrokerTableModel::ColumnCount - BrokerTableModel::VersionColumn);
        }
        table->resizeColumnsToContents();
    };
    connect(sorter_, &QAbstractItemModel::modelReset, this, spanErrors);
    connect(sorter_, &QAbstractItemModel::layoutChanged, this, spanErrors);
    connect(sorter_, &QAbstractItemModel::rowsInserted, this, spanErrors);
    connect(sorter_, &QAbstractItemModel::rowsRemoved, this, spanErrors);
    connect(sorter_, &QAbstractItemModel::dataChanged, this, spanErrors);

    // F5 is window-wide while the Overview is shown (a hidden page's shortcut is inactive), as in
    // the other views: it works wherever the focus is.
    connect(this, &TablePage::refreshRequested, this, &BrokersPanel::refresh);
    connect(this, &TablePage::liveRefreshDue, this, [this] {
        if (!loading_)
            refresh();
    });
    startLiveRefresh(kRefreshMillis);
    connect(&connection_, &ClusterConnection::namesrvAddressChanged, this, [this] {
        model_->setRows({}); // they were another cluster's
        refresh();
    });
    refresh();
}

void BrokersPanel::refresh()
{
    const quint64 generation = ++generation_;
    heading_->setText(connection_.isConnected() ? tr("Brokers of the cluster at %1").arg(connection_.namesrvAddress())
                                                : tr("Brokers"));
    if (!connection_.isConnected()) {
        loading_ = false;
        loadError_.clear();
        model_->setRows({});
        updateEmptyState();
        emit refreshed();
        return;
    }
    loading_ = true;
    updateEmptyState();
    connection_.run(this, fetchBrokerRows, [this, generation](BrokerListing listing) {
        if (generation != generation_)
            return; // a newer refresh (another cluster) is on its way
        loading_ = false;
        loadError_ = listing.status.ok ? QString() : QString::fromStdString(listing.status.error);
        if (listing.status.ok)
            model_->setRows(std::move(listing.rows));
        // An unreachable cluster keeps the last rows it showed, under a banner saying so; a
        // broker that started from a config file's backup says which file and why.
        QStringList problems;
        if (!loadError_.isEmpty() && model_->rowCount() > 0)
            problems << tr("The cluster could not be read just now: %1 (showing the last answer)").arg(loadError_);
        for (const BrokerRow &broker : model_->rows()) {
            if (!broker.runtime.configLoadWarnings.empty())
                problems << tr("%1 (%2) started from a config file's backup: %3")
                                .arg(broker.brokerName, broker.address,
                                     QString::fromStdString(broker.runtime.configLoadWarnings));
        }
        showBanner(problems.join(u'\n'));
        updateEmptyState();
        emit refreshed();
    });
}

void BrokersPanel::updateEmptyState()
{
    QString text;
    const QString namesrv = connection_.namesrvAddress();
    if (!connection_.isConnected())
        text = tr("No cluster to show: the embedded broker is not running and no saved connection is picked.");
    else if (model_->rowCount() == 0 && loading_)
        text = tr("Loading the brokers of %1…").arg(namesrv);
    else if (model_->rowCount() == 0 && !loadError_.isEmpty())
        text = tr("The NameServer %1 could not be read: %2\nCheck the address and that it runs, then press F5.")
                   .arg(namesrv, loadError_);
    else if (model_->rowCount() == 0)
        text = tr("No broker is registered with the NameServer %1 yet. Start one with namesrvAddr=%1.").arg(namesrv);
    setEmptyText(text);
}

QString BrokersPanel::bannerText() const
{
    return banner()->shownText();
}

void BrokersPanel::showBanner(const QString &text)
{
    banner()->report(text, Banner::Tone::Error);
}

} // namespace mqdesk::ui
