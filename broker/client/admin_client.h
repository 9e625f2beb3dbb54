#pragma once

// AdminClient: the console's view of a cluster through its namesrv (remoting spec §8), the way
// mqadmin / DefaultMQAdminExt drive it: find brokers through routes and cluster info, then ask
// each broker. Every call blocks; run them off the GUI thread. Thread-safe.

#include "broker/client/message_trace.h"
#include "broker/client/mq_client_api.h"
#include "broker/client/rocketmq5_stats.h"
#include "broker/remoting/protocol/consumer_running_info.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mqdesk::client {

class AdminClient
{
public:
    explicit AdminClient(ClientConfig config);
    ~AdminClient();
    AdminClient(const AdminClient &) = delete;
    AdminClient &operator=(const AdminClient &) = delete;

    void shutdown();
    MQClientAPI &api() { return *api_; }

    // ---- Cluster and topics ----
    Result<remoting::ClusterInfo> clusterInfo();
    Result<remoting::TopicList> topicList();
    Result<remoting::TopicRouteData> topicRoute(const std::string &topic);
    // Master addresses of `clusterName` (every cluster when empty), sorted by broker name.
    Result<std::vector<std::string>> masterAddresses(const std::string &clusterName = {});
    // GET_TOPIC_STATS_INFO from each master of the topic's route, merged.
    Result<TopicStatsTable> topicStats(const std::string &topic);
    // UPDATE_AND_CREATE_TOPIC on every master of the cluster (every cluster when empty).
    // `attributes`: 5.x modifications such as "+message.type=FIFO" (topic_attributes.h).
    Status createTopic(const std::string &clusterName, const remoting::TopicConfigData &topic,
                       const std::string &attributes = {});
    Status createTopicOnBroker(const std::string &brokerAddr, const remoting::TopicConfigData &topic,
                               const std::string &attributes = {});
    // DELETE_TOPIC_IN_BROKER on every master of the cluster (every cluster when empty), then
    // DELETE_TOPIC_IN_NAMESRV on every namesrv.
    Status deleteTopic(const std::string &topic, const std::string &clusterName = {});

    // ---- Consumer groups ----
    // GET_CONSUME_STATS from each broker hosting %RETRY%<group> (every master when it has no
    // route) and, with a topic, each broker of the topic; merged. Lag: OffsetWrapper::lag().
    Result<ConsumeStats> consumeStats(const std::string &group, const std::string &topic = {});
    // GET_CONSUMER_CONNECTION_LIST from the group's brokers, connections merged.
    Result<remoting::ConsumerConnection> consumerConnections(const std::string &group);
    // A consumer's own view (GET_CONSUMER_RUNNING_INFO, which the broker forwards to the client):
    // subscriptions, per-queue process state, rates, properties, and with `jstack` a Java
    // client's thread stacks. Asked of the group's brokers until one reaches the client
    // (admin_clients.cpp).
    Result<remoting::ConsumerRunningInfo> consumerRunningInfo(const std::string &group, const std::string &clientId,
                                                              bool jstack);
    // VIEW_BROKER_STATS_DATA (Java's BrokerStatsManager): one statistic (TOPIC_PUT_NUMS with the
    // topic as key, GROUP_GET_NUMS with "topic@group", …) summed over `brokers`; a broker that never
    // counted the key adds nothing. `counted` says whether any broker had it.
    struct StatsWindow
    {
        int64_t sum = 0;
        double tps = 0;
    };
    struct BrokerStats
    {
        StatsWindow minute, hour, day;
        bool counted = false;
    };
    Result<BrokerStats> brokerStats(const std::vector<std::string> &brokers, const std::string &statsName,
                                    const std::string &statsKey);
    // CONSUME_MESSAGE_DIRECTLY: the client named runs its listener on the message `offsetMsgId`
    // of `topic`, at the broker that stores it; its ConsumeMessageDirectlyResult.
    Result<remoting::ConsumeMessageDirectlyResult> consumeMessageDirectly(const std::string &group,
                                                                          const std::string &clientId,
                                                                          const std::string &topic,
                                                                          const std::string &offsetMsgId);
    Result<std::vector<SubscriptionGroupConfig>> subscriptionGroups(const std::string &brokerAddr);
    // On every master of the cluster (every cluster when empty).
    Status createSubscriptionGroup(const std::string &clusterName, const SubscriptionGroupConfig &config);
    Status deleteSubscriptionGroup(const std::string &clusterName, const std::string &group, bool removeOffset = true);
    // For an offline group (mqadmin's fallback): per readable queue of the topic, the offset at
    // `timestamp` (SEARCH_OFFSET_BY_TIMESTAMP) written with UPDATE_CONSUMER_OFFSET. Returns
    // the offsets written.
    Result<std::map<MessageQueue, int64_t>> resetOffsetByTime(const std::string &group, const std::string &topic,
                                                              int64_t timestamp);
    // INVOKE_BROKER_TO_RESET_OFFSET (222) on one broker: it moves the group's offsets of `topic`
    // to `timestamp` (-1: the end), tells the group's online clients, and answers the offsets it
    // set (ResetOffsetBody). `force` lets offsets move forward past what was consumed. A group
    // with no client online is a failure with code CONSUMER_NOT_ONLINE (206).
    Result<std::map<MessageQueue, int64_t>> invokeBrokerToResetOffset(const std::string &brokerAddr,
                                                                      const std::string &topic,
                                                                      const std::string &group, int64_t timestamp,
                                                                      bool force);

    // ---- Brokers ----
    Result<remoting::KVTable> brokerRuntimeInfo(const std::string &brokerAddr);
    Result<std::map<std::string, std::string>> brokerConfig(const std::string &brokerAddr);
    Status updateBrokerConfig(const std::string &brokerAddr, const std::map<std::string, std::string> &properties);

    // ---- Messages (admin_queries.cpp) ----
    // Lookups the way mqadmin and the dashboard find messages (remoting spec §8): each one is
    // bounded, none scans a queue or the log from end to end. "Not found" is a failure with
    // code QUERY_NOT_FOUND (22); lists come back empty instead.

    // By offset message id: VIEW_MESSAGE_BY_ID on the address the id encodes, naming `topic`
    // when given (a broker with access control needs it).
    Result<common::StoredMessage> viewMessage(const std::string &offsetMsgId, const std::string &topic = {});
    // By a message id of either kind, as the console's search box takes it: the UNIQ_KEY
    // lookup first (a 32-digit UNIQ_KEY also decodes as an IPv4 offset id, whose address would
    // then be a stranger's), then the offset id.
    Result<common::StoredMessage> queryMessageById(const std::string &topic, const std::string &msgId);
    // QUERY_MESSAGE on each master of the topic, keeping messages of `topic` whose KEYS hold
    // `key` as a whole token and whose store time is in [beginTimestamp, endTimestamp]; at most
    // `maxNum` in all (the broker caps each answer at 64). The broker's index keeps seconds, so
    // it is asked for a second more on each side; its answer, capped at maxNum, may then hold
    // messages the exact range drops, leaving fewer than maxNum even when more match.
    Result<std::vector<common::StoredMessage>> queryMessageByKey(const std::string &topic, const std::string &key,
                                                                 int32_t maxNum = 32, int64_t beginTimestamp = 0,
                                                                 int64_t endTimestamp = INT64_MAX);
    // QUERY_MESSAGE with the unique-key flag on every master of the topic; the first message
    // whose UNIQ_KEY is exactly `uniqKey`.
    Result<common::StoredMessage> queryMessageByUniqKey(const std::string &topic, const std::string &uniqKey);
    // The trace of the message whose msgId (UNIQ_KEY) is `msgId`: every trace message in
    // `traceTopic` keyed by it (at most 256), decoded and put together (message_trace.h). An
    // empty trace when the trace topic does not exist or holds nothing about the message.
    Result<MessageTrace> queryMessageTrace(const std::string &msgId,
                                           const std::string &traceTopic = kDefaultTraceTopic);
    // The message at `offset` of `queue`: a PULL_MESSAGE of one message as the tools group
    // (TOOLS_CONSUMER, which an auto-creating broker then lists like mqadmin's).
    Result<common::StoredMessage> queryMessageByOffset(const MessageQueue &queue, int64_t offset);

    struct MessagesByTime
    {
        std::vector<common::StoredMessage> messages; // per queue in queue order, queues sorted
        std::vector<MessageQueue> truncated;         // queues with more in range than maxPerQueue
    };
    // Messages of `topic` stored in [beginTimestamp, endTimestamp]: per readable queue,
    // SEARCH_OFFSET_BY_TIMESTAMP for both ends, then pulls of at most `maxPerQueue` messages
    // between them (as TOOLS_CONSUMER), re-filtered by store time.
    Result<MessagesByTime> queryMessagesByTime(const std::string &topic, int64_t beginTimestamp,
                                               int64_t endTimestamp, int32_t maxPerQueue = 32);

    // ---- RocketMQ 5 (rocketmq5_stats.cpp; MQDesk brokers only, else REQUEST_CODE_NOT_SUPPORTED) ----
    // Timer messages of `topic` parked on its masters: per coming minute and the next ones.
    Result<TimerTimeline> timerTimeline(const std::string &topic, int minutes = 60, int next = 20);
    // A LITE parent topic's lite topics and its lite groups' lag (RocketMQ 5.5 brokers).
    Result<LiteTopicOverview> liteTopicOverview(const std::string &parent, int topK = 50);
    // A lite group bound to `parent`: its lag and the lite topics of each of `clientIds`.
    Result<LiteGroupView> liteGroupView(const std::string &parent, const std::string &group,
                                        const std::vector<std::string> &clientIds, int topK = 20);
    // A group's POP figures summed over the masters of its retry topic (or every master).
    Result<PopStats> popStats(const std::string &group);

    // ---- ACL 2.0 (admin_auth.cpp) ----
    // Java 5.3+ keeps users and ACLs in each broker (its RocksDB, no NameServer copy), and
    // mqadmin changes them on every master of a cluster: so do these.
    struct AuthSnapshot
    {
        std::string brokerAddr; // the master they were read from
        size_t masters = 0;     // how many masters the cluster has
        std::vector<acl::User> users;
        std::vector<acl::Acl> acls;
    };
    // Users (AUTH_LIST_USER) and ACLs (AUTH_LIST_ACL) of the first master of the cluster
    // (every cluster when empty).
    Result<AuthSnapshot> authSnapshot(const std::string &clusterName = {});
    // Runs `change(api, addr)` on every master of the cluster (every cluster when empty), in
    // address order; stops at the first failure, whose text names the broker (masters changed
    // before it stay changed).
    Status onEveryMaster(const std::string &clusterName,
                         const std::function<Status(MQClientAPI &, const std::string &addr)> &change);

private:
    // The masters of `topic`'s route.
    Result<std::vector<std::string>> topicMasters(const std::string &topic);
    // The masters of the group's retry topic (+ of `topic` when given), else of every cluster.
    Result<std::vector<std::string>> groupMasters(const std::string &group, const std::string &topic);

    std::unique_ptr<MQClientAPI> api_;
};

} // namespace mqdesk::client
