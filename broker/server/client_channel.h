#pragma once

// One client connection as the broker's client tables keep it (RocketMQ's ClientChannelInfo).

#include "broker/remoting/net/remoting_channel.h"
#include "broker/remoting/remoting_command.h"

#include <cstdint>
#include <string>

namespace mqdesk::server {

struct ClientChannelInfo
{
    remoting::RequestContext channel; // held weakly: a closed connection is not kept alive
    std::string clientId;
    remoting::LanguageCode language = remoting::LanguageCode::Java;
    int32_t version = 0;
    int64_t lastUpdateMillis = 0;
};

} // namespace mqdesk::server
