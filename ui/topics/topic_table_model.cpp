#include "ui/topics/topic_table_model.h"

#include "ui/widgets/row_merge.h"

#include <QLocale>

#include <algorithm>
#include <map>

namespace mqdesk::ui {

TopicKind topicKindOf(const std::string &topic, const std::set<std::string> &clusterAndBrokerNames)
{
    if (topic.starts_with("%RETRY%"))
        return TopicKind::Retry;
    if (topic.starts_with("%DLQ%"))
        return TopicKind::DeadLetter;
    static const std::set<std::string> systemTopics = {"TBW102", "SCHEDULE_TOPIC_XXXX", "SELF_TEST_TOPIC",
                                                       "OFFSET_MOVED_EVENT", "BenchmarkTest"};
    if (systemTopics.contains(topic) || topic.starts_with("RMQ_SYS_") || topic.starts_with("rmq_sys_")
        || topic.starts_with("TRANS_") || clusterAndBrokerNames.contains(topic))
        return TopicKind::System;
    return TopicKind::Normal;
}

QString topicKindName(TopicKind kind)
{
    switch (kind) {
    case TopicKind::Normal:
        return TopicTableModel::tr("normal");
    case TopicKind::Retry:
        return TopicTableModel::tr("retry");
    case TopicKind::DeadLetter:
        return TopicTableModel::tr("DLQ");
    case TopicKind::System:
        return TopicTableModel::tr("system");
    }
    return {};
}

std::vector<TopicRow> mergeTopicTables(
    const std::vector<std::pair<std::string, remoting::TopicConfigSerializeWrapper>> &tablesByBroker,
    const std::set<std::string> &clusterAndBrokerNames)
{
    std::map<std::string, TopicRow> byName;
    for (const auto &[brokerAddr, table] : tablesByBroker) {
        for (const remoting::TopicConfigData &config : table.topicConfigTable) {
            auto [it, inserted] = byName.try_emplace(config.topicName);
            TopicRow &row = it->second;
            if (inserted) {
                row.name = QString::fromStdString(config.topicName);
                row.kind = topicKindOf(config.topicName, clusterAndBrokerNames);
                row.perm = config.perm;
                row.messageType = QString::fromStdString(remoting::topicMessageType(config.attributes));
                row.config = config;
            }
            row.readQueues += config.readQueueNums;
            row.writeQueues += config.writeQueueNums;
            row.brokerAddresses.push_back(brokerAddr);
        }
    }
    std::vector<TopicRow> rows;
    rows.reserve(byName.size());
    for (auto &[name, row] : byName)
        rows.push_back(std::move(row));
    return rows;
}

TopicTableModel::TopicTableModel(QObject *parent) : QAbstractTableModel(parent) {}

int TopicTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(topics_.size());
}

int TopicTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TopicTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const TopicRow &row = topics_[static_cast<size_t>(index.row())];
    if (role == KindRole)
        return static_cast<int>(row.kind);
    if (role == MessageTypeRole)
        return row.messageType;
    if (role == Qt::TextAlignmentRole && index.column() >= ReadQueuesColumn && index.column() != PermColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == SortRole) {
        switch (index.column()) {
        case NameColumn: return row.name;
        case KindColumn: return static_cast<int>(row.kind);
        case TypeColumn: return row.messageType;
        case ReadQueuesColumn: return row.readQueues;
        case WriteQueuesColumn: return row.writeQueues;
        case PermColumn: return row.perm;
        case MessagesColumn: return row.messages;
        }
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case NameColumn: return row.name;
    case KindColumn: return topicKindName(row.kind);
    case TypeColumn: return row.messageType; // RocketMQ's own words, as the Dashboard shows them
    case ReadQueuesColumn: return row.readQueues;
    case WriteQueuesColumn: return row.writeQueues;
    case PermColumn: return QString::fromStdString(remoting::topicPerm::permName(row.perm));
    case MessagesColumn:
        if (row.messages == TopicRow::kUnknown)
            return tr("…");
        if (row.messages == TopicRow::kUnavailable)
            return tr("n/a");
        return QLocale().toString(row.messages);
    }
    return {};
}

QVariant TopicTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Topic");
    case KindColumn: return tr("Kind");
    case TypeColumn: return tr("Message type");
    case ReadQueuesColumn: return tr("Read queues");
    case WriteQueuesColumn: return tr("Write queues");
    case PermColumn: return tr("Perm");
    case MessagesColumn: return tr("Messages");
    }
    return {};
}

void TopicTableModel::setTopics(std::vector<TopicRow> topics)
{
    beginResetModel();
    topics_ = std::move(topics);
    indexRows();
    endResetModel();
}

void TopicTableModel::indexRows()
{
    rowByName_.clear();
    for (size_t i = 0; i < topics_.size(); ++i)
        rowByName_.insert(topics_[i].name, static_cast<int>(i));
}

void TopicTableModel::updateTopics(std::vector<TopicRow> topics, bool keepCounts)
{
    struct Ops
    {
        TopicTableModel *model;
        void beginRemove(int first, int last) { model->beginRemoveRows({}, first, last); }
        void endRemove()
        {
            model->indexRows();
            model->endRemoveRows();
        }
        void beginInsert(int first, int last) { model->beginInsertRows({}, first, last); }
        void endInsert()
        {
            model->indexRows();
            model->endInsertRows();
        }
    };
    const auto byName = [](const TopicRow &a, const TopicRow &b) { return a.name < b.name; };
    std::sort(topics.begin(), topics.end(), byName);
    if (!std::is_sorted(topics_.begin(), topics_.end(), byName)) {
        setTopics(std::move(topics));
        return;
    }
    mergeSortedRows(
        topics_, std::move(topics), [](const TopicRow &row) -> const QString & { return row.name; }, Ops{this},
        [keepCounts](TopicRow &current, TopicRow &&fresh) {
            if (keepCounts)
                fresh.messages = current.messages;
            const bool changed = current.kind != fresh.kind || current.messageType != fresh.messageType
                                 || current.readQueues != fresh.readQueues
                                 || current.writeQueues != fresh.writeQueues || current.perm != fresh.perm
                                 || current.messages != fresh.messages;
            current = std::move(fresh);
            return changed;
        },
        [this](int row) { emit dataChanged(index(row, 0), index(row, ColumnCount - 1)); });
}

const TopicRow *TopicTableModel::topic(int row) const
{
    return row >= 0 && row < rowCount() ? &topics_[static_cast<size_t>(row)] : nullptr;
}

const TopicRow *TopicTableModel::topic(const QString &name) const
{
    return topic(rowOf(name));
}

int TopicTableModel::rowOf(const QString &name) const
{
    return rowByName_.value(name, -1);
}

void TopicTableModel::setMessageCount(const QString &name, qint64 messages)
{
    const int row = rowOf(name);
    if (row < 0 || topics_[static_cast<size_t>(row)].messages == messages)
        return;
    topics_[static_cast<size_t>(row)].messages = messages;
    const QModelIndex cell = index(row, MessagesColumn);
    emit dataChanged(cell, cell);
}

TopicFilterModel::TopicFilterModel(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(TopicTableModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void TopicFilterModel::setNameFilter(const QString &text)
{
    nameFilter_ = text.trimmed();
    invalidateFilter();
}

void TopicFilterModel::setKindFilter(int kind)
{
    kindFilter_ = kind;
    invalidateFilter();
}

void TopicFilterModel::setMessageTypeFilter(const QString &type)
{
    messageTypeFilter_ = type;
    invalidateFilter();
}

bool TopicFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex name = sourceModel()->index(sourceRow, TopicTableModel::NameColumn, sourceParent);
    if (kindFilter_ >= 0 && name.data(TopicTableModel::KindRole).toInt() != kindFilter_)
        return false;
    if (!messageTypeFilter_.isEmpty() && name.data(TopicTableModel::MessageTypeRole).toString() != messageTypeFilter_)
        return false;
    return nameFilter_.isEmpty() || name.data().toString().contains(nameFilter_, Qt::CaseInsensitive);
}

} // namespace mqdesk::ui
