#include "broker/remoting/net/io_threads.h"

#include <spdlog/spdlog.h>

#include <pthread.h>

namespace mqdesk::remoting {

IoThreads::IoThreads()
    : io_(std::make_shared<asio::io_context>())
    , timer_(asio::make_strand(*io_))
{
}

IoThreads::~IoThreads()
{
    join();
}

void IoThreads::start(const std::string &name, size_t count, std::function<void()> scan)
{
    scan_ = std::move(scan);
    work_.emplace(asio::make_work_guard(*io_));
    scheduleScan();
    for (size_t i = 0; i < std::max<size_t>(count, 1); ++i) {
        const std::string threadName = (name + "-io-" + std::to_string(i)).substr(0, 15);
        threads_.emplace_back([this, threadName] {
            // A handler that throws must not end the thread (std::terminate would end the
            // process): log it and keep running the remaining handlers.
            for (;;) {
                try {
                    io_->run();
                    return;
                } catch (const std::exception &e) {
                    if (const auto suppressed = handlerFailures_.admit())
                        spdlog::error("io thread {}: a handler threw: {} ({} similar not logged)", threadName, e.what(),
                                      *suppressed);
                } catch (...) {
                    if (const auto suppressed = handlerFailures_.admit())
                        spdlog::error("io thread {}: a handler threw a non-standard exception ({} similar not logged)",
                                      threadName, *suppressed);
                }
            }
        });
        // Named by its creator, so the name is there once start() returns (ServiceThread too).
        pthread_setname_np(threads_.back().native_handle(), threadName.c_str());
    }
}

void IoThreads::scheduleScan()
{
    timer_.expires_after(kScanPeriod);
    timer_.async_wait([this](std::error_code ec) {
        if (ec || stopping_)
            return;
        scan_();
        scheduleScan();
    });
}

void IoThreads::join()
{
    if (stopping_.exchange(true))
        return;
    asio::post(timer_.get_executor(), [this] { timer_.cancel(); });
    work_.reset();
    for (std::thread &thread : threads_)
        thread.join();
    threads_.clear();
    // Not started, or handlers left by a thread that never ran: drop them now, while the
    // objects they refer to still exist.
    io_->restart();
    io_->poll();
}

} // namespace mqdesk::remoting
