#pragma once

// Keeps one fault from flooding the log: a fault that repeats (a client resending the same bad
// frame, a full disk refusing every put, accept() failing with EMFILE) is logged at most `burst`
// times per interval, and the next line logged says how many were left out. Thread-safe.
//
//     static common::LogRateLimiter limiter(std::chrono::seconds(10));
//     if (const auto suppressed = limiter.admit())
//         spdlog::warn("... ({} similar lines not logged)", *suppressed);

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

namespace mqdesk::common {

class LogRateLimiter
{
public:
    explicit LogRateLimiter(std::chrono::milliseconds interval = std::chrono::seconds(5), uint32_t burst = 1)
        : interval_(interval), burst_(burst)
    {}

    // A value when this occurrence should be logged: how many were left out since the last
    // logged one. nullopt when it should be dropped.
    std::optional<uint64_t> admit()
    {
        const auto now = std::chrono::steady_clock::now();
        std::lock_guard lock(mutex_);
        if (logged_ == 0 || now - windowStart_ >= interval_) {
            windowStart_ = now;
            logged_ = 0;
        }
        if (logged_ >= burst_) {
            ++suppressed_;
            return std::nullopt;
        }
        ++logged_;
        const uint64_t suppressed = suppressed_;
        suppressed_ = 0;
        return suppressed;
    }

    // " (N more like it since the last report)" for a non-zero count of what admit() left out,
    // else empty: the tail of the next line logged.
    static std::string heldNote(uint64_t held)
    {
        return held == 0 ? std::string() : " (" + std::to_string(held) + " more like it since the last report)";
    }

private:
    const std::chrono::steady_clock::duration interval_;
    const uint32_t burst_;
    std::mutex mutex_;
    std::chrono::steady_clock::time_point windowStart_; // guarded by mutex_
    uint32_t logged_ = 0;                               // in the current window; guarded by mutex_
    uint64_t suppressed_ = 0;                           // guarded by mutex_
};

} // namespace mqdesk::common
