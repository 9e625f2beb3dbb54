#pragma once

// What clients tell the broker about themselves (remoting spec §6.1–6.3, §8): HEART_BEAT's
// HeartbeatData with its producer and consumer groups and their subscriptions, and the bodies
// the broker answers about them (consumer id lists, consumer connections).

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::common {
class JsonValue;
}

namespace mqdesk::remoting {

inline constexpr const char *kSubscribeAll = "*";
inline constexpr const char *kExpressionTag = "TAG";
inline constexpr const char *kExpressionSql92 = "SQL92";

// One topic of a consumer group's subscription (Java SubscriptionData).
struct SubscriptionData
{
    std::string topic;
    std::string subString = kSubscribeAll;
    std::set<std::string> tagsSet;
    std::set<int32_t> codeSet;
    int64_t subVersion = 0;
    bool classFilterMode = false;
    std::string expressionType = kExpressionTag;

    // Java's FilterAPI.buildSubscriptionData: "*" or empty subscribes to everything, else
    // "A || B" gives the tags and their String.hashCode codes. SQL92 keeps the text as is.
    static SubscriptionData build(std::string topic, std::string_view subString,
                                  std::string_view expressionType = kExpressionTag);
    bool subscribesAll() const { return subString.empty() || subString == kSubscribeAll; }
    bool isTagType() const { return expressionType.empty() || expressionType == kExpressionTag; }
    // Whether a message with `tagsCode` (0 = no TAGS) passes this subscription.
    bool matchesTagsCode(int64_t tagsCode) const;

    common::JsonValue toJson() const;
    static bool fromJson(const common::JsonValue &value, const std::string &path, SubscriptionData &out,
                         std::string &error);
    bool operator==(const SubscriptionData &) const = default;
};

struct ConsumerData
{
    std::string groupName;
    std::string consumeType = "CONSUME_PASSIVELY";   // or CONSUME_ACTIVELY (pull)
    std::string messageModel = "CLUSTERING";         // or BROADCASTING
    std::string consumeFromWhere = "CONSUME_FROM_LAST_OFFSET";
    bool unitMode = false;
    std::vector<SubscriptionData> subscriptionDataSet;
};

struct ProducerData
{
    std::string groupName;
};

struct HeartbeatData
{
    std::string clientId;
    std::vector<ProducerData> producerDataSet;
    std::vector<ConsumerData> consumerDataSet;

    std::string toJson() const;
    // Errors name the field ("consumerDataSet[0].subscriptionDataSet[1].topic: ...").
    static bool fromJson(std::string_view body, HeartbeatData &out, std::string &error);
};

// GET_CONSUMER_LIST_BY_GROUP's body: {"consumerIdList":[...]}.
std::string encodeConsumerIdList(const std::vector<std::string> &clientIds);
bool decodeConsumerIdList(std::string_view body, std::vector<std::string> &out, std::string &error);

// One client connection of a group (Java Connection).
struct ClientConnection
{
    std::string clientId;
    std::string clientAddr;
    std::string language = "JAVA";
    int32_t version = 0;
};

// GET_CONSUMER_CONNECTION_LIST's body.
struct ConsumerConnection
{
    std::vector<ClientConnection> connectionSet;
    std::vector<SubscriptionData> subscriptionTable; // keyed by topic in JSON
    std::string consumeType;
    std::string messageModel;
    std::string consumeFromWhere;

    std::string toJson() const;
    static bool fromJson(std::string_view body, ConsumerConnection &out, std::string &error);
};

// GET_PRODUCER_CONNECTION_LIST's body: {"connectionSet":[...]}.
std::string encodeProducerConnection(const std::vector<ClientConnection> &connections);
bool decodeProducerConnection(std::string_view body, std::vector<ClientConnection> &out, std::string &error);

} // namespace mqdesk::remoting
