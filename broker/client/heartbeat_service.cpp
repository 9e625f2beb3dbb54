#include "broker/client/heartbeat_service.h"

#include <chrono>

namespace mqdesk::client {

HeartbeatService::HeartbeatService(MQClientAPI &api, DataSource data, BrokerSource brokers)
    : api_(api), data_(std::move(data)), brokers_(std::move(brokers))
{}

HeartbeatService::~HeartbeatService() { stop(); }

void HeartbeatService::start()
{
    std::lock_guard lock(mutex_);
    if (thread_.joinable())
        return;
    stopping_ = false;
    thread_ = std::thread([this] { run(); });
}

void HeartbeatService::stop()
{
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable())
        thread_.join();
}

Status HeartbeatService::sendNow()
{
    const remoting::HeartbeatData data = data_();
    Status first;
    for (const std::string &addr : brokers_()) {
        Status status = api_.sendHeartbeat(addr, data);
        if (!status.ok && first.ok)
            first = std::move(status);
    }
    return first;
}

void HeartbeatService::run()
{
    const auto interval = std::chrono::milliseconds(api_.config().heartbeatBrokerIntervalMillis);
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        lock.unlock();
        sendNow(); // failures are retried next round; the caller saw start()'s first one
        lock.lock();
        wake_.wait_for(lock, interval, [this] { return stopping_; });
    }
}

} // namespace mqdesk::client
