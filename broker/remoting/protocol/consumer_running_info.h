#pragma once

// ConsumerRunningInfo: what a consumer answers GET_CONSUMER_RUNNING_INFO (307) with, relayed by
// the broker (Java's org.apache.rocketmq.remoting.protocol.body.ConsumerRunningInfo, written by
// fastjson, so `mqTable` is keyed by MessageQueue objects — see queue_tables.h):
//   {"jstack":"…","mqTable":{{"brokerName":…,"queueId":…,"topic":…}:{"cachedMsgCount":…,…}},
//    "properties":{"consumeThreadMin":"20",…,"PROP_CONSUME_TYPE":"CONSUME_PASSIVELY",…},
//    "statusTable":{"<topic>":{"consumeFailedMsgs":…,"consumeOKTPS":…,…}},
//    "subscriptionSet":[SubscriptionData…],"userConsumerInfo":{}}
// And ConsumeMessageDirectlyResult, a consumer's answer to CONSUME_MESSAGE_DIRECTLY (309).
// Members the reader does not know are ignored; numbers that are absent stay 0.

#include "broker/remoting/protocol/client_data.h"
#include "broker/remoting/protocol/message_queue.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::remoting {

// Java's ProcessQueueInfo: a push consumer's local state of one queue.
struct ProcessQueueInfo
{
    int64_t commitOffset = 0;
    int64_t cachedMsgMinOffset = 0;
    int64_t cachedMsgMaxOffset = 0;
    int32_t cachedMsgCount = 0;
    int32_t cachedMsgSizeInMiB = 0;
    int64_t transactionMsgMinOffset = 0;
    int64_t transactionMsgMaxOffset = 0;
    int32_t transactionMsgCount = 0;
    bool locked = false;
    int64_t tryUnlockTimes = 0;
    int64_t lastLockTimestamp = 0;
    bool dropped = false; // Java's "droped"
    int64_t lastPullTimestamp = 0;
    int64_t lastConsumeTimestamp = 0;
};

// Java's ConsumeStatus: the client's rates for one topic.
struct ConsumeStatus
{
    double pullRT = 0;
    double pullTPS = 0;
    double consumeRT = 0;
    double consumeOKTPS = 0;
    double consumeFailedTPS = 0;
    int64_t consumeFailedMsgs = 0;
};

struct ConsumerRunningInfo
{
    std::map<std::string, std::string> properties;
    std::vector<SubscriptionData> subscriptions;
    std::map<MessageQueue, ProcessQueueInfo> queues;
    std::map<std::string, ConsumeStatus> statusTable;
    std::string jstack; // Java clients, when asked with jstackEnable

    std::string property(std::string_view key) const;
    // As fastjson writes it: members sorted, mqTable keyed by MessageQueue objects, properties
    // as strings (Java's Properties), what the Java tools' ConsumerRunningInfo reads back.
    std::string toJson() const;
    static bool fromJson(std::string_view body, ConsumerRunningInfo &out, std::string &error);
};

// Java's ConsumeMessageDirectlyResult.
struct ConsumeMessageDirectlyResult
{
    bool order = false;
    bool autoCommit = true;
    std::string consumeResult; // CR_SUCCESS, CR_LATER, CR_ROLLBACK, CR_COMMIT, CR_THROW_EXCEPTION, CR_RETURN_NULL
    std::string remark;
    int64_t spentTimeMills = 0;

    // An empty consumeResult is left out (Java's null).
    std::string toJson() const;
    static bool fromJson(std::string_view body, ConsumeMessageDirectlyResult &out, std::string &error);
};

} // namespace mqdesk::remoting
