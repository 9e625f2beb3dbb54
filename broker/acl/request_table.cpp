#include "broker/acl/request_table.h"

#include "broker/remoting/protocol/client_data.h"
#include "broker/remoting/protocol/json_fields.h"
#include "broker/remoting/protocol/lock_batch_body.h"
#include "broker/remoting/remoting_command.h"

#include <algorithm>
#include <cctype>

namespace mqdesk::acl {

namespace {

using namespace action;
using namespace served;

constexpr ResourceType kT = ResourceType::Topic;
constexpr ResourceType kG = ResourceType::Group;
constexpr ResourceType kC = ResourceType::Cluster;
constexpr std::string_view kRetryPrefix = "%RETRY%";

constexpr FieldCheck F(ResourceType type, std::string_view field, char splitter = 0)
{
    return FieldCheck{type, field, splitter};
}

constexpr RequestRule R(int32_t code, std::string_view name, uint8_t servedBy, CheckRule rule, uint16_t actions,
                        std::array<FieldCheck, 3> fields, bool blankUnchecked = false, std::string_view java = {},
                        bool ownClusterIfNone = false)
{
    return RequestRule{code, name, servedBy, rule, actions, fields, blankUnchecked, java, ownClusterIfNone};
}

// Generated once from shared/spec/request-codes.md §2 (Java 5.5.1's effective checks), then
// MQDesk's column set by hand: where it serves each code, and the checks of the codes Java
// leaves unchecked (`java` says so). Keep it in code order: findRequestRule searches it.
// clang-format off
constexpr RequestRule kRules[] = {
    R(10, "SEND_MESSAGE", kBroker, CheckRule::Send, kPub, {F(kT, "topic")}),
    R(11, "PULL_MESSAGE", kBroker, CheckRule::Pull, kSub, {F(kT, "topic"), F(kG, "consumerGroup")}),
    R(12, "QUERY_MESSAGE", kBroker, CheckRule::Fields, kSub | kGet, {F(kT, "topic")}),
    R(13, "QUERY_BROKER_OFFSET", kNone, CheckRule::None, 0, {}),
    R(14, "QUERY_CONSUMER_OFFSET", kBroker, CheckRule::Pull, kSub | kGet, {F(kT, "topic"), F(kG, "consumerGroup")}),
    R(15, "UPDATE_CONSUMER_OFFSET", kBroker, CheckRule::Pull, kSub | kUpdate, {F(kT, "topic"), F(kG, "consumerGroup")}),
    R(17, "UPDATE_AND_CREATE_TOPIC", kBroker, CheckRule::Fields, kCreate, {F(kT, "topic")}),
    R(18, "UPDATE_AND_CREATE_TOPIC_LIST", kNone, CheckRule::OwnCluster, kUpdate, {}, false, "no check"),
    R(21, "GET_ALL_TOPIC_CONFIG", kBroker, CheckRule::OwnCluster, kGet, {}, false, "no check"),
    R(22, "GET_TOPIC_CONFIG_LIST", kNone, CheckRule::None, 0, {}),
    R(23, "GET_TOPIC_NAME_LIST", kNone, CheckRule::None, 0, {}),
    R(25, "UPDATE_BROKER_CONFIG", kBroker, CheckRule::OwnCluster, kUpdate, {}, false, "no check"),
    R(26, "GET_BROKER_CONFIG", kBroker, CheckRule::OwnCluster, kGet, {}, false, "no check"),
    R(27, "TRIGGER_DELETE_FILES", kNone, CheckRule::None, 0, {}),
    R(28, "GET_BROKER_RUNTIME_INFO", kBroker, CheckRule::OwnCluster, kGet, {}, false, "no check"),
    R(29, "SEARCH_OFFSET_BY_TIMESTAMP", kBroker, CheckRule::Fields, kSub | kGet, {F(kT, "topic")}),
    R(30, "GET_MAX_OFFSET", kBroker, CheckRule::Fields, kSub | kGet, {F(kT, "topic")}),
    R(31, "GET_MIN_OFFSET", kBroker, CheckRule::Fields, kGet, {F(kT, "topic")}),
    R(32, "GET_EARLIEST_MSG_STORETIME", kBroker, CheckRule::Fields, kGet, {F(kT, "topic")}),
    R(33, "VIEW_MESSAGE_BY_ID", kBroker, CheckRule::Fields, kGet, {F(kT, "topic")}),
    R(34, "HEART_BEAT", kBroker, CheckRule::Heartbeat, kSub, {}),
    R(35, "UNREGISTER_CLIENT", kBroker, CheckRule::Fields, kSub, {F(kG, "consumerGroup")}, true),
    R(36, "CONSUMER_SEND_MSG_BACK", kBroker, CheckRule::Fields, kSub, {F(kG, "group")}),
    R(37, "END_TRANSACTION", kBroker, CheckRule::Fields, kPub, {F(kT, "topic")}, true),
    R(38, "GET_CONSUMER_LIST_BY_GROUP", kBroker, CheckRule::Fields, kSub | kGet, {F(kG, "consumerGroup")}),
    R(39, "CHECK_TRANSACTION_STATE", kNone, CheckRule::ServerToClient, 0, {}),
    R(40, "NOTIFY_CONSUMER_IDS_CHANGED", kNone, CheckRule::ServerToClient, 0, {}),
    R(41, "LOCK_BATCH_MQ", kBroker, CheckRule::LockBatch, kSub, {}),
    R(42, "UNLOCK_BATCH_MQ", kBroker, CheckRule::LockBatch, kSub, {}),
    R(43, "GET_ALL_CONSUMER_OFFSET", kBroker, CheckRule::OwnCluster, kGet, {}, false, "no check"),
    R(45, "GET_ALL_DELAY_OFFSET", kBroker, CheckRule::OwnCluster, kGet, {}, false, "no check"),
    R(46, "CHECK_CLIENT_CONFIG", kBroker, CheckRule::BodyGroupTopic, kSub, {F(kG, "group")}, false, "no check"),
    R(47, "GET_CLIENT_CONFIG", kNone, CheckRule::None, 0, {}),
    R(60, "GET_TIMER_CHECK_POINT", kNone, CheckRule::OwnCluster, kGet, {}, false, "no check"),
    R(61, "GET_TIMER_METRICS", kNone, CheckRule::OwnCluster, kGet, {}, false, "no check"),
    R(100, "PUT_KV_CONFIG", kNamesrv, CheckRule::OwnCluster, kUpdate, {}),
    R(101, "GET_KV_CONFIG", kNamesrv, CheckRule::OwnCluster, kGet, {}),
    R(102, "DELETE_KV_CONFIG", kNamesrv, CheckRule::OwnCluster, kUpdate, {}),
    R(103, "REGISTER_BROKER", kNamesrv, CheckRule::Fields, kUpdate, {F(kC, "clusterName")}, false, "", true),
    R(104, "UNREGISTER_BROKER", kNamesrv, CheckRule::Fields, kUpdate, {F(kC, "clusterName")}, false, "", true),
    R(105, "GET_ROUTEINFO_BY_TOPIC", kNamesrv, CheckRule::RouteLookup, kPub | kSub | kGet, {F(kT, "topic")}),
    R(106, "GET_BROKER_CLUSTER_INFO", kNamesrv, CheckRule::None, 0, {}),
    R(200, "UPDATE_AND_CREATE_SUBSCRIPTIONGROUP", kBroker, CheckRule::BodyGroupTopic, kUpdate, {F(kG, "groupName")}, false, "no check (4.x plain ACL: admin only)"),
    R(201, "GET_ALL_SUBSCRIPTIONGROUP_CONFIG", kBroker, CheckRule::OwnCluster, kGet, {}, false, "no check"),
    R(202, "GET_TOPIC_STATS_INFO", kBroker, CheckRule::Fields, kGet, {F(kT, "topic")}),
    R(203, "GET_CONSUMER_CONNECTION_LIST", kBroker, CheckRule::Fields, kGet, {F(kG, "consumerGroup")}),
    R(204, "GET_PRODUCER_CONNECTION_LIST", kBroker, CheckRule::OwnCluster, kGet, {}),
    R(205, "WIPE_WRITE_PERM_OF_BROKER", kNamesrv, CheckRule::OwnCluster, kUpdate, {}),
    R(206, "GET_ALL_TOPIC_LIST_FROM_NAMESERVER", kNamesrv, CheckRule::None, 0, {}),
    R(207, "DELETE_SUBSCRIPTIONGROUP", kBroker, CheckRule::Fields, kDelete, {F(kG, "groupName")}),
    R(208, "GET_CONSUME_STATS", kBroker, CheckRule::Fields, kGet, {F(kG, "consumerGroup"), F(kT, "topic"), F(kT, "topicList", ';')}),
    R(209, "SUSPEND_CONSUMER", kNone, CheckRule::None, 0, {}),
    R(210, "RESUME_CONSUMER", kNone, CheckRule::None, 0, {}),
    R(211, "RESET_CONSUMER_OFFSET_IN_CONSUMER", kNone, CheckRule::None, 0, {}),
    R(212, "RESET_CONSUMER_OFFSET_IN_BROKER", kNone, CheckRule::None, 0, {}),
    R(213, "ADJUST_CONSUMER_THREAD_POOL", kNone, CheckRule::None, 0, {}),
    R(214, "WHO_CONSUME_THE_MESSAGE", kNone, CheckRule::None, 0, {}),
    R(215, "DELETE_TOPIC_IN_BROKER", kBroker, CheckRule::Fields, kDelete, {F(kT, "topic")}),
    R(216, "DELETE_TOPIC_IN_NAMESRV", kNamesrv, CheckRule::Fields, kUpdate, {F(kC, "clusterName")}, false, "", true),
    R(217, "REGISTER_TOPIC_IN_NAMESRV", kNone, CheckRule::OwnCluster, kUpdate, {}),
    R(219, "GET_KVLIST_BY_NAMESPACE", kNamesrv, CheckRule::OwnCluster, kGet, {}),
    R(220, "RESET_CONSUMER_CLIENT_OFFSET", kNone, CheckRule::ServerToClient, 0, {}),
    R(221, "GET_CONSUMER_STATUS_FROM_CLIENT", kNone, CheckRule::ServerToClient, 0, {}),
    R(222, "INVOKE_BROKER_TO_RESET_OFFSET", kBroker, CheckRule::Fields, kUpdate, {F(kG, "group"), F(kT, "topic")}),
    R(223, "INVOKE_BROKER_TO_GET_CONSUMER_STATUS", kBroker, CheckRule::Fields, kGet, {F(kT, "topic"), F(kG, "group")}),
    R(224, "GET_TOPICS_BY_CLUSTER", kNamesrv, CheckRule::None, 0, {}),
    R(225, "UPDATE_AND_CREATE_SUBSCRIPTIONGROUP_LIST", kBroker, CheckRule::OwnCluster, kUpdate, {}, false, "no check"),
    R(300, "QUERY_TOPIC_CONSUME_BY_WHO", kBroker, CheckRule::Fields, kGet, {F(kT, "topic")}),
    R(301, "REGISTER_FILTER_SERVER", kNone, CheckRule::None, 0, {}),
    R(302, "REGISTER_MESSAGE_FILTER_CLASS", kNone, CheckRule::None, 0, {}),
    R(303, "QUERY_CONSUME_TIME_SPAN", kNone, CheckRule::Fields, kGet, {F(kT, "topic"), F(kG, "group")}),
    R(304, "GET_SYSTEM_TOPIC_LIST_FROM_NS", kNamesrv, CheckRule::None, 0, {}),
    R(305, "GET_SYSTEM_TOPIC_LIST_FROM_BROKER", kBroker, CheckRule::OwnCluster, kGet, {}, false, "no check"),
    R(306, "CLEAN_EXPIRED_CONSUMEQUEUE", kNone, CheckRule::OwnCluster, kUpdate, {}, false, "no check"),
    R(307, "GET_CONSUMER_RUNNING_INFO", kBroker, CheckRule::Fields, kGet, {F(kG, "consumerGroup")}),
    R(308, "QUERY_CORRECTION_OFFSET", kNone, CheckRule::Fields, kGet, {F(kG, "filterGroups", ','), F(kG, "compareGroup"), F(kT, "topic")}),
    R(309, "CONSUME_MESSAGE_DIRECTLY", kBroker, CheckRule::Fields, kSub, {F(kG, "consumerGroup"), F(kT, "topic")}),
    R(310, "SEND_MESSAGE_V2", kBroker, CheckRule::Send, kPub, {F(kT, "b")}),
    R(311, "GET_UNIT_TOPIC_LIST", kNone, CheckRule::None, 0, {}),
    R(312, "GET_HAS_UNIT_SUB_TOPIC_LIST", kNone, CheckRule::None, 0, {}),
    R(313, "GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST", kNone, CheckRule::None, 0, {}),
    R(314, "CLONE_GROUP_OFFSET", kBroker, CheckRule::Fields, kUpdate, {F(kG, "destGroup"), F(kT, "topic")}),
    R(315, "VIEW_BROKER_STATS_DATA", kBroker, CheckRule::OwnCluster, kGet, {}),
    R(316, "CLEAN_UNUSED_TOPIC", kNone, CheckRule::OwnCluster, kUpdate, {}, false, "no check"),
    R(317, "GET_BROKER_CONSUME_STATS", kBroker, CheckRule::OwnCluster, kGet, {}),
    R(318, "UPDATE_NAMESRV_CONFIG", kNamesrv, CheckRule::OwnCluster, kUpdate, {}, false, "no check"),
    R(319, "GET_NAMESRV_CONFIG", kNamesrv, CheckRule::OwnCluster, kGet, {}, false, "no check"),
    R(320, "SEND_BATCH_MESSAGE", kBroker, CheckRule::Send, kPub, {F(kT, "b")}),
    R(321, "QUERY_CONSUME_QUEUE", kNone, CheckRule::Fields, kGet, {F(kT, "topic"), F(kG, "consumerGroup")}),
    R(322, "QUERY_DATA_VERSION", kNamesrv, CheckRule::Fields, kGet, {F(kC, "clusterName")}, false, "", true),
    R(323, "RESUME_CHECK_HALF_MESSAGE", kNone, CheckRule::Fields, kUpdate, {F(kT, "topic")}),
    R(324, "SEND_REPLY_MESSAGE", kBroker, CheckRule::Send, kPub, {F(kT, "topic")}, false, "no check (its header class is registered under 10 only)"),
    R(325, "SEND_REPLY_MESSAGE_V2", kBroker, CheckRule::Send, kPub, {F(kT, "b")}, false, "no check (its header class is registered under 310 only)"),
    R(326, "PUSH_REPLY_MESSAGE_TO_CLIENT", kNone, CheckRule::ServerToClient, 0, {}),
    R(327, "ADD_WRITE_PERM_OF_BROKER", kNamesrv, CheckRule::OwnCluster, kUpdate, {}),
    R(328, "GET_ALL_PRODUCER_INFO", kBroker, CheckRule::OwnCluster, kGet, {}),
    R(329, "DELETE_EXPIRED_COMMITLOG", kNone, CheckRule::OwnCluster, kUpdate, {}, false, "no check"),
    R(343, "QUERY_TOPICS_BY_CONSUMER", kBroker, CheckRule::Fields, kGet, {F(kG, "group")}),
    R(345, "QUERY_SUBSCRIPTION_BY_CONSUMER", kBroker, CheckRule::Fields, kGet, {F(kG, "group"), F(kT, "topic")}),
    R(351, "GET_TOPIC_CONFIG", kBroker, CheckRule::Fields, kGet, {F(kT, "topic")}),
    R(352, "GET_SUBSCRIPTIONGROUP_CONFIG", kBroker, CheckRule::Fields, kGet, {F(kG, "group")}),
    R(353, "UPDATE_AND_GET_GROUP_FORBIDDEN", kNone, CheckRule::Fields, kUpdate, {F(kG, "group"), F(kT, "topic")}),
    R(354, "CHECK_ROCKSDB_CQ_WRITE_PROGRESS", kNone, CheckRule::Fields, kGet, {F(kT, "topic")}),
    R(355, "EXPORT_ROCKSDB_CONFIG_TO_JSON", kNone, CheckRule::OwnCluster, kGet, {}),
    R(361, "LITE_PULL_MESSAGE", kBroker, CheckRule::Pull, kSub, {F(kT, "topic"), F(kG, "consumerGroup")}, false, "no check (its header class is registered under 11 only)"),
    R(370, "RECALL_MESSAGE", kBroker, CheckRule::Fields, kPub, {F(kT, "topic")}),
    R(400, "QUERY_ASSIGNMENT", kBroker, CheckRule::BodyGroupTopic, kSub, {F(kG, "consumerGroup"), F(kT, "topic")}, false, "no check"),
    R(401, "SET_MESSAGE_REQUEST_MODE", kBroker, CheckRule::BodyGroupTopic, kUpdate, {F(kG, "consumerGroup"), F(kT, "topic")}, false, "no check"),
    R(402, "GET_ALL_MESSAGE_REQUEST_MODE", kBroker, CheckRule::OwnCluster, kGet, {}, false, "no check"),
    R(513, "UPDATE_AND_CREATE_STATIC_TOPIC", kBroker, CheckRule::Fields, kCreate, {F(kT, "topic")}, false, "no check (its header class is registered under 17 only)"),
    R(901, "GET_FLUSH_SAMPLES", kBroker, CheckRule::OwnCluster, kGet, {}, false, "MQDesk extension at the broker port; RocketMQ 5.5 defines 901 as GET_BROKER_MEMBER_GROUP, a NameServer request (Cluster ← clusterName, Get), which MQDesk does not serve"),
    R(902, "GET_ACTIVITY_TOTALS", kBroker, CheckRule::OwnCluster, kGet, {}, false, "MQDesk extension at the broker port; RocketMQ 5.5 defines 902 as ADD_BROKER, a broker-container request (own cluster, Update), which MQDesk does not serve"),
    R(903, "GET_TIMER_TIMELINE", kBroker, CheckRule::OwnCluster, kGet, {}, false, "MQDesk extension at the broker port; RocketMQ 5.5 defines 903 as REMOVE_BROKER, a broker-container request (Cluster ← brokerClusterName, Update), which MQDesk does not serve"),
    R(904, "GET_POP_STATS", kBroker, CheckRule::OwnCluster, kGet, {}, false, "MQDesk extension at the broker port; RocketMQ 5.5 defines 904 as BROKER_HEARTBEAT, a NameServer/controller request (Cluster ← clusterName, Update), which MQDesk does not serve"),
    R(905, "NOTIFY_MIN_BROKER_ID_CHANGE", kNone, CheckRule::OwnCluster, kUpdate, {}),
    R(906, "EXCHANGE_BROKER_HA_INFO", kNone, CheckRule::OwnCluster, kUpdate, {}),
    R(907, "GET_BROKER_HA_STATUS", kNone, CheckRule::OwnCluster, kGet, {}, false, "no check"),
    R(908, "RESET_MASTER_FLUSH_OFFSET", kNone, CheckRule::OwnCluster, kUpdate, {}),
    R(1001, "CONTROLLER_ALTER_SYNC_STATE_SET", kNone, CheckRule::OwnCluster, kUpdate, {}),
    R(1002, "CONTROLLER_ELECT_MASTER", kNone, CheckRule::Fields, kUpdate, {F(kC, "clusterName")}, false, "", true),
    R(1003, "CONTROLLER_REGISTER_BROKER", kNone, CheckRule::Fields, kUpdate, {F(kC, "clusterName")}, false, "", true),
    R(1004, "CONTROLLER_GET_REPLICA_INFO", kNone, CheckRule::OwnCluster, kGet, {}),
    R(1005, "CONTROLLER_GET_METADATA_INFO", kNone, CheckRule::None, 0, {}),
    R(1006, "CONTROLLER_GET_SYNC_STATE_DATA", kNone, CheckRule::None, 0, {}),
    R(1007, "GET_BROKER_EPOCH_CACHE", kNone, CheckRule::OwnCluster, kGet, {}, false, "no check"),
    R(1008, "NOTIFY_BROKER_ROLE_CHANGED", kNone, CheckRule::OwnCluster, kUpdate, {}),
    R(1009, "UPDATE_CONTROLLER_CONFIG", kNone, CheckRule::None, 0, {}),
    R(1010, "GET_CONTROLLER_CONFIG", kNone, CheckRule::None, 0, {}),
    R(1011, "CLEAN_BROKER_DATA", kNone, CheckRule::Fields, kUpdate, {F(kC, "clusterName")}, false, "", true),
    R(1012, "CONTROLLER_GET_NEXT_BROKER_ID", kNone, CheckRule::Fields, kGet, {F(kC, "clusterName")}, false, "", true),
    R(1013, "CONTROLLER_APPLY_BROKER_ID", kNone, CheckRule::Fields, kUpdate, {F(kC, "clusterName")}, false, "", true),
    R(1014, "BROKER_CLOSE_CHANNEL_REQUEST", kNone, CheckRule::None, 0, {}),
    R(1015, "CHECK_NOT_ACTIVE_BROKER_REQUEST", kNone, CheckRule::None, 0, {}),
    R(1016, "GET_BROKER_LIVE_INFO_REQUEST", kNone, CheckRule::None, 0, {}),
    R(1017, "GET_SYNC_STATE_DATA_REQUEST", kNone, CheckRule::None, 0, {}),
    R(1018, "RAFT_BROKER_HEART_BEAT_EVENT_REQUEST", kNone, CheckRule::None, 0, {}),
    R(2001, "UPDATE_COLD_DATA_FLOW_CTR_CONFIG", kNone, CheckRule::OwnCluster, kUpdate, {}, false, "no check"),
    R(2002, "REMOVE_COLD_DATA_FLOW_CTR_CONFIG", kNone, CheckRule::OwnCluster, kUpdate, {}, false, "no check"),
    R(2003, "GET_COLD_DATA_FLOW_CTR_INFO", kNone, CheckRule::OwnCluster, kGet, {}, false, "no check"),
    R(2004, "SET_COMMITLOG_READ_MODE", kNone, CheckRule::OwnCluster, kUpdate, {}, false, "no check"),
    R(3001, "AUTH_CREATE_USER", kBroker, CheckRule::OwnCluster, kUpdate, {}),
    R(3002, "AUTH_UPDATE_USER", kBroker, CheckRule::OwnCluster, kUpdate, {}),
    R(3003, "AUTH_DELETE_USER", kBroker, CheckRule::OwnCluster, kUpdate, {}),
    R(3004, "AUTH_GET_USER", kBroker, CheckRule::OwnCluster, kGet, {}),
    R(3005, "AUTH_LIST_USER", kBroker, CheckRule::OwnCluster, kGet, {}),
    R(3006, "AUTH_CREATE_ACL", kBroker, CheckRule::OwnCluster, kUpdate, {}),
    R(3007, "AUTH_UPDATE_ACL", kBroker, CheckRule::OwnCluster, kUpdate, {}),
    R(3008, "AUTH_DELETE_ACL", kBroker, CheckRule::OwnCluster, kUpdate, {}),
    R(3009, "AUTH_GET_ACL", kBroker, CheckRule::OwnCluster, kGet, {}),
    R(3010, "AUTH_LIST_ACL", kBroker, CheckRule::OwnCluster, kGet, {}),
    R(5001, "SWITCH_TIMER_ENGINE", kNone, CheckRule::OwnCluster, kUpdate, {}, false, "no check"),
    R(5002, "DELETE_TOPIC_IN_BROKER_LIST", kNone, CheckRule::OwnCluster, kUpdate, {}, false, "no check"),
    R(5003, "DELETE_SUBSCRIPTION_GROUP_LIST", kNone, CheckRule::OwnCluster, kUpdate, {}, false, "no check"),
    R(200050, "POP_MESSAGE", kBroker, CheckRule::Fields, kSub, {F(kG, "consumerGroup"), F(kT, "topic")}),
    R(200051, "ACK_MESSAGE", kBroker, CheckRule::Fields, kSub, {F(kG, "consumerGroup"), F(kT, "topic")}),
    R(200052, "PEEK_MESSAGE", kBroker, CheckRule::Fields, kSub, {F(kT, "topic"), F(kG, "consumerGroup")}),
    R(200053, "CHANGE_MESSAGE_INVISIBLETIME", kBroker, CheckRule::Fields, kSub, {F(kG, "consumerGroup"), F(kT, "topic")}),
    R(200054, "NOTIFICATION", kBroker, CheckRule::Fields, kSub, {F(kG, "consumerGroup"), F(kT, "topic")}),
    R(200055, "POLLING_INFO", kBroker, CheckRule::Fields, kGet, {F(kG, "consumerGroup"), F(kT, "topic")}),
    R(200056, "POP_ROLLBACK", kNone, CheckRule::OwnCluster, kUpdate, {}, false, "no check"),
    R(200070, "POP_LITE_MESSAGE", kBroker, CheckRule::Fields, kSub, {F(kG, "consumerGroup"), F(kT, "topic")}),
    R(200071, "LITE_SUBSCRIPTION_CTL", kBroker, CheckRule::OwnCluster, kUpdate, {}, false, "no check"),
    R(200072, "ACK_LITE_MESSAGE", kNone, CheckRule::None, 0, {}),
    R(200073, "NOTIFY_UNSUBSCRIBE_LITE", kNone, CheckRule::ServerToClient, 0, {}),
    R(200074, "GET_BROKER_LITE_INFO", kBroker, CheckRule::OwnCluster, kGet, {}, false, "no check"),
    R(200075, "GET_PARENT_TOPIC_INFO", kBroker, CheckRule::Fields, kGet, {F(kT, "topic")}),
    R(200076, "GET_LITE_TOPIC_INFO", kBroker, CheckRule::Fields, kGet, {F(kT, "parentTopic")}),
    R(200077, "GET_LITE_CLIENT_INFO", kBroker, CheckRule::Fields, kGet, {F(kT, "parentTopic"), F(kG, "group")}),
    R(200078, "GET_LITE_GROUP_INFO", kBroker, CheckRule::Fields, kGet, {F(kG, "group")}),
    R(200079, "TRIGGER_LITE_DISPATCH", kBroker, CheckRule::Fields, kUpdate, {F(kG, "group")}),
    R(200151, "BATCH_ACK_MESSAGE", kBroker, CheckRule::BatchAck, kSub, {}, false, "no check"),
};
// clang-format on

} // namespace

std::string_view resourceTypeName(ResourceType type)
{
    switch (type) {
    case ResourceType::Unknown: return "Unknown";
    case ResourceType::Any: return "Any";
    case ResourceType::Cluster: return "Cluster";
    case ResourceType::Namespace: return "Namespace";
    case ResourceType::Topic: return "Topic";
    case ResourceType::Group: return "Group";
    }
    return "Unknown";
}

namespace {

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

constexpr std::pair<uint16_t, std::string_view> kActionNames[] = {
    {kAll, "All"}, {kAny, "Any"},       {kPub, "Pub"},       {kSub, "Sub"}, {kCreate, "Create"},
    {kUpdate, "Update"}, {kDelete, "Delete"}, {kGet, "Get"}, {kList, "List"},
};

} // namespace

std::optional<ResourceType> parseResourceType(std::string_view name)
{
    for (ResourceType type : {ResourceType::Any, ResourceType::Cluster, ResourceType::Namespace, ResourceType::Topic,
                              ResourceType::Group}) {
        if (equalsIgnoreCase(name, resourceTypeName(type)))
            return type;
    }
    return std::nullopt;
}

std::string actionNames(uint16_t actions)
{
    std::string names;
    for (const auto &[bit, name] : kActionNames) {
        if (actions & bit) {
            if (!names.empty())
                names += ',';
            names += name;
        }
    }
    return names;
}

std::optional<uint16_t> parseActions(std::string_view text)
{
    uint16_t actions = 0;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find_first_of(", ", start);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view word = text.substr(start, end - start);
        if (!word.empty()) {
            const auto it = std::find_if(std::begin(kActionNames), std::end(kActionNames),
                                         [&](const auto &entry) { return equalsIgnoreCase(word, entry.second); });
            if (it == std::end(kActionNames))
                return std::nullopt;
            actions |= it->first;
        }
        start = end + 1;
    }
    return actions == 0 ? std::nullopt : std::optional<uint16_t>(actions);
}

std::span<const RequestRule> requestRules()
{
    return kRules;
}

const RequestRule *findRequestRule(int32_t code)
{
    const auto it = std::lower_bound(std::begin(kRules), std::end(kRules), code,
                                     [](const RequestRule &rule, int32_t value) { return rule.code < value; });
    return it != std::end(kRules) && it->code == code ? &*it : nullptr;
}

namespace {

class CheckBuilder
{
public:
    CheckBuilder(const RequestRule &rule, std::vector<Check> &checks) : rule_(rule), checks_(checks) {}

    void add(ResourceType type, std::string name, uint16_t actions)
    {
        checks_.push_back(Check{type, std::move(name), actions});
    }
    // A topic name as Java maps it: %RETRY%<group> is the group.
    void addTopic(const std::string &topic, uint16_t actions, uint16_t retryActions)
    {
        if (topic.starts_with(kRetryPrefix))
            add(ResourceType::Group, topic.substr(kRetryPrefix.size()), retryActions);
        else
            add(ResourceType::Topic, topic, actions);
    }
    void addGroup(const std::string &group, uint16_t actions)
    {
        add(ResourceType::Group, group.starts_with(kRetryPrefix) ? group.substr(kRetryPrefix.size()) : group, actions);
    }

    void fromFields(const remoting::ExtFields &fields, std::string_view ownCluster)
    {
        const size_t before = checks_.size();
        for (const FieldCheck &field : rule_.fields) {
            if (field.field.empty())
                continue;
            const std::string *value = fields.find(field.field);
            if (!value || (rule_.blankUnchecked && value->find_first_not_of(" \t") == std::string::npos))
                continue;
            forEachPiece(*value, field.splitter, [&](const std::string &piece) {
                if (field.type == ResourceType::Topic)
                    addTopic(piece, rule_.actions, rule_.actions);
                else
                    add(field.type, piece, rule_.actions);
            });
        }
        if (checks_.size() == before && rule_.ownClusterIfNone)
            add(ResourceType::Cluster, std::string(ownCluster), rule_.actions);
    }

    template <typename Fn>
    static void forEachPiece(const std::string &value, char splitter, Fn fn)
    {
        if (splitter == 0)
            return fn(value);
        size_t start = 0;
        while (start <= value.size()) {
            size_t end = value.find(splitter, start);
            if (end == std::string::npos)
                end = value.size();
            fn(value.substr(start, end - start));
            start = end + 1;
        }
    }

private:
    const RequestRule &rule_;
    std::vector<Check> &checks_;
};

std::string_view bodyOf(const remoting::RemotingCommand &request)
{
    return {reinterpret_cast<const char *>(request.body.data()), request.body.size()};
}

std::string jsonText(const common::JsonObject &object, std::string_view key, std::string_view shortKey = {})
{
    const common::JsonValue *value = shortKey.empty() ? nullptr : object.find(shortKey);
    if (!value)
        value = object.find(key);
    return value && value->isString() ? value->asString() : std::string();
}

std::optional<std::string> fromBody(const RequestRule &rule, const remoting::RemotingCommand &request,
                                    CheckBuilder &builder)
{
    common::JsonValue root;
    std::string error;
    if (!remoting::parseJsonObject(bodyOf(request), root, error))
        return "body: " + error;
    const common::JsonObject &object = root.asObject();
    if (rule.rule == CheckRule::BatchAck) {
        const common::JsonValue *acks = object.find("acks");
        if (!acks || !acks->isArray())
            return std::string("body: acks is not an array");
        for (const common::JsonValue &ack : acks->asArray()) {
            if (!ack.isObject())
                return std::string("body: an ack is not an object");
            builder.addGroup(jsonText(ack.asObject(), "consumerGroup", "c"), rule.actions);
            builder.addTopic(jsonText(ack.asObject(), "topic", "t"), rule.actions, rule.actions);
        }
        return std::nullopt;
    }
    for (const FieldCheck &field : rule.fields) {
        if (field.field.empty())
            continue;
        // A missing name is a check on "" (denied unless a policy grants `*`), never no check:
        // these bodies are read by processors that would default it.
        const std::string value = jsonText(object, field.field);
        if (field.type == ResourceType::Topic)
            builder.addTopic(value, rule.actions, rule.actions);
        else
            builder.addGroup(value, rule.actions);
    }
    return std::nullopt;
}

} // namespace

bool requestNamesItsResources(const RequestRule &rule)
{
    switch (rule.rule) {
    case CheckRule::Fields: return !rule.blankUnchecked && !rule.ownClusterIfNone && !rule.fields[0].field.empty();
    case CheckRule::Send:
    case CheckRule::Pull:
    case CheckRule::RouteLookup:
    case CheckRule::LockBatch:
    case CheckRule::BodyGroupTopic:
    case CheckRule::BatchAck: return true;
    case CheckRule::Heartbeat: // a producer's names no consumer group
    case CheckRule::OwnCluster:
    case CheckRule::ServerToClient:
    case CheckRule::None: return false;
    }
    return false;
}

std::optional<std::string> buildChecks(const RequestRule &rule, const remoting::RemotingCommand &request,
                                       std::string_view ownCluster, std::vector<Check> &checks)
{
    CheckBuilder builder(rule, checks);
    const remoting::ExtFields &fields = request.extFields;
    switch (rule.rule) {
    case CheckRule::Fields:
        builder.fromFields(fields, ownCluster);
        return std::nullopt;
    case CheckRule::OwnCluster:
        builder.add(ResourceType::Cluster, std::string(ownCluster), rule.actions);
        return std::nullopt;
    case CheckRule::Send:
        // Java 5.5: a send to %RETRY%G (a consumer's retry after a failure) needs SUB on G.
        if (const std::string *topic = fields.find(rule.fields[0].field))
            builder.addTopic(*topic, kPub, kSub);
        return std::nullopt;
    case CheckRule::Pull: {
        // Java drops the topic check for a retry topic; MQDesk checks the group that owns it
        // instead, so one group's grant does not read another group's retried messages.
        const std::string *topic = fields.find(rule.fields[0].field);
        if (topic)
            builder.addTopic(*topic, rule.actions, rule.actions);
        if (const std::string *group = fields.find(rule.fields[1].field))
            builder.addGroup(*group, rule.actions);
        return std::nullopt;
    }
    case CheckRule::RouteLookup:
        if (const std::string *topic = fields.find(rule.fields[0].field))
            builder.addTopic(*topic, rule.actions, kSub | kGet);
        return std::nullopt;
    case CheckRule::Heartbeat: {
        remoting::HeartbeatData heartbeat;
        std::string error;
        if (!remoting::HeartbeatData::fromJson(bodyOf(request), heartbeat, error))
            return "heartbeat body: " + error;
        for (const remoting::ConsumerData &consumer : heartbeat.consumerDataSet) {
            builder.addGroup(consumer.groupName, rule.actions);
            for (const remoting::SubscriptionData &subscription : consumer.subscriptionDataSet)
                builder.addTopic(subscription.topic, rule.actions, rule.actions);
        }
        return std::nullopt;
    }
    case CheckRule::LockBatch: {
        remoting::LockBatchRequestBody body;
        std::string error;
        if (!remoting::LockBatchRequestBody::fromJson(bodyOf(request), body, error))
            return "lock body: " + error;
        builder.addGroup(body.consumerGroup, rule.actions);
        for (const remoting::MessageQueue &queue : body.mqSet)
            builder.addTopic(queue.topic, rule.actions, rule.actions);
        return std::nullopt;
    }
    case CheckRule::BodyGroupTopic:
    case CheckRule::BatchAck:
        return fromBody(rule, request, builder);
    case CheckRule::ServerToClient:
        return "request code " + std::to_string(rule.code) + " is sent by brokers to clients, not to a server";
    case CheckRule::None:
        return std::nullopt;
    }
    return std::nullopt;
}

} // namespace mqdesk::acl
