#include "broker/acl/auth_store.h"

#include "broker/common/json.h"
#include "broker/store/config/config_file.h"

#include <algorithm>

namespace mqdesk::acl {

namespace {

constexpr std::string_view kUserSubjectPrefix = "User:";
constexpr const char *kRetryGroupPrefix = "%RETRY%";

bool validUsername(const std::string &name, std::string &error)
{
    if (name.empty() || name.find_first_of(" \t\r\n:\0", 0, 6) != std::string::npos || name.size() > 255) {
        error = "username '" + name + "' is blank, too long or holds a space, ':' or a control character";
        return false;
    }
    return true;
}

bool validSubject(const std::string &subject, std::string &error)
{
    if (!subject.starts_with(kUserSubjectPrefix)) {
        error = "subject '" + subject + "' is not User:<username>";
        return false;
    }
    return validUsername(subject.substr(kUserSubjectPrefix.size()), error);
}

std::string encode(const std::map<std::string, User> &users, const std::map<std::string, Acl> &acls)
{
    common::JsonArray userArray, aclArray;
    for (const auto &[name, user] : users)
        userArray.push_back(userToJson(user));
    for (const auto &[subject, acl] : acls)
        aclArray.push_back(aclToJson(acl));
    common::JsonObject root;
    root.set("users", common::JsonValue(std::move(userArray)));
    root.set("acls", common::JsonValue(std::move(aclArray)));
    return toFastjsonPretty(common::JsonValue(std::move(root)));
}

} // namespace

class AuthStore::File : public store::ConfigFile
{
public:
    using ConfigFile::ConfigFile;
};

AuthStore::AuthStore(std::string path)
    : file_(std::make_unique<File>(std::move(path))), state_(std::make_shared<const State>())
{
    file_->setFileMode(0600);
}

AuthStore::~AuthStore() = default;

const std::string &AuthStore::path() const
{
    return file_->path();
}

bool AuthStore::open(std::string &error)
{
    std::lock_guard write(writeMutex_);
    auto state = std::make_shared<State>();
    store::ConfigLoadInfo info;
    const auto decode = [&](const common::JsonValue &root, std::string &why) {
        State loaded;
        if (!root.isObject()) {
            why = "expected an object";
            return false;
        }
        if (const common::JsonValue *users = root.asObject().find("users"); users && users->isArray()) {
            for (const common::JsonValue &value : users->asArray()) {
                User user;
                if (!userFromJson(value, user, why) || !validUsername(user.username, why))
                    return false;
                loaded.users[user.username] = user;
            }
        }
        if (const common::JsonValue *acls = root.asObject().find("acls"); acls && acls->isArray()) {
            for (const common::JsonValue &value : acls->asArray()) {
                Acl acl;
                if (!aclFromJson(value, acl, why) || !validSubject(acl.subject, why))
                    return false;
                loaded.acls[acl.subject] = std::move(acl);
            }
        }
        *state = std::move(loaded);
        return true;
    };
    if (!file_->load(decode, info, error))
        return false;
    loadWarning_ = info.warning;
    std::lock_guard lock(stateMutex_);
    state_ = std::move(state);
    return true;
}

std::shared_ptr<const AuthStore::State> AuthStore::snapshot() const
{
    std::lock_guard lock(stateMutex_);
    return state_;
}

bool AuthStore::commit(const std::function<bool(State &, std::string &)> &change, std::string &error)
{
    auto next = std::make_shared<State>(*snapshot());
    if (!change(*next, error))
        return false;
    if (!file_->store(encode(next->users, next->acls), error))
        return false;
    std::lock_guard lock(stateMutex_);
    state_ = std::move(next);
    return true;
}

bool AuthStore::createUser(const User &user, std::string &error)
{
    if (!validUsername(user.username, error))
        return false;
    if (user.password.empty()) {
        error = "password of user " + user.username + " is blank";
        return false;
    }
    std::lock_guard write(writeMutex_);
    return commit(
        [&](State &state, std::string &why) {
            if (state.users.contains(user.username)) {
                why = "The user is existed";
                return false;
            }
            state.users[user.username] = user;
            return true;
        },
        error);
}

bool AuthStore::updateUser(const User &user, std::string &error)
{
    std::lock_guard write(writeMutex_);
    return commit(
        [&](State &state, std::string &why) {
            const auto it = state.users.find(user.username);
            if (it == state.users.end()) {
                why = "The user is not exist";
                return false;
            }
            it->second = user;
            return true;
        },
        error);
}

bool AuthStore::deleteUser(const std::string &username, std::string &error)
{
    std::lock_guard write(writeMutex_);
    return commit(
        [&](State &state, std::string &) {
            // Java: deleting an unknown user is a success that changes nothing.
            state.users.erase(username);
            state.acls.erase(std::string(kUserSubjectPrefix) + username);
            return true;
        },
        error);
}

std::optional<User> AuthStore::user(const std::string &username) const
{
    const auto state = snapshot();
    const auto it = state->users.find(username);
    return it == state->users.end() ? std::nullopt : std::optional<User>(it->second);
}

std::vector<User> AuthStore::users(const std::string &filter) const
{
    std::vector<User> out;
    for (const auto &[name, user] : snapshot()->users)
        if (filter.empty() || name.find(filter) != std::string::npos)
            out.push_back(user);
    return out;
}

bool AuthStore::createAcl(const Acl &acl, std::string &error)
{
    if (!validSubject(acl.subject, error))
        return false;
    std::lock_guard write(writeMutex_);
    return commit(
        [&](State &state, std::string &why) {
            if (!state.users.contains(acl.subject.substr(kUserSubjectPrefix.size()))) {
                why = "The subject of " + acl.subject + " is not exist.";
                return false;
            }
            Acl &kept = state.acls[acl.subject];
            kept.subject = acl.subject;
            for (const Policy &policy : acl.policies) {
                Policy *target = kept.policy(policy.isDefault);
                if (!target) {
                    kept.policies.push_back(Policy{policy.isDefault, {}});
                    target = &kept.policies.back();
                }
                for (const PolicyEntry &entry : policy.entries) {
                    const std::string key = entry.resourceKey();
                    std::erase_if(target->entries, [&](const PolicyEntry &e) { return e.resourceKey() == key; });
                    target->entries.push_back(entry);
                }
            }
            return true;
        },
        error);
}

bool AuthStore::deleteAcl(const std::string &subject, const std::string &policyType, const std::string &resource,
                          std::string &error)
{
    std::lock_guard write(writeMutex_);
    return commit(
        [&](State &state, std::string &why) {
            if (!subject.starts_with(kUserSubjectPrefix)) {
                why = "The subject is null.";
                return false;
            }
            if (!state.users.contains(subject.substr(kUserSubjectPrefix.size()))) {
                why = "The subject is not exist.";
                return false;
            }
            const auto it = state.acls.find(subject);
            if (it == state.acls.end()) {
                why = "The acl is not exist.";
                return false;
            }
            if (resource.empty()) {
                state.acls.erase(it);
                return true;
            }
            PolicyEntry wanted;
            if (!parseResource(resource, wanted, why))
                return false;
            const bool isDefault = policyType == "Default" || policyType == "DEFAULT" || policyType == "default";
            if (Policy *policy = it->second.policy(isDefault)) {
                std::erase_if(policy->entries,
                              [&](const PolicyEntry &e) { return e.resourceKey() == wanted.resourceKey(); });
                if (policy->entries.empty())
                    std::erase_if(it->second.policies, [&](const Policy &p) { return p.isDefault == isDefault; });
            }
            if (it->second.policies.empty())
                state.acls.erase(it);
            return true;
        },
        error);
}

std::optional<Acl> AuthStore::acl(const std::string &subject) const
{
    const auto state = snapshot();
    const auto it = state->acls.find(subject);
    return it == state->acls.end() ? std::nullopt : std::optional<Acl>(it->second);
}

std::vector<Acl> AuthStore::acls(const std::string &subjectFilter, const std::string &resourceFilter) const
{
    std::vector<Acl> out;
    for (const auto &[subject, acl] : snapshot()->acls) {
        if (!subjectFilter.empty() && subject.find(subjectFilter) == std::string::npos)
            continue;
        if (resourceFilter.empty()) {
            out.push_back(acl);
            continue;
        }
        Acl filtered{acl.subject, {}};
        for (const Policy &policy : acl.policies) {
            Policy kept{policy.isDefault, {}};
            for (const PolicyEntry &entry : policy.entries)
                if (entry.resourceKey().find(resourceFilter) != std::string::npos)
                    kept.entries.push_back(entry);
            if (!kept.entries.empty())
                filtered.policies.push_back(std::move(kept));
        }
        if (!filtered.policies.empty())
            out.push_back(std::move(filtered));
    }
    return out;
}

bool AuthStore::ensureSuperUser(const std::string &username, const std::string &password, std::string &error)
{
    if (user(username))
        return true;
    return createUser(User{username, password, true, true}, error) || user(username).has_value();
}

bool AuthStore::importMissing(const std::vector<User> &users, const std::vector<Acl> &acls, std::string &error)
{
    std::lock_guard write(writeMutex_);
    return commit(
        [&](State &state, std::string &) {
            for (const User &user : users)
                state.users.try_emplace(user.username, user);
            for (const Acl &acl : acls)
                state.acls.try_emplace(acl.subject, acl);
            return true;
        },
        error);
}

} // namespace mqdesk::acl

#include "broker/acl/plain_acl_config.h"

namespace mqdesk::acl {

namespace {

PolicyEntry migratedEntry(ResourceType type, const std::string &name, uint8_t permission)
{
    PolicyEntry entry;
    entry.type = type;
    entry.pattern = name.empty() ? ResourcePattern::Any : ResourcePattern::Literal;
    entry.name = name;
    if (permission & perm::kDeny) {
        entry.actions = action::kAll;
        entry.allow = false;
    } else if (permission == perm::kPub || permission == perm::kSub || permission == (perm::kPub | perm::kSub)) {
        entry.actions = static_cast<uint16_t>(((permission & perm::kPub) ? action::kPub : 0)
                                              | ((permission & perm::kSub) ? action::kSub : 0));
    } else {
        entry.actions = action::kAll;
    }
    return entry;
}

} // namespace

void migrateFromPlainAcl(const PlainAclConfig &config, std::vector<User> &users, std::vector<Acl> &acls)
{
    for (const auto &[accessKey, account] : config.accounts) {
        users.push_back(User{accessKey, account.secretKey, account.admin, true});
        Acl acl{"User:" + accessKey, {}};
        Policy custom{false, {}};
        for (const auto &[resource, permission] : account.resourcePerms) {
            const bool group = resource.starts_with(kRetryGroupPrefix);
            custom.entries.push_back(migratedEntry(group ? ResourceType::Group : ResourceType::Topic,
                                                   group ? resource.substr(std::string_view(kRetryGroupPrefix).size())
                                                         : resource,
                                                   permission));
        }
        if (!custom.entries.empty())
            acl.policies.push_back(std::move(custom));
        acl.policies.push_back(Policy{true,
                                      {migratedEntry(ResourceType::Topic, {}, account.defaultTopicPerm),
                                       migratedEntry(ResourceType::Group, {}, account.defaultGroupPerm)}});
        acls.push_back(std::move(acl));
    }
}

} // namespace mqdesk::acl
