#include "broker/client/route_util.h"

#include <algorithm>

namespace mqdesk::client {

namespace {

std::vector<remoting::QueueData> sortedQueueDatas(const remoting::TopicRouteData &route)
{
    std::vector<remoting::QueueData> queues = route.queueDatas;
    std::sort(queues.begin(), queues.end(),
              [](const auto &a, const auto &b) { return a.brokerName < b.brokerName; });
    return queues;
}

} // namespace

std::string masterAddress(const remoting::TopicRouteData &route, const std::string &brokerName)
{
    for (const remoting::BrokerData &broker : route.brokerDatas)
        if (broker.brokerName == brokerName)
            return broker.masterAddress();
    return {};
}

std::vector<std::string> masterAddresses(const remoting::TopicRouteData &route)
{
    std::vector<remoting::BrokerData> brokers = route.brokerDatas;
    std::sort(brokers.begin(), brokers.end(), [](const auto &a, const auto &b) { return a.brokerName < b.brokerName; });
    std::vector<std::string> out;
    for (const remoting::BrokerData &broker : brokers)
        if (std::string address = broker.masterAddress(); !address.empty())
            out.push_back(std::move(address));
    return out;
}

std::vector<MessageQueue> publishQueues(const std::string &topic, const remoting::TopicRouteData &route)
{
    std::vector<MessageQueue> out;
    for (const remoting::QueueData &queue : sortedQueueDatas(route)) {
        if (!remoting::topicPerm::isWriteable(queue.perm) || masterAddress(route, queue.brokerName).empty())
            continue;
        for (int32_t id = 0; id < queue.writeQueueNums; ++id)
            out.push_back({topic, queue.brokerName, id});
    }
    return out;
}

std::vector<MessageQueue> subscribeQueues(const std::string &topic, const remoting::TopicRouteData &route)
{
    std::vector<MessageQueue> out;
    for (const remoting::QueueData &queue : sortedQueueDatas(route)) {
        if (!remoting::topicPerm::isReadable(queue.perm))
            continue;
        for (int32_t id = 0; id < queue.readQueueNums; ++id)
            out.push_back({topic, queue.brokerName, id});
    }
    return out;
}

} // namespace mqdesk::client
