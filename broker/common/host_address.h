#pragma once

// An IPv4 or IPv6 socket address as RocketMQ writes it into records and message ids:
// the 4 or 16 address bytes followed by the port as a full big-endian int (store-format §3.1).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::common {

struct HostAddress
{
    bool ipv6 = false;
    std::array<uint8_t, 16> ip{}; // IPv4 uses the first 4 bytes
    int32_t port = 0;

    static HostAddress ipv4(uint8_t a, uint8_t b, uint8_t c, uint8_t d, int32_t port);
    // "1.2.3.4:10911", "[::1]:10911" or a bare address (port 0).
    static std::optional<HostAddress> parse(std::string_view text);

    size_t addressLength() const { return ipv6 ? 16 : 4; }
    size_t encodedLength() const { return addressLength() + 4; } // 8 or 20
    void encode(uint8_t *out) const;
    static HostAddress decode(const uint8_t *in, bool ipv6);

    std::string addressString() const;
    std::string toString() const; // "1.2.3.4:10911" or "[::1]:10911"

    bool operator==(const HostAddress &) const = default;
};

// A ';'-separated address list (namesrvAddr): its addresses, blanks around each trimmed, empty
// parts left out.
std::vector<std::string> splitAddressList(std::string_view list);

} // namespace mqdesk::common
