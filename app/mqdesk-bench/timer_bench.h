#pragma once

// `mqdesk-bench timer`: RocketMQ 5 timer messages through the store (no network). In a fresh
// DIR/store with timerPrecisionMs = `precisionMs`: `count` plain puts (the baseline), then `count`
// puts with TIMER_DELIVER_MS spread evenly at random over the next `spreadMs`, then waits until
// every timer message reached its topic and reports the put rates side by side and the delivery
// lateness (store time of the delivered copy − TIMER_DELIVER_MS) as p50 / p99 / max against the
// precision, plus how many came early (never, if the wheel is right) or twice.

#include <cstdint>
#include <string>

namespace mqdesk::bench {

struct TimerBenchOptions
{
    std::string dir;
    int64_t count = 100000;
    int64_t spreadMs = 60000;
    int precisionMs = 1000;
    int64_t size = 128;
    bool json = false;
};

// Exit status: 0 done, 1 the store could not be opened or a put failed, 2 not every timer
// message was delivered within spreadMs + 60 s.
int runTimerBench(const TimerBenchOptions &options);

} // namespace mqdesk::bench
