#include "ui/groups/group_data.h"

#include "broker/client/admin_bodies.h"
#include "broker/client/route_util.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace mqdesk::ui {

namespace {

constexpr std::string_view kRetryPrefix = "%RETRY%";

bool isRetryTopic(const std::string &topic)
{
    return topic.starts_with(kRetryPrefix);
}

// "topic@group" → (topic, group); neither name may hold '@'.
bool splitOffsetKey(const std::string &key, std::string &topic, std::string &group)
{
    const auto at = key.find('@');
    if (at == std::string::npos || at == 0 || at + 1 == key.size())
        return false;
    topic = key.substr(0, at);
    group = key.substr(at + 1);
    return true;
}

} // namespace

bool isSystemGroup(const std::string &group)
{
    static const std::set<std::string> systemGroups = {
        "TOOLS_CONSUMER",        "FILTERSRV_CONSUMER", "SELF_TEST_C_GROUP",  "CID_ONS-HTTP-PROXY",
        "CID_ONSAPI_PERMISSION", "CID_ONSAPI_OWNER",   "CID_ONSAPI_PULL",    "CID_RMQ_SYS_TRANS",
    };
    return systemGroups.contains(group) || group.starts_with("CID_RMQ_SYS_");
}

GroupsSnapshot fetchGroups(client::AdminClient &admin)
{
    GroupsSnapshot snapshot;
    const auto masters = admin.masterAddresses();
    if (!masters.ok) {
        snapshot.errors.push_back(masters.error);
        return snapshot;
    }
    snapshot.brokers = masters.value;

    std::map<std::string, GroupSummary> groups;
    auto groupNamed = [&groups](const std::string &name) -> GroupSummary & {
        GroupSummary &group = groups[name];
        group.name = name;
        return group;
    };
    std::map<std::string, std::set<std::string>> topicsByGroup;

    for (const std::string &broker : snapshot.brokers) {
        if (const auto configs = admin.api().getAllSubscriptionGroup(broker); configs.ok) {
            for (const auto &config : configs.value.subscriptionGroupTable)
                groupNamed(config.groupName).config = config;
        } else {
            snapshot.errors.push_back(configs.error);
        }

        const auto offsets = admin.api().getAllConsumerOffset(broker);
        if (!offsets.ok) {
            snapshot.errors.push_back(offsets.error);
            continue;
        }
        // The queues' max offsets, fetched once per topic on this broker (not per group).
        std::map<std::string, client::TopicStatsTable> statsByTopic;
        for (const auto &[key, queueOffsets] : offsets.value.offsetTable) {
            std::string topic, groupName;
            if (!splitOffsetKey(key, topic, groupName) || isRetryTopic(topic))
                continue;
            GroupSummary &group = groupNamed(groupName);
            topicsByGroup[groupName].insert(topic);
            auto stats = statsByTopic.find(topic);
            if (stats == statsByTopic.end()) {
                auto fetched = admin.api().getTopicStatsInfo(broker, topic);
                if (!fetched.ok)
                    snapshot.errors.push_back(fetched.error);
                stats = statsByTopic.emplace(topic, std::move(fetched.value)).first;
            }
            std::map<int32_t, int64_t> maxByQueue;
            for (const auto &[queue, offset] : stats->second.offsetTable)
                maxByQueue[queue.queueId] = offset.maxOffset;
            // A queue of a consumed topic without a committed offset counts from 0, as the
            // detail's GET_CONSUME_STATS (and Java's) counts it: the list and the detail agree.
            for (const auto &[queueId, max] : maxByQueue) {
                const auto committed = queueOffsets.find(queueId);
                const int64_t consumerOffset = committed == queueOffsets.end() ? 0 : committed->second;
                if (max > consumerOffset)
                    group.totalLag += max - consumerOffset;
            }
        }
    }

    snapshot.groups.reserve(groups.size());
    for (auto &[name, group] : groups) {
        const auto &topics = topicsByGroup[name];
        group.topics.assign(topics.begin(), topics.end());
        snapshot.groups.push_back(std::move(group));
    }
    return snapshot;
}

std::map<std::string, GroupPresence> fetchPresence(client::AdminClient &admin, const std::vector<std::string> &brokers,
                                                   const std::vector<std::string> &groups)
{
    std::map<std::string, GroupPresence> presence;
    for (const std::string &group : groups) {
        GroupPresence &entry = presence[group];
        std::set<std::string> clientIds;
        for (const std::string &broker : brokers) {
            const auto connection = admin.api().getConsumerConnectionList(broker, group);
            if (!connection.ok)
                continue; // CONSUMER_NOT_ONLINE on this broker
            for (const auto &client : connection.value.connectionSet)
                clientIds.insert(client.clientId);
            entry.consumeType = connection.value.consumeType;
            entry.messageModel = connection.value.messageModel;
        }
        entry.clients = static_cast<int>(clientIds.size());
    }
    return presence;
}

GroupDetail fetchGroupDetail(client::AdminClient &admin, const std::string &group, const std::string &liteParent)
{
    GroupDetail detail;
    detail.group = group;
    if (const auto stats = admin.consumeStats(group); stats.ok) {
        detail.consumeTps = stats.value.consumeTps;
        for (const auto &[queue, offsets] : stats.value.offsetTable) {
            if (isRetryTopic(queue.topic))
                continue;
            detail.queues.push_back({queue, offsets.brokerOffset, offsets.consumerOffset, offsets.lastTimestamp});
        }
        std::sort(detail.queues.begin(), detail.queues.end(), [](const QueueLag &a, const QueueLag &b) {
            return std::tie(a.queue.topic, a.queue.brokerName, a.queue.queueId)
                   < std::tie(b.queue.topic, b.queue.brokerName, b.queue.queueId);
        });
    } else {
        detail.queuesError = stats.error;
    }
    if (const auto connection = admin.consumerConnections(group); connection.ok) {
        if (!connection.value.connectionSet.empty())
            detail.connection = connection.value;
    } else if (!connection.isConsumerNotOnline()) {
        detail.connectionError = connection.error;
    }
    if (auto pop = admin.popStats(group); pop.ok)
        detail.pop = std::move(pop.value);
    std::vector<std::string> topics;
    for (const QueueLag &queue : detail.queues) {
        if (topics.empty() || topics.back() != queue.queue.topic)
            topics.push_back(queue.queue.topic); // sorted by topic already
    }
    detail.traffic = fetchGroupTraffic(admin, group, topics, detail.trafficError);
    if (!liteParent.empty()) {
        std::vector<std::string> clientIds;
        if (detail.connection) {
            for (const auto &client : detail.connection->connectionSet)
                clientIds.push_back(client.clientId);
        }
        if (auto lite = admin.liteGroupView(liteParent, group, clientIds); lite.ok)
            detail.lite = std::move(lite.value);
        else
            detail.liteError = lite.error;
    }
    return detail;
}

std::vector<TopicTraffic> fetchGroupTraffic(client::AdminClient &admin, const std::string &group,
                                            const std::vector<std::string> &topics, std::string &error)
{
    std::vector<TopicTraffic> traffic;
    for (const std::string &topic : topics) {
        const auto route = admin.topicRoute(topic);
        if (!route.ok) {
            error = route.error;
            continue;
        }
        std::vector<std::string> masters;
        for (const remoting::BrokerData &broker : route.value.brokerDatas) {
            if (const std::string master = broker.masterAddress(); !master.empty())
                masters.push_back(master);
        }
        // Java keys a group's gets "topic@group" (BrokerStatsManager.buildStatsKey).
        const std::string key = topic + "@" + group;
        auto messages = admin.brokerStats(masters, "GROUP_GET_NUMS", key);
        if (!messages.ok) {
            error = messages.error;
            continue;
        }
        if (!messages.value.counted)
            continue;
        auto bytes = admin.brokerStats(masters, "GROUP_GET_SIZE", key);
        traffic.push_back({topic, messages.value, bytes.ok ? bytes.value : client::AdminClient::BrokerStats{}});
    }
    return traffic;
}

namespace {

enum class InvokeResult { Sent, NoClientOnline, Failed };

// INVOKE_BROKER_TO_RESET_OFFSET (222) on one broker, forced: the broker tells the group's online
// clients and answers the offsets it sent.
InvokeResult invokeResetOffset(client::AdminClient &admin, const std::string &addr, const std::string &group,
                               const std::string &topic, int64_t timestamp, ResetOutcome &outcome)
{
    auto offsets = admin.invokeBrokerToResetOffset(addr, topic, group, timestamp, true);
    if (offsets.isConsumerNotOnline())
        return InvokeResult::NoClientOnline;
    if (!offsets.ok) {
        outcome.error = offsets.error;
        return InvokeResult::Failed;
    }
    for (const auto &[queue, offset] : offsets.value)
        outcome.written[queue] = offset;
    return InvokeResult::Sent;
}

// UPDATE_CONSUMER_OFFSET (15) for each readable queue of `topic` whose master is `onlyAddr`
// (every master when empty), to the offset `target` names.
bool writeOffsets(client::AdminClient &admin, const std::string &group, const std::string &topic,
                  const remoting::TopicRouteData &route, ResetTarget target, int64_t timestampMillis,
                  const std::string &onlyAddr, ResetOutcome &outcome)
{
    for (const client::MessageQueue &queue : client::subscribeQueues(topic, route)) {
        const std::string addr = client::masterAddress(route, queue.brokerName);
        if (addr.empty() || (!onlyAddr.empty() && addr != onlyAddr))
            continue;
        client::Result<int64_t> offset;
        switch (target) {
        case ResetTarget::Earliest:
            offset = admin.api().getMinOffset(addr, topic, queue.queueId);
            break;
        case ResetTarget::Latest:
            offset = admin.api().getMaxOffset(addr, topic, queue.queueId);
            break;
        case ResetTarget::ByTime:
            offset = admin.api().searchOffsetByTimestamp(addr, topic, queue.queueId, timestampMillis);
            break;
        }
        if (!offset.ok) {
            outcome.error = offset.error;
            return false;
        }
        const auto status = admin.api().updateConsumerOffset(addr, group, topic, queue.queueId, offset.value);
        if (!status.ok) {
            outcome.error = status.error;
            return false;
        }
        outcome.written[queue] = offset.value;
    }
    return true;
}

} // namespace

ResetOutcome resetGroupOffsets(client::AdminClient &admin, const std::string &group,
                               const std::vector<std::string> &topics, ResetTarget target, int64_t timestampMillis,
                               bool throughOnlineClients)
{
    ResetOutcome outcome;
    for (const std::string &topic : topics) {
        const auto route = admin.topicRoute(topic);
        if (!route.ok) {
            outcome.error = route.error;
            return outcome;
        }
        if (!throughOnlineClients) {
            if (!writeOffsets(admin, group, topic, route.value, target, timestampMillis, {}, outcome))
                return outcome;
            continue;
        }
        const int64_t timestamp = target == ResetTarget::Latest     ? -1
                                  : target == ResetTarget::Earliest ? 0
                                                                    : timestampMillis;
        for (const std::string &addr : client::masterAddresses(route.value)) {
            switch (invokeResetOffset(admin, addr, group, topic, timestamp, outcome)) {
            case InvokeResult::Sent:
                break;
            case InvokeResult::NoClientOnline:
                // Nobody would commit an old position over a write now: write it, as mqadmin does.
                outcome.wroteDirectly = true;
                if (!writeOffsets(admin, group, topic, route.value, target, timestampMillis, addr, outcome))
                    return outcome;
                break;
            case InvokeResult::Failed:
                return outcome;
            }
        }
    }
    return outcome;
}

} // namespace mqdesk::ui
