#pragma once

// Thin table models over what group_data fetches: the consumer groups of the cluster and the
// queues of one group. They hold the fetched values only; sorting and filtering are a
// QSortFilterProxyModel's job (sort keys under SortRole).

#include "ui/groups/group_data.h"

#include <QAbstractTableModel>

#include <map>
#include <vector>

namespace mqdesk::ui {

class GroupTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { NameColumn, ClientsColumn, LagColumn, TopicsColumn, ModeColumn, ColumnCount };
    static constexpr int SortRole = Qt::UserRole;

    explicit GroupTableModel(QObject *parent = nullptr);

    // Applies a fresh listing in place (rows removed, inserted and changed one by one, so the view
    // keeps its selection and scroll position); presence fetched earlier is kept for groups still listed.
    void setGroups(std::vector<GroupSummary> groups);
    void setPresence(std::map<std::string, GroupPresence> presence);
    const GroupSummary &group(int row) const { return groups_[static_cast<size_t>(row)]; }
    // -1 while not fetched yet.
    int clients(int row) const;
    // Null while not fetched yet.
    const GroupPresence *presence(int row) const;
    int rowOf(const std::string &name) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QString consumeMode(const GroupPresence *presence) const;

    std::vector<GroupSummary> groups_;
    std::map<std::string, GroupPresence> presence_;
};

class GroupQueueModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        TopicColumn,
        BrokerColumn,
        QueueColumn,
        BrokerOffsetColumn,
        ConsumerOffsetColumn,
        LagColumn,
        LastConsumeColumn,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole;

    explicit GroupQueueModel(QObject *parent = nullptr);

    void setQueues(std::vector<QueueLag> queues);
    const QueueLag &queue(int row) const { return queues_[static_cast<size_t>(row)]; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<QueueLag> queues_;
};

} // namespace mqdesk::ui
