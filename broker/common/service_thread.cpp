#include "broker/common/service_thread.h"

#include <pthread.h>

#include <cstdio>
#include <exception>
#include <system_error>
#include <utility>

namespace mqdesk::common {

ServiceThread::ServiceThread(std::string name) : name_(std::move(name)) {}

ServiceThread::~ServiceThread()
{
    // A derived class that forgot stop() would have run() racing its destruction; joining here
    // at least keeps the thread from outliving this object.
    if (thread_.joinable()) {
        stopped_.store(true, std::memory_order_release);
        wakeup();
        thread_.join();
    }
}

void ServiceThread::start()
{
    std::lock_guard lock(startMutex_);
    stopped_.store(false, std::memory_order_release);
    startLocked();
}

void ServiceThread::startOnce()
{
    if (isStarted())
        return;
    std::lock_guard lock(startMutex_);
    if (isStarted() || isStopped())
        return;
    // Called where a task arrives (the dispatch thread, a request's executor): a system that
    // refuses a thread must not take that caller down. The next task tries again.
    try {
        startLocked();
    } catch (const std::system_error &e) {
        if (!std::exchange(startFailureLogged_, true)) // once: every task would say it again
            std::fprintf(stderr, "[error] service thread %s cannot start: %s; each next task tries again\n",
                         name_.c_str(), e.what());
    }
}

void ServiceThread::startLocked()
{
    thread_ = std::thread([this] {
        // An exception escaping a thread ends the process (std::terminate). A service that
        // throws stops instead, saying why, and the process stays up for everything else.
        try {
            run();
        } catch (const std::exception &e) {
            std::fprintf(stderr, "[error] service thread %s stopped: uncaught exception: %s\n", name_.c_str(), e.what());
        } catch (...) {
            std::fprintf(stderr, "[error] service thread %s stopped: uncaught exception of unknown type\n", name_.c_str());
        }
    });
    // Named here, not by the thread itself: once start() returns the name is there for anyone
    // listing the process's threads (the console, top -H, a test reading /proc right after the
    // ready line), however late the new thread is scheduled.
    pthread_setname_np(thread_.native_handle(), name_.substr(0, 15).c_str());
    started_.store(true, std::memory_order_release);
}

void ServiceThread::stop()
{
    {
        std::lock_guard lock(startMutex_);
        stopped_.store(true, std::memory_order_release);
    }
    // Notify even when a wakeup is pending: sleepFor() ignores wakeups, so a pending one may
    // never have been consumed and wakeup() would not notify again.
    { std::lock_guard lock(mutex_); }
    wake_.notify_all();
    if (thread_.joinable())
        thread_.join();
}

void ServiceThread::wakeup()
{
    if (notified_.exchange(true, std::memory_order_acq_rel))
        return;
    // Taking the mutex orders this notify after a waiter's check of notified_, so the wakeup
    // cannot fall between its check and its sleep.
    { std::lock_guard lock(mutex_); }
    wake_.notify_one();
}

void ServiceThread::waitForRunning(std::chrono::milliseconds interval)
{
    {
        std::unique_lock lock(mutex_);
        if (!notified_.load(std::memory_order_acquire) && !isStopped())
            wake_.wait_for(lock, interval, [this] { return notified_.load(std::memory_order_acquire) || isStopped(); });
        notified_.store(false, std::memory_order_release);
    }
    onWaitEnd();
}

void ServiceThread::sleepFor(std::chrono::milliseconds interval)
{
    std::unique_lock lock(mutex_);
    const auto deadline = std::chrono::steady_clock::now() + interval;
    while (!isStopped()) {
        if (wake_.wait_until(lock, deadline) == std::cv_status::timeout)
            break;
    }
}

} // namespace mqdesk::common
