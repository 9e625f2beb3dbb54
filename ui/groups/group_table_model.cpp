#include "ui/groups/group_table_model.h"

#include "ui/widgets/row_merge.h"

#include <algorithm>

#include <QDateTime>
#include <QLocale>

namespace mqdesk::ui {

namespace {

QString fromStd(const std::string &text)
{
    return QString::fromStdString(text);
}

} // namespace

// ---- GroupTableModel ----

GroupTableModel::GroupTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void GroupTableModel::setGroups(std::vector<GroupSummary> groups)
{
    const auto byName = [](const GroupSummary &a, const GroupSummary &b) { return a.name < b.name; };
    std::sort(groups.begin(), groups.end(), byName);
    if (!std::is_sorted(groups_.begin(), groups_.end(), byName)) {
        beginResetModel();
        groups_ = std::move(groups);
        endResetModel();
        return;
    }
    struct Ops
    {
        GroupTableModel *model;
        void beginRemove(int first, int last) { model->beginRemoveRows({}, first, last); }
        void endRemove() { model->endRemoveRows(); }
        void beginInsert(int first, int last) { model->beginInsertRows({}, first, last); }
        void endInsert() { model->endInsertRows(); }
    };
    mergeSortedRows(
        groups_, std::move(groups), [](const GroupSummary &group) -> const std::string & { return group.name; },
        Ops{this},
        [](GroupSummary &current, GroupSummary &&fresh) {
            const bool changed = current.topics != fresh.topics || current.totalLag != fresh.totalLag
                                 || current.config.has_value() != fresh.config.has_value();
            current = std::move(fresh);
            return changed;
        },
        [this](int row) { emit dataChanged(index(row, 0), index(row, ColumnCount - 1)); });
}

void GroupTableModel::setPresence(std::map<std::string, GroupPresence> presence)
{
    presence_ = std::move(presence);
    if (!groups_.empty())
        emit dataChanged(index(0, ClientsColumn), index(rowCount() - 1, ModeColumn));
}

int GroupTableModel::clients(int row) const
{
    const auto found = presence_.find(group(row).name);
    return found == presence_.end() ? -1 : found->second.clients;
}

const GroupPresence *GroupTableModel::presence(int row) const
{
    const auto found = presence_.find(group(row).name);
    return found == presence_.end() ? nullptr : &found->second;
}

int GroupTableModel::rowOf(const std::string &name) const
{
    for (size_t row = 0; row < groups_.size(); ++row) {
        if (groups_[row].name == name)
            return static_cast<int>(row);
    }
    return -1;
}

int GroupTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(groups_.size());
}

int GroupTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString GroupTableModel::consumeMode(const GroupPresence *presence) const
{
    if (!presence)
        return {};
    if (presence->clients == 0)
        return tr("offline");
    const QString type = presence->consumeType == "CONSUME_PASSIVELY" ? tr("push") : tr("pull");
    const QString model = presence->messageModel == "BROADCASTING" ? tr("broadcasting") : tr("clustering");
    return tr("%1, %2").arg(type, model);
}

QVariant GroupTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const GroupSummary &row = group(index.row());
    const auto found = presence_.find(row.name);
    const GroupPresence *presence = found == presence_.end() ? nullptr : &found->second;

    if (role == Qt::TextAlignmentRole && (index.column() == ClientsColumn || index.column() == LagColumn))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == NameColumn && row.config) {
        return tr("Retry queues: %1, max retries: %2, consume %3")
            .arg(row.config->retryQueueNums)
            .arg(row.config->retryMaxTimes)
            .arg(row.config->consumeEnable ? tr("enabled") : tr("disabled"));
    }
    if (role != Qt::DisplayRole && role != SortRole)
        return {};

    const bool sorting = role == SortRole;
    switch (index.column()) {
    case NameColumn:
        return fromStd(row.name);
    case ClientsColumn:
        if (sorting)
            return presence ? presence->clients : -1;
        return presence ? QLocale().toString(presence->clients) : tr("…");
    case LagColumn:
        // A group that committed no offset has no lag to tell (Java tools show 0 or -1): unknown,
        // sorted below every known lag.
        if (row.topics.empty())
            return sorting ? QVariant::fromValue<qlonglong>(-1) : QVariant(tr("unknown"));
        if (sorting)
            return QVariant::fromValue<qlonglong>(row.totalLag);
        return QLocale().toString(static_cast<qlonglong>(row.totalLag));
    case TopicsColumn: {
        QStringList topics;
        for (const auto &topic : row.topics)
            topics << fromStd(topic);
        return topics.join(QStringLiteral(", "));
    }
    case ModeColumn:
        return consumeMode(presence);
    default:
        return {};
    }
}

QVariant GroupTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Group");
    case ClientsColumn:
        return tr("Online clients");
    case LagColumn:
        return tr("Total lag");
    case TopicsColumn:
        return tr("Topics consumed");
    case ModeColumn:
        return tr("Consume mode");
    default:
        return {};
    }
}

// ---- GroupQueueModel ----

GroupQueueModel::GroupQueueModel(QObject *parent) : QAbstractTableModel(parent) {}

void GroupQueueModel::setQueues(std::vector<QueueLag> queues)
{
    beginResetModel();
    queues_ = std::move(queues);
    endResetModel();
}

int GroupQueueModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(queues_.size());
}

int GroupQueueModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GroupQueueModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const QueueLag &row = queue(index.row());
    if (role == Qt::TextAlignmentRole && index.column() >= QueueColumn && index.column() <= LagColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != SortRole)
        return {};

    const bool sorting = role == SortRole;
    auto number = [sorting](int64_t value) -> QVariant {
        if (sorting)
            return QVariant::fromValue<qlonglong>(value);
        return QLocale().toString(static_cast<qlonglong>(value));
    };
    switch (index.column()) {
    case TopicColumn:
        return fromStd(row.queue.topic);
    case BrokerColumn:
        return fromStd(row.queue.brokerName);
    case QueueColumn:
        return sorting ? QVariant(row.queue.queueId) : QVariant(QLocale().toString(row.queue.queueId));
    case BrokerOffsetColumn:
        return number(row.brokerOffset);
    case ConsumerOffsetColumn:
        return number(row.consumerOffset);
    case LagColumn:
        return number(row.lag());
    case LastConsumeColumn:
        if (sorting)
            return QVariant::fromValue<qlonglong>(row.lastTimestamp);
        if (row.lastTimestamp <= 0)
            return tr("—");
        return QLocale().toString(QDateTime::fromMSecsSinceEpoch(row.lastTimestamp), QLocale::ShortFormat);
    default:
        return {};
    }
}

QVariant GroupQueueModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TopicColumn:
        return tr("Topic");
    case BrokerColumn:
        return tr("Broker");
    case QueueColumn:
        return tr("Queue");
    case BrokerOffsetColumn:
        return tr("Broker offset");
    case ConsumerOffsetColumn:
        return tr("Consumer offset");
    case LagColumn:
        return tr("Lag");
    case LastConsumeColumn:
        return tr("Last consume time");
    default:
        return {};
    }
}

} // namespace mqdesk::ui
