#pragma once

// MQClientAPI: one typed call per RocketMQ request the client side sends (remoting spec §4–8),
// over one RemotingClient. Broker calls take the broker address ("ip:port"); namesrv calls try
// each configured namesrv in turn. Nothing here caches or retries — Producer, PullConsumer and
// AdminClient do that.
//
// Threads: sync calls block the caller. Async callbacks run exactly once on an io thread (or on
// the calling thread when the connection cannot be opened) and must not block; to do blocking
// work from one (a retry to another broker), hand it to post(), which runs it on the client's
// callback thread. Thread-safe.

#include "broker/acl/auth_model.h"
#include "broker/client/admin_bodies.h"
#include "broker/client/client_config.h"
#include "broker/client/client_types.h"
#include "broker/remoting/protocol/client_data.h"
#include "broker/remoting/protocol/route_data.h"
#include "broker/remoting/net/processor_executor.h"
#include "broker/remoting/net/remoting_client.h"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace mqdesk::client {

inline constexpr const char *kDefaultTopic = "TBW102"; // the auto-create template (spec §5.2)

// SEND_MESSAGE_V2's header, keys a..m (spec §4.1).
struct SendMessageHeader
{
    std::string producerGroup;
    std::string topic;
    std::string defaultTopic = kDefaultTopic;
    int32_t defaultTopicQueueNums = 4;
    int32_t queueId = 0;
    int32_t sysFlag = 0;
    int64_t bornTimestamp = 0;
    int32_t flag = 0;
    std::string properties; // encoded k\x01v\x02…
    int32_t reconsumeTimes = 0;
    bool unitMode = false;
    bool batch = false;
};

// One message inside a SEND_BATCH_MESSAGE body.
struct BatchEntry
{
    int32_t flag = 0;
    std::vector<uint8_t> body;
    std::string properties; // encoded
};
// The batch body (spec §4.1): per message totalSize, magic 0, bodyCRC 0, flag, bodyLen, body,
// propsLen (int16), props.
std::vector<uint8_t> encodeBatchBody(const std::vector<BatchEntry> &entries);

// PullSysFlag bits (spec §4.2).
namespace pullSysFlag {
inline constexpr int32_t kCommitOffset = 1;
inline constexpr int32_t kSuspend = 2;
inline constexpr int32_t kSubscription = 4;
inline constexpr int32_t kClassFilter = 8;
inline constexpr int32_t kLitePull = 16;
} // namespace pullSysFlag

struct PullMessageHeader
{
    std::string consumerGroup;
    std::string topic;
    int32_t queueId = 0;
    int64_t queueOffset = 0;
    int32_t maxMsgNums = 32;
    int32_t sysFlag = pullSysFlag::kSubscription;
    int64_t commitOffset = 0;
    int64_t suspendTimeoutMillis = 15000;
    std::string subscription = "*";
    int64_t subVersion = 0;
    std::string expressionType = "TAG";

    // How Java's admin tools read a queue: as MixAll.TOOLS_CONSUMER_GROUP (Java brokers create it
    // at start), every tag, committing nothing and never held by long polling.
    static PullMessageHeader toolsPull(const MessageQueue &queue, int64_t offset, int32_t maxNums);
};

// A pull answers at most this many messages anyway (maxTransferCountOnMessageInMemory).
inline constexpr int32_t kMaxPullBatch = 32;

using SendCallback = std::function<void(Result<SendResult>)>;
using PullCallback = std::function<void(Result<PullResult>)>;

class MQClientAPI
{
public:
    explicit MQClientAPI(ClientConfig config);
    // Shuts down.
    ~MQClientAPI();
    MQClientAPI(const MQClientAPI &) = delete;
    MQClientAPI &operator=(const MQClientAPI &) = delete;

    // Runs queued post() tasks, then closes every connection (failing pending requests).
    // Idempotent; not from a callback.
    void shutdown();
    const ClientConfig &config() const { return config_; }
    remoting::RemotingClient &remotingClient() { return *remoting_; }
    // Runs `task` on the client's callback thread; false (task dropped) after shutdown.
    bool post(std::function<void()> task);

    // ---- NameServer (spec §5) ----
    Result<remoting::TopicRouteData> getTopicRoute(const std::string &topic);
    Result<remoting::ClusterInfo> getBrokerClusterInfo();
    Result<remoting::TopicList> getAllTopicList();
    // DELETE_TOPIC_IN_NAMESRV (216) on one namesrv; `clusterName` empty = every cluster.
    Status deleteTopicInNamesrv(const std::string &namesrvAddr, const std::string &topic,
                                const std::string &clusterName = {});

    // ---- Sending (spec §4.1) ----
    // `brokerName` goes into the SendResult's queue.
    Result<SendResult> sendMessage(const std::string &addr, const std::string &brokerName,
                                   const SendMessageHeader &header, std::vector<uint8_t> body);
    void sendMessageAsync(const std::string &addr, const std::string &brokerName, const SendMessageHeader &header,
                          std::vector<uint8_t> body, SendCallback callback);
    Status sendMessageOneway(const std::string &addr, const SendMessageHeader &header, std::vector<uint8_t> body);
    // SEND_BATCH_MESSAGE (320); `body` from encodeBatchBody.
    Result<SendResult> sendBatch(const std::string &addr, const std::string &brokerName,
                                 const SendMessageHeader &header, std::vector<uint8_t> body);

    // ---- Pulling (spec §4.2) ----
    // Timeout: config().pullTimeoutMillis when the suspend flag is set, else timeoutMillis.
    Result<PullResult> pullMessage(const std::string &addr, const PullMessageHeader &header);
    void pullMessageAsync(const std::string &addr, const PullMessageHeader &header, PullCallback callback);

    // ---- Clients, groups, offsets (spec §4.3, §6) ----
    Status sendHeartbeat(const std::string &addr, const remoting::HeartbeatData &heartbeat);
    Status unregisterClient(const std::string &addr, const std::string &clientId, const std::string &producerGroup,
                            const std::string &consumerGroup);
    Result<std::vector<std::string>> getConsumerIdList(const std::string &addr, const std::string &group);
    // QUERY_NOT_FOUND (22) comes back as a failure with that code.
    Result<int64_t> queryConsumerOffset(const std::string &addr, const std::string &group, const std::string &topic,
                                        int32_t queueId);
    Status updateConsumerOffset(const std::string &addr, const std::string &group, const std::string &topic,
                                int32_t queueId, int64_t offset);
    Result<int64_t> getMaxOffset(const std::string &addr, const std::string &topic, int32_t queueId);
    Result<int64_t> getMinOffset(const std::string &addr, const std::string &topic, int32_t queueId);
    Result<int64_t> searchOffsetByTimestamp(const std::string &addr, const std::string &topic, int32_t queueId,
                                            int64_t timestamp);
    Result<int64_t> getEarliestMsgStoreTime(const std::string &addr, const std::string &topic, int32_t queueId);

    // ---- Ordered consumption (spec §6.7), in mq_client_lock.cpp ----
    // LOCK_BATCH_MQ: the queues of `queues` the broker now holds for `clientId` (each renewed);
    // the others are held by another live client of the group.
    Result<std::set<MessageQueue>> lockBatchMQ(const std::string &addr, const std::string &group,
                                               const std::string &clientId, const std::set<MessageQueue> &queues);
    // UNLOCK_BATCH_MQ: releases those of `queues` that `clientId` holds. `oneway` sends it the
    // way Java's shutdown path does (no answer, so only connection errors are reported).
    Status unlockBatchMQ(const std::string &addr, const std::string &group, const std::string &clientId,
                         const std::set<MessageQueue> &queues, bool oneway = false);

    // ---- Admin (spec §8), in mq_client_admin.cpp ----
    // `attributes`: 5.x modifications ("+message.type=FIFO,-reserve.time", see
    // topic_attributes.h), sent only when not empty; topic.attributes is not sent.
    Status createTopic(const std::string &addr, const remoting::TopicConfigData &topic,
                       const std::string &defaultTopic = kDefaultTopic, const std::string &attributes = {});
    Status deleteTopicInBroker(const std::string &addr, const std::string &topic);
    Result<remoting::TopicConfigSerializeWrapper> getAllTopicConfig(const std::string &addr);
    Result<TopicStatsTable> getTopicStatsInfo(const std::string &addr, const std::string &topic);
    // `topic` empty = every topic the group has offsets for.
    Result<ConsumeStats> getConsumeStats(const std::string &addr, const std::string &group,
                                         const std::string &topic = {});
    Result<ConsumerOffsetTable> getAllConsumerOffset(const std::string &addr);
    Result<SubscriptionGroupWrapper> getAllSubscriptionGroup(const std::string &addr);
    Status createSubscriptionGroup(const std::string &addr, const SubscriptionGroupConfig &config);
    Status deleteSubscriptionGroup(const std::string &addr, const std::string &groupName, bool removeOffset);
    Result<remoting::ConsumerConnection> getConsumerConnectionList(const std::string &addr, const std::string &group);
    Result<std::vector<remoting::ClientConnection>> getProducerConnectionList(const std::string &addr,
                                                                              const std::string &group);
    Result<remoting::KVTable> getBrokerRuntimeInfo(const std::string &addr);
    Result<std::map<std::string, std::string>> getBrokerConfig(const std::string &addr);
    Status updateBrokerConfig(const std::string &addr, const std::map<std::string, std::string> &properties);
    // QUERY_MESSAGE (12): records whose KEYS token (or, with uniqueKey, UNIQ_KEY) is `key`, as the
    // broker's index finds them (not re-filtered here).
    Result<std::vector<common::StoredMessage>> queryMessage(const std::string &addr, const std::string &topic,
                                                            const std::string &key, int32_t maxNum,
                                                            int64_t beginTimestamp, int64_t endTimestamp,
                                                            bool uniqueKey = false);
    // `topic` (as 5.x clients send it) is what a broker with access control checks the caller's
    // right to; the broker answers only a message of that topic. Empty: not sent (4.x).
    Result<common::StoredMessage> viewMessage(const std::string &addr, int64_t commitLogOffset,
                                              const std::string &topic = {});
    Result<std::vector<std::string>> queryTopicConsumeByWho(const std::string &addr, const std::string &topic);

    // ---- ACL 2.0's users and ACLs (AUTH_* 3001–3010), in mq_client_admin.cpp ----
    // Bodies are Java's UserInfo / AclInfo JSON (acl/auth_model.h). Java keeps these per broker:
    // AdminClient's cluster-wide calls send a change to every master. updateUser with a blank
    // password keeps the stored one. create/updateAcl put the given entries, replacing those
    // with the same resource; deleteAcl removes one entry (`resource`, of the Custom policy unless
    // `policyType` is "Default"), or without a resource the subject's whole ACL. getUser / getAcl
    // of one that does not exist answer ok with an empty username / subject (Java sends no body).
    Status createUser(const std::string &addr, const acl::User &user);
    Status updateUser(const std::string &addr, const acl::User &user);
    Status deleteUser(const std::string &addr, const std::string &username);
    Result<acl::User> getUser(const std::string &addr, const std::string &username);
    Result<std::vector<acl::User>> listUsers(const std::string &addr, const std::string &filter = {});
    Status createAcl(const std::string &addr, const acl::Acl &acl);
    Status updateAcl(const std::string &addr, const acl::Acl &acl);
    Status deleteAcl(const std::string &addr, const std::string &subject, const std::string &policyType = {},
                     const std::string &resource = {});
    Result<acl::Acl> getAcl(const std::string &addr, const std::string &subject);
    Result<std::vector<acl::Acl>> listAcls(const std::string &addr, const std::string &subjectFilter = {},
                                           const std::string &resourceFilter = {});

    // Decodes concatenated commit-log records (pull, query and view bodies); error names the
    // record's index and byte position.
    static bool decodeMessages(std::span<const uint8_t> body, std::vector<common::StoredMessage> &out,
                               std::string &error);

    // The request/response plumbing the typed calls share. `invoke` turns a transport failure
    // into a Status with a clientCode; the response is then valid only when ok.
    Result<remoting::RemotingCommand> invoke(const std::string &addr, remoting::RemotingCommand request,
                                             int64_t timeoutMillis);
    Result<remoting::RemotingCommand> invokeNamesrv(remoting::RemotingCommand request);
    // Sets the config's header encoding (serializeType) and adds AccessKey and Signature
    // (AclClientRPCHook) when the config has credentials; every call here does it just before
    // sending, after describeRequest (so errors never show them).
    void prepareRequest(remoting::RemotingCommand &request) const;
    // "addr REQUEST(code) k=v k=v": how errors name a request.
    static std::string describeRequest(const std::string &addr, const remoting::RemotingCommand &request);
    // A Status for an unexpected response code: "<what>: CODE(n) remark".
    static Status responseFailure(const std::string &what, const remoting::RemotingCommand &response);

private:
    // Sync request that must answer SUCCESS; ok carries the response.
    Result<remoting::RemotingCommand> call(const std::string &addr, remoting::RemotingCommand request);
    Result<int64_t> offsetCall(const std::string &addr, int32_t code, remoting::ExtFields fields,
                               const char *resultKey);

    const ClientConfig config_;
    const std::vector<std::string> namesrvs_;
    std::unique_ptr<remoting::RemotingClient> remoting_;
    std::unique_ptr<remoting::ProcessorExecutor> callbacks_;
    std::atomic<size_t> namesrvIndex_{0};
};

// Builds a SendResult from a send response (SUCCESS and the stored-with-warning codes).
// `what` is describeRequest's text of the request, for errors.
Result<SendResult> decodeSendResponse(const std::string &what, const std::string &brokerName,
                                      const remoting::RemotingCommand &response);
// Builds a PullResult from a pull response (SUCCESS, 19, 20, 21), decoding the body.
Result<PullResult> decodePullResponse(const std::string &what, const remoting::RemotingCommand &response);

} // namespace mqdesk::client
