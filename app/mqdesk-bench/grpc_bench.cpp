#include "app/mqdesk-bench/grpc_bench.h"

#include "broker/grpc/grpc_producer.h"

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

    produceOnThreads(
        options.threads, options.count, options.pipeline, progress,
        [&] { return producer.send(options.topic, tag, body); },
        [&](auto done) { producer.sendAsync(options.topic, tag, body, std::move(done)); }, result);
    return result;
}

} // namespace mqdesk::bench
