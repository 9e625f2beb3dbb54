#pragma once

// GrpcEndpoint: the RocketMQ 5 gRPC endpoint (apache.rocketmq.v2.MessagingService, what the 5.x
// SDKs speak) of one running broker, in its process — RocketMQ's proxy in local mode. Plain
// HTTP/2 (h2c), 130 MiB messages at most. The desktop app and mqdesk-broker start one after the
// broker and stop it before the broker (messaging_service.h has the RPCs).
//
// No grpc++ header here: ui/ and app/ include this one.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mqdesk::server {
class BrokerController;
}

namespace mqdesk::grpc {

struct GrpcEndpointOptions
{
    std::string bindAddress = "127.0.0.1";
    uint16_t port = 8081;       // 0 picks a free port
    std::string advertisedHost; // what routes name; empty: the broker's brokerIP1
};

// A connected 5.x client, for the console and mqdesk-admin.
struct GrpcClientSummary
{
    std::string clientId;
    std::string address;
    std::string language; // the SDK's: JAVA, NODE_JS, PYTHON, GOLANG, ...
    std::string version;  // "5.0.7"
    std::string clientType; // PRODUCER, PUSH_CONSUMER, SIMPLE_CONSUMER
    std::string group;      // consumers
    std::vector<std::string> topics;
};

class GrpcEndpoint
{
public:
    GrpcEndpoint(server::BrokerController &broker, GrpcEndpointOptions options);
    ~GrpcEndpoint();
    GrpcEndpoint(const GrpcEndpoint &) = delete;
    GrpcEndpoint &operator=(const GrpcEndpoint &) = delete;

    // Binds and serves. False with `error` naming the address ("grpc: cannot listen on
    // 127.0.0.1:8081 ...") when the port cannot be bound.
    bool start(std::string &error);
    // Ends every call and stream (clients reconnect to a restarted broker), then stops. Idempotent.
    // Each step is logged; shutdownStep() names the one under way (for a caller that bounds the
    // wait: mqdesk-broker's stop), empty when none is.
    void shutdown();
    const char *shutdownStep() const;

    // "127.0.0.1:8081" (the advertised host with the bound port); empty before start.
    std::string address() const;
    uint16_t port() const;
    std::vector<GrpcClientSummary> clients() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace mqdesk::grpc
