#pragma once

// The broker's admin answer bodies the console reads (remoting spec §8): topic stats and
// consume stats (maps keyed by a MessageQueue object, which fastjson writes as an inline
// object — not JSON), all consumer offsets, subscription groups, group lists.
//
// Readers accept what a Java 4.9.8 broker writes and strict JSON alike, ignore unknown members
// and report the first wrong member by path ("offsetTable[2].key.queueId: expected an integer").

#include "broker/client/client_types.h"
#include "broker/remoting/protocol/route_data.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::client {

// Rewrites every object key that is itself an object (`{{"a":1}:2}`) into a JSON string holding
// that object's text (`{"{\"a\":1}":2}`), so that the result parses as ordinary JSON. Strings
// are copied untouched. False with `error` on unbalanced input.
bool quoteObjectKeys(std::string_view text, std::string &out, std::string &error);

// Parses a body whose top-level member `mapMember` is keyed by MessageQueue objects, calling
// `onEntry(queue, value, path)` for each; other top-level members go to `onOther` (may be empty).
// The callbacks return false after recording an error.
bool parseMessageQueueMap(std::string_view body, std::string_view mapMember,
                          const std::function<bool(const MessageQueue &, const common::JsonValue &,
                                                   const std::string &path)> &onEntry,
                          const std::function<void(const common::JsonValue &root)> &onOther,
                          std::string &error);

// GET_TOPIC_STATS_INFO (202): per queue its offsets and last store time.
struct TopicOffset
{
    int64_t minOffset = 0;
    int64_t maxOffset = 0;
    int64_t lastUpdateTimestamp = 0;
};

struct TopicStatsTable
{
    std::map<MessageQueue, TopicOffset> offsetTable;

    static bool fromJson(std::string_view body, TopicStatsTable &out, std::string &error);
    // Messages currently stored over all queues (sum of max − min).
    int64_t totalMessages() const;
};

// GET_CONSUME_STATS (208): per queue the broker's and the group's offsets.
struct OffsetWrapper
{
    int64_t brokerOffset = 0;
    int64_t consumerOffset = 0;
    int64_t lastTimestamp = 0;

    int64_t lag() const { return brokerOffset > consumerOffset ? brokerOffset - consumerOffset : 0; }
};

struct ConsumeStats
{
    double consumeTps = 0;
    std::map<MessageQueue, OffsetWrapper> offsetTable;

    static bool fromJson(std::string_view body, ConsumeStats &out, std::string &error);
    int64_t totalLag() const; // Java's computeTotalDiff
    // Adds `other`'s queues (stats from several brokers) and its tps.
    void merge(const ConsumeStats &other);
};

// GET_ALL_CONSUMER_OFFSET (43): "topic@group" → queueId → offset.
struct ConsumerOffsetTable
{
    std::map<std::string, std::map<int32_t, int64_t>> offsetTable;

    static bool fromJson(std::string_view body, ConsumerOffsetTable &out, std::string &error);
};

// A consumer group's settings (Java SubscriptionGroupConfig), the body of 200.
struct SubscriptionGroupConfig
{
    std::string groupName;
    bool consumeEnable = true;
    bool consumeFromMinEnable = true;
    bool consumeBroadcastEnable = true;
    bool consumeMessageOrderly = false; // FIFO for POP and 5.x consumers
    int32_t retryQueueNums = 1;
    int32_t retryMaxTimes = 16;
    int64_t brokerId = 0;
    int64_t whichBrokerWhenConsumeSlowly = 1;
    bool notifyConsumerIdsChangedEnable = true;

    std::string toJson() const; // members sorted by name, like fastjson
    static bool fromJsonValue(const common::JsonValue &value, const std::string &path,
                              SubscriptionGroupConfig &out, std::string &error);
    bool operator==(const SubscriptionGroupConfig &) const = default;
};

// GET_ALL_SUBSCRIPTIONGROUP_CONFIG (201).
struct SubscriptionGroupWrapper
{
    remoting::DataVersionData dataVersion;
    std::vector<SubscriptionGroupConfig> subscriptionGroupTable; // in the body's order

    static bool fromJson(std::string_view body, SubscriptionGroupWrapper &out, std::string &error);
    const SubscriptionGroupConfig *find(std::string_view groupName) const;
};

// QUERY_TOPIC_CONSUME_BY_WHO (300): {"groupList":[...]}.
bool decodeGroupList(std::string_view body, std::vector<std::string> &out, std::string &error);

} // namespace mqdesk::client
