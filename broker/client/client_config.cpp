#include "broker/client/client_config.h"

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
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= namesrvAddr.size()) {
        size_t end = namesrvAddr.find(';', start);
        if (end == std::string::npos)
            end = namesrvAddr.size();
        std::string part = namesrvAddr.substr(start, end - start);
        const size_t first = part.find_first_not_of(" \t");
        const size_t last = part.find_last_not_of(" \t");
        if (first != std::string::npos)
            out.push_back(part.substr(first, last - first + 1));
        start = end + 1;
    }
    return out;
}

std::string ClientConfig::defaultInstanceName() { return std::to_string(::getpid()); }

} // namespace mqdesk::client
