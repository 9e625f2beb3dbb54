#pragma once

// Long polling for POP_MESSAGE and NOTIFICATION (RocketMQ 5's PopLongPollingService): a request
// that finds nothing is parked here, holding no thread, until one of these happens:
//  - a message is dispatched into a topic it watches (the popped topic and the group's retry
//    topic), to its queue or, for queueId -1, to any queue: notifyMessageArriving;
//  - its deadline passes (the once-every-100-ms check);
//  - releaseAll() at shutdown;
//  - at once, when a request carries notificationsSeen and a watched topic was notified since
//    (the arrival or release fell between the request's read and its park, and woke nobody).
// Then its `wake` callback runs once, on this service's thread or the notifying thread; it must
// not block (processors hand the work to their executor). More than `maxParked` parked requests
// are refused by park() (the caller answers POLLING_FULL). Thread-safe.

#include "broker/common/clock.h"
#include "broker/common/service_thread.h"
#include "broker/remoting/net/remoting_channel.h"

#include <array>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mqdesk::server::pop {

// How long a pop or notification may be parked at most, whatever pollTime it asks for.
inline constexpr int64_t kMaxPollMillis = 60000;
// The clock of ParkedRequest::deadlineMillis.
inline int64_t steadyMillis()
{
    return common::steadyMicros() / 1000;
}

struct ParkedRequest
{
    remoting::RequestContext context;
    remoting::RemotingCommand request;
    remoting::Responder respond;
    std::vector<std::string> topics; // woken by arrivals into any of these
    std::string group;
    std::string watchedTopic; // the popped topic: what POLLING_INFO counts under
    int32_t queueId = -1;     // -1: any queue
    int64_t deadlineMillis = 0; // steady clock
    // notificationsOf(topics) taken before the request read its queues; unset: not checked.
    std::optional<uint64_t> notificationsSeen;
    std::function<void(ParkedRequest request, bool timedOut)> wake;
};

class PopLongPolling : public common::ServiceThread
{
public:
    PopLongPolling(std::string name, size_t maxParked) : ServiceThread(std::move(name)), maxParked_(maxParked) {}
    ~PopLongPolling() override;

    // False when full: nothing was parked and `request` is untouched.
    bool park(ParkedRequest &request);
    void notifyMessageArriving(const std::string &topic, int32_t queueId);
    // A count that changes whenever one of `topics` is notified (and, rarely, when a topic
    // sharing a counter is): taken before a read, it tells park() whether the read is stale.
    uint64_t notificationsOf(const std::vector<std::string> &topics) const;
    // Wakes every parked request as if its time were up (shutdown).
    void releaseAll();
    // Parked requests of group on topic and queueId (POLLING_INFO).
    int32_t parkedCount(const std::string &topic, const std::string &group, int32_t queueId) const;
    size_t parkedCount() const;
    size_t parkedCount(const std::string &group) const;

protected:
    void run() override;

private:
    using Parked = std::shared_ptr<ParkedRequest>;
    void wakeAll(std::vector<Parked> woken, bool timedOut);
    uint64_t notificationsOfLocked(const std::vector<std::string> &topics) const;

    const size_t maxParked_;
    mutable std::mutex mutex_;
    std::multimap<std::string, Parked> byTopic_; // each request once per topic it watches
    size_t parked_ = 0;
    // Notifications counted per hash bucket of topic names: bounded whatever names clients use.
    std::array<uint64_t, 256> notifications_{};
};

} // namespace mqdesk::server::pop
