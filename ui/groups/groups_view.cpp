#include "ui/groups/groups_view.h"

#include "ui/groups/client_info_pane.h"
#include "ui/widgets/banner.h"
#include "ui/widgets/table_text.h"
#include "ui/widgets/traffic_chart.h"

#include "ui/groups/group_table_model.h"
#include "ui/history/history_recorder.h"
#include "ui/history/history_store.h"
#include "ui/groups/lag_chart.h"

#include <QCheckBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace mqdesk::ui {

TablePage::Options GroupsView::pageOptions()
{
    return {tr("Filter groups and topics (Ctrl+F)"), tr("Fetch the groups again (F5)"), tr("consumer-groups.csv"),
            QStringLiteral("groups")};
}

GroupsView::GroupsView(ClusterConnection &connection, QWidget *parent)
    : TablePage(pageOptions(), parent), connection_(connection)
{
    groups_ = new GroupTableModel(this);
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(groups_);
    proxy_->setSortRole(GroupTableModel::SortRole);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy_->setFilterKeyColumn(-1); // the name and the topics
    auto *queueProxy = new QSortFilterProxyModel(this);
    queues_ = new GroupQueueModel(this);
    queueProxy->setSourceModel(queues_);
    queueProxy->setSortRole(GroupQueueModel::SortRole);

    addToolbarButtons();
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("groupsStatus"));
    addBelowBanner(status_);
    addBelowBanner(buildConfirmBar());

    setModel(proxy_);
    QTableView *table = this->table();
    table->horizontalHeader()->setStretchLastSection(true);
    table->sortByColumn(GroupTableModel::LagColumn, Qt::DescendingOrder);
    table->setColumnWidth(GroupTableModel::NameColumn, 260);
    table->setColumnWidth(GroupTableModel::TopicsColumn, 260);
    setDetail(buildDetailPane(), 3, 2);
    queueTable_->setModel(queueProxy);
    queueTable_->sortByColumn(GroupQueueModel::TopicColumn, Qt::AscendingOrder);
    queueTable_->setColumnWidth(GroupQueueModel::TopicColumn, 220);

    connect(this, &TablePage::refreshRequested, this, &GroupsView::refresh);
    connect(findField(), &QLineEdit::textChanged, this, [this](const QString &text) {
        proxy_->setFilterFixedString(text);
        updateEmptyState();
    });
    connect(table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &GroupsView::loadDetail);
    connect(&connection_, &ClusterConnection::namesrvAddressChanged, this, &GroupsView::refresh);
    // Live: groups that appear (a consumer connects) or go away elsewhere while the view is shown.
    connect(this, &TablePage::liveRefreshDue, this, &GroupsView::refreshIfShown);
    startLiveRefresh(kLiveRefreshMillis);
    refresh();
}

void GroupsView::addToolbarButtons()
{
    showSystem_ = new QCheckBox(tr("System groups"), this);
    connect(showSystem_, &QCheckBox::toggled, this, [this] { showGroups(); });
    auto *createButton = new QPushButton(tr("Create group…"), this);
    connect(createButton, &QPushButton::clicked, this, &GroupsView::openCreateDialog);
    resetButton_ = new QPushButton(tr("Reset offsets…"), this);
    resetButton_->setObjectName(QStringLiteral("resetOffsetsButton"));
    connect(resetButton_, &QPushButton::clicked, this, &GroupsView::openResetDialog);
    skipButton_ = new QPushButton(tr("Skip accumulated"), this);
    skipButton_->setObjectName(QStringLiteral("skipAccumulatedButton"));
    skipButton_->setToolTip(tr("Move the committed offsets to the latest: the lag becomes 0"));
    connect(skipButton_, &QPushButton::clicked, this, [this] { requestReset(ResetTarget::Latest); });
    deleteButton_ = new QPushButton(tr("Delete group"), this);
    deleteButton_->setObjectName(QStringLiteral("deleteGroupButton"));
    connect(deleteButton_, &QPushButton::clicked, this, &GroupsView::requestDelete);
    addToolbarWidget(showSystem_);
    addToolbarWidget(createButton);
    addToolbarWidget(resetButton_);
    addToolbarWidget(skipButton_);
    addToolbarWidget(deleteButton_);
}

QWidget *GroupsView::buildConfirmBar()
{
    confirmBar_ = new QWidget(this);
    confirmBar_->setObjectName(QStringLiteral("groupsConfirmBar"));
    confirmLabel_ = new QLabel(confirmBar_);
    confirmLabel_->setWordWrap(true);
    auto *confirm = new QPushButton(tr("Confirm"), confirmBar_);
    confirm->setObjectName(QStringLiteral("confirmButton"));
    auto *cancel = new QPushButton(tr("Cancel"), confirmBar_);
    cancel->setObjectName(QStringLiteral("cancelButton"));
    auto *confirmLayout = new QHBoxLayout(confirmBar_);
    confirmLayout->setContentsMargins(6, 4, 6, 4);
    confirmLayout->addWidget(confirmLabel_, 1);
    confirmLayout->addWidget(confirm);
    confirmLayout->addWidget(cancel);
    confirmBar_->setAutoFillBackground(true);
    confirmBar_->setBackgroundRole(QPalette::AlternateBase);
    confirmBar_->hide();
    connect(confirm, &QPushButton::clicked, this, &GroupsView::confirmPending);
    connect(cancel, &QPushButton::clicked, this, [this] {
        pendingAction_ = nullptr;
        confirmBar_->hide();
    });
    return confirmBar_;
}

QWidget *GroupsView::buildDetailPane()
{
    auto *pane = new QWidget(this);
    detailTitle_ = new QLabel(pane);
    QFont bold = detailTitle_->font();
    bold.setBold(true);
    detailTitle_->setFont(bold);
    detailTitle_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    queueTable_ = new QTableView(pane);
    queueTable_->setObjectName(QStringLiteral("groupQueuesTable"));
    configureListTable(queueTable_);
    queueTable_->horizontalHeader()->setStretchLastSection(true);
    addExportCsvAction(queueTable_, tr("consumer-group-queues.csv"),
                       [this](const QString &outcome) { showBanner(outcome, false); });
    clients_ = new QLabel(pane); // one line per client, not wrapped: a wrapped label gets clipped
    clients_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *queuesTab = new QWidget(pane);
    auto *queuesLayout = new QVBoxLayout(queuesTab);
    queuesLayout->setContentsMargins(0, 0, 0, 0);
    queuesLayout->addWidget(queueTable_, 1);
    queuesLayout->addWidget(clients_);
    pop_ = new QLabel(pane); // RocketMQ 5 POP figures, shown for groups that pop
    pop_->setObjectName(QStringLiteral("popFigures"));
    pop_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    pop_->hide();
    queuesLayout->addWidget(pop_);
    lite_ = new QLabel(pane); // RocketMQ 5.5 lite groups: lag and lite topics
    lite_->setObjectName(QStringLiteral("liteFigures"));
    lite_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    lite_->hide();
    queuesLayout->addWidget(lite_);
    detailTabs_ = new QTabWidget(pane);
    detailTabs_->setDocumentMode(true);
    detailTabs_->setTabBarAutoHide(true);
    detailTabs_->addTab(queuesTab, tr("Queues and clients"));
    clientPane_ = new ClientInfoPane(connection_, pane);
    detailTabs_->addTab(clientPane_, tr("Clients' running info"));
    traffic_ = new TrafficChart(tr("Topic"), pane);
    traffic_->setObjectName(QStringLiteral("groupTraffic"));
    detailTabs_->addTab(traffic_, tr("Traffic"));
    auto *layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(detailTitle_);
    layout->addWidget(detailTabs_, 1);
    return pane;
}

void GroupsView::setHistory(HistoryStore &history, HistoryRecorder &recorder)
{
    history_ = &history;
    recorder_ = &recorder;
    lagChart_ = new LagChart(history, recorder, detailTabs_);
    detailTabs_->addTab(lagChart_, tr("Lag over time"));
    showLagOf(selectedGroup());
}

void GroupsView::showLagOf(const QString &group)
{
    if (!lagChart_)
        return;
    // Brokers without GET_ACTIVITY_TOTALS are sampled only for the groups a chart shows.
    if (group != watchedGroup_) {
        recorder_->unwatchGroup(watchedGroup_);
        recorder_->watchGroup(group);
        watchedGroup_ = group;
    }
    lagChart_->setGroup(connection_.namesrvAddress(), group);
}

void GroupsView::recordReset(const QString &group)
{
    if (!history_)
        return;
    const int64_t now = history_->now();
    history_->recordEvent({HistoryEvent::Kind::OffsetReset, now, connection_.namesrvAddress(), group});
    if (lagChart_ && group == selectedGroup())
        lagChart_->markReset(now);
}

void GroupsView::refresh()
{
    fetchList(false);
}

void GroupsView::refreshIfShown()
{
    if (!isVisible() || window()->isMinimized() || listFetch_.busy() || presenceInFlight_ || !connection_.isConnected())
        return;
    fetchList(true);
}

void GroupsView::fetchList(bool live)
{
    if (!connection_.isConnected()) {
        listFetch_.cancel(); // answers still under way are of no use
        loading_ = false;
        presenceInFlight_ = false;
        applySnapshot({});
        status_->setText(tr("Not connected: start the broker (Broker ▸ Start) to see its consumer groups."));
        return;
    }
    if (!live) {
        loading_ = true;
        status_->setText(tr("Loading consumer groups…"));
        updateEmptyState();
    }
    // F5 (or an action, or another cluster) while a list fetch is under way fetches again once it
    // is answered, and that answer, maybe older than the change, is dropped.
    if (listFetch_.request())
        startFetch(live);
}

void GroupsView::startFetch(bool live)
{
    const SerialFetch::Ticket ticket = listFetch_.begin();
    connection_.run(
        this, [](client::AdminClient &admin) { return fetchGroups(admin); },
        [this, ticket, live](GroupsSnapshot snapshot) {
            switch (listFetch_.finish(ticket)) {
            case SerialFetch::Outcome::Stale:
                return;
            case SerialFetch::Outcome::FetchAgain:
                fetchList(false); // starts it (or shows the disconnected state)
                return;
            case SerialFetch::Outcome::Use:
                break;
            }
            applySnapshot(std::move(snapshot), live);
        });
}

void GroupsView::applySnapshot(GroupsSnapshot snapshot, bool live)
{
    loading_ = false;
    snapshot_ = std::move(snapshot);
    showGroups(live);
    if (!snapshot_.errors.empty()) {
        QStringList errors;
        for (size_t i = 0; i < snapshot_.errors.size() && i < 3; ++i)
            errors << QString::fromStdString(snapshot_.errors[i]);
        showBanner(tr("Some brokers did not answer; the list may be incomplete: %1").arg(errors.join(QLatin1Char('\n'))),
                   true);
    }

    // Online clients: a request per group, so a second pass that fills in the column.
    std::vector<std::string> names;
    for (int row = 0; row < groups_->rowCount(); ++row)
        names.push_back(groups_->group(row).name);
    const SerialFetch::Ticket ticket = listFetch_.latest();
    presenceInFlight_ = false; // an older pass, if any, is answered for nothing
    if (!names.empty() && connection_.isConnected()) {
        presenceInFlight_ = true;
        connection_.run(
            this,
            [brokers = snapshot_.brokers, names](client::AdminClient &admin) {
                return fetchPresence(admin, brokers, names);
            },
            [this, ticket](std::map<std::string, GroupPresence> presence) {
                if (!listFetch_.isLatest(ticket))
                    return;
                presenceInFlight_ = false;
                groups_->setPresence(std::move(presence));
            });
    }
    if (!live)
        emit groupsLoaded();
}

void GroupsView::showGroups(bool live)
{
    const QString selected = selectAfterLoad_.isEmpty() ? selectedGroup() : selectAfterLoad_;
    selectAfterLoad_.clear();
    std::vector<GroupSummary> rows;
    for (const GroupSummary &group : snapshot_.groups) {
        if (showSystem_->isChecked() || !isSystemGroup(group.name))
            rows.push_back(group);
    }
    const int count = static_cast<int>(rows.size());
    groups_->setGroups(std::move(rows));
    if (connection_.isConnected())
        status_->setText(tr("%n consumer group(s) on %1 broker(s)", "", count)
                             .arg(QLocale().toString(static_cast<int>(snapshot_.brokers.size()))));
    updateEmptyState();
    // Rows were updated in place: a live refresh leaves a group that is still selected (and its
    // detail, and the scroll position) as it was.
    if (live && selected == selectedGroup() && (selected.isEmpty() || groups_->rowOf(selected.toStdString()) >= 0))
        return;
    if (!selected.isEmpty() && groups_->rowOf(selected.toStdString()) >= 0)
        selectGroup(selected);
    else
        loadDetail();
}

void GroupsView::selectGroup(const QString &name)
{
    const int row = groups_->rowOf(name.toStdString());
    if (row < 0)
        return;
    const QModelIndex index = proxy_->mapFromSource(groups_->index(row, 0));
    if (!index.isValid())
        return; // filtered out
    // Selecting the group that is already current reloads its detail: whoever selects it wants it
    // as it is now (and waits for detailLoaded), not as it was when first selected.
    const bool alreadyCurrent = table()->currentIndex() == index;
    table()->setCurrentIndex(index);
    table()->scrollTo(index);
    if (alreadyCurrent)
        loadDetail();
}

QString GroupsView::selectedGroup() const
{
    const QModelIndex current = table()->currentIndex();
    if (!current.isValid())
        return {};
    const QModelIndex source = proxy_->mapToSource(current);
    if (!source.isValid() || source.row() >= groups_->rowCount())
        return {};
    return QString::fromStdString(groups_->group(source.row()).name);
}

void GroupsView::loadDetail()
{
    const int generation = ++detailGeneration_;
    const QString group = selectedGroup();
    updateActions();
    showLagOf(group);
    if (group.isEmpty()) {
        detailTitle_->setText(tr("Select a group to see its queues and its clients."));
        queues_->setQueues({});
        clients_->clear();
        clientPane_->setClients({}, std::nullopt);
        traffic_->setMessage({});
        pop_->hide();
        lite_->hide();
        return;
    }
    detailTitle_->setText(tr("%1: loading…").arg(group));
    std::string liteParent;
    const QModelIndex source = proxy_->mapToSource(table()->currentIndex());
    if (source.isValid() && groups_->group(source.row()).config) {
        const auto &attributes = groups_->group(source.row()).config->attributes;
        if (const auto bound = attributes.find("lite.bind.topic"); bound != attributes.end())
            liteParent = bound->second;
    }
    connection_.run(
        this,
        [name = group.toStdString(), liteParent](client::AdminClient &admin) {
            return fetchGroupDetail(admin, name, liteParent);
        },
        [this, generation](GroupDetail detail) {
            if (generation == detailGeneration_)
                showDetail(std::move(detail));
        });
}

void GroupsView::showDetail(GroupDetail detail)
{
    const QString group = QString::fromStdString(detail.group);
    int64_t lag = 0;
    for (const QueueLag &queue : detail.queues)
        lag += queue.lag();
    if (!detail.queuesError.empty())
        detailTitle_->setText(tr("%1: its queues could not be read: %2")
                                  .arg(group, QString::fromStdString(detail.queuesError)));
    else if (detail.queues.empty())
        detailTitle_->setText(tr("%1: no committed offsets yet").arg(group));
    else
        detailTitle_->setText(tr("%1: %n queue(s), lag %2", "", static_cast<int>(detail.queues.size()))
                                  .arg(group, QLocale().toString(static_cast<qlonglong>(lag))));
    queues_->setQueues(std::move(detail.queues));

    if (!detail.connectionError.empty()) {
        clients_->setText(tr("Clients could not be read: %1").arg(QString::fromStdString(detail.connectionError)));
    } else if (!detail.connection) {
        clients_->setText(tr("Clients: not online — no consumer of this group is connected."));
    } else {
        QStringList lines;
        lines << tr("Clients (%n online):", "", static_cast<int>(detail.connection->connectionSet.size()));
        for (const auto &client : detail.connection->connectionSet) {
            // As the Dashboard names versions (V4_9_8, V5_0_8); the ordinal where MQVersion has no name.
            const std::string versionName = client::versionName(client.version);
            lines << tr("%1 · %2 · %3 · version %4")
                         .arg(QString::fromStdString(client.clientId), QString::fromStdString(client.clientAddr),
                              QString::fromStdString(client.language),
                              versionName.empty() ? QString::number(client.version) : QString::fromStdString(versionName));
        }
        clients_->setText(lines.join(QLatin1Char('\n')));
    }
    clientPane_->setClients(group, detail.connection, detail.lite ? detail.lite->clients
                                                                  : std::vector<client::LiteClientTopics>{});
    showTraffic(detail);
    showPopFigures(detail.pop);
    showLiteFigures(detail);
    emit detailLoaded();
}

void GroupsView::showTraffic(const GroupDetail &detail)
{
    if (detail.traffic.empty()) {
        traffic_->setMessage(detail.trafficError.empty()
                                 ? tr("The brokers' statistics count no message taken by this group yet.")
                                 : tr("The brokers' statistics could not be read: %1")
                                       .arg(QString::fromStdString(detail.trafficError)));
        return;
    }
    std::vector<TrafficChart::Row> rows;
    int64_t hour = 0;
    int64_t day = 0;
    for (const TopicTraffic &topic : detail.traffic) {
        rows.push_back({QString::fromStdString(topic.topic), topic.messages.minute.tps, topic.messages.hour.sum,
                        topic.messages.day.sum, topic.bytes.counted ? topic.bytes.day.sum : -1});
        hour += topic.messages.hour.sum;
        day += topic.messages.day.sum;
    }
    const QLocale locale;
    QString summary = tr("Consumed: %1/s now (the brokers' consume TPS) · %2 in the last hour · %3 in the last 24 h")
                          .arg(locale.toString(detail.consumeTps, 'f', 2), locale.toString(static_cast<qlonglong>(hour)),
                               locale.toString(static_cast<qlonglong>(day)));
    if (!detail.trafficError.empty())
        summary += QLatin1Char('\n') + tr("Some topics could not be read: %1").arg(QString::fromStdString(detail.trafficError));
    traffic_->setRows(summary, std::move(rows));
}

void GroupsView::showLiteFigures(const GroupDetail &detail)
{
    if (!detail.lite && detail.liteError.empty()) {
        lite_->hide();
        return;
    }
    if (!detail.lite) {
        lite_->setText(tr("Lite topics could not be read: %1").arg(QString::fromStdString(detail.liteError)));
        lite_->show();
        return;
    }
    const client::LiteGroupView &lite = *detail.lite;
    const QLocale locale;
    std::set<std::string> held;
    for (const client::LiteClientTopics &client : lite.clients)
        held.insert(client.liteTopics.begin(), client.liteTopics.end());
    QString text = tr("Lite group of %1: %n lite topic(s) subscribed by its online clients", "", static_cast<int>(held.size()))
                       .arg(QString::fromStdString(lite.parent));
    text += tr(" · lag %1").arg(locale.toString(static_cast<qlonglong>(lite.lag.totalLagCount)));
    if (lite.lag.earliestUnconsumedTimestamp > 0)
        text += tr(" · oldest unconsumed %1")
                    .arg(locale.toString(QDateTime::fromMSecsSinceEpoch(lite.lag.earliestUnconsumedTimestamp),
                                         QLocale::ShortFormat));
    QStringList largest;
    for (const client::LiteLag &lag : lite.lag.topByLag) {
        if (largest.size() == 5 || lag.lagCount <= 0)
            break;
        largest << tr("%1 (%2)").arg(QString::fromStdString(lag.liteTopic), locale.toString(static_cast<qlonglong>(lag.lagCount)));
    }
    if (!largest.isEmpty())
        text += QLatin1Char('\n') + tr("Largest lag: %1").arg(largest.join(QStringLiteral(", ")));
    lite_->setText(text);
    lite_->show();
}

void GroupsView::showPopFigures(const std::optional<client::PopStats> &pop)
{
    if (!pop || (pop->popTopics.empty() && pop->inFlight == 0 && pop->retryBacklog == 0 && pop->reviveBacklog == 0)) {
        pop_->hide();
        return;
    }
    const QLocale locale;
    QString text = tr("POP: %1 in flight (popped, not acked) · %2 awaiting revive · %3 in its retry topics")
                       .arg(locale.toString(static_cast<qlonglong>(pop->inFlight)),
                            locale.toString(static_cast<qlonglong>(pop->reviveBacklog)),
                            locale.toString(static_cast<qlonglong>(pop->retryBacklog)));
    if (pop->fifoHeld > 0)
        text += tr(" · %1 held by FIFO pops").arg(locale.toString(static_cast<qlonglong>(pop->fifoHeld)));
    if (!pop->popTopics.empty()) {
        QStringList topics;
        for (const std::string &topic : pop->popTopics)
            topics << QString::fromStdString(topic);
        text += QLatin1Char('\n') + tr("Pops (setConsumeMode POP): %1").arg(topics.join(QStringLiteral(", ")));
    }
    if (pop->truncated)
        text += QLatin1Char('\n') + tr("(counted up to the scan limit: at least these)");
    pop_->setText(text);
    pop_->show();
}

void GroupsView::updateEmptyState()
{
    QString text;
    if (!connection_.isConnected())
        text = tr("Not connected. Start the broker to see its consumer groups.");
    else if (groups_->rowCount() == 0 && loading_)
        text = tr("Loading consumer groups…");
    else if (groups_->rowCount() == 0)
        text = tr("No consumer groups yet — start a consumer against %1\n"
                  "(its group appears here once it connects), or use Create group….")
                   .arg(connection_.namesrvAddress());
    else if (proxy_->rowCount() == 0)
        text = tr("No group or topic matches the filter. Clear the search field to see every group.");
    setEmptyText(text);
}

void GroupsView::updateActions()
{
    const bool selected = connection_.isConnected() && !selectedGroup().isEmpty();
    resetButton_->setEnabled(selected);
    skipButton_->setEnabled(selected);
    deleteButton_->setEnabled(selected);
}

void GroupsView::showBanner(const QString &text, bool error)
{
    banner()->report(text, error ? Banner::Tone::Error : Banner::Tone::Info);
}

QString GroupsView::bannerText() const
{
    return banner()->shownText();
}

QString GroupsView::confirmationText() const
{
    return confirmBar_->isVisible() ? confirmLabel_->text() : QString();
}

QString GroupsView::clientsText() const
{
    return clients_->text();
}

QString GroupsView::copySelectedRows() const
{
    return ui::selectedRowsText(*table(), false);
}

} // namespace mqdesk::ui
