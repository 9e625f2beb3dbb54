#include "broker/store/config/topic_queue_mapping_manager.h"

#include "broker/store/config/bean_codec.h"

namespace mqdesk::store {

using common::JsonObject;
using common::JsonValue;
using common::LogicQueueMappingItems;
using common::TopicQueueMappingDetail;

namespace {

// Java's makeSureLogicQueueMappingItemImmutable, whose field comparisons are asserts (off in a
// running broker): only an equal epoch with another leader is refused.
std::string checkLeaderKept(const LogicQueueMappingItems &oldItems, const LogicQueueMappingItems &newItems,
                            bool epochEqual)
{
    if (oldItems.empty())
        return {};
    if (newItems.empty())
        return "The new item list is null or empty";
    if (!epochEqual)
        return {};
    const common::LogicQueueMappingItem &oldLeader = oldItems.back();
    const common::LogicQueueMappingItem &newLeader = newItems.back();
    if (newLeader.gen != oldLeader.gen || newLeader.bname != oldLeader.bname || newLeader.queueId != oldLeader.queueId
        || newLeader.startOffset != oldLeader.startOffset)
        return "The new leader is different but epoch equal";
    return {};
}

} // namespace

TopicQueueMappingManager::TopicQueueMappingManager() : ConfigManager(kFileName) {}

std::string TopicQueueMappingManager::update(TopicQueueMappingDetail detail, bool force)
{
    for (const auto &[globalId, chain] : detail.hostedQueues) {
        if (std::string why = common::checkMappingItems(chain); !why.empty())
            return why;
    }
    std::lock_guard lock(mutex_);
    const auto old = table_.find(detail.topic);
    if (old != table_.end() && force) {
        for (const auto &[globalId, chain] : old->second.hostedQueues)
            detail.hostedQueues.try_emplace(globalId, chain);
    } else if (old != table_.end()) {
        const TopicQueueMappingDetail &previous = old->second;
        if (detail.epoch < previous.epoch)
            return "Can't accept data with small epoch " + std::to_string(detail.epoch) + " < "
                   + std::to_string(previous.epoch);
        if (detail.scope != previous.scope)
            return "Can't accept data with unmatched scope " + detail.scope + " != " + previous.scope;
        const bool epochEqual = detail.epoch == previous.epoch;
        for (const auto &[globalId, oldChain] : previous.hostedQueues) {
            const auto fresh = detail.hostedQueues.find(globalId);
            if (fresh == detail.hostedQueues.end()) {
                if (epochEqual)
                    return "Cannot accept equal epoch with null data";
                detail.hostedQueues.emplace(globalId, oldChain);
            } else if (std::string why = checkLeaderKept(oldChain, fresh->second, epochEqual); !why.empty()) {
                return why;
            }
        }
    }
    table_[detail.topic] = std::move(detail);
    dataVersion_.nextVersion();
    return {};
}

bool TopicQueueMappingManager::remove(const std::string &topic)
{
    std::lock_guard lock(mutex_);
    if (table_.erase(topic) == 0)
        return false;
    dataVersion_.nextVersion();
    return true;
}

std::optional<TopicQueueMappingDetail> TopicQueueMappingManager::find(const std::string &topic) const
{
    std::lock_guard lock(mutex_);
    const auto it = table_.find(topic);
    if (it == table_.end())
        return std::nullopt;
    return it->second;
}

std::map<std::string, TopicQueueMappingDetail> TopicQueueMappingManager::all() const
{
    std::lock_guard lock(mutex_);
    return table_;
}

bool TopicQueueMappingManager::empty() const
{
    std::lock_guard lock(mutex_);
    return table_.empty();
}

DataVersion TopicQueueMappingManager::dataVersion() const
{
    std::lock_guard lock(mutex_);
    return dataVersion_;
}

bool TopicQueueMappingManager::decodeLocked(const JsonValue &root, std::string &error)
{
    BeanReader reader(root, std::string());
    std::map<std::string, TopicQueueMappingDetail> table;
    DataVersion version = dataVersion_;
    reader.readWith("dataVersion", [&](const JsonValue &value, const std::string &path, std::string &err) {
        return DataVersion::fromJson(value, path, version, err);
    });
    reader.readWith("topicQueueMappingInfoMap", [&](const JsonValue &value, const std::string &path, std::string &err) {
        return forEachMember(value, path, err, [&](const common::JsonMember &topic, const std::string &at, std::string &e) {
            TopicQueueMappingDetail detail;
            if (!TopicQueueMappingDetail::fromJson(topic.value, at, detail, e))
                return false;
            if (detail.topic.empty())
                detail.topic = topic.key;
            table[topic.key] = std::move(detail);
            return true;
        });
    });
    BeanExtras extras;
    if (!reader.finish(extras, error))
        return false;
    table_ = std::move(table);
    dataVersion_ = version;
    return true;
}

JsonValue TopicQueueMappingManager::encodeLocked() const
{
    JsonObject byTopic;
    for (const auto &[topic, detail] : table_)
        byTopic.set(topic, detail.toJson());
    JsonObject root;
    root.set("dataVersion", dataVersion_.toJson());
    root.set("topicQueueMappingInfoMap", std::move(byTopic));
    return root;
}

} // namespace mqdesk::store
