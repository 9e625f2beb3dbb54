#pragma once

// ACL 2.0's data, as RocketMQ 5.3+ defines it (rocketmq-auth): users (Super or Normal, enabled
// or disabled) and, per subject ("User:<name>"), policies (Custom, or Default as the fallback)
// of entries: a resource (`Topic:orders`, `Group:g*` prefix, `Topic:*`, `*` = Any), actions,
// Allow or Deny, and optional source IPs. Plus the JSON forms Java's admin requests carry
// (UserInfo, AclInfo; 3001–3010) and how a request's checks are decided against a user's
// policies (request-codes.md §1.3). Plain values; no locking here (AuthStore owns them).

#include "broker/acl/request_table.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::common {
class JsonValue;
}

namespace mqdesk::acl {

struct User
{
    std::string username;
    std::string password;
    bool super = false;   // userType Super / Normal
    bool enabled = true;  // userStatus enable / disable
};

enum class ResourcePattern : uint8_t { Any = 1, Literal = 2, Prefixed = 3 };

struct PolicyEntry
{
    ResourceType type = ResourceType::Any;
    std::string name;  // empty for Any and for `Type:*`
    ResourcePattern pattern = ResourcePattern::Any;
    uint16_t actions = 0;
    std::vector<std::string> sourceIps; // empty: any
    bool allow = true;

    std::string resourceKey() const; // "Topic:orders", "Group:g*", "Topic:*", "*"
    bool matches(const Check &check, std::string_view host) const;
};

struct Policy
{
    bool isDefault = false; // PolicyType Default; else Custom
    std::vector<PolicyEntry> entries;
};

struct Acl
{
    std::string subject; // "User:<name>"
    std::vector<Policy> policies;

    Policy *policy(bool isDefault);
    const Policy *policy(bool isDefault) const;
};

// "Topic:orders" → entry fields; nullopt with `error` for an unknown type or a bad name.
bool parseResource(std::string_view key, PolicyEntry &entry, std::string &error);
// One source IP: an IPv4/IPv6 address (matched exactly) or a CIDR block, as Java accepts.
bool validSourceIp(std::string_view pattern);
bool sourceIpMatches(std::string_view pattern, std::string_view host);

// Java's UserInfo / AclInfo JSON. Readers name the member at fault.
common::JsonValue userToJson(const User &user, bool withPassword = true);
bool userFromJson(const common::JsonValue &value, User &out, std::string &error);
common::JsonValue aclToJson(const Acl &acl);
bool aclFromJson(const common::JsonValue &value, Acl &out, std::string &error);

// The decision for one check by a Normal user's policies (§1.3 step 5–6): nullopt when allowed,
// else the reason ("no matched policies", "the decision is deny").
std::optional<std::string> decide(const Acl *acl, const Check &check, std::string_view host);
// The entry decide() goes by (nullptr: none matches, so denied); `fromDefault` says whether it
// came from the Default policy. For "what may this user do?" answers that name their reason.
const PolicyEntry *decidingEntry(const Acl *acl, const Check &check, std::string_view host,
                                 bool *fromDefault = nullptr);

} // namespace mqdesk::acl
