#pragma once

// consumerFilter.json (§8.6): RocketMQ's ConsumerFilterManager (B/filter/ConsumerFilterManager.java),
// the compiled SQL92 filters of consumer groups:
// `{"filterDataByTopic":{topic:{"groupFilterData":{group:ConsumerFilterData},"topic":topic}}}`.
// Everything read is written back: unknown properties are kept. Java's load-time housekeeping
// (marking all filters dead, dropping them when the bloom filter changed, cleaning expired
// ones) belongs to the filter service, not to this file store.

#include "broker/store/config/bean_codec.h"
#include "broker/store/config/config_manager.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mqdesk::store {

struct BloomFilterData
{
    int32_t bitNum = 0;
    std::vector<int32_t> bitPos; // an int[]: written inline
    BeanExtras extras;

    bool operator==(const BloomFilterData &other) const = default;
};

struct ConsumerFilterData
{
    std::string consumerGroup;
    std::string topic;
    std::string expression;
    std::string expressionType;
    int64_t bornTime = 0;
    int64_t deadTime = 0;
    std::optional<BloomFilterData> bloomFilterData;
    int64_t clientVersion = 0;
    BeanExtras extras;

    // Java's isDead(), also written as the derived property `dead`.
    bool isDead() const { return deadTime >= bornTime; }

    common::JsonValue toJson() const;
    static bool fromJson(const common::JsonValue &value, const std::string &path, ConsumerFilterData &out,
                         std::string &error);
    bool operator==(const ConsumerFilterData &other) const = default;
};

class ConsumerFilterManager : public ConfigManager
{
public:
    static constexpr const char *kFileName = "consumerFilter.json";

    ConsumerFilterManager();

    std::optional<ConsumerFilterData> get(const std::string &topic, const std::string &consumerGroup) const;
    // The filters of `topic`, in file order.
    std::vector<ConsumerFilterData> getByTopic(const std::string &topic) const;
    std::vector<std::string> topics() const;
    // Adds or replaces the filter of data.topic/data.consumerGroup. Memory only.
    void put(const ConsumerFilterData &data);
    // Removes one filter; a topic left without filters keeps its (empty) entry, as in Java.
    bool remove(const std::string &topic, const std::string &consumerGroup);

protected:
    bool decodeLocked(const common::JsonValue &root, std::string &error) override;
    common::JsonValue encodeLocked() const override;

private:
    // Java's FilterDataMapByTopic.
    struct TopicFilters
    {
        JavaOrderedMap<std::string, ConsumerFilterData> groupFilterData{JavaMapShape::concurrent()};
        std::string topic;
        BeanExtras extras;
    };
    using Table = JavaOrderedMap<std::string, TopicFilters>;
    static Table newTable() { return Table(JavaMapShape::concurrent(256)); }

    Table table_ = newTable();
    BeanExtras rootExtras_;
};

} // namespace mqdesk::store
