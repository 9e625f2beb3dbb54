// BrokerController::prepareAccessControl: the plain ACL, ACL 2.0's store and its first users,
// and the two gates (this broker's and its embedded NameServer's). See broker/acl/access_gate.h.

#include "broker/acl/access_gate.h"
#include "broker/acl/auth_store.h"
#include "broker/acl/plain_access_validator.h"
#include "broker/acl/plain_acl_config.h"
#include "broker/server/broker_controller.h"

#include <spdlog/spdlog.h>

#include <filesystem>

namespace mqdesk::server {

namespace {

acl::AuthConfig authConfigOf(const BrokerConfig &config)
{
    acl::AuthConfig auth;
    auth.authenticationEnabled = config.authenticationEnabled;
    auth.authorizationEnabled = config.authorizationEnabled;
    auth.initAuthenticationUser = config.initAuthenticationUser;
    auth.innerClientAuthenticationCredentials = config.innerClientAuthenticationCredentials;
    auth.authenticationWhitelist = config.authenticationWhitelist;
    auth.authorizationWhitelist = config.authorizationWhitelist;
    auth.migrateAuthFromV1Enabled = config.migrateAuthFromV1Enabled;
    return auth;
}

// initAuthenticationUser and innerClientAuthenticationCredentials become Super users when absent.
bool seedSuperUsers(const acl::AuthConfig &auth, acl::AuthStore &store, std::string &error)
{
    const std::pair<const char *, const std::string *> seeds[] = {
        {"initAuthenticationUser", &auth.initAuthenticationUser},
        {"innerClientAuthenticationCredentials", &auth.innerClientAuthenticationCredentials},
    };
    for (const auto &[key, json] : seeds) {
        if (json->empty())
            continue;
        const bool inner = std::string_view(key) == "innerClientAuthenticationCredentials";
        std::string user, password;
        if (!acl::parseCredentialJson(key, *json, inner ? "accessKey" : "username", inner ? "secretKey" : "password",
                                      user, password, error)
            || !store.ensureSuperUser(user, password, error))
            return false;
    }
    return true;
}

} // namespace

bool BrokerController::prepareAccessControl(std::string &error)
{
    if (gate_)
        return true;
    const BrokerConfig &config = settings_.broker;
    const std::string root = settings_.store.rootDir();
    if (config.aclEnable) {
        acl_ = std::make_unique<acl::PlainAccessValidator>(config.plainAclPath(root));
        if (!acl_->load(error)) {
            error = "broker: " + error;
            return false;
        }
        spdlog::info("broker: access control on, plain ACL rules from {}", acl_->path());
    }
    const acl::AuthConfig auth = authConfigOf(config);
    {
        // Always open: the admin requests 3001–3010 manage users before ACL 2.0 is switched on.
        std::error_code ec;
        std::filesystem::create_directories(root + "/config", ec);
        authStore_ = std::make_unique<acl::AuthStore>(root + "/config/auth.json");
        const bool opened = authStore_->open(error);
        if (opened)
            noteConfigLoad(authStore_->loadWarning());
        if (!opened || !seedSuperUsers(auth, *authStore_, error)) {
            error = "broker: ACL 2.0: " + error;
            return false;
        }
        if (auth.migrateAuthFromV1Enabled) {
            acl::PlainAclConfig plain;
            std::vector<acl::User> users;
            std::vector<acl::Acl> acls;
            if (!acl::PlainAclConfig::load(config.plainAclPath(root), plain, error)) {
                error = "broker: migrateAuthFromV1Enabled: " + error;
                return false;
            }
            acl::migrateFromPlainAcl(plain, users, acls);
            if (!authStore_->importMissing(users, acls, error)) {
                error = "broker: migrateAuthFromV1Enabled: " + error;
                return false;
            }
            spdlog::info("broker: imported {} accounts of {} into ACL 2.0 (existing users kept)", users.size(),
                         config.plainAclPath(root));
        }
        if (auth.enabled())
            spdlog::info("broker: access control on, ACL 2.0 authentication {}, authorization {}; users and policies in {}",
                         auth.authenticationEnabled ? "on" : "off", auth.authorizationEnabled ? "on" : "off",
                         authStore_->path());
    }
    acl::AuthStore *store = auth.enabled() ? authStore_.get() : nullptr;
    gate_ = std::make_shared<acl::AccessGate>(acl::ServerRole::Broker, config.brokerClusterName, acl_.get(), store, auth);
    namesrvGate_ =
        std::make_shared<acl::AccessGate>(acl::ServerRole::Namesrv, config.brokerClusterName, acl_.get(), store, auth);
    return true;
}

} // namespace mqdesk::server
