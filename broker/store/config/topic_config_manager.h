#pragma once

// topics.json (§8.2): RocketMQ's TopicConfigManager (B/topic/TopicConfigManager.java) and
// TopicConfig (C/TopicConfig.java), persisted through TopicConfigSerializeWrapper:
// `{"dataVersion":{…},"topicConfigTable":{topic:TopicConfig}}`.

#include "broker/store/config/bean_codec.h"
#include "broker/store/config/config_manager.h"
#include "broker/store/config/data_version.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mqdesk::store {

// PermName bits.
namespace perm {
constexpr int32_t kPriority = 8;
constexpr int32_t kRead = 4;
constexpr int32_t kWrite = 2;
constexpr int32_t kInherit = 1;
} // namespace perm

struct TopicConfig
{
    static constexpr int32_t kDefaultQueueNums = 16;
    static constexpr const char *kSingleTag = "SINGLE_TAG";
    static constexpr const char *kMultiTag = "MULTI_TAG";

    std::string topicName;
    int32_t readQueueNums = kDefaultQueueNums;
    int32_t writeQueueNums = kDefaultQueueNums;
    int32_t perm = perm::kRead | perm::kWrite;
    std::string topicFilterType = kSingleTag; // TopicFilterType name, kept as written
    int32_t topicSysFlag = 0;
    bool order = false;
    // e.g. queue.type, cleanup.policy, message.type (stored without the +/- admin prefixes)
    StringMap attributes{JavaMapShape::hashMap()};
    BeanExtras extras;

    common::JsonValue toJson() const;
    static bool fromJson(const common::JsonValue &value, const std::string &path, TopicConfig &out,
                         std::string &error);

    // RocketMQ's QueueTypeUtils.isBatchCq: queue.type=BatchCQ (SimpleCQ when unset).
    bool isBatchCq() const
    {
        const std::string *type = attributes.find("queue.type");
        return type && *type == "BatchCQ";
    }

    bool operator==(const TopicConfig &other) const = default;
};

class TopicConfigManager : public ConfigManager
{
public:
    static constexpr const char *kFileName = "topics.json";

    TopicConfigManager();

    std::optional<TopicConfig> selectTopicConfig(const std::string &topic) const;
    bool contains(const std::string &topic) const;
    // All topics in the order the file lists them (new ones where Java's map would put them).
    std::vector<TopicConfig> topicConfigs() const;
    size_t size() const;
    DataVersion dataVersion() const;

    // Adds or replaces the topic `config.topicName` and moves the data version on, as Java's
    // updateTopicConfig. Memory only: persist() writes the file.
    void updateTopicConfig(const TopicConfig &config, int64_t stateVersion = 0);
    // Removes `topic` and moves the data version on; false when there was no such topic.
    bool deleteTopicConfig(const std::string &topic, int64_t stateVersion = 0);

protected:
    bool decodeLocked(const common::JsonValue &root, std::string &error) override;
    common::JsonValue encodeLocked() const override;

private:
    using Table = JavaOrderedMap<std::string, TopicConfig>;
    static Table newTable() { return Table(JavaMapShape::concurrent(1024)); }

    Table table_ = newTable();
    DataVersion dataVersion_ = DataVersion::create();
    BeanExtras rootExtras_;
};

} // namespace mqdesk::store
