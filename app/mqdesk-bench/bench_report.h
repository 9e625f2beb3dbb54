#pragma once

// The text mqdesk-bench prints: the once-a-second progress line in the form of RocketMQ's
// benchmark Producer (so existing log scrapers and habits carry over), the final summary for
// people, and the same summary as one JSON object for scripts.

#include "app/mqdesk-bench/bench_options.h"
#include "app/mqdesk-bench/disk_baseline.h"
#include "broker/common/histogram.h"

#include <chrono>
#include <cstdint>
#include <string>

namespace mqdesk::bench {

// The puts acknowledged during one reporting interval.
struct ProgressWindow
{
    std::chrono::system_clock::time_point end;
    double seconds = 1.0;
    common::Histogram::Snapshot latency; // ns of the stored puts acknowledged in the window
    uint64_t sendFailed = 0;
    uint64_t responseFailed = 0;
    const char *what = "Send"; // "Send TPS", or "Consume TPS" for the consume benchmark
};

std::string formatProgressLine(const ProgressWindow &window);

// Latency percentiles in µs.
struct LatencySummary
{
    double p50 = 0;
    double p99 = 0;
    double p999 = 0;
    double max = 0;

    // `unitsPerMicro`: 1000 for a histogram of nanoseconds, 1 for one of microseconds.
    static LatencySummary of(const common::Histogram::Snapshot &snapshot, double unitsPerMicro);
};

struct StoreBenchResult
{
    uint64_t stored = 0;         // puts answered PUT_OK or FLUSH_DISK_TIMEOUT
    uint64_t sendFailed = 0;     // puts not stored
    uint64_t responseFailed = 0; // FLUSH_DISK_TIMEOUT: stored, durability not confirmed in time
    uint64_t storedBytes = 0;    // commit-log bytes of the stored records
    double elapsedSeconds = 0;   // first put until the final flush returned
    double finalFlushSeconds = 0;
    bool finalFlushComplete = true;
    LatencySummary put;
    LatencySummary flush;
    uint64_t flushes = 0;
    int64_t dispatchBehindBytesMax = 0;  // largest gap between appends and dispatch seen
    double dispatchCatchUpMillis = 0;    // dispatch's catch-up after the last put

    double tps() const;
    double mbPerSecond() const;
};

std::string formatSummary(const StoreBenchOptions &options, const StoreBenchResult &result,
                          const DiskBaseline &baseline);
std::string formatJson(const StoreBenchOptions &options, const StoreBenchResult &result,
                       const DiskBaseline &baseline);

} // namespace mqdesk::bench
