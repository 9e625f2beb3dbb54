#include "broker/remoting/remoting_codes.h"

#include <algorithm>
#include <iterator>

namespace mqdesk::remoting {

namespace {

struct CodeName
{
    int32_t code;
    std::string_view name;
};

// Lookups are linear: they serve logs and admin listings, not the request path.
constexpr CodeName kRequestNames[] = {
    {RequestCode::kSendMessage, "SEND_MESSAGE"},
    {RequestCode::kPullMessage, "PULL_MESSAGE"},
    {RequestCode::kQueryMessage, "QUERY_MESSAGE"},
    {RequestCode::kQueryBrokerOffset, "QUERY_BROKER_OFFSET"},
    {RequestCode::kQueryConsumerOffset, "QUERY_CONSUMER_OFFSET"},
    {RequestCode::kUpdateConsumerOffset, "UPDATE_CONSUMER_OFFSET"},
    {RequestCode::kUpdateAndCreateTopic, "UPDATE_AND_CREATE_TOPIC"},
    {RequestCode::kUpdateAndCreateTopicList, "UPDATE_AND_CREATE_TOPIC_LIST"},
    {RequestCode::kGetAllTopicConfig, "GET_ALL_TOPIC_CONFIG"},
    {RequestCode::kGetTopicConfigList, "GET_TOPIC_CONFIG_LIST"},
    {RequestCode::kGetTopicNameList, "GET_TOPIC_NAME_LIST"},
    {RequestCode::kUpdateBrokerConfig, "UPDATE_BROKER_CONFIG"},
    {RequestCode::kGetBrokerConfig, "GET_BROKER_CONFIG"},
    {RequestCode::kTriggerDeleteFiles, "TRIGGER_DELETE_FILES"},
    {RequestCode::kGetBrokerRuntimeInfo, "GET_BROKER_RUNTIME_INFO"},
    {RequestCode::kSearchOffsetByTimestamp, "SEARCH_OFFSET_BY_TIMESTAMP"},
    {RequestCode::kGetMaxOffset, "GET_MAX_OFFSET"},
    {RequestCode::kGetMinOffset, "GET_MIN_OFFSET"},
    {RequestCode::kGetEarliestMsgStoretime, "GET_EARLIEST_MSG_STORETIME"},
    {RequestCode::kViewMessageById, "VIEW_MESSAGE_BY_ID"},
    {RequestCode::kHeartBeat, "HEART_BEAT"},
    {RequestCode::kUnregisterClient, "UNREGISTER_CLIENT"},
    {RequestCode::kConsumerSendMsgBack, "CONSUMER_SEND_MSG_BACK"},
    {RequestCode::kEndTransaction, "END_TRANSACTION"},
    {RequestCode::kGetConsumerListByGroup, "GET_CONSUMER_LIST_BY_GROUP"},
    {RequestCode::kCheckTransactionState, "CHECK_TRANSACTION_STATE"},
    {RequestCode::kNotifyConsumerIdsChanged, "NOTIFY_CONSUMER_IDS_CHANGED"},
    {RequestCode::kLockBatchMq, "LOCK_BATCH_MQ"},
    {RequestCode::kUnlockBatchMq, "UNLOCK_BATCH_MQ"},
    {RequestCode::kGetAllConsumerOffset, "GET_ALL_CONSUMER_OFFSET"},
    {RequestCode::kGetAllDelayOffset, "GET_ALL_DELAY_OFFSET"},
    {RequestCode::kCheckClientConfig, "CHECK_CLIENT_CONFIG"},
    {RequestCode::kGetClientConfig, "GET_CLIENT_CONFIG"},
    {RequestCode::kUpdateAndCreateAclConfig, "UPDATE_AND_CREATE_ACL_CONFIG"},
    {RequestCode::kDeleteAclConfig, "DELETE_ACL_CONFIG"},
    {RequestCode::kGetBrokerClusterAclInfo, "GET_BROKER_CLUSTER_ACL_INFO"},
    {RequestCode::kUpdateGlobalWhiteAddrsConfig, "UPDATE_GLOBAL_WHITE_ADDRS_CONFIG"},
    {RequestCode::kPutKvConfig, "PUT_KV_CONFIG"},
    {RequestCode::kGetKvConfig, "GET_KV_CONFIG"},
    {RequestCode::kDeleteKvConfig, "DELETE_KV_CONFIG"},
    {RequestCode::kRegisterBroker, "REGISTER_BROKER"},
    {RequestCode::kUnregisterBroker, "UNREGISTER_BROKER"},
    {RequestCode::kGetRouteinfoByTopic, "GET_ROUTEINFO_BY_TOPIC"},
    {RequestCode::kGetBrokerClusterInfo, "GET_BROKER_CLUSTER_INFO"},
    {RequestCode::kUpdateAndCreateSubscriptiongroup, "UPDATE_AND_CREATE_SUBSCRIPTIONGROUP"},
    {RequestCode::kGetAllSubscriptiongroupConfig, "GET_ALL_SUBSCRIPTIONGROUP_CONFIG"},
    {RequestCode::kGetTopicStatsInfo, "GET_TOPIC_STATS_INFO"},
    {RequestCode::kGetConsumerConnectionList, "GET_CONSUMER_CONNECTION_LIST"},
    {RequestCode::kGetProducerConnectionList, "GET_PRODUCER_CONNECTION_LIST"},
    {RequestCode::kWipeWritePermOfBroker, "WIPE_WRITE_PERM_OF_BROKER"},
    {RequestCode::kGetAllTopicListFromNameserver, "GET_ALL_TOPIC_LIST_FROM_NAMESERVER"},
    {RequestCode::kDeleteSubscriptiongroup, "DELETE_SUBSCRIPTIONGROUP"},
    {RequestCode::kGetConsumeStats, "GET_CONSUME_STATS"},
    {RequestCode::kSuspendConsumer, "SUSPEND_CONSUMER"},
    {RequestCode::kResumeConsumer, "RESUME_CONSUMER"},
    {RequestCode::kResetConsumerOffsetInConsumer, "RESET_CONSUMER_OFFSET_IN_CONSUMER"},
    {RequestCode::kResetConsumerOffsetInBroker, "RESET_CONSUMER_OFFSET_IN_BROKER"},
    {RequestCode::kAdjustConsumerThreadPool, "ADJUST_CONSUMER_THREAD_POOL"},
    {RequestCode::kWhoConsumeTheMessage, "WHO_CONSUME_THE_MESSAGE"},
    {RequestCode::kDeleteTopicInBroker, "DELETE_TOPIC_IN_BROKER"},
    {RequestCode::kDeleteTopicInNamesrv, "DELETE_TOPIC_IN_NAMESRV"},
    {RequestCode::kRegisterTopicInNamesrv, "REGISTER_TOPIC_IN_NAMESRV"},
    {RequestCode::kGetKvlistByNamespace, "GET_KVLIST_BY_NAMESPACE"},
    {RequestCode::kResetConsumerClientOffset, "RESET_CONSUMER_CLIENT_OFFSET"},
    {RequestCode::kGetConsumerStatusFromClient, "GET_CONSUMER_STATUS_FROM_CLIENT"},
    {RequestCode::kInvokeBrokerToResetOffset, "INVOKE_BROKER_TO_RESET_OFFSET"},
    {RequestCode::kInvokeBrokerToGetConsumerStatus, "INVOKE_BROKER_TO_GET_CONSUMER_STATUS"},
    {RequestCode::kGetTopicsByCluster, "GET_TOPICS_BY_CLUSTER"},
    {RequestCode::kUpdateAndCreateSubscriptiongroupList, "UPDATE_AND_CREATE_SUBSCRIPTIONGROUP_LIST"},
    {RequestCode::kQueryTopicConsumeByWho, "QUERY_TOPIC_CONSUME_BY_WHO"},
    {RequestCode::kRegisterFilterServer, "REGISTER_FILTER_SERVER"},
    {RequestCode::kRegisterMessageFilterClass, "REGISTER_MESSAGE_FILTER_CLASS"},
    {RequestCode::kQueryConsumeTimeSpan, "QUERY_CONSUME_TIME_SPAN"},
    {RequestCode::kGetSystemTopicListFromNs, "GET_SYSTEM_TOPIC_LIST_FROM_NS"},
    {RequestCode::kGetSystemTopicListFromBroker, "GET_SYSTEM_TOPIC_LIST_FROM_BROKER"},
    {RequestCode::kCleanExpiredConsumequeue, "CLEAN_EXPIRED_CONSUMEQUEUE"},
    {RequestCode::kGetConsumerRunningInfo, "GET_CONSUMER_RUNNING_INFO"},
    {RequestCode::kQueryCorrectionOffset, "QUERY_CORRECTION_OFFSET"},
    {RequestCode::kConsumeMessageDirectly, "CONSUME_MESSAGE_DIRECTLY"},
    {RequestCode::kSendMessageV2, "SEND_MESSAGE_V2"},
    {RequestCode::kGetUnitTopicList, "GET_UNIT_TOPIC_LIST"},
    {RequestCode::kGetHasUnitSubTopicList, "GET_HAS_UNIT_SUB_TOPIC_LIST"},
    {RequestCode::kGetHasUnitSubUnunitTopicList, "GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST"},
    {RequestCode::kCloneGroupOffset, "CLONE_GROUP_OFFSET"},
    {RequestCode::kViewBrokerStatsData, "VIEW_BROKER_STATS_DATA"},
    {RequestCode::kCleanUnusedTopic, "CLEAN_UNUSED_TOPIC"},
    {RequestCode::kGetBrokerConsumeStats, "GET_BROKER_CONSUME_STATS"},
    {RequestCode::kUpdateNamesrvConfig, "UPDATE_NAMESRV_CONFIG"},
    {RequestCode::kGetNamesrvConfig, "GET_NAMESRV_CONFIG"},
    {RequestCode::kSendBatchMessage, "SEND_BATCH_MESSAGE"},
    {RequestCode::kQueryConsumeQueue, "QUERY_CONSUME_QUEUE"},
    {RequestCode::kQueryDataVersion, "QUERY_DATA_VERSION"},
    {RequestCode::kResumeCheckHalfMessage, "RESUME_CHECK_HALF_MESSAGE"},
    {RequestCode::kSendReplyMessage, "SEND_REPLY_MESSAGE"},
    {RequestCode::kSendReplyMessageV2, "SEND_REPLY_MESSAGE_V2"},
    {RequestCode::kPushReplyMessageToClient, "PUSH_REPLY_MESSAGE_TO_CLIENT"},
    {RequestCode::kAddWritePermOfBroker, "ADD_WRITE_PERM_OF_BROKER"},
    {RequestCode::kGetAllProducerInfo, "GET_ALL_PRODUCER_INFO"},
    {RequestCode::kDeleteExpiredCommitlog, "DELETE_EXPIRED_COMMITLOG"},
    {RequestCode::kQueryTopicsByConsumer, "QUERY_TOPICS_BY_CONSUMER"},
    {RequestCode::kQuerySubscriptionByConsumer, "QUERY_SUBSCRIPTION_BY_CONSUMER"},
    {RequestCode::kGetTopicConfig, "GET_TOPIC_CONFIG"},
    {RequestCode::kGetSubscriptiongroupConfig, "GET_SUBSCRIPTIONGROUP_CONFIG"},
    {RequestCode::kLitePullMessage, "LITE_PULL_MESSAGE"},
    {RequestCode::kRecallMessage, "RECALL_MESSAGE"},
    {RequestCode::kQueryAssignment, "QUERY_ASSIGNMENT"},
    {RequestCode::kSetMessageRequestMode, "SET_MESSAGE_REQUEST_MODE"},
    {RequestCode::kGetAllMessageRequestMode, "GET_ALL_MESSAGE_REQUEST_MODE"},
    {RequestCode::kAuthCreateUser, "AUTH_CREATE_USER"},
    {RequestCode::kAuthUpdateUser, "AUTH_UPDATE_USER"},
    {RequestCode::kAuthDeleteUser, "AUTH_DELETE_USER"},
    {RequestCode::kAuthGetUser, "AUTH_GET_USER"},
    {RequestCode::kAuthListUser, "AUTH_LIST_USER"},
    {RequestCode::kAuthCreateAcl, "AUTH_CREATE_ACL"},
    {RequestCode::kAuthUpdateAcl, "AUTH_UPDATE_ACL"},
    {RequestCode::kAuthDeleteAcl, "AUTH_DELETE_ACL"},
    {RequestCode::kAuthGetAcl, "AUTH_GET_ACL"},
    {RequestCode::kAuthListAcl, "AUTH_LIST_ACL"},
    {RequestCode::kPopMessage, "POP_MESSAGE"},
    {RequestCode::kAckMessage, "ACK_MESSAGE"},
    {RequestCode::kPeekMessage, "PEEK_MESSAGE"},
    {RequestCode::kChangeMessageInvisibleTime, "CHANGE_MESSAGE_INVISIBLETIME"},
    {RequestCode::kNotification, "NOTIFICATION"},
    {RequestCode::kPollingInfo, "POLLING_INFO"},
    {RequestCode::kBatchAckMessage, "BATCH_ACK_MESSAGE"},
    {RequestCode::kGetFlushSamples, "GET_FLUSH_SAMPLES"}, // MQDesk extension
    {RequestCode::kGetActivityTotals, "GET_ACTIVITY_TOTALS"}, // MQDesk extension
    {RequestCode::kGetTimerTimeline, "GET_TIMER_TIMELINE"},   // MQDesk extension
    {RequestCode::kGetPopStats, "GET_POP_STATS"},             // MQDesk extension
};

constexpr CodeName kResponseNames[] = {
    {ResponseCode::kSuccess, "SUCCESS"},
    {ResponseCode::kSystemError, "SYSTEM_ERROR"},
    {ResponseCode::kSystemBusy, "SYSTEM_BUSY"},
    {ResponseCode::kRequestCodeNotSupported, "REQUEST_CODE_NOT_SUPPORTED"},
    {ResponseCode::kTransactionFailed, "TRANSACTION_FAILED"},
    {ResponseCode::kFlushDiskTimeout, "FLUSH_DISK_TIMEOUT"},
    {ResponseCode::kSlaveNotAvailable, "SLAVE_NOT_AVAILABLE"},
    {ResponseCode::kFlushSlaveTimeout, "FLUSH_SLAVE_TIMEOUT"},
    {ResponseCode::kMessageIllegal, "MESSAGE_ILLEGAL"},
    {ResponseCode::kServiceNotAvailable, "SERVICE_NOT_AVAILABLE"},
    {ResponseCode::kVersionNotSupported, "VERSION_NOT_SUPPORTED"},
    {ResponseCode::kNoPermission, "NO_PERMISSION"},
    {ResponseCode::kTopicNotExist, "TOPIC_NOT_EXIST"},
    {ResponseCode::kTopicExistAlready, "TOPIC_EXIST_ALREADY"},
    {ResponseCode::kPullNotFound, "PULL_NOT_FOUND"},
    {ResponseCode::kPullRetryImmediately, "PULL_RETRY_IMMEDIATELY"},
    {ResponseCode::kPullOffsetMoved, "PULL_OFFSET_MOVED"},
    {ResponseCode::kQueryNotFound, "QUERY_NOT_FOUND"},
    {ResponseCode::kSubscriptionParseFailed, "SUBSCRIPTION_PARSE_FAILED"},
    {ResponseCode::kSubscriptionNotExist, "SUBSCRIPTION_NOT_EXIST"},
    {ResponseCode::kSubscriptionNotLatest, "SUBSCRIPTION_NOT_LATEST"},
    {ResponseCode::kSubscriptionGroupNotExist, "SUBSCRIPTION_GROUP_NOT_EXIST"},
    {ResponseCode::kFilterDataNotExist, "FILTER_DATA_NOT_EXIST"},
    {ResponseCode::kFilterDataNotLatest, "FILTER_DATA_NOT_LATEST"},
    {ResponseCode::kInvalidParameter, "INVALID_PARAMETER"},
    {ResponseCode::kTransactionShouldCommit, "TRANSACTION_SHOULD_COMMIT"},
    {ResponseCode::kTransactionShouldRollback, "TRANSACTION_SHOULD_ROLLBACK"},
    {ResponseCode::kTransactionStateUnknow, "TRANSACTION_STATE_UNKNOW"},
    {ResponseCode::kTransactionStateGroupWrong, "TRANSACTION_STATE_GROUP_WRONG"},
    {ResponseCode::kNoBuyerId, "NO_BUYER_ID"},
    {ResponseCode::kNotInCurrentUnit, "NOT_IN_CURRENT_UNIT"},
    {ResponseCode::kConsumerNotOnline, "CONSUMER_NOT_ONLINE"},
    {ResponseCode::kConsumeMsgTimeout, "CONSUME_MSG_TIMEOUT"},
    {ResponseCode::kNoMessage, "NO_MESSAGE"},
    {ResponseCode::kUpdateAndCreateAclConfigFailed, "UPDATE_AND_CREATE_ACL_CONFIG_FAILED"},
    {ResponseCode::kDeleteAclConfigFailed, "DELETE_ACL_CONFIG_FAILED"},
    {ResponseCode::kUpdateGlobalWhiteAddrsConfigFailed, "UPDATE_GLOBAL_WHITE_ADDRS_CONFIG_FAILED"},
    {ResponseCode::kBrokerDispatchNotComplete, "BROKER_DISPATCH_NOT_COMPLETE"},
    {ResponseCode::kBroadcastConsumption, "BROADCAST_CONSUMPTION"},
    {ResponseCode::kFlowControl, "FLOW_CONTROL"},
    {ResponseCode::kNotLeaderForQueue, "NOT_LEADER_FOR_QUEUE"},
    {ResponseCode::kIllegalOperation, "ILLEGAL_OPERATION"},
    {ResponseCode::kGoAway, "GO_AWAY"},
    {ResponseCode::kUserNotExist, "USER_NOT_EXIST"},
    {ResponseCode::kPolicyNotExist, "POLICY_NOT_EXIST"},
};

template<size_t N>
std::string_view findName(const CodeName (&table)[N], int32_t code)
{
    const auto it = std::find_if(std::begin(table), std::end(table),
                                 [code](const CodeName &entry) { return entry.code == code; });
    return it == std::end(table) ? std::string_view() : it->name;
}

std::string describe(std::string_view name, int32_t code)
{
    if (name.empty())
        return std::to_string(code);
    return std::string(name) + '(' + std::to_string(code) + ')';
}

} // namespace

std::string_view requestCodeName(int32_t code) { return findName(kRequestNames, code); }

std::string_view responseCodeName(int32_t code) { return findName(kResponseNames, code); }

std::string describeRequestCode(int32_t code) { return describe(requestCodeName(code), code); }

std::string describeResponseCode(int32_t code) { return describe(responseCodeName(code), code); }

} // namespace mqdesk::remoting
