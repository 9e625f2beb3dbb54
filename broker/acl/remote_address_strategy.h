#pragma once

// Which remote addresses a plain_acl.yml entry (globalWhiteRemoteAddresses, an account's
// whiteRemoteAddress) lets in, parsed as Java's RemoteAddressStrategyFactory does:
//   blank                      nobody
//   *  *.*.*.*  *:*:*:*:*:*:*:*   everybody
//   192.168.0.{1,2,3}          these addresses (also "a,b,c" and the IPv6 form "2::{1,2}")
//   192.168.1.*  192.168.1-10.* 10.*.*.*   a range in the first octet that holds * or a-b
//                              (IPv6: a group that holds * or a-b, hexadecimal)
//   192.168.0.1  ::1           one address
// Immutable after parse; match() is thread-safe.

#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace mqdesk::acl {

class RemoteAddressStrategy
{
public:
    // Parses `pattern`; nullopt with `error` naming the pattern when it is none of the above.
    static std::optional<RemoteAddressStrategy> parse(std::string_view pattern, std::string &error);
    // `host` as the broker sees the peer: an IPv4 or IPv6 address without port or brackets.
    bool match(std::string_view host) const;

private:
    enum class Kind { Nobody, Everybody, Set, Range };
    Kind kind_ = Kind::Nobody;
    std::set<std::string> addresses_; // normalised (IPv4 dotted, IPv6 expanded upper-case)
    std::string head_;                // Range: the normalised text before the ranged part
    int rangeIndex_ = 0;              // Range: which octet / group is ranged
    bool ipv6_ = false;
    int start_ = 0, end_ = 0;
};

// The host part of a peer address as the remoting layer names it ("1.2.3.4:5", "[::1]:5"),
// with an IPv4-mapped IPv6 address ("::ffff:1.2.3.4", what a dual-stack socket reports) given in
// its IPv4 form.
std::string peerHost(std::string_view peerAddress);

} // namespace mqdesk::acl
