#pragma once

// subscriptionGroup.json (§8.4): RocketMQ's SubscriptionGroupManager
// (B/subscription/SubscriptionGroupManager.java):
// `{"dataVersion":{…},"forbiddenTable":{group:{topic:int}},"subscriptionGroupTable":{group:config}}`.

#include "broker/store/config/config_manager.h"
#include "broker/store/config/data_version.h"
#include "broker/store/config/subscription_group_config.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mqdesk::store {

class SubscriptionGroupManager : public ConfigManager
{
public:
    static constexpr const char *kFileName = "subscriptionGroup.json";

    SubscriptionGroupManager();

    std::optional<SubscriptionGroupConfig> findSubscriptionGroupConfig(const std::string &group) const;
    bool containsSubscriptionGroup(const std::string &group) const;
    // All groups in file order (new ones where Java's map would put them).
    std::vector<SubscriptionGroupConfig> subscriptionGroupConfigs() const;
    size_t size() const;
    DataVersion dataVersion() const;

    // Adds or replaces the group `config.groupName` and moves the data version on (Java's
    // updateSubscriptionGroupConfigWithoutPersist; attribute +/- prefixes are the caller's
    // business). Memory only: persist() writes the file.
    void updateSubscriptionGroupConfig(const SubscriptionGroupConfig &config, int64_t stateVersion = 0);
    // Removes the group and its forbidden entries; moves the version on if the group existed.
    bool deleteSubscriptionGroupConfig(const std::string &group, int64_t stateVersion = 0);

    // The forbidden bit mask of group/topic (0 when unset or negative), Java's getForbidden.
    int32_t getForbidden(const std::string &group, const std::string &topic) const;
    bool getForbidden(const std::string &group, const std::string &topic, int forbiddenIndex) const;
    // Sets or clears bit `forbiddenIndex` (Java's updateForbidden: a mask that becomes 0 removes
    // the whole group entry). Memory only.
    void updateForbidden(const std::string &group, const std::string &topic, int forbiddenIndex, bool setOrClear);
    // group → topic → mask, in file order.
    std::vector<std::pair<std::string, std::vector<std::pair<std::string, int32_t>>>> forbiddenTable() const;

protected:
    bool decodeLocked(const common::JsonValue &root, std::string &error) override;
    common::JsonValue encodeLocked() const override;

private:
    using GroupTable = JavaOrderedMap<std::string, SubscriptionGroupConfig>;
    using TopicMasks = JavaOrderedMap<std::string, int32_t>;
    using ForbiddenTable = JavaOrderedMap<std::string, TopicMasks>;
    static GroupTable newGroupTable() { return GroupTable(JavaMapShape::concurrent(1024)); }
    static ForbiddenTable newForbiddenTable() { return ForbiddenTable(JavaMapShape::concurrent(4)); }

    GroupTable groups_ = newGroupTable();
    ForbiddenTable forbidden_ = newForbiddenTable();
    DataVersion dataVersion_ = DataVersion::create();
    BeanExtras rootExtras_;
};

} // namespace mqdesk::store
