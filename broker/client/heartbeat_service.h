#pragma once

// Sends HEART_BEAT (remoting spec §6.1) to every broker a client knows, at start and then
// every heartbeatBrokerIntervalMillis, so that its groups appear in the broker's connection
// tables (and consumers are not dropped after 120 s of silence).

#include "broker/client/mq_client_api.h"

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace mqdesk::client {

class HeartbeatService
{
public:
    using DataSource = std::function<remoting::HeartbeatData()>;
    using BrokerSource = std::function<std::vector<std::string>()>; // broker addresses

    HeartbeatService(MQClientAPI &api, DataSource data, BrokerSource brokers);
    ~HeartbeatService(); // stops
    HeartbeatService(const HeartbeatService &) = delete;
    HeartbeatService &operator=(const HeartbeatService &) = delete;

    void start();
    // Joins the thread. Idempotent.
    void stop();
    // One round now, on the calling thread: the first failure, or ok (also with no broker).
    Status sendNow();

private:
    void run();

    MQClientAPI &api_;
    DataSource data_;
    BrokerSource brokers_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false; // guarded by mutex_
    std::thread thread_;
};

} // namespace mqdesk::client
