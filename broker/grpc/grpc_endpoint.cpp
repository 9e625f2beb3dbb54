#include "broker/grpc/grpc_endpoint.h"

#include "broker/grpc/http2_guard.h"
#include "broker/grpc/messaging_service.h"
#include "broker/server/broker_controller.h"
#include "broker/server/client_limits.h"
#include "broker/store/store_config.h"

#include <absl/synchronization/mutex.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/server_posix.h>
#include <spdlog/spdlog.h>

#include <unistd.h>

#include <condition_variable>
#include <thread>

namespace mqdesk::grpc {

namespace {

constexpr int kMaxMessageBytes = 130 * 1024 * 1024; // the Java proxy's grpcMaxInboundMessageSize

Http2GuardOptions guardOptions(const server::BrokerController &broker, const GrpcEndpointOptions &options)
{
    const server::BrokerConfig &config = broker.settings()->broker;
    Http2GuardOptions guard;
    guard.bindAddress = options.bindAddress;
    guard.port = options.port;
    guard.maxConnections = static_cast<size_t>(config.grpcMaxConnections);
    guard.maxConnectionsPerAddress = static_cast<size_t>(config.grpcMaxConnectionsPerAddress);
    guard.frameTimeout = std::chrono::milliseconds(config.serverFrameTimeoutMillis);
    guard.limits.maxHeaderBlockBytes = static_cast<size_t>(config.grpcMaxHeaderBlockBytes);
    guard.limits.maxOpenStreams = static_cast<size_t>(config.grpcMaxConcurrentStreams);
    guard.limits.maxTotalOpenStreams = static_cast<size_t>(config.grpcMaxTotalStreams);
    guard.limits.resetsPerSecond = config.grpcStreamResetsPerSecond;
    guard.limits.resetBurst = config.grpcStreamResetBurst;
    guard.limits.idleFramesPerSecond = config.grpcIdleFramesPerSecond;
    guard.limits.idleFrameBurst = config.grpcIdleFrameBurst;
    return guard;
}

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

    // The grpc++ server, built and started with the first connection the guard hands over
    // (on the guard's io thread): grpc++ brings about ten threads of its own, which a broker no
    // 5.x client talks to does without. Nullptr with `serverError` set when it cannot be built,
    // and once `closed`.
    ::grpc::Server *serverForConnections();
    std::unique_ptr<::grpc::Server> buildServer();

    server::BrokerController &broker;
    GrpcEndpointOptions options;
    std::string advertisedHost;
    std::unique_ptr<MessagingService> service;
    bool started = false; // between start() and shutdown(); owner thread only
    std::mutex serverMutex;
    std::unique_ptr<::grpc::Server> server; // guarded by serverMutex
    bool closed = false;                    // guarded by serverMutex: shutdown() began
    std::unique_ptr<Http2Guard> guard; // owns the port; hands each connection to `server`
    int boundPort = 0;
    std::thread ticker;
    std::mutex tickMutex;
    std::condition_variable tickWake;
    bool stopping = false; // guarded by tickMutex
    std::atomic<const char *> shutdownStep{""};

    void step(const char *what)
    {
        shutdownStep = what;
        spdlog::info("grpc: stopping: {}", what);
    }
};

GrpcEndpoint::GrpcEndpoint(server::BrokerController &broker, GrpcEndpointOptions options)
    : impl_(std::make_unique<Impl>(broker, std::move(options)))
{
}

GrpcEndpoint::~GrpcEndpoint()
{
    shutdown();
}

std::unique_ptr<::grpc::Server> GrpcEndpoint::Impl::buildServer()
{
    // Debian builds Abseil without NDEBUG, so every absl::Mutex grpc++ takes also updated a
    // process-wide lock-order graph under one global lock (2.5 % of the broker's samples under
    // a 64-thread SendMessage load, plus the contention): a debugging aid, off here as in
    // release builds of Abseil.
    absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
    // grpc++ listens on no port of its own: the guard accepts and hands it each connection.
    ::grpc::ServerBuilder builder;
    builder.RegisterService(service.get());
    builder.SetMaxReceiveMessageSize(kMaxMessageBytes);
    builder.SetMaxSendMessageSize(kMaxMessageBytes);
    // A connection idle for 120 s goes, as the Java proxy's do; clients keep theirs alive.
    builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_IDLE_MS, 120'000);
    // Streams one connection may have open at once (a client queues calls past it); unbounded in
    // grpc++ by default. The guard holds a client that has not acknowledged it to it as well.
    builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS, broker.settings()->broker.grpcMaxConcurrentStreams);
    return builder.BuildAndStart();
}

::grpc::Server *GrpcEndpoint::Impl::serverForConnections()
{
    std::lock_guard lock(serverMutex);
    if (server || closed)
        return server.get();
    server = buildServer();
    if (!server) {
        spdlog::error("grpc: cannot start the gRPC server: the connection is closed");
        return nullptr;
    }
    {
        std::lock_guard tickLock(tickMutex);
        stopping = false;
    }
    ticker = std::thread([this] { tick(); });
    spdlog::info("grpc: server started for the first connection");
    return server.get();
}

bool GrpcEndpoint::start(std::string &error)
{
    Impl &d = *impl_;
    if (d.started) {
        error = "grpc: already started";
        return false;
    }
    d.advertisedHost = d.options.advertisedHost.empty() ? d.broker.settings()->store.brokerIP1 : d.options.advertisedHost;
    MessagingServiceConfig config;
    config.advertisedHost = d.advertisedHost;
    const server::BrokerConfig &brokerConfig = d.broker.brokerConfig();
    config.minLongPollingMillis = brokerConfig.grpcClientConsumerMinLongPollingTimeoutMillis;
    config.consumerLongPollingMillis =
        std::max(config.minLongPollingMillis, brokerConfig.grpcClientConsumerMaxLongPollingTimeoutMillis);
    d.service = std::make_unique<MessagingService>(d.broker, config);
    {
        std::lock_guard lock(d.serverMutex);
        d.closed = false;
    }

    Http2GuardOptions guard = guardOptions(d.broker, d.options);
    guard.tls = server::serverTls(*d.broker.settings(), {"h2"}, error);
    if (!guard.tls) {
        d.service.reset();
        return false;
    }
    d.guard = std::make_unique<Http2Guard>(std::move(guard), [&d](int descriptor) {
        if (::grpc::Server *server = d.serverForConnections())
            ::grpc::AddInsecureChannelFromFd(server, descriptor);
        else
            ::close(descriptor);
    });
    if (!d.guard->start(error)) {
        d.guard.reset();
        d.service.reset();
        return false;
    }
    d.started = true;
    d.boundPort = d.guard->port();
    d.broker.setRuntimeInfoSource("grpc", [guard = d.guard.get()] {
        const Http2GuardStats stats = guard->stats();
        const auto count = [](uint64_t value) { return static_cast<int64_t>(value); };
        return server::BrokerController::RuntimeFigures{
            {"grpcConnections", count(stats.connections)},
            {"grpcConnectionsAccepted", count(stats.accepted)},
            {"grpcConnectionsShed", count(stats.shed)},
            {"grpcConnectionsRefused", count(stats.refused)},
            {"grpcConnectionsClosedForFrames", count(stats.closedForFrames)},
            {"grpcConnectionsClosedForFrameTimeout", count(stats.closedForFrameTimeout)},
            {"grpcTlsConnectionsAccepted", count(stats.tlsAccepted)},
            {"grpcTlsConnectionsRefused", count(stats.tlsRefused)},
            {"grpcTlsConnectionsFailed", count(stats.tlsFailed)},
        };
    });
    d.service->setPort(static_cast<uint16_t>(d.boundPort));
    spdlog::info("grpc: MessagingService on {} (advertised {})", hostPort(d.options.bindAddress, d.boundPort),
                 address());
    return true;
}

void GrpcEndpoint::shutdown()
{
    Impl &d = *impl_;
    if (!d.started)
        return;
    d.started = false;
    {
        std::lock_guard lock(d.serverMutex);
        d.closed = true; // no server (nor sweeper) starts from here on; a new connection is closed
    }
    d.step("the sweeper");
    {
        std::lock_guard lock(d.tickMutex);
        d.stopping = true;
    }
    d.tickWake.notify_all();
    if (d.ticker.joinable())
        d.ticker.join();
    // Calls waiting on the broker are answered when their clients' channels close.
    d.broker.setRuntimeInfoSource("grpc", {});
    d.step("closing the clients' channels");
    d.service->shutdown();
    // No new connections; on the open ones grpc++ sends GOAWAY and ends the calls, then the
    // guard closes what is left.
    d.step("no new connections");
    d.guard->stopAccepting();
    std::unique_ptr<::grpc::Server> server;
    {
        std::lock_guard lock(d.serverMutex);
        server = std::move(d.server);
    }
    if (server) {
        d.step("ending the calls (1 s)");
        server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
    }
    d.step("closing the connections");
    d.guard->stop();
    d.step("releasing the server");
    server.reset();
    d.guard.reset();
    d.service.reset();
    d.boundPort = 0;
    d.shutdownStep = "";
    spdlog::info("grpc: stopped");
}

const char *GrpcEndpoint::shutdownStep() const
{
    return impl_->shutdownStep.load();
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
