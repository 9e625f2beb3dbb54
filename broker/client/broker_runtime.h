#pragma once

// GET_BROKER_RUNTIME_INFO (28) read into numbers. Every RocketMQ broker answers it with a table of
// strings (remoting spec §8): "12.5 11.0 10.2" for a TPS (10 s, 1 min, 10 min windows),
// "1.2 KiB" for remainHowManyDataToFlush, "[<=0ms]:3 [0~10ms]:120 …" for putMessageDistributeTime.
// The console's Overview and the flush monitor's Java fallback both read it through here, so
// each key is parsed once, the way the Java broker writes it. A key a broker does not send stays
// "absent" (an empty optional), never a made-up zero.

#include "broker/remoting/protocol/route_data.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::client {

// One bucket of putMessageDistributeTime: puts whose whole put took at most `upperMicros`
// (INT64_MAX for the open last bucket "[10s~]").
struct LatencyBucket
{
    std::string label; // as the broker names it: "[0~10ms]"
    int64_t upperMicros = 0;
    int64_t count = 0;
};

struct BrokerRuntime
{
    std::string version;               // brokerVersionDesc ("V4_9_8")
    std::optional<double> putTps;      // first number of putTps (last 10 s)
    std::optional<double> getTps;      // first number of getTotalTps
    std::optional<int64_t> bootTimestamp;
    std::optional<int64_t> putToday;   // msgPutTotalTodayNow − msgPutTotalTodayMorning
    std::optional<int64_t> getToday;
    std::optional<double> commitLogDiskRatio; // 0..1
    std::string commitLogDirCapacity;         // "Total : 250.0 GiB, Free : 80.1 GiB."
    std::string flushDiskType;                // MQDesk only; a Java broker's is in its config
    std::optional<bool> transientStorePoolEnable; // MQDesk only
    std::optional<int64_t> remainToFlushBytes;    // remainHowManyDataToFlush, rounded as sent
    std::optional<int64_t> commitLogMaxOffset;
    std::optional<int64_t> putMessageEntireTimeMaxMillis;
    std::vector<LatencyBucket> putLatencyBuckets; // empty when the broker does not send them
    std::string configLoadWarnings;               // MQDesk only: config files read from their .bak
    // MQDesk only (README, Limits): connections open now on the remoting and gRPC ports, and
    // since start those shed for a new one at a limit, refused, and closed for what the client
    // did (did not read, never finished a frame, attacked the HTTP/2 layer).
    std::optional<int64_t> clientConnections;
    std::optional<int64_t> grpcConnections;
    int64_t connectionsShed = 0;
    int64_t connectionsRefused = 0;
    int64_t connectionsClosedForAbuse = 0;
};

// Reads the table; unknown keys are ignored, unparsable values are left absent.
BrokerRuntime readBrokerRuntime(const std::map<std::string, std::string> &table);

// "123 B", "1.2 KiB", "3.0 GiB" (Java's UtilAll.humanReadableByteCount, binary units) → bytes;
// empty when the text is not of that form.
std::optional<int64_t> parseHumanBytes(std::string_view text);

// "[<=0ms]:3 [0~10ms]:120 … [10s~]:0 " → buckets in the order given; empty when unparsable.
std::vector<LatencyBucket> parseLatencyDistribution(std::string_view text);

// The upper bound of the bucket holding the `quantile` (0..1) of `counts` (per-bucket counts,
// same order as `buckets`); 0 when the counts are all zero.
int64_t bucketQuantileMicros(const std::vector<LatencyBucket> &buckets, const std::vector<int64_t> &counts,
                             double quantile);

} // namespace mqdesk::client
