#pragma once

// Topic and group names as RocketMQ allows them (TopicValidator / Validators): only
// [%|a-zA-Z0-9_-], not blank, a topic at most 127 characters and a group at most 255. Every name
// a client sends — in a header or a body — is checked against these rules where the request
// enters the broker, because names become directories (consume queues), config-file keys and
// derived topics (%RETRY%<group>, %DLQ%<group>). The store keeps a second wall of its own.

#include <cstddef>
#include <string>
#include <string_view>

namespace mqdesk::remoting {

inline constexpr size_t kMaxTopicNameLength = 127;
inline constexpr size_t kMaxLmqNameLength = 255; // "%LMQ%..." names (lite topics: "%LMQ%$<parent>$<lite>")
inline constexpr size_t kMaxGroupNameLength = 255;

// Whether every character of `name` is one RocketMQ allows (^[%|a-zA-Z0-9_-]+$, empty is not).
bool hasOnlyNameCharacters(std::string_view name);

// The remark a broker answers for a bad topic or group name, naming the request field it came
// in (`field`, e.g. "topic" or "consumerDataSet[0].groupName"; empty: not named, for names that
// came from elsewhere); empty when the name is legal. Texts follow Java's TopicValidator, with the
// field added.
std::string topicNameError(std::string_view topic, std::string_view field = "topic");
std::string groupNameError(std::string_view group, std::string_view field = "group");
// A topic a consumer names (heartbeat subscriptions, queue locks): its own %RETRY%<group> may be
// longer than a topic a producer could name, so the group part is held to the group rules.
std::string consumedTopicNameError(std::string_view topic, std::string_view field = "topic");

// Java TopicValidator.validateTopic: true for a legal topic name; otherwise false with `error`
// naming the topic (what the console's topic dialog and the broker's auto-creation check).
bool validateTopicName(std::string_view topic, std::string &error);

} // namespace mqdesk::remoting
