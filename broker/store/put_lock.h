#pragma once

// The commit log's put lock, chosen by useReentrantLockWhenPutMessage as in RocketMQ:
//   true  (default) a mutex: a put that finds it taken sleeps until it is released;
//   false a spin lock (RocketMQ's PutMessageSpinLock): it spins instead, which saves the
//         sleep and the wake-up when the holder is about to finish, and wastes the CPU when
//         it is not. After a short spin it yields, so a holder that lost its CPU gets it back
//         (RocketMQ's lock never yields: with more put threads than cores that can stall).
// The kind is fixed at construction. Satisfies BasicLockable, for std::lock_guard.

#include <atomic>
#include <mutex>
#include <thread>

namespace mqdesk::store {

class PutLock
{
public:
    explicit PutLock(bool sleeping = true) : sleeping_(sleeping) {}
    PutLock(const PutLock &) = delete;
    PutLock &operator=(const PutLock &) = delete;

    bool isSpinLock() const { return !sleeping_; }

    void lock()
    {
        if (sleeping_) {
            mutex_.lock();
            return;
        }
        for (int attempt = 0; held_.exchange(true, std::memory_order_acquire); ++attempt) {
            while (held_.load(std::memory_order_relaxed)) {
                if (attempt < 64) {
#if defined(__x86_64__) || defined(__i386__)
                    __builtin_ia32_pause();
#endif
                    ++attempt;
                } else {
                    std::this_thread::yield();
                }
            }
        }
    }

    void unlock()
    {
        if (sleeping_)
            mutex_.unlock();
        else
            held_.store(false, std::memory_order_release);
    }

private:
    const bool sleeping_;
    std::mutex mutex_;
    std::atomic<bool> held_{false};
};

} // namespace mqdesk::store
