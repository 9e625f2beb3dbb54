#include "broker/client/admin_bodies.h"

#include "broker/remoting/protocol/json_fields.h"
#include "broker/remoting/protocol/topic_attributes.h"

#include <charconv>

namespace mqdesk::client {

using common::JsonValue;
using remoting::JsonFieldReader;

bool ConsumerOffsetTable::fromJson(std::string_view body, ConsumerOffsetTable &out, std::string &error)
{
    out = {};
    JsonValue root;
    if (!remoting::parseJsonObject(body, root, error))
        return false;
    const JsonValue *table = root.find("offsetTable");
    if (!table || table->isNull())
        return true;
    if (!table->isObject()) {
        error = "offsetTable: expected an object";
        return false;
    }
    for (const common::JsonMember &entry : table->asObject()) {
        const std::string path = "offsetTable." + entry.key;
        if (!entry.value.isObject()) {
            error = path + ": expected an object, found " + entry.value.typeName();
            return false;
        }
        auto &queues = out.offsetTable[entry.key];
        for (const common::JsonMember &queue : entry.value.asObject()) {
            int32_t queueId = 0;
            const auto [end, ec] = std::from_chars(queue.key.data(), queue.key.data() + queue.key.size(), queueId);
            if (ec != std::errc() || end != queue.key.data() + queue.key.size() || !queue.value.isInteger()) {
                error = path + "." + queue.key + ": expected a queue id with an integer offset";
                return false;
            }
            queues[queueId] = queue.value.asInteger();
        }
    }
    return true;
}

std::string SubscriptionGroupConfig::toJson() const
{
    common::JsonObject object;
    remoting::AttributeModifications modifications;
    std::string ignored; // the caller checked the text (mqdesk-admin); a bad one sends none
    if (!attributeModifications.empty()
        && remoting::parseAttributeModifications(attributeModifications, modifications, ignored)) {
        common::JsonObject changes;
        for (const auto &[key, value] : modifications)
            changes.set(key, value);
        object.set("attributes", JsonValue(std::move(changes)));
    }
    object.set("brokerId", brokerId);
    object.set("consumeBroadcastEnable", consumeBroadcastEnable);
    object.set("consumeEnable", consumeEnable);
    object.set("consumeFromMinEnable", consumeFromMinEnable);
    object.set("consumeMessageOrderly", consumeMessageOrderly);
    object.set("groupName", groupName);
    object.set("notifyConsumerIdsChangedEnable", notifyConsumerIdsChangedEnable);
    object.set("retryMaxTimes", retryMaxTimes);
    object.set("retryQueueNums", retryQueueNums);
    object.set("whichBrokerWhenConsumeSlowly", whichBrokerWhenConsumeSlowly);
    return common::toJsonCompact(JsonValue(std::move(object)));
}

bool SubscriptionGroupConfig::fromJsonValue(const JsonValue &value, const std::string &path,
                                            SubscriptionGroupConfig &out, std::string &error)
{
    JsonFieldReader reader(value, path, error);
    reader.readString("groupName", out.groupName);
    reader.readBool("consumeEnable", out.consumeEnable);
    reader.readBool("consumeFromMinEnable", out.consumeFromMinEnable);
    reader.readBool("consumeBroadcastEnable", out.consumeBroadcastEnable);
    reader.readBool("consumeMessageOrderly", out.consumeMessageOrderly);
    reader.readInt("retryQueueNums", out.retryQueueNums);
    reader.readInt("retryMaxTimes", out.retryMaxTimes);
    reader.readLong("brokerId", out.brokerId);
    reader.readLong("whichBrokerWhenConsumeSlowly", out.whichBrokerWhenConsumeSlowly);
    reader.readBool("notifyConsumerIdsChangedEnable", out.notifyConsumerIdsChangedEnable);
    if (const JsonValue *attributes = value.find("attributes"); attributes && attributes->isObject()) {
        for (const auto &entry : attributes->asObject()) {
            if (entry.value.isString())
                out.attributes[entry.key] = entry.value.asString();
        }
    }
    return reader.ok();
}

bool SubscriptionGroupWrapper::fromJson(std::string_view body, SubscriptionGroupWrapper &out, std::string &error)
{
    out = {};
    JsonValue root;
    if (!remoting::parseJsonObject(body, root, error))
        return false;
    if (const JsonValue *version = root.find("dataVersion"); version && !version->isNull())
        if (!remoting::DataVersionData::fromJsonValue(*version, "dataVersion", out.dataVersion, error))
            return false;
    const JsonValue *table = root.find("subscriptionGroupTable");
    if (!table || table->isNull())
        return true;
    if (!table->isObject()) {
        error = "subscriptionGroupTable: expected an object";
        return false;
    }
    for (const common::JsonMember &entry : table->asObject()) {
        SubscriptionGroupConfig config;
        if (!SubscriptionGroupConfig::fromJsonValue(entry.value, "subscriptionGroupTable." + entry.key, config, error))
            return false;
        if (config.groupName.empty())
            config.groupName = entry.key;
        out.subscriptionGroupTable.push_back(std::move(config));
    }
    return true;
}

const SubscriptionGroupConfig *SubscriptionGroupWrapper::find(std::string_view groupName) const
{
    for (const SubscriptionGroupConfig &config : subscriptionGroupTable)
        if (config.groupName == groupName)
            return &config;
    return nullptr;
}

bool decodeGroupList(std::string_view body, std::vector<std::string> &out, std::string &error)
{
    out.clear();
    JsonValue root;
    if (!remoting::parseJsonObject(body, root, error))
        return false;
    const JsonValue *list = root.find("groupList");
    if (!list || list->isNull())
        return true;
    if (!list->isArray()) {
        error = "groupList: expected an array";
        return false;
    }
    for (size_t i = 0; i < list->asArray().size(); ++i) {
        const JsonValue &group = list->asArray()[i];
        if (!group.isString()) {
            error = "groupList[" + std::to_string(i) + "]: expected a string";
            return false;
        }
        out.push_back(group.asString());
    }
    return true;
}

} // namespace mqdesk::client
