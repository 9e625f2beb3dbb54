#pragma once

// Topic attributes of RocketMQ 5.x (TopicAttributes.ALL) and the "+key=value,-key" modification
// text UPDATE_AND_CREATE_TOPIC carries in its `attributes` header field and mqadmin's
// `updateTopic -a` takes. Parsing follows AttributeParser.parseToMap, the create/update rules
// AttributeUtil.alterCurrentAttributes; the remarks are Java's so tools show the same errors.
//
//   key                    values                                                 changeable after create
//   message.type           UNSPECIFIED NORMAL FIFO DELAY TRANSACTION PRIORITY     yes
//                          LITE MIXED (PRIORITY: 5.4, LITE: 5.5)
//   queue.type             BatchCQ SimpleCQ                                       no
//   cleanup.policy         DELETE COMPACTION                                      no
//   reserve.time           -1 .. Long.MAX_VALUE                                   yes
//   lite.topic.expiration  -1 .. 43200 (minutes; 5.5)                             yes
//
// A topic without message.type is UNSPECIFIED, which 5.x clients and the proxy treat as NORMAL.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mqdesk::remoting {

inline constexpr const char *kMessageTypeAttribute = "message.type";
inline constexpr const char *kUnspecifiedMessageType = "UNSPECIFIED";
inline constexpr const char *kMixedMessageType = "MIXED";
// RocketMQ 5.4: a message's priority picks its queue; POP reads the highest queue first.
inline constexpr const char *kPriorityMessageType = "PRIORITY";
// RocketMQ 5.5 (RIP-83): a parent topic of lite topics.
inline constexpr const char *kLiteMessageType = "LITE";
// The group attribute that makes a group a lite group, bound to that parent topic (RocketMQ 5.5).
inline constexpr const char *kLiteBindTopicAttribute = "lite.bind.topic";
// A LITE topic's lite topics expire after this many idle minutes (-1 or 0: never).
inline constexpr const char *kLiteTopicExpirationAttribute = "lite.topic.expiration";

// TopicMessageType's values in declaration order (UNSPECIFIED first).
const std::vector<std::string> &topicMessageTypes();

using AttributeList = std::vector<std::pair<std::string, std::string>>;

// The value of `key` in `attributes`, or nullptr.
const std::string *findAttribute(const AttributeList &attributes, std::string_view key);
// message.type of a topic's stored attributes; UNSPECIFIED when it has none.
std::string topicMessageType(const AttributeList &attributes);

// One modification as parseToMap keeps it: the key with its sign ("+message.type") and the
// value (empty for a deletion).
using AttributeModifications = AttributeList;

// Parses "+a=b,+c=d,-e" (empty text: no modification). False with Java's remark when an
// entry is malformed or a key repeats.
bool parseAttributeModifications(std::string_view text, AttributeModifications &out, std::string &error);
// The header text of `modifications` (AttributeParser.parseToString).
std::string formatAttributeModifications(const AttributeModifications &modifications);
// "+message.type=<type>".
std::string messageTypeModification(std::string_view type);

// What alterTopicAttributes decided: values to set (in request order) and keys to remove.
struct AttributeAlteration
{
    AttributeList put;
    std::vector<std::string> remove;
};

// AttributeUtil.alterCurrentAttributes over TopicAttributes.ALL: `create` when the topic does
// not exist yet (then only "+key" is allowed). Validates every key and value; false with
// Java's remark ("unsupported key: x", "value is not in set: […]", …) and nothing decided.
bool alterTopicAttributes(bool create, const AttributeList &current, const AttributeModifications &requested,
                          AttributeAlteration &out, std::string &error);

// The same over SubscriptionGroupAttributes.ALL (RocketMQ 5.5), for a group's `attributes` as
// UPDATE_AND_CREATE_SUBSCRIPTIONGROUP carries them ({"+priority.factor": "50", "-key": ""}):
//
//   priority.factor                    0 .. 100 (100)       lite.sub.model   Shared | Exclusive
//   lite.bind.topic, lite.sub.wildcard any text             lite.sub.reset.offset.exclusive,
//   lite.sub.client.quota              -1 .. (2000)           lite.sub.reset.offset.unsubscribe  true | false
//   lite.sub.client.max.event.cnt      10 .. (400)
bool alterGroupAttributes(bool create, const AttributeList &current, const AttributeModifications &requested,
                          AttributeAlteration &out, std::string &error);

} // namespace mqdesk::remoting
