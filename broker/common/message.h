#pragma once

// The message model shared by the store, the broker and the clients.

#include "broker/common/host_address.h"
#include "broker/common/message_properties.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mqdesk::common {

// SYSFLAG bits of a record (store-format §3.3).
namespace sysflag {
inline constexpr int32_t kCompressed = 0x1;
inline constexpr int32_t kMultiTags = 0x2;
inline constexpr int32_t kTransactionMask = 0xC;
inline constexpr int32_t kTransactionNotType = 0x0;
inline constexpr int32_t kTransactionPrepared = 0x4;
inline constexpr int32_t kTransactionCommit = 0x8;
inline constexpr int32_t kTransactionRollback = 0xC;
inline constexpr int32_t kBornHostV6 = 0x10;
inline constexpr int32_t kStoreHostV6 = 0x20;
inline constexpr int32_t kNeedUnwrap = 0x40;
inline constexpr int32_t kInnerBatch = 0x80;
inline constexpr int32_t kCompressionTypeMask = 0x700;

// Whether a record takes a queue offset and a consume-queue entry: plain messages and
// committed transaction messages do; half (PREPARED) and ROLLBACK records do not (§10, §16).
inline bool hasQueueEntry(int32_t sysFlag)
{
    const int32_t type = sysFlag & kTransactionMask;
    return type == kTransactionNotType || type == kTransactionCommit;
}
} // namespace sysflag

// A message as handed to the store for appending (RocketMQ's MessageExtBrokerInner). The store
// assigns the queue offset, commit-log offset and store timestamp; the V6 sysflag bits are
// derived from the hosts when the record is encoded.
struct BrokerMessage
{
    std::string topic;
    int32_t queueId = 0;
    int32_t flag = 0;
    std::vector<uint8_t> body;
    MessageProperties properties;
    int32_t sysFlag = 0;
    int64_t bornTimestamp = 0;
    HostAddress bornHost;
    int32_t reconsumeTimes = 0;
    int64_t preparedTransactionOffset = 0;
    // Whether a SYNC_FLUSH put waits for its flush. The broker takes it from the WAIT property
    // and strips that property before storing, as RocketMQ 4.9 does (WAIT=false is also
    // honoured when left in the properties).
    bool waitStoreMsgOk = true;
    // Set by the broker's ScheduleMessageService on the due delivery of a delayed message: the
    // record keeps the DELAY it was scheduled with (RocketMQ's records do), and the store must
    // not delay it a second time.
    bool scheduledDelivery = false;

    void setBody(std::string_view text) { body.assign(text.begin(), text.end()); }
};

// The fixed fields of a commit-log record, in their on-disk order (store-format §3.1).
struct RecordFields
{
    int32_t totalSize = 0;
    int32_t magic = 0;
    int32_t bodyCrc = 0;
    int32_t queueId = 0;
    int32_t flag = 0;
    int64_t queueOffset = 0;
    int64_t physicalOffset = 0;
    int32_t sysFlag = 0;
    int64_t bornTimestamp = 0;
    HostAddress bornHost;
    int64_t storeTimestamp = 0;
    HostAddress storeHost;
    int32_t reconsumeTimes = 0;
    int64_t preparedTransactionOffset = 0;
};

// A record read back from a commit log, every field materialised (RocketMQ's MessageExt).
struct StoredMessage : RecordFields
{
    std::vector<uint8_t> body;
    std::string topic;
    MessageProperties properties;

    std::string bodyText() const { return std::string(body.begin(), body.end()); }
    std::string tags() const { return std::string(properties.get(property::kTags).value_or("")); }
};

// A stored record as a message to store again (retries, delayed deliveries, transaction
// commits): topic, queue, body, flag, properties, sysflag, born data, reconsume times and
// prepared-transaction offset copied; the store assigns the rest.
inline BrokerMessage toBrokerMessage(const StoredMessage &stored)
{
    BrokerMessage message;
    message.topic = stored.topic;
    message.queueId = stored.queueId;
    message.flag = stored.flag;
    message.body = stored.body;
    message.properties = stored.properties;
    message.sysFlag = stored.sysFlag;
    message.bornTimestamp = stored.bornTimestamp;
    message.bornHost = stored.bornHost;
    message.reconsumeTimes = stored.reconsumeTimes;
    message.preparedTransactionOffset = stored.preparedTransactionOffset;
    return message;
}

} // namespace mqdesk::common
