#include "broker/remoting/protocol/route_data.h"

#include "broker/common/bytes.h"
#include "broker/remoting/protocol/json_fields.h"
#include "broker/remoting/protocol/header_fields.h"

#include <zlib.h>

#include <limits>

// Broker registration's bodies: DataVersionData, TopicConfigData, TopicConfigSerializeWrapper and
// RegisterBrokerBody with its zlib-compressed form (route_data.h declares them).

namespace mqdesk::remoting {

using common::JsonArray;
using common::JsonObject;
using common::JsonValue;
using namespace bodyjson;

namespace {

// A decompressed registration body larger than this is refused (a zlib bomb guard); a broker
// with a million topics stays far below it.
constexpr size_t kMaxInflatedSize = 256u * 1024 * 1024;

void appendInt32(std::vector<uint8_t> &out, int32_t value)
{
    uint8_t bytes[4];
    common::writeInt32(bytes, value);
    out.insert(out.end(), bytes, bytes + 4);
}

void appendPart(std::vector<uint8_t> &out, std::string_view text)
{
    appendInt32(out, static_cast<int32_t>(text.size()));
    out.insert(out.end(), text.begin(), text.end());
}

// Reads the length-prefixed parts of the inflated registration body.
class PartReader
{
public:
    explicit PartReader(std::span<const uint8_t> bytes) : bytes_(bytes) {}

    bool readInt32(int32_t &out)
    {
        if (bytes_.size() - pos_ < 4)
            return false;
        out = common::readInt32(bytes_.data() + pos_);
        pos_ += 4;
        return true;
    }
    bool readPart(std::string_view &out)
    {
        int32_t length = 0;
        if (!readInt32(length) || length < 0 || bytes_.size() - pos_ < static_cast<size_t>(length))
            return false;
        out = std::string_view(reinterpret_cast<const char *>(bytes_.data() + pos_), static_cast<size_t>(length));
        pos_ += static_cast<size_t>(length);
        return true;
    }

private:
    std::span<const uint8_t> bytes_;
    size_t pos_ = 0;
};

bool inflateAll(std::span<const uint8_t> input, std::vector<uint8_t> &out, std::string &error)
{
    z_stream stream{};
    if (inflateInit(&stream) != Z_OK)
        return fail(error, {}, "compressed body: zlib init failed");
    stream.next_in = const_cast<Bytef *>(input.data());
    stream.avail_in = static_cast<uInt>(input.size());
    out.clear();
    int status = Z_OK;
    while (status == Z_OK) {
        if (out.size() >= kMaxInflatedSize) {
            inflateEnd(&stream);
            return fail(error, {}, "compressed body: inflates beyond 256 MiB");
        }
        const size_t used = out.size();
        out.resize(used + 64 * 1024);
        stream.next_out = out.data() + used;
        stream.avail_out = 64 * 1024;
        status = inflate(&stream, Z_NO_FLUSH);
        out.resize(out.size() - stream.avail_out);
        if (status == Z_BUF_ERROR && stream.avail_in == 0)
            break; // input ended before the stream did
    }
    inflateEnd(&stream);
    if (status != Z_STREAM_END)
        return fail(error, {}, std::string("compressed body: not a complete zlib stream") +
                                   (stream.msg ? std::string(" (") + stream.msg + ")" : std::string()));
    return true;
}

// "name read write perm filterType" (TopicConfig.encode); 5.x appends attributes, ignored.
bool decodeTopicLine(std::string_view line, TopicConfigData &out)
{
    std::vector<std::string_view> fields;
    size_t start = 0;
    while (start <= line.size()) {
        const size_t end = line.find(' ', start);
        fields.push_back(line.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos)
            break;
        start = end + 1;
    }
    if (fields.size() < 5)
        return false;
    const std::optional<int32_t> read = parseJavaInt(fields[1]);
    const std::optional<int32_t> write = parseJavaInt(fields[2]);
    const std::optional<int32_t> perm = parseJavaInt(fields[3]);
    if (fields[0].empty() || !read || !write || !perm)
        return false;
    out = TopicConfigData{};
    out.topicName = std::string(fields[0]);
    out.readQueueNums = *read;
    out.writeQueueNums = *write;
    out.perm = *perm;
    out.topicFilterType = std::string(fields[4]);
    return true;
}

} // namespace

// DataVersionData ----------------------------------------------------------------------------

JsonValue DataVersionData::toJsonValue() const
{
    JsonObject object;
    object.set("counter", counter);
    if (stateVersion)
        object.set("stateVersion", *stateVersion);
    object.set("timestamp", timestamp);
    return object;
}

bool DataVersionData::fromJsonValue(const JsonValue &value, std::string_view path, DataVersionData &out,
                                    std::string &error)
{
    out = DataVersionData{};
    error.clear();
    JsonFieldReader reader(value, std::string(path), error);
    reader.readLong("counter", out.counter);
    reader.readLong("timestamp", out.timestamp);
    if (reader.ok() && member(value, "stateVersion")) {
        out.stateVersion = 0;
        reader.readLong("stateVersion", *out.stateVersion);
    }
    return reader.ok();
}

std::string DataVersionData::toJson() const { return common::toJsonCompact(toJsonValue()); }

bool DataVersionData::fromJson(std::string_view body, DataVersionData &out, std::string &error)
{
    JsonValue root;
    return parseJsonObject(body, root, error) && fromJsonValue(root, {}, out, error);
}

// TopicConfigData ----------------------------------------------------------------------------

JsonValue TopicConfigData::toJsonValue() const
{
    JsonObject object;
    if (!attributes.empty()) {
        JsonObject map;
        for (const auto &[key, value] : attributes)
            map.set(key, value);
        object.set("attributes", std::move(map));
    }
    object.set("order", order);
    object.set("perm", perm);
    object.set("readQueueNums", readQueueNums);
    object.set("topicFilterType", topicFilterType);
    object.set("topicName", topicName);
    object.set("topicSysFlag", topicSysFlag);
    object.set("writeQueueNums", writeQueueNums);
    return object;
}

bool TopicConfigData::fromJsonValue(const JsonValue &value, std::string_view path, TopicConfigData &out,
                                    std::string &error)
{
    out = TopicConfigData{};
    error.clear();
    JsonFieldReader reader(value, std::string(path), error);
    reader.readString("topicName", out.topicName);
    reader.readInt("readQueueNums", out.readQueueNums);
    reader.readInt("writeQueueNums", out.writeQueueNums);
    reader.readInt("perm", out.perm);
    reader.readString("topicFilterType", out.topicFilterType);
    reader.readInt("topicSysFlag", out.topicSysFlag);
    reader.readBool("order", out.order);
    if (const JsonValue *map = reader.member("attributes"); map && !map->isNull()) {
        if (!map->isObject()) {
            reader.fail(reader.pathOf("attributes"), std::string("expected an object, found ") + map->typeName());
            return false;
        }
        for (const common::JsonMember &entry : map->asObject()) {
            if (!entry.value.isString() && !entry.value.isNull()) {
                reader.fail(reader.pathOf("attributes") + "." + entry.key, "expected a string");
                return false;
            }
            out.attributes.emplace_back(entry.key, entry.value.isNull() ? std::string() : entry.value.asString());
        }
    }
    return reader.ok();
}

// TopicConfigSerializeWrapper ----------------------------------------------------------------

JsonValue TopicConfigSerializeWrapper::toJsonValue() const
{
    JsonObject table;
    for (const TopicConfigData &topic : topicConfigTable)
        table.set(topic.topicName, topic.toJsonValue());
    JsonObject object;
    object.set("dataVersion", dataVersion.toJsonValue());
    if (mappingDataVersion)
        object.set("mappingDataVersion", mappingDataVersion->toJsonValue());
    object.set("topicConfigTable", std::move(table));
    if (!topicQueueMappingDetailMap.empty())
        object.set("topicQueueMappingDetailMap", beanTable(topicQueueMappingDetailMap));
    if (!topicQueueMappingInfoMap.empty())
        object.set("topicQueueMappingInfoMap", beanTable(topicQueueMappingInfoMap));
    return object;
}

bool TopicConfigSerializeWrapper::fromJsonValue(const JsonValue &value, std::string_view path,
                                                TopicConfigSerializeWrapper &out, std::string &error)
{
    out = TopicConfigSerializeWrapper{};
    error.clear();
    if (!requireObject(value, path, error))
        return false;
    if (const JsonValue *version = member(value, "dataVersion")) {
        if (!DataVersionData::fromJsonValue(*version, memberPath(path, "dataVersion"), out.dataVersion, error))
            return false;
    }
    if (const JsonValue *version = member(value, "mappingDataVersion")) {
        out.mappingDataVersion.emplace();
        if (!DataVersionData::fromJsonValue(*version, memberPath(path, "mappingDataVersion"), *out.mappingDataVersion,
                                            error))
            return false;
    }
    if (!readBeanTable(value, "topicQueueMappingInfoMap", path, out.topicQueueMappingInfoMap, error)
        || !readBeanTable(value, "topicQueueMappingDetailMap", path, out.topicQueueMappingDetailMap, error))
        return false;
    const JsonValue *table = member(value, "topicConfigTable");
    if (!table)
        return true;
    const std::string tablePath = memberPath(path, "topicConfigTable");
    if (!requireObject(*table, tablePath, error))
        return false;
    out.topicConfigTable.reserve(table->asObject().size());
    for (const common::JsonMember &entry : table->asObject()) {
        TopicConfigData topic;
        if (!TopicConfigData::fromJsonValue(entry.value, memberPath(tablePath, entry.key), topic, error))
            return false;
        if (topic.topicName.empty())
            topic.topicName = entry.key;
        out.topicConfigTable.push_back(std::move(topic));
    }
    return true;
}

std::string TopicConfigSerializeWrapper::toJson() const { return common::toJsonCompact(toJsonValue()); }

bool TopicConfigSerializeWrapper::fromJson(std::string_view body, TopicConfigSerializeWrapper &out,
                                           std::string &error)
{
    JsonValue root;
    return parseJsonObject(body, root, error) && fromJsonValue(root, {}, out, error);
}

// RegisterBrokerBody -------------------------------------------------------------------------

std::string RegisterBrokerBody::toJson() const
{
    JsonObject object;
    object.set("filterServerList", stringArray(filterServerList));
    object.set("topicConfigSerializeWrapper", topicConfigSerializeWrapper.toJsonValue());
    return common::toJsonCompact(object);
}

bool RegisterBrokerBody::fromJson(std::string_view body, RegisterBrokerBody &out, std::string &error)
{
    out = RegisterBrokerBody{};
    error.clear();
    JsonValue root;
    if (!parseJsonObject(body, root, error))
        return false;
    if (const JsonValue *wrapper = member(root, "topicConfigSerializeWrapper")) {
        if (!TopicConfigSerializeWrapper::fromJsonValue(*wrapper, "topicConfigSerializeWrapper",
                                                        out.topicConfigSerializeWrapper, error))
            return false;
    }
    const JsonValue *filters = member(root, "filterServerList");
    return !filters || readStringArray(*filters, "filterServerList", out.filterServerList, error);
}

std::vector<uint8_t> RegisterBrokerBody::encodeCompressed() const
{
    std::vector<uint8_t> plain;
    appendPart(plain, topicConfigSerializeWrapper.dataVersion.toJson());
    appendInt32(plain, static_cast<int32_t>(topicConfigSerializeWrapper.topicConfigTable.size()));
    for (const TopicConfigData &topic : topicConfigSerializeWrapper.topicConfigTable) {
        appendPart(plain, topic.topicName + " " + std::to_string(topic.readQueueNums) + " " +
                              std::to_string(topic.writeQueueNums) + " " + std::to_string(topic.perm) + " " +
                              topic.topicFilterType);
    }
    appendPart(plain, common::toJsonCompact(stringArray(filterServerList)));
    const auto &mappings = topicConfigSerializeWrapper.topicQueueMappingInfoMap;
    appendInt32(plain, static_cast<int32_t>(mappings.size()));
    for (const auto &[topic, info] : mappings)
        appendPart(plain, common::toJsonCompact(info.toJson()));

    uLongf size = compressBound(static_cast<uLong>(plain.size()));
    std::vector<uint8_t> out(size);
    if (compress2(out.data(), &size, plain.data(), static_cast<uLong>(plain.size()), Z_BEST_COMPRESSION) != Z_OK)
        return {}; // only on out-of-memory; the caller's decode then reports a broken stream
    out.resize(size);
    return out;
}

bool RegisterBrokerBody::decodeCompressed(std::span<const uint8_t> bytes, RegisterBrokerBody &out,
                                          std::string &error)
{
    out = RegisterBrokerBody{};
    error.clear();
    std::vector<uint8_t> plain;
    if (!inflateAll(bytes, plain, error))
        return false;
    PartReader reader(plain);
    std::string_view part;
    if (!reader.readPart(part))
        return fail(error, {}, "compressed body: truncated dataVersion");
    if (!DataVersionData::fromJson(part, out.topicConfigSerializeWrapper.dataVersion, error))
        return fail(error, {}, "compressed body: dataVersion: " + error);
    int32_t count = 0;
    if (!reader.readInt32(count) || count < 0)
        return fail(error, {}, "compressed body: missing topic count");
    for (int32_t i = 0; i < count; ++i) {
        TopicConfigData topic;
        if (!reader.readPart(part))
            return fail(error, {}, "compressed body: truncated at topic " + std::to_string(i));
        if (!decodeTopicLine(part, topic))
            return fail(error, {}, "compressed body: topic " + std::to_string(i) + ": malformed \"" +
                                       std::string(part.substr(0, 200)) + "\"");
        out.topicConfigSerializeWrapper.topicConfigTable.push_back(std::move(topic));
    }
    if (!reader.readPart(part))
        return fail(error, {}, "compressed body: truncated filterServerList");
    common::JsonParseResult filters = common::parseJson(part);
    if (!filters.ok())
        return fail(error, "filterServerList", "invalid JSON: " + filters.error);
    if (!filters.value.isNull() && !readStringArray(filters.value, "filterServerList", out.filterServerList, error))
        return false;
    // 5.x brokers go on with their static topics' summaries; a 4.x body ends here.
    int32_t mappingCount = 0;
    if (!reader.readInt32(mappingCount))
        return true;
    if (mappingCount < 0)
        return fail(error, {}, "compressed body: negative static-topic count");
    for (int32_t i = 0; i < mappingCount; ++i) {
        const std::string path = "topicQueueMappingInfoMap[" + std::to_string(i) + "]";
        if (!reader.readPart(part))
            return fail(error, {}, "compressed body: truncated at " + path);
        common::JsonParseResult parsed = common::parseJson(part);
        common::TopicQueueMappingInfo info;
        if (!parsed.ok())
            return fail(error, path, "invalid JSON: " + parsed.error);
        if (!common::TopicQueueMappingInfo::fromJson(parsed.value, path, info, error))
            return false;
        out.topicConfigSerializeWrapper.topicQueueMappingInfoMap[info.topic] = std::move(info);
    }
    return true;
}

} // namespace mqdesk::remoting
