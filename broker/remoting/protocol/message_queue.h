#pragma once

// Java's MessageQueue: one queue of a topic on one broker. The one type the broker, the client
// and every body that names queues share (lock batches, topic and consume stats, offset resets).
// Ordered by topic, brokerName, queueId; fastjson writes its members sorted (brokerName,
// queueId, topic).

#include <compare>
#include <cstdint>
#include <string>

namespace mqdesk::remoting {

struct MessageQueue
{
    std::string topic;
    std::string brokerName;
    int32_t queueId = 0;

    auto operator<=>(const MessageQueue &) const = default;
    bool operator==(const MessageQueue &) const = default;
    // "T@broker-a:0"
    std::string toString() const { return topic + "@" + brokerName + ":" + std::to_string(queueId); }
};

} // namespace mqdesk::remoting
