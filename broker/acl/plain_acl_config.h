#pragma once

// plain_acl.yml as RocketMQ 4.9's PlainPermissionManager reads it:
//
//   globalWhiteRemoteAddresses:     # peers let in without any check
//     - 10.10.103.*
//   accounts:
//     - accessKey: RocketMQ         # both keys longer than 6 characters
//       secretKey: 12345678
//       whiteRemoteAddress:         # a peer matching it is let in without a signature
//       admin: false                # admin-only requests (Permission.ADMIN_CODE)
//       defaultTopicPerm: DENY      # for topics not listed (absent: DENY)
//       defaultGroupPerm: SUB       # for groups not listed (absent: DENY)
//       topicPerms: [topicA=DENY, topicB=PUB|SUB, topicC=SUB]
//       groupPerms: [groupA=DENY, groupB=PUB|SUB]   # kept as %RETRY%<group>
//
// Parsed with libyaml; scalars are taken as written (secretKey: 12345678 is the string
// "12345678", as fastjson turns SnakeYAML's integer back into it). Other keys (dataVersion) are
// ignored. Errors name the file, the line and the entry.

#include "broker/acl/remote_address_strategy.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mqdesk::acl {

// Permission bits (Java acl Permission).
namespace perm {
inline constexpr uint8_t kDeny = 1;
inline constexpr uint8_t kAny = 1 << 1;
inline constexpr uint8_t kPub = 1 << 2;
inline constexpr uint8_t kSub = 1 << 3;
} // namespace perm

// Permission.parsePermFromString: PUB, SUB, PUB|SUB, SUB|PUB, anything else DENY.
uint8_t parsePerm(std::string_view text);
// Permission.checkPermission: DENY owns nothing; ANY needs PUB or SUB; else any shared bit.
bool checkPermission(uint8_t needed, uint8_t owned);

struct PlainAccount
{
    std::string accessKey;
    std::string secretKey;
    RemoteAddressStrategy whiteRemoteAddress; // Nobody when blank
    bool admin = false;
    uint8_t defaultTopicPerm = perm::kDeny;
    uint8_t defaultGroupPerm = perm::kDeny;
    // Topic name, or %RETRY%<group> for a group -> permission bits.
    std::map<std::string, uint8_t> resourcePerms;
};

struct PlainAclConfig
{
    std::vector<RemoteAddressStrategy> globalWhiteRemoteAddresses;
    std::map<std::string, PlainAccount> accounts; // by accessKey; a repeated key keeps the first

    // Reads `path`. False with `error` ("plain_acl.yml:12: accounts[1]: ...") when it cannot be
    // read or parsed or an entry is invalid; Java refuses such a file too.
    static bool load(const std::string &path, PlainAclConfig &out, std::string &error);
    static bool parse(std::string_view text, const std::string &name, PlainAclConfig &out, std::string &error);
};

} // namespace mqdesk::acl
