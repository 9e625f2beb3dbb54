#pragma once

// What one client connection may hold of the process, from broker.conf's server* keys
// (README, Limits): the remoting options the broker's port and the embedded NameServer's port
// share, and the TLS every port serves. The gRPC port's guard reads its grpc* keys itself (broker/grpc/http2_guard.h).

#include "broker/remoting/net/remoting_server.h"
#include "broker/remoting/net/tls_context.h"
#include "broker/server/broker_config.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mqdesk::server {

remoting::RemotingServerOptions remotingServerOptions(const BrokerConfig &config, std::string host, uint16_t port,
                                                      std::string name);

// The TLS of a server port from broker.conf's tls.* keys (remoting/net/tls_context.h), its
// self-signed certificate kept in <store>/config/tls. `alpn`: {"h2"} for the gRPC endpoint.
// Null with `error` when the configured certificate does not load.
std::shared_ptr<remoting::TlsServerContext> serverTls(const BrokerSettings &settings, std::vector<std::string> alpn,
                                                      std::string &error);

} // namespace mqdesk::server
