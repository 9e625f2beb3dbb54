#pragma once

// Static topics (RocketMQ 5.x's logical queues, R/protocol/statictopic/): a topic whose queue ids
// are "logical" (global across brokers) and whose every logical queue is hosted, over its
// lifetime, by a chain of physical queues on one or more brokers. `mqadmin updateStaticTopic`
// computes the mapping and sends each broker its part (UPDATE_AND_CREATE_STATIC_TOPIC, 513); the
// broker keeps it in config/topicQueueMapping.json, registers a summary with the NameServer, and
// clients route by the summaries (the route's topicQueueMappingByBroker) to a mock broker name,
// `__syslo__global__`, whose queue ids are the logical ones.
//
// One physical queue of a logical queue is a LogicQueueMappingItem: which broker and queue, the
// logical offset its first message has (logicOffset) and its own physical offsets
// [startOffset, endOffset). The items of a logical queue are ordered by `gen`; the last one is the
// leader, where new messages go. These are the beans as Java serializes them (members by name),
// and the offset arithmetic Java's broker answers with, so that a logical offset means the same
// message whichever broker computes it.

#include "broker/common/json.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::common {

// MixAll.METADATA_SCOPE_GLOBAL and the mock broker name clients give its logical queues.
inline constexpr std::string_view kStaticTopicGlobalScope = "__global__";
inline constexpr std::string_view kLogicalQueueMockBrokerPrefix = "__syslo__";

// TopicQueueMappingUtils.getMockBrokerName: "__syslo__global__" for the global scope.
std::string mockBrokerNameOfScope(std::string_view scope);

struct LogicQueueMappingItem
{
    int32_t gen = 0;
    int32_t queueId = 0;
    std::string bname;
    int64_t logicOffset = 0; // -1 until decided (a newly remapped leader)
    int64_t startOffset = 0;
    int64_t endOffset = -1; // exclusive; -1 while the item is the leader
    int64_t timeOfStart = -1;
    int64_t timeOfEnd = -1;

    // The logical offset of physical offset `physical`, clamped to the item's range; -1 when the
    // item's logical offset is not decided (computeStaticQueueOffsetLoosely).
    int64_t staticOffsetLoosely(int64_t physical) const;
    // The logical offset of `physical`, clamped below only (computeStaticQueueOffsetStrictly).
    int64_t staticOffsetStrictly(int64_t physical) const;
    int64_t physicalOffset(int64_t staticOffset) const { return staticOffset - logicOffset + startOffset; }
    int64_t maxStaticOffset() const;
    bool endOffsetDecided() const { return endOffset > startOffset; }
    bool logicOffsetDecided() const { return logicOffset >= 0; }
    int64_t offsetDelta() const { return logicOffset - startOffset; }

    JsonValue toJson() const;
    static bool fromJson(const JsonValue &value, const std::string &path, LogicQueueMappingItem &out,
                         std::string &error);
    bool operator==(const LogicQueueMappingItem &other) const = default;
};

using LogicQueueMappingItems = std::vector<LogicQueueMappingItem>;

// The item holding logical offset `logicOffset` (the last whose logicOffset is ≤ it, skipping
// undecided ones when `ignoreNegative`), else the first usable one; nullptr for none
// (TopicQueueMappingUtils.findLogicQueueMappingItem).
const LogicQueueMappingItem *findMappingItem(const LogicQueueMappingItems &items, int64_t logicOffset,
                                             bool ignoreNegative = true);
// The item after `current` (by gen), nullptr when current is the last or the next is undecided.
const LogicQueueMappingItem *nextMappingItem(const LogicQueueMappingItems &items,
                                             const LogicQueueMappingItem &current);
// Java's checkLogicQueueMappingItemOffset: "" when the chain is well formed, else why not.
std::string checkMappingItems(const LogicQueueMappingItems &items);

// What a broker registers per static topic (TopicQueueMappingInfo): its name, the logical queue
// count, the epoch of the mapping, and currIdMap — logical id → physical id of the queues it leads.
struct TopicQueueMappingInfo
{
    std::string topic;
    std::string scope = std::string(kStaticTopicGlobalScope);
    int32_t totalQueues = 0;
    std::string bname;
    int64_t epoch = 0;
    bool dirty = false;
    std::map<int32_t, int32_t> currIdMap;

    JsonValue toJson() const;
    static bool fromJson(const JsonValue &value, const std::string &path, TopicQueueMappingInfo &out,
                         std::string &error);
    bool operator==(const TopicQueueMappingInfo &other) const = default;

protected:
    void writeMembers(JsonObject &object) const;
    static bool readMembers(const JsonValue &value, const std::string &path, TopicQueueMappingInfo &out,
                            std::string &error);
};

// A broker's whole part of a static topic (TopicQueueMappingDetail): the info plus, per logical
// queue it hosts or hosted, the item chain. The file and UPDATE_AND_CREATE_STATIC_TOPIC carry it.
struct TopicQueueMappingDetail : TopicQueueMappingInfo
{
    std::map<int32_t, LogicQueueMappingItems> hostedQueues;

    // The items of logical queue `globalId`, nullptr when this broker never hosted it.
    const LogicQueueMappingItems *items(int32_t globalId) const;
    // logical id → physical id of the queues whose leader is on this broker (buildIdMap, level 0).
    std::map<int32_t, int32_t> leaderIdMap() const;
    // The summary registered with the NameServer (cloneAsMappingInfo).
    TopicQueueMappingInfo asInfo() const;
    // The highest logical offset the mapping itself knows for `globalId`; -1 when not hosted.
    int64_t maxOffsetFromMapping(int32_t globalId) const;

    JsonValue toJson() const;
    static bool fromJson(const JsonValue &value, const std::string &path, TopicQueueMappingDetail &out,
                         std::string &error);
    bool operator==(const TopicQueueMappingDetail &other) const = default;
};

} // namespace mqdesk::common
