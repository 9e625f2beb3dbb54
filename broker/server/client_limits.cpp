#include "broker/server/client_limits.h"

namespace mqdesk::server {

remoting::RemotingServerOptions remotingServerOptions(const BrokerConfig &config, std::string host, uint16_t port,
                                                      std::string name)
{
    remoting::RemotingServerOptions options;
    options.host = std::move(host);
    options.port = port;
    options.name = std::move(name);
    options.maxConnections = static_cast<size_t>(config.serverMaxConnections);
    options.maxConnectionsPerAddress = static_cast<size_t>(config.serverMaxConnectionsPerAddress);
    options.writeBufferHighWaterMark = static_cast<size_t>(config.writeBufferHighWaterMark);
    options.maxQueuedWriteBytes = static_cast<size_t>(config.serverMaxQueuedWriteBytes);
    options.maxTotalQueuedWriteBytes = static_cast<size_t>(config.serverTotalQueuedWriteBytes);
    options.maxTotalPartialFrameBytes = static_cast<size_t>(config.serverTotalPartialFrameBytes);
    options.maxIdle = std::chrono::seconds(config.serverChannelMaxIdleTimeSeconds);
    options.frameTimeout = std::chrono::milliseconds(config.serverFrameTimeoutMillis);
    options.socketSendBufferSize = config.serverSocketSndBufSize;
    options.socketReceiveBufferSize = config.serverSocketRcvBufSize;
    return options;
}

std::shared_ptr<remoting::TlsServerContext> serverTls(const BrokerSettings &settings, std::vector<std::string> alpn,
                                                      std::string &error)
{
    const std::string selfSignedDir = settings.store.rootDir() + "/config/tls";
    return remoting::TlsServerContext::create(settings.tls, selfSignedDir, std::move(alpn), error);
}

} // namespace mqdesk::server
