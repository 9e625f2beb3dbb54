#pragma once

// The request signature of RocketMQ's ACL (Java AclClientRPCHook / AclUtils / AclSigner): the
// client puts AccessKey (and optionally SecurityToken) into a request's extFields, then signs
// the values of every extField sorted by key (Java String order), concatenated, followed by the
// body, with HMAC-SHA1 under its SecretKey, and adds the Base64 result as Signature. The broker
// recomputes the same bytes to check it. Shared by the client (signing) and the broker's
// validator (checking); no state, thread-safe.

#include "broker/remoting/remoting_command.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::acl {

// extField names, as Java's SessionCredentials spells them.
inline constexpr const char *kAccessKeyField = "AccessKey";
inline constexpr const char *kSignatureField = "Signature";
inline constexpr const char *kSecurityTokenField = "SecurityToken";
// MixAll.UNIQUE_MSG_QUERY_FLAG. Clients up to 4.9.3 added it after signing, so a broker leaves it
// out of the content for requests of version <= V4_9_3 (as 5.x's PlainAccessResource.parse does).
inline constexpr const char *kUniqueKeyQueryField = "_UNIQUE_KEY_QUERY";
inline constexpr int32_t kVersionV4_9_3 = 399; // MQVersion.Version.V4_9_3.ordinal() (V4_9_8 = 409, two per patch)

struct Credentials
{
    std::string accessKey;
    std::string secretKey;
    std::string securityToken; // sent only when not empty

    bool enabled() const { return !accessKey.empty() && !secretKey.empty(); }
};

// Java's String.compareTo on the UTF-16 forms of two UTF-8 strings (TreeMap's key order): byte
// order, except that characters above U+FFFF (surrogate pairs in Java) sort before U+E000–U+FFFF.
bool javaStringLess(std::string_view a, std::string_view b);

// The bytes a signature covers: the values of `fields` sorted by key, without Signature (and
// without _UNIQUE_KEY_QUERY when `skipUniqueKeyFlag`), concatenated, then `body`.
std::vector<uint8_t> signedContent(const remoting::ExtFields &fields, std::span<const uint8_t> body,
                                   bool skipUniqueKeyFlag);

// Base64(HMAC-SHA1(secretKey, data)), as AclSigner.calSignature.
std::string calSignature(std::span<const uint8_t> data, std::string_view secretKey);

// AclClientRPCHook.doBeforeRequest: adds AccessKey, SecurityToken (when set) and Signature.
// A request signed before (a retry) is re-signed.
void signRequest(remoting::RemotingCommand &request, const Credentials &credentials);

} // namespace mqdesk::acl
