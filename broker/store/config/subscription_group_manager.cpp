#include "broker/store/config/subscription_group_manager.h"

namespace mqdesk::store {

using common::JsonObject;
using common::JsonValue;

SubscriptionGroupManager::SubscriptionGroupManager() : ConfigManager(kFileName) {}

std::optional<SubscriptionGroupConfig> SubscriptionGroupManager::findSubscriptionGroupConfig(const std::string &group) const
{
    std::lock_guard lock(mutex_);
    if (const SubscriptionGroupConfig *config = groups_.find(group))
        return *config;
    return std::nullopt;
}

bool SubscriptionGroupManager::containsSubscriptionGroup(const std::string &group) const
{
    std::lock_guard lock(mutex_);
    return groups_.contains(group);
}

std::vector<SubscriptionGroupConfig> SubscriptionGroupManager::subscriptionGroupConfigs() const
{
    std::lock_guard lock(mutex_);
    std::vector<SubscriptionGroupConfig> configs;
    configs.reserve(groups_.size());
    for (const auto &entry : groups_)
        configs.push_back(entry.second);
    return configs;
}

size_t SubscriptionGroupManager::size() const
{
    std::lock_guard lock(mutex_);
    return groups_.size();
}

DataVersion SubscriptionGroupManager::dataVersion() const
{
    std::lock_guard lock(mutex_);
    return dataVersion_;
}

void SubscriptionGroupManager::updateSubscriptionGroupConfig(const SubscriptionGroupConfig &config, int64_t stateVersion)
{
    std::lock_guard lock(mutex_);
    groups_.insertOrAssign(config.groupName, config);
    dataVersion_.nextVersion(stateVersion);
}

bool SubscriptionGroupManager::deleteSubscriptionGroupConfig(const std::string &group, int64_t stateVersion)
{
    std::lock_guard lock(mutex_);
    forbidden_.erase(group);
    if (!groups_.erase(group))
        return false;
    dataVersion_.nextVersion(stateVersion);
    return true;
}

int32_t SubscriptionGroupManager::getForbidden(const std::string &group, const std::string &topic) const
{
    std::lock_guard lock(mutex_);
    if (const TopicMasks *masks = forbidden_.find(group)) {
        if (const int32_t *mask = masks->find(topic))
            return *mask < 0 ? 0 : *mask;
    }
    return 0;
}

bool SubscriptionGroupManager::getForbidden(const std::string &group, const std::string &topic, int forbiddenIndex) const
{
    const auto bit = static_cast<int32_t>(1u << (static_cast<unsigned>(forbiddenIndex) & 31));
    return (getForbidden(group, topic) & bit) == bit;
}

void SubscriptionGroupManager::updateForbidden(const std::string &group, const std::string &topic, int forbiddenIndex,
                                               bool setOrClear)
{
    const auto bit = static_cast<int32_t>(1u << (static_cast<unsigned>(forbiddenIndex) & 31));
    std::lock_guard lock(mutex_);
    TopicMasks *masks = forbidden_.find(group);
    const int32_t *current = masks ? masks->find(topic) : nullptr;
    int32_t mask = current == nullptr || *current < 0 ? 0 : *current;
    mask = setOrClear ? (mask | bit) : (mask & ~bit);
    if (mask <= 0) {
        // As Java's updateForbiddenValue: a cleared mask drops the group's whole entry, and the
        // data version stays.
        forbidden_.erase(group);
        return;
    }
    if (masks == nullptr)
        masks = &forbidden_.insertOrAssign(group, TopicMasks(JavaMapShape::concurrent()));
    masks->insertOrAssign(topic, mask);
    dataVersion_.nextVersion();
}

std::vector<std::pair<std::string, std::vector<std::pair<std::string, int32_t>>>>
SubscriptionGroupManager::forbiddenTable() const
{
    std::lock_guard lock(mutex_);
    std::vector<std::pair<std::string, std::vector<std::pair<std::string, int32_t>>>> table;
    for (const auto &[group, masks] : forbidden_)
        table.emplace_back(group, std::vector<std::pair<std::string, int32_t>>(masks.begin(), masks.end()));
    return table;
}

bool SubscriptionGroupManager::decodeLocked(const JsonValue &root, std::string &error)
{
    BeanReader reader(root, std::string());
    DataVersion version = DataVersion::create();
    reader.readWith("dataVersion", [&](const JsonValue &value, const std::string &path, std::string &err) {
        return DataVersion::fromJson(value, path, version, err);
    });
    ForbiddenTable forbidden = newForbiddenTable();
    reader.readWith("forbiddenTable", [&](const JsonValue &value, const std::string &path, std::string &err) {
        return forEachMember(value, path, err, [&](const common::JsonMember &entry, const std::string &at, std::string &e) {
            TopicMasks masks(JavaMapShape::concurrent());
            const bool read = forEachMember(entry.value, at, e, [&](const common::JsonMember &topic, const std::string &topicAt, std::string &te) {
                int32_t mask = 0;
                if (!jsonToInt32(topic.value, topicAt, mask, te))
                    return false;
                masks.append(topic.key, mask);
                return true;
            });
            if (read)
                forbidden.append(entry.key, std::move(masks));
            return read;
        });
    });
    GroupTable groups = newGroupTable();
    reader.readWith("subscriptionGroupTable", [&](const JsonValue &value, const std::string &path, std::string &err) {
        return forEachMember(value, path, err, [&](const common::JsonMember &entry, const std::string &at, std::string &e) {
            SubscriptionGroupConfig config;
            if (!SubscriptionGroupConfig::fromJson(entry.value, at, config, e))
                return false;
            groups.append(entry.key, std::move(config));
            return true;
        });
    });
    BeanExtras extras;
    if (!reader.finish(extras, error))
        return false;
    groups_ = std::move(groups);
    forbidden_ = std::move(forbidden);
    dataVersion_ = std::move(version);
    rootExtras_ = std::move(extras);
    return true;
}

JsonValue SubscriptionGroupManager::encodeLocked() const
{
    JsonObject forbidden;
    for (const auto &[group, masks] : forbidden_) {
        JsonObject topics;
        for (const auto &[topic, mask] : masks)
            topics.append(common::JsonMember{topic, JsonValue(mask), false});
        forbidden.append(common::JsonMember{group, JsonValue(std::move(topics)), false});
    }
    JsonObject groups;
    for (const auto &[group, config] : groups_)
        groups.append(common::JsonMember{group, config.toJson(), false});
    BeanWriter writer(rootExtras_);
    writer.put("dataVersion", dataVersion_.toJson(), true);
    writer.put("forbiddenTable", JsonValue(std::move(forbidden)), forbidden_.empty());
    writer.put("subscriptionGroupTable", JsonValue(std::move(groups)), groups_.empty());
    return writer.finish();
}

} // namespace mqdesk::store
