#pragma once

// ACL 2.0's admin requests AUTH_CREATE_USER … AUTH_LIST_ACL (3001–3010), with Java 5.3+'s
// headers, bodies (UserInfo, AclInfo JSON) and answers, so mqadmin's createUser / createAcl /
// listAcl … and the Dashboard's ACL pages work against MQDesk. Authorization (Cluster Update or
// Get) happened in the access gate before; the rules Java adds here also apply: only a Super
// caller creates, updates or deletes a Super user (checked when the request names a caller).
// Runs on the admin executor; the store's writes are fsynced before the answer.

#include "broker/remoting/net/remoting_channel.h"

namespace mqdesk::acl {
class AuthStore;
class AccessGate;
} // namespace mqdesk::acl

namespace mqdesk::server {

class AuthAdminProcessor
{
public:
    AuthAdminProcessor(acl::AuthStore &store, const acl::AccessGate &gate) : store_(store), gate_(gate) {}

    void process(const remoting::RequestContext &context, remoting::RemotingCommand request,
                 remoting::Responder respond);

private:
    using Command = remoting::RemotingCommand;
    Command createUser(const Command &request);
    Command updateUser(const Command &request);
    Command deleteUser(const Command &request);
    Command getUser(const Command &request);
    Command listUsers(const Command &request);
    Command createAcl(const Command &request);
    Command deleteAcl(const Command &request);
    Command getAcl(const Command &request);
    Command listAcls(const Command &request);

    acl::AuthStore &store_;
    const acl::AccessGate &gate_;
};

} // namespace mqdesk::server
