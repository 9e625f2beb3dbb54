#include "broker/client/admin_client.h"

#include "broker/client/admin_bodies.h"
#include "broker/client/route_util.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/remoting_codes.h"

#include <algorithm>
#include <set>

namespace mqdesk::client {

using remoting::ResponseCode;

AdminClient::AdminClient(ClientConfig config) : api_(std::make_unique<MQClientAPI>(std::move(config))) {}

AdminClient::~AdminClient() { shutdown(); }

void AdminClient::shutdown() { api_->shutdown(); }

Result<remoting::ClusterInfo> AdminClient::clusterInfo() { return api_->getBrokerClusterInfo(); }

Result<remoting::TopicList> AdminClient::topicList() { return api_->getAllTopicList(); }

Result<remoting::TopicRouteData> AdminClient::topicRoute(const std::string &topic) { return api_->getTopicRoute(topic); }

Result<std::vector<std::string>> AdminClient::masterAddresses(const std::string &clusterName)
{
    Result<remoting::ClusterInfo> info = api_->getBrokerClusterInfo();
    if (!info.ok)
        return info.status();
    std::vector<std::string> out;
    for (const auto &[cluster, brokerNames] : info.value.clusterAddrTable) {
        if (!clusterName.empty() && cluster != clusterName)
            continue;
        for (const std::string &name : brokerNames)
            if (auto it = info.value.brokerAddrTable.find(name); it != info.value.brokerAddrTable.end())
                if (std::string addr = it->second.masterAddress(); !addr.empty())
                    out.push_back(std::move(addr));
    }
    if (out.empty())
        return Status::failure(clientCode::kNoRoute, clusterName.empty() ? std::string("no broker master registered")
                                                                         : "no broker master in cluster " + clusterName);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

Result<std::vector<std::string>> AdminClient::topicMasters(const std::string &topic)
{
    Result<remoting::TopicRouteData> route = api_->getTopicRoute(topic);
    if (!route.ok)
        return route.status();
    std::vector<std::string> masters = client::masterAddresses(route.value);
    if (masters.empty())
        return Status::failure(clientCode::kNoRoute, "topic " + topic + " has no broker master");
    return masters;
}

Result<std::vector<std::string>> AdminClient::groupMasters(const std::string &group, const std::string &topic)
{
    std::set<std::string> masters;
    if (Result<std::vector<std::string>> retry = topicMasters("%RETRY%" + group); retry.ok)
        masters.insert(retry.value.begin(), retry.value.end());
    if (!topic.empty())
        if (Result<std::vector<std::string>> own = topicMasters(topic); own.ok)
            masters.insert(own.value.begin(), own.value.end());
    if (masters.empty())
        return masterAddresses();
    return std::vector<std::string>(masters.begin(), masters.end());
}

Result<TopicStatsTable> AdminClient::topicStats(const std::string &topic)
{
    Result<std::vector<std::string>> masters = topicMasters(topic);
    if (!masters.ok)
        return masters.status();
    TopicStatsTable merged;
    for (const std::string &addr : masters.value) {
        Result<TopicStatsTable> stats = api_->getTopicStatsInfo(addr, topic);
        if (!stats.ok)
            return stats.status();
        merged.offsetTable.insert(stats.value.offsetTable.begin(), stats.value.offsetTable.end());
    }
    return merged;
}

Status AdminClient::createTopic(const std::string &clusterName, const remoting::TopicConfigData &topic,
                                const std::string &attributes)
{
    Result<std::vector<std::string>> masters = masterAddresses(clusterName);
    if (!masters.ok)
        return masters.status();
    for (const std::string &addr : masters.value)
        if (Status status = api_->createTopic(addr, topic, kDefaultTopic, attributes); !status.ok)
            return status;
    return {};
}

Status AdminClient::createTopicOnBroker(const std::string &brokerAddr, const remoting::TopicConfigData &topic,
                                        const std::string &attributes)
{
    return api_->createTopic(brokerAddr, topic, kDefaultTopic, attributes);
}

Status AdminClient::deleteTopic(const std::string &topic, const std::string &clusterName)
{
    Result<std::vector<std::string>> masters = masterAddresses(clusterName);
    if (!masters.ok)
        return masters.status();
    for (const std::string &addr : masters.value)
        if (Status status = api_->deleteTopicInBroker(addr, topic); !status.ok)
            return status;
    for (const std::string &namesrv : api_->config().namesrvAddresses())
        if (Status status = api_->deleteTopicInNamesrv(namesrv, topic, clusterName); !status.ok)
            return status;
    return {};
}

Result<ConsumeStats> AdminClient::consumeStats(const std::string &group, const std::string &topic)
{
    Result<std::vector<std::string>> masters = groupMasters(group, topic);
    if (!masters.ok)
        return masters.status();
    ConsumeStats merged;
    Status last;
    size_t answered = 0;
    for (const std::string &addr : masters.value) {
        Result<ConsumeStats> stats = api_->getConsumeStats(addr, group, topic);
        if (!stats.ok) {
            last = stats.status(); // a broker without offsets for the group answers an error
            continue;
        }
        ++answered;
        merged.merge(stats.value);
    }
    if (answered == 0)
        return last;
    return merged;
}

Result<remoting::ConsumerConnection> AdminClient::consumerConnections(const std::string &group)
{
    Result<std::vector<std::string>> masters = groupMasters(group, {});
    if (!masters.ok)
        return masters.status();
    remoting::ConsumerConnection merged;
    Status last;
    size_t answered = 0;
    for (const std::string &addr : masters.value) {
        Result<remoting::ConsumerConnection> connection = api_->getConsumerConnectionList(addr, group);
        if (!connection.ok) {
            last = connection.status(); // CONSUMER_NOT_ONLINE on a broker the group does not use
            continue;
        }
        if (answered++ == 0) {
            merged = std::move(connection.value);
            continue;
        }
        for (remoting::ClientConnection &client : connection.value.connectionSet)
            if (std::none_of(merged.connectionSet.begin(), merged.connectionSet.end(),
                             [&](const auto &known) { return known.clientId == client.clientId; }))
                merged.connectionSet.push_back(std::move(client));
    }
    if (answered == 0)
        return last;
    return merged;
}

Result<std::vector<SubscriptionGroupConfig>> AdminClient::subscriptionGroups(const std::string &brokerAddr)
{
    Result<SubscriptionGroupWrapper> wrapper = api_->getAllSubscriptionGroup(brokerAddr);
    if (!wrapper.ok)
        return wrapper.status();
    return std::move(wrapper.value.subscriptionGroupTable);
}

Status AdminClient::createSubscriptionGroup(const std::string &clusterName, const SubscriptionGroupConfig &config)
{
    Result<std::vector<std::string>> masters = masterAddresses(clusterName);
    if (!masters.ok)
        return masters.status();
    for (const std::string &addr : masters.value)
        if (Status status = api_->createSubscriptionGroup(addr, config); !status.ok)
            return status;
    return {};
}

Status AdminClient::deleteSubscriptionGroup(const std::string &clusterName, const std::string &group,
                                            bool removeOffset)
{
    Result<std::vector<std::string>> masters = masterAddresses(clusterName);
    if (!masters.ok)
        return masters.status();
    for (const std::string &addr : masters.value)
        if (Status status = api_->deleteSubscriptionGroup(addr, group, removeOffset); !status.ok)
            return status;
    return {};
}

Result<std::map<MessageQueue, int64_t>> AdminClient::resetOffsetByTime(const std::string &group,
                                                                        const std::string &topic, int64_t timestamp)
{
    Result<remoting::TopicRouteData> route = api_->getTopicRoute(topic);
    if (!route.ok)
        return route.status();
    std::map<MessageQueue, int64_t> written;
    for (const MessageQueue &queue : subscribeQueues(topic, route.value)) {
        const std::string addr = masterAddress(route.value, queue.brokerName);
        if (addr.empty())
            continue;
        Result<int64_t> offset = api_->searchOffsetByTimestamp(addr, topic, queue.queueId, timestamp);
        if (!offset.ok)
            return offset.status();
        if (Status status = api_->updateConsumerOffset(addr, group, topic, queue.queueId, offset.value); !status.ok)
            return status;
        written[queue] = offset.value;
    }
    return written;
}

Result<std::map<MessageQueue, int64_t>> AdminClient::invokeBrokerToResetOffset(const std::string &brokerAddr,
                                                                                const std::string &topic,
                                                                                const std::string &group,
                                                                                int64_t timestamp, bool force)
{
    remoting::ExtFields fields;
    remoting::setField(fields, "topic", topic);
    remoting::setField(fields, "group", group);
    remoting::setField(fields, "timestamp", timestamp);
    remoting::setField(fields, "isForce", force);
    auto request = remoting::RemotingCommand::createRequest(remoting::RequestCode::kInvokeBrokerToResetOffset,
                                                            std::move(fields));
    const std::string what = MQClientAPI::describeRequest(brokerAddr, request);
    Result<remoting::RemotingCommand> response = api_->invoke(brokerAddr, std::move(request), api_->config().timeoutMillis);
    if (!response.ok)
        return response.status();
    if (response.value.code != ResponseCode::kSuccess)
        return MQClientAPI::responseFailure(what, response.value);
    const auto &body = response.value.body;
    remoting::ResetOffsetBody offsets;
    std::string error;
    if (!remoting::ResetOffsetBody::fromJson({reinterpret_cast<const char *>(body.data()), body.size()}, offsets, error))
        return Status::failure(clientCode::kBadResponse, what + ": bad ResetOffsetBody: " + error);
    return std::move(offsets.offsetTable);
}

Result<remoting::KVTable> AdminClient::brokerRuntimeInfo(const std::string &brokerAddr)
{
    return api_->getBrokerRuntimeInfo(brokerAddr);
}

Result<std::map<std::string, std::string>> AdminClient::brokerConfig(const std::string &brokerAddr)
{
    return api_->getBrokerConfig(brokerAddr);
}

Status AdminClient::updateBrokerConfig(const std::string &brokerAddr,
                                       const std::map<std::string, std::string> &properties)
{
    return api_->updateBrokerConfig(brokerAddr, properties);
}

} // namespace mqdesk::client
