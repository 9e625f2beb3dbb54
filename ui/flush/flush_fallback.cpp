#include "ui/flush/flush_fallback.h"

#include "broker/client/admin_client.h"
#include "ui/flush/flush_series.h"

#include <QCoreApplication>
#include <QDateTime>

#include <cmath>
#include <limits>

namespace mqdesk::ui {

namespace {

// Per second over `millis`, never negative (a counter that went back means a restart).
int64_t perSecond(int64_t delta, int64_t millis)
{
    if (delta <= 0 || millis <= 0)
        return 0;
    return static_cast<int64_t>(std::llround(static_cast<double>(delta) * 1000.0 / static_cast<double>(millis)));
}

// The open last bucket ("[10s~]") has no upper bound: the one below stands for it.
int64_t drawable(const std::vector<client::LatencyBucket> &buckets, int64_t upper)
{
    if (upper != std::numeric_limits<int64_t>::max() || buckets.size() < 2)
        return upper;
    return buckets[buckets.size() - 2].upperMicros;
}

} // namespace

RuntimePoll pollRuntime(client::AdminClient &admin, const std::string &brokerAddr)
{
    RuntimePoll poll;
    const client::Result<remoting::KVTable> table = admin.brokerRuntimeInfo(brokerAddr);
    poll.takenAt = QDateTime::currentMSecsSinceEpoch();
    if (!table.ok) {
        poll.status = table.status();
        return poll;
    }
    poll.runtime = client::readBrokerRuntime(table.value.table);
    if (poll.runtime.flushDiskType.empty()) {
        const auto config = admin.brokerConfig(brokerAddr);
        if (config.ok) {
            if (const auto type = config.value.find("flushDiskType"); type != config.value.end())
                poll.configFlushDiskType = type->second;
            const auto pool = config.value.find("transientStorePoolEnable");
            poll.configPool = pool != config.value.end() && pool->second == "true";
        }
    }
    return poll;
}

client::FlushSamples RuntimeSampler::toAnswer(const RuntimePoll &poll)
{
    const client::BrokerRuntime &r = poll.runtime;
    const bool reportedByRuntime = !r.flushDiskType.empty();
    const std::string type = reportedByRuntime ? r.flushDiskType : poll.configFlushDiskType;
    const bool pool = reportedByRuntime ? r.transientStorePoolEnable.value_or(false) : poll.configPool;
    const int64_t boot = r.bootTimestamp.value_or(0);
    configuredMode_ = FlushSeries::modeName(type, pool);
    if (!bootTimestamp_ || *bootTimestamp_ != boot || reportedByRuntime) {
        // A new boot (or MQDesk, which reports the live mode) runs as configured.
        runningMode_ = configuredMode_;
        lastMaxOffset_.reset();
        lastFlushedOffset_.reset();
        lastBuckets_.clear();
        lastTakenAt_.reset();
    }
    bootTimestamp_ = boot;

    client::FlushSample sample;
    sample.sequence = ++sequence_;
    sample.timestamp = poll.takenAt;
    sample.epochSecond = poll.takenAt / 1000;
    sample.flushDiskType = runningMode_.section(QLatin1Char(' '), 0, 0).toStdString();
    sample.transientStorePoolEnable = runningMode_.contains(QLatin1Char('+'));
    sample.putTps = static_cast<int64_t>(std::llround(r.putTps.value_or(0)));
    sample.puts = sample.putTps;
    sample.dataAtRiskBytes = r.remainToFlushBytes.value_or(0);
    sample.putToAckMaxMicros = r.putMessageEntireTimeMaxMillis.value_or(0) * 1000;

    const int64_t elapsed = lastTakenAt_ ? poll.takenAt - *lastTakenAt_ : 0;
    if (r.commitLogMaxOffset) {
        if (lastMaxOffset_)
            sample.putBytes = perSecond(*r.commitLogMaxOffset - *lastMaxOffset_, elapsed);
        lastMaxOffset_ = r.commitLogMaxOffset;
        if (r.remainToFlushBytes) {
            const int64_t flushed = *r.commitLogMaxOffset - *r.remainToFlushBytes;
            if (lastFlushedOffset_)
                sample.bytesFlushed = perSecond(flushed - *lastFlushedOffset_, elapsed);
            lastFlushedOffset_ = flushed;
        }
    }
    if (!r.putLatencyBuckets.empty()) {
        std::vector<int64_t> counts;
        for (size_t i = 0; i < r.putLatencyBuckets.size(); ++i) {
            const int64_t before = i < lastBuckets_.size() ? lastBuckets_[i].count : 0;
            // Java starts the buckets again every minute: a count below the last is a new start.
            const int64_t now = r.putLatencyBuckets[i].count;
            counts.push_back(now >= before ? now - before : now);
        }
        sample.putToAckP50Micros =
            drawable(r.putLatencyBuckets, client::bucketQuantileMicros(r.putLatencyBuckets, counts, 0.5));
        sample.putToAckP99Micros =
            drawable(r.putLatencyBuckets, client::bucketQuantileMicros(r.putLatencyBuckets, counts, 0.99));
        lastBuckets_ = r.putLatencyBuckets;
    }
    lastTakenAt_ = poll.takenAt;
    hasBuckets_ = !r.putLatencyBuckets.empty();
    hasRemain_ = r.remainToFlushBytes.has_value();
    hasMaxOffset_ = r.commitLogMaxOffset.has_value();
    hasEntireMax_ = r.putMessageEntireTimeMaxMillis.has_value();

    client::FlushSamples answer;
    answer.bootTimestamp = boot;
    answer.capacity = 1;
    answer.flushDiskType = sample.flushDiskType;
    answer.transientStorePoolEnable = sample.transientStorePoolEnable;
    answer.nextSequence = sample.sequence;
    answer.samples.push_back(std::move(sample));
    return answer;
}

QStringList RuntimeSampler::missingSeries() const
{
    QStringList missing{QCoreApplication::translate("mqdesk::ui::RuntimeSampler", "flush latency (p50/p99/max)"), QCoreApplication::translate("mqdesk::ui::RuntimeSampler", "flush timeouts")};
    if (!hasBuckets_)
        missing << QCoreApplication::translate("mqdesk::ui::RuntimeSampler", "put-to-ack p50/p99 (no putMessageDistributeTime)");
    if (!hasEntireMax_)
        missing << QCoreApplication::translate("mqdesk::ui::RuntimeSampler", "put-to-ack max (no putMessageEntireTimeMax)");
    if (!hasRemain_)
        missing << QCoreApplication::translate("mqdesk::ui::RuntimeSampler", "data at risk (no remainHowManyDataToFlush)");
    if (!hasRemain_ || !hasMaxOffset_)
        missing << QCoreApplication::translate("mqdesk::ui::RuntimeSampler", "bytes flushed");
    return missing;
}

} // namespace mqdesk::ui
