#include "broker/client/client_config.h"

#include "broker/common/host_address.h"

#include <unistd.h>

namespace mqdesk::client {

std::string ClientConfig::clientId() const
{
    std::string id = clientIp + "@" + instanceName;
    if (!unitName.empty())
        id += "@" + unitName;
    return id;
}

std::vector<std::string> ClientConfig::namesrvAddresses() const
{
    return common::splitAddressList(namesrvAddr);
}

std::string ClientConfig::defaultInstanceName() { return std::to_string(::getpid()); }

} // namespace mqdesk::client
