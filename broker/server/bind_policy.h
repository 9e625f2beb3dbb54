#pragma once

// Who can reach the broker, decided before it binds. Loopback is safe; any other address without
// aclEnable lets every host that reaches it read, write and delete every topic, so it needs an
// explicit yes (mqdesk-broker --allow-unauthenticated) and is warned about. A broker bound to a
// wildcard (0.0.0.0 or ::) tells the NameServer an address other machines can use: brokerIP1
// when broker.conf sets it, else the first non-loopback IPv4 address of this host (as Java's
// RemotingUtil.getLocalAddress picks brokerIP1's default).

#include "broker/server/broker_config.h"

#include <string>
#include <string_view>

namespace mqdesk::server {

// 127.0.0.0/8, ::1, "localhost".
bool isLoopbackAddress(std::string_view address);
// 0.0.0.0, ::, empty.
bool isWildcardAddress(std::string_view address);
// The first IPv4 address of an up, non-loopback interface (then IPv6, not link-local); empty when
// the host has none.
std::string firstNonLoopbackAddress();

// Empty when `settings` may start; else the refusal, naming the address and the two ways out.
std::string checkBindPolicy(const BrokerSettings &settings, bool allowUnauthenticated);
// True when the broker will accept unauthenticated requests from other hosts (warn about it).
bool isExposedWithoutAcl(const BrokerSettings &settings);

// Sets brokerIP1 (what message ids carry and the NameServer is told) when it is still the
// default 127.0.0.1: the bind address itself when that is one address, else a reachable one for
// a wildcard. Idempotent.
void resolveAdvertisedAddress(BrokerSettings &settings);

} // namespace mqdesk::server
