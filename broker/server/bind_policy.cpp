#include "broker/server/bind_policy.h"

#include "broker/common/host_address.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

namespace mqdesk::server {

namespace {

constexpr const char *kDefaultBrokerIp = "127.0.0.1";

} // namespace

bool isLoopbackAddress(std::string_view address)
{
    if (address == "localhost" || address == "::1" || address == "[::1]")
        return true;
    in_addr v4{};
    const std::string text(address);
    return inet_pton(AF_INET, text.c_str(), &v4) == 1 && (ntohl(v4.s_addr) >> 24) == 127;
}

bool isWildcardAddress(std::string_view address)
{
    return address.empty() || address == "0.0.0.0" || address == "::" || address == "[::]";
}

std::string firstNonLoopbackAddress()
{
    ifaddrs *interfaces = nullptr;
    if (getifaddrs(&interfaces) != 0)
        return {};
    std::string ipv4, ipv6;
    for (const ifaddrs *entry = interfaces; entry; entry = entry->ifa_next) {
        if (!entry->ifa_addr || !(entry->ifa_flags & IFF_UP) || (entry->ifa_flags & IFF_LOOPBACK))
            continue;
        char text[INET6_ADDRSTRLEN] = {};
        if (entry->ifa_addr->sa_family == AF_INET && ipv4.empty()) {
            const auto *v4 = reinterpret_cast<const sockaddr_in *>(entry->ifa_addr);
            if (inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text))
                ipv4 = text;
        } else if (entry->ifa_addr->sa_family == AF_INET6 && ipv6.empty()) {
            const auto *v6 = reinterpret_cast<const sockaddr_in6 *>(entry->ifa_addr);
            if (!IN6_IS_ADDR_LINKLOCAL(&v6->sin6_addr) && !IN6_IS_ADDR_LOOPBACK(&v6->sin6_addr)
                && inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text)) {
                ipv6 = text;
            }
        }
    }
    freeifaddrs(interfaces);
    return ipv4.empty() ? ipv6 : ipv4;
}

bool isExposedWithoutAcl(const BrokerSettings &settings)
{
    // ACL 2.0 protects only with both halves on: authorization without authentication trusts
    // whatever AccessKey a request names.
    const bool acl2 = settings.broker.authenticationEnabled && settings.broker.authorizationEnabled;
    return !settings.broker.aclEnable && !acl2 && !isLoopbackAddress(settings.broker.bindAddress);
}

std::string checkBindPolicy(const BrokerSettings &settings, bool allowUnauthenticated)
{
    if (!isExposedWithoutAcl(settings) || allowUnauthenticated)
        return {};
    const std::string &address = settings.broker.bindAddress;
    return "refusing to listen on " + (address.empty() ? std::string("every address") : address)
           + " without access control: any host that reaches it could read, write and delete every topic. "
             "Set authenticationEnabled=true and authorizationEnabled=true (ACL 2.0), or aclEnable=true with a "
             "plain_acl.yml (see README, Access control), or pass "
             "--allow-unauthenticated to accept that";
}

void resolveAdvertisedAddress(BrokerSettings &settings)
{
    if (settings.store.brokerIP1 != kDefaultBrokerIp)
        return; // set by broker.conf, or resolved before
    const std::string &bind = settings.broker.bindAddress;
    if (isWildcardAddress(bind)) {
        if (const std::string reachable = firstNonLoopbackAddress(); !reachable.empty())
            settings.store.brokerIP1 = reachable;
    } else if (common::HostAddress::parse(bind)) {
        settings.store.brokerIP1 = bind; // one address: the one clients connect to
    }
}

} // namespace mqdesk::server
