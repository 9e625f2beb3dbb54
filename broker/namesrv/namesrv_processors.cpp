// The namesrv's request processors (remoting spec §5.1–§5.5), one per code. Each reads its
// header through a HeaderReader (a missing or unparsable mandatory field answers SYSTEM_ERROR
// with the reader's text, as Java's header decoding does) and returns the response.

#include "broker/namesrv/namesrv_controller.h"

#include "broker/common/crc32.h"
#include "broker/common/properties_file.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/net/remoting_channel.h"

#include <spdlog/spdlog.h>

namespace mqdesk::namesrv {

using remoting::HeaderReader;
using remoting::RemotingCommand;
using remoting::RequestContext;
using remoting::ResponseCode;

namespace {

// Brokers older than V3_0_11 (version 37) sent the TopicConfigSerializeWrapper itself.
constexpr int32_t kFirstVersionWithRegisterBody = 37;

RemotingCommand success(const RemotingCommand &request) { return RemotingCommand::createResponse(request, ResponseCode::kSuccess); }

RemotingCommand systemError(const RemotingCommand &request, std::string remark)
{
    return RemotingCommand::createResponse(request, ResponseCode::kSystemError, std::move(remark));
}

RemotingCommand withBody(RemotingCommand response, const std::string &json)
{
    response.body.assign(json.begin(), json.end());
    return response;
}

std::string textOf(const std::vector<uint8_t> &body) { return std::string(body.begin(), body.end()); }

// The registration body in whichever form the header announces; nullopt topic config for an
// empty body. False with `error` for a body that cannot be read.
bool readRegisterBody(const RemotingCommand &request, bool compressed, remoting::RegisterBrokerBody &out,
                      bool &hasBody, std::string &error)
{
    hasBody = !request.body.empty();
    if (!hasBody)
        return true;
    if (compressed)
        return remoting::RegisterBrokerBody::decodeCompressed(request.body, out, error);
    if (request.version < kFirstVersionWithRegisterBody) {
        out = {};
        return remoting::TopicConfigSerializeWrapper::fromJson(textOf(request.body), out.topicConfigSerializeWrapper,
                                                               error);
    }
    return remoting::RegisterBrokerBody::fromJson(textOf(request.body), out, error);
}

bool parseConfigBool(const std::string &text, bool &out)
{
    if (text == "true" || text == "false") {
        out = text == "true";
        return true;
    }
    return false;
}

} // namespace

RemotingCommand NamesrvController::registerBroker(const RequestContext &context, const RemotingCommand &request)
{
    HeaderReader header(request.extFields);
    const std::string brokerName = header.requireString("brokerName");
    const std::string brokerAddr = header.requireString("brokerAddr");
    const std::string clusterName = header.requireString("clusterName");
    const std::string haServerAddr = header.requireString("haServerAddr");
    const int64_t brokerId = header.requireInt64("brokerId");
    const bool compressed = header.optBool("compressed", false);
    const int32_t bodyCrc32 = header.optInt32("bodyCrc32", 0);
    if (!header.ok())
        return systemError(request, header.error());
    if (bodyCrc32 != 0 && common::maskedBodyCrc(request.body) != bodyCrc32) {
        spdlog::warn("namesrv: REGISTER_BROKER from {} ({}): body crc32 mismatch", brokerAddr, context.peerAddress());
        return systemError(request, "crc32 not match");
    }
    remoting::RegisterBrokerBody body;
    bool hasBody = false;
    std::string error;
    if (!readRegisterBody(request, compressed, body, hasBody, error))
        return systemError(request, "register broker body: " + error);

    const bool known = routes_.liveInfo(brokerAddr).has_value();
    std::optional<remoting::TopicConfigSerializeWrapper> topics;
    if (hasBody)
        topics = std::move(body.topicConfigSerializeWrapper);
    const RegisterBrokerResult result =
        routes_.registerBroker(clusterName, brokerAddr, brokerName, brokerId, haServerAddr, topics,
                               context.connectionId(), steadyMillis(), body.filterServerList);
    if (!known)
        spdlog::info("namesrv: broker {} registered ({} id {} in {}, {} topics)", brokerAddr, brokerName, brokerId,
                     clusterName, topics ? topics->topicConfigTable.size() : 0);

    RemotingCommand response = success(request);
    if (!result.masterAddr.empty())
        remoting::setField(response.extFields, "masterAddr", result.masterAddr);
    if (!result.haServerAddr.empty())
        remoting::setField(response.extFields, "haServerAddr", result.haServerAddr);
    if (auto orderConf = kv_.list(KvConfigManager::kOrderTopicConfigNamespace))
        return withBody(std::move(response), remoting::KVTable{.table = std::move(*orderConf)}.toJson());
    return response;
}

RemotingCommand NamesrvController::unregisterBroker(const RequestContext &, const RemotingCommand &request)
{
    HeaderReader header(request.extFields);
    const std::string brokerName = header.requireString("brokerName");
    const std::string brokerAddr = header.requireString("brokerAddr");
    const std::string clusterName = header.requireString("clusterName");
    const int64_t brokerId = header.requireInt64("brokerId");
    if (!header.ok())
        return systemError(request, header.error());
    routes_.unregisterBroker(clusterName, brokerAddr, brokerName, brokerId);
    spdlog::info("namesrv: broker {} ({} id {}) unregistered", brokerAddr, brokerName, brokerId);
    return success(request);
}

RemotingCommand NamesrvController::routeInfoByTopic(const RequestContext &, const RemotingCommand &request)
{
    HeaderReader header(request.extFields);
    const std::string topic = header.requireString("topic");
    if (!header.ok())
        return systemError(request, header.error());
    // Never creates the topic (Java): a producer's first send goes through TBW102's route and the
    // broker creates it then; a typo in a lookup must not leave a topic behind.
    std::optional<remoting::TopicRouteData> route = routes_.topicRoute(topic);
    if (!route) {
        return RemotingCommand::createResponse(request, ResponseCode::kTopicNotExist,
                                               "No topic route info in name server for the topic: " + topic
                                                   + "\nSee https://rocketmq.apache.org/docs/bestPractice/06FAQ for "
                                                     "further details.");
    }
    if (orderMessageEnable_.load())
        route->orderTopicConf = kv_.get(KvConfigManager::kOrderTopicConfigNamespace, topic);
    // Always standard JSON with quoted keys, whatever acceptStandardJsonOnly says (spec §5.1).
    return withBody(success(request), route->toJson());
}

RemotingCommand NamesrvController::brokerClusterInfo(const RequestContext &, const RemotingCommand &request)
{
    return withBody(success(request), routes_.clusterInfo().toJson());
}

RemotingCommand NamesrvController::allTopicList(const RequestContext &, const RemotingCommand &request)
{
    return withBody(success(request), routes_.allTopics().toJson());
}

RemotingCommand NamesrvController::deleteTopic(const RequestContext &, const RemotingCommand &request)
{
    HeaderReader header(request.extFields);
    const std::string topic = header.requireString("topic");
    const std::optional<std::string> cluster =
        request.extFields.contains("clusterName") ? std::optional(header.optString("clusterName")) : std::nullopt;
    if (!header.ok())
        return systemError(request, header.error());
    if (routes_.deleteTopic(topic, cluster))
        spdlog::info("namesrv: topic {} deleted{}", topic, cluster ? " on cluster " + *cluster : std::string());
    return success(request);
}

RemotingCommand NamesrvController::topicsByCluster(const RequestContext &, const RemotingCommand &request)
{
    HeaderReader header(request.extFields);
    const std::string cluster = header.requireString("cluster");
    if (!header.ok())
        return systemError(request, header.error());
    return withBody(success(request), routes_.topicsByCluster(cluster).toJson());
}

RemotingCommand NamesrvController::systemTopicList(const RequestContext &, const RemotingCommand &request)
{
    return withBody(success(request), routes_.systemTopics().toJson());
}

RemotingCommand NamesrvController::putKvConfig(const RequestContext &, const RemotingCommand &request)
{
    HeaderReader header(request.extFields);
    const std::string ns = header.requireString("namespace");
    const std::string key = header.requireString("key");
    const std::string value = header.requireString("value");
    if (!header.ok())
        return systemError(request, header.error());
    kv_.put(ns, key, value);
    return success(request);
}

RemotingCommand NamesrvController::getKvConfig(const RequestContext &, const RemotingCommand &request)
{
    HeaderReader header(request.extFields);
    const std::string ns = header.requireString("namespace");
    const std::string key = header.requireString("key");
    if (!header.ok())
        return systemError(request, header.error());
    const std::optional<std::string> value = kv_.get(ns, key);
    if (!value) {
        return RemotingCommand::createResponse(request, ResponseCode::kQueryNotFound,
                                               "No config item, Namespace: " + ns + " Key: " + key);
    }
    RemotingCommand response = success(request);
    remoting::setField(response.extFields, "value", *value);
    return response;
}

RemotingCommand NamesrvController::deleteKvConfig(const RequestContext &, const RemotingCommand &request)
{
    HeaderReader header(request.extFields);
    const std::string ns = header.requireString("namespace");
    const std::string key = header.requireString("key");
    if (!header.ok())
        return systemError(request, header.error());
    kv_.remove(ns, key);
    return success(request);
}

RemotingCommand NamesrvController::kvListByNamespace(const RequestContext &, const RemotingCommand &request)
{
    HeaderReader header(request.extFields);
    const std::string ns = header.requireString("namespace");
    if (!header.ok())
        return systemError(request, header.error());
    std::optional<std::map<std::string, std::string>> table = kv_.list(ns);
    if (!table)
        return RemotingCommand::createResponse(request, ResponseCode::kQueryNotFound, "No config item, Namespace: " + ns);
    return withBody(success(request), remoting::KVTable{.table = std::move(*table)}.toJson());
}

RemotingCommand NamesrvController::wipeWritePerm(const RequestContext &, const RemotingCommand &request)
{
    HeaderReader header(request.extFields);
    const std::string brokerName = header.requireString("brokerName");
    if (!header.ok())
        return systemError(request, header.error());
    const int count = routes_.wipeWritePermOfBroker(brokerName);
    spdlog::info("namesrv: write permission of broker {} wiped on {} topics", brokerName, count);
    RemotingCommand response = success(request);
    remoting::setField(response.extFields, "wipeTopicCount", int32_t{count});
    return response;
}

RemotingCommand NamesrvController::addWritePerm(const RequestContext &, const RemotingCommand &request)
{
    HeaderReader header(request.extFields);
    const std::string brokerName = header.requireString("brokerName");
    if (!header.ok())
        return systemError(request, header.error());
    const int count = routes_.addWritePermOfBroker(brokerName);
    spdlog::info("namesrv: write permission of broker {} restored on {} topics", brokerName, count);
    RemotingCommand response = success(request);
    remoting::setField(response.extFields, "addTopicCount", int32_t{count});
    return response;
}

// Properties text; only the live-updatable keys are accepted, unknown keys are ignored (as
// Java's properties-to-object copy does) and the listen address cannot change while running.
RemotingCommand NamesrvController::updateConfig(const RequestContext &, const RemotingCommand &request)
{
    const common::PropertiesParseResult parsed = common::parseProperties(textOf(request.body));
    if (!parsed.error.empty())
        return systemError(request, "string2Properties error: " + parsed.error);
    if (parsed.values.contains("listenPort") || parsed.values.contains("listenHost"))
        return RemotingCommand::createResponse(request, ResponseCode::kNoPermission,
                                               "Can not update config in black list.");
    // Validate everything before applying anything.
    std::optional<int64_t> expiry;
    std::optional<int64_t> period;
    std::optional<bool> orderEnable;
    for (const auto &[key, value] : parsed.values) {
        if (key == "brokerChannelExpiredTime" || key == "scanNotActiveBrokerInterval") {
            const std::optional<int64_t> millis = remoting::parseJavaLong(value);
            if (!millis || *millis <= 0)
                return systemError(request, key + ": expected a positive number of milliseconds, got \"" + value + "\"");
            (key == "brokerChannelExpiredTime" ? expiry : period) = *millis;
        } else if (key == "orderMessageEnable") {
            bool enabled = false;
            if (!parseConfigBool(value, enabled))
                return systemError(request, key + ": expected true or false, got \"" + value + "\"");
            orderEnable = enabled;
        }
    }
    if (expiry)
        brokerExpiryMillis_.store(*expiry);
    if (period)
        scanPeriodMillis_.store(*period);
    if (orderEnable)
        orderMessageEnable_.store(*orderEnable);
    spdlog::info("namesrv: config updated ({} keys)", parsed.values.size());
    return success(request);
}

RemotingCommand NamesrvController::getConfig(const RequestContext &, const RemotingCommand &request)
{
    const NamesrvConfig current = config();
    std::string text;
    text += "brokerChannelExpiredTime=" + std::to_string(current.brokerExpiry.count()) + "\n";
    text += "listenHost=" + current.listenHost + "\n";
    text += "listenPort=" + std::to_string(current.listenPort) + "\n";
    text += std::string("orderMessageEnable=") + (current.orderMessageEnable ? "true" : "false") + "\n";
    text += "scanNotActiveBrokerInterval=" + std::to_string(current.scanPeriod.count()) + "\n";
    return withBody(success(request), text);
}

RemotingCommand NamesrvController::queryDataVersion(const RequestContext &, const RemotingCommand &request)
{
    HeaderReader header(request.extFields);
    header.requireString("brokerName");
    const std::string brokerAddr = header.requireString("brokerAddr");
    header.requireString("clusterName");
    header.requireInt64("brokerId");
    if (!header.ok())
        return systemError(request, header.error());
    remoting::DataVersionData version;
    std::string error;
    if (!remoting::DataVersionData::fromJson(textOf(request.body), version, error))
        return systemError(request, "data version body: " + error);
    const bool changed = routes_.queryDataVersionChanged(brokerAddr, version, steadyMillis());
    RemotingCommand response = success(request);
    remoting::setField(response.extFields, "changed", changed);
    if (const std::optional<BrokerLiveInfo> live = routes_.liveInfo(brokerAddr))
        return withBody(std::move(response), live->dataVersion.toJson());
    return response;
}

} // namespace mqdesk::namesrv
