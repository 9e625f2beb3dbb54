#pragma once

// The flush monitor's fallback for a broker that does not answer GET_FLUSH_SAMPLES (a Java
// broker, or MQDesk with mqdeskExtensionsEnable=false): one GET_BROKER_RUNTIME_INFO a second
// (plus GET_BROKER_CONFIG for the flush mode, which only MQDesk puts in the runtime info) turned
// into one FlushSample each, so the graph, its markers, hover and CSV work unchanged. Only what
// the runtime info tells is filled in; the rest stays 0 (drawn as gaps) and missingSeries() names
// it for the view's banner.
//
// What each series is drawn from:
//   put TPS        putTps (first number: the last 10 s)
//   bytes flushed  the change of commitLogMaxOffset − remainHowManyDataToFlush between two polls
//   data at risk   remainHowManyDataToFlush (rounded to 0.1 of its unit, as Java writes it)
//   put-to-ack p50/p99  bucket bounds of the change of putMessageDistributeTime between two polls
//   put-to-ack max putMessageEntireTimeMax (ms), the largest since the broker started

#include "broker/client/broker_runtime.h"
#include "broker/client/client_types.h"
#include "broker/client/flush_samples.h"

#include <QStringList>

#include <optional>
#include <string>
#include <vector>

namespace mqdesk::client {
class AdminClient;
}

namespace mqdesk::ui {

struct RuntimePoll
{
    client::Status status;
    client::BrokerRuntime runtime;
    std::string configFlushDiskType; // GET_BROKER_CONFIG's, when the runtime info lacks it
    bool configPool = false;
    int64_t takenAt = 0; // ms since epoch
};

// Blocks on the network: run it through ClusterConnection::run.
RuntimePoll pollRuntime(client::AdminClient &admin, const std::string &brokerAddr);

class RuntimeSampler
{
public:
    // One poll → an answer holding one sample (sequence one more than the last), with the
    // broker's bootTimestamp so FlushSeries marks restarts.
    client::FlushSamples toAnswer(const RuntimePoll &poll);

    // The series the last poll could not draw, in words for the banner.
    QStringList missingSeries() const;
    // The flush mode the broker runs with (its configured mode when its current boot was first
    // seen) and the one it is configured for now: a Java broker applies flushDiskType only at
    // a restart, so the two differ after a switch until then.
    QString runningMode() const { return runningMode_; }
    QString configuredMode() const { return configuredMode_; }

private:
    int64_t sequence_ = 0;
    std::optional<int64_t> bootTimestamp_;
    std::optional<int64_t> lastTakenAt_;
    std::optional<int64_t> lastMaxOffset_;
    std::optional<int64_t> lastFlushedOffset_;
    std::vector<client::LatencyBucket> lastBuckets_;
    QString runningMode_;
    QString configuredMode_;
    bool hasBuckets_ = false;
    bool hasRemain_ = false;
    bool hasMaxOffset_ = false;
    bool hasEntireMax_ = false;
};

} // namespace mqdesk::ui
