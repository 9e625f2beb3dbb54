#include "broker/common/topic_queue_mapping.h"

#include "broker/common/java_strings.h"

#include <cstdint>
#include <limits>
#include <optional>

namespace mqdesk::common {

namespace {

bool fail(std::string &error, const std::string &path, const std::string &what)
{
    error = path + ": " + what;
    return false;
}

std::string memberPath(const std::string &path, std::string_view key)
{
    return path.empty() ? std::string(key) : path + "." + std::string(key);
}

// fastjson writes numbers, and reads strings holding numbers too.
std::optional<int64_t> longOf(const JsonValue &value)
{
    if (value.isInteger())
        return value.asInteger();
    if (value.isString())
        return parseJavaLong(value.asString());
    return std::nullopt;
}

// Reads member `key` of `object` into `out` when present and not null (fastjson leaves the
// field's default otherwise); false with `error` when it is not a number in range.
template<typename Int>
bool readNumber(const JsonValue &object, const std::string &path, std::string_view key, Int &out, std::string &error)
{
    const JsonValue *value = object.find(key);
    if (!value || value->isNull())
        return true;
    const std::optional<int64_t> number = longOf(*value);
    if (!number || *number < std::numeric_limits<Int>::min() || *number > std::numeric_limits<Int>::max())
        return fail(error, memberPath(path, key), "expected an integer");
    out = static_cast<Int>(*number);
    return true;
}

bool readText(const JsonValue &object, const std::string &path, std::string_view key, std::string &out,
              std::string &error)
{
    const JsonValue *value = object.find(key);
    if (!value || value->isNull())
        return true;
    if (!value->isString())
        return fail(error, memberPath(path, key), "expected a string");
    out = value->asString();
    return true;
}

bool readFlag(const JsonValue &object, const std::string &path, std::string_view key, bool &out, std::string &error)
{
    const JsonValue *value = object.find(key);
    if (!value || value->isNull())
        return true;
    if (value->isBool())
        out = value->asBool();
    else if (value->isString() && (value->asString() == "true" || value->asString() == "false"))
        out = value->asString() == "true";
    else
        return fail(error, memberPath(path, key), "expected a boolean");
    return true;
}

// An Integer-keyed object member (fastjson writes the keys bare, strict writers quote them).
const JsonObject *integerTable(const JsonValue &object, const std::string &path, std::string_view key,
                               std::string &error)
{
    static const JsonObject empty;
    const JsonValue *value = object.find(key);
    if (!value || value->isNull())
        return &empty;
    if (!value->isObject()) {
        fail(error, memberPath(path, key), "expected an object");
        return nullptr;
    }
    return &value->asObject();
}

std::optional<int32_t> queueIdKey(const JsonMember &member)
{
    return parseJavaInt(member.key);
}

} // namespace

std::string mockBrokerNameOfScope(std::string_view scope)
{
    // "__global__" loses its leading "__": the prefix already ends with two underscores.
    if (scope == kStaticTopicGlobalScope)
        return std::string(kLogicalQueueMockBrokerPrefix) + std::string(scope.substr(2));
    return std::string(kLogicalQueueMockBrokerPrefix) + std::string(scope);
}

// LogicQueueMappingItem ---------------------------------------------------------------------

int64_t LogicQueueMappingItem::staticOffsetLoosely(int64_t physical) const
{
    if (logicOffset < 0)
        return -1;
    if (physical < startOffset)
        return logicOffset;
    if (endOffset >= startOffset && endOffset < physical)
        return logicOffset + (endOffset - startOffset);
    return logicOffset + (physical - startOffset);
}

int64_t LogicQueueMappingItem::staticOffsetStrictly(int64_t physical) const
{
    if (physical < startOffset)
        return logicOffset;
    return logicOffset + (physical - startOffset);
}

int64_t LogicQueueMappingItem::maxStaticOffset() const
{
    return endOffset >= startOffset ? logicOffset + endOffset - startOffset : logicOffset;
}

JsonValue LogicQueueMappingItem::toJson() const
{
    JsonObject object;
    object.set("bname", bname);
    object.set("endOffset", endOffset);
    object.set("gen", gen);
    object.set("logicOffset", logicOffset);
    object.set("queueId", queueId);
    object.set("startOffset", startOffset);
    object.set("timeOfEnd", timeOfEnd);
    object.set("timeOfStart", timeOfStart);
    return object;
}

bool LogicQueueMappingItem::fromJson(const JsonValue &value, const std::string &path, LogicQueueMappingItem &out,
                                     std::string &error)
{
    out = LogicQueueMappingItem{};
    if (!value.isObject())
        return fail(error, path, "expected an object");
    return readNumber(value, path, "gen", out.gen, error) && readNumber(value, path, "queueId", out.queueId, error)
           && readText(value, path, "bname", out.bname, error)
           && readNumber(value, path, "logicOffset", out.logicOffset, error)
           && readNumber(value, path, "startOffset", out.startOffset, error)
           && readNumber(value, path, "endOffset", out.endOffset, error)
           && readNumber(value, path, "timeOfStart", out.timeOfStart, error)
           && readNumber(value, path, "timeOfEnd", out.timeOfEnd, error);
}

const LogicQueueMappingItem *findMappingItem(const LogicQueueMappingItems &items, int64_t logicOffset,
                                             bool ignoreNegative)
{
    for (auto it = items.rbegin(); it != items.rend(); ++it) {
        if (ignoreNegative && it->logicOffset < 0)
            continue;
        if (logicOffset >= it->logicOffset)
            return &*it;
    }
    // Out of range below: the first usable item.
    for (const LogicQueueMappingItem &item : items) {
        if (!ignoreNegative || item.logicOffset >= 0)
            return &item;
    }
    return nullptr;
}

const LogicQueueMappingItem *nextMappingItem(const LogicQueueMappingItems &items,
                                             const LogicQueueMappingItem &current)
{
    for (size_t i = 0; i < items.size(); ++i) {
        if (items[i].logicOffset < 0)
            continue;
        if (items[i].gen == current.gen)
            return i + 1 < items.size() && items[i + 1].logicOffset >= 0 ? &items[i + 1] : nullptr;
    }
    return nullptr;
}

std::string checkMappingItems(const LogicQueueMappingItems &items)
{
    int32_t lastGen = -1;
    int64_t lastOffset = -1;
    for (size_t i = items.size(); i-- > 0;) {
        const LogicQueueMappingItem &item = items[i];
        if (item.startOffset < 0 || item.gen < 0 || item.queueId < 0)
            return "The field is illegal, should not be negative";
        if (items.size() >= 2 && i + 2 <= items.size() && item.logicOffset < 0)
            return "The non-latest item has negative logic offset";
        if (lastGen != -1 && item.gen >= lastGen)
            return "The gen does not increase monotonically";
        if (item.endOffset != -1 && item.endOffset < item.startOffset)
            return "The endOffset is smaller than the start offset";
        if (lastOffset != -1 && item.logicOffset != -1) {
            if (item.logicOffset >= lastOffset)
                return "The base logic offset does not increase monotonically";
            if (item.maxStaticOffset() >= lastOffset)
                return "The max logic offset does not increase monotonically";
        }
        lastGen = item.gen;
        lastOffset = item.logicOffset;
    }
    return {};
}

// TopicQueueMappingInfo ---------------------------------------------------------------------

void TopicQueueMappingInfo::writeMembers(JsonObject &object) const
{
    object.set("bname", bname);
    JsonObject ids;
    for (const auto &[logical, physical] : currIdMap)
        ids.setIntegerKey(logical, physical);
    object.set("currIdMap", std::move(ids));
    object.set("dirty", dirty);
    object.set("epoch", epoch);
    object.set("scope", scope);
    object.set("topic", topic);
    object.set("totalQueues", totalQueues);
}

bool TopicQueueMappingInfo::readMembers(const JsonValue &value, const std::string &path, TopicQueueMappingInfo &out,
                                        std::string &error)
{
    if (!value.isObject())
        return fail(error, path, "expected an object");
    if (!readText(value, path, "topic", out.topic, error) || !readText(value, path, "scope", out.scope, error)
        || !readNumber(value, path, "totalQueues", out.totalQueues, error)
        || !readText(value, path, "bname", out.bname, error) || !readNumber(value, path, "epoch", out.epoch, error)
        || !readFlag(value, path, "dirty", out.dirty, error))
        return false;
    const std::string idsPath = memberPath(path, "currIdMap");
    const JsonObject *ids = integerTable(value, path, "currIdMap", error);
    if (!ids)
        return false;
    for (const JsonMember &member : *ids) {
        const std::optional<int32_t> logical = queueIdKey(member);
        const std::optional<int64_t> physical = longOf(member.value);
        if (!logical || !physical || *physical < INT32_MIN || *physical > INT32_MAX)
            return fail(error, memberPath(idsPath, member.key), "expected a queue id → queue id entry");
        out.currIdMap[*logical] = static_cast<int32_t>(*physical);
    }
    return true;
}

JsonValue TopicQueueMappingInfo::toJson() const
{
    JsonObject object;
    writeMembers(object);
    return object;
}

bool TopicQueueMappingInfo::fromJson(const JsonValue &value, const std::string &path, TopicQueueMappingInfo &out,
                                     std::string &error)
{
    out = TopicQueueMappingInfo{};
    return readMembers(value, path, out, error);
}

// TopicQueueMappingDetail -------------------------------------------------------------------

const LogicQueueMappingItems *TopicQueueMappingDetail::items(int32_t globalId) const
{
    const auto it = hostedQueues.find(globalId);
    return it == hostedQueues.end() ? nullptr : &it->second;
}

std::map<int32_t, int32_t> TopicQueueMappingDetail::leaderIdMap() const
{
    std::map<int32_t, int32_t> ids;
    for (const auto &[globalId, chain] : hostedQueues) {
        if (!chain.empty() && chain.back().bname == bname)
            ids[globalId] = chain.back().queueId;
    }
    return ids;
}

TopicQueueMappingInfo TopicQueueMappingDetail::asInfo() const
{
    TopicQueueMappingInfo info;
    info.topic = topic;
    info.scope = std::string(kStaticTopicGlobalScope); // Java's clone leaves the scope at its default
    info.totalQueues = totalQueues;
    info.bname = bname;
    info.epoch = epoch;
    info.currIdMap = leaderIdMap();
    return info;
}

int64_t TopicQueueMappingDetail::maxOffsetFromMapping(int32_t globalId) const
{
    const LogicQueueMappingItems *chain = items(globalId);
    return chain && !chain->empty() ? chain->back().maxStaticOffset() : -1;
}

JsonValue TopicQueueMappingDetail::toJson() const
{
    JsonObject object;
    writeMembers(object);
    JsonObject hosted;
    for (const auto &[globalId, chain] : hostedQueues) {
        JsonArray array;
        for (const LogicQueueMappingItem &item : chain)
            array.push_back(item.toJson());
        hosted.setIntegerKey(globalId, std::move(array));
    }
    object.set("hostedQueues", std::move(hosted));
    object.sortByKey();
    return object;
}

bool TopicQueueMappingDetail::fromJson(const JsonValue &value, const std::string &path, TopicQueueMappingDetail &out,
                                       std::string &error)
{
    out = TopicQueueMappingDetail{};
    if (!readMembers(value, path, out, error))
        return false;
    const std::string hostedPath = memberPath(path, "hostedQueues");
    const JsonObject *hosted = integerTable(value, path, "hostedQueues", error);
    if (!hosted)
        return false;
    for (const JsonMember &member : *hosted) {
        const std::string chainPath = memberPath(hostedPath, member.key);
        const std::optional<int32_t> globalId = queueIdKey(member);
        if (!globalId)
            return fail(error, chainPath, "expected a queue id");
        if (member.value.isNull())
            continue;
        if (!member.value.isArray())
            return fail(error, chainPath, "expected an array of items");
        LogicQueueMappingItems chain;
        for (size_t i = 0; i < member.value.asArray().size(); ++i) {
            LogicQueueMappingItem item;
            if (!LogicQueueMappingItem::fromJson(member.value.asArray()[i], chainPath + "[" + std::to_string(i) + "]",
                                                 item, error))
                return false;
            chain.push_back(std::move(item));
        }
        // Java's putMappingInfo skips an empty chain.
        if (!chain.empty())
            out.hostedQueues[*globalId] = std::move(chain);
    }
    return true;
}

} // namespace mqdesk::common
