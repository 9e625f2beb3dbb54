#pragma once

// delayOffset.json (§8.5): the delivery progress of ScheduleMessageService
// (B/schedule/ScheduleMessageService.java, DelayOffsetSerializeWrapper):
// `{"dataVersion":{…},"offsetTable":{level:offset}}`, levels as unquoted Integer keys. Level n is
// queue n−1 of SCHEDULE_TOPIC_XXXX. Files from RocketMQ 4.x have no dataVersion and keep lacking
// it when re-written. Clamping offsets into the schedule queues' range on load is the caller's
// (it needs the store).

#include "broker/store/config/config_manager.h"
#include "broker/store/config/data_version.h"
#include "broker/store/config/java_ordered_map.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace mqdesk::store {

class DelayOffsetManager : public ConfigManager
{
public:
    static constexpr const char *kFileName = "delayOffset.json";
    // BrokerConfig.delayOffsetUpdateVersionStep.
    static constexpr int64_t kDefaultUpdateVersionStep = 200;

    explicit DelayOffsetManager(int64_t updateVersionStep = kDefaultUpdateVersionStep);

    // The next queue offset to deliver for `delayLevel` (1-based); nullopt when never set.
    std::optional<int64_t> offset(int32_t delayLevel) const;
    // Java's updateOffset: every updateVersionStep-th update moves the data version on.
    void updateOffset(int32_t delayLevel, int64_t offset);
    // level → offset, in file order.
    std::vector<std::pair<int32_t, int64_t>> offsetTable() const;
    DataVersion dataVersion() const;

protected:
    bool decodeLocked(const common::JsonValue &root, std::string &error) override;
    common::JsonValue encodeLocked() const override;

private:
    using Table = JavaOrderedMap<int32_t, int64_t>;
    static Table newTable() { return Table(JavaMapShape::concurrent(32)); }

    const int64_t updateVersionStep_;
    Table table_ = newTable();
    DataVersion dataVersion_ = DataVersion::create();
    BeanExtras rootExtras_;
    int64_t versionChangeCounter_ = 0;
};

} // namespace mqdesk::store
