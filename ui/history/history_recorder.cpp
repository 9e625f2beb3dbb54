#include "ui/history/history_recorder.h"

#include "broker/client/admin_client.h"
#include "ui/connection/cluster_connection.h"
#include "ui/history/history_store.h"

#include <QTimer>

namespace mqdesk::ui {

namespace {

constexpr int kMastersEverySeconds = 30;

} // namespace

HistoryRecorder::HistoryRecorder(ClusterConnection &connection, HistoryStore &history, QObject *parent)
    : QObject(parent), connection_(connection), history_(history)
{
    timer_ = new QTimer(this);
    timer_->setInterval(1000);
    connect(timer_, &QTimer::timeout, this, &HistoryRecorder::sampleNow);
    timer_->start();
    connect(&connection_, &ClusterConnection::namesrvAddressChanged, this, &HistoryRecorder::reset);
}

void HistoryRecorder::watchGroup(const QString &group)
{
    if (!group.isEmpty() && watched_.size() < kMaxWatchedGroups)
        watched_.insert(group);
}

void HistoryRecorder::unwatchGroup(const QString &group)
{
    watched_.remove(group);
}

void HistoryRecorder::reset()
{
    cluster_.clear();
    masters_.clear();
    previous_.clear();
    fallback_ = false;
    ticksSinceMasters_ = 0;
    ticksSinceFallback_ = 0;
    inFlight_ = false; // an answer still on its way is dropped: it names the old cluster
}

void HistoryRecorder::sampleNow()
{
    if (!connection_.isConnected()) {
        reset();
        return;
    }
    const QString cluster = connection_.namesrvAddress();
    if (cluster != cluster_) {
        reset();
        cluster_ = cluster;
    }
    if (inFlight_)
        return; // a slow cluster gets fewer samples, never a queue of requests
    if (fallback_) {
        if (++ticksSinceFallback_ >= kFallbackEverySeconds) {
            ticksSinceFallback_ = 0;
            sampleFallback(cluster);
        }
        return;
    }
    const bool refreshMasters = masters_.empty() || ++ticksSinceMasters_ >= kMastersEverySeconds;
    inFlight_ = true;
    connection_.run(
        this,
        [masters = refreshMasters ? std::vector<std::string>{} : masters_](client::AdminClient &admin) {
            Round round;
            if (masters.empty()) {
                auto fetched = admin.masterAddresses();
                if (!fetched.ok) {
                    round.error = fetched.error;
                    return round;
                }
                round.masters = std::move(fetched.value);
            }
            for (const std::string &broker : masters.empty() ? round.masters : masters)
                round.answers.push_back({broker, client::getActivityTotals(admin.api(), broker)});
            return round;
        },
        [this, cluster](Round round) { onRound(cluster, history_.now(), std::move(round)); });
}

void HistoryRecorder::onRound(const QString &cluster, int64_t time, Round round)
{
    inFlight_ = false;
    if (cluster != cluster_)
        return; // answered for a cluster no longer shown
    if (!round.masters.empty()) {
        masters_ = std::move(round.masters);
        ticksSinceMasters_ = 0;
    }
    const bool unsupported = !round.answers.empty()
                             && std::all_of(round.answers.begin(), round.answers.end(), [](const BrokerAnswer &a) {
                                    return a.totals.isNotSupported();
                                });
    if (unsupported) {
        fallback_ = true;
        sampleFallback(cluster);
        return;
    }
    NamedRates tps;
    NamedCounts lag;
    bool answered = false;
    for (BrokerAnswer &answer : round.answers) {
        if (!answer.totals.ok)
            continue; // a broker down now; the others are still recorded
        answered = true;
        const client::ActivityTotals &now = answer.totals.value;
        for (const auto &[group, value] : now.groups)
            lag[group] += value;
        const auto previous = previous_.find(answer.broker);
        if (previous != previous_.end() && previous->second.bootTimestamp == now.bootTimestamp
            && now.timestamp > previous->second.timestamp) {
            const double seconds = static_cast<double>(now.timestamp - previous->second.timestamp) / 1000.0;
            for (const auto &[topic, count] : now.topics) {
                const auto before = previous->second.topics.find(topic);
                // A topic deleted and created again counts from 0: no rate for that second.
                if (before != previous->second.topics.end() && count >= before->second)
                    tps[topic] += static_cast<double>(count - before->second) / seconds;
            }
        }
        previous_[answer.broker] = std::move(answer.totals.value);
    }
    if (!answered)
        return;
    if (!tps.empty())
        history_.recordTopicTps(cluster, time, tps);
    history_.recordGroupLag(cluster, time, lag);
    emit groupLagSampled(cluster, time, lag);
}

void HistoryRecorder::sampleFallback(const QString &cluster)
{
    if (watched_.isEmpty())
        return;
    std::vector<std::string> groups;
    for (const QString &group : watched_)
        groups.push_back(group.toStdString());
    inFlight_ = true;
    connection_.run(
        this,
        [groups](client::AdminClient &admin) {
            NamedCounts lag;
            for (const std::string &group : groups) {
                if (auto stats = admin.consumeStats(group); stats.ok)
                    lag[group] = stats.value.totalLag();
            }
            return lag;
        },
        [this, cluster](NamedCounts lag) {
            inFlight_ = false;
            if (cluster != cluster_ || lag.empty())
                return;
            const int64_t time = history_.now();
            history_.recordGroupLag(cluster, time, lag);
            emit groupLagSampled(cluster, time, lag);
        });
}

} // namespace mqdesk::ui
