#include "ui/topics/topic_detail_pane.h"

#include "ui/connection/cluster_connection.h"
#include "ui/topics/timer_timeline_view.h"
#include "ui/topics/topic_data.h"
#include "ui/widgets/traffic_chart.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace mqdesk::ui {

namespace {

// Each consumer group's gets of the topic, zeros where the brokers never counted one (bytes
// unknown only where the messages were counted and their size could not be read).
std::vector<TrafficChart::Row> trafficByGroup(const TopicDetails &details)
{
    std::vector<TrafficChart::Row> rows;
    for (const std::string &group : details.consumerGroups) {
        TrafficChart::Row row;
        row.label = QString::fromStdString(group);
        if (const auto it = details.gets.find(group); it != details.gets.end()) {
            row.perSecond = it->second.minute.tps;
            row.lastHour = it->second.hour.sum;
            row.last24Hours = it->second.day.sum;
            if (const auto bytes = details.getBytes.find(group); bytes != details.getBytes.end())
                row.bytes24Hours = bytes->second.day.sum;
        } else {
            row.bytes24Hours = 0;
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

QTableWidget *makeTable(const QStringList &headers, QWidget *parent)
{
    auto *table = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    table->setHorizontalHeaderLabels(headers);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    table->setAlternatingRowColors(true);
    return table;
}

void setCell(QTableWidget *table, int row, int column, const QString &text, bool number = false)
{
    auto *item = new QTableWidgetItem(text);
    if (number)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    table->setItem(row, column, item);
}

QWidget *titled(const QString &title, QWidget *content, QWidget *parent)
{
    auto *box = new QWidget(parent);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *label = new QLabel(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()), box);
    layout->addWidget(label);
    layout->addWidget(content);
    return box;
}

// The "Lite topics" tab: the parent's lite topics and each lite group's lag (or why there is none).
void showLite(const client::Result<client::LiteTopicOverview> &lite, QLabel *summary, QTableWidget *table)
{
    if (!lite.ok) {
        // A topic of another type is refused with INVALID_PARAMETER ("type not match").
        summary->setText(lite.isNotSupported()
                                  ? TopicDetailPane::tr("These brokers do not serve lite topics (RocketMQ 5.5).")
                                  : lite.error.find("type not match") != std::string::npos
                                  ? TopicDetailPane::tr("Not a lite topic: lite topics live under a topic of message type LITE.")
                                  : TopicDetailPane::tr("Lite topics: %1").arg(QString::fromStdString(lite.error)));
        return;
    }
    const QLocale locale;
    const client::LiteTopicOverview &overview = lite.value;
    QStringList groups;
    int rows = 0;
    for (const client::LiteGroupLag &group : overview.groups) {
        groups << TopicDetailPane::tr("%1 (lag %2)").arg(QString::fromStdString(group.group), locale.toString(group.totalLagCount));
        rows += static_cast<int>(group.topByLag.size());
    }
    summary->setText(
        TopicDetailPane::tr("%n lite topic(s) · %1 · lite groups: %2", nullptr, static_cast<int>(overview.liteTopicCount))
            .arg(overview.ttlMinutes > 0 ? TopicDetailPane::tr("idle ones expire after %1 min").arg(overview.ttlMinutes)
                                         : TopicDetailPane::tr("they never expire"),
                 groups.isEmpty() ? TopicDetailPane::tr("none (a group with the attribute lite.bind.topic)") : groups.join(QStringLiteral(", "))));
    table->setRowCount(rows);
    int row = 0;
    for (const client::LiteGroupLag &group : overview.groups) {
        for (const client::LiteLag &lag : group.topByLag) {
            setCell(table, row, 0, QString::fromStdString(group.group));
            setCell(table, row, 1, QString::fromStdString(lag.liteTopic));
            setCell(table, row, 2, locale.toString(lag.lagCount), true);
            setCell(table, row, 3,
                    lag.earliestUnconsumedTimestamp > 0
                        ? locale.toString(QDateTime::fromMSecsSinceEpoch(lag.earliestUnconsumedTimestamp), QLocale::ShortFormat)
                        : QString());
            ++row;
        }
    }
}

} // namespace

TopicDetailPane::TopicDetailPane(ClusterConnection &connection, QWidget *parent)
    : QWidget(parent), connection_(connection)
{
    title_ = new QLabel(this);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    traffic_ = new QLabel(this);
    traffic_->setObjectName(QStringLiteral("topicTraffic"));
    traffic_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    traffic_->setWordWrap(true);
    queues_ = makeTable({tr("Broker"), tr("Queue"), tr("Min offset"), tr("Max offset"), tr("Messages"),
                         tr("Last stored")},
                        this);
    queues_->setObjectName(QStringLiteral("queueTable"));
    route_ = makeTable({tr("Broker"), tr("Address"), tr("Read"), tr("Write"), tr("Perm")}, this);
    route_->setObjectName(QStringLiteral("routeTable"));
    consumers_ = new QListWidget(this);
    consumers_->setObjectName(QStringLiteral("consumerList"));
    consumers_->setWordWrap(true);

    auto *columns = new QHBoxLayout;
    columns->addWidget(titled(tr("Queues"), queues_, this), 3);
    columns->addWidget(titled(tr("Route"), route_, this), 2);
    columns->addWidget(titled(tr("Consumer groups"), consumers_, this), 2);
    timeline_ = new TimerTimelineView(this);
    timeline_->setObjectName(QStringLiteral("timerTimeline"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addWidget(title_);
    layout->addWidget(status_);
    layout->addWidget(traffic_);
    layout->addLayout(columns, 2);
    trafficChart_ = new TrafficChart(tr("Consumer group"), this);
    trafficChart_->setObjectName(QStringLiteral("topicTrafficChart"));
    bottomTabs_ = new QTabWidget(this);
    bottomTabs_->setDocumentMode(true);
    bottomTabs_->addTab(timeline_, tr("Scheduled timer messages"));
    bottomTabs_->addTab(trafficChart_, tr("Traffic by group"));
    litePage_ = new QWidget(this);
    auto *liteLayout = new QVBoxLayout(litePage_);
    liteSummary_ = new QLabel(litePage_);
    liteSummary_->setObjectName(QStringLiteral("liteSummary"));
    liteSummary_->setWordWrap(true);
    liteTable_ = makeTable({tr("Lite group"), tr("Lite topic"), tr("Lag"), tr("Oldest unconsumed")}, litePage_);
    liteTable_->setObjectName(QStringLiteral("liteTable"));
    liteLayout->addWidget(liteSummary_);
    liteLayout->addWidget(liteTable_, 1);
    bottomTabs_->addTab(litePage_, tr("Lite topics"));
    layout->addWidget(bottomTabs_, 1);
    showTopic({});
}

void TopicDetailPane::showTopic(const QString &topic)
{
    topic_ = topic;
    refresh();
}

void TopicDetailPane::refresh()
{
    const uint64_t generation = ++generation_;
    queues_->setRowCount(0);
    route_->setRowCount(0);
    consumers_->clear();
    traffic_->clear();
    trafficChart_->setMessage({});
    timeline_->setUnavailable({});
    liteSummary_->clear();
    liteTable_->setRowCount(0);
    if (topic_.isEmpty()) {
        title_->setText(tr("Select a topic to see its queues, route and consumer groups."));
        status_->clear();
        return;
    }
    title_->setText(tr("<b>%1</b>").arg(topic_.toHtmlEscaped()));
    if (!connection_.isConnected()) {
        status_->setText(tr("Not connected."));
        return;
    }
    status_->setText(tr("Loading…"));
    const QString topic = topic_;
    connection_.run(
        this, [name = topic.toStdString()](client::AdminClient &admin) { return fetchDetails(admin, name); },
        [this, generation, topic](TopicDetails details) {
            if (generation != generation_)
                return;
            QStringList problems;
            const QLocale locale;
            if (details.stats.ok) {
                const auto &table = details.stats.value.offsetTable;
                queues_->setRowCount(static_cast<int>(table.size()));
                int row = 0;
                for (const auto &[queue, offsets] : table) {
                    setCell(queues_, row, 0, QString::fromStdString(queue.brokerName));
                    setCell(queues_, row, 1, QString::number(queue.queueId), true);
                    setCell(queues_, row, 2, locale.toString(offsets.minOffset), true);
                    setCell(queues_, row, 3, locale.toString(offsets.maxOffset), true);
                    setCell(queues_, row, 4, locale.toString(offsets.maxOffset - offsets.minOffset), true);
                    const QString stored = offsets.lastUpdateTimestamp > 0
                        ? locale.toString(QDateTime::fromMSecsSinceEpoch(offsets.lastUpdateTimestamp),
                                          QLocale::ShortFormat)
                        : tr("never");
                    setCell(queues_, row, 5, stored);
                    ++row;
                }
                emit messageCountKnown(topic, details.stats.value.totalMessages());
            } else {
                problems << tr("Queues: %1").arg(QString::fromStdString(details.stats.error));
            }
            if (details.route.ok) {
                const auto &route = details.route.value;
                route_->setRowCount(static_cast<int>(route.queueDatas.size()));
                int row = 0;
                for (const remoting::QueueData &queueData : route.queueDatas) {
                    QStringList addresses;
                    for (const remoting::BrokerData &broker : route.brokerDatas) {
                        if (broker.brokerName == queueData.brokerName) {
                            for (const auto &[id, address] : broker.brokerAddrs)
                                addresses << QString::fromStdString(address);
                        }
                    }
                    setCell(route_, row, 0, QString::fromStdString(queueData.brokerName));
                    setCell(route_, row, 1, addresses.join(QStringLiteral(", ")));
                    setCell(route_, row, 2, QString::number(queueData.readQueueNums), true);
                    setCell(route_, row, 3, QString::number(queueData.writeQueueNums), true);
                    setCell(route_, row, 4, QString::fromStdString(remoting::topicPerm::permName(queueData.perm)));
                    ++row;
                }
            } else {
                problems << tr("Route: %1").arg(QString::fromStdString(details.route.error));
            }
            for (const std::string &group : details.consumerGroups) {
                const auto gets = details.gets.find(group);
                consumers_->addItem(gets == details.gets.end()
                                        ? QString::fromStdString(group)
                                        : tr("%1 — %2/s now, %3 in the last 24 h")
                                              .arg(QString::fromStdString(group), locale.toString(gets->second.minute.tps, 'f', 2),
                                                   locale.toString(static_cast<qlonglong>(gets->second.day.sum))));
            }
            if (!details.puts.ok)
                traffic_->setText(tr("Traffic: %1").arg(QString::fromStdString(details.puts.error)));
            else if (!details.puts.value.counted)
                traffic_->setText(tr("Puts: none since the brokers started."));
            else
                traffic_->setText(tr("Puts: %1/s in the last minute · %2 in the last hour · %3 in the last 24 h")
                                      .arg(locale.toString(details.puts.value.minute.tps, 'f', 2),
                                           locale.toString(static_cast<qlonglong>(details.puts.value.hour.sum)),
                                           locale.toString(static_cast<qlonglong>(details.puts.value.day.sum))));
            if (details.consumerGroups.empty())
                consumers_->addItem(tr("No consumer group has consumed it yet."));
            if (details.consumerGroups.empty())
                trafficChart_->setMessage(tr("No consumer group has consumed it yet."));
            else
                trafficChart_->setRows(traffic_->text(), trafficByGroup(details));
            if (!details.consumersError.empty())
                problems << tr("Consumer groups: %1").arg(QString::fromStdString(details.consumersError));
            if (details.timeline.ok)
                timeline_->setTimeline(details.timeline.value);
            else if (details.timeline.isNotSupported())
                timeline_->setUnavailable(tr("This broker does not report its scheduled timer messages "
                                             "(an MQDesk broker does)."));
            else
                timeline_->setUnavailable(tr("Scheduled timer messages: %1")
                                              .arg(QString::fromStdString(details.timeline.error)));
            showLite(details.lite, liteSummary_, liteTable_);
            status_->setText(problems.join(QLatin1Char('\n')));
            for (QTableWidget *table : {queues_, route_, liteTable_})
                table->resizeColumnsToContents();
            emit loaded(topic);
        });
}

QString TopicDetailPane::liteSummary() const
{
    return liteSummary_->text();
}

QString TopicDetailPane::trafficText() const
{
    return traffic_->text();
}

} // namespace mqdesk::ui
