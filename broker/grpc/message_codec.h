#pragma once

// Messages between the 5.x protocol (apache.rocketmq.v2.Message) and the broker's records, and
// the checks RocketMQ's proxy makes of what a client sends (grpc-proxy spec §3.5, §3.7 step 10).
// Plain functions, no state; included by broker/grpc's .cpp files only (it pulls in protobuf).

#include "broker/common/message.h"
#include "broker/remoting/protocol/client_data.h"

#include "apache/rocketmq/v2/definition.pb.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::store {
struct TopicConfig;
}

namespace mqdesk::grpc {

namespace v2 = apache::rocketmq::v2;

// Property keys of the 5.x message model that the 4.x ones in common/message_properties.h lack
// (Java's MessageConst).
namespace property5 {
inline constexpr std::string_view kShardingKey = common::property::kShardingKey;
inline constexpr std::string_view kTimerDeliverMs = common::property::kTimerDeliverMs;
inline constexpr std::string_view kTimerDelaySec = common::property::kTimerDelaySec;
inline constexpr std::string_view kTimerDelayMs = common::property::kTimerDelayMs;
inline constexpr std::string_view kTraceContext = "TRACE_CONTEXT";
inline constexpr std::string_view kBornHost = "__BORNHOST";
inline constexpr std::string_view kCheckImmunitySeconds = "CHECK_IMMUNITY_TIME_IN_SECONDS";
inline constexpr std::string_view kDlqOriginTopic = "DLQ_ORIGIN_TOPIC";
inline constexpr std::string_view kDlqOriginMessageId = "DLQ_ORIGIN_MESSAGE_ID";
inline constexpr std::string_view kPopCk = common::property::kPopCk;
} // namespace property5

v2::Status makeStatus(v2::Code code, std::string message = {});
inline bool isOk(const v2::Status &status) { return status.code() == v2::Code::OK; }

// LiteTopic (5.5) consumers, which read their lite topics' LMQs and not the parent's queues.
inline bool isLiteClient(v2::ClientType type)
{
    return type == v2::ClientType::LITE_PUSH_CONSUMER || type == v2::ClientType::LITE_SIMPLE_CONSUMER;
}
// Java's ConsumeType: a simple consumer receives when it likes (CONSUME_ACTIVELY), a push
// consumer is fed (CONSUME_PASSIVELY).
inline const char *consumeTypeOf(v2::ClientType type)
{
    return type == v2::ClientType::SIMPLE_CONSUMER || type == v2::ClientType::LITE_SIMPLE_CONSUMER ? "CONSUME_ACTIVELY"
                                                                                                    : "CONSUME_PASSIVELY";
}

// The message types a topic accepts, from its `message.type` attribute (NORMAL when absent;
// MIXED lists NORMAL, FIFO, DELAY and TRANSACTION, as the Java proxy's route does).
std::vector<v2::MessageType> acceptedMessageTypes(const store::TopicConfig &topic);

// What a message is, from what it carries (Java's MessageType.parseFrom... of the proxy).
v2::MessageType messageTypeOf(const v2::Message &message);
// LiteTopic (RocketMQ 5.5): the longest lite topic name (the proxy's maxLiteTopicSize, UTF-8
// bytes), what a lite client may hold unless its group says otherwise (lite.sub.client.quota),
// and a lite topic name as the proxy checks it (ILLEGAL_LITE_TOPIC: blank, too long, or other
// than letters, digits, '-' and '_').
inline constexpr int32_t kMaxLiteTopicSize = 64;
inline constexpr int64_t kDefaultLiteSubscriptionQuota = 2000;
v2::Status checkLiteTopicName(const std::string &liteTopic);

// A send's message for the store, after the proxy's checks in their order; the status names
// what is wrong otherwise. `peerAddress` is the client's, for the born host; `now` in ms.
struct SendLimits
{
    int32_t maxBodyBytes = 4 * 1024 * 1024;
    int32_t maxUserProperties = 128;
    int32_t maxPropertiesBytes = 16 * 1024;
    int64_t maxDelayMillis = 24LL * 3600 * 1000;
};
v2::Status toBrokerMessage(const v2::Message &message, const store::TopicConfig &topic, bool checkMessageType,
                           const std::string &peerAddress, int64_t now, const SendLimits &limits,
                           common::BrokerMessage &out);

// A popped or checked record as the client sees it: system properties per §3.7 step 10, the user
// properties, the body (a 4.x producer's zlib-compressed body is inflated: the 5.x SDKs expect
// IDENTITY or GZIP), with `receiptHandle` and `deliveryAttempt` when given.
v2::Message toProtoMessage(const common::StoredMessage &stored, const std::string &topicName,
                           const std::optional<std::string> &receiptHandle, int32_t deliveryAttempt);

// A consumer's subscription as the broker keeps it (HEART_BEAT's subscriptionDataSet): TAG or SQL92,
// an empty expression meaning every tag.
std::vector<remoting::SubscriptionData> subscriptionDataOf(const v2::Subscription &subscription);

// Whether `key` is one of RocketMQ's reserved property names, which user properties may not use.
bool isSystemPropertyKey(std::string_view key);

// Upper-case hex MD5 of `bytes` (the body digest the proxy sends).
std::string md5UpperHex(std::string_view bytes);

int64_t toMillis(const google::protobuf::Duration &duration);
int64_t toMillis(const google::protobuf::Timestamp &timestamp);
void setMillis(google::protobuf::Duration *duration, int64_t millis);
void setMillis(google::protobuf::Timestamp *timestamp, int64_t millis);

} // namespace mqdesk::grpc
