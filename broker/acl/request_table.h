#pragma once

// The one table of every request code RocketMQ 5.5.1 defines (shared/spec/request-codes.md §2),
// plus MQDesk's broker extensions, with what MQDesk does with each: where it is served and which
// resources × actions a caller needs for it. Both access controls (the plain ACL of 4.x and
// ACL 2.0) and the docs' table (docs/request-authorization.md, checked against this file by
// tst_broker_acl's AuthTest::theDocsShowTheTable) read it; the gRPC endpoint maps its RPCs onto the same resource checks.
//
// A code missing here is refused by the access gate (and logged, rate-limited) — never served
// unchecked. Where Java 5.5 builds no check for a code MQDesk serves (its §1.8 list: lite pull,
// reply sends, batch ack, broker config, bulk and body-based admin requests), MQDesk checks it
// anyway, as the closest annotated request does; each such row says what Java does in `java`.
//
// Rules about names, as Java 5.5 applies them (§1.5): a topic field holding `%RETRY%G` is
// checked as Group G (SEND_* and the route lookup with the row's retry actions); `%DLQ%` names are
// topics. Where Java drops the topic check of a retry topic (pulls, offsets, heartbeats, locks),
// MQDesk checks its group G instead: a grant on one group must not read another's retries.
//
// A request naming none of the resources its code is checked by builds no check; the access
// gate refuses it (requestNamesItsResources), where Java would let it through to the processor.
//
// Thread-safe: constant data and pure functions.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::remoting {
struct RemotingCommand;
}

namespace mqdesk::acl {

// RocketMQ's ResourceType codes.
enum class ResourceType : uint8_t { Unknown = 0, Any = 1, Cluster = 2, Namespace = 3, Topic = 4, Group = 5 };
std::string_view resourceTypeName(ResourceType type); // "Topic"
std::optional<ResourceType> parseResourceType(std::string_view name); // case-insensitive

// RocketMQ's Action, as bits (bit n = Action code n) so "A or B" is a mask.
namespace action {
inline constexpr uint16_t kAll = 1u << 1;
inline constexpr uint16_t kAny = 1u << 2;
inline constexpr uint16_t kPub = 1u << 3;
inline constexpr uint16_t kSub = 1u << 4;
inline constexpr uint16_t kCreate = 1u << 5;
inline constexpr uint16_t kUpdate = 1u << 6;
inline constexpr uint16_t kDelete = 1u << 7;
inline constexpr uint16_t kGet = 1u << 8;
inline constexpr uint16_t kList = 1u << 9;
} // namespace action
// "Pub,Sub" in Java's spelling; parse accepts any case and ',' or ' ' between names.
std::string actionNames(uint16_t actions);
std::optional<uint16_t> parseActions(std::string_view text);

// Where MQDesk serves a code (bits).
namespace served {
inline constexpr uint8_t kNone = 0;
inline constexpr uint8_t kBroker = 1;
inline constexpr uint8_t kNamesrv = 2;
} // namespace served

// How a request's checks are built.
enum class CheckRule : uint8_t {
    Fields,          // from the header fields listed (absent fields add none)
    OwnCluster,      // one check on the server's own cluster
    Send,            // topic field: Topic PUB, or Group SUB for %RETRY%<group>
    Pull,            // Topic (its group for a retry topic) and Group fields
    Heartbeat,       // body HeartbeatData: each consumer group and subscribed topic, SUB
    LockBatch,       // body LockBatchRequestBody: the group and each queue's topic, SUB
    RouteLookup,     // Topic PUB|SUB|GET, or Group SUB|GET for %RETRY%<group>
    BodyGroupTopic,  // JSON body fields (`consumerGroup`/`group`/`groupName`, `topic`)
    BatchAck,        // body BatchAckMessageRequestBody: each ack's group and topic, SUB
    ServerToClient,  // a request brokers send to clients: refused from a client
    None,            // no resource check: any authenticated caller (namesrv reads; unserved codes)
};

struct FieldCheck
{
    ResourceType type = ResourceType::Unknown;
    std::string_view field; // ext-field name (or JSON body key for BodyGroupTopic)
    char splitter = 0;      // a list field's separator, 0 for one name
};

struct RequestRule
{
    int32_t code = 0;
    std::string_view name;   // RocketMQ's constant, or the MQDesk extension's name
    uint8_t servedBy = served::kNone; // elsewhere the gate answers REQUEST_CODE_NOT_SUPPORTED
    CheckRule rule = CheckRule::None;
    uint16_t actions = 0;    // any one of them grants the check
    std::array<FieldCheck, 3> fields{};
    bool blankUnchecked = false; // a blank field adds no check (UNREGISTER_CLIENT, END_TRANSACTION)
    std::string_view java;   // what Java 5.5 does where MQDesk differs; empty when the same
    bool ownClusterIfNone = false; // Fields: the own cluster when no field named one (Java §1.2 step 7)
};

// Every row, in code order.
std::span<const RequestRule> requestRules();
// nullptr for a code the table does not know.
const RequestRule *findRequestRule(int32_t code);

// One resource check: the caller needs one of `actions` on `type:name`.
struct Check
{
    ResourceType type = ResourceType::Unknown;
    std::string name;
    uint16_t actions = 0;
    bool operator==(const Check &) const = default;
};

// The checks `request` needs under `rule`. nullopt when built; else why the request cannot be
// read (Java: "parse authorization context error", denied).
//
// Whether a request of `rule` must name at least one resource: false for the rules that check
// only the cluster or nothing, and where nothing named is legitimate (a producer's HEART_BEAT and
// UNREGISTER_CLIENT, a 4.x END_TRANSACTION).
bool requestNamesItsResources(const RequestRule &rule);
std::optional<std::string> buildChecks(const RequestRule &rule, const remoting::RemotingCommand &request,
                                       std::string_view ownCluster, std::vector<Check> &checks);

} // namespace mqdesk::acl
