// BrokerController::clusterRoute: what the NameServer says of a topic's queues across the
// cluster (Java's TopicRouteInfoManager), for server-side queue assignment and for forwarding a
// static topic's request to the broker that holds its offsets (forwardToBroker).

#include "broker/server/broker_controller.h"

#include "broker/common/clock.h"
#include "broker/common/host_address.h"
#include "broker/namesrv/namesrv_controller.h"
#include "broker/namesrv/route_info_manager.h"
#include "broker/remoting/net/remoting_client.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/protocol/route_data.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/topic_route_cache.h"

#include <spdlog/spdlog.h>

namespace mqdesk::server {

namespace {

constexpr int64_t kRouteTtlMillis = 30'000; // Java's TopicRouteInfoManager refresh period

} // namespace

bool BrokerController::clusterRoute(const std::string &topic, remoting::TopicRouteData &route)
{
    TopicRouteCache *cache = nullptr;
    {
        std::lock_guard lock(routeCacheMutex_);
        if (!routeCache_) {
            routeCache_ = std::make_unique<TopicRouteCache>(
                [this](const std::string &name) -> std::optional<remoting::TopicRouteData> {
                    // namesrvAddr names the cluster's NameServer; without it, the embedded one is
                    // (the other brokers register with it, -n).
                    const auto snapshot = settings();
                    const BrokerConfig &config = snapshot->broker;
                    if (config.namesrvAddr.empty())
                        return localNamesrv_ ? localNamesrv_->routes().topicRoute(name) : std::nullopt;
                    for (const std::string &namesrv : common::splitAddressList(config.namesrvAddr)) {
                        remoting::RemotingCommand request =
                            remoting::RemotingCommand::createRequest(remoting::RequestCode::kGetRouteinfoByTopic);
                        remoting::setField(request.extFields, "topic", name);
                        signAsBroker(request);
                        const remoting::InvokeResult result = namesrvClient_->invokeSync(
                            namesrv, std::move(request), std::chrono::milliseconds(config.registerBrokerTimeoutMills));
                        if (!result.ok()) {
                            spdlog::info("broker: route of {} not read from NameServer {}: {}", name, namesrv,
                                         result.errorMessage);
                            continue;
                        }
                        if (result.response.code != remoting::ResponseCode::kSuccess)
                            return std::nullopt; // TOPIC_NOT_EXIST: the NameServer does not know it
                        remoting::TopicRouteData parsed;
                        std::string error;
                        const std::string body(result.response.body.begin(), result.response.body.end());
                        if (remoting::TopicRouteData::fromJson(body, parsed, error))
                            return parsed;
                        spdlog::warn("broker: NameServer {} answered a route of {} that does not parse: {}", namesrv,
                                     name, error);
                    }
                    return std::nullopt;
                },
                kRouteTtlMillis);
        }
        cache = routeCache_.get();
    }
    const auto found = cache->get(topic, common::steadyMicros() / 1000);
    if (!found)
        return false;
    route = *found;
    return true;
}

remoting::InvokeResult BrokerController::forwardToBroker(const std::string &topic, const std::string &brokerName,
                                                         remoting::RemotingCommand request)
{
    std::string address;
    for (bool refreshed : {false, true}) {
        remoting::TopicRouteData route;
        if (refreshed) { // the broker may have joined the route since it was read
            std::lock_guard lock(routeCacheMutex_);
            if (routeCache_)
                routeCache_->clear();
        }
        if (clusterRoute(topic, route)) {
            for (const remoting::BrokerData &broker : route.brokerDatas) {
                if (broker.brokerName == brokerName)
                    address = broker.masterAddress();
            }
        }
        if (!address.empty())
            break;
    }
    if (address.empty())
        return remoting::InvokeResult::failure(remoting::InvokeError::ConnectFailed,
                                               "broker " + brokerName + " has no master in the route of " + topic);
    signAsBroker(request);
    remoting::InvokeResult result = namesrvClient_->invokeSync(address, std::move(request),
                                        std::chrono::milliseconds(settings()->broker.forwardTimeout));
    if (!result.ok())
        result.errorMessage = "broker " + brokerName + " at " + address + ": " + result.errorMessage;
    return result;
}

} // namespace mqdesk::server
