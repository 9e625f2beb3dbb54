#pragma once

// What the dispatcher (ReputMessageService) extracts from one commit-log record and hands to
// the consume queues and the index (RocketMQ's DispatchRequest).

#include <cstdint>
#include <string>

namespace mqdesk::store {

struct DispatchRequest
{
    std::string topic;
    int32_t queueId = 0;
    int64_t commitLogOffset = 0;
    int32_t msgSize = 0;           // the record's TOTALSIZE
    int64_t tagsCode = 0;          // §3.8; the delivery time for SCHEDULE_TOPIC_XXXX
    int64_t storeTimestamp = 0;
    int64_t consumeQueueOffset = 0; // the record's QUEUEOFFSET (also INNER_BASE for an inner batch)
    int32_t batchSize = 1;          // INNER_NUM: the messages an inner batch holds (BatchCQ)
    std::string keys;              // the KEYS property (space separated), may be empty
    std::string uniqKey;           // the UNIQ_KEY property, may be empty
    std::string tags;              // the TAGS property, may be empty (indexed as RocketMQ 5.5 does)
    std::string multiDispatch;     // INNER_MULTI_DISPATCH: the LMQs the record is also entered in
    std::string multiQueueOffsets; // INNER_MULTI_QUEUE_OFFSET: its offsets in them
    int32_t sysFlag = 0;
    int64_t preparedTransactionOffset = 0;
};

} // namespace mqdesk::store
