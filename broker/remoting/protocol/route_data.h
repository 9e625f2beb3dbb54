#pragma once

// The NameServer's wire bodies (remoting spec §5, §8): routes, cluster info, topic lists, KV
// tables, data versions and the broker registration body, with JSON encoders and decoders.
//
// Writers emit strict JSON with quoted integer keys (`{"0":"127.0.0.1:10911"}`) and bean members
// sorted by name like fastjson (spec §5.1, Appendix C): every client we serve accepts quoted
// keys. Readers accept strict JSON and fastjson's dialect (`{0:"…"}`), ignore unknown members,
// treat a missing or null member as its default (as fastjson leaves a bean field untouched),
// accept a number written as a string like fastjson does, and report the first wrong member
// by its path: "queueDatas[1].perm: expected an integer".

#include "broker/common/json.h"
#include "broker/common/topic_queue_mapping.h"
#include "broker/remoting/protocol/topic_attributes.h"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::remoting {

// Topic permission bits (RocketMQ's PermName). A normal topic is RW (6); TBW102 adds INHERIT (7).
namespace topicPerm {
inline constexpr int32_t kPriority = 8;
inline constexpr int32_t kRead = 4;
inline constexpr int32_t kWrite = 2;
inline constexpr int32_t kInherit = 1;

inline bool isReadable(int32_t perm) { return (perm & kRead) == kRead; }
inline bool isWriteable(int32_t perm) { return (perm & kWrite) == kWrite; }
inline bool isInherited(int32_t perm) { return (perm & kInherit) == kInherit; }
// "RWX" positions as Java's PermName.perm2String: R or -, W or -, X (inherit) or -: 6 → "RW-".
std::string permName(int32_t perm);
} // namespace topicPerm

// One broker's queues of a topic (RocketMQ's QueueData).
struct QueueData
{
    std::string brokerName;
    int32_t readQueueNums = 0;
    int32_t writeQueueNums = 0;
    int32_t perm = 0;
    int32_t topicSysFlag = 0;

    common::JsonValue toJsonValue() const;
    static bool fromJsonValue(const common::JsonValue &value, std::string_view path, QueueData &out,
                              std::string &error);

    bool operator==(const QueueData &other) const = default;
};

// One broker group: its master (id 0) and slaves (id ≥ 1) (RocketMQ's BrokerData).
struct BrokerData
{
    static constexpr int64_t kMasterId = 0;

    std::string cluster;
    std::string brokerName;
    std::map<int64_t, std::string> brokerAddrs; // broker id → "ip:port"

    // The master's address, "" when no broker with id 0 is registered.
    std::string masterAddress() const;

    common::JsonValue toJsonValue() const;
    static bool fromJsonValue(const common::JsonValue &value, std::string_view path, BrokerData &out,
                              std::string &error);

    bool operator==(const BrokerData &other) const = default;
};

// GET_ROUTEINFO_BY_TOPIC's body (spec §5.1).
struct TopicRouteData
{
    std::optional<std::string> orderTopicConf; // omitted when absent
    std::vector<QueueData> queueDatas;
    std::vector<BrokerData> brokerDatas;
    std::map<std::string, std::vector<std::string>> filterServerTable; // brokerAddr → filter servers
    // 5.x, static topics only (omitted otherwise, as Java's null is): brokerName → what that
    // broker registered of the topic's logical queues.
    std::map<std::string, common::TopicQueueMappingInfo> topicQueueMappingByBroker;

    // Standard JSON, members sorted, quoted integer keys: the spec §5.1 example byte for byte.
    std::string toJson() const;
    // Accepts quoted and unquoted integer keys.
    static bool fromJson(std::string_view body, TopicRouteData &out, std::string &error);

    bool operator==(const TopicRouteData &other) const = default;
};

// GET_BROKER_CLUSTER_INFO's body (spec §5.3).
struct ClusterInfo
{
    std::map<std::string, BrokerData> brokerAddrTable;               // brokerName → BrokerData
    std::map<std::string, std::vector<std::string>> clusterAddrTable; // cluster → brokerNames

    std::string toJson() const;
    static bool fromJson(std::string_view body, ClusterInfo &out, std::string &error);

    bool operator==(const ClusterInfo &other) const = default;
};

// The body of the topic-list requests (206, 224, 304, 311–313).
struct TopicList
{
    std::vector<std::string> topicList;
    std::string brokerAddr; // omitted when empty

    std::string toJson() const;
    static bool fromJson(std::string_view body, TopicList &out, std::string &error);

    bool operator==(const TopicList &other) const = default;
};

// `{"table":{"k":"v"}}`: GET_KVLIST_BY_NAMESPACE and REGISTER_BROKER's response body.
struct KVTable
{
    std::map<std::string, std::string> table;

    std::string toJson() const;
    static bool fromJson(std::string_view body, KVTable &out, std::string &error);

    bool operator==(const KVTable &other) const = default;
};

// RocketMQ's DataVersion as it travels: {counter, stateVersion (newer brokers), timestamp}.
struct DataVersionData
{
    int64_t counter = 0;
    int64_t timestamp = 0;
    std::optional<int64_t> stateVersion; // omitted when absent

    common::JsonValue toJsonValue() const;
    static bool fromJsonValue(const common::JsonValue &value, std::string_view path,
                              DataVersionData &out, std::string &error);
    std::string toJson() const;
    static bool fromJson(std::string_view body, DataVersionData &out, std::string &error);

    bool operator==(const DataVersionData &other) const = default;
};

// TopicConfig as the bodies carry it (GET_ALL_TOPIC_CONFIG, REGISTER_BROKER, GET_TOPIC_CONFIG).
struct TopicConfigData
{
    std::string topicName;
    int32_t readQueueNums = 0;
    int32_t writeQueueNums = 0;
    int32_t perm = topicPerm::kRead | topicPerm::kWrite;
    std::string topicFilterType = "SINGLE_TAG";
    int32_t topicSysFlag = 0;
    bool order = false;
    // 5.x attributes (message.type, queue.type, …) as stored, in the broker's map order. Written
    // only when there are some: a 5.x Java broker writes `"attributes":{}` too, 4.x nothing.
    AttributeList attributes{};

    common::JsonValue toJsonValue() const;
    static bool fromJsonValue(const common::JsonValue &value, std::string_view path,
                              TopicConfigData &out, std::string &error);

    bool operator==(const TopicConfigData &other) const = default;
};

// A broker's topic table and its version; also GET_ALL_TOPIC_CONFIG's body.
struct TopicConfigSerializeWrapper
{
    DataVersionData dataVersion;
    // Written as an object keyed by topic name, in this order. A member whose config lacks
    // topicName gets its key as the name when read.
    std::vector<TopicConfigData> topicConfigTable;
    // 5.x's TopicConfigAndMappingSerializeWrapper, for static topics; each written only when not
    // empty. Registration carries the summaries (topicQueueMappingInfoMap, topic → info),
    // GET_ALL_TOPIC_CONFIG the whole mappings and their version.
    std::map<std::string, common::TopicQueueMappingInfo> topicQueueMappingInfoMap;
    std::map<std::string, common::TopicQueueMappingDetail> topicQueueMappingDetailMap;
    std::optional<DataVersionData> mappingDataVersion;

    common::JsonValue toJsonValue() const;
    static bool fromJsonValue(const common::JsonValue &value, std::string_view path,
                              TopicConfigSerializeWrapper &out, std::string &error);
    std::string toJson() const;
    static bool fromJson(std::string_view body, TopicConfigSerializeWrapper &out, std::string &error);

    bool operator==(const TopicConfigSerializeWrapper &other) const = default;
};

// REGISTER_BROKER's body (spec §5.4).
struct RegisterBrokerBody
{
    TopicConfigSerializeWrapper topicConfigSerializeWrapper;
    std::vector<std::string> filterServerList;

    std::string toJson() const;
    static bool fromJson(std::string_view body, RegisterBrokerBody &out, std::string &error);

    // The compressed form (`compressed=true`): a zlib stream of big-endian int32-length-prefixed
    // parts — the DataVersion JSON, the topic count, per topic "name read write perm filterType",
    // the filterServerList JSON array, then (5.x) the count of static-topic summaries and each
    // one's JSON. It carries neither topicSysFlag nor order (they read back as 0/false), like
    // Java's. A 4.x body, which ends after the filter list, decodes too.
    std::vector<uint8_t> encodeCompressed() const;
    static bool decodeCompressed(std::span<const uint8_t> bytes, RegisterBrokerBody &out, std::string &error);

    bool operator==(const RegisterBrokerBody &other) const = default;
};

} // namespace mqdesk::remoting
