#pragma once

// The admin requests the console and mqadmin send to a broker (remoting spec §8): topics,
// statistics, offsets, subscription groups, connections, messages by key or offset, runtime
// info, broker configuration, and MQDesk's extensions GET_FLUSH_SAMPLES and GET_ACTIVITY_TOTALS
// (docs/remoting-extensions.md).
//
// The handlers live in several files by subject: admin_processor.cpp (dispatch, topics,
// configuration), admin_stats.cpp (topic and consume statistics, runtime info, flush samples,
// activity totals, VIEW_BROKER_STATS_DATA), admin_groups.cpp (subscription groups, connections, who consumes a topic),
// admin_offsets.cpp (offset tables, reset, clone), admin_messages.cpp (QUERY_MESSAGE, VIEW_MESSAGE_BY_ID).
// Handlers run on the broker's admin executor, only while the broker is serving (the store is
// open); each answers with a response built from the request, never throws on bad input.

#include "broker/common/topic_queue_mapping.h"
#include "broker/remoting/net/remoting_channel.h"

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mqdesk::store {
struct TopicConfig;
}

namespace mqdesk::remoting {
struct ConsumeStats;
class HeaderReader;
}

namespace mqdesk::server {

class BrokerController;
struct ConsumerGroupSnapshot;

class AdminProcessor
{
public:
    explicit AdminProcessor(BrokerController &broker) : broker_(broker) {}

    // The request codes process() answers.
    static std::vector<int32_t> codes();
    void process(const remoting::RequestContext &context, remoting::RemotingCommand request,
                 remoting::Responder respond);

private:
    using Command = remoting::RemotingCommand;

    // admin_processor.cpp
    // The CreateTopicRequestHeader fields of UPDATE_AND_CREATE_TOPIC and _STATIC_TOPIC but the name.
    static void readTopicFields(remoting::HeaderReader &reader, store::TopicConfig &config);
    // Why the filter type or queue counts of `config` are refused; "" when they are not.
    static std::string topicConfigProblem(const store::TopicConfig &config);
    Command updateAndCreateTopic(const Command &request);
    // Applies the request's `attributes` modifications to `config` (holding `existing`'s
    // attributes on an update); the failure response when Java's would refuse them.
    std::optional<Command> applyTopicAttributes(const Command &request, const std::string &modificationText,
                                                const std::optional<store::TopicConfig> &existing,
                                                store::TopicConfig &config) const;
    Command deleteTopic(const Command &request);
    // One topic's config, consume queues, offsets and statistics; false with `error` when its
    // config could not be removed.
    bool deleteTopicAndItsQueues(const std::string &topic, std::string &error);
    Command getAllTopicConfig(const Command &request);
    Command getTopicConfig(const Command &request);
    Command getSystemTopicList(const Command &request);
    // admin_static_topics.cpp: UPDATE_AND_CREATE_STATIC_TOPIC (513), and the mapping that
    // GET_TOPIC_CONFIG adds for a static topic when asked (`lo`).
    Command updateAndCreateStaticTopic(const Command &request);
    std::optional<common::TopicQueueMappingDetail> staticMappingToShow(const Command &request,
                                                                       const std::string &topic) const;
    Command updateBrokerConfig(const Command &request);
    Command getBrokerConfig(const Command &request);

    // admin_stats.cpp
    Command getTopicStats(const Command &request);
    Command getConsumeStats(const Command &request);
    Command getBrokerConsumeStats(const Command &request);
    Command getBrokerRuntimeInfo(const Command &request);
    Command getFlushSamples(const Command &request);
    Command viewBrokerStatsData(const Command &request);
    // The minute's gets per second of `group` from `topic` (GROUP_GET_NUMS).
    double consumeTps(const std::string &group, const std::string &topic) const;
    Command getActivityTotals(const Command &request);
    // Whether the consume stats of `online` (the group's live state, if any) include `topic`.
    static bool subscribesTo(const std::optional<ConsumerGroupSnapshot> &online, const std::string &topic);
    // One entry per write queue of `config`: broker, consumer and pull offsets, last time.
    void appendConsumeOffsets(const std::string &group, const store::TopicConfig &config,
                              remoting::ConsumeStats &stats) const;
    // Store time of the message at `offset` of a queue; 0 when it is not readable.
    int64_t storeTimeAt(const std::string &topic, int32_t queueId, int64_t offset) const;

    // admin_timer_pop.cpp (MQDesk extensions): scheduled timer messages of a topic per coming
    // minute with the next ones; a group's POP figures.
    Command getTimerTimeline(const Command &request);
    Command getPopStats(const Command &request);

    // admin_groups.cpp
    Command getAllSubscriptionGroups(const Command &request);
    Command updateAndCreateSubscriptionGroup(const Command &request);
    Command updateAndCreateSubscriptionGroupList(const Command &request);
    Command getSubscriptionGroup(const Command &request);
    Command queryTopicsByConsumer(const Command &request);
    Command querySubscriptionByConsumer(const Command &request);
    Command getAllProducerInfo(const Command &request);
    Command deleteSubscriptionGroup(const Command &request);
    Command getConsumerConnections(const Command &request);
    Command getProducerConnections(const Command &request);
    Command queryTopicConsumeByWho(const Command &request);

    // admin_offsets.cpp
    Command getAllConsumerOffset(const Command &request);
    Command getAllDelayOffset(const Command &request);
    Command resetOffset(const Command &request);
    Command resetOffsetOnBroker(const Command &request, const std::string &topic, const std::string &group,
                                int32_t queueId, std::optional<int64_t> offset, int64_t timestamp);
    Command resetOffsetThroughClients(const Command &request, const std::string &topic, const std::string &group,
                                      int64_t timestamp, bool isForce);
    Command cloneGroupOffset(const Command &request);

    // admin_messages.cpp
    Command queryMessage(const Command &request);
    Command viewMessageById(const Command &request);

    BrokerController &broker_;
    // Java's updateAndCreateTopic is synchronized: attributes are altered against the topic's
    // current ones, so two updates must not interleave.
    std::mutex topicUpdateMutex_;
};

} // namespace mqdesk::server
