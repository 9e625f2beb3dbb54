#pragma once

// The broker's message counters (RocketMQ's BrokerStatsManager, the part the runtime-info and
// console views read): totals since start, the totals at today's and yesterday's midnight, and
// per-second samples for TPS over 10 s, 1 min and 10 min. Counting is lock-free; sample() runs
// once a second on the scheduler. Beside them, the per-topic, per-group and per-queue sets of
// stats_items.h (what VIEW_BROKER_STATS_DATA answers), fed by the same calls.

#include "broker/server/stats_items.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

namespace mqdesk::server {

class BrokerStats
{
public:
    // `brokerKey` is the key of BROKER_PUT_NUMS / BROKER_GET_NUMS: the cluster name, as Java.
    explicit BrokerStats(std::string brokerKey = "DefaultCluster") : brokerKey_(std::move(brokerKey)) {}

    // Messages stored into a topic's queue (one put: a batch counts once in the event count).
    void addPut(std::string_view topic, int32_t queueId, int64_t messages, int64_t bytes);
    void addPutFailure() { ++putFailures_; }
    // Messages a group got from a topic's queue by pull or pop (queueId -1: several queues).
    void addGet(std::string_view group, std::string_view topic, int32_t queueId, int64_t messages, int64_t bytes);
    void addGetMiss() { ++getMisses_; }
    // A consumer sent a message back for a retry; DLQ: it went to the dead-letter queue.
    void addSendBack(std::string_view group, std::string_view topic);
    void addDeadLetter(std::string_view group);
    StatsItemTable &items() { return items_; }
    const StatsItemTable &items() const { return items_; }

    int64_t putMessages() const { return putMessages_.load(); }
    int64_t putBytes() const { return putBytes_.load(); }
    int64_t putFailures() const { return putFailures_.load(); }
    int64_t getMessages() const { return getFound_.load(); }

    // Takes the per-second sample; `wallMillis` decides when a day turned over.
    void sample(int64_t wallMillis);

    struct Tps
    {
        double last10s = 0, last1min = 0, last10min = 0;
        std::string text() const; // "12.5 11.0 3.2", as RocketMQ's runtime info writes it
    };
    Tps putTps() const;
    Tps getTps() const;
    int64_t putTotalTodayMorning() const;
    int64_t putTotalYesterdayMorning() const;
    int64_t getTotalTodayMorning() const;
    int64_t getTotalYesterdayMorning() const;

private:
    static constexpr size_t kSamples = 601;
    Tps tpsOf(const std::array<int64_t, kSamples> &ring) const;

    void addItem(std::string_view set, std::string_view key, int64_t value, int64_t times);

    const std::string brokerKey_;
    StatsItemTable items_;
    std::atomic<int64_t> putMessages_{0}, putBytes_{0}, putFailures_{0}, getFound_{0}, getMisses_{0};
    mutable std::mutex mutex_;
    std::array<int64_t, kSamples> putRing_{};
    std::array<int64_t, kSamples> getRing_{};
    size_t samples_ = 0; // taken so far; the newest is at (samples_ - 1) % kSamples
    int64_t day_ = -1;
    int64_t putToday_ = 0, putYesterday_ = 0, getToday_ = 0, getYesterday_ = 0;
};

} // namespace mqdesk::server
