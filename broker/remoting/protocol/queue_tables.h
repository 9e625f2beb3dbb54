#pragma once

// The admin bodies that are maps keyed by a MessageQueue (remoting spec §8): GET_TOPIC_STATS_INFO's
// TopicStatsTable (202), GET_CONSUME_STATS's ConsumeStats (208, and each item of 317's list) and
// INVOKE_BROKER_TO_RESET_OFFSET's ResetOffsetBody (222). The broker writes them and the client
// reads them, with these same types.
//
// fastjson writes a MessageQueue map key as an inline object, members sorted:
//   {"offsetTable":{{"brokerName":"b","queueId":0,"topic":"T"}:{"maxOffset":2,…}}}
// That is not JSON, but it is what the Java admin tools and the Dashboard read back, so it is
// written exactly so (common/json.h cannot write such a key). The readers accept it, what a Java
// 4.9.8 or 5.x broker writes, and strict JSON alike; they ignore unknown members and name the
// first wrong member by path ("offsetTable[2].key.queueId: expected an integer").

#include "broker/common/json.h"
#include "broker/remoting/protocol/message_queue.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace mqdesk::remoting {

// `{"brokerName":"b","queueId":0,"topic":"T"}`, strings escaped as JSON strings.
std::string messageQueueKeyText(const MessageQueue &queue);

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

// GET_TOPIC_STATS_INFO (202): per queue its offsets and last store time (Java TopicOffset).
struct TopicOffset
{
    int64_t minOffset = 0;
    int64_t maxOffset = 0;
    int64_t lastUpdateTimestamp = 0;
};

struct TopicStatsTable
{
    std::map<MessageQueue, TopicOffset> offsetTable;
    double topicPutTps = 0; // the last minute's puts per second (5.x brokers; 4.9 has none)

    // `{"offsetTable":{<key>:{"lastUpdateTimestamp":…,"maxOffset":…,"minOffset":…},…},"topicPutTps":…}`
    std::string toJson() const;
    static bool fromJson(std::string_view body, TopicStatsTable &out, std::string &error);
    // Messages currently stored over all queues (sum of max − min).
    int64_t totalMessages() const;
};

// GET_CONSUME_STATS (208): per queue the broker's and the group's offsets (Java OffsetWrapper).
struct OffsetWrapper
{
    int64_t brokerOffset = 0;
    int64_t consumerOffset = 0;
    int64_t lastTimestamp = 0;
    int64_t pullOffset = 0; // 5.x; 4.x readers ignore it

    int64_t lag() const { return brokerOffset > consumerOffset ? brokerOffset - consumerOffset : 0; }
};

struct ConsumeStats
{
    double consumeTps = 0;
    std::map<MessageQueue, OffsetWrapper> offsetTable;

    // `{"consumeTps":0.0,"offsetTable":{<key>:{"brokerOffset":…,"consumerOffset":…,"lastTimestamp":…,"pullOffset":…},…}}`
    std::string toJson() const;
    static bool fromJson(std::string_view body, ConsumeStats &out, std::string &error);
    int64_t totalLag() const; // Java's computeTotalDiff
    // Adds `other`'s queues (stats from several brokers) and its tps.
    void merge(const ConsumeStats &other);
};

// INVOKE_BROKER_TO_RESET_OFFSET (222): the offsets the broker sent the group's clients.
struct ResetOffsetBody
{
    std::map<MessageQueue, int64_t> offsetTable;

    // `{"offsetTable":{<key>:42,…}}`
    std::string toJson() const;
    static bool fromJson(std::string_view body, ResetOffsetBody &out, std::string &error);
};

} // namespace mqdesk::remoting
