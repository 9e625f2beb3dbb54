#include "broker/common/host_address.h"

#include "broker/common/bytes.h"

#include <arpa/inet.h>

#include <algorithm>
#include <charconv>
#include <cstring>

namespace mqdesk::common {

HostAddress HostAddress::ipv4(uint8_t a, uint8_t b, uint8_t c, uint8_t d, int32_t port)
{
    HostAddress h;
    h.ip[0] = a;
    h.ip[1] = b;
    h.ip[2] = c;
    h.ip[3] = d;
    h.port = port;
    return h;
}

std::optional<HostAddress> HostAddress::parse(std::string_view text)
{
    std::string_view address = text;
    std::string_view portText;
    if (!text.empty() && text.front() == '[') {
        const size_t close = text.find(']');
        if (close == std::string_view::npos)
            return std::nullopt;
        address = text.substr(1, close - 1);
        if (close + 1 < text.size()) {
            if (text[close + 1] != ':')
                return std::nullopt;
            portText = text.substr(close + 2);
        }
    } else if (const size_t colon = text.rfind(':');
               colon != std::string_view::npos && text.find(':') == colon) {
        address = text.substr(0, colon);
        portText = text.substr(colon + 1);
    }

    HostAddress h;
    const std::string addressCopy(address);
    if (inet_pton(AF_INET, addressCopy.c_str(), h.ip.data()) == 1) {
        h.ipv6 = false;
    } else if (inet_pton(AF_INET6, addressCopy.c_str(), h.ip.data()) == 1) {
        h.ipv6 = true;
    } else {
        return std::nullopt;
    }
    if (!portText.empty()) {
        const auto [end, ec] = std::from_chars(portText.begin(), portText.end(), h.port);
        if (ec != std::errc() || end != portText.end() || h.port < 0 || h.port > 65535)
            return std::nullopt;
    }
    return h;
}

void HostAddress::encode(uint8_t *out) const
{
    std::memcpy(out, ip.data(), addressLength());
    writeInt32(out + addressLength(), port);
}

HostAddress HostAddress::decode(const uint8_t *in, bool isIpv6)
{
    HostAddress h;
    h.ipv6 = isIpv6;
    std::memcpy(h.ip.data(), in, h.addressLength());
    h.port = readInt32(in + h.addressLength());
    return h;
}

std::string HostAddress::addressString() const
{
    char buffer[INET6_ADDRSTRLEN] = {};
    inet_ntop(ipv6 ? AF_INET6 : AF_INET, ip.data(), buffer, sizeof buffer);
    return buffer;
}

std::string HostAddress::toString() const
{
    const std::string address = addressString();
    return (ipv6 ? "[" + address + "]" : address) + ":" + std::to_string(port);
}

std::vector<std::string> splitAddressList(std::string_view list)
{
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= list.size()) {
        const size_t end = std::min(list.find(';', start), list.size());
        const std::string_view part = list.substr(start, end - start);
        const size_t first = part.find_first_not_of(" \t");
        if (first != std::string_view::npos)
            out.emplace_back(part.substr(first, part.find_last_not_of(" \t") - first + 1));
        start = end + 1;
    }
    return out;
}

} // namespace mqdesk::common
