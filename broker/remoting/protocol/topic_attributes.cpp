#include "broker/remoting/protocol/topic_attributes.h"

#include "broker/common/java_strings.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <limits>
#include <set>

namespace mqdesk::remoting {

namespace {

// One attribute of Java's TopicAttributes.ALL or SubscriptionGroupAttributes.ALL.
struct AttributeRule
{
    enum class Kind { Enum, Long, Boolean, String };
    const char *name;
    bool changeable;
    Kind kind;
    std::vector<std::string> universe; // Enum: its values, in declaration order
    int64_t minLong = -1;              // Long: the range
    int64_t maxLong = std::numeric_limits<int64_t>::max();
};

using Kind = AttributeRule::Kind;

const std::vector<AttributeRule> &topicAttributeRules()
{
    static const std::vector<AttributeRule> rules = {
        {"queue.type", false, Kind::Enum, {"BatchCQ", "SimpleCQ"}},
        {"cleanup.policy", false, Kind::Enum, {"DELETE", "COMPACTION"}},
        {kMessageTypeAttribute, true, Kind::Enum, topicMessageTypes()},
        {"reserve.time", true, Kind::Long, {}},
        // RocketMQ 5.5: minutes a lite topic of a LITE topic lives unwritten (-1: forever), at most 30 days.
        {"lite.topic.expiration", true, Kind::Long, {}, -1, 30 * 24 * 60},
    };
    return rules;
}

// SubscriptionGroupAttributes.ALL of RocketMQ 5.5: priority messages' factor (5.4) and the
// lite-topic subscription settings (5.5).
const std::vector<AttributeRule> &groupAttributeRules()
{
    static const std::vector<AttributeRule> rules = {
        {"priority.factor", true, Kind::Long, {}, 0, 100},
        {"lite.bind.topic", true, Kind::String, {}},
        {"lite.sub.model", true, Kind::Enum, {"Shared", "Exclusive"}},
        {"lite.sub.reset.offset.exclusive", true, Kind::Boolean, {}},
        {"lite.sub.reset.offset.unsubscribe", true, Kind::Boolean, {}},
        {"lite.sub.client.quota", true, Kind::Long, {}, -1},
        {"lite.sub.client.max.event.cnt", true, Kind::Long, {}, 10},
        {"lite.sub.wildcard", true, Kind::String, {}},
    };
    return rules;
}

const AttributeRule *findRule(const std::vector<AttributeRule> &rules, std::string_view key)
{
    const auto it = std::find_if(rules.begin(), rules.end(), [&](const AttributeRule &rule) { return rule.name == key; });
    return it == rules.end() ? nullptr : &*it;
}

std::string joined(const std::vector<std::string> &values)
{
    std::string text = "[";
    for (size_t i = 0; i < values.size(); ++i)
        text += (i ? ", " : "") + values[i];
    return text + "]";
}

// Attribute.verify with Java's remarks. Java lists an enum's universe in HashSet order; this
// lists it in declaration order.
bool verifyValue(const AttributeRule &rule, const std::string &value, std::string &error)
{
    switch (rule.kind) {
    case Kind::String:
        return true;
    case Kind::Boolean: {
        std::string lower = value;
        std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
        if (lower == "true" || lower == "false")
            return true;
        error = "boolean attribute format is wrong.";
        return false;
    }
    case Kind::Enum:
        if (std::find(rule.universe.begin(), rule.universe.end(), value) != rule.universe.end())
            return true;
        error = "value is not in set: " + joined(rule.universe);
        return false;
    case Kind::Long:
        break;
    }
    int64_t number = 0;
    const char *begin = value.data() + (value.starts_with('+') ? 1 : 0);
    const auto [end, status] = std::from_chars(begin, value.data() + value.size(), number);
    if (value.empty() || status != std::errc() || end != value.data() + value.size()) {
        error = "For input string: \"" + value + "\"";
        return false;
    }
    if (number < rule.minLong || number > rule.maxLong) {
        error = "value is not in range(" + std::to_string(rule.minLong) + ", " + std::to_string(rule.maxLong) + ")";
        return false;
    }
    return true;
}

// AttributeUtil.validate on the key without its sign.
bool validKeyForm(const std::string &realKey)
{
    return !realKey.empty() && realKey.find('+') == std::string::npos && realKey.find('-') == std::string::npos;
}

} // namespace

const std::vector<std::string> &topicMessageTypes()
{
    static const std::vector<std::string> types = {kUnspecifiedMessageType, "NORMAL",   "FIFO",
                                                   "DELAY",                 "TRANSACTION", kPriorityMessageType,
                                                   kLiteMessageType,        kMixedMessageType};
    return types;
}

const std::string *findAttribute(const AttributeList &attributes, std::string_view key)
{
    for (const auto &[name, value] : attributes) {
        if (name == key)
            return &value;
    }
    return nullptr;
}

std::string topicMessageType(const AttributeList &attributes)
{
    const std::string *type = findAttribute(attributes, kMessageTypeAttribute);
    return type && !type->empty() ? *type : std::string(kUnspecifiedMessageType);
}

bool parseAttributeModifications(std::string_view text, AttributeModifications &out, std::string &error)
{
    out.clear();
    // A set, not a scan of `out`: the text comes from a client and may hold many entries.
    std::set<std::string, std::less<>> keys;
    for (std::string_view entry : common::javaSplit(text, ',')) {
        std::string key;
        std::string value;
        if (entry.find('=') != std::string_view::npos) {
            const auto parts = common::javaSplit(entry, '=');
            key = parts.empty() ? std::string() : std::string(parts[0]);
            // Java fails here with an ArrayIndexOutOfBoundsException's text; this names the entry.
            if (parts.size() < 2) {
                error = "add/alter attribute has no value: " + std::string(entry);
                return false;
            }
            value = std::string(parts[1]);
            if (key.find('+') == std::string::npos) {
                error = "add/alter attribute format is wrong: " + key;
                return false;
            }
        } else {
            key = std::string(entry);
            if (key.find('-') == std::string::npos) {
                error = "delete attribute format is wrong: " + key;
                return false;
            }
        }
        if (!keys.insert(key).second) {
            error = "key duplication: " + key;
            return false;
        }
        out.emplace_back(std::move(key), std::move(value));
    }
    return true;
}

std::string formatAttributeModifications(const AttributeModifications &modifications)
{
    std::string text;
    for (const auto &[key, value] : modifications) {
        if (!text.empty())
            text += ',';
        text += value.empty() ? key : key + "=" + value;
    }
    return text;
}

std::string messageTypeModification(std::string_view type)
{
    return "+" + std::string(kMessageTypeAttribute) + "=" + std::string(type);
}

namespace {

bool alterAttributes(const std::vector<AttributeRule> &rules, bool create, const AttributeList &current,
                     const AttributeModifications &requested, AttributeAlteration &out, std::string &error)
{
    out = {};
    std::set<std::string> seen;
    // Java checks the form of every key first, then each group (init, add, update, delete).
    struct Decided { std::string key; std::string value; bool init; bool remove; };
    std::vector<Decided> decided;
    for (const auto &[signedKey, value] : requested) {
        const std::string realKey = signedKey.empty() ? std::string() : signedKey.substr(1);
        if (!validKeyForm(realKey)) {
            error = "kv string format wrong.";
            return false;
        }
        if (!seen.insert(realKey).second) {
            error = "alter duplication key. key: " + realKey;
            return false;
        }
        if (create) {
            if (!signedKey.starts_with('+')) {
                error = "only add attribute is supported while creating topic. key: " + realKey;
                return false;
            }
            decided.push_back({realKey, value, true, false});
        } else if (signedKey.starts_with('+')) {
            decided.push_back({realKey, value, false, false});
        } else if (signedKey.starts_with('-')) {
            if (!findAttribute(current, realKey)) {
                error = "attempt to delete a nonexistent key: " + realKey;
                return false;
            }
            decided.push_back({realKey, value, false, true});
        } else {
            error = "wrong format key: " + realKey;
            return false;
        }
    }
    for (const Decided &each : decided) {
        const AttributeRule *rule = findRule(rules, each.key);
        if (!rule) {
            error = "unsupported key: " + each.key;
            return false;
        }
        if (!each.init && !rule->changeable) {
            error = "attempt to update an unchangeable attribute. key: " + each.key;
            return false;
        }
        if (!each.remove && !verifyValue(*rule, each.value, error))
            return false;
        if (each.remove)
            out.remove.push_back(each.key);
        else
            out.put.emplace_back(each.key, each.value);
    }
    return true;
}

} // namespace

bool alterTopicAttributes(bool create, const AttributeList &current, const AttributeModifications &requested,
                          AttributeAlteration &out, std::string &error)
{
    return alterAttributes(topicAttributeRules(), create, current, requested, out, error);
}

bool alterGroupAttributes(bool create, const AttributeList &current, const AttributeModifications &requested,
                          AttributeAlteration &out, std::string &error)
{
    return alterAttributes(groupAttributeRules(), create, current, requested, out, error);
}

} // namespace mqdesk::remoting
