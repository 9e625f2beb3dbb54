#pragma once

// Helpers shared by the admin processor's files (admin_*.cpp): building responses. The bodies
// keyed by a MessageQueue (TopicStatsTable, ConsumeStats, ResetOffsetBody), which fastjson writes
// with inline-object keys, are the protocol's (remoting/protocol/queue_tables.h), shared with the
// client that reads them.

#include "broker/remoting/remoting_command.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mqdesk::server::admin {

inline std::string_view bodyText(const remoting::RemotingCommand &command)
{
    return {reinterpret_cast<const char *>(command.body.data()), command.body.size()};
}

inline void setBody(remoting::RemotingCommand &command, std::string_view text)
{
    command.body.assign(text.begin(), text.end());
}

// A response carrying `code` and `remark` (no body).
inline remoting::RemotingCommand failure(const remoting::RemotingCommand &request, int32_t code, std::string remark)
{
    return remoting::RemotingCommand::createResponse(request, code, std::move(remark));
}

// A SUCCESS response with `body`.
remoting::RemotingCommand successWithBody(const remoting::RemotingCommand &request, std::string_view body);

} // namespace mqdesk::server::admin
