#pragma once

// A named background thread with RocketMQ's ServiceThread semantics: run() loops until stop();
// waitForRunning(interval) sleeps for the interval or until wakeup(), whichever comes first.
// A wakeup() that arrives while the thread is busy is remembered, so the next wait returns
// immediately and no wakeup is lost. A service with nothing to do until its first task (a parked
// request, a message of its topic) calls startOnce() where that task arrives instead of start():
// an idle process then runs no thread for it. An exception escaping run() stops that service with a line
// on stderr naming it and the exception; it never terminates the process.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace mqdesk::common {

class ServiceThread
{
public:
    explicit ServiceThread(std::string name);
    virtual ~ServiceThread();
    ServiceThread(const ServiceThread &) = delete;
    ServiceThread &operator=(const ServiceThread &) = delete;

    void start();
    // Starts the thread unless it was started or stop() was called; a wakeup() before it is kept,
    // so run()'s first wait returns at once. Never throws: a thread the system refuses is logged
    // and the next call tries again. Thread-safe; one atomic load once started.
    void startOnce();
    // Asks run() to return, wakes it and joins. Derived destructors must call stop() so run()
    // never touches a half-destroyed object.
    void stop();
    void wakeup();

    const std::string &name() const { return name_; }
    bool isStopped() const { return stopped_.load(std::memory_order_acquire); }
    bool isStarted() const { return started_.load(std::memory_order_acquire); }

protected:
    virtual void run() = 0;
    // Returns after `interval` or at the first wakeup(); calls onWaitEnd() before returning.
    void waitForRunning(std::chrono::milliseconds interval);
    // Plain sleep, cut short only by stop() (not by wakeup()).
    void sleepFor(std::chrono::milliseconds interval);
    virtual void onWaitEnd() {}

private:
    void startLocked();

    std::string name_;
    // Guards thread_'s creation against stop(): once stop() has set stopped_ under it, no thread
    // starts, so the join sees the last one.
    std::mutex startMutex_;
    std::thread thread_;
    std::atomic<bool> started_{false};
    bool startFailureLogged_ = false; // guarded by startMutex_
    std::mutex mutex_;
    std::condition_variable wake_;
    // Set by wakeup() without the mutex when already set, so a burst of wakeups from many
    // threads costs one lock and one notify; read by the waiter under mutex_.
    std::atomic<bool> notified_{false};
    std::atomic<bool> stopped_{false};
};

} // namespace mqdesk::common
