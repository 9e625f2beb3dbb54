#include "broker/acl/access_gate.h"

#include "broker/acl/auth_store.h"
#include "broker/acl/plain_access_validator.h"
#include "broker/acl/remote_address_strategy.h"
#include "broker/common/json.h"
#include "broker/common/log_rate_limiter.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/remoting/remoting_command.h"

#include <openssl/crypto.h>
#include <algorithm>
#include <spdlog/spdlog.h>

namespace mqdesk::acl {

using remoting::RemotingCommand;
using remoting::ResponseCode;

namespace {

// Java's audit logger; its lines go to the broker's log here (one log for a desktop tool).
constexpr const char *kAuditPrefix = "RocketmqAuthAudit";

common::LogRateLimiter &rejectedCodeLimiter()
{
    static common::LogRateLimiter limiter(std::chrono::seconds(10), 5);
    return limiter;
}

common::LogRateLimiter &auditLimiter()
{
    // A denied client retrying in a loop must not fill the disk with audit lines.
    static common::LogRateLimiter limiter(std::chrono::seconds(1), 50);
    return limiter;
}

std::set<std::string, std::less<>> splitList(const std::string &text)
{
    std::set<std::string, std::less<>> items;
    std::string item;
    for (char c : text + ",") {
        if (c == ',') {
            if (!item.empty())
                items.insert(item);
            item.clear();
        } else if (c != ' ' && c != '\t') {
            item += c;
        }
    }
    return items;
}

std::string checkKey(const Check &check)
{
    return std::string(resourceTypeName(check.type)) + ":" + check.name;
}

void auditDenied(const std::string &line)
{
    if (const auto held = auditLimiter().admit())
        spdlog::info("{} {}{}", kAuditPrefix, line, common::LogRateLimiter::heldNote(*held));
}

} // namespace

Credentials AuthConfig::innerCredentials() const
{
    Credentials credentials;
    std::string error;
    if (!innerClientAuthenticationCredentials.empty())
        parseCredentialJson("innerClientAuthenticationCredentials", innerClientAuthenticationCredentials, "accessKey",
                            "secretKey", credentials.accessKey, credentials.secretKey, error);
    return credentials;
}

bool parseCredentialJson(const std::string &key, const std::string &json, std::string_view userMember,
                         std::string_view passwordMember, std::string &user, std::string &password,
                         std::string &error)
{
    const common::JsonParseResult parsed = common::parseJson(json);
    const auto text = [&](std::string_view member) -> const std::string * {
        const common::JsonValue *value = parsed.ok() && parsed.value.isObject() ? parsed.value.asObject().find(member)
                                                                                : nullptr;
        return value && value->isString() && !value->asString().empty() ? &value->asString() : nullptr;
    };
    const std::string *u = text(userMember);
    const std::string *p = text(passwordMember);
    if (!u || !p) {
        error = key + " is not {\"" + std::string(userMember) + "\":\"...\",\"" + std::string(passwordMember)
                + "\":\"...\"}: " + (parsed.ok() ? "a member is missing or blank" : parsed.error);
        return false;
    }
    user = *u;
    password = *p;
    return true;
}

AccessGate::AccessGate(ServerRole role, std::string clusterName, PlainAccessValidator *plain, AuthStore *store,
                       AuthConfig config)
    : role_(role),
      clusterName_(std::move(clusterName)),
      plain_(plain),
      store_(store),
      config_(std::move(config)),
      authenticationWhitelist_(splitList(config_.authenticationWhitelist)),
      authorizationWhitelist_(splitList(config_.authorizationWhitelist))
{
}

AccessGate::~AccessGate() = default;

std::optional<AccessGate::Refusal> AccessGate::check(const RemotingCommand &request, std::string_view peerAddress) const
{
    std::optional<Refusal> refusal = checkUnlogged(request, peerAddress);
    if (refusal && refusal->code == ResponseCode::kNoPermission) {
        static common::LogRateLimiter limiter(std::chrono::seconds(10), 20);
        if (const auto held = limiter.admit()) {
            const std::string *accessKey = request.extFields.find(kAccessKeyField);
            spdlog::info("{}: refused {} from {} (AccessKey {}): {}{}", role_ == ServerRole::Broker ? "broker" : "namesrv",
                         remoting::describeRequestCode(request.code), peerAddress, accessKey ? *accessKey : "none",
                         refusal->remark, common::LogRateLimiter::heldNote(*held));
        }
    }
    return refusal;
}

std::optional<AccessGate::Refusal> AccessGate::checkUnlogged(const RemotingCommand &request, std::string_view peerAddress) const
{
    const RequestRule *rule = findRequestRule(request.code);
    const uint8_t self = role_ == ServerRole::Broker ? served::kBroker : served::kNamesrv;
    if (!rule || !(rule->servedBy & self)) {
        if (const auto held = rejectedCodeLimiter().admit()) {
            spdlog::warn("{}: refused request code {} from {}: {}{}", role_ == ServerRole::Broker ? "broker" : "namesrv",
                         remoting::describeRequestCode(request.code), peerAddress,
                         rule ? "not served by this server" : "unknown to RocketMQ 5.5 and MQDesk",
                         common::LogRateLimiter::heldNote(*held));
        }
        // Java's remark, leading space included.
        return Refusal{ResponseCode::kRequestCodeNotSupported,
                       " request type " + std::to_string(request.code) + " not supported"};
    }
    if (!plain_ && !config_.enabled())
        return std::nullopt;

    std::vector<Check> checks;
    if (auto error = buildChecks(*rule, request, clusterName_, checks))
        return Refusal{ResponseCode::kNoPermission, "parse authorization context error: " + *error};
    if (checks.empty() && requestNamesItsResources(*rule)) {
        // Java lets such a request through unchecked and leaves it to the processor; a processor
        // that reads by offset (VIEW_MESSAGE_BY_ID) would then serve any topic's messages.
        return Refusal{ResponseCode::kNoPermission,
                       "parse authorization context error: the request names none of the resources request code "
                           + std::to_string(request.code) + " is checked by"};
    }
    if (role_ == ServerRole::Namesrv) {
        // The NameServer holds routes, not data: only what changes it is checked beyond the
        // caller's identity (a route lookup for a topic the caller may not use is still served,
        // as producers look up TBW102 before their first send).
        std::erase_if(checks, [](const Check &check) { return check.type != ResourceType::Cluster; });
    }
    if (plain_) {
        if (auto refusal = plain_->check(request, peerAddress, checks))
            return Refusal{ResponseCode::kNoPermission, std::move(*refusal)};
    }
    if (!store_)
        return std::nullopt;
    const std::string rpc = std::to_string(request.code);
    const std::string *accessKey = request.extFields.find(kAccessKeyField);
    if (config_.authenticationEnabled) {
        const std::string *signature = request.extFields.find(kSignatureField);
        const auto signedWith = [&](std::string_view secret) {
            const bool oldClient = request.version <= kVersionV4_9_3;
            const std::string expected = calSignature(signedContent(request.extFields, request.body, oldClient), secret);
            return signature && signature->size() == expected.size()
                   && CRYPTO_memcmp(signature->data(), expected.data(), expected.size()) == 0;
        };
        if (auto refusal = authenticate(accessKey, signedWith, signature ? *signature : "null", rpc))
            return Refusal{ResponseCode::kNoPermission, std::move(*refusal)};
    }
    if (config_.authorizationEnabled) {
        auto refusal = role_ == ServerRole::Namesrv ? authorizeOnNamesrv(accessKey, checks, rpc)
                                                    : authorize(accessKey, checks, peerHost(peerAddress), rpc);
        if (refusal)
            return Refusal{ResponseCode::kNoPermission, std::move(*refusal)};
    }
    return std::nullopt;
}

std::optional<std::string> AccessGate::authenticate(const std::string *accessKey,
                                                    const std::function<bool(std::string_view)> &signedWith,
                                                    std::string_view signature, std::string_view rpc) const
{
    if (!store_ || authenticationWhitelist_.contains(rpc))
        return std::nullopt;
    if (!accessKey || accessKey->empty())
        return std::string("username cannot be null.");
    const std::optional<User> user = store_->user(*accessKey);
    std::optional<std::string> refusal;
    if (!user)
        refusal = "User:" + *accessKey + " is not found.";
    else if (!user->enabled)
        refusal = "User:" + *accessKey + " is disabled.";
    else if (!signedWith || !signedWith(user->password))
        refusal = "check signature failed.";
    if (refusal)
        auditDenied("[AUTHENTICATION] User:" + *accessKey + " is authenticated failed with Signature = "
                    + std::string(signature) + ".");
    else
        spdlog::debug("{} [AUTHENTICATION] User:{} is authenticated success with Signature = {}.", kAuditPrefix,
                      *accessKey, signature);
    return refusal;
}

std::optional<std::string> AccessGate::authorize(const std::string *accessKey, const std::vector<Check> &checks,
                                                 std::string_view host, std::string_view rpc) const
{
    if (!store_ || checks.empty() || authorizationWhitelist_.contains(rpc))
        return std::nullopt;
    if (!accessKey || accessKey->empty())
        return std::string("Authorization failed: the request names no user (AccessKey).");
    const std::optional<User> user = store_->user(*accessKey);
    if (!user)
        return "User:" + *accessKey + " not found.";
    if (user->super)
        return std::nullopt;
    const std::optional<Acl> acl = store_->acl("User:" + *accessKey);
    for (const Check &check : checks) {
        const std::optional<std::string> why = decide(acl ? &*acl : nullptr, check, host);
        const std::string line = "[AUTHORIZATION] Subject = User:" + *accessKey + " is " + (why ? "Deny" : "Allow")
                                 + " Action = " + actionNames(check.actions) + " from sourceIp = " + std::string(host)
                                 + " on resource = " + checkKey(check) + " for request = " + std::string(rpc) + ".";
        if (!why) {
            spdlog::debug("{} {}", kAuditPrefix, line);
            continue;
        }
        auditDenied(line);
        return *accessKey + " has no permission to access " + checkKey(check) + " from " + std::string(host) + ", "
               + *why + ".";
    }
    return std::nullopt;
}

std::optional<std::string> AccessGate::authorizeOnNamesrv(const std::string *accessKey,
                                                          const std::vector<Check> &checks,
                                                          std::string_view rpc) const
{
    const bool changesIt = std::any_of(checks.begin(), checks.end(), [](const Check &check) {
        return check.type == ResourceType::Cluster && (check.actions & action::kUpdate);
    });
    if (!changesIt || authorizationWhitelist_.contains(rpc) || isSuperUser(accessKey))
        return std::nullopt;
    const std::string who = accessKey ? *accessKey : std::string("(no AccessKey)");
    auditDenied("[AUTHORIZATION] Subject = User:" + who + " is Deny Action = Update on resource = Cluster:"
                + clusterName_ + " for request = " + std::string(rpc) + ".");
    return who + " has no permission to change the NameServer (request " + std::string(rpc)
           + "): it needs a Super user.";
}

bool AccessGate::isSuperUser(const std::string *accessKey) const
{
    if (!store_ || !accessKey)
        return false;
    const std::optional<User> user = store_->user(*accessKey);
    return user && user->super && user->enabled;
}

} // namespace mqdesk::acl
