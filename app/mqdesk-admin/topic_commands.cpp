// topicList, topicRoute, topicStatus, updateTopic, deleteTopic (remoting spec §5, §8).

#include "app/mqdesk-admin/admin_output.h"
#include "app/mqdesk-admin/admin_session.h"
#include "broker/client/route_util.h"
#include "broker/remoting/protocol/topic_attributes.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <map>
#include <set>

namespace mqdesk::admin {

namespace {

// A Java HashMap's toString ({+message.type=FIFO}), as mqadmin prints the TopicConfig it sent.
std::string javaMapText(const remoting::AttributeModifications &modifications)
{
    std::string text;
    for (const auto &[key, value] : modifications)
        text += (text.empty() ? "" : ", ") + key + "=" + value;
    return "{" + text + "}";
}

std::string joined(const std::set<std::string> &items)
{
    std::string out;
    for (const std::string &item : items)
        out += (out.empty() ? "" : ",") + item;
    return out;
}

// message.type of every topic on the given masters (one GET_ALL_TOPIC_CONFIG each); a topic
// typed differently on two brokers shows the first one's.
std::map<std::string, std::string> messageTypes(AdminSession &s, const std::set<std::string> &masters)
{
    std::map<std::string, std::string> types;
    for (const std::string &addr : masters) {
        auto table = s.admin().api().getAllTopicConfig(addr);
        if (!table.ok)
            continue;
        for (const remoting::TopicConfigData &topic : table.value.topicConfigTable)
            types.emplace(topic.topicName, remoting::topicMessageType(topic.attributes));
    }
    return types;
}

int runTopicList(AdminSession &s)
{
    if (!s.requireNamesrv())
        return kAdminUsage;
    client::Result<remoting::TopicList> list = s.admin().topicList();
    if (!list.ok)
        return s.fail(list.status());
    const std::set<std::string> topics(list.value.topicList.begin(), list.value.topicList.end());
    if (!s.options().withClusters) {
        for (const std::string &topic : topics) {
            if (s.json()) {
                common::JsonObject json;
                json.set("topic", topic);
                printJsonLine(std::cout, json);
            } else {
                std::cout << topic << '\n';
            }
        }
        return kAdminOk;
    }
    // -c: the clusters hosting each topic and the groups consuming it (QUERY_TOPIC_CONSUME_BY_WHO);
    // MQDesk adds the 5.x message type (mqadmin has no column for it) as the last column.
    TextTable table({"#Cluster Name", "#Topic", "#Consumer Group", "#Message Type"});
    std::map<std::string, std::set<std::string>> clustersOf;
    std::map<std::string, std::set<std::string>> groupsOf;
    std::set<std::string> allMasters;
    for (const std::string &topic : topics) {
        client::Result<remoting::TopicRouteData> route = s.admin().topicRoute(topic);
        if (!route.ok)
            continue;
        for (const remoting::BrokerData &broker : route.value.brokerDatas)
            clustersOf[topic].insert(broker.cluster);
        for (const std::string &addr : client::masterAddresses(route.value)) {
            allMasters.insert(addr);
            if (auto who = s.admin().api().queryTopicConsumeByWho(addr, topic); who.ok)
                groupsOf[topic].insert(who.value.begin(), who.value.end());
        }
    }
    const std::map<std::string, std::string> types = messageTypes(s, allMasters);
    for (const std::string &topic : topics) {
        const std::set<std::string> &clusters = clustersOf[topic];
        const std::set<std::string> &groups = groupsOf[topic];
        const auto type = types.find(topic);
        const std::string messageType = type == types.end() ? std::string() : type->second;
        if (s.json()) {
            common::JsonObject json;
            json.set("topic", topic);
            common::JsonArray clusterArray(clusters.begin(), clusters.end());
            common::JsonArray groupArray(groups.begin(), groups.end());
            json.set("clusters", std::move(clusterArray));
            json.set("groups", std::move(groupArray));
            json.set("messageType", messageType);
            printJsonLine(std::cout, json);
        } else {
            table.addRow({joined(clusters), topic, joined(groups), messageType});
        }
    }
    if (!s.json())
        table.print(std::cout);
    return kAdminOk;
}

int runTopicRoute(AdminSession &s)
{
    if (!s.requireNamesrv())
        return kAdminUsage;
    client::Result<remoting::TopicRouteData> route = s.admin().topicRoute(s.options().topic);
    if (!route.ok)
        return s.fail(route.status());
    if (s.json()) {
        std::cout << route.value.toJson() << '\n';
        return kAdminOk;
    }
    TextTable brokers({"#Cluster Name", "#Broker Name", "#BID", "#Addr"});
    for (const remoting::BrokerData &broker : route.value.brokerDatas)
        for (const auto &[id, addr] : broker.brokerAddrs)
            brokers.addRow({broker.cluster, broker.brokerName, std::to_string(id), addr});
    brokers.print(std::cout);
    std::cout << '\n';
    TextTable queues({"#Broker Name", "#Read Queues", "#Write Queues", "#Perm", "#Topic Sys Flag"});
    for (const remoting::QueueData &queue : route.value.queueDatas)
        queues.addRow({queue.brokerName, std::to_string(queue.readQueueNums), std::to_string(queue.writeQueueNums),
                       std::to_string(queue.perm), std::to_string(queue.topicSysFlag)});
    queues.print(std::cout);
    return kAdminOk;
}

int runTopicStatus(AdminSession &s)
{
    if (!s.requireNamesrv())
        return kAdminUsage;
    client::Result<client::TopicStatsTable> stats = s.admin().topicStats(s.options().topic);
    if (!stats.ok)
        return s.fail(stats.status());
    TextTable table({"#Broker Name", "#QID", "#Min Offset", "#Max Offset", "#Last Updated"});
    for (const auto &[queue, offsets] : stats.value.offsetTable) {
        if (s.json()) {
            common::JsonObject json;
            json.set("topic", queue.topic);
            json.set("brokerName", queue.brokerName);
            json.set("queueId", queue.queueId);
            json.set("minOffset", offsets.minOffset);
            json.set("maxOffset", offsets.maxOffset);
            json.set("lastUpdateTimestamp", offsets.lastUpdateTimestamp);
            printJsonLine(std::cout, json);
        } else {
            table.addRow({queue.brokerName, std::to_string(queue.queueId), std::to_string(offsets.minOffset),
                          std::to_string(offsets.maxOffset), formatMillis(offsets.lastUpdateTimestamp)});
        }
    }
    if (!s.json())
        table.print(std::cout);
    return kAdminOk;
}

int runUpdateTopic(AdminSession &s)
{
    const AdminOptions &o = s.options();
    std::vector<std::string> brokers;
    int exitCode = kAdminOk;
    if (!s.targetBrokers(brokers, exitCode))
        return exitCode;
    remoting::TopicConfigData config;
    config.topicName = o.topic;
    config.readQueueNums = o.readQueueNums;
    config.writeQueueNums = o.writeQueueNums;
    config.perm = o.perm;
    config.order = o.order;
    // Checked here as mqadmin's AttributeParser does, so a typo fails before any broker is asked.
    remoting::AttributeModifications modifications;
    std::string error;
    if (!remoting::parseAttributeModifications(o.attributes, modifications, error)) {
        std::cerr << "updateTopic: -a " << o.attributes << ": " << error << '\n';
        return kAdminUsage;
    }
    for (const std::string &addr : brokers) {
        if (client::Status status = s.admin().createTopicOnBroker(addr, config, o.attributes); !status.ok)
            return s.fail(status);
        if (s.json()) {
            common::JsonObject json;
            json.set("brokerAddr", addr);
            json.set("topic", config.topicName);
            json.set("readQueueNums", config.readQueueNums);
            json.set("writeQueueNums", config.writeQueueNums);
            json.set("perm", config.perm);
            json.set("order", config.order);
            json.set("attributes", o.attributes);
            printJsonLine(std::cout, json);
        } else {
            std::cout << "create topic to " << addr << " success.\n";
        }
    }
    if (!s.json())
        std::cout << "TopicConfig [topicName=" << config.topicName << ", readQueueNums=" << config.readQueueNums
                  << ", writeQueueNums=" << config.writeQueueNums << ", perm=" << config.perm
                  << ", topicFilterType=" << config.topicFilterType << ", topicSysFlag=" << config.topicSysFlag
                  << ", order=" << (config.order ? "true" : "false") << ", attributes=" << javaMapText(modifications)
                  << "]\n";
    return kAdminOk;
}

int runDeleteTopic(AdminSession &s)
{
    const AdminOptions &o = s.options();
    if (!s.requireNamesrv())
        return kAdminUsage;
    // The broker answers SUCCESS for a topic it never had; an unknown topic is a mistake worth naming.
    if (client::Result<remoting::TopicRouteData> route = s.admin().topicRoute(o.topic); !route.ok)
        return s.fail(route.status());
    if (client::Status status = s.admin().deleteTopic(o.topic, o.cluster); !status.ok)
        return s.fail(status);
    if (s.json()) {
        common::JsonObject json;
        json.set("topic", o.topic);
        json.set("cluster", o.cluster);
        json.set("deleted", true);
        printJsonLine(std::cout, json);
    } else {
        std::cout << "delete topic [" << o.topic << "] from cluster [" << o.cluster << "] success.\n"
                  << "delete topic [" << o.topic << "] from NameServer success.\n";
    }
    return kAdminOk;
}

} // namespace

void addTopicCommands(CLI::App &app, AdminOptions &options)
{
    auto *list = addAdminCommand(app, options, "topicList", "List every topic the NameServer knows", runTopicList);
    list->add_flag("-c,--clusterModel", options.withClusters, "With each topic's clusters and consumer groups");

    auto *route = addAdminCommand(app, options, "topicRoute", "A topic's brokers and queues", runTopicRoute);
    route->add_option("-t,--topic", options.topic, "Topic")->required();

    auto *status = addAdminCommand(app, options, "topicStatus", "Per queue min/max offset and last store time",
                                   runTopicStatus);
    status->add_option("-t,--topic", options.topic, "Topic")->required();

    auto *update = addAdminCommand(app, options, "updateTopic", "Create or update a topic", runUpdateTopic);
    update->add_option("-t,--topic", options.topic, "Topic")->required();
    update->add_option("-b,--brokerAddr", options.brokerAddr, "Create on this broker (host:port)");
    update->add_option("-c,--clusterName", options.cluster, "Create on every master of this cluster");
    update->add_option("-r,--readQueueNums", options.readQueueNums, "Read queues")
        ->check(CLI::Range(1, 1024))
        ->capture_default_str();
    update->add_option("-w,--writeQueueNums", options.writeQueueNums, "Write queues")
        ->check(CLI::Range(1, 1024))
        ->capture_default_str();
    update->add_option("-p,--perm", options.perm, "Permission: 2 write, 4 read, 6 read+write")
        ->check(CLI::IsMember({2, 4, 6}))
        ->capture_default_str();
    update->add_option("-o,--order", options.order, "Ordered topic (true|false)")->capture_default_str();
    update->add_option("-a,--attributes", options.attributes,
                       "attribute(+a=b,+c=d,-e), e.g. +message.type=FIFO (NORMAL, FIFO, DELAY, TRANSACTION)");

    auto *remove = addAdminCommand(app, options, "deleteTopic", "Delete a topic from a cluster and the NameServer",
                                   runDeleteTopic);
    remove->add_option("-t,--topic", options.topic, "Topic")->required();
    remove->add_option("-c,--clusterName", options.cluster, "Cluster")->required();
}

} // namespace mqdesk::admin
