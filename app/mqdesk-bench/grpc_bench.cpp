#include "app/mqdesk-bench/grpc_bench.h"

#include "broker/grpc/grpc_producer.h"

#include <memory>
#include <thread>

namespace mqdesk::bench {

NetRunResult runGrpcProduce(const NetBenchOptions &options, const std::string &endpoint, std::FILE *progress)
{
    NetRunResult result;
    result.target = endpoint;
    grpc::GrpcProducer producer(endpoint);
    const std::string tag = "bench";
    const std::string body(static_cast<size_t>(options.size), 'm');
    if (std::string error = producer.queryRoute(options.topic); !error.empty()) {
        result.error = error;
        return result;
    }
    // One untimed send: the channel's connection is up and the topic takes messages.
    if (std::string error = producer.send(options.topic, tag, body); !error.empty()) {
        result.error = error;
        return result;
    }

    PutStats stats;
    FirstFailure failure;
    const auto record = [&](const std::string &error, Clock::time_point sent) {
        if (error.empty()) {
            stats.latencyNanos.record(elapsedNanos(sent));
        } else {
            stats.sendFailed.fetch_add(1, std::memory_order_relaxed);
            failure.note(error);
        }
    };
    ProgressReporter reporter(stats, progress, "Send");
    reporter.start();
    const Clock::time_point start = Clock::now();
    std::vector<std::thread> threads;
    for (int t = 0; t < options.threads; ++t) {
        threads.emplace_back([&, t] {
            const int64_t mine = shareOf(options.count, options.threads, t);
            if (options.pipeline <= 1) {
                for (int64_t i = 0; i < mine; ++i) {
                    const Clock::time_point sent = Clock::now();
                    record(producer.send(options.topic, tag, body), sent);
                }
                return;
            }
            auto window = std::make_shared<InFlightWindow>(options.pipeline);
            for (int64_t i = 0; i < mine; ++i) {
                window->acquire();
                const Clock::time_point sent = Clock::now();
                producer.sendAsync(options.topic, tag, body, [window, sent, &record](const std::string &error) {
                    record(error, sent);
                    window->release();
                });
            }
            window->waitIdle();
        });
    }
    finishRun(threads, start, reporter, stats, failure, result);
    return result;
}

} // namespace mqdesk::bench
