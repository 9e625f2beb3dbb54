#pragma once

// PullConsumer: the application decides which queue to read and from which offset, like Java's
// DefaultMQPullConsumer (remoting spec §4.2, §4.3, §6.1, §6.5). While started it heartbeats the
// group as CONSUME_ACTIVELY to every broker it has seen a route for, with a "*" or registered
// subscription per topic, so the group shows in the broker's consumer connections.
// Pulled messages are re-filtered by tag on the client (the broker matches tag hash codes only).
// Thread-safe once started.

#include "broker/client/heartbeat_service.h"
#include "broker/client/mq_client_api.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace mqdesk::client {

struct PullConsumerOptions
{
    std::string group;
    std::string messageModel = "CLUSTERING";
    // How long the broker may hold a pull that asked for long polling.
    int64_t brokerSuspendMaxTimeMillis = 15000;
};

struct PullOptions
{
    bool suspend = false; // long poll: the broker holds the pull until a message or the timeout
    int64_t suspendTimeoutMillis = 0; // 0 = PullConsumerOptions::brokerSuspendMaxTimeMillis
    int64_t commitOffset = -1;        // ≥ 0: piggy-back this commit (PullSysFlag bit 0)
};

class PullConsumer
{
public:
    explicit PullConsumer(ClientConfig config, PullConsumerOptions options);
    ~PullConsumer(); // shuts down
    PullConsumer(const PullConsumer &) = delete;
    PullConsumer &operator=(const PullConsumer &) = delete;

    // Starts heartbeats (the first round runs before start returns, once a topic is known).
    Status start();
    // Unregisters the group from the brokers and stops. Idempotent.
    void shutdown();

    // Adds `topic` with `subExpression` to the heartbeat's subscriptions and loads its route.
    Status subscribe(const std::string &topic, const std::string &subExpression = "*");
    // One heartbeat round now (otherwise every heartbeatBrokerIntervalMillis).
    Status sendHeartbeat();

    Result<std::vector<MessageQueue>> fetchSubscribeMessageQueues(const std::string &topic);

    // PULL_MESSAGE on `queue` from `offset`. Without suspend a caught-up queue answers
    // NoNewMsg at once; with it the broker holds the pull (the RPC then waits up to
    // config.pullTimeoutMillis).
    Result<PullResult> pull(const MessageQueue &queue, const std::string &subExpression, int64_t offset,
                            int32_t maxNums, const PullOptions &options = {});
    // `callback` runs once on an io thread (or on the caller when the pull cannot start); it
    // must not block.
    void pullAsync(const MessageQueue &queue, const std::string &subExpression, int64_t offset, int32_t maxNums,
                   PullCallback callback, const PullOptions &options = {});

    // The group's committed offset; QUERY_NOT_FOUND (22) comes back as a failure with that code.
    Result<int64_t> fetchConsumeOffset(const MessageQueue &queue);
    Status updateConsumeOffset(const MessageQueue &queue, int64_t offset);
    Result<int64_t> maxOffset(const MessageQueue &queue);
    Result<int64_t> minOffset(const MessageQueue &queue);
    Result<int64_t> searchOffset(const MessageQueue &queue, int64_t timestamp);

    // Ordered consumption (remoting spec §6.7): LOCK_BATCH_MQ for `queues` on their brokers as
    // this client (config.clientId(), so two consumers of one group in one process need
    // different instance names). Returns the queues this client now holds, each lock renewed;
    // the others are held by another client whose lock has not expired. An application consumes
    // a queue in order only while it holds it, and renews well within the broker's lock
    // lifetime (Java renews every 20 s against 60 s). A broker that cannot be reached
    // contributes no queues; the call fails only when no broker answered.
    Result<std::set<MessageQueue>> lockQueues(const std::vector<MessageQueue> &queues);
    // UNLOCK_BATCH_MQ: releases those of `queues` this client holds; commit their offsets first
    // so the next holder continues where this one stopped. First error, after trying every broker.
    Status unlockQueues(const std::vector<MessageQueue> &queues);

    MQClientAPI &api() { return *api_; }
    const PullConsumerOptions &options() const { return options_; }

private:
    // The master address of the queue's broker, loading the topic's route when unknown.
    Result<std::string> brokerAddress(const MessageQueue &queue);
    Result<remoting::TopicRouteData> loadRoute(const std::string &topic);
    Result<PullMessageHeader> pullHeader(const MessageQueue &queue, const std::string &subExpression, int64_t offset,
                                         int32_t maxNums, const PullOptions &options);
    std::vector<std::string> brokerAddresses();
    remoting::HeartbeatData heartbeatData();
    Result<std::map<std::string, std::set<MessageQueue>>> queuesByBroker(const std::vector<MessageQueue> &queues);

    const ClientConfig config_;
    const PullConsumerOptions options_;
    std::unique_ptr<MQClientAPI> api_;
    std::unique_ptr<HeartbeatService> heartbeat_;
    std::mutex mutex_;
    std::map<std::string, remoting::TopicRouteData> routes_;          // guarded by mutex_
    std::map<std::string, remoting::SubscriptionData> subscriptions_; // guarded by mutex_
    std::atomic<bool> started_{false};
};

} // namespace mqdesk::client
