#pragma once

// What the flush services and the put path measure, for the benchmark and the console's live
// graph. Put threads only do relaxed atomic adds; flush threads append flush events under a
// mutex no put thread ever takes; readers copy snapshots. Nothing here slows a writer down.

#include "broker/common/histogram.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

namespace mqdesk::store {

enum class FlushKind : uint8_t {
    GroupCommit, // SYNC_FLUSH: forced for waiting puts
    Timed,       // ASYNC_FLUSH: at least flushCommitLogLeastPages pages
    Thorough,    // ASYNC_FLUSH: anything new, every flushCommitLogThoroughInterval
    Shutdown
};

struct FlushEvent
{
    int64_t endTimeMillis = 0;  // wall clock when the flush returned
    uint32_t durationMicros = 0;
    uint64_t bytes = 0;
    uint32_t satisfiedPuts = 0; // SYNC puts acknowledged by this flush
    FlushKind kind = FlushKind::Timed;
};

// One second of activity. Sequence numbers increase by one per sample, so a reader that
// remembers the last it saw never misses or repeats a second.
struct FlushSecondSample
{
    uint64_t sequence = 0;
    int64_t epochSecond = 0;
    uint64_t puts = 0;
    uint64_t putBytes = 0;
    uint64_t flushes = 0;
    uint64_t flushedBytes = 0;
    uint64_t flushTimeouts = 0;
    uint32_t flushP50Micros = 0;
    uint32_t flushP99Micros = 0;
    uint32_t flushMaxMicros = 0;
    uint32_t putP50Micros = 0;
    uint32_t putP99Micros = 0;
    uint32_t putMaxMicros = 0;
    uint64_t unflushedBytes = 0; // data at risk at the end of the second
    bool syncFlush = false;
    bool transientStorePool = false;
    bool writeWithoutMmap = false; // appends went through pwrite at the end of the second
    // warmMapedFileEnable: commit-log files whose warm-up ended in this second, and what they cost.
    uint32_t warmUps = 0;
    uint64_t warmedBytes = 0;
    uint64_t warmMicros = 0;
};

// The store's state a second sample records beside the counters.
struct FlushSampleState
{
    uint64_t unflushedBytes = 0;
    bool syncFlush = false;
    bool transientStorePool = false;
    bool writeWithoutMmap = false;
};

class FlushMetrics
{
public:
    static constexpr size_t kSampleCapacity = 1024; // > 17 minutes of seconds
    static constexpr size_t kEventCapacity = 4096;

    // Put path (any thread).
    void recordPut(uint64_t messages, uint64_t bytes)
    {
        puts_.fetch_add(messages, std::memory_order_relaxed);
        putBytes_.fetch_add(bytes, std::memory_order_relaxed);
    }
    // Time from a put's arrival to its acknowledgement (after the flush in SYNC_FLUSH).
    void recordPutLatency(uint64_t micros) { putLatency_.record(micros); }
    void recordFlushTimeout() { flushTimeouts_.fetch_add(1, std::memory_order_relaxed); }
    // warmMapedFileEnable: one commit-log file warmed (AllocateMappedFileService).
    void recordWarmUp(int64_t bytes, int64_t micros)
    {
        warmUps_.fetch_add(1, std::memory_order_relaxed);
        warmedBytes_.fetch_add(static_cast<uint64_t>(bytes), std::memory_order_relaxed);
        warmMicros_.fetch_add(static_cast<uint64_t>(micros), std::memory_order_relaxed);
    }

    // Flush services.
    void recordFlush(const FlushEvent &event);

    // Called once a second by the store's ticker.
    void takeSecondSample(int64_t epochSecond, const FlushSampleState &state);

    // Readers (any thread).
    common::Histogram::Snapshot flushLatency() const { return flushLatency_.snapshot(); }
    common::Histogram::Snapshot putLatency() const { return putLatency_.snapshot(); }
    uint64_t totalPuts() const { return puts_.load(std::memory_order_relaxed); }
    uint64_t totalPutBytes() const { return putBytes_.load(std::memory_order_relaxed); }
    uint64_t totalFlushes() const { return flushes_.load(std::memory_order_relaxed); }
    uint64_t totalFlushedBytes() const { return flushedBytes_.load(std::memory_order_relaxed); }
    uint64_t totalFlushTimeouts() const { return flushTimeouts_.load(std::memory_order_relaxed); }
    uint64_t totalWarmUps() const { return warmUps_.load(std::memory_order_relaxed); }
    uint64_t totalWarmedBytes() const { return warmedBytes_.load(std::memory_order_relaxed); }
    uint64_t totalWarmMicros() const { return warmMicros_.load(std::memory_order_relaxed); }
    // Samples with sequence > `afterSequence`, oldest first (at most kSampleCapacity).
    std::vector<FlushSecondSample> samplesSince(uint64_t afterSequence) const;
    // The most recent flush events, oldest first.
    std::vector<FlushEvent> recentFlushes(size_t count) const;

private:
    std::atomic<uint64_t> puts_{0};
    std::atomic<uint64_t> putBytes_{0};
    std::atomic<uint64_t> flushes_{0};
    std::atomic<uint64_t> flushedBytes_{0};
    std::atomic<uint64_t> flushTimeouts_{0};
    std::atomic<uint64_t> warmUps_{0};
    std::atomic<uint64_t> warmedBytes_{0};
    std::atomic<uint64_t> warmMicros_{0};
    common::Histogram putLatency_;
    common::Histogram flushLatency_;

    mutable std::mutex eventsMutex_;
    std::vector<FlushEvent> events_; // ring, guarded by eventsMutex_
    size_t eventsNext_ = 0;          // guarded by eventsMutex_

    mutable std::mutex samplesMutex_;
    std::vector<FlushSecondSample> samples_; // ring, guarded by samplesMutex_
    uint64_t lastSequence_ = 0;              // guarded by samplesMutex_
    // State at the previous sample, to turn cumulative figures into per-second ones.
    common::Histogram::Snapshot previousPutLatency_;   // guarded by samplesMutex_
    common::Histogram::Snapshot previousFlushLatency_; // guarded by samplesMutex_
    uint64_t previousPuts_ = 0, previousPutBytes_ = 0, previousFlushes_ = 0;
    uint64_t previousFlushedBytes_ = 0, previousTimeouts_ = 0; // guarded by samplesMutex_
    uint64_t previousWarmUps_ = 0, previousWarmedBytes_ = 0, previousWarmMicros_ = 0; // guarded by samplesMutex_
};

} // namespace mqdesk::store
