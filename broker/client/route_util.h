#pragma once

// What clients derive from a TopicRouteData (Java MQClientInstance.topicRouteData2Topic*):
// the queues a producer may write, the queues a consumer may read, and broker addresses.

#include "broker/client/client_types.h"
#include "broker/remoting/protocol/route_data.h"

#include <string>
#include <vector>

namespace mqdesk::client {

// Writable queues 0..writeQueueNums-1 of every broker with a master, sorted by broker name
// (brokers without a master or without the WRITE perm are skipped, as Java does).
std::vector<MessageQueue> publishQueues(const std::string &topic, const remoting::TopicRouteData &route);
// Readable queues 0..readQueueNums-1 of every broker hosting the topic, sorted.
std::vector<MessageQueue> subscribeQueues(const std::string &topic, const remoting::TopicRouteData &route);
// The master address of `brokerName` in `route`, "" when none.
std::string masterAddress(const remoting::TopicRouteData &route, const std::string &brokerName);
// Every master address of the route, one per broker name, sorted by broker name.
std::vector<std::string> masterAddresses(const remoting::TopicRouteData &route);

} // namespace mqdesk::client
