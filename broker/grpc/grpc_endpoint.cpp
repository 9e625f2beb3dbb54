#include "broker/grpc/grpc_endpoint.h"

#include "broker/grpc/messaging_service.h"
#include "broker/server/broker_controller.h"
#include "broker/store/store_config.h"

#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>

#include <condition_variable>
#include <thread>

namespace mqdesk::grpc {

namespace {

constexpr int kMaxMessageBytes = 130 * 1024 * 1024; // the Java proxy's grpcMaxInboundMessageSize

std::string hostPort(const std::string &host, uint16_t port)
{
    return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

} // namespace

struct GrpcEndpoint::Impl
{
    Impl(server::BrokerController &owner, GrpcEndpointOptions opts)
        : broker(owner)
        , options(std::move(opts))
    {
    }

    void tick()
    {
        std::unique_lock lock(tickMutex);
        while (!stopping) {
            tickWake.wait_for(lock, std::chrono::milliseconds(200));
            if (stopping)
                break;
            lock.unlock();
            service->sweep();
            lock.lock();
        }
    }

    server::BrokerController &broker;
    GrpcEndpointOptions options;
    std::string advertisedHost;
    std::unique_ptr<MessagingService> service;
    std::unique_ptr<::grpc::Server> server;
    int boundPort = 0;
    std::thread ticker;
    std::mutex tickMutex;
    std::condition_variable tickWake;
    bool stopping = false; // guarded by tickMutex
};

GrpcEndpoint::GrpcEndpoint(server::BrokerController &broker, GrpcEndpointOptions options)
    : impl_(std::make_unique<Impl>(broker, std::move(options)))
{
}

GrpcEndpoint::~GrpcEndpoint()
{
    shutdown();
}

bool GrpcEndpoint::start(std::string &error)
{
    Impl &d = *impl_;
    if (d.server) {
        error = "grpc: already started";
        return false;
    }
    d.advertisedHost = d.options.advertisedHost.empty() ? d.broker.settings()->store.brokerIP1 : d.options.advertisedHost;
    MessagingServiceConfig config;
    config.advertisedHost = d.advertisedHost;
    config.consumerLongPollingMillis = d.options.consumerLongPollingMillis;
    d.service = std::make_unique<MessagingService>(d.broker, config);

    ::grpc::ServerBuilder builder;
    const std::string listen = hostPort(d.options.bindAddress, d.options.port);
    builder.AddListeningPort(listen, ::grpc::InsecureServerCredentials(), &d.boundPort);
    builder.RegisterService(d.service.get());
    builder.SetMaxReceiveMessageSize(kMaxMessageBytes);
    builder.SetMaxSendMessageSize(kMaxMessageBytes);
    // A connection idle for 120 s goes, as the Java proxy's do; clients keep theirs alive.
    builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_IDLE_MS, 120'000);
    builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
    d.server = builder.BuildAndStart();
    if (!d.server || d.boundPort == 0) {
        error = "grpc: cannot listen on " + listen + " (in use, or not an address of this machine); --grpc-port 0 picks a free port";
        d.server.reset();
        d.service.reset();
        return false;
    }
    d.service->setPort(static_cast<uint16_t>(d.boundPort));
    {
        std::lock_guard lock(d.tickMutex);
        d.stopping = false;
    }
    d.ticker = std::thread([&d] { d.tick(); });
    spdlog::info("grpc: MessagingService on {} (advertised {})", hostPort(d.options.bindAddress, d.boundPort),
                 address());
    return true;
}

void GrpcEndpoint::shutdown()
{
    Impl &d = *impl_;
    if (!d.server)
        return;
    {
        std::lock_guard lock(d.tickMutex);
        d.stopping = true;
    }
    d.tickWake.notify_all();
    if (d.ticker.joinable())
        d.ticker.join();
    // Calls waiting on the broker are answered when their clients' channels close.
    d.service->shutdown();
    d.server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
    d.server.reset();
    d.service.reset();
    d.boundPort = 0;
}

std::string GrpcEndpoint::address() const
{
    return impl_->boundPort == 0 ? std::string() : hostPort(impl_->advertisedHost, static_cast<uint16_t>(impl_->boundPort));
}

uint16_t GrpcEndpoint::port() const
{
    return static_cast<uint16_t>(impl_->boundPort);
}

std::vector<GrpcClientSummary> GrpcEndpoint::clients() const
{
    std::vector<GrpcClientSummary> out;
    if (!impl_->service)
        return out;
    for (const GrpcClientInfo &info : impl_->service->clients().clients()) {
        GrpcClientSummary summary;
        summary.clientId = info.clientId;
        summary.address = info.peerAddress;
        summary.language = info.languageName;
        summary.version = info.version;
        if (info.settings) {
            summary.clientType = v2::ClientType_Name(info.settings->client_type());
            if (info.settings->has_subscription()) {
                summary.group = info.settings->subscription().group().name();
                for (const auto &entry : info.settings->subscription().subscriptions())
                    summary.topics.push_back(entry.topic().name());
            } else {
                for (const auto &topic : info.settings->publishing().topics())
                    summary.topics.push_back(topic.name());
            }
        }
        out.push_back(std::move(summary));
    }
    return out;
}

} // namespace mqdesk::grpc
