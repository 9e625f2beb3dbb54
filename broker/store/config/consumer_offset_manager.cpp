#include "broker/store/config/consumer_offset_manager.h"

#include "broker/common/message_properties.h"

#include <algorithm>
#include <unordered_map>

namespace mqdesk::store {

using common::JsonObject;
using common::JsonValue;

namespace {

std::string keyOf(const std::string &topic, const std::string &group)
{
    return topic + ConsumerOffsetManager::kTopicGroupSeparator + group;
}

} // namespace

ConsumerOffsetManager::ConsumerOffsetManager(int64_t updateVersionStep)
    : ConfigManager(kFileName), updateVersionStep_(updateVersionStep > 0 ? updateVersionStep : 1)
{}

bool ConsumerOffsetManager::splitKey(const std::string &topicAtGroup, std::string &topic, std::string &group)
{
    // Java's String.split drops trailing empty parts: "t@g@" is two parts, "t@@g" three.
    std::vector<std::string> parts;
    size_t start = 0;
    for (;;) {
        const size_t at = topicAtGroup.find(kTopicGroupSeparator, start);
        parts.push_back(topicAtGroup.substr(start, at == std::string::npos ? std::string::npos : at - start));
        if (at == std::string::npos)
            break;
        start = at + 1;
    }
    while (!parts.empty() && parts.back().empty())
        parts.pop_back();
    if (parts.size() != 2)
        return false;
    topic = parts[0];
    group = parts[1];
    return true;
}

ConsumerOffsetManager::QueueOffsets ConsumerOffsetManager::toOffsets(const Queues &queues)
{
    return QueueOffsets(queues.begin(), queues.end());
}

void ConsumerOffsetManager::commitOffset(const std::string &clientHost, const std::string &group,
                                         const std::string &topic, int32_t queueId, int64_t offset)
{
    (void)clientHost;
    std::lock_guard lock(mutex_);
    const std::string key = keyOf(topic, group);
    Queues *queues = table_.find(key);
    if (queues == nullptr)
        queues = &table_.insertOrAssign(key, newQueues());
    queues->insertOrAssign(queueId, offset);
    if (++versionChangeCounter_ % updateVersionStep_ == 0)
        dataVersion_.nextVersion();
}

void ConsumerOffsetManager::assignResetOffset(const std::string &group, const std::string &topic, int32_t queueId,
                                              int64_t offset)
{
    commitOffset("reset", group, topic, queueId, offset);
    std::lock_guard lock(mutex_);
    pendingResets_[{keyOf(topic, group), queueId}] = offset;
}

bool ConsumerOffsetManager::hasOffsetReset(const std::string &group, const std::string &topic, int32_t queueId) const
{
    std::lock_guard lock(mutex_);
    return pendingResets_.contains({keyOf(topic, group), queueId});
}

std::optional<int64_t> ConsumerOffsetManager::takeResetOffset(const std::string &group, const std::string &topic,
                                                              int32_t queueId)
{
    std::lock_guard lock(mutex_);
    const auto it = pendingResets_.find({keyOf(topic, group), queueId});
    if (it == pendingResets_.end())
        return std::nullopt;
    const int64_t offset = it->second;
    pendingResets_.erase(it);
    return offset;
}

int64_t ConsumerOffsetManager::queryOffset(const std::string &group, const std::string &topic, int32_t queueId) const
{
    std::lock_guard lock(mutex_);
    if (const Queues *queues = table_.find(keyOf(topic, group))) {
        if (const int64_t *offset = queues->find(queueId))
            return *offset;
    }
    return -1;
}

ConsumerOffsetManager::QueueOffsets ConsumerOffsetManager::queryOffsets(const std::string &group,
                                                                        const std::string &topic) const
{
    std::lock_guard lock(mutex_);
    const Queues *queues = table_.find(keyOf(topic, group));
    return queues ? toOffsets(*queues) : QueueOffsets();
}

std::vector<std::pair<std::string, ConsumerOffsetManager::QueueOffsets>> ConsumerOffsetManager::offsetTable() const
{
    std::lock_guard lock(mutex_);
    std::vector<std::pair<std::string, QueueOffsets>> table;
    table.reserve(table_.size());
    for (const auto &[key, queues] : table_)
        table.emplace_back(key, toOffsets(queues));
    return table;
}

size_t ConsumerOffsetManager::size() const
{
    std::lock_guard lock(mutex_);
    return table_.size();
}

std::set<std::string> ConsumerOffsetManager::whichTopicByConsumer(const std::string &group) const
{
    std::lock_guard lock(mutex_);
    std::set<std::string> topics;
    for (const auto &entry : table_) {
        std::string topic;
        std::string entryGroup;
        if (splitKey(entry.first, topic, entryGroup) && entryGroup == group)
            topics.insert(topic);
    }
    return topics;
}

std::set<std::string> ConsumerOffsetManager::whichGroupByTopic(const std::string &topic) const
{
    std::lock_guard lock(mutex_);
    std::set<std::string> groups;
    for (const auto &entry : table_) {
        std::string entryTopic;
        std::string group;
        if (splitKey(entry.first, entryTopic, group) && entryTopic == topic)
            groups.insert(group);
    }
    return groups;
}

std::vector<std::pair<std::string, std::vector<std::string>>> ConsumerOffsetManager::groupTopicMap() const
{
    std::lock_guard lock(mutex_);
    return groupTopicMapLocked();
}

std::vector<std::pair<std::string, std::vector<std::string>>> ConsumerOffsetManager::groupTopicMapLocked() const
{
    // new HashMap<>(128) of new HashSet<>(8), filled in offsetTable order.
    std::vector<std::string> groups;
    std::unordered_map<std::string, std::vector<std::string>> topicsOfGroup;
    for (const auto &entry : table_) {
        std::string topic;
        std::string group;
        if (!splitKey(entry.first, topic, group))
            continue;
        auto [it, added] = topicsOfGroup.try_emplace(group);
        if (added)
            groups.push_back(group);
        if (std::find(it->second.begin(), it->second.end(), topic) == it->second.end())
            it->second.push_back(std::move(topic));
    }
    std::vector<std::pair<std::string, std::vector<std::string>>> map;
    for (std::string &group : javaHashMapOrder(std::move(groups), JavaMapShape::hashMap(128))) {
        std::vector<std::string> topics = javaHashMapOrder(std::move(topicsOfGroup[group]), JavaMapShape::hashMap(8));
        map.emplace_back(std::move(group), std::move(topics));
    }
    return map;
}

void ConsumerOffsetManager::removeOffset(const std::string &group)
{
    std::lock_guard lock(mutex_);
    std::vector<std::string> doomed;
    for (const auto &entry : table_) {
        std::string topic;
        std::string entryGroup;
        if (splitKey(entry.first, topic, entryGroup) && entryGroup == group)
            doomed.push_back(entry.first);
    }
    for (const std::string &key : doomed)
        table_.erase(key);
}

bool ConsumerOffsetManager::removeConsumerOffset(const std::string &topicAtGroup)
{
    std::lock_guard lock(mutex_);
    return table_.erase(topicAtGroup);
}

void ConsumerOffsetManager::cloneOffset(const std::string &srcGroup, const std::string &destGroup,
                                        const std::string &topic)
{
    std::lock_guard lock(mutex_);
    if (const Queues *source = table_.find(keyOf(topic, srcGroup))) {
        Queues copy = *source;
        table_.insertOrAssign(keyOf(topic, destGroup), std::move(copy));
    }
}

DataVersion ConsumerOffsetManager::dataVersion() const
{
    std::lock_guard lock(mutex_);
    return dataVersion_;
}

bool ConsumerOffsetManager::decodeLocked(const JsonValue &root, std::string &error)
{
    BeanReader reader(root, std::string());
    DataVersion version = DataVersion::create();
    reader.readWith("dataVersion", [&](const JsonValue &value, const std::string &path, std::string &err) {
        return DataVersion::fromJson(value, path, version, err);
    });
    reader.skip("groupTopicMap"); // derived from offsetTable; Java has no setter for it
    Table table = newTable();
    reader.readWith("offsetTable", [&](const JsonValue &value, const std::string &path, std::string &err) {
        return forEachMember(value, path, err, [&](const common::JsonMember &entry, const std::string &at, std::string &e) {
            Queues queues = newQueues();
            const bool read = forEachMember(entry.value, at, e, [&](const common::JsonMember &queue, const std::string &queueAt, std::string &qe) {
                int32_t queueId = 0;
                int64_t offset = 0;
                if (!jsonToInt32(JsonValue(queue.key), queueAt + " (queue id)", queueId, qe)
                    || !jsonToInt64(queue.value, queueAt, offset, qe))
                    return false;
                queues.append(queueId, offset);
                return true;
            });
            if (read)
                table.append(entry.key, std::move(queues));
            return read;
        });
    });
    // Java 5.5's LmqConsumerOffsetManager (lmqConsumerOffset.json): the offsets of groups that are
    // themselves LMQs, one queue each, as "topic@group" → offset. Read into the one table as queue
    // 0, and written back there (encodeLocked).
    reader.readWith("lmqOffsetTable", [&](const JsonValue &value, const std::string &path, std::string &err) {
        return forEachMember(value, path, err, [&](const common::JsonMember &entry, const std::string &at, std::string &e) {
            int64_t offset = 0;
            if (!jsonToInt64(entry.value, at, offset, e))
                return false;
            if (!table.contains(entry.key)) {
                Queues queues = newQueues();
                queues.append(0, offset);
                table.append(entry.key, std::move(queues));
            }
            return true;
        });
    });
    BeanExtras extras;
    if (!reader.finish(extras, error))
        return false;
    table_ = std::move(table);
    dataVersion_ = std::move(version);
    rootExtras_ = std::move(extras);
    versionChangeCounter_ = 0;
    return true;
}

JsonValue ConsumerOffsetManager::encodeLocked() const
{
    JsonObject offsets;
    JsonObject lmqOffsets;
    for (const auto &[key, queues] : table_) {
        // A group that is an LMQ keeps its one offset where Java 5.5 looks for it (lmqOffsetTable).
        std::string topic;
        std::string group;
        if (splitKey(key, topic, group) && group.starts_with(common::kLmqPrefix) && queues.size() == 1
            && queues.begin()->first == 0) {
            lmqOffsets.append(common::JsonMember{key, JsonValue(queues.begin()->second), false});
            continue;
        }
        JsonObject queueObject;
        for (const auto &[queueId, offset] : queues)
            queueObject.append(common::JsonMember{std::to_string(queueId), JsonValue(offset), true});
        offsets.append(common::JsonMember{key, JsonValue(std::move(queueObject)), false});
    }
    JsonObject groupTopics;
    for (const auto &[group, topics] : groupTopicMapLocked()) {
        common::JsonArray topicArray(topics.begin(), topics.end()); // a HashSet: written inline
        groupTopics.append(common::JsonMember{group, JsonValue(std::move(topicArray)), false});
    }
    BeanWriter writer(rootExtras_);
    writer.put("dataVersion", dataVersion_.toJson(), true);
    writer.put("groupTopicMap", JsonValue(std::move(groupTopics)), true);
    const bool noLmqOffsets = lmqOffsets.empty();
    writer.put("lmqOffsetTable", JsonValue(std::move(lmqOffsets)), noLmqOffsets);
    writer.put("offsetTable", JsonValue(std::move(offsets)), table_.empty());
    return writer.finish();
}

} // namespace mqdesk::store
