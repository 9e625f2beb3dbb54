#include "broker/store/reader/revive_body.h"

#include "broker/common/json.h"

#include <map>

namespace mqdesk::store {

namespace {

const std::map<std::string, std::string, std::less<>> &propertyNames()
{
    static const std::map<std::string, std::string, std::less<>> names = {
        {"bm", "bitMap"},          {"bn", "brokerName"},  {"c", "cid"},
        {"d", "queueOffsetDiff"},  {"it", "invisibleTime"}, {"n", "num"},
        {"pt", "popTime"},         {"q", "queueId"},      {"reviveTime", "reviveTime"},
        {"ro", "reviveOffset"},    {"rp", "rePutTimes"},  {"so", "startOffset"},
        {"sp", "startOffset (sp)"}, {"t", "topic"},       {"ao", "ackOffset"},
        {"aol", "ackOffsetList"},
    };
    return names;
}

std::string valueText(const common::JsonValue &value)
{
    if (value.isString())
        return value.asString();
    return common::toJsonCompact(value);
}

} // namespace

bool isReviveTopic(std::string_view topic) { return topic.starts_with(kReviveTopicPrefix); }

ReviveBody decodeReviveBody(std::string_view tags, std::string_view body)
{
    ReviveBody out;
    const common::JsonParseResult parsed = common::parseJson(body);
    if (!parsed.ok()) {
        out.error = "revive body is not JSON: " + parsed.error;
        return out;
    }
    if (!parsed.value.isObject()) {
        out.error = std::string("revive body is a JSON ") + parsed.value.typeName() + ", not an object";
        return out;
    }
    const common::JsonObject &object = parsed.value.asObject();
    for (const auto &member : object) {
        const auto name = propertyNames().find(member.key);
        out.fields.push_back({member.key, name == propertyNames().end() ? member.key : name->second, valueText(member.value)});
    }
    if (tags == "ck" || (tags != "ack" && tags != "bAck" && object.contains("it") && object.contains("bm")))
        out.kind = "CK";
    else if (tags == "bAck" || object.contains("aol"))
        out.kind = "BATCH_ACK";
    else if (tags == "ack" || object.contains("ao"))
        out.kind = "ACK";
    else {
        out.error = "revive body of tag '" + std::string(tags) + "' is neither a checkpoint nor an ack";
        return out;
    }
    const std::vector<const char *> required = out.kind == "CK"
                                                   ? std::vector<const char *>{"so", "pt", "it", "bm", "n", "q", "t", "c"}
                                                   : std::vector<const char *>{"so", "pt", "q", "t", "c"};
    std::string missing;
    for (const char *key : required)
        if (!object.contains(key))
            missing += (missing.empty() ? "" : ", ") + std::string(key);
    if (out.kind == "ACK" && !object.contains("ao"))
        missing += (missing.empty() ? "" : ", ") + std::string("ao");
    if (out.kind == "BATCH_ACK" && !object.contains("aol"))
        missing += (missing.empty() ? "" : ", ") + std::string("aol");
    if (!missing.empty())
        out.error = out.kind + " body lacks " + missing;
    return out;
}

} // namespace mqdesk::store
