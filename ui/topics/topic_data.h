#pragma once

// What the Topics page shows, fetched with blocking client calls (run them off the GUI thread,
// through ClusterConnection::run): the list (one GET_ALL_TOPIC_CONFIG per master, whatever the
// number of topics), the stored-message counts of the rows on screen, and one topic's details.

#include "broker/client/admin_client.h"
#include "ui/topics/topic_table_model.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace mqdesk::ui {

struct TopicListing
{
    client::Status status; // the first failure; topics of the brokers that answered still count
    std::vector<TopicRow> topics;
};

// Every topic of the cluster's masters, merged into rows (mergeTopicTables).
TopicListing fetchTopics(client::AdminClient &admin);

// Stored messages of each topic: GET_TOPIC_STATS_INFO on the masters that hold it
// (TopicRow::kUnavailable where one did not answer).
std::vector<std::pair<QString, qint64>> fetchMessageCounts(client::AdminClient &admin,
                                                           const std::vector<TopicRow> &topics);

// One topic in detail: queues (GET_TOPIC_STATS_INFO), route, the groups consuming it
// (QUERY_TOPIC_CONSUME_BY_WHO on each master), its scheduled timer messages, its lite topics
// (a LITE parent), and its puts and each group's gets from the brokers' statistics.
struct TopicDetails
{
    client::Result<client::TopicStatsTable> stats;
    client::Result<remoting::TopicRouteData> route;
    std::vector<std::string> consumerGroups;
    std::string consumersError;
    client::Result<client::TimerTimeline> timeline;
    client::Result<client::LiteTopicOverview> lite;
    // VIEW_BROKER_STATS_DATA on the topic's masters: its puts, and each consumer group's gets.
    client::Result<client::AdminClient::BrokerStats> puts;
    std::map<std::string, client::AdminClient::BrokerStats> gets;
    std::map<std::string, client::AdminClient::BrokerStats> getBytes;
};

TopicDetails fetchDetails(client::AdminClient &admin, const std::string &topic);

} // namespace mqdesk::ui
