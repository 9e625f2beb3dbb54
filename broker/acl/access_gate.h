#pragma once

// Every remoting request a server (broker or NameServer) receives passes here before its
// processor, whether access control is on or not:
//
//  1. the request table (request_table.h) must know the code, and list this server as serving
//     it; else REQUEST_CODE_NOT_SUPPORTED, with a log line (rate-limited) naming code and peer;
//  2. the table's checks are built (a body that cannot be read is refused NO_PERMISSION, as
//     Java's "parse authorization context error");
//  3. the plain ACL (aclEnable, plain_acl.yml) when on;
//  4. ACL 2.0 authentication (authenticationEnabled): the AccessKey must name an enabled user and
//     the Signature be the HMAC of the request under its password;
//  5. ACL 2.0 authorization (authorizationEnabled): a Super user passes; a Normal user needs
//     every check granted by its policies. On the NameServer, which Java leaves open, the
//     requests that change it (a check on the cluster with Update) need a Super user and the
//     others only authentication — route lookups included, which never create topics.
//
// With both ACLs on, both apply (Java 5.3.0–5.3.2). Refusals are NO_PERMISSION with Java's words,
// each logged (rate-limited) with code, peer and AccessKey;
// ACL 2.0 decisions are written as Java's audit lines ([AUTHENTICATION] …, [AUTHORIZATION] …,
// failures and denials at info, successes at debug) to the "RocketmqAuthAudit" logger.
//
// Thread-safe: check() runs on every processor executor at once.

#include "broker/acl/request_table.h"
#include "broker/acl/acl_signer.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::remoting {
struct RemotingCommand;
}

namespace mqdesk::acl {

class AuthStore;
class PlainAccessValidator;

// The ACL 2.0 keys of broker.conf (Java's AuthConfig).
struct AuthConfig
{
    bool authenticationEnabled = false;
    bool authorizationEnabled = false;
    std::string initAuthenticationUser;               // {"username":..,"password":..}
    std::string innerClientAuthenticationCredentials; // {"accessKey":..,"secretKey":..}
    std::string authenticationWhitelist;              // comma-separated rpc codes
    std::string authorizationWhitelist;
    bool migrateAuthFromV1Enabled = false;

    bool enabled() const { return authenticationEnabled || authorizationEnabled; }
    // innerClientAuthenticationCredentials as credentials to sign with; empty when unset.
    Credentials innerCredentials() const;
};

// Parses initAuthenticationUser / innerClientAuthenticationCredentials JSON: the two named
// string members. False with `error` naming the key.
bool parseCredentialJson(const std::string &key, const std::string &json, std::string_view userMember,
                         std::string_view passwordMember, std::string &user, std::string &password,
                         std::string &error);

enum class ServerRole { Broker, Namesrv };

class AccessGate
{
public:
    struct Refusal
    {
        int32_t code = 0;
        std::string remark;
    };

    // `plain` and `store` may be null (that ACL off); they must outlive the gate.
    AccessGate(ServerRole role, std::string clusterName, PlainAccessValidator *plain, AuthStore *store,
               AuthConfig config);
    ~AccessGate();

    std::optional<Refusal> check(const remoting::RemotingCommand &request, std::string_view peerAddress) const;

    // Steps 4–5 for a request of another protocol (the gRPC endpoint): `rpc` names it for the
    // whitelists and the audit lines. nullopt when allowed, else the reason.
    std::optional<std::string> authenticate(const std::string *accessKey,
                                            const std::function<bool(std::string_view secret)> &signedWith,
                                            std::string_view signature, std::string_view rpc) const;
    std::optional<std::string> authorize(const std::string *accessKey, const std::vector<Check> &checks,
                                         std::string_view host, std::string_view rpc) const;

    const AuthConfig &config() const { return config_; }
    AuthStore *store() const { return store_; }
    // The caller's user when the request names one that exists (the admin requests' extra rules).
    bool isSuperUser(const std::string *accessKey) const;

private:
    std::optional<Refusal> checkUnlogged(const remoting::RemotingCommand &request, std::string_view peerAddress) const;
    std::optional<std::string> authorizeOnNamesrv(const std::string *accessKey, const std::vector<Check> &checks,
                                                  std::string_view rpc) const;

    const ServerRole role_;
    const std::string clusterName_;
    PlainAccessValidator *const plain_;
    AuthStore *const store_;
    const AuthConfig config_;
    std::set<std::string, std::less<>> authenticationWhitelist_;
    std::set<std::string, std::less<>> authorizationWhitelist_;
};

} // namespace mqdesk::acl
