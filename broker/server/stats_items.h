#pragma once

// RocketMQ's StatsItemSet, the part of BrokerStatsManager that VIEW_BROKER_STATS_DATA (315), the
// consume TPS of GET_CONSUME_STATS and the console read: named counter sets (TOPIC_PUT_NUMS,
// GROUP_GET_NUMS, …) keyed as Java keys them (`topic`, `topic@group`, `topic@queueId`, …), each
// key a value and a count of the events that added to it.
//
// Windows as Java's StatsItem keeps them: a snapshot every 10 s (the last 7: the minute), every
// 10 min (the last 7: the hour) and every hour (the last 25: the day). A window's figures are
// from its oldest snapshot to now — sum (value added), tps (sum per second) and avgpt (value per
// event) — where Java ends at its newest snapshot: a put shows at once, not up to 10 s later. A
// key's first snapshots are zeros one step before its creation (Java's seed), so its first
// events count and a rate is never taken over less than a step.
//
// Thread-safe: add() is lock-free for a key that exists (a shared lock finds it); sample() runs
// once a second on the broker's scheduler. At most kMaxKeysPerSet keys per set: keys beyond it
// are not counted (logged once per set), so names a client makes up cannot grow memory without
// bound.

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace mqdesk::server {

// Java's StatsSnapshot as BrokerStatsItem carries it.
struct StatsWindow
{
    int64_t sum = 0;
    double tps = 0;
    double avgpt = 0;
};

// BrokerStatsData: the body of VIEW_BROKER_STATS_DATA.
struct StatsData
{
    StatsWindow minute, hour, day;
    // `{"statsDay":{"avgpt":…,"sum":…,"tps":…},"statsHour":{…},"statsMinute":{…}}`
    std::string toJson() const;
};

class StatsItemSet
{
public:
    static constexpr size_t kMaxKeysPerSet = 20'000;

    explicit StatsItemSet(std::string name);
    ~StatsItemSet();

    const std::string &name() const { return name_; }
    void add(std::string_view key, int64_t value, int64_t times, int64_t nowMillis);
    std::optional<StatsData> find(std::string_view key, int64_t nowMillis) const;
    // The minute window's figures; zero for an unknown key.
    StatsWindow minute(std::string_view key, int64_t nowMillis) const;
    void sample(int64_t nowMillis);
    // Drops every key for which `matches` holds (a deleted topic's or group's).
    void removeIf(const std::function<bool(std::string_view key)> &matches);
    size_t size() const;

private:
    struct Item;
    Item *findItem(std::string_view key) const; // under at least a shared lock

    // Looked up by string_view on every put and pull: hashed, a thousand "topic@queue" keys
    // sharing their prefix made an ordered map's descent a dozen memcmps.
    struct KeyHash
    {
        using is_transparent = void;
        size_t operator()(std::string_view key) const { return std::hash<std::string_view>{}(key); }
    };

    const std::string name_;
    mutable std::shared_mutex mutex_;
    std::unordered_map<std::string, std::unique_ptr<Item>, KeyHash, std::equal_to<>> items_;
    std::atomic<bool> fullLogged_{false};
    int64_t lastMinuteSample_ = 0, lastHourSample_ = 0, lastDaySample_ = 0; // sample()'s own
};

// The sets by Java's names (BrokerStatsManager's constants). Unknown names: null.
class StatsItemTable
{
public:
    StatsItemTable();
    StatsItemSet *set(std::string_view name);
    const StatsItemSet *set(std::string_view name) const;
    void sample(int64_t nowMillis);
    void removeTopic(std::string_view topic);
    void removeGroup(std::string_view group);

private:
    std::map<std::string, std::unique_ptr<StatsItemSet>, std::less<>> sets_;
};

namespace stats {
inline constexpr std::string_view kTopicPutNums = "TOPIC_PUT_NUMS";     // topic
inline constexpr std::string_view kTopicPutSize = "TOPIC_PUT_SIZE";     // topic
inline constexpr std::string_view kGroupGetNums = "GROUP_GET_NUMS";     // topic@group
inline constexpr std::string_view kGroupGetSize = "GROUP_GET_SIZE";     // topic@group
inline constexpr std::string_view kSendBackPutNums = "SNDBCK_PUT_NUMS"; // topic@group
inline constexpr std::string_view kBrokerPutNums = "BROKER_PUT_NUMS";   // cluster name
inline constexpr std::string_view kBrokerGetNums = "BROKER_GET_NUMS";   // cluster name
inline constexpr std::string_view kQueuePutNums = "QUEUE_PUT_NUMS";     // topic@queueId
inline constexpr std::string_view kQueuePutSize = "QUEUE_PUT_SIZE";     // topic@queueId
inline constexpr std::string_view kQueueGetNums = "QUEUE_GET_NUMS";     // topic@queueId@group
inline constexpr std::string_view kQueueGetSize = "QUEUE_GET_SIZE";     // topic@queueId@group
inline constexpr std::string_view kGroupAckNums = "GROUP_ACK_NUMS";     // topic@group
inline constexpr std::string_view kGroupCkNums = "GROUP_CK_NUMS";       // topic@group
inline constexpr std::string_view kDlqPutNums = "DLQ_PUT_NUMS";         // group
} // namespace stats

} // namespace mqdesk::server
