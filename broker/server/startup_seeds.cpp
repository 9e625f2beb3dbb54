#include "broker/server/startup_seeds.h"

#include "broker/remoting/protocol/resource_names.h"
#include "broker/remoting/protocol/topic_attributes.h"
#include "broker/server/broker_controller.h"
#include "broker/server/topic_manager.h"
#include "broker/store/config/subscription_group_manager.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>

namespace mqdesk::server {

namespace {

// Splits at ':' (names never hold one: resource_names.h allows letters, digits, % - _ | only).
std::vector<std::string_view> fields(std::string_view text)
{
    std::vector<std::string_view> parts;
    for (size_t start = 0;;) {
        const size_t colon = text.find(':', start);
        parts.push_back(text.substr(start, colon == std::string_view::npos ? std::string_view::npos : colon - start));
        if (colon == std::string_view::npos)
            return parts;
        start = colon + 1;
    }
}

bool createTopic(BrokerController &broker, const TopicSeed &seed, std::string &error)
{
    if (isSystemTopic(seed.name, broker.brokerConfig()) || seed.name == broker.brokerConfig().brokerClusterName) {
        error = "topic " + seed.name + " is reserved for the broker itself";
        return false;
    }
    store::TopicConfig config;
    config.topicName = seed.name;
    config.readQueueNums = config.writeQueueNums = seed.queues;
    config.order = seed.messageType == "FIFO";
    if (!seed.messageType.empty()) {
        // Validated as UPDATE_AND_CREATE_TOPIC's "+message.type=…" is, so the values are Java's.
        remoting::AttributeAlteration alteration;
        const remoting::AttributeModifications wanted{
            {std::string("+") + remoting::kMessageTypeAttribute, seed.messageType}};
        if (!remoting::alterTopicAttributes(true, {}, wanted, alteration, error)) {
            error = "topic " + seed.name + ": " + error;
            return false;
        }
        for (const auto &[key, value] : alteration.put)
            config.attributes.insertOrAssign(key, value);
    }
    if (!broker.topics().updateTopic(config, error)) {
        error = "cannot save topic " + seed.name + ": " + error;
        return false;
    }
    spdlog::info("topic {} created ({} queues{}{})", seed.name, seed.queues, seed.messageType.empty() ? "" : ", ",
                 seed.messageType);
    return true;
}

} // namespace

bool parseTopicSeed(std::string_view text, TopicSeed &out, std::string &error)
{
    const std::vector<std::string_view> parts = fields(text);
    if (parts.size() > 3) {
        error = "expected NAME[:QUEUES[:TYPE]]";
        return false;
    }
    out = {};
    out.name = std::string(parts[0]);
    if (error = remoting::topicNameError(out.name, ""); !error.empty())
        return false;
    if (parts.size() > 1) {
        const std::string_view queues = parts[1];
        const auto [end, failed] = std::from_chars(queues.data(), queues.data() + queues.size(), out.queues);
        if (failed != std::errc{} || end != queues.data() + queues.size() || out.queues < 1
            || out.queues > kMaxQueueNums) {
            error = "the queue count '" + std::string(queues) + "' is not a number in 1.." + std::to_string(kMaxQueueNums);
            return false;
        }
    }
    if (parts.size() > 2) {
        out.messageType = std::string(parts[2]);
        const auto &types = remoting::topicMessageTypes();
        if (std::find(types.begin(), types.end(), out.messageType) == types.end()) {
            std::string known;
            for (const std::string &type : types)
                known += (known.empty() ? "" : ", ") + type;
            error = "the message type '" + out.messageType + "' is not one of " + known;
            return false;
        }
    }
    return true;
}

bool parseGroupSeed(std::string_view text, GroupSeed &out, std::string &error)
{
    const std::vector<std::string_view> parts = fields(text);
    if (parts.size() > 2 || (parts.size() == 2 && parts[1] != "orderly")) {
        error = "expected NAME or NAME:orderly";
        return false;
    }
    out = {};
    out.name = std::string(parts[0]);
    out.orderly = parts.size() == 2;
    error = remoting::groupNameError(out.name, "");
    return error.empty();
}

bool applySeeds(BrokerController &broker, const std::vector<TopicSeed> &topics, const std::vector<GroupSeed> &groups,
                std::string &error)
{
    for (const TopicSeed &topic : topics) {
        if (!createTopic(broker, topic, error))
            return false;
    }
    if (groups.empty())
        return true;
    for (const GroupSeed &seed : groups) {
        store::SubscriptionGroupConfig config;
        config.groupName = seed.name;
        config.consumeMessageOrderly = seed.orderly;
        broker.subscriptionGroups().updateSubscriptionGroupConfig(config);
        spdlog::info("subscription group {} created{}", seed.name, seed.orderly ? " (orderly)" : "");
    }
    if (!broker.subscriptionGroups().persist(error)) {
        error = "cannot save subscription groups: " + error;
        return false;
    }
    return true;
}

} // namespace mqdesk::server
