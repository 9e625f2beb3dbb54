#include "app/mqdesk-bench/net_bench.h"

#include "app/mqdesk-bench/bench_report.h"
#include "app/mqdesk-bench/grpc_bench.h"
#include "app/mqdesk-bench/net_run.h"
#include "app/mqdesk-bench/progress_reporter.h"
#include "broker/server/echo_broker.h"
#include "broker/client/producer.h"
#include "broker/client/pull_consumer.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <thread>
#include <unistd.h>

namespace mqdesk::bench {

namespace {

client::ClientConfig clientConfig(const NetBenchOptions &options, const std::string &namesrv, const char *role)
{
    client::ClientConfig config;
    config.namesrvAddr = namesrv;
    config.instanceName = std::string(role) + "-" + std::to_string(getpid());
    config.ioThreads = static_cast<size_t>(std::max(1, options.ioThreads));
    config.serializeType = options.rocketmqHeaders ? remoting::SerializeType::RocketMq : remoting::SerializeType::Json;
    return config;
}

NetRunResult runProduce(const NetBenchOptions &options, const std::string &namesrv, std::FILE *progress)
{
    NetRunResult result;
    result.target = namesrv;
    client::ProducerOptions producerOptions;
    producerOptions.group = options.group + "-producer";
    client::Producer producer(clientConfig(options, namesrv, "produce"), producerOptions);
    if (const client::Status started = producer.start(); !started.ok) {
        result.error = started.error;
        return result;
    }
    client::Message message;
    message.topic = options.topic;
    message.tags = "bench";
    message.body.assign(static_cast<size_t>(options.size), 'm');
    // One untimed send: creates the topic where the broker auto-creates, and warms the route.
    if (const auto warm = producer.send(message); !warm.ok) {
        result.error = warm.error;
        return result;
    }

    const auto errorOf = [](const client::Result<client::SendResult> &answer) {
        return answer.ok ? std::string() : answer.error;
    };
    produceOnThreads(
        options.threads, options.count, options.pipeline, progress, [&] { return errorOf(producer.send(message)); },
        [&](auto done) {
            producer.sendAsync(message, [done = std::move(done), errorOf](client::Result<client::SendResult> answer) {
                done(errorOf(answer));
            });
        },
        result);
    producer.shutdown();
    return result;
}

NetRunResult runConsume(const NetBenchOptions &options, const std::string &namesrv, std::FILE *progress)
{
    NetRunResult result;
    result.target = namesrv;
    client::PullConsumerOptions consumerOptions;
    consumerOptions.group = options.group + "-consumer";
    client::PullConsumer consumer(clientConfig(options, namesrv, "consume"), consumerOptions);
    if (const client::Status started = consumer.start(); !started.ok) {
        result.error = started.error;
        return result;
    }
    const auto queues = consumer.fetchSubscribeMessageQueues(options.topic);
    if (!queues.ok || queues.value.empty()) {
        result.error = queues.ok ? "topic " + options.topic + " has no readable queue" : queues.error;
        return result;
    }
    // Each queue is read from its first offset by one thread; a thread owns every queue whose
    // index is its own modulo the thread count.
    const int threadCount = std::min<int>(options.threads, static_cast<int>(queues.value.size()));
    PutStats stats; // one latency sample per consumed message: its pull's round trip
    std::atomic<int64_t> remaining{options.count};
    FirstFailure failure;
    ProgressReporter reporter(stats, progress, "Consume");
    reporter.start();
    const Clock::time_point start = Clock::now();
    std::vector<std::thread> threads;
    for (int t = 0; t < threadCount; ++t) {
        threads.emplace_back([&, t] {
            std::vector<std::pair<client::MessageQueue, int64_t>> mine;
            for (size_t q = static_cast<size_t>(t); q < queues.value.size(); q += static_cast<size_t>(threadCount)) {
                const auto min = consumer.minOffset(queues.value[q]);
                mine.emplace_back(queues.value[q], min.ok ? min.value : 0);
            }
            size_t caughtUp = 0;
            for (size_t turn = 0; remaining.load(std::memory_order_relaxed) > 0 && caughtUp < mine.size(); ++turn) {
                auto &[queue, offset] = mine[turn % mine.size()];
                const Clock::time_point sent = Clock::now();
                const auto pulled = consumer.pull(queue, "*", offset, 32);
                const uint64_t nanos = elapsedNanos(sent);
                if (!pulled.ok) {
                    stats.sendFailed.fetch_add(1, std::memory_order_relaxed);
                    failure.note(pulled.error);
                    ++caughtUp;
                    continue;
                }
                if (pulled.value.status != client::PullStatus::Found || pulled.value.messages.empty()) {
                    ++caughtUp; // nothing more in this queue for now
                    offset = pulled.value.nextBeginOffset;
                    continue;
                }
                caughtUp = 0;
                offset = pulled.value.nextBeginOffset;
                for (size_t m = 0; m < pulled.value.messages.size(); ++m)
                    stats.latencyNanos.record(nanos);
                remaining.fetch_sub(static_cast<int64_t>(pulled.value.messages.size()), std::memory_order_relaxed);
            }
        });
    }
    finishRun(threads, start, reporter, stats, failure, result);
    consumer.shutdown();
    return result;
}

NetRunResult run(const NetBenchOptions &options, const std::string &namesrv, std::FILE *progress)
{
    return options.mode == NetBenchMode::Produce ? runProduce(options, namesrv, progress)
                                                 : runConsume(options, namesrv, progress);
}

std::string describe(const char *label, const NetRunResult &result, const NetBenchOptions &options)
{
    char line[512];
    std::snprintf(line, sizeof line,
                  "%-9s %llu messages in %.2f s: %.0f msg/s, %.1f MB/s; RT p50 %.0f us, p99 %.0f us, p999 %.0f us, "
                  "max %.0f us; failed %llu (%s)\n",
                  label, static_cast<unsigned long long>(result.messages), result.elapsedSeconds, result.tps(),
                  result.tps() * static_cast<double>(options.size) / 1e6, result.rt.p50, result.rt.p99, result.rt.p999,
                  result.rt.max, static_cast<unsigned long long>(result.failed), result.target.c_str());
    if (!result.firstFailure.empty())
        return line + std::string("          first failure: ") + result.firstFailure + "\n";
    return line;
}

std::string jsonOf(const NetRunResult &result, const NetBenchOptions &options)
{
    char text[640];
    std::snprintf(text, sizeof text,
                  "{\"target\":\"%s\",\"messages\":%llu,\"failed\":%llu,\"elapsedSeconds\":%.6f,\"tps\":%.1f,"
                  "\"mbPerSecond\":%.3f,\"rtMicros\":{\"p50\":%.1f,\"p99\":%.1f,\"p999\":%.1f,\"max\":%.1f}}",
                  result.target.c_str(), static_cast<unsigned long long>(result.messages),
                  static_cast<unsigned long long>(result.failed), result.elapsedSeconds, result.tps(),
                  result.tps() * static_cast<double>(options.size) / 1e6, result.rt.p50, result.rt.p99, result.rt.p999,
                  result.rt.max);
    return text;
}

} // namespace

int runNetBench(const NetBenchOptions &options)
{
    // The client logs through spdlog's default logger (stdout); stdout is for the report.
    spdlog::set_default_logger(spdlog::stderr_color_mt("mqdesk-bench"));
    // Progress goes to stderr with --json so stdout holds exactly one JSON object.
    std::FILE *progress = options.json ? stderr : stdout;
    const char *mode = options.mode == NetBenchMode::Produce ? "produce" : "consume";
    std::fprintf(progress, "mqdesk-bench %s: topic %s, %d threads, %lld-byte bodies, %lld messages, %d in flight per "
                 "thread, %d io threads, %s headers\n", mode, options.topic.c_str(), options.threads,
                 static_cast<long long>(options.size), static_cast<long long>(options.count), options.pipeline,
                 options.ioThreads, options.rocketmqHeaders ? "ROCKETMQ" : "JSON");

    NetRunResult baseline;
    if (options.baseline) {
        server::EchoBroker echo(options.topic, 8, options.size);
        std::string error;
        if (!echo.start(error)) {
            std::fprintf(stderr, "mqdesk-bench: cannot start the baseline echo server: %s\n", error.c_str());
            return 1;
        }
        std::fprintf(progress, "== baseline: the same client against an echo server that stores nothing (%s)\n",
                     echo.address().c_str());
        baseline = run(options, echo.address(), progress);
        if (!baseline.error.empty()) {
            std::fprintf(stderr, "mqdesk-bench: baseline failed: %s\n", baseline.error.c_str());
            return 1;
        }
    }
    std::fprintf(progress, "== %s against %s\n", mode, options.namesrv.c_str());
    const NetRunResult measured = run(options, options.namesrv, progress);
    if (!measured.error.empty()) {
        std::fprintf(stderr, "mqdesk-bench: %s against %s failed: %s\n", mode, options.namesrv.c_str(),
                     measured.error.c_str());
        return 1;
    }
    const double ratio = options.baseline && baseline.tps() > 0 ? measured.tps() / baseline.tps() : 0;
    NetRunResult overGrpc;
    const bool grpc = options.mode == NetBenchMode::Produce && !options.grpcEndpoint.empty();
    if (grpc) {
        std::fprintf(progress, "== produce over gRPC to %s\n", options.grpcEndpoint.c_str());
        overGrpc = runGrpcProduce(options, options.grpcEndpoint, progress);
        if (!overGrpc.error.empty()) {
            std::fprintf(stderr, "mqdesk-bench: produce over gRPC to %s failed: %s\n", options.grpcEndpoint.c_str(),
                         overGrpc.error.c_str());
            return 1;
        }
    }
    const double grpcRatio = grpc && measured.tps() > 0 ? overGrpc.tps() / measured.tps() : 0;
    if (options.json) {
        std::string json = std::string("{\"mode\":\"") + mode + "\",\"topic\":\"" + options.topic
                           + "\",\"threads\":" + std::to_string(options.threads) + ",\"pipeline\":"
                           + std::to_string(options.pipeline) + ",\"ioThreads\":" + std::to_string(options.ioThreads)
                           + ",\"serialize\":\"" + (options.rocketmqHeaders ? "ROCKETMQ" : "JSON") + "\""
                           + ",\"size\":" + std::to_string(options.size)
                           + ",\"count\":" + std::to_string(options.count) + ",\"result\":" + jsonOf(measured, options);
        if (options.baseline) {
            char ratioText[64];
            std::snprintf(ratioText, sizeof ratioText, "%.4f", ratio);
            json += ",\"baseline\":" + jsonOf(baseline, options) + ",\"ratioToBaseline\":" + ratioText;
        }
        if (grpc) {
            char ratioText[64];
            std::snprintf(ratioText, sizeof ratioText, "%.4f", grpcRatio);
            json += ",\"grpc\":" + jsonOf(overGrpc, options) + ",\"grpcToRemoting\":" + ratioText;
        }
        std::printf("%s}\n", json.c_str());
    } else {
        std::printf("\n%s", describe(mode, measured, options).c_str());
        if (options.baseline) {
            std::printf("%s", describe("baseline", baseline, options).c_str());
            std::printf("ratio     %.2f of the baseline's msg/s\n", ratio);
        }
        if (grpc) {
            std::printf("%s", describe("grpc", overGrpc, options).c_str());
            std::printf("ratio     %.2f: gRPC msg/s over remoting msg/s\n", grpcRatio);
        }
    }
    return measured.failed == 0 && overGrpc.failed == 0 ? 0 : 3;
}

} // namespace mqdesk::bench
