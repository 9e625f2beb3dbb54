#include "broker/server/admin_processor.h"

#include "broker/common/properties_file.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/broker_controller.h"
#include "broker/store/config/topic_config_manager.h"

#include <spdlog/spdlog.h>

namespace mqdesk::server {

using remoting::RemotingCommand;
using remoting::RequestCode;
using remoting::ResponseCode;

namespace {

std::string_view bodyText(const RemotingCommand &command)
{
    return {reinterpret_cast<const char *>(command.body.data()), command.body.size()};
}

void setBody(RemotingCommand &command, const std::string &text)
{
    command.body.assign(text.begin(), text.end());
}

} // namespace

std::vector<int32_t> AdminProcessor::codes()
{
    return {RequestCode::kUpdateBrokerConfig, RequestCode::kGetBrokerConfig};
}

void AdminProcessor::process(const remoting::RequestContext &, RemotingCommand request, remoting::Responder respond)
{
    switch (request.code) {
    case RequestCode::kUpdateBrokerConfig: return respond(updateBrokerConfig(request));
    case RequestCode::kGetBrokerConfig: return respond(getBrokerConfig(request));
    default:
        return respond(RemotingCommand::createResponse(request, ResponseCode::kRequestCodeNotSupported,
                                                       " request type " + std::to_string(request.code) + " not supported"));
    }
}

RemotingCommand AdminProcessor::updateBrokerConfig(const RemotingCommand &request)
{
    const common::PropertiesParseResult parsed = common::parseProperties(bodyText(request));
    if (!parsed.error.empty())
        return RemotingCommand::createResponse(request, ResponseCode::kSystemError,
                                               "UPDATE_BROKER_CONFIG body: " + parsed.error);
    if (std::string error = broker_.updateConfig(parsed.values); !error.empty())
        return RemotingCommand::createResponse(request, ResponseCode::kSystemError, error);
    spdlog::info("broker: configuration updated ({} keys)", parsed.values.size());
    return RemotingCommand::createResponse(request, ResponseCode::kSuccess);
}

RemotingCommand AdminProcessor::getBrokerConfig(const RemotingCommand &request)
{
    RemotingCommand response = RemotingCommand::createResponse(request, ResponseCode::kSuccess);
    setBody(response, broker_.configText());
    remoting::setField(response.extFields, "version", broker_.topicTable().dataVersion().toJson().isObject()
                                                          ? std::string("{}")
                                                          : std::string("{}"));
    return response;
}

} // namespace mqdesk::server
