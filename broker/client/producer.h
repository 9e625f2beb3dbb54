#pragma once

// Producer: sends messages like Java's DefaultMQProducer (remoting spec §4.1, §5.2). Routes come
// from the namesrv and are cached per topic (refreshed after pollNameServerIntervalMillis or
// after a failed send); a topic without a route is sent through the createTopicKey template
// (TBW102) so the broker can auto-create it. Queues are chosen round-robin unless a selector is
// given; a send failing with a retryable code (TOPIC_NOT_EXIST, SERVICE_NOT_AVAILABLE,
// SYSTEM_ERROR, NO_PERMISSION, NO_BUYER_ID, NOT_IN_CURRENT_UNIT) or a transport error is retried
// up to retryTimesWhenSendFailed more times, on another broker when there is one.
//
// Bodies are sent as given: no compression (Java compresses bodies ≥ 4 KiB; we do not).
// Thread-safe once started.

#include "broker/client/heartbeat_service.h"
#include "broker/client/mq_client_api.h"
#include "broker/client/uniq_key.h"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace mqdesk::client {

struct ProducerOptions
{
    std::string group = "DEFAULT_PRODUCER";
    std::string createTopicKey = kDefaultTopic;
    int32_t defaultTopicQueueNums = 4;
    int retryTimesWhenSendFailed = 2;
    int retryTimesWhenSendAsyncFailed = 2;
    size_t maxMessageSize = 4 * 1024 * 1024;
};

// Picks the index of the queue to send to from the topic's writable queues (never empty).
using QueueSelector = std::function<size_t(const std::vector<MessageQueue> &queues, const Message &message)>;
// Java's SelectMessageQueueByHash: String.hashCode of `shardingKey`, made non-negative, modulo.
QueueSelector selectByHash(std::string shardingKey);

class Producer
{
public:
    explicit Producer(ClientConfig config, ProducerOptions options = {});
    ~Producer(); // shuts down
    Producer(const Producer &) = delete;
    Producer &operator=(const Producer &) = delete;

    // Starts the heartbeats. Fails (kIllegalArgument) without a namesrv address or group.
    Status start();
    // Unregisters from the brokers, stops heartbeats, fails pending async sends. Idempotent.
    void shutdown();

    Result<SendResult> send(const Message &message, const QueueSelector &selector = {});
    // `callback` runs once, on an io thread or the client's callback thread (or on the caller
    // when the first attempt cannot start); it must not block.
    void sendAsync(const Message &message, SendCallback callback, QueueSelector selector = {});
    // No answer, no retry.
    Status sendOneway(const Message &message, const QueueSelector &selector = {});
    // SEND_BATCH_MESSAGE: every message to the same topic, no delay level; all go to one queue.
    Result<SendResult> sendBatch(const std::vector<Message> &messages);

    // One heartbeat round to every known broker now (otherwise every heartbeatBrokerIntervalMillis).
    Status sendHeartbeat();
    // The topic's writable queues from the (refreshed if stale) route.
    Result<std::vector<MessageQueue>> fetchPublishMessageQueues(const std::string &topic);
    MQClientAPI &api() { return *api_; }
    const ProducerOptions &options() const { return options_; }

private:
    struct PublishInfo;
    struct Prepared;
    struct AsyncSend;

    Result<std::shared_ptr<PublishInfo>> publishInfo(const std::string &topic);
    void markStale(const std::string &topic);
    Result<Prepared> prepare(const Message &message);
    // The queue for this attempt: the selector's, else round-robin avoiding `lastBroker`.
    MessageQueue selectQueue(PublishInfo &info, const Message &message, const QueueSelector &selector,
                             const std::string &lastBroker);
    void attemptAsync(const std::shared_ptr<AsyncSend> &state);
    std::vector<std::string> brokerAddresses();
    remoting::HeartbeatData heartbeatData() const;

    const ClientConfig config_;
    const ProducerOptions options_;
    std::unique_ptr<MQClientAPI> api_;
    UniqKeyGenerator uniqKeys_;
    std::unique_ptr<HeartbeatService> heartbeat_;
    std::mutex mutex_;
    std::map<std::string, std::shared_ptr<PublishInfo>> routes_; // guarded by mutex_
    std::atomic<bool> started_{false};
};

} // namespace mqdesk::client
