#pragma once

// Keeps one fault from flooding the log: a fault that repeats (a client resending the same bad
// frame, a full disk refusing every put, accept() failing with EMFILE) is logged at most once
// per interval, and the next line says how many were left out. Thread-safe.
//
//     static common::LogRateLimiter limiter(std::chrono::seconds(10));
//     if (const auto suppressed = limiter.admit())
//         spdlog::warn("... ({} similar lines suppressed)", *suppressed);

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>

namespace mqdesk::common {

class LogRateLimiter
{
public:
    explicit LogRateLimiter(std::chrono::milliseconds interval) : interval_(interval.count()) {}

    // A value when this occurrence should be logged: how many were suppressed since the last
    // logged one. nullopt when it should be dropped.
    std::optional<uint64_t> admit()
    {
        const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::steady_clock::now().time_since_epoch())
                                .count();
        int64_t last = lastLoggedMillis_.load(std::memory_order_relaxed);
        if (last != kNever && now - last < interval_) {
            suppressed_.fetch_add(1, std::memory_order_relaxed);
            return std::nullopt;
        }
        if (!lastLoggedMillis_.compare_exchange_strong(last, now, std::memory_order_relaxed)) {
            suppressed_.fetch_add(1, std::memory_order_relaxed);
            return std::nullopt; // another thread logs this round
        }
        return suppressed_.exchange(0, std::memory_order_relaxed);
    }

private:
    static constexpr int64_t kNever = INT64_MIN;

    const int64_t interval_;
    std::atomic<int64_t> lastLoggedMillis_{kNever};
    std::atomic<uint64_t> suppressed_{0};
};

} // namespace mqdesk::common
