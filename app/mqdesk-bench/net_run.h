#pragma once

// What the network benchmarks share: one run's result, its first failure, and the helpers that
// split a workload over threads and gather what the threads recorded. The remoting runs
// (net_bench.cpp) and the gRPC run (grpc_bench.cpp) fill the same NetRunResult, so they are
// reported, and compared, the same way.

#include "app/mqdesk-bench/bench_report.h"
#include "app/mqdesk-bench/progress_reporter.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mqdesk::bench {

using Clock = std::chrono::steady_clock;

// The first failure of a run, kept for the summary so a failing run says why.
class FirstFailure
{
public:
    void note(const std::string &error)
    {
        std::lock_guard lock(mutex_);
        if (text_.empty())
            text_ = error;
    }
    std::string text()
    {
        std::lock_guard lock(mutex_);
        return text_;
    }

private:
    std::mutex mutex_;
    std::string text_;
};

struct NetRunResult
{
    std::string target;         // the address measured (a NameServer, a gRPC endpoint)
    uint64_t messages = 0;      // sent and acknowledged / consumed
    uint64_t failed = 0;        // sends or pulls that failed
    double elapsedSeconds = 0;
    LatencySummary rt;          // per send / per pull, µs
    std::string error;          // why the run could not start
    std::string firstFailure;   // the first failed send or pull, for the summary

    double tps() const { return elapsedSeconds > 0 ? static_cast<double>(messages) / elapsedSeconds : 0; }
};

inline uint64_t elapsedNanos(Clock::time_point since)
{
    return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - since).count());
}

// Spreads `total` over `threads`: the first ones get one more.
inline int64_t shareOf(int64_t total, int threads, int index)
{
    return total / threads + (index < total % threads ? 1 : 0);
}

// At most `limit` asynchronous calls in flight: a sender takes a slot before each call, the
// call's completion (on another thread) gives it back. Held by shared_ptr from the completions:
// they may outlive a failed run's loop.
class InFlightWindow
{
public:
    explicit InFlightWindow(int limit) : limit_(limit) {}

    void acquire()
    {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return inFlight_ < limit_; });
        ++inFlight_;
    }
    void release()
    {
        std::lock_guard lock(mutex_);
        --inFlight_;
        changed_.notify_all();
    }
    // Returns when every call taken is answered.
    void waitIdle()
    {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return inFlight_ == 0; });
    }

private:
    const int limit_;
    std::mutex mutex_;
    std::condition_variable changed_;
    int inFlight_ = 0; // guarded by mutex_
};

// Joins the workers and fills `result` from what they recorded.
inline void finishRun(std::vector<std::thread> &threads, Clock::time_point start, ProgressReporter &reporter,
                      const PutStats &stats, FirstFailure &failure, NetRunResult &result)
{
    for (std::thread &thread : threads)
        thread.join();
    result.elapsedSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    reporter.stop();
    const auto latency = stats.latencyNanos.snapshot();
    result.messages = latency.count();
    result.failed = stats.sendFailed.load();
    result.rt = LatencySummary::of(latency, 1000.0);
    result.firstFailure = failure.text();
}

// The timed part of a produce run, whatever the protocol: `threads` senders share `count`
// messages; with `pipeline` <= 1 each calls `send()` (blocking; returns "" when stored, else why
// not), otherwise `sendAsync(done)` with at most `pipeline` calls in flight, `done(error)` called
// once per call from any thread. Progress lines go to `progress`; the result says how it went.
template<typename Send, typename SendAsync>
void produceOnThreads(int threads, int64_t count, int pipeline, std::FILE *progress, const Send &send,
                      const SendAsync &sendAsync, NetRunResult &result)
{
    PutStats stats;
    FirstFailure failure;
    const auto record = [&](const std::string &error, Clock::time_point sent) {
        if (error.empty()) {
            stats.latencyNanos.record(elapsedNanos(sent));
        } else {
            stats.sendFailed.fetch_add(1, std::memory_order_relaxed);
            failure.note(error);
        }
    };
    ProgressReporter reporter(stats, progress, "Send");
    reporter.start();
    const Clock::time_point start = Clock::now();
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            const int64_t mine = shareOf(count, threads, t);
            if (pipeline <= 1) {
                for (int64_t i = 0; i < mine; ++i) {
                    const Clock::time_point sent = Clock::now();
                    record(send(), sent);
                }
                return;
            }
            auto window = std::make_shared<InFlightWindow>(pipeline); // completions may outlive the loop
            for (int64_t i = 0; i < mine; ++i) {
                window->acquire();
                const Clock::time_point sent = Clock::now();
                sendAsync([window, sent, &record](const std::string &error) {
                    record(error, sent);
                    window->release();
                });
            }
            window->waitIdle();
        });
    }
    finishRun(workers, start, reporter, stats, failure, result);
}

} // namespace mqdesk::bench
