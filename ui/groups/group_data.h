#pragma once

// What the Consumer groups view shows, fetched with blocking client calls (run them off the GUI
// thread, through ClusterConnection::run). Built for ~2,500 groups: the list costs one
// GET_ALL_SUBSCRIPTIONGROUP_CONFIG (201) and one GET_ALL_CONSUMER_OFFSET (43) per master, plus
// one GET_TOPIC_STATS_INFO (202) per consumed topic and master for the lag — never a request
// per group × queue. Online clients are a per-group question (GET_CONSUMER_CONNECTION_LIST has
// no bulk form), so they are a second, separate pass.

#include "broker/client/admin_client.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mqdesk::ui {

struct GroupSummary
{
    std::string name;
    std::vector<std::string> topics; // consumed (offsets committed), retry topics left out
    int64_t totalLag = 0;
    std::optional<client::SubscriptionGroupConfig> config; // empty: offsets without a config
};

struct GroupsSnapshot
{
    std::vector<GroupSummary> groups;    // sorted by name
    std::vector<std::string> brokers;    // master addresses asked
    std::vector<std::string> errors;     // failures; what did answer is still listed
};

// RocketMQ's own groups (TOOLS_CONSUMER, CID_RMQ_SYS_TRANS, …), hidden unless asked for.
bool isSystemGroup(const std::string &group);

// The groups of every master, their consumed topics and total lag.
GroupsSnapshot fetchGroups(client::AdminClient &admin);

struct GroupPresence
{
    int clients = 0;
    std::string consumeType;  // CONSUME_ACTIVELY (pull) / CONSUME_PASSIVELY (push); empty offline
    std::string messageModel; // CLUSTERING / BROADCASTING; empty offline
};

// Online clients of each of `groups` on `brokers` (GET_CONSUMER_CONNECTION_LIST per group).
std::map<std::string, GroupPresence> fetchPresence(client::AdminClient &admin, const std::vector<std::string> &brokers,
                                                   const std::vector<std::string> &groups);

struct QueueLag
{
    client::MessageQueue queue;
    int64_t brokerOffset = 0;
    int64_t consumerOffset = 0;
    int64_t lastTimestamp = 0; // store time of the last consumed message, 0 unknown
    int64_t lag() const { return brokerOffset > consumerOffset ? brokerOffset - consumerOffset : 0; }
};

// What the brokers' statistics (VIEW_BROKER_STATS_DATA, Java's BrokerStatsManager) say the
// group took from one topic, summed over the topic's masters.
struct TopicTraffic
{
    std::string topic;
    client::AdminClient::BrokerStats messages; // GROUP_GET_NUMS
    client::AdminClient::BrokerStats bytes;    // GROUP_GET_SIZE
};

struct GroupDetail
{
    std::string group;
    std::vector<QueueLag> queues; // sorted by topic, broker, queue
    std::string queuesError;
    std::optional<remoting::ConsumerConnection> connection; // empty: not online
    std::string connectionError;
    // RocketMQ 5 POP figures (MQDesk brokers; empty when the broker does not report them).
    std::optional<client::PopStats> pop;
    double consumeTps = 0;             // GET_CONSUME_STATS's, the brokers' last minute
    std::vector<TopicTraffic> traffic; // per consumed topic, sorted; topics never counted left out
    std::string trafficError;
    // A lite group (RocketMQ 5.5, lite.bind.topic): its lag and its online clients' lite topics.
    std::optional<client::LiteGroupView> lite;
    std::string liteError;
};

// The group's traffic per topic of `topics` (one VIEW_BROKER_STATS_DATA per topic, master and
// figure; a broker that never counted the key is skipped, not a failure).
std::vector<TopicTraffic> fetchGroupTraffic(client::AdminClient &admin, const std::string &group,
                                            const std::vector<std::string> &topics, std::string &error);

// `liteParent`: the topic a lite group is bound to (its lite.bind.topic attribute), else empty.
GroupDetail fetchGroupDetail(client::AdminClient &admin, const std::string &group, const std::string &liteParent = {});

enum class ResetTarget { Earliest, Latest, ByTime };

struct ResetOutcome
{
    std::map<client::MessageQueue, int64_t> written;
    std::string error; // empty on success
    // Some offsets were written with UPDATE_CONSUMER_OFFSET although the reset was meant to go
    // through the online clients: a broker answered that none was online any more.
    bool wroteDirectly = false;
};

// Moves the group's committed offset of every readable queue of `topics` to the queue's first
// or next-to-be-written offset, or (ByTime) the offset of the first message stored at
// `timestampMillis` or later. With `throughOnlineClients` (push consumers online, which would
// commit their old position over a write) each master gets INVOKE_BROKER_TO_RESET_OFFSET and
// tells the clients; otherwise the offsets are written with UPDATE_CONSUMER_OFFSET (offline
// groups, pull consumers). A broker answering CONSUMER_NOT_ONLINE (the clients left since the
// list was fetched; the Java broker answers so for any group without clients) gets the offsets
// written instead, as mqadmin's resetOffsetByTime does. Stops at the first failure, reporting
// what was already done.
ResetOutcome resetGroupOffsets(client::AdminClient &admin, const std::string &group,
                               const std::vector<std::string> &topics, ResetTarget target, int64_t timestampMillis,
                               bool throughOnlineClients = false);

} // namespace mqdesk::ui
