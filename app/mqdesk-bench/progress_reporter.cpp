#include "app/mqdesk-bench/progress_reporter.h"

#include "app/mqdesk-bench/bench_report.h"

namespace mqdesk::bench {

using Clock = std::chrono::steady_clock;

ProgressReporter::ProgressReporter(const PutStats &stats, std::FILE *out, const char *what)
    : stats_(stats), out_(out), what_(what)
{}

ProgressReporter::~ProgressReporter()
{
    stop();
}

void ProgressReporter::start()
{
    last_ = Clock::now();
    lastLatency_ = stats_.latencyNanos.snapshot();
    thread_ = std::thread([this] { run(); });
}

void ProgressReporter::stop()
{
    if (!thread_.joinable())
        return;
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    stopRequested_.notify_one();
    thread_.join();
}

void ProgressReporter::run()
{
    auto next = last_ + std::chrono::seconds(1);
    std::unique_lock lock(mutex_);
    for (;;) {
        // Tick on a fixed schedule from the start, so a slow print never shifts later lines.
        if (stopRequested_.wait_until(lock, next, [this] { return stopping_; }))
            break;
        lock.unlock();
        report(Clock::now());
        lock.lock();
        next += std::chrono::seconds(1);
    }
    lock.unlock();
    // The tail of the run: worth a line only when puts finished in it.
    const bool anything = stats_.latencyNanos.snapshot().count() > lastLatency_.count()
                          || stats_.sendFailed.load(std::memory_order_relaxed) > lastSendFailed_
                          || stats_.responseFailed.load(std::memory_order_relaxed) > lastResponseFailed_;
    if (anything)
        report(Clock::now());
}

void ProgressReporter::report(Clock::time_point now)
{
    const auto latency = stats_.latencyNanos.snapshot();
    const uint64_t sendFailed = stats_.sendFailed.load(std::memory_order_relaxed);
    const uint64_t responseFailed = stats_.responseFailed.load(std::memory_order_relaxed);

    ProgressWindow window;
    window.end = std::chrono::system_clock::now();
    window.seconds = std::chrono::duration<double>(now - last_).count();
    window.latency = latency.since(lastLatency_);
    window.sendFailed = sendFailed - lastSendFailed_;
    window.responseFailed = responseFailed - lastResponseFailed_;
    window.what = what_;
    std::fprintf(out_, "%s\n", formatProgressLine(window).c_str());
    std::fflush(out_);

    last_ = now;
    lastLatency_ = latency;
    lastSendFailed_ = sendFailed;
    lastResponseFailed_ = responseFailed;
}

} // namespace mqdesk::bench
