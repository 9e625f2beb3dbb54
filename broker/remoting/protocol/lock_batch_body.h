#pragma once

// The bodies of LOCK_BATCH_MQ (41) and UNLOCK_BATCH_MQ (42), remoting spec §6.7: the request
// {"consumerGroup","clientId","mqSet":[{"brokerName","queueId","topic"}]} (both codes; 5.x adds
// "onlyThisBroker") and LOCK's answer {"lockOKMQSet":[…]}. Plain data, no sockets; the broker
// (server) and the client share them.

#include "broker/remoting/protocol/message_queue.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::remoting {

// Java's LockBatchRequestBody / UnlockBatchRequestBody (same members).
struct LockBatchRequestBody
{
    std::string consumerGroup;
    std::string clientId;
    bool onlyThisBroker = false; // 5.x; written only when set, ignored by a single broker
    std::vector<MessageQueue> mqSet;

    std::string toJson() const;
    // Errors name the member ("mqSet[1].queueId: expected an integer").
    static bool fromJson(std::string_view body, LockBatchRequestBody &out, std::string &error);
};

// LOCK_BATCH_MQ's response body: {"lockOKMQSet":[…]}.
std::string encodeLockBatchResponse(const std::vector<MessageQueue> &locked);
bool decodeLockBatchResponse(std::string_view body, std::vector<MessageQueue> &out, std::string &error);

} // namespace mqdesk::remoting
