#pragma once

// `mqdesk-bench produce --grpc HOST:PORT`: the produce workload over RocketMQ 5's gRPC
// protocol (apache.rocketmq.v2.MessagingService/SendMessage), as the 5.x SDKs send it, against
// an mqdesk-broker's gRPC endpoint or a RocketMQ Proxy. It runs after the remoting run in the
// same process, so both rates and their ratio come from one run on one broker.

#include "app/mqdesk-bench/net_bench.h"
#include "app/mqdesk-bench/net_run.h"

#include <cstdio>
#include <string>

namespace mqdesk::bench {

// Sends options.count messages of options.size bytes to options.topic through one gRPC channel
// (one HTTP/2 connection, as one SDK client has), options.threads senders, each with
// options.pipeline calls in flight (1: blocking calls). QueryRoute first, as the SDKs do: on an
// mqdesk-broker it also creates a missing topic.
NetRunResult runGrpcProduce(const NetBenchOptions &options, const std::string &endpoint, std::FILE *progress);

} // namespace mqdesk::bench
