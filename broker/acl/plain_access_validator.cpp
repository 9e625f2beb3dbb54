#include "broker/acl/plain_access_validator.h"

#include "broker/acl/acl_signer.h"
#include "broker/acl/request_table.h"
#include "broker/remoting/remoting_codes.h"

#include <openssl/crypto.h>
#include <spdlog/spdlog.h>

#include <sys/stat.h>

#include <chrono>
#include <map>

namespace mqdesk::acl {

using remoting::RequestCode;

namespace {

constexpr const char *kRetryPrefix = "%RETRY%";
constexpr const char *kTraceTopic = "RMQ_SYS_TRACE_TOPIC";
constexpr int64_t kStatIntervalMillis = 1000;

// PlainPermissionManager.checkPerm after the admin check.
std::optional<std::string> checkResources(const AccessRequest &needed, const PlainAccount &owned)
{
    if (owned.resourcePerms.empty() && owned.admin)
        return std::nullopt;
    for (const auto &[resource, neededPerm] : needed.resources) {
        const bool isGroup = resource.starts_with(kRetryPrefix);
        const auto it = owned.resourcePerms.find(resource);
        const uint8_t ownedPerm = it != owned.resourcePerms.end() ? it->second
                                  : isGroup                         ? owned.defaultGroupPerm
                                                                    : owned.defaultTopicPerm;
        if (!checkPermission(neededPerm, ownedPerm)) {
            // PlainAccessResource.printStr: "group:<name>" or "topic:<name>".
            const std::string printed = isGroup ? "group:" + resource.substr(std::char_traits<char>::length(kRetryPrefix))
                                                : "topic:" + resource;
            return "No default permission for " + printed;
        }
    }
    return std::nullopt;
}

bool signatureMatches(const std::string &expected, const std::string *given)
{
    return given && given->size() == expected.size() && CRYPTO_memcmp(given->data(), expected.data(), expected.size()) == 0;
}

int64_t steadyMillis()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

void AccessRequest::needTopic(const std::string *topic, uint8_t permission)
{
    if (topic)
        resources[*topic] = permission;
}

void AccessRequest::needGroup(const std::string *group, uint8_t permission)
{
    if (group)
        resources[kRetryPrefix + *group] = permission;
}

void AccessRequest::need(const Check &check)
{
    // The plain ACL knows PUB, SUB and admin: a read of a topic or group (Get) needs either
    // right on it; creating, changing or deleting it, and anything on the cluster, needs admin.
    const uint16_t data = action::kPub | action::kSub | action::kGet;
    if (check.type == ResourceType::Cluster || (check.actions & data) == 0) {
        needsAdmin = true;
        return;
    }
    uint8_t permission = 0;
    if (check.actions & action::kPub)
        permission |= perm::kPub;
    if (check.actions & action::kSub)
        permission |= perm::kSub;
    if ((check.actions & action::kGet) || permission == (perm::kPub | perm::kSub))
        permission = perm::kAny;
    if (check.type == ResourceType::Topic)
        needTopic(&check.name, permission);
    else if (check.type == ResourceType::Group)
        needGroup(&check.name, permission);
}

PlainAccessValidator::PlainAccessValidator(std::string path) : path_(std::move(path)) {}

std::optional<PlainAccessValidator::FileStamp> PlainAccessValidator::stampOf() const
{
    std::error_code ec;
    FileStamp stamp;
    stamp.time = std::filesystem::last_write_time(path_, ec);
    if (ec)
        return std::nullopt;
    stamp.size = std::filesystem::file_size(path_, ec);
    if (ec)
        return std::nullopt;
    struct stat info {};
    if (::stat(path_.c_str(), &info) == 0)
        stamp.inode = static_cast<uint64_t>(info.st_ino);
    return stamp;
}

bool PlainAccessValidator::load(std::string &error)
{
    const auto stamp = stampOf();
    if (!stamp) {
        error = "aclEnable=true but " + path_ + " does not exist (write plain_acl.yml there or set plainAclFile)";
        return false;
    }
    auto config = std::make_shared<PlainAclConfig>();
    if (!PlainAclConfig::load(path_, *config, error))
        return false;
    std::lock_guard lock(mutex_);
    config_ = std::move(config);
    stamp_ = stamp;
    lastStatMillis_.store(steadyMillis(), std::memory_order_relaxed);
    return true;
}

bool PlainAccessValidator::reloadIfChanged()
{
    const auto stamp = stampOf();
    {
        std::lock_guard lock(mutex_);
        if (stamp == stamp_)
            return false;
        // Remembered before parsing, so a broken file is reported once, not on every look.
        stamp_ = stamp;
    }
    if (!stamp) {
        spdlog::error("acl: {} is gone; the rules read before stay in force", path_);
        return false;
    }
    auto config = std::make_shared<PlainAclConfig>();
    std::string error;
    if (!PlainAclConfig::load(path_, *config, error)) {
        spdlog::error("acl: {}; the rules read before stay in force", error);
        return false;
    }
    std::lock_guard lock(mutex_);
    config_ = std::move(config);
    spdlog::info("acl: reloaded {} ({} accounts)", path_, config_->accounts.size());
    return true;
}

std::shared_ptr<const PlainAclConfig> PlainAccessValidator::config() const
{
    std::lock_guard lock(mutex_);
    return config_;
}

std::optional<std::string> PlainAccessValidator::check(const remoting::RemotingCommand &request,
                                                       std::string_view peerAddress, const std::vector<Check> &checks)
{
    AccessRequest access;
    access.peerAddress = peerAddress;
    access.accessKey = request.extFields.find(kAccessKeyField);
    access.requestCode = request.code;
    access.signedWith = [&request](std::string_view secretKey) {
        const bool oldClient = request.version <= kVersionV4_9_3;
        const std::string expected = calSignature(signedContent(request.extFields, request.body, oldClient), secretKey);
        return signatureMatches(expected, request.extFields.find(kSignatureField));
    };
    for (const Check &needed : checks)
        access.need(needed);
    return validate(access);
}

std::optional<std::string> PlainAccessValidator::validate(const AccessRequest &request)
{
    const int64_t now = steadyMillis();
    int64_t last = lastStatMillis_.load(std::memory_order_relaxed);
    if (now - last >= kStatIntervalMillis && lastStatMillis_.compare_exchange_strong(last, now))
        reloadIfChanged();
    const std::shared_ptr<const PlainAclConfig> config = this->config();
    if (!config)
        return "No acl config loaded";

    const std::string host = peerHost(request.peerAddress);
    for (const RemoteAddressStrategy &white : config->globalWhiteRemoteAddresses) {
        if (white.match(host))
            return std::nullopt;
    }
    const std::string *accessKey = request.accessKey;
    if (!accessKey)
        return "No accessKey is configured";
    const auto account = config->accounts.find(*accessKey);
    if (account == config->accounts.end())
        return "No acl config for " + *accessKey;
    const PlainAccount &owned = account->second;
    if (owned.whiteRemoteAddress.match(host))
        return std::nullopt;
    if (!request.signedWith || !request.signedWith(owned.secretKey))
        return "Check signature failed for accessKey=" + *accessKey;

    // Message trace records go to RMQ_SYS_TRACE_TOPIC with PUB whatever the account's rights.
    if (const auto trace = request.resources.find(kTraceTopic);
        trace != request.resources.end() && trace->second == perm::kPub)
        return std::nullopt;
    if (request.needsAdmin && !owned.admin) {
        return "Need admin permission for request code=" + std::to_string(request.requestCode) + ", but accessKey="
               + *accessKey + " is not";
    }
    return checkResources(request, owned);
}

} // namespace mqdesk::acl
