#include "broker/store/config/message_request_mode_manager.h"

namespace mqdesk::store {

using common::JsonObject;
using common::JsonValue;

JsonValue MessageRequestMode::toJson() const
{
    BeanWriter writer(extras);
    writer.put("consumerGroup", consumerGroup, consumerGroup.empty());
    writer.put("mode", mode, mode.empty());
    writer.put("popShareQueueNum", popShareQueueNum);
    writer.put("topic", topic, topic.empty());
    return writer.finish();
}

bool MessageRequestMode::fromJson(const JsonValue &value, const std::string &path, MessageRequestMode &out,
                                  std::string &error)
{
    MessageRequestMode mode;
    BeanReader reader(value, path);
    reader.readString("consumerGroup", mode.consumerGroup);
    reader.readString("mode", mode.mode);
    reader.readInt32("popShareQueueNum", mode.popShareQueueNum);
    reader.readString("topic", mode.topic);
    if (!reader.finish(mode.extras, error))
        return false;
    if (mode.mode != "PULL" && mode.mode != "POP") {
        error = path + ".mode: expected PULL or POP, found '" + mode.mode + "'";
        return false;
    }
    out = std::move(mode);
    return true;
}

MessageRequestModeManager::MessageRequestModeManager() : ConfigManager(kFileName) {}

std::optional<MessageRequestMode> MessageRequestModeManager::get(const std::string &topic,
                                                                 const std::string &consumerGroup) const
{
    std::lock_guard lock(mutex_);
    if (const Groups *groups = table_.find(topic)) {
        if (const MessageRequestMode *mode = groups->find(consumerGroup))
            return *mode;
    }
    return std::nullopt;
}

std::vector<MessageRequestMode> MessageRequestModeManager::all() const
{
    std::lock_guard lock(mutex_);
    std::vector<MessageRequestMode> result;
    for (const auto &[topic, groups] : table_) {
        for (const auto &[group, mode] : groups)
            result.push_back(mode);
    }
    return result;
}

void MessageRequestModeManager::put(const MessageRequestMode &mode)
{
    std::lock_guard lock(mutex_);
    Groups *groups = table_.find(mode.topic);
    if (groups == nullptr)
        groups = &table_.insertOrAssign(mode.topic, Groups(JavaMapShape::concurrent()));
    groups->insertOrAssign(mode.consumerGroup, mode);
}

bool MessageRequestModeManager::decodeLocked(const JsonValue &root, std::string &error)
{
    BeanReader reader(root, std::string());
    Table table = newTable();
    reader.readWith("messageRequestModeMap", [&](const JsonValue &value, const std::string &path, std::string &err) {
        return forEachMember(value, path, err, [&](const common::JsonMember &topic, const std::string &at, std::string &e) {
            Groups groups(JavaMapShape::concurrent());
            const bool read = forEachMember(topic.value, at, e, [&](const common::JsonMember &group,
                                                                    const std::string &groupAt, std::string &ge) {
                MessageRequestMode mode;
                if (!MessageRequestMode::fromJson(group.value, groupAt, mode, ge))
                    return false;
                groups.append(group.key, std::move(mode));
                return true;
            });
            if (read)
                table.append(topic.key, std::move(groups));
            return read;
        });
    });
    BeanExtras extras;
    if (!reader.finish(extras, error))
        return false;
    table_ = std::move(table);
    rootExtras_ = std::move(extras);
    return true;
}

JsonValue MessageRequestModeManager::encodeLocked() const
{
    JsonObject byTopic;
    for (const auto &[topic, groups] : table_) {
        JsonObject byGroup;
        for (const auto &[group, mode] : groups)
            byGroup.append(common::JsonMember{group, mode.toJson(), false});
        byTopic.append(common::JsonMember{topic, JsonValue(std::move(byGroup)), false});
    }
    BeanWriter writer(rootExtras_);
    writer.put("messageRequestModeMap", JsonValue(std::move(byTopic)));
    return writer.finish();
}

} // namespace mqdesk::store
