#pragma once

// MQDesk's local mode: an embedded NameServer and a Broker in one process, wired together —
// the broker registers with the NameServer in-process. A route lookup never creates a topic (as
// in Java, only a send with autoCreateTopicEnable does, at the broker). With an external
// NameServer (namesrvAddr set and startNamesrv false) it is a plain broker. Used by
// mqdesk-broker and the desktop app.

#include "broker/acl/acl_signer.h"
#include "broker/server/broker_config.h"
#include "broker/server/startup_seeds.h"
#include "broker/store/recovery_progress.h"

#include <memory>
#include <string>
#include <vector>

namespace mqdesk::namesrv {
class NamesrvController;
}

namespace mqdesk::server {

class BrokerController;

struct EmbeddedBrokerOptions
{
    BrokerSettings settings;
    bool startNamesrv = true;
    uint16_t namesrvPort = 9876; // 0 picks a free port
    // Listening on a non-loopback address without aclEnable is refused unless this is set
    // (bind_policy.h); then start() logs a warning.
    bool allowUnauthenticated = false;
    // The RocketMQ 5 gRPC endpoint's port, for the hosts that serve one beside the broker
    // (mqdesk-broker, the desktop app's BrokerHost): 0 a free port, -1 none. This class does not
    // start it: broker/grpc sits above broker/server.
    int32_t grpcPort = -1;
    // Told how the store's recovery progresses while start() runs, on start()'s thread
    // (store/recovery_progress.h).
    store::RecoveryProgressCallback recoveryProgress;
    // Created once the broker serves, before start() returns (startup_seeds.h).
    std::vector<TopicSeed> topics;
    std::vector<GroupSeed> groups;
};

// A Super user's credentials the options name — innerClientAuthenticationCredentials, else
// initAuthenticationUser — for a console in the same process to sign with when ACL 2.0's
// authentication is on; empty otherwise (or when neither parses).
acl::Credentials consoleCredentials(const EmbeddedBrokerOptions &options);

class EmbeddedBroker
{
public:
    explicit EmbeddedBroker(EmbeddedBrokerOptions options);
    ~EmbeddedBroker();
    EmbeddedBroker(const EmbeddedBroker &) = delete;
    EmbeddedBroker &operator=(const EmbeddedBroker &) = delete;

    // Starts the NameServer (if any), then the broker. False with `error` naming what failed
    // ("namesrv: cannot listen on 127.0.0.1:9876: Address already in use"); nothing is left
    // running then.
    bool start(std::string &error);
    void shutdown();

    // "127.0.0.1:9876" (for a wildcard bind, the advertised brokerIP1 with the NameServer's
    // port); empty without an embedded NameServer.
    std::string namesrvAddress() const;
    std::string brokerAddress() const;
    std::string storeDir() const;
    // `mqdesk-broker ready: namesrv=… broker=… store=…`
    std::string readyLine() const;
    BrokerController &broker() { return *broker_; }
    namesrv::NamesrvController *namesrv() { return namesrv_.get(); }

private:
    // Raises the open-file limit and gives client sockets what the store does not need.
    static void reserveDescriptors();
    EmbeddedBrokerOptions options_;
    std::unique_ptr<namesrv::NamesrvController> namesrv_;
    std::unique_ptr<BrokerController> broker_;
};

} // namespace mqdesk::server
