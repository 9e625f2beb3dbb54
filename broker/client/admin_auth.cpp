// AdminClient's ACL 2.0 calls: users and ACLs read from one master, changes sent to every master.

#include "broker/client/admin_client.h"

namespace mqdesk::client {

Result<AdminClient::AuthSnapshot> AdminClient::authSnapshot(const std::string &clusterName)
{
    Result<std::vector<std::string>> masters = masterAddresses(clusterName);
    if (!masters.ok)
        return masters.status();
    AuthSnapshot snapshot;
    snapshot.brokerAddr = masters.value.front();
    snapshot.masters = masters.value.size();
    Result<std::vector<acl::User>> users = api_->listUsers(snapshot.brokerAddr);
    if (!users.ok)
        return users.status();
    snapshot.users = std::move(users.value);
    Result<std::vector<acl::Acl>> acls = api_->listAcls(snapshot.brokerAddr);
    if (!acls.ok)
        return acls.status();
    snapshot.acls = std::move(acls.value);
    return snapshot;
}

Status AdminClient::onEveryMaster(const std::string &clusterName,
                                  const std::function<Status(MQClientAPI &, const std::string &addr)> &change)
{
    Result<std::vector<std::string>> masters = masterAddresses(clusterName);
    if (!masters.ok)
        return masters.status();
    for (const std::string &addr : masters.value)
        if (Status status = change(*api_, addr); !status.ok)
            return status;
    return {};
}

} // namespace mqdesk::client
