#pragma once

// What one client connection may hold of the process, from broker.conf's server* keys
// (README, Limits): the remoting options the broker's port and the embedded NameServer's port
// share. The gRPC port's guard reads its grpc* keys itself (broker/grpc/http2_guard.h).

#include "broker/remoting/net/remoting_server.h"
#include "broker/server/broker_config.h"

#include <cstdint>
#include <string>

namespace mqdesk::server {

remoting::RemotingServerOptions remotingServerOptions(const BrokerConfig &config, std::string host, uint16_t port,
                                                      std::string name);

} // namespace mqdesk::server
