#include "broker/store/config/consumer_filter_manager.h"

namespace mqdesk::store {

using common::JsonArray;
using common::JsonObject;
using common::JsonValue;

namespace {

JsonValue bloomToJson(const BloomFilterData &bloom)
{
    BeanWriter writer(bloom.extras);
    writer.put("bitNum", bloom.bitNum, bloom.bitNum == 0);
    writer.put("bitPos", JsonArray(bloom.bitPos.begin(), bloom.bitPos.end()), bloom.bitPos.empty());
    return writer.finish();
}

bool bloomFromJson(const JsonValue &value, const std::string &path, BloomFilterData &out, std::string &error)
{
    BloomFilterData bloom;
    BeanReader reader(value, path);
    reader.readInt32("bitNum", bloom.bitNum);
    reader.readWith("bitPos", [&](const JsonValue &v, const std::string &at, std::string &e) {
        if (!v.isArray()) {
            e = at + ": expected an array, found a value of type " + v.typeName();
            return false;
        }
        for (size_t i = 0; i < v.asArray().size(); ++i) {
            int32_t bit = 0;
            if (!jsonToInt32(v.asArray()[i], at + "[" + std::to_string(i) + "]", bit, e))
                return false;
            bloom.bitPos.push_back(bit);
        }
        return true;
    });
    if (!reader.finish(bloom.extras, error))
        return false;
    out = std::move(bloom);
    return true;
}

} // namespace

JsonValue ConsumerFilterData::toJson() const
{
    BeanWriter writer(extras);
    if (bloomFilterData)
        writer.put("bloomFilterData", bloomToJson(*bloomFilterData));
    writer.put("bornTime", bornTime, bornTime == 0);
    writer.put("clientVersion", clientVersion, clientVersion == 0);
    writer.put("consumerGroup", consumerGroup, consumerGroup.empty());
    writer.put("dead", isDead(), true); // derived: follows the source
    writer.put("deadTime", deadTime, deadTime == 0);
    writer.put("expression", expression, expression.empty());
    writer.put("expressionType", expressionType, expressionType.empty());
    writer.put("topic", topic, topic.empty());
    return writer.finish();
}

bool ConsumerFilterData::fromJson(const JsonValue &value, const std::string &path, ConsumerFilterData &out,
                                  std::string &error)
{
    ConsumerFilterData data;
    BeanReader reader(value, path);
    reader.readWith("bloomFilterData", [&](const JsonValue &v, const std::string &at, std::string &e) {
        return bloomFromJson(v, at, data.bloomFilterData.emplace(), e);
    });
    reader.readInt64("bornTime", data.bornTime);
    reader.readInt64("clientVersion", data.clientVersion);
    reader.readString("consumerGroup", data.consumerGroup);
    reader.skip("dead");
    reader.readInt64("deadTime", data.deadTime);
    reader.readString("expression", data.expression);
    reader.readString("expressionType", data.expressionType);
    reader.readString("topic", data.topic);
    if (!reader.finish(data.extras, error))
        return false;
    out = std::move(data);
    return true;
}

ConsumerFilterManager::ConsumerFilterManager() : ConfigManager(kFileName) {}

std::optional<ConsumerFilterData> ConsumerFilterManager::get(const std::string &topic,
                                                             const std::string &consumerGroup) const
{
    std::lock_guard lock(mutex_);
    if (const TopicFilters *filters = table_.find(topic)) {
        if (const ConsumerFilterData *data = filters->groupFilterData.find(consumerGroup))
            return *data;
    }
    return std::nullopt;
}

std::vector<ConsumerFilterData> ConsumerFilterManager::getByTopic(const std::string &topic) const
{
    std::lock_guard lock(mutex_);
    std::vector<ConsumerFilterData> result;
    if (const TopicFilters *filters = table_.find(topic)) {
        for (const auto &entry : filters->groupFilterData)
            result.push_back(entry.second);
    }
    return result;
}

std::vector<std::string> ConsumerFilterManager::topics() const
{
    std::lock_guard lock(mutex_);
    std::vector<std::string> result;
    for (const auto &entry : table_)
        result.push_back(entry.first);
    return result;
}

void ConsumerFilterManager::put(const ConsumerFilterData &data)
{
    std::lock_guard lock(mutex_);
    TopicFilters *filters = table_.find(data.topic);
    if (filters == nullptr) {
        TopicFilters fresh;
        fresh.topic = data.topic;
        filters = &table_.insertOrAssign(data.topic, std::move(fresh));
    }
    filters->groupFilterData.insertOrAssign(data.consumerGroup, data);
}

bool ConsumerFilterManager::remove(const std::string &topic, const std::string &consumerGroup)
{
    std::lock_guard lock(mutex_);
    TopicFilters *filters = table_.find(topic);
    return filters != nullptr && filters->groupFilterData.erase(consumerGroup);
}

bool ConsumerFilterManager::decodeLocked(const JsonValue &root, std::string &error)
{
    BeanReader reader(root, std::string());
    Table table = newTable();
    reader.readWith("filterDataByTopic", [&](const JsonValue &value, const std::string &path, std::string &err) {
        return forEachMember(value, path, err, [&](const common::JsonMember &entry, const std::string &at, std::string &e) {
            TopicFilters filters;
            BeanReader topicReader(entry.value, at);
            topicReader.readWith("groupFilterData", [&](const JsonValue &v, const std::string &groupsAt, std::string &ge) {
                return forEachMember(v, groupsAt, ge, [&](const common::JsonMember &group, const std::string &groupAt, std::string &fe) {
                    ConsumerFilterData data;
                    if (!ConsumerFilterData::fromJson(group.value, groupAt, data, fe))
                        return false;
                    filters.groupFilterData.append(group.key, std::move(data));
                    return true;
                });
            });
            topicReader.readString("topic", filters.topic);
            filters.extras = topicReader.finish();
            if (!topicReader.ok()) {
                e = topicReader.error();
                return false;
            }
            table.append(entry.key, std::move(filters));
            return true;
        });
    });
    BeanExtras extras;
    if (!reader.finish(extras, error))
        return false;
    table_ = std::move(table);
    rootExtras_ = std::move(extras);
    return true;
}

JsonValue ConsumerFilterManager::encodeLocked() const
{
    JsonObject byTopic;
    for (const auto &[topic, filters] : table_) {
        JsonObject groups;
        for (const auto &[group, data] : filters.groupFilterData)
            groups.append(common::JsonMember{group, data.toJson(), false});
        BeanWriter topicWriter(filters.extras);
        topicWriter.put("groupFilterData", JsonValue(std::move(groups)), filters.groupFilterData.empty());
        topicWriter.put("topic", filters.topic, filters.topic.empty());
        byTopic.append(common::JsonMember{topic, topicWriter.finish(), false});
    }
    BeanWriter writer(rootExtras_);
    writer.put("filterDataByTopic", JsonValue(std::move(byTopic)), table_.empty());
    return writer.finish();
}

} // namespace mqdesk::store
