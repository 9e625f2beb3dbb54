// QUERY_ASSIGNMENT, SET_MESSAGE_REQUEST_MODE and GET_ALL_MESSAGE_REQUEST_MODE (Java's
// QueryAssignmentProcessor and AdminBrokerProcessor): which queues a 5.x client with
// clientRebalance=false consumes, and whether it pulls or pops them (`mqadmin setConsumeMode`).

#include "broker/server/pop/pop_records.h"
#include "broker/server/pop/pop_service.h"

#include "broker/remoting/protocol/resource_names.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/remoting/protocol/route_data.h"
#include "broker/server/broker_controller.h"
#include "broker/server/consumer_manager.h"
#include "broker/server/send_msg_back_processor.h"
#include "broker/server/topic_manager.h"
#include "broker/store/config/message_request_mode_manager.h"
#include "broker/store/config/subscription_group_manager.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace mqdesk::server::pop {

using common::JsonArray;
using common::JsonObject;
using common::JsonValue;
using remoting::RemotingCommand;
using remoting::ResponseCode;

namespace {

std::string stringMember(const JsonValue &root, std::string_view key)
{
    const JsonValue *value = root.isObject() ? root.asObject().find(key) : nullptr;
    return value && value->isString() ? value->asString() : std::string();
}

// Java's AllocateMessageQueueAveragely: the queue indexes `clientId` gets among `clients`.
std::vector<int32_t> allocateAveragely(int32_t queueCount, const std::vector<std::string> &clients,
                                       const std::string &clientId)
{
    const auto self = std::find(clients.begin(), clients.end(), clientId);
    if (self == clients.end() || queueCount <= 0)
        return {};
    const int32_t index = static_cast<int32_t>(self - clients.begin());
    const int32_t size = static_cast<int32_t>(clients.size());
    const int32_t mod = queueCount % size;
    const int32_t averageSize =
        queueCount <= size ? 1 : (mod > 0 && index < mod ? queueCount / size + 1 : queueCount / size);
    const int32_t startIndex = (mod > 0 && index < mod) ? index * averageSize : index * averageSize + mod;
    const int32_t range = std::min(averageSize, queueCount - startIndex);
    std::vector<int32_t> result;
    for (int32_t i = 0; i < range; ++i)
        result.push_back((startIndex + i) % queueCount);
    return result;
}

JsonValue assignment(const std::string &topic, const std::string &brokerName, int32_t queueId, const std::string &mode)
{
    JsonObject queue;
    queue.set("brokerName", brokerName);
    queue.set("queueId", queueId);
    queue.set("topic", topic);
    JsonObject entry;
    entry.set("messageQueue", JsonValue(std::move(queue)));
    entry.set("mode", mode);
    return JsonValue(std::move(entry));
}

} // namespace

void PopService::queryAssignment(const remoting::RequestContext &, RemotingCommand request, remoting::Responder respond)
{
    const common::JsonParseResult parsed = common::parseJson(std::string(request.body.begin(), request.body.end()));
    if (!parsed.ok() || !parsed.value.isObject())
        return respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError,
                                                       "QUERY_ASSIGNMENT body is not a JSON object: " + parsed.error));
    const std::string topic = stringMember(parsed.value, "topic");
    const std::string group = stringMember(parsed.value, "consumerGroup");
    const std::string clientId = stringMember(parsed.value, "clientId");
    const std::string messageModel = stringMember(parsed.value, "messageModel");
    RemotingCommand response = RemotingCommand::createResponse(request, ResponseCode::kSuccess);
    const auto config = broker_.topics().find(topic);
    if (!config || group.empty() || clientId.empty()) {
        // Java leaves messageQueueAssignments out: the client keeps what it has.
        response.body.assign({'{', '}'});
        return respond(std::move(response));
    }
    const std::string brokerName = broker_.brokerConfig().brokerName;
    std::string mode = "PULL";
    int32_t popShareQueueNum = 0;
    if (!isRetryTopic(topic)) {
        if (const auto stored = requestModes_->get(topic, group)) {
            mode = stored->mode;
            popShareQueueNum = stored->popShareQueueNum;
        }
    }
    std::vector<std::string> clients = broker_.consumers().clientIds(group);
    if (std::find(clients.begin(), clients.end(), clientId) == clients.end())
        clients.push_back(clientId);
    std::sort(clients.begin(), clients.end());

    // The readable queues of the whole cluster, as the NameServer routes them (Java's
    // TopicRouteInfoManager), sorted as Java sorts MessageQueues; this broker's own when no
    // NameServer knows the topic (yet).
    std::vector<std::pair<std::string, int32_t>> all;
    if (remoting::TopicRouteData route; broker_.clusterRoute(topic, route)) {
        for (const remoting::QueueData &queueData : route.queueDatas) {
            if ((queueData.perm & store::perm::kRead) == 0)
                continue;
            for (int32_t q = 0; q < queueData.readQueueNums; ++q)
                all.emplace_back(queueData.brokerName, q);
        }
    }
    if (all.empty()) {
        for (int32_t q = 0; q < config->readQueueNums; ++q)
            all.emplace_back(brokerName, q);
    }
    std::sort(all.begin(), all.end());

    JsonArray assignments;
    const int32_t queues = static_cast<int32_t>(all.size());
    if (messageModel == "BROADCASTING") {
        for (const auto &[broker, q] : all)
            assignments.push_back(assignment(topic, broker, q, mode));
    } else if (mode == "POP" && (popShareQueueNum <= 0 || popShareQueueNum >= static_cast<int32_t>(clients.size()) - 1)) {
        // Every client pops every queue of every broker: queueId -1, once per broker.
        std::string previous;
        for (const auto &[broker, q] : all) {
            if (broker != previous)
                assignments.push_back(assignment(topic, broker, -1, mode));
            previous = broker;
        }
    } else {
        std::vector<int32_t> mine = allocateAveragely(queues, clients, clientId);
        if (mode == "POP") {
            // Also the queues of the next popShareQueueNum clients.
            const auto self = std::find(clients.begin(), clients.end(), clientId) - clients.begin();
            for (int32_t i = 1; i <= popShareQueueNum; ++i) {
                const std::string &next = clients[(self + i) % clients.size()];
                for (int32_t q : allocateAveragely(queues, clients, next))
                    mine.push_back(q);
            }
            std::sort(mine.begin(), mine.end());
            mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
        }
        for (int32_t index : mine)
            assignments.push_back(assignment(topic, all[static_cast<size_t>(index)].first,
                                             all[static_cast<size_t>(index)].second, mode));
    }
    JsonObject body;
    body.set("messageQueueAssignments", JsonValue(std::move(assignments)));
    const std::string text = common::toFastjsonCompact(JsonValue(std::move(body)));
    response.body.assign(text.begin(), text.end());
    respond(std::move(response));
}

void PopService::setMessageRequestMode(const remoting::RequestContext &, RemotingCommand request,
                                       remoting::Responder respond)
{
    const common::JsonParseResult parsed = common::parseJson(std::string(request.body.begin(), request.body.end()));
    store::MessageRequestMode mode;
    std::string error;
    if (!parsed.ok() || !store::MessageRequestMode::fromJson(parsed.value, "body", mode, error))
        return respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError,
                                                       "SET_MESSAGE_REQUEST_MODE body: "
                                                           + (parsed.ok() ? error : parsed.error)));
    std::string nameError = remoting::consumedTopicNameError(mode.topic, "topic");
    if (nameError.empty())
        nameError = remoting::groupNameError(mode.consumerGroup, "consumerGroup");
    if (!nameError.empty())
        return respond(RemotingCommand::createResponse(request, ResponseCode::kInvalidParameter,
                                                       "SET_MESSAGE_REQUEST_MODE: " + nameError));
    if (isRetryTopic(mode.topic))
        return respond(RemotingCommand::createResponse(request, ResponseCode::kNoPermission,
                                                       "retry topic is not allowed to set mode"));
    if (!broker_.topics().find(mode.topic))
        return respond(RemotingCommand::createResponse(request, ResponseCode::kTopicNotExist,
                                                       "topic[" + mode.topic + "] not exist"));
    if (!findOrCreateSubscriptionGroup(broker_, mode.consumerGroup))
        return respond(RemotingCommand::createResponse(request, ResponseCode::kSubscriptionGroupNotExist,
                                                       "subscription group [" + mode.consumerGroup + "] does not exist"));
    requestModes_->put(mode);
    if (!requestModes_->persist(error))
        return respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError,
                                                       "cannot persist messageRequestMode.json: " + error));
    spdlog::info("pop: group {} now {}s {} (popShareQueueNum {})", mode.consumerGroup,
                 mode.isPop() ? "pop" : "pull", mode.topic, mode.popShareQueueNum);
    respond(RemotingCommand::createResponse(request, ResponseCode::kSuccess));
}

void PopService::getAllMessageRequestMode(const remoting::RequestContext &, RemotingCommand request,
                                          remoting::Responder respond)
{
    RemotingCommand response = RemotingCommand::createResponse(request, ResponseCode::kSuccess);
    const std::string text = requestModes_->encode();
    response.body.assign(text.begin(), text.end());
    respond(std::move(response));
}

} // namespace mqdesk::server::pop
