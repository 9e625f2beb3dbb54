#pragma once

// RocketMQ's PlainAccessValidator (acl/plain, 4.9, with _UNIQUE_KEY_QUERY left out of the signed
// content only for clients up to 4.9.3 as 5.x does). For each request: a peer matching
// globalWhiteRemoteAddresses passes; else the request must carry an AccessKey of plain_acl.yml; a
// peer matching that account's whiteRemoteAddress passes; else the Signature must match, and the
// checks the request table (request_table.h) builds for the code must hold: each topic / group
// it names needs PUB or SUB as the check says (a read needs either; explicit or the default),
// and creating, changing or deleting a topic or group, or anything on the cluster, needs
// admin: true. Java 4.9 checked only the dozen codes of its switch; every code is checked here.
//
// Refusals carry Java's words ("No accessKey is configured", "No acl config for X", "Check
// signature failed for accessKey=X", "Need admin permission for request code=17, but
// accessKey=X is not", "No default permission for topic:X"). The file is re-read when it changes
// (looked at no more than once a second, from the request path); a changed file that does not
// parse keeps the previous rules and is logged once.
//
// Thread-safe: check() runs concurrently on every processor executor.

#include "broker/acl/plain_acl_config.h"
#include "broker/remoting/remoting_command.h"

#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mqdesk::acl {

struct Check;

// What one request asks of the ACL, whichever protocol carried it (PlainAccessResource): who
// sends it, from where, whether it is signed by them, and the topics and groups it names.
struct AccessRequest
{
    std::string_view peerAddress;           // "host:port"
    const std::string *accessKey = nullptr; // null when the request names none
    // Whether the request's signature is the one `secretKey` makes of what the request signed.
    std::function<bool(std::string_view secretKey)> signedWith;
    int32_t requestCode = 0; // remoting code, named in the admin refusal; 0 when there is none
    bool needsAdmin = false; // creates, changes or deletes something, or acts on the cluster
    // Resource -> needed permission: a topic by its name, a group as %RETRY%<group>. A later need
    // for the same resource replaces the earlier one, as Java's HashMap does.
    std::map<std::string, uint8_t> resources;

    void needTopic(const std::string *topic, uint8_t permission);
    void needGroup(const std::string *group, uint8_t permission);
    // One check of the request table in the plain ACL's terms (PUB, SUB, either, or admin).
    void need(const Check &check);
};

class PlainAccessValidator
{
public:
    explicit PlainAccessValidator(std::string path);

    // Reads the file; false with `error` naming file and line when it is missing or invalid.
    bool load(std::string &error);
    const std::string &path() const { return path_; }

    // nullopt when the request may proceed; else the refusal's remark. `checks` are what the
    // request table asks of it (buildChecks).
    std::optional<std::string> check(const remoting::RemotingCommand &request, std::string_view peerAddress,
                                     const std::vector<Check> &checks);
    // PlainPermissionManager.validate over any protocol's request (check() builds one for a
    // remoting request; the gRPC endpoint for each RPC).
    std::optional<std::string> validate(const AccessRequest &request);

    // Re-reads the file if its size, time or inode changed; true when new rules are in force.
    // check() calls it at most once a second; tests call it directly.
    bool reloadIfChanged();

private:
    struct FileStamp
    {
        std::filesystem::file_time_type time{};
        uintmax_t size = 0;
        uint64_t inode = 0;
        bool operator==(const FileStamp &) const = default;
    };
    std::optional<FileStamp> stampOf() const;
    std::shared_ptr<const PlainAclConfig> config() const;

    const std::string path_;
    mutable std::mutex mutex_;
    std::shared_ptr<const PlainAclConfig> config_; // guarded by mutex_
    std::optional<FileStamp> stamp_;               // guarded by mutex_
    std::atomic<int64_t> lastStatMillis_{0};
};

} // namespace mqdesk::acl
