#pragma once

// `config/timermetrics` (S/timer/TimerMetrics.java): how many timer messages each real topic has
// parked in the wheel. Java writes it with JSON.writeJSONString(…, BrowserCompatible) — compact,
// no indentation — as `{"dataVersion":{"counter":…,"stateVersion":…,"timestamp":…},
// "timingCount":{"<topic>":{"count":n,"timeStamp":ms},…}}`, topics in ConcurrentHashMap(1024)
// order. BrowserCompatible would also escape non-ASCII characters and quote longs beyond 2^53;
// topic names are ASCII and counts and times stay far below, so the plain compact form is the
// same bytes.
//
// Threads: every public function may be called from any thread (ConfigManager's locking).

#include "broker/store/config/config_manager.h"
#include "broker/store/config/data_version.h"
#include "broker/store/config/java_ordered_map.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mqdesk::store {

class TimerMetrics : public ConfigManager
{
public:
    static constexpr const char *kFileName = "timermetrics";

    struct Metric
    {
        int64_t count = 0;
        int64_t timeStamp = 0; // ms of the last change
    };

    TimerMetrics();

    // Java's addAndGet: the topic's count moves by `delta`, its time stamp and the data version
    // move on. Returns the new count.
    int64_t add(const std::string &topic, int64_t delta);
    int64_t count(const std::string &topic) const;
    std::vector<std::pair<std::string, Metric>> timingCount() const;
    DataVersion dataVersion() const;

protected:
    bool decodeLocked(const common::JsonValue &root, std::string &error) override;
    common::JsonValue encodeLocked() const override;
    std::string format(const common::JsonValue &root) const override { return common::toFastjsonCompact(root); }

private:
    using Table = JavaOrderedMap<std::string, Metric>;
    static Table newTable() { return Table(JavaMapShape::concurrent(1024)); }

    Table table_ = newTable();
    DataVersion dataVersion_ = DataVersion::create();
    BeanExtras rootExtras_;
};

} // namespace mqdesk::store
