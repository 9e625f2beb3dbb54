#include "broker/common/histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace mqdesk::common {

int Histogram::bucketIndex(uint64_t value)
{
    if (value < static_cast<uint64_t>(kSubBuckets))
        return static_cast<int>(value);
    int exponent = 63 - std::countl_zero(value); // >= kSubBucketBits
    if (exponent > kMaxExponent)
        return kBucketCount - 1;
    const int shift = exponent - kSubBucketBits;
    const auto sub = static_cast<int>((value >> shift) & (kSubBuckets - 1));
    return kSubBuckets + (exponent - kSubBucketBits) * kSubBuckets + sub;
}

uint64_t Histogram::bucketUpperBound(int index)
{
    if (index < kSubBuckets)
        return static_cast<uint64_t>(index);
    const int group = (index - kSubBuckets) / kSubBuckets;
    const int sub = (index - kSubBuckets) % kSubBuckets;
    const int exponent = group + kSubBucketBits;
    const int shift = exponent - kSubBucketBits;
    const uint64_t lower = (uint64_t{1} << exponent) | (static_cast<uint64_t>(sub) << shift);
    return lower + ((uint64_t{1} << shift) - 1);
}

Histogram::Snapshot Histogram::snapshot() const
{
    Snapshot s;
    for (int i = 0; i < kBucketCount; ++i)
        s.buckets_[i] = buckets_[i].load(std::memory_order_relaxed);
    // The count is derived from the buckets so that percentiles are self-consistent even
    // while other threads record.
    for (uint64_t b : s.buckets_)
        s.count_ += b;
    s.sum_ = sum_.load(std::memory_order_relaxed);
    s.max_ = max_.load(std::memory_order_relaxed);
    return s;
}

void Histogram::reset()
{
    for (auto &b : buckets_)
        b.store(0, std::memory_order_relaxed);
    count_.store(0, std::memory_order_relaxed);
    sum_.store(0, std::memory_order_relaxed);
    max_.store(0, std::memory_order_relaxed);
}

uint64_t Histogram::Snapshot::percentile(double q) const
{
    if (count_ == 0)
        return 0;
    q = std::clamp(q, 0.0, 1.0);
    const auto rank = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(q * static_cast<double>(count_))));
    uint64_t seen = 0;
    for (int i = 0; i < kBucketCount; ++i) {
        seen += buckets_[i];
        if (seen >= rank)
            return std::min(bucketUpperBound(i), max_);
    }
    return max_;
}

Histogram::Snapshot Histogram::Snapshot::since(const Snapshot &earlier) const
{
    Snapshot d;
    int highest = -1;
    for (int i = 0; i < kBucketCount; ++i) {
        d.buckets_[i] = buckets_[i] >= earlier.buckets_[i] ? buckets_[i] - earlier.buckets_[i] : 0;
        d.count_ += d.buckets_[i];
        if (d.buckets_[i])
            highest = i;
    }
    d.sum_ = sum_ >= earlier.sum_ ? sum_ - earlier.sum_ : 0;
    d.max_ = highest < 0 ? 0 : std::min(bucketUpperBound(highest), max_);
    return d;
}

} // namespace mqdesk::common
