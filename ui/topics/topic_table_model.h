#pragma once

// The Topics view's table: one row per topic of the cluster as the brokers' topic tables
// (GET_ALL_TOPIC_CONFIG, one request per master) describe it, merged over brokers. Message
// counts come later and lazily (setMessageCount), so the table shows 1,000 topics at once and
// fills in the numbers of the rows the user looks at. TopicFilterModel filters by name, kind and
// 5.x message type (the topic's `message.type` attribute; UNSPECIFIED when it has none, shown as
// RocketMQ Dashboard 5.x shows it).

#include "broker/remoting/protocol/route_data.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QSortFilterProxyModel>
#include <QStringList>

#include <set>
#include <string>
#include <vector>

namespace mqdesk::ui {

enum class TopicKind { Normal, Retry, DeadLetter, System };

// What a topic is for: %RETRY% and %DLQ% prefixes, the broker's own topics (TBW102,
// SCHEDULE_TOPIC_XXXX, RMQ_SYS_*, TRANS_*, …) and topics named after a cluster or broker.
TopicKind topicKindOf(const std::string &topic, const std::set<std::string> &clusterAndBrokerNames);
QString topicKindName(TopicKind kind);

struct TopicRow
{
    QString name;
    TopicKind kind = TopicKind::Normal;
    int readQueues = 0;  // summed over the brokers hosting the topic
    int writeQueues = 0;
    int perm = 0;        // of the first broker (they agree unless edited per broker)
    QString messageType; // TopicMessageType of the first broker: UNSPECIFIED, NORMAL, FIFO, …
    static constexpr qint64 kUnknown = -1;     // not fetched yet
    static constexpr qint64 kUnavailable = -2; // the brokers did not say
    qint64 messages = kUnknown; // stored messages (sum of max − min over queues)
    std::vector<std::string> brokerAddresses; // masters whose topic table holds it
    remoting::TopicConfigData config;         // as the first of them holds it (for editing)
};

// One topic table per master → one row per topic, sorted by name.
std::vector<TopicRow> mergeTopicTables(
    const std::vector<std::pair<std::string, remoting::TopicConfigSerializeWrapper>> &tablesByBroker,
    const std::set<std::string> &clusterAndBrokerNames);

class TopicTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        NameColumn,
        KindColumn,
        TypeColumn,
        ReadQueuesColumn,
        WriteQueuesColumn,
        PermColumn,
        MessagesColumn,
        ColumnCount
    };
    static constexpr int KindRole = Qt::UserRole + 1; // TopicKind as int
    static constexpr int SortRole = Qt::UserRole + 2;
    static constexpr int MessageTypeRole = Qt::UserRole + 3; // TopicRow::messageType

    explicit TopicTableModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setTopics(std::vector<TopicRow> topics);
    // A fresh listing (sorted by name) applied in place: rows removed, inserted and changed one
    // by one, so a view keeps its selection and scroll position. `keepCounts`: message counts
    // fetched earlier stay (a live refresh); otherwise they are fetched again (F5).
    void updateTopics(std::vector<TopicRow> topics, bool keepCounts);
    void clear() { setTopics({}); }
    const TopicRow *topic(int row) const;
    const TopicRow *topic(const QString &name) const;
    int rowOf(const QString &name) const;
    void setMessageCount(const QString &name, qint64 messages);

private:
    void indexRows();

    std::vector<TopicRow> topics_;
    QHash<QString, int> rowByName_;
};

// Filters the topics by a name substring (case-insensitive) and by kind; sorts by SortRole.
class TopicFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    explicit TopicFilterModel(QObject *parent = nullptr);
    void setNameFilter(const QString &text);
    // -1: every kind.
    void setKindFilter(int kind);
    // A TopicMessageType value ("FIFO"); empty: every type.
    void setMessageTypeFilter(const QString &type);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString nameFilter_;
    int kindFilter_ = -1;
    QString messageTypeFilter_;
};

} // namespace mqdesk::ui
