#pragma once

// The selected topic in detail: its queues (id, min and max offset, last store time) from
// GET_TOPIC_STATS_INFO, its route (brokers, addresses, queues, perm), the consumer groups
// consuming it (QUERY_TOPIC_CONSUME_BY_WHO on each master), its puts and each group's gets from
// the brokers' statistics (VIEW_BROKER_STATS_DATA; also as a chart, "Traffic by group") and its
// scheduled timer messages and, for a LITE parent topic (RocketMQ 5.5), its lite topics and its
// lite groups' lag (GET_PARENT_TOPIC_INFO, GET_LITE_GROUP_INFO), fetched off the GUI thread.

#include <QWidget>

#include <cstdint>

class QLabel;
class QListWidget;
class QTabWidget;
class QTableWidget;

namespace mqdesk::ui {

class TimerTimelineView;
class TrafficChart;

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
    TrafficChart *trafficChart() const { return trafficChart_; }
    // "Scheduled timer messages", "Traffic by group" and "Lite topics".
    QTabWidget *bottomTabs() const { return bottomTabs_; }
    // The lite groups' lite topics with a lag (group, lite topic, lag, oldest unconsumed).
    QTableWidget *liteTable() const { return liteTable_; }
    QString liteSummary() const;

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
    TrafficChart *trafficChart_ = nullptr;
    QTabWidget *bottomTabs_ = nullptr;
    QWidget *litePage_ = nullptr;
    QLabel *liteSummary_ = nullptr;
    QTableWidget *liteTable_ = nullptr;
};

} // namespace mqdesk::ui
