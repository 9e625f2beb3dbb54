#include "broker/store/config/topic_config_manager.h"

namespace mqdesk::store {

using common::JsonObject;
using common::JsonValue;

JsonValue TopicConfig::toJson() const
{
    BeanWriter writer(extras);
    writer.put("attributes", stringMapToJson(attributes), attributes.empty());
    writer.put("order", order, !order);
    writer.put("perm", perm, perm == (perm::kRead | perm::kWrite));
    writer.put("readQueueNums", readQueueNums, readQueueNums == kDefaultQueueNums);
    writer.put("topicFilterType", topicFilterType, topicFilterType == kSingleTag);
    writer.put("topicName", topicName, topicName.empty());
    writer.put("topicSysFlag", topicSysFlag, topicSysFlag == 0);
    writer.put("writeQueueNums", writeQueueNums, writeQueueNums == kDefaultQueueNums);
    return writer.finish();
}

bool TopicConfig::fromJson(const JsonValue &value, const std::string &path, TopicConfig &out, std::string &error)
{
    TopicConfig config;
    BeanReader reader(value, path);
    reader.readWith("attributes", [&](const JsonValue &v, const std::string &at, std::string &e) {
        return readStringMap(v, at, config.attributes, e);
    });
    reader.readBool("order", config.order);
    reader.readInt32("perm", config.perm);
    reader.readInt32("readQueueNums", config.readQueueNums);
    reader.readString("topicFilterType", config.topicFilterType);
    reader.readString("topicName", config.topicName);
    reader.readInt32("topicSysFlag", config.topicSysFlag);
    reader.readInt32("writeQueueNums", config.writeQueueNums);
    if (!reader.finish(config.extras, error))
        return false;
    out = std::move(config);
    return true;
}

TopicConfigManager::TopicConfigManager() : ConfigManager(kFileName) {}

std::optional<TopicConfig> TopicConfigManager::selectTopicConfig(const std::string &topic) const
{
    std::lock_guard lock(mutex_);
    if (const TopicConfig *config = table_.find(topic))
        return *config;
    return std::nullopt;
}

bool TopicConfigManager::contains(const std::string &topic) const
{
    std::lock_guard lock(mutex_);
    return table_.contains(topic);
}

std::vector<TopicConfig> TopicConfigManager::topicConfigs() const
{
    std::lock_guard lock(mutex_);
    std::vector<TopicConfig> configs;
    configs.reserve(table_.size());
    for (const auto &entry : table_)
        configs.push_back(entry.second);
    return configs;
}

size_t TopicConfigManager::size() const
{
    std::lock_guard lock(mutex_);
    return table_.size();
}

DataVersion TopicConfigManager::dataVersion() const
{
    std::lock_guard lock(mutex_);
    return dataVersion_;
}

void TopicConfigManager::updateTopicConfig(const TopicConfig &config, int64_t stateVersion)
{
    std::lock_guard lock(mutex_);
    table_.insertOrAssign(config.topicName, config);
    dataVersion_.nextVersion(stateVersion);
}

bool TopicConfigManager::deleteTopicConfig(const std::string &topic, int64_t stateVersion)
{
    std::lock_guard lock(mutex_);
    if (!table_.erase(topic))
        return false;
    dataVersion_.nextVersion(stateVersion);
    return true;
}

bool TopicConfigManager::decodeLocked(const JsonValue &root, std::string &error)
{
    BeanReader reader(root, std::string());
    DataVersion version = DataVersion::create();
    reader.readWith("dataVersion", [&](const JsonValue &value, const std::string &path, std::string &err) {
        return DataVersion::fromJson(value, path, version, err);
    });
    Table table = newTable();
    reader.readWith("topicConfigTable", [&](const JsonValue &value, const std::string &path, std::string &err) {
        return forEachMember(value, path, err, [&](const common::JsonMember &member, const std::string &at, std::string &e) {
            TopicConfig config;
            if (!TopicConfig::fromJson(member.value, at, config, e))
                return false;
            table.append(member.key, std::move(config));
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

JsonValue TopicConfigManager::encodeLocked() const
{
    JsonObject table;
    for (const auto &[topic, config] : table_)
        table.append(common::JsonMember{topic, config.toJson(), false});
    BeanWriter writer(rootExtras_);
    writer.put("dataVersion", dataVersion_.toJson(), true);
    writer.put("topicConfigTable", JsonValue(std::move(table)), table_.empty());
    return writer.finish();
}

} // namespace mqdesk::store
