#pragma once

// ACL 2.0's users and ACLs, kept in one crash-safe JSON file in the store's config folder
// (`<store>/config/auth.json`, written as every broker config file is: .tmp, fsync, .bak, rename;
// mode 0600 because the passwords are the HMAC keys and must be kept as given).
//
// Why not RocksDB as Java: the data is a few users and policies, read at every request but
// written only by the admin requests 3001–3010; a JSON file read whole at start and rewritten
// whole on each change is crash-safe with the store's own ConfigFile, readable by an operator,
// and needs no second storage engine. The file is MQDesk's; Java's RocksDB files are not read.
//
// Thread-safe: the state is an immutable snapshot swapped under a mutex; readers (every request)
// take the snapshot without waiting on a writer's fsync.

#include "broker/acl/auth_model.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mqdesk::acl {

class AuthStore
{
public:
    explicit AuthStore(std::string path);
    ~AuthStore();

    // Reads the file (or its .bak); a missing file is an empty store. False with `error` naming
    // the file and member when it cannot be read.
    bool open(std::string &error);
    // Why open() skipped the file for its .bak (naming it); empty when it read the file.
    const std::string &loadWarning() const { return loadWarning_; }
    const std::string &path() const;

    // The admin operations (3001–3010). False with `error` in Java's words; nothing changes then.
    // A change is on disk (fsynced) when these return true.
    bool createUser(const User &user, std::string &error);
    bool updateUser(const User &user, std::string &error); // empty password/type/status keep theirs
    bool deleteUser(const std::string &username, std::string &error); // also drops its ACL
    std::optional<User> user(const std::string &username) const;
    std::vector<User> users(const std::string &filter = {}) const; // filter: substring of the name

    // Adds the entries (an entry for a resource already in the subject's policy replaces it).
    bool createAcl(const Acl &acl, std::string &error);
    bool updateAcl(const Acl &acl, std::string &error) { return createAcl(acl, error); }
    // Removes the subject's entries for `resource` in `policyType` (Custom when empty); all of
    // the subject's policies when `resource` is empty.
    bool deleteAcl(const std::string &subject, const std::string &policyType, const std::string &resource,
                   std::string &error);
    std::optional<Acl> acl(const std::string &subject) const;
    std::vector<Acl> acls(const std::string &subjectFilter = {}, const std::string &resourceFilter = {}) const;

    // Creates `user` as Super when no user of that name exists (initAuthenticationUser,
    // innerClientAuthenticationCredentials); keeps an existing one as it is.
    bool ensureSuperUser(const std::string &username, const std::string &password, std::string &error);
    // Users and ACLs imported from plain_acl.yml (migrateAuthFromV1Enabled): added where absent.
    bool importMissing(const std::vector<User> &users, const std::vector<Acl> &acls, std::string &error);

private:
    struct State
    {
        std::map<std::string, User> users;
        std::map<std::string, Acl> acls; // by subject
    };
    std::shared_ptr<const State> snapshot() const;
    // Applies `change` to a copy, persists it, then publishes it. Requires: writeMutex_ held.
    bool commit(const std::function<bool(State &, std::string &)> &change, std::string &error);

    class File;
    std::unique_ptr<File> file_;
    mutable std::mutex writeMutex_;  // serialises changes and their fsyncs
    mutable std::mutex stateMutex_;  // guards state_ (the pointer only)
    std::shared_ptr<const State> state_;
    std::string loadWarning_; // set by open()
};

} // namespace mqdesk::acl

namespace mqdesk::acl {

struct PlainAclConfig;

// ACL 1.0 → 2.0 as Java's AuthMigrator maps it: each account a user (admin: Super), its topic
// and group permissions a Custom policy (PUB → Pub, SUB → Sub, PUB|SUB → Pub,Sub, DENY → All
// denied, else All allowed), its default permissions a Default policy (Topic:*, Group:*). White
// addresses are not carried over (Java neither).
void migrateFromPlainAcl(const PlainAclConfig &config, std::vector<User> &users, std::vector<Acl> &acls);

} // namespace mqdesk::acl
