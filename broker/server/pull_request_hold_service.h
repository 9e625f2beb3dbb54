#pragma once

// Long polling (RocketMQ's PullRequestHoldService): a pull that finds nothing new is parked
// here instead of answered, without holding any thread or its connection, and is run again
// (never parked twice) as soon as one of these happens:
//  - the dispatcher puts a message into its queue that passes its subscription
//    (notifyMessageArriving, called from the store's arrival listener);
//  - the once-a-second check sees the queue's max offset beyond the pull's offset (covers a
//    message that arrived between the pull's read and its parking);
//  - its hold time expires (the re-run then answers PULL_NOT_FOUND).
// Re-runs go to the pull executor. Thread-safe.

#include "broker/remoting/protocol/client_data.h"
#include "broker/remoting/net/remoting_channel.h"
#include "broker/common/service_thread.h"

#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace mqdesk::server {

struct HeldPull
{
    remoting::RequestContext context;
    remoting::RemotingCommand request;
    remoting::Responder respond;
    std::string topic;
    int32_t queueId = 0;
    int64_t pullFromOffset = 0;
    int64_t suspendMillis = 0; // steady clock
    int64_t timeoutMillis = 0;
    remoting::SubscriptionData subscription;
};

class PullRequestHoldService : public common::ServiceThread
{
public:
    // `rerun` processes a woken pull again without allowing it to be parked; `maxOffset`
    // gives a queue's current max offset. Both are called on this service's thread or the
    // notifying thread and must not block.
    using Rerun = std::function<void(HeldPull pull)>;
    using MaxOffset = std::function<int64_t(const std::string &topic, int32_t queueId)>;

    PullRequestHoldService(Rerun rerun, MaxOffset maxOffset);
    ~PullRequestHoldService() override;

    void suspend(HeldPull pull);
    // A message with `tagsCode` now sits at `queueOffset` of topic/queueId.
    void notifyMessageArriving(const std::string &topic, int32_t queueId, int64_t queueOffset, int64_t tagsCode);
    // Answers every held pull now (shutdown): they are re-run and get what is there.
    void releaseAll();
    size_t heldCount() const;

protected:
    void run() override;

private:
    // Every arrival looks its queue up: by topic (hashed, found by string_view without building
    // a key), then queue id.
    struct TopicHash
    {
        using is_transparent = void;
        size_t operator()(std::string_view topic) const { return std::hash<std::string_view>{}(topic); }
    };
    using HeldByQueue = std::unordered_map<int32_t, std::vector<HeldPull>>;
    using HeldPulls = std::unordered_map<std::string, HeldByQueue, TopicHash, std::equal_to<>>;

    // The pulls held on topic/queueId, or nullptr. Requires mutex_.
    std::vector<HeldPull> *heldOn(std::string_view topic, int32_t queueId);
    // Forgets topic/queueId once none are held there. Requires mutex_.
    void forgetIfEmpty(std::string_view topic, int32_t queueId);
    void checkHeldPulls();

    Rerun rerun_;
    MaxOffset maxOffset_;
    mutable std::mutex mutex_;
    HeldPulls held_; // guarded by mutex_
};

} // namespace mqdesk::server
