#include "broker/server/topic_manager.h"

#include "broker/common/message_properties.h"
#include "broker/remoting/protocol/resource_names.h"
#include "broker/server/broker_config.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace mqdesk::server {

using store::TopicConfig;
namespace perm = store::perm;

bool isSendForbiddenTopic(std::string_view topic)
{
    return topic == kScheduleTopic || topic == kTransHalfTopic || topic == kTransOpHalfTopic
           || topic == kTransCheckMaxTimeTopic || topic == kSelfTestTopic || topic == kOffsetMovedEventTopic;
}

bool isSystemTopic(std::string_view topic, const BrokerConfig &config)
{
    return isSendForbiddenTopic(topic) || topic == kAutoCreateTopicKey || topic == "BenchmarkTest"
           || topic == config.brokerClusterName || topic == config.brokerName
           || topic.starts_with("rmq_sys_") || topic == "RMQ_SYS_TRACE_TOPIC" || topic == config.msgTraceTopicName
           || topic == config.brokerClusterName + "_REPLY_TOPIC";
}

remoting::DataVersionData toWireVersion(const store::DataVersion &version)
{
    remoting::DataVersionData data;
    data.counter = version.counter;
    data.timestamp = version.timestamp;
    return data;
}

remoting::TopicConfigData toWireTopicConfig(const TopicConfig &topic)
{
    remoting::TopicConfigData data;
    data.topicName = topic.topicName;
    data.readQueueNums = topic.readQueueNums;
    data.writeQueueNums = topic.writeQueueNums;
    data.perm = topic.perm;
    data.topicFilterType = topic.topicFilterType;
    data.topicSysFlag = topic.topicSysFlag;
    data.order = topic.order;
    for (const auto &[key, value] : topic.attributes)
        data.attributes.emplace_back(key, value);
    return data;
}

TopicManager::TopicManager(const BrokerConfig &config, store::TopicConfigManager &table, bool timerWheelEnable,
                           bool enableLmq)
    : config_(config), timerWheelEnable_(timerWheelEnable), enableLmq_(enableLmq), table_(table)
{}

std::optional<store::TopicConfig> TopicManager::find(const std::string &topic) const
{
    if (enableLmq_ && topic.starts_with(common::kLmqPrefix)) {
        store::TopicConfig lmq;
        lmq.topicName = topic;
        lmq.readQueueNums = 1;
        lmq.writeQueueNums = 1;
        return lmq;
    }
    return table_.selectTopicConfig(topic);
}

void TopicManager::setChangeListener(ChangeListener listener)
{
    changed_ = std::move(listener);
}

bool TopicManager::initialize(std::string &error)
{
    bool added = false;
    const auto ensure = [&](const std::string &name, int32_t queues, int32_t permission) {
        if (table_.contains(name))
            return;
        TopicConfig topic;
        topic.topicName = name;
        topic.readQueueNums = topic.writeQueueNums = queues;
        topic.perm = permission;
        table_.updateTopicConfig(topic);
        added = true;
    };
    ensure(kSelfTestTopic, 1, perm::kRead | perm::kWrite);
    // RocketMQ's benchmark Producer and Consumer use it (Java's TopicConfigManager makes it, with
    // 1024 queues, at every start).
    ensure("BenchmarkTest", 1024, perm::kRead | perm::kWrite);
    if (config_.autoCreateTopicEnable)
        ensure(kAutoCreateTopicKey, config_.defaultTopicQueueNums, perm::kRead | perm::kWrite | perm::kInherit);
    // The cluster's and the broker's own topics exist whatever the switches; the switches give
    // them read and write (Java's TopicConfigManager).
    const int32_t readWrite = perm::kRead | perm::kWrite;
    ensure(config_.brokerClusterName, 16, perm::kInherit | (config_.clusterTopicEnable ? readWrite : 0));
    ensure(config_.brokerName, 1, perm::kInherit | (config_.brokerTopicEnable ? readWrite : 0));
    ensure(kOffsetMovedEventTopic, 1, perm::kRead | perm::kWrite);
    ensure(kScheduleTopic, 18, perm::kRead | perm::kWrite);
    if (timerWheelEnable_)
        ensure(kTimerTopic, 1, perm::kRead | perm::kWrite);
    // POP checkpoints and acks (RocketMQ 5): one queue per revive queue.
    ensure("rmq_sys_REVIVE_LOG_" + config_.brokerClusterName, config_.reviveQueueNum, perm::kRead | perm::kWrite);
    // Replies of request-reply messages (producer.request) travel through <cluster>_REPLY_TOPIC.
    ensure(config_.brokerClusterName + "_REPLY_TOPIC", 1, perm::kRead | perm::kWrite);
    // Message trace records (clients with enableMsgTrace) go to msgTraceTopicName; Java's broker
    // creates it only when traceTopicEnable, otherwise the trace producer auto-creates it.
    if (config_.traceTopicEnable) {
        if (!remoting::validateTopicName(config_.msgTraceTopicName, error)) {
            error = "msgTraceTopicName: " + error;
            return false;
        }
        ensure(config_.msgTraceTopicName, 1, perm::kRead | perm::kWrite);
    }
    if (!added)
        return true;
    if (!table_.persist(error))
        return false;
    return true;
}

bool TopicManager::persistAndAnnounce(std::string &error)
{
    if (!table_.persist(error)) {
        spdlog::error("topics: cannot persist {}: {}", table_.fileName(), error);
        return false;
    }
    if (changed_)
        changed_();
    return true;
}

std::optional<TopicConfig> TopicManager::createTopicFromTemplate(const std::string &topic,
                                                                 const std::string &templateTopic,
                                                                 int32_t queueNums, int32_t topicSysFlag)
{
    std::lock_guard lock(createMutex_);
    if (auto existing = table_.selectTopicConfig(topic))
        return existing;
    auto base = table_.selectTopicConfig(templateTopic);
    if (!base || (base->perm & perm::kInherit) == 0) {
        if (base)
            spdlog::warn("topics: cannot create {} from template {}: the template is not inheritable", topic,
                         templateTopic);
        return std::nullopt;
    }
    TopicConfig created;
    created.topicName = topic;
    created.readQueueNums = created.writeQueueNums = std::max(1, std::min(queueNums, base->writeQueueNums));
    created.perm = base->perm & ~perm::kInherit;
    created.topicFilterType = base->topicFilterType;
    created.topicSysFlag = topicSysFlag;
    table_.updateTopicConfig(created);
    spdlog::info("topics: created {} from template {} with {} queues", topic, templateTopic, created.writeQueueNums);
    std::string error;
    if (!persistAndAnnounce(error))
        return std::nullopt;
    return created;
}

std::optional<TopicConfig> TopicManager::createTopicIfAbsent(const std::string &topic, int32_t queueNums,
                                                             int32_t permission, int32_t topicSysFlag)
{
    std::lock_guard lock(createMutex_);
    if (auto existing = table_.selectTopicConfig(topic))
        return existing;
    TopicConfig created;
    created.topicName = topic;
    created.readQueueNums = created.writeQueueNums = queueNums;
    created.perm = permission;
    created.topicSysFlag = topicSysFlag;
    table_.updateTopicConfig(created);
    spdlog::info("topics: created {} with {} queues", topic, queueNums);
    std::string error;
    if (!persistAndAnnounce(error))
        return std::nullopt;
    return created;
}

bool TopicManager::createTopicsIfAbsent(const std::vector<TopicConfig> &wanted)
{
    std::lock_guard lock(createMutex_);
    int created = 0;
    for (const TopicConfig &topic : wanted) {
        if (table_.selectTopicConfig(topic.topicName))
            continue;
        table_.updateTopicConfig(topic);
        ++created;
    }
    if (created == 0)
        return true;
    spdlog::info("topics: created {} topics at once (first {})", created, wanted.front().topicName);
    std::string error;
    return persistAndAnnounce(error);
}

bool TopicManager::createTopicForRouteLookup(const std::string &topic)
{
    std::string error;
    if (!config_.autoCreateTopicEnable || !remoting::validateTopicName(topic, error) || isSendForbiddenTopic(topic))
        return false;
    // Consumers' retry topics appear through heartbeats, not through route lookups.
    if (topic.starts_with(kRetryGroupTopicPrefix) || topic.starts_with(kDlqGroupTopicPrefix))
        return false;
    const int32_t queues = std::min(4, config_.defaultTopicQueueNums);
    return createTopicIfAbsent(topic, queues, perm::kRead | perm::kWrite).has_value();
}

bool TopicManager::updateTopic(const TopicConfig &config, std::string &error)
{
    {
        std::lock_guard lock(createMutex_);
        table_.updateTopicConfig(config);
    }
    return persistAndAnnounce(error);
}

bool TopicManager::deleteTopic(const std::string &topic, std::string &error)
{
    {
        std::lock_guard lock(createMutex_);
        if (!table_.deleteTopicConfig(topic)) {
            error = "topic " + topic + " does not exist";
            return false;
        }
    }
    return persistAndAnnounce(error);
}

} // namespace mqdesk::server
