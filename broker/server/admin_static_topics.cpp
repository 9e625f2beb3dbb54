// Static topics' admin side (Java's AdminBrokerProcessor#updateAndCreateStaticTopic and the
// mapping in GET_TOPIC_CONFIG): what `mqadmin updateStaticTopic` / `remappingStaticTopic` send to
// each broker of the cluster. The request processors' half (logical → physical queues) is
// static_topic_queue.h.

#include "broker/server/admin_processor.h"

#include "broker/common/json.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/protocol/json_fields.h"
#include "broker/remoting/protocol/resource_names.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/admin_bodies.h"
#include "broker/server/broker_controller.h"
#include "broker/server/topic_manager.h"
#include "broker/store/config/topic_config_manager.h"
#include "broker/store/config/topic_queue_mapping_manager.h"

#include <spdlog/spdlog.h>

namespace mqdesk::server {

using admin::failure;
using remoting::HeaderReader;
using remoting::RemotingCommand;
using remoting::ResponseCode;

// The header is CreateTopicRequestHeader (plus `force`), the body the broker's
// TopicQueueMappingDetail. The topic config is written as the header says, the mapping under
// Java's rules (TopicQueueMappingManager::update), and the broker registers again so that clients
// see the new route and mapping. Java answers INVALID_PARAMETER for a bad or system topic name
// and SYSTEM_ERROR with the reason for a mapping it refuses.
RemotingCommand AdminProcessor::updateAndCreateStaticTopic(const RemotingCommand &request)
{
    HeaderReader reader(request.extFields);
    store::TopicConfig config;
    config.topicName = reader.requireString("topic");
    readTopicFields(reader, config);
    config.order = false; // Java's static topic config takes no order from the header
    const bool force = reader.optBool("force", false);
    if (!reader.ok())
        return failure(request, ResponseCode::kSystemError, reader.error());
    const std::string &topic = config.topicName;
    if (std::string why; !remoting::validateTopicName(topic, why))
        return failure(request, ResponseCode::kInvalidParameter, why);
    if (isSystemTopic(topic, broker_.brokerConfig()))
        return failure(request, ResponseCode::kInvalidParameter, "The topic[" + topic + "] is conflict with system topic.");
    if (std::string problem = topicConfigProblem(config); !problem.empty())
        return failure(request, ResponseCode::kSystemError, std::move(problem));

    common::JsonValue root;
    std::string error;
    common::TopicQueueMappingDetail detail;
    if (!remoting::parseJsonObject(admin::bodyText(request), root, error)
        || !common::TopicQueueMappingDetail::fromJson(root, "mappingDetail", detail, error))
        return failure(request, ResponseCode::kSystemError, "UPDATE_AND_CREATE_STATIC_TOPIC body: " + error);
    // Java only asserts these (asserts are off in a running broker); a mapping filed under another
    // topic or broker would route clients to queues that are not there.
    if (detail.topic != topic)
        return failure(request, ResponseCode::kSystemError,
                       "the mapping is of topic '" + detail.topic + "', the request's topic is '" + topic + "'");
    if (detail.bname != broker_.brokerConfig().brokerName)
        return failure(request, ResponseCode::kSystemError,
                       "the mapping is for broker '" + detail.bname + "', this broker is '"
                           + broker_.brokerConfig().brokerName + "'");

    std::lock_guard lock(topicUpdateMutex_);
    if (const auto existing = broker_.topics().find(topic))
        config.attributes = existing->attributes;
    store::TopicQueueMappingManager &mappings = broker_.queueMappings();
    if (std::string why = mappings.update(std::move(detail), force); !why.empty())
        return failure(request, ResponseCode::kSystemError, why);
    if (!mappings.persist(error))
        return failure(request, ResponseCode::kSystemError, "cannot save the mapping of static topic[" + topic + "]: " + error);
    // The topic's update registers the broker again, now with the mapping.
    if (!broker_.topics().updateTopic(config, error))
        return failure(request, ResponseCode::kSystemError, "cannot save static topic[" + topic + "]: " + error);
    spdlog::info("admin: static topic {} created or updated (read {}, write {}, force {})", topic,
                 config.readQueueNums, config.writeQueueNums, force);
    return RemotingCommand::createResponse(request, ResponseCode::kSuccess);
}

std::optional<common::TopicQueueMappingDetail> AdminProcessor::staticMappingToShow(const RemotingCommand &request,
                                                                                   const std::string &topic) const
{
    HeaderReader reader(request.extFields);
    if (!reader.optBool("lo", false))
        return std::nullopt;
    return broker_.queueMappings().find(topic);
}

} // namespace mqdesk::server
