#pragma once

// TrafficChart: what the brokers' statistics (VIEW_BROKER_STATS_DATA, Java's BrokerStatsManager
// windows) say of a few items — a group's topics, a topic's groups — as a table (now per second,
// the last hour, the last 24 h, bytes in the last 24 h) and a bar chart of each item's last
// 24 h, the Dashboard's "today" figure. Holds no engine data of its own: the page fetches the
// rows and sets them.

#include <QString>
#include <QWidget>

#include <cstdint>
#include <vector>

class QCPBars;
class QCustomPlot;
class QLabel;
class QTableWidget;

namespace mqdesk::ui {

class TrafficChart : public QWidget
{
    Q_OBJECT

public:
    struct Row
    {
        QString label;
        double perSecond = 0; // the last minute's rate
        int64_t lastHour = 0;
        int64_t last24Hours = 0;
        int64_t bytes24Hours = -1; // -1: not known
    };

    // `itemHeader` names the first column ("Topic", "Consumer group").
    explicit TrafficChart(const QString &itemHeader, QWidget *parent = nullptr);

    // Shows `rows` under `summary` (one line above the table).
    void setRows(const QString &summary, std::vector<Row> rows);
    // Shows `text` instead of figures (nothing counted, the brokers could not be asked).
    void setMessage(const QString &text);

    // For tests and screenshots.
    const std::vector<Row> &rows() const { return rows_; }
    QString summaryText() const;
    QTableWidget *table() const { return table_; }
    QCustomPlot *plot() const { return plot_; }

private:
    void redraw();

    QLabel *summary_ = nullptr;
    QTableWidget *table_ = nullptr;
    QCustomPlot *plot_ = nullptr;
    QCPBars *bars_ = nullptr;
    std::vector<Row> rows_;
};

} // namespace mqdesk::ui
