// consumerProgress, consumerConnection, updateSubGroup, deleteSubGroup, resetOffsetByTime
// (remoting spec §6, §8).

#include "app/mqdesk-admin/admin_output.h"
#include "app/mqdesk-admin/admin_session.h"
#include "broker/client/route_util.h"
#include "broker/remoting/protocol/topic_attributes.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>

namespace mqdesk::admin {

namespace {


int runConsumerProgress(AdminSession &s)
{
    const AdminOptions &o = s.options();
    if (!s.requireNamesrv())
        return kAdminUsage;
    if (!o.topic.empty())
        if (client::Result<remoting::TopicRouteData> route = s.admin().topicRoute(o.topic); !route.ok)
            return s.fail(route.status());
    client::Result<client::ConsumeStats> stats = s.admin().consumeStats(o.group, o.topic);
    if (!stats.ok)
        return s.fail(stats.status());
    // Java's examineConsumeStats refuses an empty table the same way: a group that never
    // committed an offset (or does not exist) has no progress to show.
    if (stats.value.offsetTable.empty())
        return s.fail("consumer group " + o.group + " has no consume progress" +
                      (o.topic.empty() ? std::string() : " on topic " + o.topic) +
                      " (unknown group, or it never committed an offset)");
    if (s.json()) {
        common::JsonArray queues;
        for (const auto &[queue, offsets] : stats.value.offsetTable) {
            common::JsonObject json;
            json.set("topic", queue.topic);
            json.set("brokerName", queue.brokerName);
            json.set("queueId", queue.queueId);
            json.set("brokerOffset", offsets.brokerOffset);
            json.set("consumerOffset", offsets.consumerOffset);
            json.set("diff", offsets.lag());
            json.set("lastTimestamp", offsets.lastTimestamp);
            queues.emplace_back(std::move(json));
        }
        common::JsonObject json;
        json.set("group", o.group);
        json.set("consumeTps", stats.value.consumeTps);
        json.set("diffTotal", stats.value.totalLag());
        json.set("queues", std::move(queues));
        printJsonLine(std::cout, json);
        return kAdminOk;
    }
    TextTable table({"#Topic", "#Broker Name", "#QID", "#Broker Offset", "#Consumer Offset", "#Diff", "#LastTime"});
    for (const auto &[queue, offsets] : stats.value.offsetTable)
        table.addRow({queue.topic, queue.brokerName, std::to_string(queue.queueId), std::to_string(offsets.brokerOffset),
                      std::to_string(offsets.consumerOffset), std::to_string(offsets.lag()),
                      formatMillis(offsets.lastTimestamp)});
    table.print(std::cout);
    char tps[32];
    std::snprintf(tps, sizeof tps, "%.2f", stats.value.consumeTps);
    std::cout << "\nConsume TPS: " << tps << "\nDiff Total: " << stats.value.totalLag() << '\n';
    return kAdminOk;
}

int runConsumerConnection(AdminSession &s)
{
    const AdminOptions &o = s.options();
    client::Result<remoting::ConsumerConnection> connection;
    if (!o.brokerAddr.empty()) {
        connection = s.admin().api().getConsumerConnectionList(o.brokerAddr, o.group);
    } else {
        if (!s.requireNamesrv())
            return kAdminUsage;
        connection = s.admin().consumerConnections(o.group);
    }
    if (!connection.ok)
        return s.fail(connection.status());
    const remoting::ConsumerConnection &c = connection.value;
    if (s.json()) {
        common::JsonArray clients;
        for (const remoting::ClientConnection &client : c.connectionSet) {
            common::JsonObject json;
            json.set("clientId", client.clientId);
            json.set("clientAddr", client.clientAddr);
            json.set("language", client.language);
            json.set("version", client.version);
            clients.emplace_back(std::move(json));
        }
        common::JsonArray subscriptions;
        for (const remoting::SubscriptionData &sub : c.subscriptionTable) {
            common::JsonObject json;
            json.set("topic", sub.topic);
            json.set("subExpression", sub.subString);
            json.set("expressionType", sub.expressionType);
            subscriptions.emplace_back(std::move(json));
        }
        common::JsonObject json;
        json.set("group", o.group);
        json.set("consumeType", c.consumeType);
        json.set("messageModel", c.messageModel);
        json.set("consumeFromWhere", c.consumeFromWhere);
        json.set("connections", std::move(clients));
        json.set("subscriptions", std::move(subscriptions));
        printJsonLine(std::cout, json);
        return kAdminOk;
    }
    TextTable clients({"#ID", "#ClientId", "#ClientAddr", "#Language", "#Version"});
    int n = 0;
    for (const remoting::ClientConnection &client : c.connectionSet)
        clients.addRow({std::to_string(++n), client.clientId, client.clientAddr, client.language,
                        std::to_string(client.version)});
    clients.print(std::cout);
    std::cout << "\nBelow is subscription:\n";
    TextTable subscriptions({"#ID", "#Topic", "#SubExpression"});
    n = 0;
    for (const remoting::SubscriptionData &sub : c.subscriptionTable)
        subscriptions.addRow({std::to_string(++n), sub.topic, sub.subString});
    subscriptions.print(std::cout);
    std::cout << '\n';
    KeyValueList list;
    list.add("ConsumeType", c.consumeType);
    list.add("MessageModel", c.messageModel);
    list.add("ConsumeFromWhere", c.consumeFromWhere);
    list.print(std::cout);
    return kAdminOk;
}

common::JsonObject groupToJson(const client::SubscriptionGroupConfig &g)
{
    common::JsonObject json;
    json.set("groupName", g.groupName);
    json.set("consumeEnable", g.consumeEnable);
    json.set("consumeFromMinEnable", g.consumeFromMinEnable);
    json.set("consumeBroadcastEnable", g.consumeBroadcastEnable);
    json.set("consumeMessageOrderly", g.consumeMessageOrderly);
    json.set("retryQueueNums", g.retryQueueNums);
    json.set("retryMaxTimes", g.retryMaxTimes);
    json.set("brokerId", g.brokerId);
    json.set("whichBrokerWhenConsumeSlowly", g.whichBrokerWhenConsumeSlowly);
    json.set("notifyConsumerIdsChangedEnable", g.notifyConsumerIdsChangedEnable);
    return json;
}

int runUpdateSubGroup(AdminSession &s)
{
    const AdminOptions &o = s.options();
    std::vector<std::string> brokers;
    int exitCode = kAdminOk;
    if (!s.targetBrokers(brokers, exitCode))
        return exitCode;
    client::SubscriptionGroupConfig config = o.subGroup;
    config.groupName = o.group;
    for (const std::string &addr : brokers) {
        if (client::Status status = s.admin().api().createSubscriptionGroup(addr, config); !status.ok)
            return s.fail(status);
        if (s.json()) {
            common::JsonObject json;
            json.set("brokerAddr", addr);
            json.set("config", groupToJson(config));
            printJsonLine(std::cout, json);
        } else {
            std::cout << "create subscription group to " << addr << " success.\n";
        }
    }
    if (!s.json())
        std::cout << config.toJson() << '\n';
    return kAdminOk;
}

int runDeleteSubGroup(AdminSession &s)
{
    const AdminOptions &o = s.options();
    std::vector<std::string> brokers;
    int exitCode = kAdminOk;
    if (!s.targetBrokers(brokers, exitCode))
        return exitCode;
    // The broker answers SUCCESS for a group it never had; an unknown group is a mistake worth naming.
    bool known = false;
    for (const std::string &addr : brokers) {
        client::Result<std::vector<client::SubscriptionGroupConfig>> groups = s.admin().subscriptionGroups(addr);
        if (!groups.ok)
            return s.fail(groups.status());
        for (const client::SubscriptionGroupConfig &g : groups.value)
            known = known || g.groupName == o.group;
    }
    if (!known)
        return s.fail("subscription group " + o.group + " does not exist on " +
                      (o.cluster.empty() ? o.brokerAddr : "cluster " + o.cluster));
    for (const std::string &addr : brokers) {
        if (client::Status status = s.admin().api().deleteSubscriptionGroup(addr, o.group, o.removeOffset); !status.ok)
            return s.fail(status);
        if (!s.json())
            std::cout << "delete subscription group [" << o.group << "] from broker [" << addr << "] success.\n";
    }
    // As mqadmin with -c: the group's retry and dead-letter topics go too.
    std::vector<std::string> topicsDeleted;
    if (!o.cluster.empty())
        for (const std::string &topic : {"%RETRY%" + o.group, "%DLQ%" + o.group})
            if (s.admin().topicRoute(topic).ok) {
                if (client::Status status = s.admin().deleteTopic(topic, o.cluster); !status.ok)
                    return s.fail(status);
                topicsDeleted.push_back(topic);
                if (!s.json())
                    std::cout << "delete topic [" << topic << "] from cluster [" << o.cluster << "] success.\n";
            }
    if (s.json()) {
        common::JsonObject json;
        json.set("group", o.group);
        json.set("brokers", common::JsonArray(brokers.begin(), brokers.end()));
        json.set("topicsDeleted", common::JsonArray(topicsDeleted.begin(), topicsDeleted.end()));
        json.set("removeOffset", o.removeOffset);
        printJsonLine(std::cout, json);
    }
    return kAdminOk;
}

// INVOKE_BROKER_TO_RESET_OFFSET on `addr`; its ResetOffsetBody into `out`.
client::Status invokeReset(AdminSession &s, const std::string &addr, int64_t timestamp,
                           std::map<client::MessageQueue, int64_t> &out)
{
    const AdminOptions &o = s.options();
    auto offsets = s.admin().invokeBrokerToResetOffset(addr, o.topic, o.group, timestamp, o.force);
    if (!offsets.ok)
        return offsets.status();
    for (const auto &[queue, offset] : offsets.value) // one broker's queues of several
        out[queue] = offset;
    return {};
}

int runResetOffsetByTime(AdminSession &s)
{
    const AdminOptions &o = s.options();
    if (!s.requireNamesrv())
        return kAdminUsage;
    const std::optional<int64_t> timestamp = parseTimestamp(o.timestamp);
    if (!timestamp)
        return s.usage("-s " + o.timestamp + ": expected milliseconds, 'now' or yyyy-MM-dd#HH:mm:ss:SSS");
    client::Result<remoting::TopicRouteData> route = s.admin().topicRoute(o.topic);
    if (!route.ok)
        return s.fail(route.status());
    std::map<client::MessageQueue, int64_t> offsets;
    for (const std::string &addr : client::masterAddresses(route.value)) {
        client::Status status = invokeReset(s, addr, *timestamp, offsets);
        if (status.isConsumerNotOnline()) {
            // A Java broker leaves offline groups to the tool (mqadmin's resetOffsetByTimestampOld).
            client::Result<std::map<client::MessageQueue, int64_t>> written =
                s.admin().resetOffsetByTime(o.group, o.topic, *timestamp);
            if (!written.ok)
                return s.fail(written.status());
            offsets = std::move(written.value);
            break;
        }
        if (!status.ok)
            return s.fail(status);
    }
    if (!s.json())
        std::cout << "rollback consumer offset by specified consumerGroup[" << o.group << "], topic[" << o.topic
                  << "], force[" << (o.force ? "true" : "false") << "], timestamp(string)[" << o.timestamp
                  << "], timestamp(long)[" << *timestamp << "]\n";
    TextTable table({"#brokerName", "#queueId", "#offset"});
    for (const auto &[queue, offset] : offsets) {
        if (s.json()) {
            common::JsonObject json;
            json.set("group", o.group);
            json.set("topic", queue.topic);
            json.set("brokerName", queue.brokerName);
            json.set("queueId", queue.queueId);
            json.set("offset", offset);
            printJsonLine(std::cout, json);
        } else {
            table.addRow({queue.brokerName, std::to_string(queue.queueId), std::to_string(offset)});
        }
    }
    if (!s.json())
        table.print(std::cout);
    return kAdminOk;
}

void addTarget(CLI::App *sub, AdminOptions &options)
{
    sub->add_option("-b,--brokerAddr", options.brokerAddr, "Broker address (host:port)");
    sub->add_option("-c,--clusterName", options.cluster, "Every master of this cluster");
}

} // namespace

void addGroupCommands(CLI::App &app, AdminOptions &options)
{
    auto *progress = addAdminCommand(app, options, "consumerProgress",
                                     "Per queue broker offset, consumer offset, diff and last time", runConsumerProgress);
    progress->add_option("-g,--groupName", options.group, "Consumer group")->required();
    progress->add_option("-t,--topicName", options.topic, "Only this topic");

    auto *connection = addAdminCommand(app, options, "consumerConnection", "A consumer group's online clients",
                                       runConsumerConnection);
    connection->add_option("-g,--consumerGroup", options.group, "Consumer group")->required();
    connection->add_option("-b,--brokerAddr", options.brokerAddr, "Ask only this broker");

    // mqadmin's tool defaults: a new group neither consumes from the minimum nor broadcasts.
    options.subGroup.consumeFromMinEnable = false;
    options.subGroup.consumeBroadcastEnable = false;
    client::SubscriptionGroupConfig &g = options.subGroup;
    auto *update = addAdminCommand(app, options, "updateSubGroup", "Create or update a subscription group",
                                   runUpdateSubGroup);
    update->add_option("-g,--groupName", options.group, "Consumer group")->required();
    addTarget(update, options);
    update->add_option("-s,--consumeEnable", g.consumeEnable, "Consume enable (true|false)")->capture_default_str();
    update->add_option("-m,--consumeFromMinEnable", g.consumeFromMinEnable, "From min offset (true|false)")
        ->capture_default_str();
    update->add_option("-d,--consumeBroadcastEnable", g.consumeBroadcastEnable, "Broadcast (true|false)")
        ->capture_default_str();
    update->add_option("-o,--consumeMessageOrderly", g.consumeMessageOrderly,
                       "Orderly (FIFO) consumption for POP and 5.x consumers (true|false)")
        ->capture_default_str();
    update->add_option("-q,--retryQueueNums", g.retryQueueNums, "Retry queues")
        ->check(CLI::Range(0, 1024))
        ->capture_default_str();
    update->add_option("-r,--retryMaxTimes", g.retryMaxTimes, "Retry max times")
        ->check(CLI::Range(-1, 1000))
        ->capture_default_str();
    update->add_option("-i,--brokerId", g.brokerId, "Consume from this broker id")->capture_default_str();
    update->add_option("-w,--whichBrokerWhenConsumeSlowly", g.whichBrokerWhenConsumeSlowly,
                       "Broker id when consuming slowly")
        ->capture_default_str();
    update->add_option("-a,--notifyConsumerIdsChanged", g.notifyConsumerIdsChangedEnable,
                       "Notify consumers of changes (true|false)")
        ->capture_default_str();
    update->add_option("--attributes", g.attributeModifications,
                       "RocketMQ 5.x group attributes, as mqadmin's: +priority.factor=50,-key")
        ->check([](const std::string &text) {
            remoting::AttributeModifications parsed;
            std::string error;
            return remoting::parseAttributeModifications(text, parsed, error) ? std::string() : error;
        });

    auto *remove = addAdminCommand(app, options, "deleteSubGroup", "Delete a subscription group", runDeleteSubGroup);
    remove->add_option("-g,--groupName", options.group, "Consumer group")->required();
    addTarget(remove, options);
    remove->add_option("-r,--removeOffset", options.removeOffset, "Also remove its offsets (true|false)")
        ->capture_default_str();

    auto *reset = addAdminCommand(app, options, "resetOffsetByTime", "Move a group's offsets on a topic to a time",
                                  runResetOffsetByTime);
    reset->add_option("-g,--group", options.group, "Consumer group")->required();
    reset->add_option("-t,--topic", options.topic, "Topic")->required();
    reset->add_option("-s,--timestamp", options.timestamp, "ms, 'now' or yyyy-MM-dd#HH:mm:ss:SSS")->required();
    reset->add_option("-f,--force", options.force, "Also move offsets forward (true|false)")->capture_default_str();
}

} // namespace mqdesk::admin
