#include "broker/server/broker_stats.h"

#include "broker/common/clock.h"

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace mqdesk::server {

namespace {

int64_t localDayOf(int64_t wallMillis)
{
    const time_t seconds = static_cast<time_t>(wallMillis / 1000);
    tm local{};
    localtime_r(&seconds, &local);
    return static_cast<int64_t>(local.tm_year) * 400 + local.tm_yday;
}

} // namespace

std::string BrokerStats::Tps::text() const
{
    char buffer[96];
    std::snprintf(buffer, sizeof buffer, "%.2f %.2f %.2f", last10s, last1min, last10min);
    return buffer;
}

void BrokerStats::addItem(std::string_view set, std::string_view key, int64_t value, int64_t times)
{
    if (StatsItemSet *items = items_.set(set))
        items->add(key, value, times, common::wallMillis());
}

void BrokerStats::addPut(std::string_view topic, int32_t queueId, int64_t messages, int64_t bytes)
{
    putMessages_ += messages;
    putBytes_ += bytes;
    addItem(stats::kTopicPutNums, topic, messages, 1);
    addItem(stats::kTopicPutSize, topic, bytes, 1);
    if (queueId >= 0) {
        const std::string queueKey = std::string(topic) + "@" + std::to_string(queueId);
        addItem(stats::kQueuePutNums, queueKey, messages, 1);
        addItem(stats::kQueuePutSize, queueKey, bytes, 1);
    }
    addItem(stats::kBrokerPutNums, brokerKey_, messages, 1);
}

void BrokerStats::addGet(std::string_view group, std::string_view topic, int32_t queueId, int64_t messages,
                         int64_t bytes)
{
    getFound_ += messages;
    const std::string groupKey = std::string(topic) + "@" + std::string(group);
    addItem(stats::kGroupGetNums, groupKey, messages, 1);
    addItem(stats::kGroupGetSize, groupKey, bytes, 1);
    if (queueId >= 0) {
        const std::string queueKey = std::string(topic) + "@" + std::to_string(queueId) + "@" + std::string(group);
        addItem(stats::kQueueGetNums, queueKey, messages, 1);
        addItem(stats::kQueueGetSize, queueKey, bytes, 1);
    }
    addItem(stats::kBrokerGetNums, brokerKey_, messages, 1);
}

void BrokerStats::addSendBack(std::string_view group, std::string_view topic)
{
    addItem(stats::kSendBackPutNums, std::string(topic) + "@" + std::string(group), 1, 1);
}

void BrokerStats::addDeadLetter(std::string_view group)
{
    addItem(stats::kDlqPutNums, std::string(group), 1, 1);
}

void BrokerStats::sample(int64_t wallMillis)
{
    items_.sample(wallMillis);
    std::lock_guard lock(mutex_);
    const int64_t day = localDayOf(wallMillis);
    if (day != day_) {
        putYesterday_ = day_ < 0 ? 0 : putToday_;
        getYesterday_ = day_ < 0 ? 0 : getToday_;
        // The first day counts every message since boot, as Java's zero-initialised morning
        // counters do (the first sample may come after the first puts).
        putToday_ = day_ < 0 ? 0 : putMessages_.load();
        getToday_ = day_ < 0 ? 0 : getFound_.load();
        day_ = day;
    }
    putRing_[samples_ % kSamples] = putMessages_.load();
    getRing_[samples_ % kSamples] = getFound_.load();
    ++samples_;
}

BrokerStats::Tps BrokerStats::tpsOf(const std::array<int64_t, kSamples> &ring) const
{
    Tps tps;
    if (samples_ < 2)
        return tps;
    const size_t newest = (samples_ - 1) % kSamples;
    const auto over = [&](size_t seconds) {
        const size_t span = std::min(seconds, samples_ - 1);
        const size_t oldest = (samples_ - 1 - span) % kSamples;
        return static_cast<double>(ring[newest] - ring[oldest]) / static_cast<double>(span);
    };
    tps.last10s = over(10);
    tps.last1min = over(60);
    tps.last10min = over(600);
    return tps;
}

BrokerStats::Tps BrokerStats::putTps() const
{
    std::lock_guard lock(mutex_);
    return tpsOf(putRing_);
}

BrokerStats::Tps BrokerStats::getTps() const
{
    std::lock_guard lock(mutex_);
    return tpsOf(getRing_);
}

int64_t BrokerStats::putTotalTodayMorning() const
{
    std::lock_guard lock(mutex_);
    return putToday_;
}

int64_t BrokerStats::putTotalYesterdayMorning() const
{
    std::lock_guard lock(mutex_);
    return putYesterday_;
}

int64_t BrokerStats::getTotalTodayMorning() const
{
    std::lock_guard lock(mutex_);
    return getToday_;
}

int64_t BrokerStats::getTotalYesterdayMorning() const
{
    std::lock_guard lock(mutex_);
    return getYesterday_;
}

} // namespace mqdesk::server
