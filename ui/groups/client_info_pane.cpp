#include "ui/groups/client_info_pane.h"

#include "broker/client/admin_client.h"
#include "ui/widgets/app_fonts.h"
#include "ui/widgets/table_page.h"

#include <QAbstractTableModel>
#include <QCheckBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace mqdesk::ui {

// The group's online clients, one row each.
class ClientListModel : public QAbstractTableModel
{
public:
    using QAbstractTableModel::QAbstractTableModel;

    void setClients(std::vector<remoting::ClientConnection> clients)
    {
        beginResetModel();
        clients_ = std::move(clients);
        endResetModel();
    }
    const remoting::ClientConnection &client(int row) const { return clients_[static_cast<size_t>(row)]; }

    int rowCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : static_cast<int>(clients_.size());
    }
    int columnCount(const QModelIndex &parent = {}) const override { return parent.isValid() ? 0 : 4; }
    QVariant data(const QModelIndex &index, int role) const override
    {
        if (role != Qt::DisplayRole || !index.isValid())
            return {};
        const remoting::ClientConnection &c = client(index.row());
        switch (index.column()) {
        case 0: return QString::fromStdString(c.clientId);
        case 1: return QString::fromStdString(c.clientAddr);
        case 2: return QString::fromStdString(c.language);
        default: {
            // As the Dashboard names versions (V5_3_3); the ordinal where MQVersion has no name.
            const std::string name = client::versionName(c.version);
            return name.empty() ? QString::number(c.version) : QString::fromStdString(name);
        }
        }
    }
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override
    {
        if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
            return {};
        switch (section) {
        case 0: return ClientInfoPane::tr("Client ID");
        case 1: return ClientInfoPane::tr("Address");
        case 2: return ClientInfoPane::tr("Language");
        default: return ClientInfoPane::tr("Version");
        }
    }

private:
    std::vector<remoting::ClientConnection> clients_;
};

namespace {

QString timeText(int64_t millis)
{
    return millis > 0 ? QLocale().toString(QDateTime::fromMSecsSinceEpoch(millis), QLocale::ShortFormat)
                      : ClientInfoPane::tr("never");
}

QString rate(double value)
{
    return QLocale().toString(value, 'f', 2);
}

QTreeWidgetItem *section(QTreeWidget *tree, const QString &title)
{
    auto *item = new QTreeWidgetItem(tree, {title});
    QFont bold = item->font(0);
    bold.setBold(true);
    item->setFont(0, bold);
    item->setExpanded(true);
    return item;
}

void row(QTreeWidgetItem *parent, const QString &name, const QString &value)
{
    new QTreeWidgetItem(parent, {name, value});
}

} // namespace

ClientInfoPane::ClientInfoPane(ClusterConnection &connection, QWidget *parent)
    : QWidget(parent), connection_(connection)
{
    clients_ = new ClientListModel(this);
    clientTable_ = new QTableView(this);
    clientTable_->setObjectName(QStringLiteral("groupClientsTable"));
    clientTable_->setModel(clients_);
    configureListTable(clientTable_);
    clientTable_->setSelectionMode(QAbstractItemView::SingleSelection);
    clientTable_->horizontalHeader()->setStretchLastSection(true);
    connect(clientTable_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { loadRunningInfo(); });

    status_ = new QLabel(this);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_->setWordWrap(true);
    stacks_ = new QCheckBox(tr("Include thread stacks (Java clients)"), this);
    refresh_ = new QPushButton(tr("Refresh running info"), this);
    connect(refresh_, &QPushButton::clicked, this, [this] { loadRunningInfo(); });
    connect(stacks_, &QCheckBox::toggled, this, [this] { loadRunningInfo(); });

    detail_ = new QTreeWidget(this);
    detail_->setObjectName(QStringLiteral("clientRunningInfo"));
    detail_->setColumnCount(2);
    detail_->setHeaderLabels({tr("What"), tr("Value")});
    detail_->setRootIsDecorated(true);
    detail_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    stacksText_ = new QPlainTextEdit(this);
    stacksText_->setReadOnly(true);
    stacksText_->setLineWrapMode(QPlainTextEdit::NoWrap);
    stacksText_->setFont(fixedPitchFont());
    stacksText_->setPlaceholderText(tr("Thread stacks appear here when asked for (Java clients only)."));

    directId_ = new QLineEdit(this);
    directId_->setPlaceholderText(tr("Message ID (offset ID)"));
    directTopic_ = new QLineEdit(this);
    directTopic_->setPlaceholderText(tr("Topic"));
    consumeDirectly_ = new QPushButton(tr("Consume directly"), this);
    consumeDirectly_->setToolTip(tr("The selected client runs its listener on this message now, as the "
                                    "Dashboard's resend does; the message stays where it is."));
    connect(consumeDirectly_, &QPushButton::clicked, this, [this] { runConsumeDirectly(); });
    directResult_ = new QLabel(this);
    directResult_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    directResult_->setWordWrap(true);

    auto *actions = new QHBoxLayout;
    actions->addWidget(stacks_);
    actions->addStretch(1);
    actions->addWidget(refresh_);
    auto *direct = new QHBoxLayout;
    direct->addWidget(new QLabel(tr("Consume one message directly:"), this));
    direct->addWidget(directId_, 2);
    direct->addWidget(directTopic_, 1);
    direct->addWidget(consumeDirectly_);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(clientTable_);
    split->addWidget(detail_);
    split->addWidget(stacksText_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 5);
    split->setStretchFactor(2, 2);
    clientTable_->setMinimumHeight(clientTable_->verticalHeader()->defaultSectionSize() * 3);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split, 1);
    layout->addWidget(status_);
    layout->addLayout(actions);
    layout->addLayout(direct);
    layout->addWidget(directResult_);
    setClients({}, std::nullopt);
}

void ClientInfoPane::setClients(const QString &group, const std::optional<remoting::ConsumerConnection> &clients,
                                std::vector<client::LiteClientTopics> liteTopics)
{
    const QString previous = group == group_ ? selectedClientId() : QString();
    group_ = group;
    liteTopics_ = std::move(liteTopics);
    clients_->setClients(clients ? clients->connectionSet : std::vector<remoting::ClientConnection>{});
    const bool any = clients_->rowCount() > 0;
    refresh_->setEnabled(any);
    consumeDirectly_->setEnabled(any);
    if (!any) {
        ++generation_;
        detail_->clear();
        stacksText_->clear();
        status_->setText(group.isEmpty() ? tr("Select a group to see its clients.")
                                         : tr("No client of %1 is online.").arg(group));
        return;
    }
    int keep = 0;
    for (int r = 0; r < clients_->rowCount(); ++r) {
        if (QString::fromStdString(clients_->client(r).clientId) == previous)
            keep = r;
    }
    clientTable_->selectRow(keep); // loads its running info
}

QString ClientInfoPane::selectedClientId() const
{
    const QModelIndex current = clientTable_->selectionModel()->currentIndex();
    if (!current.isValid() || current.row() >= clients_->rowCount())
        return {};
    return QString::fromStdString(clients_->client(current.row()).clientId);
}

QString ClientInfoPane::statusText() const
{
    return status_->text();
}

QString ClientInfoPane::directResultText() const
{
    return directResult_->text();
}

void ClientInfoPane::loadRunningInfo()
{
    const int generation = ++generation_;
    const QString clientId = selectedClientId();
    if (clientId.isEmpty())
        return;
    status_->setText(tr("Asking %1 for its running info…").arg(clientId));
    connection_.run(
        this,
        [group = group_.toStdString(), id = clientId.toStdString(), jstack = stacks_->isChecked()](
            client::AdminClient &admin) { return admin.consumerRunningInfo(group, id, jstack); },
        [this, generation, clientId](client::Result<remoting::ConsumerRunningInfo> result) {
            if (generation != generation_)
                return;
            if (!result.ok) {
                detail_->clear();
                stacksText_->clear();
                status_->setText(tr("%1 did not answer: %2").arg(clientId, QString::fromStdString(result.error)));
            } else {
                showRunningInfo(result.value);
                status_->setText(tr("Running info of %1, as the client reports it.").arg(clientId));
            }
            showLiteTopics(clientId); // the brokers' word, whether or not the client answered
            emit runningInfoLoaded();
        });
}

void ClientInfoPane::showRunningInfo(const remoting::ConsumerRunningInfo &info)
{
    detail_->clear();
    const auto prop = [&](const char *key) { return QString::fromStdString(info.property(key)); };
    QTreeWidgetItem *settings = section(detail_, tr("Settings"));
    row(settings, tr("Consume type"), prop("PROP_CONSUME_TYPE"));
    row(settings, tr("Message model"), prop("messageModel"));
    row(settings, tr("Orderly"), prop("PROP_CONSUMEORDERLY"));
    row(settings, tr("Starts from"), prop("consumeFromWhere"));
    row(settings, tr("Consume threads"),
        tr("%1 – %2 (pool now %3)").arg(prop("consumeThreadMin"), prop("consumeThreadMax"), prop("PROP_THREADPOOL_CORE_SIZE")));
    row(settings, tr("Batch sizes (pull / consume)"),
        tr("%1 / %2").arg(prop("pullBatchSize"), prop("consumeMessageBatchMaxSize")));
    row(settings, tr("Max reconsume times"), prop("maxReconsumeTimes"));
    row(settings, tr("Client version"), prop("PROP_CLIENT_VERSION"));
    bool startOk = false;
    const qint64 start = prop("PROP_CONSUMER_START_TIMESTAMP").toLongLong(&startOk);
    row(settings, tr("Started"), startOk ? timeText(start) : QString());
    row(settings, tr("NameServer"), prop("PROP_NAMESERVER_ADDR"));

    QTreeWidgetItem *subscriptions = section(detail_, tr("Subscriptions (%n)", "", static_cast<int>(info.subscriptions.size())));
    for (const remoting::SubscriptionData &s : info.subscriptions)
        row(subscriptions, QString::fromStdString(s.topic),
            QStringLiteral("%1: %2").arg(QString::fromStdString(s.expressionType), QString::fromStdString(s.subString)));

    QTreeWidgetItem *queues = section(detail_, tr("Queues being processed (%n)", "", static_cast<int>(info.queues.size())));
    for (const auto &[queue, q] : info.queues) {
        auto *item = new QTreeWidgetItem(
            queues, {QStringLiteral("%1 · %2 · %3")
                         .arg(QString::fromStdString(queue.topic), QString::fromStdString(queue.brokerName))
                         .arg(queue.queueId),
                     tr("committed %1, %2 cached (%3 MiB)%4%5")
                         .arg(QLocale().toString(static_cast<qlonglong>(q.commitOffset)))
                         .arg(q.cachedMsgCount)
                         .arg(q.cachedMsgSizeInMiB)
                         .arg(q.locked ? tr(", locked") : QString(), q.dropped ? tr(", dropped") : QString())});
        row(item, tr("Last pull"), timeText(q.lastPullTimestamp));
        row(item, tr("Last consume"), timeText(q.lastConsumeTimestamp));
        row(item, tr("Cached offsets"), tr("%1 – %2").arg(q.cachedMsgMinOffset).arg(q.cachedMsgMaxOffset));
    }

    QTreeWidgetItem *rates = section(detail_, tr("Rates per topic"));
    for (const auto &[topic, s] : info.statusTable) {
        row(rates, QString::fromStdString(topic),
            tr("pull %1/s (RT %2 ms), consumed %3/s (RT %4 ms), failed %5/s, %6 failed in the last hour")
                .arg(rate(s.pullTPS), rate(s.pullRT), rate(s.consumeOKTPS), rate(s.consumeRT), rate(s.consumeFailedTPS))
                .arg(s.consumeFailedMsgs));
    }
    QTreeWidgetItem *all = section(detail_, tr("All properties (%n)", "", static_cast<int>(info.properties.size())));
    all->setExpanded(false);
    for (const auto &[key, value] : info.properties)
        row(all, QString::fromStdString(key), QString::fromStdString(value));
    stacksText_->setPlainText(QString::fromStdString(info.jstack));
}

void ClientInfoPane::showLiteTopics(const QString &clientId)
{
    const auto lite = std::find_if(liteTopics_.begin(), liteTopics_.end(), [&](const client::LiteClientTopics &c) {
        return QString::fromStdString(c.clientId) == clientId;
    });
    if (lite == liteTopics_.end())
        return;
    QTreeWidgetItem *topics =
        section(detail_, tr("Lite topics (%n, as the brokers hold them)", "", static_cast<int>(lite->liteTopicCount)));
    detail_->insertTopLevelItem(0, detail_->takeTopLevelItem(detail_->indexOfTopLevelItem(topics)));
    topics->setExpanded(true);
    row(topics, tr("Last request"), timeText(lite->lastAccessTime));
    for (const std::string &name : lite->liteTopics)
        new QTreeWidgetItem(topics, {QString::fromStdString(name)});
    if (static_cast<int64_t>(lite->liteTopics.size()) < lite->liteTopicCount)
        row(topics, tr("Not listed"), QLocale().toString(static_cast<qlonglong>(lite->liteTopicCount - lite->liteTopics.size())));
}

void ClientInfoPane::runConsumeDirectly()
{
    const QString clientId = selectedClientId();
    const QString msgId = directId_->text().trimmed();
    const QString topic = directTopic_->text().trimmed();
    if (clientId.isEmpty() || msgId.isEmpty() || topic.isEmpty()) {
        directResult_->setText(tr("Select a client and give the message's offset ID and its topic."));
        return;
    }
    directResult_->setText(tr("%1 is consuming %2…").arg(clientId, msgId));
    connection_.run(
        this,
        [group = group_.toStdString(), id = clientId.toStdString(), m = msgId.toStdString(),
         t = topic.toStdString()](client::AdminClient &admin) { return admin.consumeMessageDirectly(group, id, t, m); },
        [this, clientId, msgId](client::Result<remoting::ConsumeMessageDirectlyResult> result) {
            if (!result.ok)
                directResult_->setText(tr("Not consumed: %1").arg(QString::fromStdString(result.error)));
            else
                directResult_->setText(tr("%1 consumed %2: %3 in %4 ms%5")
                                           .arg(clientId, msgId, QString::fromStdString(result.value.consumeResult))
                                           .arg(result.value.spentTimeMills)
                                           .arg(result.value.remark.empty()
                                                    ? QString()
                                                    : QStringLiteral(" (%1)").arg(QString::fromStdString(result.value.remark))));
            emit consumedDirectly();
        });
}

} // namespace mqdesk::ui
