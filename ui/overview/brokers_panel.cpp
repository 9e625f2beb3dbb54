#include "ui/overview/brokers_panel.h"

#include "ui/overview/broker_table_model.h"
#include "ui/connection/cluster_connection.h"
#include "ui/widgets/table_text.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace mqdesk::ui {

namespace {
constexpr int kRefreshMillis = 5000;
}

BrokersPanel::BrokersPanel(ClusterConnection &connection, QWidget *parent) : QWidget(parent), connection_(connection)
{
    model_ = new BrokerTableModel(this);
    sorter_ = new QSortFilterProxyModel(this);
    sorter_->setSourceModel(model_);
    sorter_->setSortRole(BrokerTableModel::SortRole);

    heading_ = new QLabel(this);
    QFont bold = heading_->font();
    bold.setBold(true);
    heading_->setFont(bold);
    banner_ = new QLabel(this);
    banner_->setObjectName(QStringLiteral("brokersBanner"));
    banner_->setWordWrap(true);
    banner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    banner_->hide();

    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("brokersTable"));
    table_->setModel(sorter_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(BrokerTableModel::ClusterColumn, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    // A broker that did not answer has no numbers: its error spans the columns they would fill.
    const auto spanErrors = [this] {
        table_->clearSpans();
        for (int row = 0; row < sorter_->rowCount(); ++row) {
            const BrokerRow &broker = model_->rows()[static_cast<size_t>(sorter_->mapToSource(sorter_->index(row, 0)).row())];
            if (!broker.error.isEmpty())
                table_->setSpan(row, BrokerTableModel::VersionColumn, 1,
                                BrokerTableModel::ColumnCount - BrokerTableModel::VersionColumn);
        }
        table_->resizeColumnsToContents();
    };
    connect(sorter_, &QAbstractItemModel::modelReset, this, spanErrors);
    connect(sorter_, &QAbstractItemModel::layoutChanged, this, spanErrors);
    connect(sorter_, &QAbstractItemModel::rowsInserted, this, spanErrors);
    connect(sorter_, &QAbstractItemModel::rowsRemoved, this, spanErrors);
    connect(sorter_, &QAbstractItemModel::dataChanged, this, spanErrors);
    emptyState_ = new QLabel(this);
    emptyState_->setObjectName(QStringLiteral("brokersEmptyState"));
    emptyState_->setAlignment(Qt::AlignCenter);
    emptyState_->setWordWrap(true);
    emptyState_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    stack_ = new QStackedWidget(this);
    stack_->addWidget(table_);
    stack_->addWidget(emptyState_);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(heading_);
    layout->addWidget(banner_);
    layout->addWidget(stack_, 1);

    auto *refreshAction = new QAction(tr("Refresh"), this);
    refreshAction->setShortcut(QKeySequence::Refresh);
    // Window-wide while the Overview is shown (a hidden page's shortcut is inactive), as in the
    // other views: F5 works wherever the focus is.
    connect(refreshAction, &QAction::triggered, this, &BrokersPanel::refresh);
    addAction(refreshAction);
    auto *copyAction = new QAction(tr("Copy"), table_);
    copyAction->setShortcut(QKeySequence::Copy);
    copyAction->setShortcutContext(Qt::WidgetShortcut);
    connect(copyAction, &QAction::triggered, this, [this] {
        if (table_->selectionModel()->hasSelection())
            QApplication::clipboard()->setText(selectedRowsText(*table_, true));
    });
    table_->addAction(copyAction);
    addExportCsvAction(table_, tr("brokers.csv"), [this](const QString &outcome) { showBanner(outcome); });

    timer_ = new QTimer(this);
    timer_->setInterval(kRefreshMillis);
    connect(timer_, &QTimer::timeout, this, [this] {
        if (isVisible() && !window()->isMinimized() && !loading_)
            refresh();
    });
    timer_->start();
    connect(&connection_, &ClusterConnection::namesrvAddressChanged, this, [this] {
        model_->setRows({}); // they were another cluster's
        refresh();
    });
    refresh();
}

void BrokersPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!loading_)
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
        // An unreachable cluster keeps the last rows it showed, under a banner saying so.
        showBanner(loadError_.isEmpty() || model_->rowCount() == 0
                       ? QString()
                       : tr("The cluster could not be read just now: %1 (showing the last answer)").arg(loadError_));
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
    emptyState_->setText(text);
    stack_->setCurrentWidget(text.isEmpty() ? static_cast<QWidget *>(table_) : emptyState_);
}

QString BrokersPanel::emptyStateText() const
{
    return stack_->currentWidget() == emptyState_ ? emptyState_->text() : QString();
}

QString BrokersPanel::bannerText() const
{
    return banner_->isVisibleTo(this) ? banner_->text() : QString();
}

void BrokersPanel::showBanner(const QString &text)
{
    banner_->setText(text);
    banner_->setVisible(!text.isEmpty());
}

} // namespace mqdesk::ui
