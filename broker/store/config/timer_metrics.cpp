#include "broker/store/config/timer_metrics.h"

#include "broker/common/clock.h"

namespace mqdesk::store {

using common::JsonObject;
using common::JsonValue;

TimerMetrics::TimerMetrics() : ConfigManager(kFileName) {}

int64_t TimerMetrics::add(const std::string &topic, int64_t delta)
{
    std::lock_guard lock(mutex_);
    Metric *metric = table_.find(topic);
    if (!metric)
        metric = &table_.insertOrAssign(topic, Metric{0, common::wallMillis()});
    dataVersion_.nextVersion();
    metric->timeStamp = common::wallMillis();
    metric->count += delta;
    return metric->count;
}

int64_t TimerMetrics::count(const std::string &topic) const
{
    std::lock_guard lock(mutex_);
    const Metric *metric = table_.find(topic);
    return metric ? metric->count : 0;
}

std::vector<std::pair<std::string, TimerMetrics::Metric>> TimerMetrics::timingCount() const
{
    std::lock_guard lock(mutex_);
    return std::vector<std::pair<std::string, Metric>>(table_.begin(), table_.end());
}

DataVersion TimerMetrics::dataVersion() const
{
    std::lock_guard lock(mutex_);
    return dataVersion_;
}

bool TimerMetrics::decodeLocked(const JsonValue &root, std::string &error)
{
    BeanReader reader(root, std::string());
    DataVersion version = DataVersion::create();
    reader.readWith("dataVersion", [&](const JsonValue &value, const std::string &path, std::string &err) {
        return DataVersion::fromJson(value, path, version, err);
    });
    Table table = newTable();
    reader.readWith("timingCount", [&](const JsonValue &value, const std::string &path, std::string &err) {
        return forEachMember(value, path, err, [&](const common::JsonMember &entry, const std::string &at, std::string &e) {
            const JsonObject *object = jsonObjectAt(entry.value, at, e);
            if (!object)
                return false;
            Metric metric;
            if (const JsonValue *count = object->find("count"); count && !jsonToInt64(*count, at + ".count", metric.count, e))
                return false;
            if (const JsonValue *stamp = object->find("timeStamp");
                stamp && !jsonToInt64(*stamp, at + ".timeStamp", metric.timeStamp, e))
                return false;
            table.append(entry.key, metric);
            return true;
        });
    });
    BeanExtras extras;
    if (!reader.finish(extras, error))
        return false;
    table_ = std::move(table);
    dataVersion_ = std::move(version);
    rootExtras_ = std::move(extras);
    return true;
}

JsonValue TimerMetrics::encodeLocked() const
{
    JsonObject counts;
    for (const auto &[topic, metric] : table_) {
        JsonObject bean; // Metric's bean properties, sorted
        bean.set("count", JsonValue(metric.count));
        bean.set("timeStamp", JsonValue(metric.timeStamp));
        counts.append(common::JsonMember{topic, JsonValue(std::move(bean)), false});
    }
    BeanWriter writer(rootExtras_);
    writer.put("dataVersion", dataVersion_.toJson());
    writer.put("timingCount", JsonValue(std::move(counts)));
    return writer.finish();
}

} // namespace mqdesk::store
