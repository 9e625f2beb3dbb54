#pragma once

// The selected topic in detail: its queues (id, min and max offset, last store time) from
// GET_TOPIC_STATS_INFO, its route (brokers, addresses, queues, perm) and the consumer groups
// consuming it (QUERY_TOPIC_CONSUME_BY_WHO on each master), fetched off the GUI thread.

#include <QWidget>

#include <cstdint>

class QLabel;
class QListWidget;
class QTableWidget;

namespace mqdesk::ui {

class TimerTimelineView;

class ClusterConnection;

class TopicDetailPane : public QWidget
{
    Q_OBJECT

public:
    explicit TopicDetailPane(ClusterConnection &connection, QWidget *parent = nullptr);

    // Shows `topic` (empty: nothing selected) and fetches its details.
    void showTopic(const QString &topic);
    QString topic() const { return topic_; }
    // Fetches the shown topic's details again.
    void refresh();

    QTableWidget *queueTable() const { return queues_; }
    QTableWidget *routeTable() const { return route_; }
    QListWidget *consumerList() const { return consumers_; }
    // The topic's puts (and below, each group's gets) from the brokers' statistics.
    QString trafficText() const;

signals:
    // The topic's stored messages, known from its queue offsets.
    void messageCountKnown(const QString &topic, qint64 messages);
    // A detail fetch finished (tests).
    void loaded(const QString &topic);

private:
    ClusterConnection &connection_;
    QString topic_;
    uint64_t generation_ = 0; // drops answers about a topic no longer shown
    QLabel *title_ = nullptr;
    QLabel *status_ = nullptr;
    QLabel *traffic_ = nullptr;
    QTableWidget *queues_ = nullptr;
    QTableWidget *route_ = nullptr;
    QListWidget *consumers_ = nullptr;
    TimerTimelineView *timeline_ = nullptr;
};

} // namespace mqdesk::ui
