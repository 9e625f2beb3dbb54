#pragma once

// The once-a-second progress line of a running benchmark, printed by its own thread so the put
// threads never format or write anything.

#include "broker/common/histogram.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <thread>

namespace mqdesk::bench {

// What the put threads share: relaxed atomic adds only, readable at any time.
struct PutStats
{
    common::Histogram latencyNanos; // stored puts, from the call to the acknowledgement (ns:
                                    // an ASYNC put takes well under a microsecond)
    std::atomic<uint64_t> sendFailed{0};
    std::atomic<uint64_t> responseFailed{0};
};

class ProgressReporter
{
public:
    // `what` names the operation in the line ("Send", "Consume").
    ProgressReporter(const PutStats &stats, std::FILE *out, const char *what = "Send");
    ~ProgressReporter();
    ProgressReporter(const ProgressReporter &) = delete;
    ProgressReporter &operator=(const ProgressReporter &) = delete;

    void start();
    // Prints the last, partial interval (if anything happened in it) and joins the thread.
    void stop();

private:
    void run();
    void report(std::chrono::steady_clock::time_point now);

    const PutStats &stats_;
    std::FILE *out_;
    const char *what_;
    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable stopRequested_;
    bool stopping_ = false; // guarded by mutex_

    // Reporter thread only: the state at the previous line.
    std::chrono::steady_clock::time_point last_;
    common::Histogram::Snapshot lastLatency_;
    uint64_t lastSendFailed_ = 0;
    uint64_t lastResponseFailed_ = 0;
};

} // namespace mqdesk::bench
