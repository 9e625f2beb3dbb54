#pragma once

// `mqdesk-bench produce|consume`: RocketMQ's benchmark Producer and Consumer over MQDesk's C++
// client against any NameServer (an mqdesk-broker or an Apache RocketMQ cluster). With
// --baseline the same workload runs first against an in-process EchoBroker that answers
// without storing, and the summary gives the broker's throughput as a ratio of that limit. With
// --grpc HOST:PORT (produce) the same workload then runs over RocketMQ 5's gRPC protocol against
// that endpoint, and the summary gives both rates and the gRPC / remoting ratio.

#include <cstdint>
#include <string>

namespace mqdesk::bench {

enum class NetBenchMode { Produce, Consume };

struct NetBenchOptions
{
    NetBenchMode mode = NetBenchMode::Produce;
    std::string namesrv;           // -n
    std::string topic = "BenchTopic"; // -t
    int threads = 64;              // -w
    int64_t size = 1024;           // -s, body bytes (produce; the echo's records for consume)
    int64_t count = 100000;        // messages over all threads
    std::string group = "mqdesk-bench";
    bool json = false;
    bool baseline = false;
    int ioThreads = 1;             // the client's io threads
    bool rocketmqHeaders = false;  // ROCKETMQ header encoding instead of JSON (--serialize)
    int pipeline = 1;              // produce: sends in flight per thread (1: synchronous sends;
                                   // more: asynchronous ones, a window of this many)
    std::string grpcEndpoint;      // produce --grpc: also over gRPC to this HOST:PORT
};

// Runs the benchmark, prints progress and the summary; returns the process exit status.
int runNetBench(const NetBenchOptions &options);

} // namespace mqdesk::bench
