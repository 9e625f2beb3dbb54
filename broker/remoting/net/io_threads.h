#pragma once

// Internal to the remoting library (pulls in Asio): the io_context and threads shared by the
// server and the client, and the periodic timeout scan both run over their connections.

#include "broker/common/log_rate_limiter.h"
#include "broker/remoting/net/remoting_connection.h"

#include <asio.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace mqdesk::remoting {

class IoThreads
{
public:
    // The scan period for request timeouts; a timeout fires up to this much late.
    static constexpr std::chrono::milliseconds kScanPeriod{100};

    IoThreads();
    ~IoThreads();

    const std::shared_ptr<asio::io_context> &context() const { return io_; }

    // Starts `count` threads named "<name>-io-<i>" and the scan calling `scan` every
    // kScanPeriod on one of them.
    void start(const std::string &name, size_t count, std::function<void()> scan);
    // Cancels the scan, lets the io_context run out of work (the owner has closed its sockets
    // and acceptor by now) and joins the threads. Idempotent.
    void join();

private:
    void scheduleScan();

    std::shared_ptr<asio::io_context> io_;
    std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work_;
    asio::steady_timer timer_;
    std::function<void()> scan_;
    std::atomic<bool> stopping_{false};
    common::LogRateLimiter handlerFailures_{std::chrono::seconds(10)};
    std::vector<std::thread> threads_;
};

} // namespace mqdesk::remoting
