#pragma once

// Rate limit for the log lines of one fault: a fault that repeats (a full disk refusing every
// put, a failing flush retried every millisecond) is said at most once per interval, with the
// number of repeats held back since the last line, instead of flooding the log.
//
// Threading: admit() may be called from any thread; it is lock-free.

#include "broker/common/clock.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

namespace mqdesk::store {

class LogThrottle
{
public:
    explicit LogThrottle(int64_t intervalMillis = 5000) : intervalMillis_(intervalMillis) {}

    // nullopt: hold this line back. Otherwise log it now; the value is how many lines were held
    // back since the last one that was logged.
    std::optional<uint64_t> admit()
    {
        const int64_t now = common::steadyMicros() / 1000;
        int64_t last = lastMillis_.load(std::memory_order_relaxed);
        if (last != kNever && now - last < intervalMillis_) {
            held_.fetch_add(1, std::memory_order_relaxed);
            return std::nullopt;
        }
        if (!lastMillis_.compare_exchange_strong(last, now, std::memory_order_relaxed)) {
            held_.fetch_add(1, std::memory_order_relaxed); // another thread logs this round
            return std::nullopt;
        }
        return held_.exchange(0, std::memory_order_relaxed);
    }

    // " (N more like it since the last report)" for a non-zero count, else empty.
    static std::string heldNote(uint64_t held)
    {
        return held == 0 ? std::string()
                         : " (" + std::to_string(held) + " more like it since the last report)";
    }

private:
    static constexpr int64_t kNever = INT64_MIN;
    const int64_t intervalMillis_;
    std::atomic<int64_t> lastMillis_{kNever};
    std::atomic<uint64_t> held_{0};
};

} // namespace mqdesk::store
