#include "broker/remoting/protocol/queue_tables.h"

#include "broker/remoting/protocol/json_fields.h"

namespace mqdesk::remoting {

using common::JsonValue;

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
    if (!parseJsonObject(quoted, root, error))
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
        [&](const JsonValue &root) {
            if (const JsonValue *tps = root.find("topicPutTps"))
                out.topicPutTps = tps->asDouble(0);
        },
        error);
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
            reader.readLong("pullOffset", wrapper.pullOffset);
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

namespace {

// `{k1:v1,k2:v2}` with each key and value already written.
template <typename Map, typename WriteValue>
std::string queueMapText(const Map &table, WriteValue writeValue)
{
    std::string out = "{";
    for (const auto &[queue, value] : table) {
        if (out.size() > 1)
            out += ',';
        out += messageQueueKeyText(queue);
        out += ':';
        out += writeValue(value);
    }
    out += '}';
    return out;
}

} // namespace

std::string messageQueueKeyText(const MessageQueue &queue)
{
    return "{\"brokerName\":" + common::toJsonCompact(JsonValue(queue.brokerName))
           + ",\"queueId\":" + std::to_string(queue.queueId)
           + ",\"topic\":" + common::toJsonCompact(JsonValue(queue.topic)) + "}";
}

std::string TopicStatsTable::toJson() const
{
    return "{\"offsetTable\":" + queueMapText(offsetTable, [](const TopicOffset &offset) {
        common::JsonObject value;
        value.set("lastUpdateTimestamp", offset.lastUpdateTimestamp);
        value.set("maxOffset", offset.maxOffset);
        value.set("minOffset", offset.minOffset);
        return common::toJsonCompact(JsonValue(std::move(value)));
    }) + ",\"topicPutTps\":" + common::formatJavaDouble(topicPutTps) + "}";
}

std::string ConsumeStats::toJson() const
{
    // fastjson writes a double with Java's Double.toString: 0.0, 12.5.
    return "{\"consumeTps\":" + common::formatJavaDouble(consumeTps) + ",\"offsetTable\":"
           + queueMapText(offsetTable, [](const OffsetWrapper &wrapper) {
                 common::JsonObject value;
                 value.set("brokerOffset", wrapper.brokerOffset);
                 value.set("consumerOffset", wrapper.consumerOffset);
                 value.set("lastTimestamp", wrapper.lastTimestamp);
                 value.set("pullOffset", wrapper.pullOffset);
                 return common::toJsonCompact(JsonValue(std::move(value)));
             })
           + "}";
}

std::string ResetOffsetBody::toJson() const
{
    return "{\"offsetTable\":" + queueMapText(offsetTable, [](int64_t offset) { return std::to_string(offset); })
           + "}";
}

bool ResetOffsetBody::fromJson(std::string_view body, ResetOffsetBody &out, std::string &error)
{
    out = {};
    return parseMessageQueueMap(
        body, "offsetTable",
        [&](const MessageQueue &queue, const JsonValue &value, const std::string &path) {
            if (!value.isInteger()) {
                error = path + ": expected an integer offset";
                return false;
            }
            out.offsetTable[queue] = value.asInteger();
            return true;
        },
        {}, error);
}

} // namespace mqdesk::remoting
