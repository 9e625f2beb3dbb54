#include "ui/topics/topic_data.h"

#include <set>

namespace mqdesk::ui {

TopicListing fetchTopics(client::AdminClient &admin)
{
    TopicListing listing;
    std::set<std::string> clusterAndBrokerNames;
    if (auto cluster = admin.clusterInfo(); cluster.ok) {
        for (const auto &[clusterName, brokers] : cluster.value.clusterAddrTable) {
            clusterAndBrokerNames.insert(clusterName);
            clusterAndBrokerNames.insert(brokers.begin(), brokers.end());
        }
    }
    auto masters = admin.masterAddresses();
    if (!masters.ok) {
        listing.status = masters.status();
        return listing;
    }
    std::vector<std::pair<std::string, remoting::TopicConfigSerializeWrapper>> tables;
    for (const std::string &address : masters.value) {
        auto table = admin.api().getAllTopicConfig(address);
        if (table.ok)
            tables.emplace_back(address, std::move(table.value));
        else if (listing.status.ok)
            listing.status = table.status();
    }
    listing.topics = mergeTopicTables(tables, clusterAndBrokerNames);
    return listing;
}

std::vector<std::pair<QString, qint64>> fetchMessageCounts(client::AdminClient &admin,
                                                           const std::vector<TopicRow> &topics)
{
    std::vector<std::pair<QString, qint64>> counts;
    for (const TopicRow &topic : topics) {
        qint64 messages = 0;
        for (const std::string &address : topic.brokerAddresses) {
            auto stats = admin.api().getTopicStatsInfo(address, topic.name.toStdString());
            if (!stats.ok) {
                messages = TopicRow::kUnavailable;
                break;
            }
            messages += stats.value.totalMessages();
        }
        counts.emplace_back(topic.name, messages);
    }
    return counts;
}

TopicDetails fetchDetails(client::AdminClient &admin, const std::string &topic)
{
    TopicDetails details;
    details.route = admin.topicRoute(topic);
    details.stats = admin.topicStats(topic);
    std::set<std::string> groups;
    std::vector<std::string> masters;
    if (details.route.ok) {
        for (const remoting::BrokerData &broker : details.route.value.brokerDatas) {
            const std::string master = broker.masterAddress();
            if (master.empty())
                continue;
            masters.push_back(master);
            auto answer = admin.api().queryTopicConsumeByWho(master, topic);
            if (answer.ok)
                groups.insert(answer.value.begin(), answer.value.end());
            else
                details.consumersError = answer.error;
        }
    }
    details.consumerGroups.assign(groups.begin(), groups.end());
    details.puts = admin.brokerStats(masters, "TOPIC_PUT_NUMS", topic);
    if (details.puts.ok) { // a broker without the statistics is not asked once per group
        for (const std::string &group : details.consumerGroups) {
            auto gets = admin.brokerStats(masters, "GROUP_GET_NUMS", topic + "@" + group);
            if (gets.ok && gets.value.counted) {
                details.gets[group] = gets.value;
                if (auto bytes = admin.brokerStats(masters, "GROUP_GET_SIZE", topic + "@" + group); bytes.ok)
                    details.getBytes[group] = bytes.value;
            }
        }
    }
    details.timeline = admin.timerTimeline(topic, 60, 20);
    details.lite = admin.liteTopicOverview(topic);
    return details;
}

} // namespace mqdesk::ui
