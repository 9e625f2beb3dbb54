// mqdesk-bench: benchmarks in the spirit of RocketMQ's benchmark tools: `store` measures the
// message store directly (no network) against the bare disk; `produce` and `consume` measure a
// running broker over the C++ client, optionally against an echo server's network baseline;
// `explore` measures the store explorer's engine on a large store against a cached read();
// `timer` puts RocketMQ 5 timer messages and measures their delivery lateness.

#include "app/mqdesk-bench/bench_options.h"
#include "app/mqdesk-bench/explore_bench.h"
#include "app/mqdesk-bench/net_bench.h"
#include "app/mqdesk-bench/store_bench.h"
#include "app/mqdesk-bench/timer_bench.h"

#include <CLI/CLI.hpp>

#include <map>
#include <string>
#include <vector>

using mqdesk::bench::FlushMode;

int main(int argc, char **argv)
{
    CLI::App app{"MQDesk benchmarks (RocketMQ benchmark-style output)"};
    app.require_subcommand(1);

    mqdesk::bench::StoreBenchOptions options;
    const std::map<std::string, FlushMode> flushModes{
        {"sync", FlushMode::Sync}, {"async", FlushMode::Async}, {"async-pool", FlushMode::AsyncPool}};
    std::string flushName = "async";
    auto *store = app.add_subcommand("store", "Put messages into a fresh store in DIR/store and "
                                              "compare with the disk's own fsync latency and bandwidth");
    store->add_option("--dir", options.dir, "Benchmark directory (created if missing)")->required();
    store->add_option("--flush", flushName, "Flush mode")
        ->check(CLI::IsMember(std::vector<std::string>{"sync", "async", "async-pool"}))
        ->capture_default_str();
    store->add_option("--threads", options.threads, "Put threads")
        ->check(CLI::Range(1, 1024))
        ->capture_default_str();
    store->add_option("--size", options.size, "Message body bytes")
        ->check(CLI::Range(int64_t{1}, int64_t{4 * 1024 * 1024}))
        ->capture_default_str();
    store->add_option("--count", options.count, "Messages over all threads")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    store->add_flag("--json", options.json, "Print one JSON object on stdout (progress goes to stderr)");
    store->add_flag("--keys", options.keys, "Give every message a unique key (KEYS), indexed by the store");
    store->add_option("--file-size", options.fileSize, "Commit-log file size (mappedFileSizeCommitLog)")
        ->check(CLI::Range(int64_t{4096}, int64_t{1} << 40))
        ->capture_default_str();
    store->add_option("--topics", options.topics, "Topics (BenchTopic_<i>)")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    store->add_option("--queues", options.queues, "Queues per topic")
        ->check(CLI::Range(1, 1024))
        ->capture_default_str();
    store->add_option("--set", options.settings,
                      "A broker.conf store setting as key=value (repeatable), e.g. writeWithoutMmap=true");

    mqdesk::bench::NetBenchOptions net;
    const auto addNetCommand = [&](const std::string &name, const std::string &description) {
        auto *sub = app.add_subcommand(name, description);
        sub->add_option("-n,--namesrv", net.namesrv, "NameServer address (host:port)")->required();
        sub->add_option("-t,--topic", net.topic, "Topic")->capture_default_str();
        sub->add_option("-w,--threads", net.threads, "Threads")->check(CLI::Range(1, 1024))->capture_default_str();
        sub->add_option("-s,--size", net.size, "Message body bytes")
            ->check(CLI::Range(int64_t{1}, int64_t{4 * 1024 * 1024}))
            ->capture_default_str();
        sub->add_option("--count", net.count, "Messages over all threads")
            ->check(CLI::PositiveNumber)
            ->capture_default_str();
        sub->add_option("-g,--group", net.group, "Group name prefix")->capture_default_str();
        sub->add_option("--io-threads", net.ioThreads, "Client io threads")->check(CLI::Range(1, 16))->capture_default_str();
        sub->add_option_function<std::string>(
               "--serialize", [&net](const std::string &type) { net.rocketmqHeaders = type == "ROCKETMQ"; },
               "Request header encoding: JSON (the Java client's default) or ROCKETMQ (binary)")
            ->check(CLI::IsMember(std::vector<std::string>{"JSON", "ROCKETMQ"}));
        sub->add_option("--pipeline", net.pipeline,
                        "produce: sends in flight per thread (1: synchronous, as RocketMQ's benchmark; more: "
                        "asynchronous sends)")
            ->check(CLI::Range(1, 4096))
            ->capture_default_str();
        sub->add_flag("--json", net.json, "Print one JSON object on stdout (progress goes to stderr)");
        sub->add_flag("--baseline", net.baseline,
                      "First run the same workload against an in-process server that answers without storing");
        return sub;
    };
    auto *produce = addNetCommand("produce", "Send messages through the C++ Producer (sync sends per thread)");
    produce->add_option("--grpc", net.grpcEndpoint,
                        "Then the same workload over RocketMQ 5's gRPC protocol to this HOST:PORT (an mqdesk-broker's "
                        "--grpc-port, a RocketMQ Proxy): both rates and their ratio");
    produce->callback([&net] { net.mode = mqdesk::bench::NetBenchMode::Produce; });
    auto *consume = addNetCommand("consume", "Pull a topic's messages from its first offsets through the PullConsumer");
    consume->callback([&net] { net.mode = mqdesk::bench::NetBenchMode::Consume; });

    mqdesk::bench::ExploreBenchOptions explore;
    auto *exploreCommand = app.add_subcommand("explore", "Build (or reuse) DIR/store with N small records and time "
                                                         "the store explorer: first screen, offsetByTime, a filtered "
                                                         "scan, verify, against a cached read() of the commit log");
    exploreCommand->add_option("--dir", explore.dir, "Benchmark directory; DIR/store is reused when it holds a store")
        ->required();
    exploreCommand->add_option("--count", explore.count, "Records to build")->check(CLI::PositiveNumber)->capture_default_str();
    exploreCommand->add_option("--size", explore.size, "Body bytes")
        ->check(CLI::Range(int64_t{16}, int64_t{65536}))
        ->capture_default_str();
    exploreCommand->add_option("--topics", explore.topics, "Topics")->check(CLI::Range(1, 1000))->capture_default_str();
    exploreCommand->add_option("--queues", explore.queues, "Queues per topic")->check(CLI::Range(1, 64))->capture_default_str();
    exploreCommand->add_option("--file-size", explore.fileSize, "Commit-log file size")
        ->check(CLI::Range(int64_t{1} << 20, int64_t{1} << 40))
        ->capture_default_str();
    exploreCommand->add_flag("--json", explore.json, "Print one JSON object on stdout");

    mqdesk::bench::TimerBenchOptions timer;
    auto *timerCommand = app.add_subcommand("timer", "Put N timer messages due over the next SPREAD ms into a fresh "
                                                     "DIR/store (after N plain puts for comparison) and report their "
                                                     "delivery lateness against timerPrecisionMs");
    timerCommand->add_option("--dir", timer.dir, "Benchmark directory (DIR/store is re-created)")->required();
    timerCommand->add_option("--count", timer.count, "Timer messages")->check(CLI::PositiveNumber)->capture_default_str();
    timerCommand->add_option("--spread-ms", timer.spreadMs, "Deliver times spread over 1 s .. this many ms ahead")
        ->check(CLI::Range(int64_t{1000}, int64_t{3} * 24 * 3600 * 1000))
        ->capture_default_str();
    timerCommand->add_option("--precision", timer.precisionMs, "timerPrecisionMs")
        ->check(CLI::IsMember(std::vector<int>{100, 200, 500, 1000}))
        ->capture_default_str();
    timerCommand->add_option("--size", timer.size, "Body bytes")
        ->check(CLI::Range(int64_t{1}, int64_t{65536}))
        ->capture_default_str();
    timerCommand->add_flag("--json", timer.json, "Print one JSON object on stdout");

    try {
        app.parse(argc, argv);
        if (timerCommand->parsed())
            return mqdesk::bench::runTimerBench(timer);
        if (produce->parsed() || consume->parsed())
            return mqdesk::bench::runNetBench(net);
        if (exploreCommand->parsed())
            return mqdesk::bench::runExploreBench(explore);
        options.flush = flushModes.at(flushName);
        if (const std::string error = mqdesk::bench::validate(options); !error.empty())
            throw CLI::ValidationError("--file-size", error);
    } catch (const CLI::ParseError &e) {
        return app.exit(e);
    }
    return mqdesk::bench::runStoreBench(options);
}
