#include "broker/server/pop/pop_records.h"

#include "broker/common/base64.h"
#include "broker/remoting/protocol/header_fields.h"

#include <algorithm>
#include <array>

namespace mqdesk::server::pop {

using common::JsonArray;
using common::JsonObject;
using common::JsonValue;

namespace {

constexpr std::string_view kRetryPrefix = "%RETRY%";

std::vector<std::string_view> splitOn(std::string_view text, char separator)
{
    std::vector<std::string_view> parts;
    size_t start = 0;
    for (;;) {
        const size_t end = text.find(separator, start);
        parts.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos)
            return parts;
        start = end + 1;
    }
}

// Members of a parsed body, read leniently as fastjson does (numbers from numeric strings).
struct BodyReader
{
    const JsonObject &object;
    std::string &error;

    const JsonValue *find(std::string_view key) const { return object.find(key); }
    bool readInt64(std::string_view key, int64_t &out, bool required = true) const
    {
        const JsonValue *value = find(key);
        if (value == nullptr || value->isNull()) {
            if (required && error.empty())
                error = "'" + std::string(key) + "' is missing";
            return !required;
        }
        if (value->isInteger()) {
            out = value->asInteger();
            return true;
        }
        if (value->isString()) {
            if (const auto parsed = remoting::parseJavaLong(value->asString())) {
                out = *parsed;
                return true;
            }
        }
        if (error.empty())
            error = "'" + std::string(key) + "' is not a number";
        return false;
    }
    bool readInt32(std::string_view key, int32_t &out, bool required = true) const
    {
        int64_t wide = out;
        if (!readInt64(key, wide, required))
            return false;
        if (wide < INT32_MIN || wide > INT32_MAX) {
            error = "'" + std::string(key) + "' is out of range";
            return false;
        }
        out = static_cast<int32_t>(wide);
        return true;
    }
    bool readString(std::string_view key, std::string &out) const
    {
        const JsonValue *value = find(key);
        if (value == nullptr || value->isNull())
            return true;
        if (!value->isString()) {
            error = "'" + std::string(key) + "' is not a string";
            return false;
        }
        out = value->asString();
        return true;
    }
    bool readInt64List(std::string_view key, std::vector<int64_t> &out) const
    {
        const JsonValue *value = find(key);
        if (value == nullptr || value->isNull())
            return true;
        if (!value->isArray()) {
            error = "'" + std::string(key) + "' is not an array";
            return false;
        }
        for (const JsonValue &item : value->asArray()) {
            if (!item.isInteger()) {
                error = "'" + std::string(key) + "' holds a non-integer";
                return false;
            }
            out.push_back(item.asInteger());
        }
        return true;
    }
};

std::optional<JsonObject> parseObject(std::string_view json, std::string &error)
{
    common::JsonParseResult parsed = common::parseJson(json);
    if (!parsed.ok()) {
        error = parsed.error;
        return std::nullopt;
    }
    if (!parsed.value.isObject()) {
        error = "not a JSON object";
        return std::nullopt;
    }
    return parsed.value.asObject();
}

} // namespace

std::string reviveTopic(const std::string &clusterName)
{
    return "rmq_sys_REVIVE_LOG_" + clusterName;
}

std::string popRetryTopic(const std::string &topic, const std::string &group)
{
    return std::string(kRetryPrefix) + group + "_" + topic;
}

std::string popRetryTopicV2(const std::string &topic, const std::string &group)
{
    return std::string(kRetryPrefix) + group + "+" + topic;
}

bool isRetryTopic(const std::string &topic)
{
    return topic.starts_with(kRetryPrefix);
}

std::string retryMark(const std::string &topic)
{
    if (!isRetryTopic(topic))
        return "0";
    return topic.find('+', kRetryPrefix.size()) != std::string::npos ? "2" : "1";
}

std::string realTopic(const std::string &retry, const std::string &topic, const std::string &group)
{
    if (retry == "1")
        return popRetryTopic(topic, group);
    if (retry == "2")
        return popRetryTopicV2(topic, group);
    return topic;
}

int PopCheckPoint::indexOfOffset(int64_t offset) const
{
    for (int i = 0; i < num; ++i) {
        if (queueOffset(i) == offset)
            return i;
    }
    return -1;
}

std::string PopCheckPoint::toJson() const
{
    // fastjson orders properties by their (short) names.
    JsonObject object;
    object.set("bm", bitMap);
    if (!brokerName.empty())
        object.set("bn", brokerName);
    if (!cid.empty())
        object.set("c", cid);
    if (!queueOffsetDiff.empty())
        object.set("d", JsonArray(queueOffsetDiff.begin(), queueOffsetDiff.end()));
    object.set("it", invisibleTime);
    object.set("n", num);
    object.set("pt", popTime);
    object.set("q", queueId);
    object.set("reviveTime", reviveTime()); // fastjson writes the getter too; ignored on read
    object.set("ro", reviveOffset);
    if (rePutTimes)
        object.set("rp", std::to_string(*rePutTimes));
    object.set("so", startOffset);
    object.set("sp", false); // 5.5.0's suspend flag
    if (!topic.empty())
        object.set("t", topic);
    return common::toFastjsonCompact(JsonValue(std::move(object)));
}

std::optional<PopCheckPoint> PopCheckPoint::fromJson(std::string_view json, std::string &error)
{
    const auto object = parseObject(json, error);
    if (!object)
        return std::nullopt;
    PopCheckPoint ck;
    BodyReader reader{*object, error};
    std::vector<int64_t> diffs;
    int64_t rePut = -1;
    const bool read = reader.readInt64("so", ck.startOffset) && reader.readInt64("pt", ck.popTime)
                      && reader.readInt64("it", ck.invisibleTime) && reader.readInt32("bm", ck.bitMap, false)
                      && reader.readInt32("n", ck.num) && reader.readInt32("q", ck.queueId)
                      && reader.readString("t", ck.topic) && reader.readString("c", ck.cid)
                      && reader.readInt64("ro", ck.reviveOffset, false) && reader.readInt64List("d", diffs)
                      && reader.readString("bn", ck.brokerName) && reader.readInt64("rp", rePut, false);
    if (!read)
        return std::nullopt;
    if (!isMillis(ck.popTime) || !isMillis(ck.invisibleTime) || ck.startOffset < 0) {
        error = "'pt', 'it' or 'so' out of range";
        return std::nullopt;
    }
    for (int64_t diff : diffs) {
        if (diff < 0 || diff > INT32_MAX) {
            error = "'d' holds an offset difference out of range";
            return std::nullopt;
        }
    }
    if (ck.num < 0 || ck.num > 32 || (!diffs.empty() && diffs.size() != static_cast<size_t>(ck.num))) {
        error = "'n' " + std::to_string(ck.num) + " does not match the " + std::to_string(diffs.size()) + " offsets of 'd'";
        return std::nullopt;
    }
    for (int64_t diff : diffs)
        ck.queueOffsetDiff.push_back(static_cast<int32_t>(diff));
    if (rePut >= 0)
        ck.rePutTimes = static_cast<int32_t>(rePut);
    return ck;
}

std::string AckMessage::toJson() const
{
    JsonObject object;
    // A batch ack (BatchAckMsg) carries ao = -1 and the offsets in aol.
    object.set("ao", isBatch() ? int64_t{-1} : ackOffsets.front());
    if (isBatch())
        object.set("aol", JsonArray(ackOffsets.begin(), ackOffsets.end()));
    if (!brokerName.empty())
        object.set("bn", brokerName);
    if (!consumerGroup.empty())
        object.set("c", consumerGroup);
    object.set("pt", popTime);
    object.set("q", queueId);
    object.set("so", startOffset);
    if (!topic.empty())
        object.set("t", topic);
    return common::toFastjsonCompact(JsonValue(std::move(object)));
}

std::optional<AckMessage> AckMessage::fromJson(std::string_view json, bool batch, std::string &error)
{
    const auto object = parseObject(json, error);
    if (!object)
        return std::nullopt;
    AckMessage ack;
    BodyReader reader{*object, error};
    bool read = reader.readInt64("so", ack.startOffset) && reader.readString("c", ack.consumerGroup)
                && reader.readString("t", ack.topic) && reader.readInt32("q", ack.queueId)
                && reader.readInt64("pt", ack.popTime) && reader.readString("bn", ack.brokerName);
    ack.batch = batch;
    if (read && batch) {
        read = reader.readInt64List("aol", ack.ackOffsets);
    } else if (read) {
        int64_t offset = 0;
        read = reader.readInt64("ao", offset);
        ack.ackOffsets.push_back(offset);
    }
    if (!read)
        return std::nullopt;
    if (!isMillis(ack.popTime)) {
        error = "'pt' out of range";
        return std::nullopt;
    }
    return ack;
}

std::string checkpointKey(const std::string &topic, const std::string &group, int32_t queueId, int64_t startOffset,
                          int64_t popTime, const std::string &brokerName)
{
    return topic + group + std::to_string(queueId) + std::to_string(startOffset) + std::to_string(popTime) + brokerName;
}

std::string checkpointUniqueKey(const PopCheckPoint &ck)
{
    return ck.topic + "@" + std::to_string(ck.queueId) + "@" + std::to_string(ck.startOffset) + "@" + ck.cid + "@"
           + std::to_string(ck.popTime) + "@" + ck.brokerName + "@" + kCheckpointTag;
}

std::string ackUniqueKey(const AckMessage &ack)
{
    // Java overwrites a batch ack's key with the single-ack form, ao = -1.
    const int64_t ackOffset = ack.isBatch() ? -1 : ack.ackOffsets.front();
    return ack.topic + "@" + std::to_string(ack.queueId) + "@" + std::to_string(ackOffset) + "@" + ack.consumerGroup
           + "@" + std::to_string(ack.popTime) + "@" + ack.brokerName + "@" + kAckTag;
}

std::string ExtraInfo::toString() const
{
    std::string text = std::to_string(ckStartOffset) + " " + std::to_string(popTime) + " " + std::to_string(invisibleTime)
                       + " " + std::to_string(reviveQid) + " " + retry + " " + brokerName + " " + std::to_string(queueId)
                       + " " + std::to_string(queueOffset);
    if (commitLogOffset >= 0)
        text += " " + std::to_string(commitLogOffset);
    return text;
}

std::optional<ExtraInfo> ExtraInfo::parse(std::string_view text, std::string &error)
{
    const std::vector<std::string_view> parts = splitOn(text, ' ');
    if (parts.size() < 7 || parts.size() > 9) {
        error = "extraInfo '" + std::string(text.substr(0, 200)) + "' does not have 7 to 9 space-separated fields";
        return std::nullopt;
    }
    ExtraInfo info;
    const auto number = [&](size_t index, const char *name) -> std::optional<int64_t> {
        const auto value = remoting::parseJavaLong(parts[index]);
        if (!value && error.empty())
            error = "extraInfo field " + std::to_string(index) + " (" + name + ") is not a number: '"
                    + std::string(parts[index].substr(0, 40)) + "'";
        return value;
    };
    const auto start = number(0, "ckStartOffset");
    const auto popTime = number(1, "popTime");
    const auto invisible = number(2, "invisibleTime");
    const auto reviveQid = number(3, "reviveQid");
    const auto queueId = number(6, "queueId");
    const auto offset = parts.size() > 7 ? number(7, "queueOffset") : std::optional<int64_t>(-1);
    const auto physical = parts.size() > 8 ? number(8, "commitLogOffset") : std::optional<int64_t>(-1);
    if (!start || !popTime || !invisible || !reviveQid || !queueId || !offset || !physical)
        return std::nullopt;
    if (parts[4] != "0" && parts[4] != "1" && parts[4] != "2") {
        error = "extraInfo field 4 (retry) is not 0, 1 or 2: '" + std::string(parts[4].substr(0, 40)) + "'";
        return std::nullopt;
    }
    if (*reviveQid < 0 || *reviveQid > INT32_MAX || *queueId < 0 || *queueId > INT32_MAX) {
        error = "extraInfo reviveQid or queueId out of range";
        return std::nullopt;
    }
    if (!isMillis(*popTime) || !isMillis(*invisible) || *start < 0 || *offset < -1) {
        error = "extraInfo popTime, invisibleTime or an offset out of range";
        return std::nullopt;
    }
    info.ckStartOffset = *start;
    info.popTime = *popTime;
    info.invisibleTime = *invisible;
    info.reviveQid = static_cast<int32_t>(*reviveQid);
    info.retry = std::string(parts[4]);
    info.brokerName = std::string(parts[5]);
    info.queueId = static_cast<int32_t>(*queueId);
    info.queueOffset = *offset;
    info.commitLogOffset = *physical;
    return info;
}

void appendStartOffsetInfo(std::string &info, const std::string &topic, int32_t queueId, int64_t startOffset)
{
    if (!info.empty())
        info += ';';
    info += retryMark(topic) + " " + std::to_string(queueId) + " " + std::to_string(startOffset);
}

void appendMsgOffsetInfo(std::string &info, const std::string &topic, int32_t queueId,
                         const std::vector<int64_t> &offsets)
{
    if (!info.empty())
        info += ';';
    info += retryMark(topic) + " " + std::to_string(queueId) + " ";
    for (size_t i = 0; i < offsets.size(); ++i) {
        if (i > 0)
            info += ',';
        info += std::to_string(offsets[i]);
    }
}

void appendOrderCountInfo(std::string &info, const std::string &topic, int32_t queueId, int32_t count)
{
    if (!info.empty())
        info += ';';
    info += retryMark(topic) + " " + std::to_string(queueId) + " " + std::to_string(count);
}

std::vector<int32_t> decodeBitSet(std::string_view base64, std::string &error)
{
    const std::optional<std::string> bytes = common::decodeBase64(base64);
    if (!bytes) {
        error = "bit set is not Base64";
        return {};
    }
    std::vector<int32_t> set;
    for (size_t i = 0; i < bytes->size(); ++i) {
        for (int bit = 0; bit < 8; ++bit) {
            if (static_cast<uint8_t>((*bytes)[i]) & (1u << bit))
                set.push_back(static_cast<int32_t>(i * 8 + bit));
        }
    }
    return set;
}

std::string encodeBitSet(const std::vector<int32_t> &bitsSet)
{
    std::string bytes;
    for (int32_t bit : bitsSet) {
        if (bit < 0)
            continue;
        const size_t index = static_cast<size_t>(bit) / 8;
        if (bytes.size() <= index)
            bytes.resize(index + 1);
        bytes[index] = static_cast<char>(static_cast<uint8_t>(bytes[index]) | (1u << (bit % 8)));
    }
    return common::encodeBase64(bytes);
}

} // namespace mqdesk::server::pop
