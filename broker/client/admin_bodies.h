#pragma once

// The broker's admin answer bodies the console reads (remoting spec §8): all consumer offsets,
// subscription groups, group lists; topic and consume stats are the protocol's own
// (remoting/protocol/queue_tables.h), as the broker writes them.
//
// Readers accept what a Java 4.9.8 broker writes and strict JSON alike, ignore unknown members
// and report the first wrong member by path ("offsetTable[2].key.queueId: expected an integer").

#include "broker/client/client_types.h"
#include "broker/remoting/protocol/queue_tables.h"
#include "broker/remoting/protocol/route_data.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::client {

// The bodies keyed by a MessageQueue are shared with the broker (remoting/protocol/queue_tables.h).
using remoting::ConsumeStats;
using remoting::OffsetWrapper;
using remoting::parseMessageQueueMap;
using remoting::quoteObjectKeys;
using remoting::TopicOffset;
using remoting::TopicStatsTable;

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
    // RocketMQ 5.x group attributes to change, as mqadmin's --attributes ("+priority.factor=50,-key");
    // sent as the body's `attributes` (the broker alters its own set with them), never read back.
    std::string attributeModifications;
    // The group's attributes as a broker lists them (201's body; lite.bind.topic, priority.factor…).
    std::map<std::string, std::string> attributes;

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
