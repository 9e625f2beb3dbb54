#include "broker/store/flush_metrics.h"

#include <algorithm>

namespace mqdesk::store {

void FlushMetrics::recordFlush(const FlushEvent &event)
{
    flushes_.fetch_add(1, std::memory_order_relaxed);
    flushedBytes_.fetch_add(event.bytes, std::memory_order_relaxed);
    flushLatency_.record(event.durationMicros);
    std::lock_guard lock(eventsMutex_);
    if (events_.size() < kEventCapacity) {
        events_.push_back(event);
    } else {
        events_[eventsNext_] = event;
    }
    eventsNext_ = (eventsNext_ + 1) % kEventCapacity;
}

std::vector<FlushEvent> FlushMetrics::recentFlushes(size_t count) const
{
    std::lock_guard lock(eventsMutex_);
    std::vector<FlushEvent> ordered;
    ordered.reserve(events_.size());
    if (events_.size() < kEventCapacity) {
        ordered = events_;
    } else {
        ordered.insert(ordered.end(), events_.begin() + static_cast<ptrdiff_t>(eventsNext_), events_.end());
        ordered.insert(ordered.end(), events_.begin(), events_.begin() + static_cast<ptrdiff_t>(eventsNext_));
    }
    if (ordered.size() > count)
        ordered.erase(ordered.begin(), ordered.end() - static_cast<ptrdiff_t>(count));
    return ordered;
}

void FlushMetrics::takeSecondSample(int64_t epochSecond, const FlushSampleState &state)
{
    const auto putLatency = putLatency_.snapshot();
    const auto flushLatency = flushLatency_.snapshot();
    const uint64_t puts = totalPuts(), putBytes = totalPutBytes(), flushes = totalFlushes();
    const uint64_t flushedBytes = totalFlushedBytes(), timeouts = totalFlushTimeouts();
    const uint64_t warmUps = totalWarmUps(), warmedBytes = totalWarmedBytes(), warmMicros = totalWarmMicros();

    std::lock_guard lock(samplesMutex_);
    const auto putWindow = putLatency.since(previousPutLatency_);
    const auto flushWindow = flushLatency.since(previousFlushLatency_);
    FlushSecondSample s;
    s.sequence = ++lastSequence_;
    s.epochSecond = epochSecond;
    s.puts = puts - previousPuts_;
    s.putBytes = putBytes - previousPutBytes_;
    s.flushes = flushes - previousFlushes_;
    s.flushedBytes = flushedBytes - previousFlushedBytes_;
    s.flushTimeouts = timeouts - previousTimeouts_;
    const auto clamp32 = [](uint64_t v) { return static_cast<uint32_t>(std::min<uint64_t>(v, UINT32_MAX)); };
    s.flushP50Micros = clamp32(flushWindow.percentile(0.5));
    s.flushP99Micros = clamp32(flushWindow.percentile(0.99));
    s.flushMaxMicros = clamp32(flushWindow.max());
    s.putP50Micros = clamp32(putWindow.percentile(0.5));
    s.putP99Micros = clamp32(putWindow.percentile(0.99));
    s.putMaxMicros = clamp32(putWindow.max());
    s.unflushedBytes = state.unflushedBytes;
    s.syncFlush = state.syncFlush;
    s.transientStorePool = state.transientStorePool;
    s.writeWithoutMmap = state.writeWithoutMmap;
    // recordWarmUp adds three counters one after another: a sample taken between them sees a
    // warm-up's count before its bytes; the next sample has the rest, and totals stay exact.
    s.warmUps = clamp32(warmUps - previousWarmUps_);
    s.warmedBytes = warmedBytes - previousWarmedBytes_;
    s.warmMicros = warmMicros - previousWarmMicros_;

    previousPutLatency_ = putLatency;
    previousFlushLatency_ = flushLatency;
    previousPuts_ = puts;
    previousPutBytes_ = putBytes;
    previousFlushes_ = flushes;
    previousFlushedBytes_ = flushedBytes;
    previousTimeouts_ = timeouts;
    previousWarmUps_ = warmUps;
    previousWarmedBytes_ = warmedBytes;
    previousWarmMicros_ = warmMicros;

    if (samples_.size() < kSampleCapacity)
        samples_.push_back(s);
    else
        samples_[(s.sequence - 1) % kSampleCapacity] = s;
}

std::vector<FlushSecondSample> FlushMetrics::samplesSince(uint64_t afterSequence) const
{
    std::lock_guard lock(samplesMutex_);
    std::vector<FlushSecondSample> out;
    const uint64_t oldest = lastSequence_ >= samples_.size() ? lastSequence_ - samples_.size() + 1 : 1;
    for (uint64_t seq = std::max(afterSequence + 1, oldest); seq <= lastSequence_; ++seq)
        out.push_back(samples_[(seq - 1) % kSampleCapacity]);
    return out;
}

} // namespace mqdesk::store
