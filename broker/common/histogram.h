#pragma once

// A log-linear histogram of non-negative integer values (latencies in µs, sizes in bytes):
// exact below 16, then 16 linear sub-buckets per power of two, so any recorded value is
// reported within 1/16 (6.25%) of itself. Recording is a few relaxed atomic adds, safe from any
// number of threads and never blocking; readers take a Snapshot at any time.

#include <array>
#include <atomic>
#include <cstdint>

namespace mqdesk::common {

class Histogram
{
public:
    static constexpr int kSubBucketBits = 4;
    static constexpr int kSubBuckets = 1 << kSubBucketBits;
    static constexpr int kMaxExponent = 48; // values up to 2^48 are kept apart; larger clamp
    static constexpr int kBucketCount = kSubBuckets + (kMaxExponent - kSubBucketBits + 1) * kSubBuckets;

    class Snapshot
    {
    public:
        uint64_t count() const { return count_; }
        uint64_t sum() const { return sum_; }
        uint64_t max() const { return max_; }
        double mean() const { return count_ ? static_cast<double>(sum_) / count_ : 0.0; }
        // The value at quantile q in [0, 1]: the upper bound of the bucket holding it, capped
        // at the largest value recorded. 0 when empty.
        uint64_t percentile(double q) const;
        // Counts recorded between `earlier` and this snapshot. max() of the result is the upper
        // bound of its highest non-empty bucket (capped at this snapshot's max).
        Snapshot since(const Snapshot &earlier) const;

    private:
        friend class Histogram;
        std::array<uint64_t, kBucketCount> buckets_{};
        uint64_t count_ = 0;
        uint64_t sum_ = 0;
        uint64_t max_ = 0;
    };

    void record(uint64_t value)
    {
        buckets_[bucketIndex(value)].fetch_add(1, std::memory_order_relaxed);
        count_.fetch_add(1, std::memory_order_relaxed);
        sum_.fetch_add(value, std::memory_order_relaxed);
        uint64_t seen = max_.load(std::memory_order_relaxed);
        while (value > seen && !max_.compare_exchange_weak(seen, value, std::memory_order_relaxed)) {
        }
    }

    Snapshot snapshot() const;
    void reset();

    static int bucketIndex(uint64_t value);
    static uint64_t bucketUpperBound(int index);

private:
    std::array<std::atomic<uint64_t>, kBucketCount> buckets_{};
    std::atomic<uint64_t> count_{0};
    std::atomic<uint64_t> sum_{0};
    std::atomic<uint64_t> max_{0};
};

} // namespace mqdesk::common
