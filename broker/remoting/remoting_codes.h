#pragma once

// RocketMQ remoting request and response codes (remoting spec §3.1, §3.2).
//
// Codes are plain int32 constants, not enums: a RemotingCommand must carry any code a peer
// sends, known or not (an unknown request code is answered with kRequestCodeNotSupported). The
// complete 4.9.8 list is here, reserved codes without a handler included, plus the [5.x]
// additions the spec names, so logs can name whatever a newer admin tool sends.

#include <cstdint>
#include <string>
#include <string_view>

namespace mqdesk::remoting {

struct RequestCode
{
    static constexpr int32_t kSendMessage = 10;
    static constexpr int32_t kPullMessage = 11;
    static constexpr int32_t kQueryMessage = 12;
    static constexpr int32_t kQueryBrokerOffset = 13;
    static constexpr int32_t kQueryConsumerOffset = 14;
    static constexpr int32_t kUpdateConsumerOffset = 15;
    static constexpr int32_t kUpdateAndCreateTopic = 17;
    static constexpr int32_t kUpdateAndCreateTopicList = 18; // [5.x]
    static constexpr int32_t kGetAllTopicConfig = 21;
    static constexpr int32_t kGetTopicConfigList = 22;
    static constexpr int32_t kGetTopicNameList = 23;
    static constexpr int32_t kUpdateBrokerConfig = 25;
    static constexpr int32_t kGetBrokerConfig = 26;
    static constexpr int32_t kTriggerDeleteFiles = 27;
    static constexpr int32_t kGetBrokerRuntimeInfo = 28;
    static constexpr int32_t kSearchOffsetByTimestamp = 29;
    static constexpr int32_t kGetMaxOffset = 30;
    static constexpr int32_t kGetMinOffset = 31;
    static constexpr int32_t kGetEarliestMsgStoretime = 32;
    static constexpr int32_t kViewMessageById = 33;
    static constexpr int32_t kHeartBeat = 34;
    static constexpr int32_t kUnregisterClient = 35;
    static constexpr int32_t kConsumerSendMsgBack = 36;
    static constexpr int32_t kEndTransaction = 37;
    static constexpr int32_t kGetConsumerListByGroup = 38;
    static constexpr int32_t kCheckTransactionState = 39;     // broker -> client
    static constexpr int32_t kNotifyConsumerIdsChanged = 40;  // broker -> client
    static constexpr int32_t kLockBatchMq = 41;
    static constexpr int32_t kUnlockBatchMq = 42;
    static constexpr int32_t kGetAllConsumerOffset = 43;
    static constexpr int32_t kGetAllDelayOffset = 45;
    static constexpr int32_t kCheckClientConfig = 46;
    static constexpr int32_t kGetClientConfig = 47; // [5.x]
    static constexpr int32_t kUpdateAndCreateAclConfig = 50;
    static constexpr int32_t kDeleteAclConfig = 51;
    static constexpr int32_t kGetBrokerClusterAclInfo = 52;
    static constexpr int32_t kUpdateGlobalWhiteAddrsConfig = 53;
    static constexpr int32_t kPutKvConfig = 100;
    static constexpr int32_t kGetKvConfig = 101;
    static constexpr int32_t kDeleteKvConfig = 102;
    static constexpr int32_t kRegisterBroker = 103;
    static constexpr int32_t kUnregisterBroker = 104;
    static constexpr int32_t kGetRouteinfoByTopic = 105;
    static constexpr int32_t kGetBrokerClusterInfo = 106;
    static constexpr int32_t kUpdateAndCreateSubscriptiongroup = 200;
    static constexpr int32_t kGetAllSubscriptiongroupConfig = 201;
    static constexpr int32_t kGetTopicStatsInfo = 202;
    static constexpr int32_t kGetConsumerConnectionList = 203;
    static constexpr int32_t kGetProducerConnectionList = 204;
    static constexpr int32_t kWipeWritePermOfBroker = 205;
    static constexpr int32_t kGetAllTopicListFromNameserver = 206;
    static constexpr int32_t kDeleteSubscriptiongroup = 207;
    static constexpr int32_t kGetConsumeStats = 208;
    static constexpr int32_t kSuspendConsumer = 209;
    static constexpr int32_t kResumeConsumer = 210;
    static constexpr int32_t kResetConsumerOffsetInConsumer = 211;
    static constexpr int32_t kResetConsumerOffsetInBroker = 212;
    static constexpr int32_t kAdjustConsumerThreadPool = 213;
    static constexpr int32_t kWhoConsumeTheMessage = 214;
    static constexpr int32_t kDeleteTopicInBroker = 215;
    static constexpr int32_t kDeleteTopicInNamesrv = 216;
    // Unused in 4.9.8; ali-ons names 217/218 GET_KV_CONFIG_BY_VALUE / DELETE_KV_CONFIG_BY_VALUE
    // but never sends them, so the name lookup follows 5.x.
    static constexpr int32_t kRegisterTopicInNamesrv = 217; // [5.x]
    static constexpr int32_t kGetKvlistByNamespace = 219;
    static constexpr int32_t kResetConsumerClientOffset = 220;     // broker -> client
    static constexpr int32_t kGetConsumerStatusFromClient = 221;   // broker -> client
    static constexpr int32_t kInvokeBrokerToResetOffset = 222;
    static constexpr int32_t kInvokeBrokerToGetConsumerStatus = 223;
    static constexpr int32_t kGetTopicsByCluster = 224;
    static constexpr int32_t kUpdateAndCreateSubscriptiongroupList = 225; // [5.x]
    static constexpr int32_t kQueryTopicConsumeByWho = 300;
    static constexpr int32_t kRegisterFilterServer = 301;
    static constexpr int32_t kRegisterMessageFilterClass = 302;
    static constexpr int32_t kQueryConsumeTimeSpan = 303;
    static constexpr int32_t kGetSystemTopicListFromNs = 304;
    static constexpr int32_t kGetSystemTopicListFromBroker = 305;
    static constexpr int32_t kCleanExpiredConsumequeue = 306;
    static constexpr int32_t kGetConsumerRunningInfo = 307;
    static constexpr int32_t kQueryCorrectionOffset = 308;
    static constexpr int32_t kConsumeMessageDirectly = 309;
    static constexpr int32_t kSendMessageV2 = 310;
    static constexpr int32_t kGetUnitTopicList = 311;
    static constexpr int32_t kGetHasUnitSubTopicList = 312;
    static constexpr int32_t kGetHasUnitSubUnunitTopicList = 313;
    static constexpr int32_t kCloneGroupOffset = 314;
    static constexpr int32_t kViewBrokerStatsData = 315;
    static constexpr int32_t kCleanUnusedTopic = 316;
    static constexpr int32_t kGetBrokerConsumeStats = 317;
    static constexpr int32_t kUpdateNamesrvConfig = 318;
    static constexpr int32_t kGetNamesrvConfig = 319;
    static constexpr int32_t kSendBatchMessage = 320;
    static constexpr int32_t kQueryConsumeQueue = 321;
    static constexpr int32_t kQueryDataVersion = 322;
    static constexpr int32_t kResumeCheckHalfMessage = 323;
    static constexpr int32_t kSendReplyMessage = 324;
    static constexpr int32_t kSendReplyMessageV2 = 325;
    static constexpr int32_t kPushReplyMessageToClient = 326; // broker -> client
    static constexpr int32_t kAddWritePermOfBroker = 327;
    static constexpr int32_t kGetAllProducerInfo = 328;
    static constexpr int32_t kDeleteExpiredCommitlog = 329;
    static constexpr int32_t kQueryTopicsByConsumer = 343;       // [5.x]
    static constexpr int32_t kQuerySubscriptionByConsumer = 345; // [5.x]
    static constexpr int32_t kGetTopicConfig = 351;              // [5.x], dashboard 2.x
    static constexpr int32_t kGetSubscriptiongroupConfig = 352;  // [5.x], dashboard 2.x
    static constexpr int32_t kLitePullMessage = 361;             // [5.x]
    static constexpr int32_t kRecallMessage = 370;               // [5.x]
    static constexpr int32_t kQueryAssignment = 400;             // [5.x]
    static constexpr int32_t kSetMessageRequestMode = 401;       // [5.x] mqadmin setConsumeMode
    static constexpr int32_t kGetAllMessageRequestMode = 402;    // [5.x]
    static constexpr int32_t kUpdateAndCreateStaticTopic = 513;  // [5.x] mqadmin updateStaticTopic
    static constexpr int32_t kAuthCreateUser = 3001;             // [5.x] ACL 2.0 (5.3+)
    static constexpr int32_t kAuthUpdateUser = 3002;
    static constexpr int32_t kAuthDeleteUser = 3003;
    static constexpr int32_t kAuthGetUser = 3004;
    static constexpr int32_t kAuthListUser = 3005;
    static constexpr int32_t kAuthCreateAcl = 3006;
    static constexpr int32_t kAuthUpdateAcl = 3007;
    static constexpr int32_t kAuthDeleteAcl = 3008;
    static constexpr int32_t kAuthGetAcl = 3009;
    static constexpr int32_t kAuthListAcl = 3010;
    static constexpr int32_t kPopMessage = 200050;               // [5.x]
    static constexpr int32_t kAckMessage = 200051;               // [5.x]
    static constexpr int32_t kPeekMessage = 200052;              // [5.x]
    static constexpr int32_t kChangeMessageInvisibleTime = 200053; // [5.x]
    static constexpr int32_t kNotification = 200054;             // [5.x]
    static constexpr int32_t kPollingInfo = 200055;              // [5.x]
    static constexpr int32_t kPopLiteMessage = 200070;           // [5.5] LiteTopic
    static constexpr int32_t kLiteSubscriptionCtl = 200071;      // [5.5]
    static constexpr int32_t kNotifyUnsubscribeLite = 200073;    // [5.5] broker -> client
    static constexpr int32_t kGetBrokerLiteInfo = 200074;        // [5.5] mqadmin getBrokerLiteInfo
    static constexpr int32_t kGetParentTopicInfo = 200075;       // [5.5]
    static constexpr int32_t kGetLiteTopicInfo = 200076;         // [5.5]
    static constexpr int32_t kGetLiteClientInfo = 200077;        // [5.5]
    static constexpr int32_t kGetLiteGroupInfo = 200078;         // [5.5]
    static constexpr int32_t kTriggerLiteDispatch = 200079;      // [5.5]
    static constexpr int32_t kBatchAckMessage = 200151;          // [5.x]

    // MQDesk extensions (900–999, unused by RocketMQ; docs/remoting-extensions.md). Java
    // brokers answer them REQUEST_CODE_NOT_SUPPORTED, which is how a console tells them apart.
    static constexpr int32_t kFirstMqdeskExtension = 900;
    static constexpr int32_t kGetFlushSamples = 901;
    static constexpr int32_t kGetActivityTotals = 902;
    static constexpr int32_t kGetTimerTimeline = 903;
    static constexpr int32_t kGetPopStats = 904;
    static constexpr int32_t kLastMqdeskExtension = 999;
};

struct ResponseCode
{
    static constexpr int32_t kSuccess = 0;
    static constexpr int32_t kSystemError = 1;
    static constexpr int32_t kSystemBusy = 2;
    static constexpr int32_t kRequestCodeNotSupported = 3;
    static constexpr int32_t kTransactionFailed = 4;
    static constexpr int32_t kFlushDiskTimeout = 10;
    static constexpr int32_t kSlaveNotAvailable = 11;
    static constexpr int32_t kFlushSlaveTimeout = 12;
    static constexpr int32_t kMessageIllegal = 13;
    static constexpr int32_t kServiceNotAvailable = 14;
    static constexpr int32_t kVersionNotSupported = 15;
    static constexpr int32_t kNoPermission = 16;
    static constexpr int32_t kTopicNotExist = 17;
    static constexpr int32_t kTopicExistAlready = 18;
    static constexpr int32_t kPullNotFound = 19;
    static constexpr int32_t kPullRetryImmediately = 20;
    static constexpr int32_t kPullOffsetMoved = 21;
    static constexpr int32_t kQueryNotFound = 22;
    static constexpr int32_t kSubscriptionParseFailed = 23;
    static constexpr int32_t kSubscriptionNotExist = 24;
    static constexpr int32_t kSubscriptionNotLatest = 25;
    static constexpr int32_t kSubscriptionGroupNotExist = 26;
    static constexpr int32_t kFilterDataNotExist = 27;
    static constexpr int32_t kFilterDataNotLatest = 28;
    static constexpr int32_t kInvalidParameter = 29; // [5.x]
    static constexpr int32_t kTransactionShouldCommit = 200;
    static constexpr int32_t kTransactionShouldRollback = 201;
    static constexpr int32_t kTransactionStateUnknow = 202; // sic, RocketMQ's spelling
    static constexpr int32_t kTransactionStateGroupWrong = 203;
    static constexpr int32_t kNoBuyerId = 204;
    static constexpr int32_t kNotInCurrentUnit = 205;
    static constexpr int32_t kConsumerNotOnline = 206;
    static constexpr int32_t kConsumeMsgTimeout = 207;
    static constexpr int32_t kNoMessage = 208;
    // 4.x ACL admin; [5.x] reuses 209-211 for POLLING_FULL, POLLING_TIMEOUT, BROKER_NOT_EXIST.
    static constexpr int32_t kUpdateAndCreateAclConfigFailed = 209;
    static constexpr int32_t kDeleteAclConfigFailed = 210;
    static constexpr int32_t kUpdateGlobalWhiteAddrsConfigFailed = 211;
    static constexpr int32_t kPollingFull = 209;    // [5.x] POP_MESSAGE: too many parked pops
    static constexpr int32_t kPollingTimeout = 210; // [5.x] POP_MESSAGE: nothing within pollTime
    static constexpr int32_t kBrokerDispatchNotComplete = 212; // [5.x]
    static constexpr int32_t kBroadcastConsumption = 213;      // [5.x]
    static constexpr int32_t kFlowControl = 215;
    static constexpr int32_t kNotLeaderForQueue = 501;         // [5.x]
    static constexpr int32_t kIllegalOperation = 604;          // [5.x]
    static constexpr int32_t kLmqQuotaExceeded = 2017;         // [5.5] a new LMQ beyond maxLmqConsumeQueueNum
    static constexpr int32_t kLiteSubscriptionQuotaExceeded = 2018; // [5.5] maxLiteSubscriptionCount reached
    static constexpr int32_t kGoAway = 1500;                   // [5.x]
    static constexpr int32_t kUserNotExist = 3001;             // [5.x]
    static constexpr int32_t kPolicyNotExist = 3002;           // [5.x]
};

// RocketMQ's constant name ("SEND_MESSAGE_V2"), or an empty view for a code not listed above.
std::string_view requestCodeName(int32_t code);
std::string_view responseCodeName(int32_t code);

// For logs: "SEND_MESSAGE_V2(310)", or just "999" for an unlisted code.
std::string describeRequestCode(int32_t code);
std::string describeResponseCode(int32_t code);

} // namespace mqdesk::remoting
