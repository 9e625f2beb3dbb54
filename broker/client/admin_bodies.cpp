#include "broker/client/admin_bodies.h"

#include "broker/remoting/protocol/json_fields.h"

#include <charconv>

namespace mqdesk::client {

using common::JsonValue;
using remoting::JsonFieldReader;

namespace {

// The end (one past) of the JSON value starting with '{' at `at`, honouring strings; npos when
// unbalanced.
size_t objectEnd(std::string_view text, size_t at)
{
    int depth = 0;
    for (size_t i = at; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"' || c == '\'') {
            for (++i; i < text.size() && text[i] != c; ++i)
                if (text[i] == '\\')
                    ++i;
            if (i >= text.size())
                return std::string_view::npos;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            if (--depth == 0)
                return i + 1;
        }
    }
    return std::string_view::npos;
}

void appendJsonString(std::string &out, std::string_view text)
{
    out += '"';
    for (const char c : text) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (static_cast<unsigned char>(c) < 0x20) {
            out += ' '; // blanks inside a key object carry no meaning
            continue;
        }
        out += c;
    }
    out += '"';
}

bool readMessageQueue(const JsonValue &key, const std::string &path, MessageQueue &out, std::string &error)
{
    JsonFieldReader reader(key, path, error);
    reader.readString("topic", out.topic);
    reader.readString("brokerName", out.brokerName);
    reader.readInt("queueId", out.queueId);
    return reader.ok();
}

} // namespace

bool quoteObjectKeys(std::string_view text, std::string &out, std::string &error)
{
    out.clear();
    out.reserve(text.size() + text.size() / 4);
    std::vector<char> stack; // 'o' object, 'a' array
    bool expectKey = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            out += c;
            continue;
        }
        if (expectKey && c == '{') {
            const size_t end = objectEnd(text, i);
            if (end == std::string_view::npos) {
                error = "unbalanced object key at byte " + std::to_string(i);
                return false;
            }
            appendJsonString(out, text.substr(i, end - i));
            i = end - 1;
            expectKey = false;
            continue;
        }
        if (c == '"' || c == '\'') {
            const size_t start = i;
            for (++i; i < text.size() && text[i] != c; ++i)
                if (text[i] == '\\')
                    ++i;
            if (i >= text.size()) {
                error = "unterminated string at byte " + std::to_string(start);
                return false;
            }
            out.append(text.substr(start, i - start + 1));
            expectKey = false;
            continue;
        }
        out += c;
        switch (c) {
        case '{': stack.push_back('o'); expectKey = true; break;
        case '[': stack.push_back('a'); expectKey = false; break;
        case '}':
        case ']':
            if (stack.empty()) {
                error = std::string("unbalanced '") + c + "' at byte " + std::to_string(i);
                return false;
            }
            stack.pop_back();
            expectKey = false;
            break;
        case ',': expectKey = !stack.empty() && stack.back() == 'o'; break;
        default: expectKey = false; break;
        }
    }
    return true;
}

bool parseMessageQueueMap(std::string_view body, std::string_view mapMember,
                          const std::function<bool(const MessageQueue &, const JsonValue &, const std::string &)> &onEntry,
                          const std::function<void(const JsonValue &)> &onOther, std::string &error)
{
    std::string quoted;
    if (!quoteObjectKeys(body, quoted, error))
        return false;
    JsonValue root;
    if (!remoting::parseJsonObject(quoted, root, error))
        return false;
    if (onOther)
        onOther(root);
    const JsonValue *table = root.find(mapMember);
    if (!table || table->isNull())
        return true;
    if (!table->isObject()) {
        error = std::string(mapMember) + ": expected an object, found " + table->typeName();
        return false;
    }
    size_t index = 0;
    for (const common::JsonMember &member : table->asObject()) {
        const std::string path = std::string(mapMember) + "[" + std::to_string(index++) + "]";
        const common::JsonParseResult key = common::parseJson(member.key);
        if (!key.ok()) {
            error = path + ".key: " + key.error;
            return false;
        }
        MessageQueue queue;
        if (!readMessageQueue(key.value, path + ".key", queue, error))
            return false;
        if (!onEntry(queue, member.value, path + ".value"))
            return false;
    }
    return true;
}

bool TopicStatsTable::fromJson(std::string_view body, TopicStatsTable &out, std::string &error)
{
    out = {};
    return parseMessageQueueMap(
        body, "offsetTable",
        [&](const MessageQueue &queue, const JsonValue &value, const std::string &path) {
            TopicOffset offset;
            JsonFieldReader reader(value, path, error);
            reader.readLong("minOffset", offset.minOffset);
            reader.readLong("maxOffset", offset.maxOffset);
            reader.readLong("lastUpdateTimestamp", offset.lastUpdateTimestamp);
            out.offsetTable[queue] = offset;
            return reader.ok();
        },
        {}, error);
}

int64_t TopicStatsTable::totalMessages() const
{
    int64_t total = 0;
    for (const auto &[queue, offset] : offsetTable)
        total += offset.maxOffset - offset.minOffset;
    return total;
}

bool ConsumeStats::fromJson(std::string_view body, ConsumeStats &out, std::string &error)
{
    out = {};
    return parseMessageQueueMap(
        body, "offsetTable",
        [&](const MessageQueue &queue, const JsonValue &value, const std::string &path) {
            OffsetWrapper wrapper;
            JsonFieldReader reader(value, path, error);
            reader.readLong("brokerOffset", wrapper.brokerOffset);
            reader.readLong("consumerOffset", wrapper.consumerOffset);
            reader.readLong("lastTimestamp", wrapper.lastTimestamp);
            out.offsetTable[queue] = wrapper;
            return reader.ok();
        },
        [&](const JsonValue &root) {
            if (const JsonValue *tps = root.find("consumeTps"))
                out.consumeTps = tps->asDouble(0);
        },
        error);
}

int64_t ConsumeStats::totalLag() const
{
    int64_t total = 0;
    for (const auto &[queue, wrapper] : offsetTable)
        total += wrapper.lag();
    return total;
}

void ConsumeStats::merge(const ConsumeStats &other)
{
    consumeTps += other.consumeTps;
    for (const auto &[queue, wrapper] : other.offsetTable)
        offsetTable[queue] = wrapper;
}

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
