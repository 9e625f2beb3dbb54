#include "broker/server/admin_processor.h"

#include "broker/common/json.h"
#include "broker/common/properties_file.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/protocol/route_data.h"
#include "broker/remoting/protocol/topic_attributes.h"
#include "broker/remoting/net/remoting_dispatcher.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/admin_bodies.h"
#include "broker/server/broker_controller.h"
#include "broker/server/broker_stats.h"
#include "broker/server/pop/pop_records.h"
#include "broker/server/pop/pop_service.h"
#include "broker/server/topic_manager.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/topic_config_manager.h"
#include "broker/store/config/topic_queue_mapping_manager.h"
#include "broker/store/message_store.h"

#include <spdlog/spdlog.h>

#include <set>

namespace mqdesk::server {

using admin::failure;
using admin::successWithBody;
using remoting::HeaderReader;
using remoting::RemotingCommand;
using remoting::RequestCode;
using remoting::ResponseCode;

std::vector<int32_t> AdminProcessor::codes()
{
    return {RequestCode::kUpdateAndCreateTopic,
            RequestCode::kDeleteTopicInBroker,
            RequestCode::kGetAllTopicConfig,
            RequestCode::kGetTopicConfig,
            RequestCode::kUpdateAndCreateStaticTopic,
            RequestCode::kGetSystemTopicListFromBroker,
            RequestCode::kUpdateBrokerConfig,
            RequestCode::kGetBrokerConfig,
            RequestCode::kGetTopicStatsInfo,
            RequestCode::kGetConsumeStats,
            RequestCode::kGetBrokerConsumeStats,
            RequestCode::kGetBrokerRuntimeInfo,
            RequestCode::kGetFlushSamples,
            RequestCode::kViewBrokerStatsData,
            RequestCode::kGetActivityTotals,
            RequestCode::kGetTimerTimeline,
            RequestCode::kGetPopStats,
            RequestCode::kGetAllSubscriptiongroupConfig,
            RequestCode::kUpdateAndCreateSubscriptiongroup,
            RequestCode::kDeleteSubscriptiongroup,
            RequestCode::kUpdateAndCreateSubscriptiongroupList,
            RequestCode::kGetSubscriptiongroupConfig,
            RequestCode::kQueryTopicsByConsumer,
            RequestCode::kQuerySubscriptionByConsumer,
            RequestCode::kGetAllProducerInfo,
            RequestCode::kGetConsumerConnectionList,
            RequestCode::kGetProducerConnectionList,
            RequestCode::kQueryTopicConsumeByWho,
            RequestCode::kGetAllConsumerOffset,
            RequestCode::kGetAllDelayOffset,
            RequestCode::kInvokeBrokerToResetOffset,
            RequestCode::kCloneGroupOffset,
            RequestCode::kQueryMessage,
            RequestCode::kViewMessageById};
}

void AdminProcessor::process(const remoting::RequestContext &context, RemotingCommand request,
                             remoting::Responder respond)
{
    // With the extensions off the broker answers them as Java's default processor does.
    if (request.code >= RequestCode::kFirstMqdeskExtension && request.code <= RequestCode::kLastMqdeskExtension
        && !broker_.brokerConfig().mqdeskExtensionsEnable)
        return respond(remoting::refuseUnsupportedRequest(request, context.peerAddress(),
                                                          "MQDesk's extensions are off (mqdeskExtensionsEnable=false)"));
    switch (request.code) {
    case RequestCode::kUpdateAndCreateTopic: return respond(updateAndCreateTopic(request));
    case RequestCode::kDeleteTopicInBroker: return respond(deleteTopic(request));
    case RequestCode::kGetAllTopicConfig: return respond(getAllTopicConfig(request));
    case RequestCode::kGetTopicConfig: return respond(getTopicConfig(request));
    case RequestCode::kUpdateAndCreateStaticTopic: return respond(updateAndCreateStaticTopic(request));
    case RequestCode::kGetSystemTopicListFromBroker: return respond(getSystemTopicList(request));
    case RequestCode::kUpdateBrokerConfig: return respond(updateBrokerConfig(request));
    case RequestCode::kGetBrokerConfig: return respond(getBrokerConfig(request));
    case RequestCode::kGetTopicStatsInfo: return respond(getTopicStats(request));
    case RequestCode::kGetConsumeStats: return respond(getConsumeStats(request));
    case RequestCode::kGetBrokerConsumeStats: return respond(getBrokerConsumeStats(request));
    case RequestCode::kGetBrokerRuntimeInfo: return respond(getBrokerRuntimeInfo(request));
    case RequestCode::kGetFlushSamples: return respond(getFlushSamples(request));
    case RequestCode::kViewBrokerStatsData: return respond(viewBrokerStatsData(request));
    case RequestCode::kGetActivityTotals: return respond(getActivityTotals(request));
    case RequestCode::kGetTimerTimeline: return respond(getTimerTimeline(request));
    case RequestCode::kGetPopStats: return respond(getPopStats(request));
    case RequestCode::kGetAllSubscriptiongroupConfig: return respond(getAllSubscriptionGroups(request));
    case RequestCode::kUpdateAndCreateSubscriptiongroup: return respond(updateAndCreateSubscriptionGroup(request));
    case RequestCode::kDeleteSubscriptiongroup: return respond(deleteSubscriptionGroup(request));
    case RequestCode::kUpdateAndCreateSubscriptiongroupList:
        return respond(updateAndCreateSubscriptionGroupList(request));
    case RequestCode::kGetSubscriptiongroupConfig: return respond(getSubscriptionGroup(request));
    case RequestCode::kQueryTopicsByConsumer: return respond(queryTopicsByConsumer(request));
    case RequestCode::kQuerySubscriptionByConsumer: return respond(querySubscriptionByConsumer(request));
    case RequestCode::kGetAllProducerInfo: return respond(getAllProducerInfo(request));
    case RequestCode::kGetConsumerConnectionList: return respond(getConsumerConnections(request));
    case RequestCode::kGetProducerConnectionList: return respond(getProducerConnections(request));
    case RequestCode::kQueryTopicConsumeByWho: return respond(queryTopicConsumeByWho(request));
    case RequestCode::kGetAllConsumerOffset: return respond(getAllConsumerOffset(request));
    case RequestCode::kGetAllDelayOffset: return respond(getAllDelayOffset(request));
    case RequestCode::kInvokeBrokerToResetOffset: return respond(resetOffset(request));
    case RequestCode::kCloneGroupOffset: return respond(cloneGroupOffset(request));
    case RequestCode::kQueryMessage: return respond(queryMessage(request));
    case RequestCode::kViewMessageById: return respond(viewMessageById(request));
    default:
        return respond(remoting::refuseUnsupportedRequest(request, context.peerAddress(), "not served by this broker"));
    }
}

void AdminProcessor::readTopicFields(HeaderReader &reader, store::TopicConfig &config)
{
    config.readQueueNums = reader.requireInt32("readQueueNums");
    config.writeQueueNums = reader.requireInt32("writeQueueNums");
    config.perm = reader.requireInt32("perm");
    // Java also insists on defaultTopic, topicFilterType and order; every admin tool sends
    // them, and a tool that leaves them out gets Java's defaults instead of an error.
    config.topicFilterType = reader.optString("topicFilterType", store::TopicConfig::kSingleTag);
    config.topicSysFlag = reader.optInt32("topicSysFlag", 0);
    config.order = reader.optBool("order", false);
}

std::string AdminProcessor::topicConfigProblem(const store::TopicConfig &config)
{
    const std::string &topic = config.topicName;
    if (config.topicFilterType != store::TopicConfig::kSingleTag && config.topicFilterType != store::TopicConfig::kMultiTag)
        return "bad topicFilterType '" + config.topicFilterType + "': expected SINGLE_TAG or MULTI_TAG";
    // Java takes any number; a negative queue count would leave a topic no client can use.
    // Zero stays legal: shrinking a topic sets writeQueueNums first.
    if (config.readQueueNums < 0 || config.writeQueueNums < 0)
        return "queue counts of topic[" + topic + "] must not be negative";
    // Each queue is a folder of files and an entry in every offset table: a bound keeps one
    // request from creating millions of them.
    if (config.readQueueNums > kMaxQueueNums || config.writeQueueNums > kMaxQueueNums)
        return "queue counts of topic[" + topic + "] (readQueueNums " + std::to_string(config.readQueueNums)
               + ", writeQueueNums " + std::to_string(config.writeQueueNums) + ") exceed the limit of "
               + std::to_string(kMaxQueueNums);
    return {};
}

RemotingCommand AdminProcessor::updateAndCreateTopic(const RemotingCommand &request)
{
    HeaderReader reader(request.extFields);
    store::TopicConfig config;
    config.topicName = reader.requireTopic("topic");
    readTopicFields(reader, config);
    const std::string attributesText = reader.optString("attributes");
    if (!reader.ok())
        return failure(request, ResponseCode::kSystemError, reader.error());

    const std::string &topic = config.topicName;
    if (topic == broker_.brokerConfig().brokerClusterName)
        return failure(request, ResponseCode::kSystemError,
                       "the topic[" + topic + "] is conflict with system reserved words.");
    std::string error;
    if (isSystemTopic(topic, broker_.brokerConfig()))
        return failure(request, ResponseCode::kSystemError, "The topic[" + topic + "] is conflict with system topic.");
    if (std::string problem = topicConfigProblem(config); !problem.empty())
        return failure(request, ResponseCode::kSystemError, std::move(problem));

    std::lock_guard lock(topicUpdateMutex_);
    const auto existing = broker_.topics().find(topic);
    if (auto refused = applyTopicAttributes(request, attributesText, existing, config))
        return *refused;
    if (!broker_.topics().updateTopic(config, error))
        return failure(request, ResponseCode::kSystemError, "cannot save topic[" + topic + "]: " + error);
    spdlog::info("admin: topic {} created or updated (read {}, write {}, perm {}, attributes '{}')", topic,
                 config.readQueueNums, config.writeQueueNums, config.perm, attributesText);
    return RemotingCommand::createResponse(request, ResponseCode::kSuccess);
}

// AdminBrokerProcessor#updateAndCreateTopic and TopicConfigManager#updateTopicConfig: the text
// is parsed as AttributeParser does, MIXED refused unless enableMixedMessageType, then altered
// as AttributeUtil does (a create takes only "+key=value"; an update adds, changes or, with
// "-key", removes). An overwrite without modifications keeps every attribute, as 4.x tools send
// none. Java answers SYSTEM_ERROR with the exception's text for every refusal but MIXED.
std::optional<RemotingCommand> AdminProcessor::applyTopicAttributes(const RemotingCommand &request,
                                                                    const std::string &modificationText,
                                                                    const std::optional<store::TopicConfig> &existing,
                                                                    store::TopicConfig &config) const
{
    std::string error;
    remoting::AttributeModifications modifications;
    if (!remoting::parseAttributeModifications(modificationText, modifications, error))
        return failure(request, ResponseCode::kSystemError, error);
    const std::string typeKey = std::string("+") + remoting::kMessageTypeAttribute;
    const std::string *type = remoting::findAttribute(modifications, typeKey);
    if (type && *type == remoting::kMixedMessageType && !broker_.brokerConfig().enableMixedMessageType)
        return failure(request, ResponseCode::kInvalidParameter, "MIXED message type is not supported.");

    remoting::AttributeList current;
    if (existing) {
        config.attributes = existing->attributes;
        for (const auto &[key, value] : existing->attributes)
            current.emplace_back(key, value);
    }
    remoting::AttributeAlteration alteration;
    if (!remoting::alterTopicAttributes(!existing, current, modifications, alteration, error))
        return failure(request, ResponseCode::kSystemError, error);
    for (const auto &[key, value] : alteration.put)
        config.attributes.insertOrAssign(key, value);
    for (const std::string &key : alteration.remove)
        config.attributes.erase(key);
    return std::nullopt;
}

RemotingCommand AdminProcessor::deleteTopic(const RemotingCommand &request)
{
    HeaderReader reader(request.extFields);
    const std::string topic = reader.requireTopic("topic");
    if (!reader.ok())
        return failure(request, ResponseCode::kSystemError, reader.error());
    if (topic.empty())
        return failure(request, ResponseCode::kSystemError, "The specified topic is blank.");
    if (isSystemTopic(topic, broker_.brokerConfig()))
        return failure(request, ResponseCode::kSystemError, "The topic[" + topic + "] is conflict with system topic.");

    // Deleting a topic this broker does not have succeeds, as in Java: mqadmin sends the
    // request to every master of the cluster. With clearRetryTopicWhenDeleteTopic (Java's
    // default, the only value MQDesk serves) the POP retry topics of the groups that consumed it
    // go too, V1 (%RETRY%<group>_<topic>) and V2 (%RETRY%<group>+<topic>).
    std::vector<std::string> topics{topic};
    for (const std::string &group : broker_.offsets().whichGroupByTopic(topic)) {
        for (std::string retry : {pop::popRetryTopic(topic, group), pop::popRetryTopicV2(topic, group)}) {
            if (broker_.topics().find(retry))
                topics.push_back(std::move(retry));
        }
    }
    for (const std::string &name : topics) {
        if (std::string error; !deleteTopicAndItsQueues(name, error))
            return failure(request, ResponseCode::kSystemError, "cannot delete topic[" + name + "]: " + error);
    }
    return RemotingCommand::createResponse(request, ResponseCode::kSuccess);
}

bool AdminProcessor::deleteTopicAndItsQueues(const std::string &topic, std::string &error)
{
    const auto config = broker_.topics().find(topic);
    if (config && !broker_.topics().deleteTopic(topic, error))
        return false;
    // A LITE parent takes its lite topics with it (Java's cleanByParentTopic).
    const std::string *type = config ? config->attributes.find(remoting::kMessageTypeAttribute) : nullptr;
    if (type && *type == remoting::kLiteMessageType
        && !broker_.pop().deleteLiteQueues(topic, broker_.pop().liteQueueNamesOf(topic), error))
        spdlog::error("admin: the lite topics of deleted topic {} were not all deleted: {}", topic, error);
    // Its consume queues go too (Java's deleteTopics): a topic created again under the same name
    // starts at offset 0, and the groups' committed offsets of the topic go with it, so it does
    // not inherit them.
    if (!broker_.store().deleteTopicQueues({topic}, error))
        spdlog::error("admin: the consume queues of deleted topic {} were not all deleted: {}", topic, error);
    broker_.pullOffsets().clearTopic(topic);
    broker_.stats().items().removeTopic(topic);
    if (broker_.queueMappings().remove(topic) && !broker_.queueMappings().persist(error))
        spdlog::error("admin: cannot persist the static-topic mappings after deleting topic {}: {}", topic, error);
    store::ConsumerOffsetManager &offsets = broker_.offsets();
    bool offsetsChanged = false;
    for (const std::string &group : offsets.whichGroupByTopic(topic))
        offsetsChanged |= offsets.removeConsumerOffset(topic + store::ConsumerOffsetManager::kTopicGroupSeparator + group);
    if (offsetsChanged && !offsets.persist(error))
        spdlog::error("admin: cannot persist consumer offsets after deleting topic {}: {}", topic, error);
    spdlog::info("admin: topic {} deleted", topic);
    return true;
}

RemotingCommand AdminProcessor::getAllTopicConfig(const RemotingCommand &request)
{
    remoting::TopicConfigSerializeWrapper wrapper;
    wrapper.dataVersion = toWireVersion(broker_.topicTable().dataVersion());
    for (const store::TopicConfig &topic : broker_.topicTable().topicConfigs())
        wrapper.topicConfigTable.push_back(toWireTopicConfig(topic));
    if (wrapper.topicConfigTable.empty())
        return failure(request, ResponseCode::kSystemError, "No topic in this broker");
    // 5.x: the static topics' mappings ride along (Java's TopicConfigAndMappingSerializeWrapper).
    if (!broker_.queueMappings().empty()) {
        wrapper.mappingDataVersion = toWireVersion(broker_.queueMappings().dataVersion());
        wrapper.topicQueueMappingDetailMap = broker_.queueMappings().all();
    }
    return successWithBody(request, wrapper.toJson());
}

// GET_TOPIC_CONFIG (351, 5.x): one topic's config. The 5.x admin tools (topicStatus,
// consumerProgress, …) ask for it before the stats. Java answers a TopicConfigAndQueueMapping:
// the TopicConfig fields plus mappingDetail, which only a static topic has (fastjson leaves the
// null out), so the body is the topic's entry as topics.json holds it, plus the mapping when the
// request asks for it (`lo=true`, as mqadmin's static-topic commands do). Unlike Java the name is
// validated first: the header comes from a client.
RemotingCommand AdminProcessor::getTopicConfig(const RemotingCommand &request)
{
    HeaderReader reader(request.extFields);
    const std::string topic = reader.requireTopic("topic");
    if (!reader.ok())
        return failure(request, ResponseCode::kSystemError, reader.error());
    const auto config = broker_.topics().find(topic);
    if (!config)
        return failure(request, ResponseCode::kTopicNotExist, "No topic in this broker. topic: " + topic);
    common::JsonValue body = config->toJson();
    if (const auto mapping = staticMappingToShow(request, topic); mapping && body.isObject()) {
        body.object().set("mappingDetail", mapping->toJson());
        body.object().sortByKey();
    }
    return successWithBody(request, common::toJsonCompact(body));
}

RemotingCommand AdminProcessor::getSystemTopicList(const RemotingCommand &request)
{
    // Java's TopicValidator system set (with this broker's cluster and broker names, which the
    // broker adds at start) plus any system topic this broker holds.
    const BrokerConfig &config = broker_.brokerConfig();
    std::set<std::string> topics = {kAutoCreateTopicKey, kScheduleTopic,           "BenchmarkTest",
                                    kTransHalfTopic,     "RMQ_SYS_TRACE_TOPIC",    kTransOpHalfTopic,
                                    kTransCheckMaxTimeTopic, kSelfTestTopic,       kOffsetMovedEventTopic,
                                    config.brokerClusterName, config.brokerName};
    for (const store::TopicConfig &topic : broker_.topicTable().topicConfigs()) {
        if (isSystemTopic(topic.topicName, config))
            topics.insert(topic.topicName);
    }
    remoting::TopicList list;
    list.topicList.assign(topics.begin(), topics.end());
    return successWithBody(request, list.toJson());
}

RemotingCommand AdminProcessor::updateBrokerConfig(const RemotingCommand &request)
{
    const common::PropertiesParseResult parsed = common::parseProperties(admin::bodyText(request));
    if (!parsed.error.empty())
        return failure(request, ResponseCode::kSystemError, "UPDATE_BROKER_CONFIG body: " + parsed.error);
    if (std::string error = broker_.updateConfig(parsed.values); !error.empty())
        return failure(request, ResponseCode::kSystemError, error);
    spdlog::info("broker: configuration updated ({} keys)", parsed.values.size());
    return RemotingCommand::createResponse(request, ResponseCode::kSuccess);
}

RemotingCommand AdminProcessor::getBrokerConfig(const RemotingCommand &request)
{
    RemotingCommand response = successWithBody(request, broker_.configText());
    remoting::setField(response.extFields, "version", toWireVersion(broker_.topicTable().dataVersion()).toJson());
    return response;
}

} // namespace mqdesk::server
