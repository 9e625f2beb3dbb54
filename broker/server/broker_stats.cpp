#include "broker/server/broker_stats.h"

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

void BrokerStats::sample(int64_t wallMillis)
{
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
