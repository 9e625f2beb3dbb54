#pragma once

// The network commands of mqdesk-admin (mqadmin's names and flag letters) share one options
// struct, filled by CLI11, and one AdminSession, which owns the client and reports failures.
//
// Exit status: 0 success; 1 a request failed, or what was asked for does not exist (the message
// on stderr names the command, the address, the topic or group and the broker's remark);
// 2 usage (a bad or missing flag, no NameServer address).

#include "broker/client/admin_client.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace CLI {
class App;
}

namespace mqdesk::admin {

class AdminSession;

struct AdminOptions
{
    // Global.
    std::string namesrv; // -n, else NAMESRV_ADDR
    bool json = false;
    int64_t timeoutMillis = 3000;
    acl::Credentials credentials; // --access-key / --secret-key, else ROCKETMQ_ACCESS_KEY / _SECRET_KEY
    bool tls = false;             // --tls: as mqadmin with -Dtls.enable=true
    std::string tlsCaFile;        // --tls-ca: verify the servers' certificates with these CAs

    // The chosen command.
    std::string command;
    std::function<int(AdminSession &)> run;

    // Per command; each command binds the ones it takes.
    std::string topic;
    std::string cluster;
    std::string brokerAddr;  // -b on the config, topic and group commands
    std::string brokerName;  // -b on the message commands
    std::string group;
    std::string key;
    std::string value;
    std::string body;
    std::string tags;
    std::string keys;
    std::string id;         // -i: a message id or unique key
    std::string timestamp;  // resetOffsetByTime -s
    int32_t queueId = -1;
    int64_t offset = -1;
    int32_t count = 128;    // consumeMessage -c
    std::string consumerGroup = "TOOLS_CONSUMER"; // consumeMessage -g: the group pulls are made as
    int32_t maxNum = 32;    // queryMsgByKey -c
    int64_t beginTimestamp = 0;
    int64_t endTimestamp = INT64_MAX;
    int32_t readQueueNums = 8;
    int32_t writeQueueNums = 8;
    int32_t perm = 6;
    bool order = false;
    std::string attributes; // updateTopic -a: "+message.type=FIFO,-reserve.time"
    bool force = true;
    bool removeOffset = false; // deleteSubGroup -r, false as in mqadmin
    bool withClusters = false; // topicList -c
    bool moreStats = false;    // clusterList -m
    client::SubscriptionGroupConfig subGroup;
};

inline constexpr int kAdminOk = 0;
inline constexpr int kAdminFailed = 1;
inline constexpr int kAdminUsage = 2;

class AdminSession
{
public:
    explicit AdminSession(const AdminOptions &options) : options_(options) {}
    ~AdminSession();

    const AdminOptions &options() const { return options_; }
    bool json() const { return options_.json; }
    client::ClientConfig clientConfig() const;
    // Created on first use and shut down with the session.
    client::AdminClient &admin();

    // False after printing a usage message when no NameServer address was given.
    bool requireNamesrv() const;
    // "mqdesk-admin <command>: <message>" on stderr; returns kAdminFailed.
    int fail(const std::string &message) const;
    int fail(const client::Status &status) const;
    // The same for a usage error; returns kAdminUsage.
    int usage(const std::string &message) const;

    // The broker addresses a -b / -c pair names: -b itself, else the masters of cluster -c.
    // Prints the failure (usage when neither or both are given) and returns false.
    bool targetBrokers(std::vector<std::string> &out, int &exitCode);

private:
    const AdminOptions &options_;
    std::unique_ptr<client::AdminClient> admin_;
};

// Adds subcommand `name` whose callback selects `run`.
CLI::App *addAdminCommand(CLI::App &app, AdminOptions &options, const std::string &name,
                          const std::string &description, int (*run)(AdminSession &));

// The command groups (cluster_commands.cpp, topic_commands.cpp, group_commands.cpp,
// message_commands.cpp, broker_commands.cpp).
void addClusterCommands(CLI::App &app, AdminOptions &options);
void addTopicCommands(CLI::App &app, AdminOptions &options);
void addGroupCommands(CLI::App &app, AdminOptions &options);
void addMessageCommands(CLI::App &app, AdminOptions &options);
void addBrokerCommands(CLI::App &app, AdminOptions &options);

} // namespace mqdesk::admin
