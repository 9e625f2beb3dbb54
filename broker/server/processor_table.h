#pragma once

// The broker's request table: which processor serves each request code, on which executor
// (Java's BrokerController#registerProcessor). Sends, replies, send-backs, recalls, ends of
// transactions and POP acks run on the send executor; pulls, pops and notifications on the pull
// executor; heartbeats, offsets, locks and queue assignment on the client executor; everything
// administrative on the admin executor. BrokerController builds the executors and calls these
// once, before its server starts; the processors live as long as the server holds them.

namespace mqdesk::acl {
class AccessGate;
class AuthStore;
}

namespace mqdesk::remoting {
class Executor;
class RemotingServer;
}

namespace mqdesk::server {

class BrokerController;

struct BrokerExecutors
{
    remoting::Executor &send;
    remoting::Executor &pull;
    remoting::Executor &client;
    remoting::Executor &admin;
};

// Every code the broker serves but ACL 2.0's own. Until `broker` serves (its store open) each
// request is answered SYSTEM_ERROR "broker is starting or stopping", so a client that connects
// early (the port is bound before recovery runs) gets a clear answer instead of touching a store
// that is not there. broker's pull processor and POP service must exist; its transaction service
// is looked up per request (it is made when the store opens).
void registerBrokerProcessors(BrokerController &broker, remoting::RemotingServer &server,
                              const BrokerExecutors &executors);

// ACL 2.0's user and policy requests (AUTH_CREATE_USER .. AUTH_LIST_ACL) over `store`, on the
// admin executor; they answer while the broker starts too.
void registerAuthProcessors(remoting::RemotingServer &server, acl::AuthStore &store, acl::AccessGate &gate,
                            remoting::Executor &admin);

} // namespace mqdesk::server
