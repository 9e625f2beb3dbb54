#pragma once

// Starts the broker's services that have nothing to do until their topic holds a message — the
// delay levels (SCHEDULE_TOPIC_XXXX), the transaction checks (RMQ_SYS_TRANS_HALF_TOPIC) and the
// POP revive (rmq_sys_REVIVE_LOG_<cluster>) — so an idle broker runs no thread for them:
//  - the store's arrival listener calls onMessageArriving() for every dispatched message; the
//    first message of a service's topic starts it;
//  - arm(), once the services are loaded, starts those whose topic the store already holds
//    messages of (a restart) and those whose message arrived before it.
// A message dispatched before arm() is never missed: the listener runs after the consume queue
// has it and checks `armed_` under the mutex arm() sets it under, so either the listener sees
// the service armed or arm()'s look at the store sees the message.
//
// Threads: onMessageArriving() on the dispatch thread (one compare per service unless the topic
// is one of theirs); arm() and disarm() on the broker's start and shutdown. Thread-safe.

#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace mqdesk::server {

class TopicStartedServices
{
public:
    struct Service
    {
        std::string topic;
        std::function<void()> start;         // idempotent (ServiceThread::startOnce)
        std::function<bool()> storeHoldsAny; // any message of `topic` in the store
    };

    explicit TopicStartedServices(std::vector<Service> services);

    void arm();
    // From now on nothing is started (shutdown: the services are about to stop).
    void disarm();
    void onMessageArriving(const std::string &topic);

private:
    const std::vector<Service> services_;
    std::mutex mutex_;
    bool armed_ = false; // guarded by mutex_
};

} // namespace mqdesk::server
