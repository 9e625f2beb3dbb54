#pragma once

// HistoryRecorder: samples the cluster the views show (ClusterConnection, keyed by its
// NameServer address) once a second, off the GUI thread, and writes put TPS per topic and lag
// per group into the HistoryStore. Against MQDesk brokers that is one GET_ACTIVITY_TOTALS per
// master and second (the master list is refreshed every 30 s); TPS is the change of a topic's
// message count between two answers of the same broker boot. Brokers that do not know the
// request (Java brokers) get the bounded fallback: GET_CONSUME_STATS for the watched groups
// only (the ones a chart shows, at most kMaxWatchedGroups), every 10 s, and no topic TPS.

#include "broker/client/activity_totals.h"
#include "ui/history/history_types.h"

#include <QObject>
#include <QSet>
#include <QString>

#include <map>
#include <string>
#include <vector>

class QTimer;

namespace mqdesk::ui {

class ClusterConnection;
class HistoryStore;

class HistoryRecorder : public QObject
{
    Q_OBJECT

public:
    static constexpr int kMaxWatchedGroups = 20;
    static constexpr int kFallbackEverySeconds = 10;

    HistoryRecorder(ClusterConnection &connection, HistoryStore &history, QObject *parent = nullptr);

    // Groups a chart shows: recorded by the fallback, which cannot ask for every group.
    void watchGroup(const QString &group);
    void unwatchGroup(const QString &group);
    // Whether the brokers of the cluster answer GET_ACTIVITY_TOTALS (false until known).
    bool usesFallback() const { return fallback_; }
    // Takes a sample now (tests; the timer does it every second).
    void sampleNow();

signals:
    // A sample of `cluster` at `time` (ms): every group's lag, for live charts.
    void groupLagSampled(const QString &cluster, qint64 time, const mqdesk::ui::NamedCounts &lag);

private:
    struct BrokerAnswer
    {
        std::string broker;
        client::Result<client::ActivityTotals> totals;
    };
    struct Round
    {
        std::vector<std::string> masters; // refreshed masters, empty when not asked
        std::vector<BrokerAnswer> answers;
        std::string error;
    };
    void onRound(const QString &cluster, int64_t time, Round round);
    void sampleFallback(const QString &cluster);
    void reset();

    ClusterConnection &connection_;
    HistoryStore &history_;
    QTimer *timer_ = nullptr;
    QSet<QString> watched_;
    QString cluster_;
    std::vector<std::string> masters_;
    int ticksSinceMasters_ = 0;
    int ticksSinceFallback_ = 0;
    bool inFlight_ = false;
    bool fallback_ = false;
    // The previous answer of each broker: TPS comes from two answers of one boot.
    std::map<std::string, client::ActivityTotals> previous_;
};

} // namespace mqdesk::ui
