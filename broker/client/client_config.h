#pragma once

// Settings shared by every client object (Producer, PullConsumer, AdminClient), as Java's
// ClientConfig: where the namesrv is, who we are, and how long requests may take.

#include "broker/acl/acl_signer.h"
#include "broker/remoting/net/tls_context.h"
#include "broker/remoting/remoting_command.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mqdesk::client {

struct ClientConfig
{
    // "host:port" or several separated by ';' (remoting spec §5.6).
    std::string namesrvAddr;
    std::string clientIp = "127.0.0.1";
    // Default: this process's pid, so two processes on one host get distinct client ids.
    std::string instanceName = defaultInstanceName();
    std::string unitName; // appended to the client id when set

    int64_t timeoutMillis = 3000;     // every request but pulls
    int64_t pullTimeoutMillis = 30000; // a long-polled pull (consumerTimeoutMillisWhenSuspend)
    int64_t pollNameServerIntervalMillis = 30000; // route cache age before a refresh
    int64_t heartbeatBrokerIntervalMillis = 30000;
    size_t ioThreads = 1;
    // The request headers' encoding (remoting spec §2): JSON, as the Java client sends by
    // default, or ROCKETMQ's binary one (-Drocketmq.serialize.type=ROCKETMQ in Java), which
    // costs both ends a fraction of the JSON's encoding and parsing. Responses come back in it.
    remoting::SerializeType serializeType = remoting::SerializeType::Json;
    // RocketMQ ACL credentials (AclClientRPCHook): when accessKey and secretKey are set, every
    // request is signed. mqdesk-admin takes them from --access-key/--secret-key or the
    // ROCKETMQ_ACCESS_KEY / ROCKETMQ_SECRET_KEY environment variables.
    acl::Credentials credentials;
    // TLS to the NameServers and brokers, as Java clients with -Dtls.enable=true (useTLS). Any
    // server certificate is accepted (Java's tls.client.authServer=false) unless
    // `tlsTrustCertPath` names the PEM CAs to verify it with.
    bool useTls = false;
    std::string tlsTrustCertPath;
    // Trust on first use instead (the console's saved connections): only the certificate the
    // pin accepted first. Ignored with tlsTrustCertPath.
    std::shared_ptr<remoting::TlsCertificatePin> tlsPin;

    // "ip@instance" or "ip@instance@unit" (spec §6.1).
    std::string clientId() const;
    // namesrvAddr split on ';', blanks dropped.
    std::vector<std::string> namesrvAddresses() const;

    static std::string defaultInstanceName();
};

} // namespace mqdesk::client
