#pragma once

// The values the client hands back: a status naming what failed, typed results, message
// queues, messages to send and what sending and pulling return.

#include "broker/common/message.h"
#include "broker/remoting/protocol/message_queue.h"

#include <compare>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::client {

// Failures that never reached a broker answer. Negative like Java's RPC_* client codes, so they
// cannot collide with a ResponseCode.
namespace clientCode {
inline constexpr int32_t kTimeout = -1;
inline constexpr int32_t kConnectFailed = -2;
inline constexpr int32_t kConnectionClosed = -3;
inline constexpr int32_t kSendFailed = -4;
inline constexpr int32_t kBadResponse = -5;  // an answer we could not decode
inline constexpr int32_t kNoRoute = -6;      // no namesrv, no route, no writable queue
inline constexpr int32_t kIllegalArgument = -7;
inline constexpr int32_t kNotStarted = -8;   // the client is not started or already shut down
} // namespace clientCode

// The outcome of one call. `code` is the broker's ResponseCode or a clientCode; `error` is
// empty when ok and otherwise names the address, the request and the remark:
// "127.0.0.1:10911 GET_TOPIC_STATS_INFO(202) topic=T: TOPIC_NOT_EXIST(17) topic[T] not exist".
struct Status
{
    bool ok = true;
    int32_t code = 0;
    std::string error;

    static Status success() { return {}; }
    static Status failure(int32_t code, std::string error) { return {false, code, std::move(error)}; }

    // The failures callers branch on, so that they need not know the wire's codes
    // (broker/remoting/remoting_codes.h).
    bool isNotSupported() const;     // REQUEST_CODE_NOT_SUPPORTED: an older or a foreign broker
    bool isConsumerNotOnline() const; // CONSUMER_NOT_ONLINE: no client of the group is connected
    bool isNotFound() const;          // QUERY_NOT_FOUND: a lookup that found nothing
    bool isNoPermission() const;      // NO_PERMISSION: refused by the ACL (or an AUTH_* answer)
};

// The RocketMQ version a client or broker reports, as the Dashboard names it ("V4_9_8",
// "V5_0_8"); empty when MQVersion has no name for the ordinal.
std::string versionName(int32_t ordinal);

template<typename T>
struct Result : Status
{
    T value{};

    Result() = default;
    Result(Status status) : Status(std::move(status)) {} // NOLINT: a failure converts
    Result(T v) : value(std::move(v)) {}                  // NOLINT: a value converts

    const Status &status() const { return *this; }
};

// One queue of a topic on one broker (Java MessageQueue): the protocol's type, shared with the broker.
using MessageQueue = remoting::MessageQueue;

// A message to send. The producer turns tags, keys and delayLevel into the TAGS, KEYS and
// DELAY properties and adds UNIQ_KEY; `properties` are user properties sent as given.
struct Message
{
    std::string topic;
    std::string tags;
    std::vector<std::string> keys;
    std::vector<uint8_t> body;
    std::map<std::string, std::string> properties;
    int32_t flag = 0;
    int32_t delayLevel = 0; // 1..18, 0 = none

    void setBody(std::string_view text) { body.assign(text.begin(), text.end()); }
};

enum class SendStatus { SendOk, FlushDiskTimeout, FlushSlaveTimeout, SlaveNotAvailable };
std::string_view sendStatusName(SendStatus status); // "SEND_OK", ...

struct SendResult
{
    SendStatus status = SendStatus::SendOk;
    // The broker's offset message id (store host ‖ commit-log offset); comma-separated for a batch.
    std::string msgId;
    // The UNIQ_KEY this client gave the message; comma-separated for a batch.
    std::string uniqKey;
    MessageQueue queue;
    int64_t queueOffset = 0; // of the first message of a batch
    std::string regionId;

    // msgId / uniqKey split on ',' (one entry for a single message).
    std::vector<std::string> msgIds() const;
    std::vector<std::string> uniqKeys() const;
};

enum class PullStatus {
    Found,        // SUCCESS: messages read
    NoNewMsg,     // PULL_NOT_FOUND: caught up (after the long poll, if one was asked for)
    NoMatchedMsg, // PULL_RETRY_IMMEDIATELY: entries scanned, none passed the filter
    OffsetIllegal // PULL_OFFSET_MOVED: continue at nextBeginOffset
};
std::string_view pullStatusName(PullStatus status); // "FOUND", "NO_NEW_MSG", ...

struct PullResult
{
    PullStatus status = PullStatus::NoNewMsg;
    int64_t nextBeginOffset = 0;
    int64_t minOffset = 0;
    int64_t maxOffset = 0;
    int64_t suggestWhichBrokerId = 0;
    std::vector<common::StoredMessage> messages; // the decoded records of the body (Found)
};

// Splits "a,b,c" on `separator`, keeping empty parts out.
std::vector<std::string> splitList(std::string_view text, char separator);

} // namespace mqdesk::client
