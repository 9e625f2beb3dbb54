#include "broker/server/stats_items.h"

#include "broker/common/json.h"

#include <spdlog/spdlog.h>

#include <array>
#include <mutex>

namespace mqdesk::server {

namespace {

struct Snapshot
{
    int64_t value = 0;
    int64_t times = 0;
    int64_t millis = 0;
};

// The last N snapshots, oldest first.
template<size_t N>
struct SnapshotRing
{
    std::array<Snapshot, N> slots{};
    size_t count = 0; // taken so far; the newest is at (count - 1) % N

    void push(const Snapshot &snapshot) { slots[count++ % N] = snapshot; }
    const Snapshot &oldest() const { return slots[count <= N ? 0 : count % N]; }
};

constexpr int64_t kMinuteStep = 10'000;
constexpr int64_t kHourStep = 10 * 60'000;
constexpr int64_t kDayStep = 60 * 60'000;

StatsWindow windowOf(const Snapshot &oldest, const Snapshot &now)
{
    StatsWindow window;
    window.sum = now.value - oldest.value;
    if (const int64_t elapsed = now.millis - oldest.millis; elapsed > 0)
        window.tps = static_cast<double>(window.sum) * 1000.0 / static_cast<double>(elapsed);
    if (const int64_t times = now.times - oldest.times; times > 0)
        window.avgpt = static_cast<double>(window.sum) / static_cast<double>(times);
    return window;
}

common::JsonValue windowJson(const StatsWindow &window)
{
    common::JsonObject object;
    object.set("avgpt", window.avgpt);
    object.set("sum", window.sum);
    object.set("tps", window.tps);
    return object;
}

} // namespace

std::string StatsData::toJson() const
{
    common::JsonObject object;
    object.set("statsDay", windowJson(day));
    object.set("statsHour", windowJson(hour));
    object.set("statsMinute", windowJson(minute));
    return common::toFastjsonCompact(object);
}

struct StatsItemSet::Item
{
    // Zeros one step back, as Java seeds a new item: the first events count, and a window is
    // never shorter than its step (5 puts in the first millisecond read 0.5/s, not 5,000/s).
    explicit Item(int64_t nowMillis)
    {
        minute.push({0, 0, nowMillis - kMinuteStep});
        hour.push({0, 0, nowMillis - kHourStep});
        day.push({0, 0, nowMillis - kDayStep});
    }

    Snapshot now(int64_t nowMillis) const
    {
        return {value.load(std::memory_order_relaxed), times.load(std::memory_order_relaxed), nowMillis};
    }

    std::atomic<int64_t> value{0};
    std::atomic<int64_t> times{0};
    mutable std::mutex mutex; // guards the rings
    SnapshotRing<7> minute;
    SnapshotRing<7> hour;
    SnapshotRing<25> day;
};

StatsItemSet::StatsItemSet(std::string name) : name_(std::move(name)) {}

StatsItemSet::~StatsItemSet() = default;

StatsItemSet::Item *StatsItemSet::findItem(std::string_view key) const
{
    const auto it = items_.find(key);
    return it == items_.end() ? nullptr : it->second.get();
}

void StatsItemSet::add(std::string_view key, int64_t value, int64_t times, int64_t nowMillis)
{
    // The item is added to under the lock that found it: removeIf cannot free it meanwhile.
    const auto addTo = [&](Item &item) {
        item.value.fetch_add(value, std::memory_order_relaxed);
        item.times.fetch_add(times, std::memory_order_relaxed);
    };
    {
        std::shared_lock lock(mutex_);
        if (Item *item = findItem(key))
            return addTo(*item);
    }
    std::unique_lock lock(mutex_);
    Item *item = findItem(key);
    if (!item) {
        if (items_.size() >= kMaxKeysPerSet) {
            if (!fullLogged_.exchange(true))
                spdlog::warn("broker statistics {}: {} keys; new keys are not counted", name_, items_.size());
            return;
        }
        item = items_.emplace(std::string(key), std::make_unique<Item>(nowMillis)).first->second.get();
    }
    addTo(*item);
}

std::optional<StatsData> StatsItemSet::find(std::string_view key, int64_t nowMillis) const
{
    std::shared_lock lock(mutex_);
    const Item *item = findItem(key);
    if (!item)
        return std::nullopt;
    const Snapshot now = item->now(nowMillis);
    std::lock_guard ringLock(item->mutex);
    return StatsData{windowOf(item->minute.oldest(), now), windowOf(item->hour.oldest(), now),
                     windowOf(item->day.oldest(), now)};
}

StatsWindow StatsItemSet::minute(std::string_view key, int64_t nowMillis) const
{
    std::shared_lock lock(mutex_);
    const Item *item = findItem(key);
    if (!item)
        return {};
    const Snapshot now = item->now(nowMillis);
    std::lock_guard ringLock(item->mutex);
    return windowOf(item->minute.oldest(), now);
}

void StatsItemSet::sample(int64_t nowMillis)
{
    const bool minute = nowMillis - lastMinuteSample_ >= kMinuteStep;
    const bool hour = nowMillis - lastHourSample_ >= kHourStep;
    const bool day = nowMillis - lastDaySample_ >= kDayStep;
    if (!minute && !hour && !day)
        return;
    lastMinuteSample_ = minute ? nowMillis : lastMinuteSample_;
    lastHourSample_ = hour ? nowMillis : lastHourSample_;
    lastDaySample_ = day ? nowMillis : lastDaySample_;
    std::shared_lock lock(mutex_);
    for (const auto &[key, item] : items_) {
        const Snapshot now = item->now(nowMillis);
        std::lock_guard ringLock(item->mutex);
        if (minute)
            item->minute.push(now);
        if (hour)
            item->hour.push(now);
        if (day)
            item->day.push(now);
    }
}

void StatsItemSet::removeIf(const std::function<bool(std::string_view key)> &matches)
{
    std::unique_lock lock(mutex_);
    std::erase_if(items_, [&](const auto &entry) { return matches(entry.first); });
}

size_t StatsItemSet::size() const
{
    std::shared_lock lock(mutex_);
    return items_.size();
}

StatsItemTable::StatsItemTable()
{
    for (std::string_view name :
         {stats::kTopicPutNums, stats::kTopicPutSize, stats::kGroupGetNums, stats::kGroupGetSize,
          stats::kSendBackPutNums, stats::kBrokerPutNums, stats::kBrokerGetNums, stats::kQueuePutNums,
          stats::kQueuePutSize, stats::kQueueGetNums, stats::kQueueGetSize, stats::kGroupAckNums, stats::kGroupCkNums,
          stats::kDlqPutNums})
        sets_.emplace(std::string(name), std::make_unique<StatsItemSet>(std::string(name)));
}

StatsItemSet *StatsItemTable::set(std::string_view name)
{
    const auto it = sets_.find(name);
    return it == sets_.end() ? nullptr : it->second.get();
}

const StatsItemSet *StatsItemTable::set(std::string_view name) const
{
    const auto it = sets_.find(name);
    return it == sets_.end() ? nullptr : it->second.get();
}

void StatsItemTable::sample(int64_t nowMillis)
{
    for (const auto &[name, set] : sets_)
        set->sample(nowMillis);
}

namespace {

// The `@`-separated parts of a key; topic and group names cannot hold '@'.
std::vector<std::string_view> keyParts(std::string_view key)
{
    std::vector<std::string_view> parts;
    size_t start = 0;
    for (size_t at = key.find('@'); at != std::string_view::npos; at = key.find('@', start)) {
        parts.push_back(key.substr(start, at - start));
        start = at + 1;
    }
    parts.push_back(key.substr(start));
    return parts;
}

} // namespace

void StatsItemTable::removeTopic(std::string_view topic)
{
    // Every topic-keyed set has the topic first.
    for (const auto &[name, set] : sets_) {
        if (name == stats::kBrokerPutNums || name == stats::kBrokerGetNums || name == stats::kDlqPutNums)
            continue;
        set->removeIf([topic](std::string_view key) { return keyParts(key).front() == topic; });
    }
}

void StatsItemTable::removeGroup(std::string_view group)
{
    for (const auto &[name, set] : sets_) {
        if (name == stats::kDlqPutNums) {
            set->removeIf([group](std::string_view key) { return key == group; });
            continue;
        }
        if (name != stats::kGroupGetNums && name != stats::kGroupGetSize && name != stats::kSendBackPutNums
            && name != stats::kQueueGetNums && name != stats::kQueueGetSize && name != stats::kGroupAckNums
            && name != stats::kGroupCkNums)
            continue;
        set->removeIf([group](std::string_view key) {
            const auto parts = keyParts(key);
            return parts.size() > 1 && parts.back() == group;
        });
    }
}

} // namespace mqdesk::server
