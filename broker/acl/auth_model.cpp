#include "broker/acl/auth_model.h"

#include "broker/common/json.h"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>

namespace mqdesk::acl {

namespace {

std::string lower(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

// An address as 16 bytes (IPv4 as ::ffff:a.b.c.d) for CIDR matching.
std::optional<std::array<uint8_t, 16>> addressBytes(std::string_view text)
{
    std::array<uint8_t, 16> bytes{};
    const std::string host(text);
    in_addr v4{};
    if (inet_pton(AF_INET, host.c_str(), &v4) == 1) {
        bytes[10] = bytes[11] = 0xff;
        std::memcpy(bytes.data() + 12, &v4, 4);
        return bytes;
    }
    in6_addr v6{};
    if (inet_pton(AF_INET6, host.c_str(), &v6) == 1) {
        std::memcpy(bytes.data(), &v6, 16);
        return bytes;
    }
    return std::nullopt;
}

struct Cidr
{
    std::array<uint8_t, 16> base{};
    int bits = 0;
};

std::optional<Cidr> parseCidr(std::string_view pattern)
{
    const size_t slash = pattern.find('/');
    if (slash == std::string_view::npos)
        return std::nullopt;
    const auto base = addressBytes(pattern.substr(0, slash));
    const std::string_view bitsText = pattern.substr(slash + 1);
    if (!base || bitsText.empty() || bitsText.size() > 3
        || !std::all_of(bitsText.begin(), bitsText.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    const bool v4 = pattern.substr(0, slash).find(':') == std::string_view::npos;
    const int bits = std::stoi(std::string(bitsText));
    if (bits > (v4 ? 32 : 128))
        return std::nullopt;
    return Cidr{*base, v4 ? bits + 96 : bits};
}

bool inCidr(const Cidr &cidr, const std::array<uint8_t, 16> &address)
{
    for (int bit = 0; bit < cidr.bits; ++bit) {
        const uint8_t mask = static_cast<uint8_t>(0x80u >> (bit % 8));
        if ((cidr.base[bit / 8] & mask) != (address[bit / 8] & mask))
            return false;
    }
    return true;
}

int typeRank(const PolicyEntry &entry)
{
    return entry.type == ResourceType::Any ? 1 : 0;
}

// Java's PolicyEntry ordering: concrete types first, literal before prefix before any, longer
// prefixes first, and on a tie Deny first.
bool decidesBefore(const PolicyEntry *a, const PolicyEntry *b)
{
    if (typeRank(*a) != typeRank(*b))
        return typeRank(*a) < typeRank(*b);
    if (a->pattern != b->pattern)
        return static_cast<int>(a->pattern) < static_cast<int>(b->pattern);
    if (a->pattern == ResourcePattern::Prefixed && a->name.size() != b->name.size())
        return a->name.size() > b->name.size();
    return !a->allow && b->allow;
}

const common::JsonValue *member(const common::JsonObject &object, std::string_view key)
{
    const common::JsonValue *value = object.find(key);
    return value && !value->isNull() ? value : nullptr;
}

bool readString(const common::JsonObject &object, std::string_view key, std::string &out, std::string &error)
{
    const common::JsonValue *value = member(object, key);
    if (!value)
        return true;
    if (!value->isString()) {
        error = std::string(key) + ": expected a string";
        return false;
    }
    out = value->asString();
    return true;
}

// A list of strings, also accepted as one comma-separated string.
bool readList(const common::JsonObject &object, std::string_view key, std::vector<std::string> &out,
              std::string &error)
{
    const common::JsonValue *value = member(object, key);
    if (!value)
        return true;
    if (value->isString()) {
        std::string item;
        for (char c : value->asString() + ",") {
            if (c == ',') {
                if (!item.empty())
                    out.push_back(item);
                item.clear();
            } else if (c != ' ') {
                item += c;
            }
        }
        return true;
    }
    if (!value->isArray()) {
        error = std::string(key) + ": expected a list of strings";
        return false;
    }
    for (const common::JsonValue &item : value->asArray()) {
        if (!item.isString()) {
            error = std::string(key) + ": expected a list of strings";
            return false;
        }
        out.push_back(item.asString());
    }
    return true;
}

common::JsonValue stringList(const std::vector<std::string> &items)
{
    common::JsonArray array;
    for (const std::string &item : items)
        array.emplace_back(item);
    return common::JsonValue(std::move(array));
}

} // namespace

std::string PolicyEntry::resourceKey() const
{
    if (type == ResourceType::Any)
        return "*";
    std::string key = std::string(resourceTypeName(type)) + ":";
    switch (pattern) {
    case ResourcePattern::Any: return key + "*";
    case ResourcePattern::Literal: return key + name;
    case ResourcePattern::Prefixed: return key + name + "*";
    }
    return key + name;
}

bool parseResource(std::string_view key, PolicyEntry &entry, std::string &error)
{
    if (key == "*") {
        entry.type = ResourceType::Any;
        entry.pattern = ResourcePattern::Any;
        entry.name.clear();
        return true;
    }
    const size_t colon = key.find(':');
    const auto type = colon == std::string_view::npos ? std::nullopt : parseResourceType(key.substr(0, colon));
    if (!type || *type == ResourceType::Any) {
        error = "resource " + std::string(key) + " is not Type:name (Cluster, Namespace, Topic or Group) or *";
        return false;
    }
    std::string_view name = key.substr(colon + 1);
    if (name.empty() || name.find('\0') != std::string_view::npos || name.size() > 255) {
        error = "resource " + std::string(key) + " has no valid name";
        return false;
    }
    entry.type = *type;
    if (name == "*") {
        entry.pattern = ResourcePattern::Any;
        entry.name.clear();
    } else if (name.ends_with('*')) {
        entry.pattern = ResourcePattern::Prefixed;
        entry.name = std::string(name.substr(0, name.size() - 1));
    } else {
        entry.pattern = ResourcePattern::Literal;
        entry.name = std::string(name);
    }
    return true;
}

bool validSourceIp(std::string_view pattern)
{
    return addressBytes(pattern) || parseCidr(pattern);
}

bool sourceIpMatches(std::string_view pattern, std::string_view host)
{
    const auto address = addressBytes(host);
    if (const auto exact = addressBytes(pattern))
        return address && *exact == *address;
    const auto cidr = parseCidr(pattern);
    return cidr && address && inCidr(*cidr, *address);
}

bool PolicyEntry::matches(const Check &check, std::string_view host) const
{
    if (type != ResourceType::Any) {
        if (type != check.type)
            return false;
        if (pattern == ResourcePattern::Literal && name != check.name)
            return false;
        if (pattern == ResourcePattern::Prefixed && !check.name.starts_with(name))
            return false;
    }
    const bool actionMatches = (actions & action::kAll) || (check.actions & action::kAny)
                               || (actions & check.actions) != 0;
    if (!actionMatches)
        return false;
    return sourceIps.empty() || std::any_of(sourceIps.begin(), sourceIps.end(), [&](const std::string &ip) {
               return sourceIpMatches(ip, host);
           });
}

Policy *Acl::policy(bool isDefault)
{
    for (Policy &p : policies)
        if (p.isDefault == isDefault)
            return &p;
    return nullptr;
}

const Policy *Acl::policy(bool isDefault) const
{
    return const_cast<Acl *>(this)->policy(isDefault);
}

const PolicyEntry *decidingEntry(const Acl *acl, const Check &check, std::string_view host, bool *fromDefault)
{
    if (!acl)
        return nullptr;
    for (bool isDefault : {false, true}) {
        const Policy *policy = acl->policy(isDefault);
        if (!policy)
            continue;
        std::vector<const PolicyEntry *> matched;
        for (const PolicyEntry &entry : policy->entries)
            if (entry.matches(check, host))
                matched.push_back(&entry);
        if (matched.empty())
            continue;
        if (fromDefault)
            *fromDefault = isDefault;
        return *std::min_element(matched.begin(), matched.end(), decidesBefore);
    }
    return nullptr;
}

std::optional<std::string> decide(const Acl *acl, const Check &check, std::string_view host)
{
    const PolicyEntry *entry = decidingEntry(acl, check, host);
    if (!entry)
        return std::string("no matched policies");
    if (entry->allow)
        return std::nullopt;
    return std::string("the decision is deny");
}

common::JsonValue userToJson(const User &user, bool withPassword)
{
    common::JsonObject object;
    object.set("username", user.username);
    if (withPassword)
        object.set("password", user.password);
    object.set("userType", user.super ? "Super" : "Normal");
    object.set("userStatus", user.enabled ? "enable" : "disable");
    return common::JsonValue(std::move(object));
}

bool userFromJson(const common::JsonValue &value, User &out, std::string &error)
{
    if (!value.isObject()) {
        error = "user: expected an object";
        return false;
    }
    const common::JsonObject &object = value.asObject();
    std::string type, status;
    if (!readString(object, "username", out.username, error) || !readString(object, "password", out.password, error)
        || !readString(object, "userType", type, error) || !readString(object, "userStatus", status, error))
        return false;
    if (!type.empty()) {
        const std::string t = lower(type);
        if (t != "super" && t != "normal") {
            error = "userType: " + type + " is neither Super nor Normal";
            return false;
        }
        out.super = t == "super";
    }
    if (!status.empty()) {
        const std::string s = lower(status);
        if (s != "enable" && s != "disable") {
            error = "userStatus: " + status + " is neither enable nor disable";
            return false;
        }
        out.enabled = s == "enable";
    }
    return true;
}

common::JsonValue aclToJson(const Acl &acl)
{
    common::JsonArray policies;
    for (const Policy &policy : acl.policies) {
        common::JsonArray entries;
        for (const PolicyEntry &entry : policy.entries) {
            common::JsonObject e;
            e.set("resource", entry.resourceKey());
            std::vector<std::string> actions;
            const std::string names = actionNames(entry.actions);
            size_t start = 0;
            while (start < names.size()) {
                const size_t end = std::min(names.find(',', start), names.size());
                actions.push_back(names.substr(start, end - start));
                start = end + 1;
            }
            e.set("actions", stringList(actions));
            if (!entry.sourceIps.empty())
                e.set("sourceIps", stringList(entry.sourceIps));
            e.set("decision", entry.allow ? "Allow" : "Deny");
            entries.emplace_back(std::move(e));
        }
        common::JsonObject p;
        p.set("policyType", policy.isDefault ? "Default" : "Custom");
        p.set("entries", common::JsonValue(std::move(entries)));
        policies.emplace_back(std::move(p));
    }
    common::JsonObject object;
    object.set("subject", acl.subject);
    object.set("policies", common::JsonValue(std::move(policies)));
    return common::JsonValue(std::move(object));
}

namespace {

// One entry of PolicyEntryInfo; `resource` may also be a list (one entry per resource).
bool entriesFromJson(const common::JsonObject &object, std::vector<PolicyEntry> &out, std::string &error)
{
    std::vector<std::string> resources, actionList;
    std::string decision;
    PolicyEntry entry;
    if (!readList(object, "resource", resources, error) || !readList(object, "actions", actionList, error)
        || !readList(object, "sourceIps", entry.sourceIps, error) || !readString(object, "decision", decision, error))
        return false;
    if (resources.empty()) {
        error = "resource: missing";
        return false;
    }
    std::string joined;
    for (const std::string &a : actionList)
        joined += a + ",";
    const auto actions = parseActions(joined);
    if (!actions || (*actions & action::kAny)) {
        error = "actions: [" + joined + "] are not RocketMQ actions (All, Pub, Sub, Create, Update, Delete, Get, List)";
        return false;
    }
    entry.actions = *actions;
    const std::string d = lower(decision.empty() ? "allow" : decision);
    if (d != "allow" && d != "deny") {
        error = "decision: " + decision + " is neither Allow nor Deny";
        return false;
    }
    entry.allow = d == "allow";
    for (const std::string &ip : entry.sourceIps) {
        if (!validSourceIp(ip)) {
            error = "The source ip is invalid.";
            return false;
        }
    }
    for (const std::string &resource : resources) {
        PolicyEntry one = entry;
        if (!parseResource(resource, one, error))
            return false;
        out.push_back(std::move(one));
    }
    return true;
}

} // namespace

bool aclFromJson(const common::JsonValue &value, Acl &out, std::string &error)
{
    if (!value.isObject()) {
        error = "acl: expected an object";
        return false;
    }
    const common::JsonObject &object = value.asObject();
    if (!readString(object, "subject", out.subject, error))
        return false;
    const common::JsonValue *policies = member(object, "policies");
    if (!policies)
        return true;
    if (!policies->isArray()) {
        error = "policies: expected a list";
        return false;
    }
    for (const common::JsonValue &p : policies->asArray()) {
        if (!p.isObject()) {
            error = "policies: expected objects";
            return false;
        }
        std::string type;
        if (!readString(p.asObject(), "policyType", type, error))
            return false;
        const std::string t = lower(type.empty() ? "custom" : type);
        if (t != "custom" && t != "default") {
            error = "policyType: " + type + " is neither Custom nor Default";
            return false;
        }
        Policy *policy = out.policy(t == "default");
        if (!policy) {
            out.policies.push_back(Policy{t == "default", {}});
            policy = &out.policies.back();
        }
        const common::JsonValue *entries = member(p.asObject(), "entries");
        if (!entries)
            continue;
        if (!entries->isArray()) {
            error = "entries: expected a list";
            return false;
        }
        for (const common::JsonValue &e : entries->asArray()) {
            if (!e.isObject()) {
                error = "entries: expected objects";
                return false;
            }
            if (!entriesFromJson(e.asObject(), policy->entries, error))
                return false;
        }
    }
    return true;
}

} // namespace mqdesk::acl
