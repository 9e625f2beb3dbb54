#pragma once

// The two clocks the engine reads: wall-clock milliseconds (store timestamps, as RocketMQ's
// System.currentTimeMillis) and a monotonic microsecond count (latencies).

#include <chrono>
#include <cstdint>

namespace mqdesk::common {

inline int64_t wallMillis()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

inline int64_t steadyMicros()
{
    using namespace std::chrono;
    return duration_cast<microseconds>(steady_clock::now().time_since_epoch()).count();
}

} // namespace mqdesk::common
