#include "broker/server/admin_bodies.h"

#include "broker/remoting/remoting_codes.h"

namespace mqdesk::server::admin {

remoting::RemotingCommand successWithBody(const remoting::RemotingCommand &request, std::string_view body)
{
    remoting::RemotingCommand response =
        remoting::RemotingCommand::createResponse(request, remoting::ResponseCode::kSuccess);
    setBody(response, body);
    return response;
}

} // namespace mqdesk::server::admin
