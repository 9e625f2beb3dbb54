// queryMsgById, queryMsgByKey, queryMsgByUniqueKey, queryMsgByOffset, sendMessage,
// consumeMessage (remoting spec §4, §8). Pulls never ask the broker to hold them, so a caught-up
// queue answers at once and no command waits longer than its request timeout.

#include "app/mqdesk-admin/admin_output.h"
#include "app/mqdesk-admin/admin_session.h"
#include "broker/client/producer.h"
#include "broker/client/route_util.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>

namespace mqdesk::admin {

namespace {

void printMessages(AdminSession &s, const std::vector<common::StoredMessage> &messages)
{
    bool first = true;
    for (const common::StoredMessage &message : messages) {
        if (s.json()) {
            printJsonLine(std::cout, messageToJson(message));
            continue;
        }
        if (!first)
            std::cout << '\n';
        first = false;
        printMessage(std::cout, message);
    }
}

int runQueryMsgById(AdminSession &s)
{
    std::vector<common::StoredMessage> found;
    for (const std::string &id : client::splitList(s.options().id, ',')) {
        client::Result<common::StoredMessage> message = s.admin().viewMessage(id, s.options().topic);
        if (!message.ok)
            return s.fail(message.status());
        found.push_back(std::move(message.value));
    }
    printMessages(s, found);
    return kAdminOk;
}

int runQueryMsgByKey(AdminSession &s)
{
    const AdminOptions &o = s.options();
    if (!s.requireNamesrv())
        return kAdminUsage;
    client::Result<std::vector<common::StoredMessage>> messages =
        s.admin().queryMessageByKey(o.topic, o.key, o.maxNum, o.beginTimestamp, o.endTimestamp);
    if (!messages.ok)
        return s.fail(messages.status());
    if (s.json()) {
        printMessages(s, messages.value);
        return kAdminOk;
    }
    TextTable table({"#Message ID", "#QID", "#Offset", "#Store Time", "#Tags"});
    for (const common::StoredMessage &m : messages.value)
        table.addRow({msgIdOf(m), std::to_string(m.queueId), std::to_string(m.queueOffset),
                      formatMillis(m.storeTimestamp), m.tags()});
    table.print(std::cout);
    return kAdminOk;
}

int runQueryMsgByUniqueKey(AdminSession &s)
{
    const AdminOptions &o = s.options();
    if (!s.requireNamesrv())
        return kAdminUsage;
    if (client::Result<remoting::TopicRouteData> route = s.admin().topicRoute(o.topic); !route.ok)
        return s.fail(route.status());
    client::Result<common::StoredMessage> message = s.admin().queryMessageByUniqKey(o.topic, o.id);
    if (!message.ok)
        return s.fail(message.status());
    printMessages(s, {message.value});
    return kAdminOk;
}

// The topic's readable queues, only those of broker -b and queue -i when given.
client::Result<std::vector<client::MessageQueue>> selectQueues(AdminSession &s, const remoting::TopicRouteData &route)
{
    const AdminOptions &o = s.options();
    std::vector<client::MessageQueue> queues;
    for (const client::MessageQueue &queue : client::subscribeQueues(o.topic, route))
        if ((o.brokerName.empty() || queue.brokerName == o.brokerName) && (o.queueId < 0 || queue.queueId == o.queueId))
            queues.push_back(queue);
    if (queues.empty())
        return client::Status::failure(client::clientCode::kNoRoute,
                                       "topic " + o.topic + " has no readable queue" +
                                           (o.brokerName.empty() ? "" : " on broker " + o.brokerName) +
                                           (o.queueId < 0 ? "" : " with id " + std::to_string(o.queueId)));
    return queues;
}

client::Result<client::PullResult> pullOnce(AdminSession &s, const std::string &addr, const client::MessageQueue &queue,
                                            int64_t offset, int32_t maxNums)
{
    client::PullMessageHeader header;
    header.consumerGroup = s.options().consumerGroup;
    header.topic = queue.topic;
    header.queueId = queue.queueId;
    header.queueOffset = offset;
    header.maxMsgNums = maxNums;
    header.sysFlag = client::pullSysFlag::kSubscription; // no suspend, no commit
    header.suspendTimeoutMillis = 0;
    return s.admin().api().pullMessage(addr, header);
}

int runQueryMsgByOffset(AdminSession &s)
{
    const AdminOptions &o = s.options();
    if (!s.requireNamesrv())
        return kAdminUsage;
    client::Result<remoting::TopicRouteData> route = s.admin().topicRoute(o.topic);
    if (!route.ok)
        return s.fail(route.status());
    client::Result<std::vector<client::MessageQueue>> queues = selectQueues(s, route.value);
    if (!queues.ok)
        return s.fail(queues.status());
    const client::MessageQueue &queue = queues.value.front();
    client::Result<client::PullResult> pulled =
        pullOnce(s, client::masterAddress(route.value, queue.brokerName), queue, o.offset, 1);
    if (!pulled.ok)
        return s.fail(pulled.status());
    if (pulled.value.status != client::PullStatus::Found || pulled.value.messages.empty())
        return s.fail("no message at offset " + std::to_string(o.offset) + " of " + queue.toString() + " (" +
                      std::string(client::pullStatusName(pulled.value.status)) + ", the queue holds offsets " +
                      std::to_string(pulled.value.minOffset) + " to " + std::to_string(pulled.value.maxOffset - 1) +
                      ")");
    printMessages(s, {pulled.value.messages.front()});
    return kAdminOk;
}

int runSendMessage(AdminSession &s)
{
    const AdminOptions &o = s.options();
    if (!s.requireNamesrv())
        return kAdminUsage;
    if (o.brokerName.empty() != (o.queueId < 0))
        return s.usage("-b BROKER_NAME and -i QUEUE_ID go together");
    client::Producer producer(s.clientConfig());
    if (client::Status status = producer.start(); !status.ok)
        return s.fail(status);
    client::Message message;
    message.topic = o.topic;
    message.tags = o.tags;
    message.keys = client::splitList(o.keys, ' ');
    message.setBody(o.body);
    client::QueueSelector selector;
    if (!o.brokerName.empty()) {
        client::Result<std::vector<client::MessageQueue>> queues = producer.fetchPublishMessageQueues(o.topic);
        if (!queues.ok)
            return s.fail(queues.status());
        const client::MessageQueue wanted{o.topic, o.brokerName, o.queueId};
        const auto it = std::find(queues.value.begin(), queues.value.end(), wanted);
        if (it == queues.value.end())
            return s.fail("topic " + o.topic + " has no writable queue " + wanted.toString());
        const size_t index = static_cast<size_t>(it - queues.value.begin());
        selector = [index](const std::vector<client::MessageQueue> &, const client::Message &) { return index; };
    }
    client::Result<client::SendResult> sent = producer.send(message, selector);
    producer.shutdown();
    if (!sent.ok)
        return s.fail(sent.status());
    const client::SendResult &r = sent.value;
    if (s.json()) {
        common::JsonObject json;
        json.set("topic", r.queue.topic);
        json.set("brokerName", r.queue.brokerName);
        json.set("queueId", r.queue.queueId);
        json.set("sendStatus", client::sendStatusName(r.status));
        json.set("msgId", r.uniqKey);
        json.set("offsetMsgId", r.msgId);
        json.set("queueOffset", r.queueOffset);
        printJsonLine(std::cout, json);
        return kAdminOk;
    }
    TextTable table({"#Broker Name", "#QID", "#Send Result", "#MsgId", "#OffsetMsgId", "#Queue Offset"});
    table.addRow({r.queue.brokerName, std::to_string(r.queue.queueId), std::string(client::sendStatusName(r.status)),
                  r.uniqKey, r.msgId, std::to_string(r.queueOffset)});
    table.print(std::cout);
    return kAdminOk;
}

int runConsumeMessage(AdminSession &s)
{
    const AdminOptions &o = s.options();
    if (!s.requireNamesrv())
        return kAdminUsage;
    client::Result<remoting::TopicRouteData> route = s.admin().topicRoute(o.topic);
    if (!route.ok)
        return s.fail(route.status());
    client::Result<std::vector<client::MessageQueue>> queues = selectQueues(s, route.value);
    if (!queues.ok)
        return s.fail(queues.status());
    TextTable table({"#Broker Name", "#QID", "#Offset", "#MsgId", "#Tags", "#Keys", "#Store Time", "#Body"});
    int32_t printed = 0;
    for (const client::MessageQueue &queue : queues.value) {
        const std::string addr = client::masterAddress(route.value, queue.brokerName);
        int64_t offset = o.offset;
        if (offset < 0) {
            client::Result<int64_t> min = s.admin().api().getMinOffset(addr, queue.topic, queue.queueId);
            if (!min.ok)
                return s.fail(min.status());
            offset = min.value;
        }
        while (printed < o.count) {
            client::Result<client::PullResult> pulled = pullOnce(s, addr, queue, offset, std::min(32, o.count - printed));
            if (!pulled.ok)
                return s.fail(pulled.status());
            const client::PullResult &r = pulled.value;
            for (const common::StoredMessage &m : r.messages) {
                if (printed >= o.count)
                    break;
                ++printed;
                if (s.json()) {
                    common::JsonObject json = messageToJson(m);
                    json.set("brokerName", queue.brokerName);
                    printJsonLine(std::cout, json);
                } else {
                    table.addRow({queue.brokerName, std::to_string(m.queueId), std::to_string(m.queueOffset),
                                  msgIdOf(m), m.tags(), std::string(m.properties.get(common::property::kKeys).value_or("")),
                                  formatMillis(m.storeTimestamp), bodyPreview(m.body, 64)});
                }
            }
            // Stop at the queue's end, or when the broker would send us back to where we are.
            if (r.status == client::PullStatus::NoNewMsg || r.nextBeginOffset <= offset)
                break;
            offset = r.nextBeginOffset;
        }
    }
    if (!s.json()) {
        table.print(std::cout);
        std::cout << "\nConsumed " << printed << " message(s).\n";
    }
    return kAdminOk;
}

} // namespace

void addMessageCommands(CLI::App &app, AdminOptions &options)
{
    auto *byId = addAdminCommand(app, options, "queryMsgById", "A message by its offset message id", runQueryMsgById);
    byId->add_option("-i,--msgId", options.id, "Offset message id(s), comma-separated")->required();
    byId->add_option("-t,--topic", options.topic,
                     "The messages' topic (a broker with access control answers only messages of the topic named)");

    auto *byKey = addAdminCommand(app, options, "queryMsgByKey", "Messages of a topic by key", runQueryMsgByKey);
    byKey->add_option("-t,--topic", options.topic, "Topic")->required();
    byKey->add_option("-k,--msgKey", options.key, "Message key")->required();
    byKey->add_option("-b,--beginTimestamp", options.beginTimestamp, "From this store time (ms)");
    byKey->add_option("-e,--endTimestamp", options.endTimestamp, "Until this store time (ms)");
    byKey->add_option("-c,--maxNum", options.maxNum, "At most this many messages")
        ->check(CLI::Range(1, 64))
        ->capture_default_str();

    auto *byUniq = addAdminCommand(app, options, "queryMsgByUniqueKey", "A message by its unique key (msgId)",
                                   runQueryMsgByUniqueKey);
    byUniq->add_option("-i,--msgId", options.id, "Unique key (the producer's msgId)")->required();
    byUniq->add_option("-t,--topic", options.topic, "Topic")->required();

    auto *byOffset = addAdminCommand(app, options, "queryMsgByOffset", "The message at a queue offset",
                                     runQueryMsgByOffset);
    byOffset->add_option("-t,--topic", options.topic, "Topic")->required();
    byOffset->add_option("-b,--brokerName", options.brokerName, "Broker name")->required();
    byOffset->add_option("-i,--queueId", options.queueId, "Queue id")->required()->check(CLI::NonNegativeNumber);
    byOffset->add_option("-o,--offset", options.offset, "Queue offset")->required()->check(CLI::NonNegativeNumber);

    auto *send = addAdminCommand(app, options, "sendMessage", "Send one message", runSendMessage);
    send->add_option("-t,--topic", options.topic, "Topic")->required();
    send->add_option("-p,--body", options.body, "Message body")->required();
    send->add_option("-k,--key", options.keys, "Message keys (space-separated)");
    send->add_option("-c,--tags", options.tags, "Message tag");
    send->add_option("-b,--broker", options.brokerName, "Send to this broker (with -i)");
    send->add_option("-i,--qid", options.queueId, "Send to this queue (with -b)")->check(CLI::NonNegativeNumber);

    auto *consume = addAdminCommand(app, options, "consumeMessage", "Read messages without committing offsets",
                                    runConsumeMessage);
    consume->add_option("-t,--topic", options.topic, "Topic")->required();
    consume->add_option("-b,--brokerName", options.brokerName, "Only this broker");
    consume->add_option("-i,--queueId", options.queueId, "Only this queue")->check(CLI::NonNegativeNumber);
    consume->add_option("-o,--offset", options.offset, "Start at this queue offset (default: the queue's minimum)")
        ->check(CLI::NonNegativeNumber);
    consume->add_option("-c,--messageNumber", options.count, "At most this many messages")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    consume->add_option("-g,--consumerGroup", options.consumerGroup, "Group the pulls are made as")
        ->capture_default_str();
}

} // namespace mqdesk::admin
