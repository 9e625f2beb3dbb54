#pragma once

// GrpcProducer: a minimal RocketMQ 5 producer over gRPC — QueryRoute and SendMessage of normal
// messages, as one 5.x SDK client sends them (one channel, so one HTTP/2 connection; the client
// id and identity in every call's metadata, grpc-proxy spec §2). It is what mqdesk-bench measures
// the gRPC endpoint with; it has no telemetry stream, no retries and no transactions.
//
// Threading: every method may be called from any thread at once. sendAsync's `done` runs on a
// grpc++ thread; the producer must outlive every call in flight.
//
// The header has no grpc++ include: app/ includes it.

#include <functional>
#include <memory>
#include <string>

namespace mqdesk::grpc {

class GrpcProducer
{
public:
    // `endpoint` is HOST:PORT, plain text (no TLS).
    explicit GrpcProducer(const std::string &endpoint);
    ~GrpcProducer();
    GrpcProducer(const GrpcProducer &) = delete;
    GrpcProducer &operator=(const GrpcProducer &) = delete;

    // QueryRoute for `topic`: empty when it has a queue (on an mqdesk-broker this also creates a
    // missing topic, as the SDKs' first call does), else why not.
    std::string queryRoute(const std::string &topic);

    // Sends one message and waits for the answer: empty when stored, else why not.
    std::string send(const std::string &topic, const std::string &tag, const std::string &body);
    // The same without waiting: `done(error)` gets what send would have returned.
    void sendAsync(const std::string &topic, const std::string &tag, const std::string &body,
                   std::function<void(const std::string &error)> done);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace mqdesk::grpc
