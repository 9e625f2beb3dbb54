#include "broker/server/java_only_keys.h"

#include "broker/common/java_strings.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <vector>

namespace mqdesk::server {

namespace {

using enum JavaOnlyPolicy;

// Served only as Java's default.
constexpr JavaOnlyReason kReplication{
    OnlyJavasDefault, "master/slave replication, DLedger and Controller mode: an MQDesk broker is a master without replicas "
                      "(ASYNC_MASTER, brokerId 0)"};
constexpr JavaOnlyReason kRocksdb{
    OnlyJavasDefault, "RocksDB stores for consume queues, the index, timers, transactions and configs: MQDesk keeps RocketMQ's "
                      "file store, Java's default"};
constexpr JavaOnlyReason kAuthProviders{
    OnlyJavasDefault, "Java classes replacing ACL 2.0's providers cannot be loaded: MQDesk serves Java's default and local "
                      "providers (their class names are accepted) with users and ACLs in its store"};
constexpr JavaOnlyReason kContainers{
    OnlyJavasDefault, "a behaviour MQDesk serves as Java's default only (broker containers, plug-in stores, read-only "
                      "commit logs, property CRCs, static subscriptions, slow-consumer cut-off, …)"};
constexpr JavaOnlyReason kPopBehaviour{
    OnlyJavasDefault, "a POP behaviour MQDesk serves as Java's default only (V1 retry topics %RETRY%<group>_<topic>, no "
                      "in-flight threshold, every queue shared, PULL as the default request mode)"};
constexpr JavaOnlyReason kTimerBehaviour{
    OnlyJavasDefault, "a timer behaviour MQDesk serves as Java's default only (delay levels through the schedule topic, "
                      "delete keys without the topic)"};
constexpr JavaOnlyReason kFilterRetry{
    OnlyJavasDefault, "SQL92 filters applied to retry messages: MQDesk delivers retries unfiltered, as Java's default"};
constexpr JavaOnlyReason kAddressServer{
    OnlyJavasDefault, "finding NameServers through an address server or DNS: MQDesk takes the namesrvAddr list"};

// Accepted with no effect.
constexpr JavaOnlyReason kReplicationTuning{
    NoEffect, "tunes replication or Controller mode (ports, heartbeats, epochs, transfer limits, a slave acting as "
              "master sending on to another broker, order locks taken by a quorum of replicas), which an MQDesk broker "
              "does not have: it is a master without replicas, its own quorum"};
constexpr JavaOnlyReason kRocksdbTuning{NoEffect, "tunes a RocksDB store MQDesk does not have"};
constexpr JavaOnlyReason kAuthCaches{
    NoEffect, "sizes Java's ACL 2.0 caches: MQDesk reads users and ACLs from its store and keeps them in memory"};
constexpr JavaOnlyReason kCompaction{
    NoEffect, "log compaction of compaction topics, which MQDesk does not run: such a topic keeps every message, as a "
              "normal topic does"};
constexpr JavaOnlyReason kConsumeQueueExt{
    NoEffect, "the consume-queue extension files (filter bit maps beside the entries), which MQDesk does not write: its "
              "queues hold plain tags codes, which Java reads with the extension on or off, and filtering is exact "
              "without them"};
constexpr JavaOnlyReason kConsumeQueueExtSizes{NoEffect, "sizes the consume-queue extension files, which MQDesk does not write"};
constexpr JavaOnlyReason kBatchCqSearch{NoEffect, "caches where Java's BatchCQ files start: MQDesk binary-searches the files themselves"};
constexpr JavaOnlyReason kColdData{NoEffect, "throttles reads of data outside the page cache: MQDesk does not throttle cold reads"};
constexpr JavaOnlyReason kPopInternals{
    NoEffect, "paces Java's POP checkpoint buffer, long-polling tables and revive scans: MQDesk writes checkpoints and acks "
              "as Java does with its buffer off and revives on its own schedule, into the same records"};
constexpr JavaOnlyReason kTimerInternals{
    NoEffect, "paces Java's timer threads, wheel snapshots and asynchronous delay delivery: MQDesk's timer keeps the same "
              "files on its own schedule"};
constexpr JavaOnlyReason kTransactions{
    NoEffect, "batches Java's transaction op records: MQDesk writes one op record per decision, which Java reads the same"};
constexpr JavaOnlyReason kRegistration{
    NoEffect, "paces or shapes Java's registration with NameServers: MQDesk registers all its topics in one uncompressed "
              "request every registerNameServerPeriod"};
constexpr JavaOnlyReason kFilterBitmap{
    NoEffect, "the SQL92 bloom-filter bit map and its bookkeeping, which MQDesk does not build: filtering is exact without it"};
constexpr JavaOnlyReason kClients{
    NoEffect, "bookkeeping of Java's client tables and broadcast offsets: MQDesk keeps its own (a client is forgotten when "
              "its connection closes or its heartbeats stop)"};
constexpr JavaOnlyReason kLite{
    NoEffect, "paces Java's lite-topic event dispatch: MQDesk wakes a lite consumer when a message of its lite topics arrives"};
constexpr JavaOnlyReason kLimits{
    NoEffect, "a limit Java 5.5 defines but its broker never reads (the tiered store's fetcher only): no client can tell"};
constexpr JavaOnlyReason kStoreUpkeep{
    NoEffect, "upkeep of Java's store and config files (mapped-file swapping, recovery scans, deletion pacing, offset "
              "persistence, paths of Java's install): MQDesk's store does these its own way on the same files"};
constexpr JavaOnlyReason kThreads{
    NoEffect, "sizes Java's request executors, their queues and waits, or its locks: MQDesk sizes its own threads "
              "(docs/performance.md)"};
constexpr JavaOnlyReason kNetty{NoEffect, "tunes Java's Netty server or client: MQDesk's network layer is its own"};
constexpr JavaOnlyReason kMetrics{
    NoEffect, "Java's metrics exporters, statistics and log output: MQDesk exports no metrics; its statistics are answered "
              "by the broker statistics requests"};

constexpr JavaOnlyKey kKeys[] = {
    {"accessMessageInMemoryHotRatio", "26", &kStoreUpkeep},
    {"accountStatsEnable", "true", &kMetrics},
    {"accountStatsPrintZeroValues", "true", &kMetrics},
    {"ackMessageThreadPoolNums", "16", &kThreads},
    {"ackThreadPoolQueueCapacity", "100000", &kThreads},
    {"aclCacheExpiredSecond", "600", &kAuthCaches},
    {"aclCacheMaxNum", "1000", &kAuthCaches},
    {"aclCacheRefreshSecond", "60", &kAuthCaches},
    {"adminBrokerThreadPoolQueueCapacity", "10000", &kThreads},
    {"allAckInSyncStateSet", "false", &kReplication},
    {"allowRecallWhenBrokerNotWriteable", "true", &kContainers},
    {"appendAckAsync", "false", &kPopInternals},
    {"appendCkAsync", "false", &kPopInternals},
    {"appendTopicForTimerDeleteKey", "false", &kTimerBehaviour},
    {"asyncLearner", "false", &kReplication},
    {"asyncSendEnable", "true", &kThreads},
    {"authConfigPath", "null", &kAuthProviders},
    {"authenticationMetadataProvider", "null", &kAuthProviders},
    {"authenticationProvider", "null", &kAuthProviders},
    {"authenticationStrategy", "null", &kAuthProviders},
    {"authorizationMetadataProvider", "null", &kAuthProviders},
    {"authorizationProvider", "null", &kAuthProviders},
    {"authorizationStrategy", "null", &kAuthProviders},
    {"autoDeleteUnusedStats", "true", &kMetrics},
    {"autoMessageVersionOnTopicLen", "true", &kContainers},
    {"batchDispatchRequestThreadPoolNums", "16", &kThreads},
    {"bitMapLengthConsumeQueueExt", "64", &kConsumeQueueExtSizes},
    {"bottomMostCompressionTypeForConsumeQueueStore", "zstd", &kRocksdbTuning},
    {"broadcastOffsetExpireMaxSecond", "300", &kClients},
    {"broadcastOffsetExpireSecond", "120", &kClients},
    {"brokerConfigPath", "null", &kStoreUpkeep},
    {"brokerElectionPriority", "2147483647", &kReplicationTuning},
    {"brokerFastFailureEnable", "true", &kStoreUpkeep},
    {"brokerHeartbeatInterval", "1000", &kReplicationTuning},
    {"brokerIP2", "", &kReplicationTuning},
    {"brokerNotActiveTimeoutMillis", "10000", &kReplicationTuning},
    {"brokerRole", "ASYNC_MASTER", &kReplication},
    {"cgColdReadThreshold", "3145728", &kColdData},
    {"channelNotActiveInterval", "60000", &kNetty},
    {"checkCommitLogOffsetOnRecover", "false", &kStoreUpkeep},
    {"checkSyncStateSetPeriod", "5000", &kReplicationTuning},
    {"cleanOfflineBrokerInterval", "30000", &kRegistration},
    {"cleanRocksDBDirtyCQIntervalMin", "60", &kRocksdbTuning},
    {"cleanSwapedMapInterval", "300000", &kStoreUpkeep},
    {"clearRetryTopicWhenDeleteTopic", "true", &kContainers},
    {"clientAsyncSemaphoreValue", "65535", &kNetty},
    {"clientCallbackExecutorThreads", "2", &kThreads},
    {"clientChannelMaxIdleTimeSeconds", "120", &kNetty},
    {"clientCloseSocketIfTimeout", "true", &kNetty},
    {"clientManageThreadPoolNums", "32", &kThreads},
    {"clientManagerThreadPoolQueueCapacity", "1000000", &kThreads},
    {"clientOnewaySemaphoreValue", "65535", &kNetty},
    {"clientPooledByteBufAllocatorEnable", "false", &kNetty},
    {"clientSocketRcvBufSize", "0", &kNetty},
    {"clientSocketSndBufSize", "0", &kNetty},
    {"clientWorkerThreads", "4", &kThreads},
    {"clusterName", "null", &kAuthCaches},
    {"coldCtrStrategyEnable", "false", &kColdData},
    {"coldDataFlowControlEnable", "false", &kColdData},
    {"coldDataScanEnable", "false", &kColdData},
    {"combineAssignOffsetCQType", "default", &kRocksdb},
    {"combineCQEnableCheckSelf", "false", &kRocksdb},
    {"combineCQLoadingCQTypes", "default;defaultRocksDB", &kRocksdb},
    {"combineCQMaxExtraSearchCommitLogFiles", "3", &kRocksdb},
    {"combineCQPreferCQType", "default", &kRocksdb},
    {"combineCQUseRocksdbForLmq", "false", &kRocksdb},
    {"commercialBaseCount", "1", &kMetrics},
    {"commercialSizePerMsg", "4096", &kMetrics},
    {"commitLogForceSwapMapInterval", "43200000", &kStoreUpkeep},
    {"commitLogRecoverMaxNum", "10", &kStoreUpkeep},
    {"commitLogSwapMapInterval", "3600000", &kStoreUpkeep},
    {"commitLogSwapMapReserveFileNum", "100", &kStoreUpkeep},
    {"compactionCqMappedFileSize", "10485760", &kCompaction},
    {"compactionMappedFileSize", "104857600", &kCompaction},
    {"compactionScheduleInternal", "900000", &kCompaction},
    {"compactionThreadNum", "6", &kThreads},
    {"compatibleWithOldNameSrv", "true", &kRegistration},
    {"compressedRegister", "false", &kRegistration},
    {"configBlackList", "configBlackList;brokerConfigPath", &kStoreUpkeep},
    {"configManagerVersion", "v1", &kRocksdb},
    {"configName", "null", &kAuthCaches},
    {"connectTimeoutMillis", "3000", &kNetty},
    {"consumerFallbehindThreshold", "17179869184", &kClients},
    {"consumerManageThreadPoolNums", "32", &kThreads},
    {"consumerManagerThreadPoolQueueCapacity", "1000000", &kThreads},
    {"consumerOffsetUpdateVersionStep", "500", &kStoreUpkeep},
    {"controllerAddr", "", &kReplication},
    {"controllerHeartBeatTimeoutMills", "10000", &kReplicationTuning},
    {"correctLogicMinOffsetForceInterval", "300000", &kStoreUpkeep},
    {"correctLogicMinOffsetSleepInterval", "1", &kStoreUpkeep},
    {"dLegerGroup", "null", &kReplication},
    {"dLegerPeers", "null", &kReplication},
    {"dLegerSelfId", "null", &kReplication},
    {"dataReadAheadEnable", "true", &kStoreUpkeep},
    {"debugLockEnable", "false", &kMetrics},
    {"defaultMessageRequestMode", "PULL", &kPopBehaviour},
    {"defaultPopShareQueueNum", "-1", &kPopBehaviour},
    {"delayOffsetUpdateVersionStep", "200", &kStoreUpkeep},
    {"deleteCommitLogFilesInterval", "100", &kStoreUpkeep},
    {"deleteConsumeQueueFilesInterval", "100", &kStoreUpkeep},
    {"destroyMapedFileIntervalForcibly", "120000", &kStoreUpkeep},
    {"disableCallbackExecutor", "false", &kNetty},
    {"disableConsumeIfConsumerReadSlowly", "false", &kContainers},
    {"disableNettyWorkerGroup", "false", &kNetty},
    {"diskFallRecorded", "true", &kMetrics},
    {"dispatchCqCacheNum", "4096", &kThreads},
    {"dispatchCqThreads", "10", &kThreads},
    {"dispatchFromSenderThread", "false", &kThreads},
    {"duplicationEnable", "false", &kContainers},
    {"enableAcceleratedRecovery", "false", &kStoreUpkeep},
    {"enableAsyncReput", "true", &kThreads},
    {"enableAutoInSyncReplicas", "false", &kReplication},
    {"enableBatchPush", "false", &kReplication},
    {"enableBroadcastOffsetStore", "true", &kClients},
    {"enableBuildConsumeQueueConcurrently", "false", &kThreads},
    {"enableCalcFilterBitMap", "false", &kFilterBitmap},
    {"enableCleanExpiredOffset", "false", &kContainers},
    {"enableCompaction", "true", &kCompaction},
    {"enableConnectionMetrics", "true", &kMetrics},
    {"enableConsumeQueueExt", "false", &kConsumeQueueExt},
    {"enableControllerMode", "false", &kReplication},
    {"enableDLegerCommitLog", "false", &kReplication},
    {"enableDetailStat", "true", &kMetrics},
    {"enableFastChannelEventProcess", "false", &kThreads},
    {"enableLagAndDlqMetrics", "true", &kMetrics},
    {"enableLiteEventMode", "true", &kLite},
    {"enableLitePopLog", "false", &kMetrics},
    {"enableLmqStats", "false", &kMetrics},
    {"enableLogConsumeQueueRepeatedlyBuildWhenRecover", "false", &kStoreUpkeep},
    {"enableMessageStoreMetrics", "true", &kMetrics},
    {"enableNetWorkFlowControl", "false", &kContainers},
    {"enableNotifyBeforePopCalculateLag", "true", &kMetrics},
    {"enablePopBatchAck", "false", &kPopInternals},
    {"enablePopLog", "false", &kMetrics},
    {"enablePopMessageThreshold", "false", &kPopBehaviour},
    {"enablePopMetrics", "true", &kMetrics},
    {"enableReconnectForGoAway", "true", &kNetty},
    {"enableRegisterProducer", "true", &kRegistration},
    {"enableRemoteEscape", "false", &kReplicationTuning},
    {"enableRemotingMetrics", "true", &kMetrics},
    {"enableRequestMetrics", "true", &kMetrics},
    {"enableRetryTopicV2", "false", &kPopBehaviour},
    {"enableRocksDBLog", "false", &kRocksdbTuning},
    {"enableRunningFlagsInFlush", "false", &kStoreUpkeep},
    {"enableScheduleAsyncDeliver", "false", &kTimerInternals},
    {"enableScheduleMessageStats", "true", &kMetrics},
    {"enableShutdownGracefully", "false", &kNetty},
    {"enableSkipLongAwaitingAck", "false", &kPopBehaviour},
    {"enableSlaveActingMaster", "false", &kReplication},
    {"enableSplitMetadata", "true", &kStoreUpkeep},
    {"enableStatsMetrics", "true", &kMetrics},
    {"enableTransactionMetrics", "true", &kMetrics},
    {"enabledAppendPropCRC", "false", &kContainers},
    {"endTransactionPoolQueueCapacity", "100000", &kThreads},
    {"endTransactionThreadPoolNums", "12", &kThreads},
    {"expectConsumerNumUseFilter", "32", &kFilterBitmap},
    {"fetchControllerAddrByDnsLookup", "false", &kReplication},
    {"fetchNameSrvAddrByDnsLookup", "false", &kAddressServer},
    {"fetchNamesrvAddrByAddressServer", "false", &kAddressServer},
    {"fetchNamesrvAddrInterval", "10000", &kRegistration},
    {"filterDataCleanTimeSpan", "86400000", &kFilterBitmap},
    {"filterSupportRetry", "false", &kFilterRetry},
    {"flushConsumerOffsetHistoryInterval", "60000", &kStoreUpkeep},
    {"flushDelayOffsetInterval", "10000", &kStoreUpkeep},
    {"forceRegister", "true", &kRegistration},
    {"forceVerifyPropCRC", "false", &kContainers},
    {"globalColdReadThreshold", "104857600", &kColdData},
    {"haFlowControlEnable", "false", &kReplication},
    {"haHousekeepingInterval", "20000", &kReplicationTuning},
    {"haListenPort", "10912", &kReplicationTuning},
    {"haMasterAddress", "null", &kReplication},
    {"haMaxGapNotInSync", "268435456", &kReplicationTuning},
    {"haMaxTimeSlaveNotCatchup", "15000", &kReplicationTuning},
    {"haSendHeartbeatInterval", "5000", &kReplicationTuning},
    {"haTransferBatchSize", "32768", &kReplicationTuning},
    {"heartbeatThreadPoolNums", "2", &kThreads},
    {"heartbeatThreadPoolQueueCapacity", "50000", &kThreads},
    {"highSpeedMode", "false", &kThreads},
    {"inBrokerContainer", "false", &kContainers},
    {"inSyncReplicas", "1", &kReplication},
    {"indexFileReadEnable", "true", &kContainers},
    {"indexFileWriteEnable", "true", &kContainers},
    {"indexRocksDBEnable", "false", &kRocksdb},
    {"isolateLogEnable", "false", &kMetrics},
    {"iteratorWhenUseRocksdbConsumeQueue", "true", &kRocksdbTuning},
    {"liteEventCheckInterval", "10000", &kLite},
    {"liteEventFullDispatchDelayTime", "10000", &kLite},
    {"liteEventFullDispatchDelayTimeForWildcardGroup", "10000", &kLite},
    {"liteLagCountMetricsEnable", "false", &kMetrics},
    {"liteLagLatencyCollectEnable", "false", &kMetrics},
    {"liteLagLatencyMetricsEnable", "false", &kMetrics},
    {"liteLagLatencyTopK", "50", &kMetrics},
    {"litePullMessageEnable", "true", &kContainers},
    {"litePullMessageThreadPoolNums", "20", &kThreads},
    {"litePullThreadPoolQueueCapacity", "100000", &kThreads},
    {"liteSubscriptionCheckInterval", "120000", &kLite},
    {"loadBalancePollNameServerInterval", "30000", &kRegistration},
    {"loadBalanceProcessorThreadPoolNums", "32", &kThreads},
    {"loadBalanceThreadPoolQueueCapacity", "100000", &kThreads},
    {"lockInStrictMode", "false", &kReplicationTuning},
    {"logicQueueForceSwapMapInterval", "43200000", &kStoreUpkeep},
    {"logicQueueSwapMapInterval", "3600000", &kStoreUpkeep},
    {"logicQueueSwapMapReserveFileNum", "20", &kStoreUpkeep},
    {"logicalDiskSpaceCleanForciblyThreshold", "0.8", &kStoreUpkeep},
    {"mappedFileSizeConsumeQueueExt", "50331648", &kConsumeQueueExtSizes},
    {"mappedFileSwapEnable", "true", &kStoreUpkeep},
    {"maxAsyncPutMessageRequests", "5000", &kThreads},
    {"maxBatchDeleteFilesNum", "50", &kStoreUpkeep},
    {"maxChecksumRange", "1073741824", &kStoreUpkeep},
    {"maxClientEventCount", "100", &kClients},
    {"maxConsumeQueueScan", "20000", &kStoreUpkeep},
    {"maxErrorRateOfBloomFilter", "20", &kFilterBitmap},
    {"maxFilterMessageSize", "16000", &kFilterBitmap},
    {"maxHaTransferByteInSecond", "104857600", &kReplicationTuning},
    {"maxMessageFilterNumForNotification", "64", &kFilterBitmap},
    {"maxOffsetMapSize", "104857600", &kCompaction},
    {"maxPopPollingSize", "100000", &kPopInternals},
    {"maxReconnectIntervalTimeSeconds", "60", &kNetty},
    {"maxRecoveryCommitlogFiles", "30", &kStoreUpkeep},
    {"maxRocksDBIndexQueryDays", "7", &kRocksdbTuning},
    {"maxSlaveResendLength", "268435456", &kReplicationTuning},
    {"maxStatsIdleTimeInMinutes", "-1", &kMetrics},
    {"maxTopicLength", "127", &kContainers},
    {"memTableFlushIntervalMs", "3600000", &kRocksdbTuning},
    {"messageIndexSafe", "false", &kStoreUpkeep},
    {"messageStorePlugIn", "", &kContainers},
    {"metricGrpcExporterIntervalInMills", "60000", &kMetrics},
    {"metricGrpcExporterTimeOutInMills", "3000", &kMetrics},
    {"metricLoggingExporterIntervalInMills", "10000", &kMetrics},
    {"metricsExportBatchMaxDataPoints", "1000", &kMetrics},
    {"metricsExporterType", "DISABLE", &kMetrics},
    {"metricsGrpcExporterHeader", "", &kMetrics},
    {"metricsGrpcExporterTarget", "", &kMetrics},
    {"metricsInDelta", "false", &kMetrics},
    {"metricsLabel", "", &kMetrics},
    {"metricsOtelCardinalityLimit", "50000", &kMetrics},
    {"metricsPromExporterHost", "", &kMetrics},
    {"metricsPromExporterPort", "5557", &kMetrics},
    {"minInSyncReplicas", "1", &kReplication},
    {"notifyConsumerIdsChangedEnable", "true", &kContainers},
    {"offsetCheckInSlave", "false", &kReplication},
    {"osPageCacheBusyTimeOutMills", "1000", &kStoreUpkeep},
    {"persistConsumerOffsetIncrementally", "false", &kStoreUpkeep},
    {"popCkMaxBufferSize", "200000", &kPopInternals},
    {"popCkOffsetMaxQueueSize", "20000", &kPopInternals},
    {"popCkStayBufferTime", "10000", &kPopInternals},
    {"popCkStayBufferTimeOut", "3000", &kPopInternals},
    {"popConsumerFSServiceInit", "true", &kRocksdbTuning},
    {"popConsumerKVServiceEnable", "false", &kRocksdb},
    {"popConsumerKVServiceInit", "false", &kRocksdbTuning},
    {"popConsumerKVServiceLog", "false", &kRocksdbTuning},
    {"popInflightMessageThreshold", "10000", &kPopInternals},
    {"popLongPollingForceNotifyInterval", "800", &kPopInternals},
    {"popPollingMapExpireTimeSeconds", "600", &kPopInternals},
    {"popPollingMapSize", "100000", &kPopInternals},
    {"popPollingSize", "1024", &kPopInternals},
    {"popResponseReturnActualRetryTopic", "false", &kPopBehaviour},
    {"popReviveConcurrency", "32", &kPopInternals},
    {"popReviveMaxAttemptTimes", "16", &kPopInternals},
    {"popReviveMaxReturnSizePerRead", "16384", &kPopInternals},
    {"popReviveSkipIfGroupAbsent", "true", &kPopInternals},
    {"preferredLeaderId", "null", &kReplicationTuning},
    {"printChannelGroups", "false", &kMetrics},
    {"printChannelGroupsMinNum", "5", &kMetrics},
    {"processReplyMessageThreadPoolNums", "20", &kThreads},
    {"pullBatchMaxMessageCount", "160", &kLimits},
    {"putConsumeQueueDataByFileChannel", "true", &kStoreUpkeep},
    {"putMessageFutureThreadPoolNums", "2", &kThreads},
    {"putMessageTimeout", "8000", &kStoreUpkeep},
    {"putMsgIndexHightWater", "600000", &kStoreUpkeep},
    {"putThreadPoolQueueCapacity", "10000", &kThreads},
    {"queryMessageThreadPoolNums", "10", &kThreads},
    {"queryThreadPoolQueueCapacity", "20000", &kThreads},
    {"readOnlyCommitLogStorePaths", "null", &kContainers},
    {"readUnCommitted", "false", &kContainers},
    {"realTimePersistRocksDBConfig", "true", &kRocksdbTuning},
    {"recheckReputOffsetFromCq", "false", &kStoreUpkeep},
    {"recoverConcurrently", "false", &kThreads},
    {"recoverThreadPoolNums", "32", &kThreads},
    {"redeleteHangedFileInterval", "120000", &kStoreUpkeep},
    {"rejectPullConsumerEnable", "false", &kContainers},
    {"replicasPerDiskPartition", "1", &kReplicationTuning},
    {"replyThreadPoolQueueCapacity", "10000", &kThreads},
    {"retrieveMessageFromPopRetryTopicV1", "true", &kPopBehaviour},
    {"reviveAckWaitMs", "180000", &kPopInternals},
    {"reviveInterval", "1000", &kPopInternals},
    {"reviveMaxSlow", "3", &kPopInternals},
    {"reviveScanTime", "10000", &kPopInternals},
    {"rocketmqHome", "null", &kStoreUpkeep},
    {"rocksdbCQDoubleWriteEnable", "false", &kRocksdb},
    {"rocksdbCompressionType", "lz4", &kRocksdbTuning},
    {"rocksdbFlushWalFrequency", "1024", &kRocksdbTuning},
    {"rocksdbWalFileRollingThreshold", "1073741824", &kRocksdbTuning},
    {"sampleCountThreshold", "5000", &kStoreUpkeep},
    {"sampleSteps", "32", &kStoreUpkeep},
    {"scanAvailableNameSrv", "true", &kNetty},
    {"scheduleAsyncDeliverMaxPendingLimit", "2000", &kTimerInternals},
    {"scheduleAsyncDeliverMaxResendNum2Blocked", "3", &kTimerInternals},
    {"searchBcqByCacheEnable", "true", &kBatchCqSearch},
    {"sendHeartbeatTimeoutMillis", "1000", &kReplicationTuning},
    {"serverAsyncSemaphoreValue", "64", &kNetty},
    {"serverCallbackExecutorThreads", "0", &kThreads},
    {"serverLoadBalancerEnable", "true", &kContainers},
    {"serverNettyWorkerGroupEnable", "true", &kNetty},
    {"serverOnewaySemaphoreValue", "256", &kNetty},
    {"serverPooledByteBufAllocatorEnable", "true", &kNetty},
    {"serverSelectorThreads", "3", &kThreads},
    {"serverSocketBacklog", "1024", &kNetty},
    {"serverWorkerThreads", "8", &kThreads},
    {"sharedByteBufferNum", "16", &kThreads},
    {"shutdownWaitTimeSeconds", "30", &kNetty},
    {"skipPreOnline", "false", &kReplicationTuning},
    {"skipWhenCKRePutReachMaxTimes", "false", &kPopInternals},
    {"slaveReadEnable", "false", &kReplication},
    {"slaveTimeout", "3000", &kReplicationTuning},
    {"socksProxyConfig", "{}", &kNetty},
    {"spinLockCollisionRetreatOptimalDegree", "1000", &kThreads},
    {"splitMetadataSize", "2000", &kStoreUpkeep},
    {"statRocksDBCQIntervalSec", "10", &kRocksdbTuning},
    {"statefulAuthenticationCacheExpiredSecond", "60", &kAuthCaches},
    {"statefulAuthenticationCacheMaxNum", "10000", &kAuthCaches},
    {"statefulAuthorizationCacheExpiredSecond", "60", &kAuthCaches},
    {"statefulAuthorizationCacheMaxNum", "10000", &kAuthCaches},
    {"storePathBrokerIdentity", "null", &kStoreUpkeep},
    {"storePathDLedgerCommitLog", "null", &kReplication},
    {"storePathEpochFile", "null", &kReplicationTuning},
    {"storeType", "default", &kRocksdb},
    {"subscriptionExpiredTimeout", "600000", &kClients},
    {"syncBrokerMemberGroupPeriod", "1000", &kReplicationTuning},
    {"syncBrokerMetadataPeriod", "5000", &kReplicationTuning},
    {"syncControllerMetadataPeriod", "10000", &kReplicationTuning},
    {"syncFromLastFile", "false", &kReplicationTuning},
    {"syncMasterFlushOffsetWhenStartup", "false", &kReplicationTuning},
    {"timerColdDataCheckIntervalMs", "60000", &kColdData},
    {"timerEnableCheckMetrics", "true", &kMetrics},
    {"timerGetMessageThreadNum", "3", &kThreads},
    {"timerInterceptDelayLevel", "false", &kTimerBehaviour},
    {"timerMetricSmallThreshold", "1000000", &kMetrics},
    {"timerPutMessageThreadNum", "3", &kThreads},
    {"timerRecallToTimeWheelEnable", "true", &kTimerInternals},
    {"timerRecallToTimelineEnable", "true", &kTimerInternals},
    {"timerReputServiceCorePoolSize", "6", &kThreads},
    {"timerReputServiceMaxPoolSize", "6", &kThreads},
    {"timerReputServiceQueueCapacity", "10000", &kThreads},
    {"timerRocksDBEnable", "false", &kRocksdb},
    {"timerRocksDBPrecisionMs", "1000", &kRocksdbTuning},
    {"timerRocksDBRollIntervalHours", "1", &kRocksdbTuning},
    {"timerRocksDBRollMaxTps", "8000.0", &kRocksdbTuning},
    {"timerRocksDBRollRangeHours", "2", &kRocksdbTuning},
    {"timerRocksDBStopScan", "false", &kRocksdbTuning},
    {"timerRocksDBTimeExpiredMaxTps", "200000.0", &kRocksdbTuning},
    {"timerWheelSnapshotFlush", "false", &kTimerInternals},
    {"timerWheelSnapshotIntervalMs", "10000", &kTimerInternals},
    {"topicQueueLockNum", "32", &kThreads},
    {"totalReplicas", "1", &kReplication},
    {"transRocksDBEnable", "false", &kRocksdb},
    {"transWriteOriginTransHalfEnable", "true", &kTransactions},
    {"transactionCheckRocksdbCoreThreads", "2", &kRocksdbTuning},
    {"transactionCheckRocksdbMaxThreads", "5", &kRocksdbTuning},
    {"transactionCheckRocksdbQueueCapacity", "2000", &kRocksdbTuning},
    {"transactionMetricFlushInterval", "10000", &kMetrics},
    {"transactionOpBatchInterval", "3000", &kTransactions},
    {"transactionOpMsgMaxSize", "4096", &kTransactions},
    {"travelCqFileNumWhenGetMessage", "1", &kStoreUpkeep},
    {"updateNameServerAddrPeriod", "120000", &kRegistration},
    {"useABSLock", "false", &kThreads},
    {"useEpollNativeSelector", "false", &kNetty},
    {"useMessageFilterForNotification", "true", &kFilterBitmap},
    {"usePIDColdCtrStrategy", "true", &kColdData},
    {"useSeparateRetryQueue", "false", &kContainers},
    {"useSeparateStorePathForRocksdbCQ", "false", &kRocksdb},
    {"useSingleRocksDBForAllConfigs", "false", &kRocksdb},
    {"useStaticSubscription", "false", &kContainers},
    {"useTLS", "false", &kContainers},
    {"userCacheExpiredSecond", "600", &kAuthCaches},
    {"userCacheMaxNum", "1000", &kAuthCaches},
    {"userCacheRefreshSecond", "60", &kAuthCaches},
    {"validateSystemTopicWhenUpdateTopic", "true", &kContainers},
    {"waitTimeMillsInAckQueue", "3000", &kThreads},
    {"waitTimeMillsInAdminBrokerQueue", "5000", &kThreads},
    {"waitTimeMillsInHeartbeatQueue", "31000", &kThreads},
    {"waitTimeMillsInLitePullQueue", "5000", &kThreads},
    {"waitTimeMillsInPullQueue", "5000", &kThreads},
    {"waitTimeMillsInSendQueue", "200", &kThreads},
    {"waitTimeMillsInTransactionQueue", "3000", &kThreads},
    {"writeBufferLowWaterMark", "0", &kNetty},
};

// Java class names that mean what MQDesk serves (kAuthProviders).
constexpr std::string_view kServedProviderClasses[] = {
    "org.apache.rocketmq.auth.authentication.provider.DefaultAuthenticationProvider",
    "org.apache.rocketmq.auth.authentication.provider.LocalAuthenticationMetadataProvider",
    "org.apache.rocketmq.auth.authorization.provider.DefaultAuthorizationProvider",
    "org.apache.rocketmq.auth.authorization.provider.LocalAuthorizationMetadataProvider",
    "org.apache.rocketmq.auth.authentication.strategy.StatelessAuthenticationStrategy",
    "org.apache.rocketmq.auth.authentication.strategy.StatefulAuthenticationStrategy",
    "org.apache.rocketmq.auth.authorization.strategy.StatelessAuthorizationStrategy",
    "org.apache.rocketmq.auth.authorization.strategy.StatefulAuthorizationStrategy",
};

bool parsesAsNumber(std::string_view text, double &number)
{
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
    return error == std::errc() && end == text.data() + text.size();
}

// Whether `value` means what Java's default does, read as Java reads it (Boolean.parseBoolean,
// a number's value, "null" for an unset string).
bool meansJavasDefault(std::string_view javaDefault, std::string_view value)
{
    if (javaDefault == "true" || javaDefault == "false") {
        std::string lower(value);
        std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
        return (lower == "true") == (javaDefault == "true");
    }
    double expected = 0, given = 0;
    if (parsesAsNumber(javaDefault, expected))
        return parsesAsNumber(value, given) && given == expected;
    if (javaDefault == "null" || javaDefault.empty())
        return value.empty() || value == "null";
    return value == javaDefault;
}

} // namespace

std::span<const JavaOnlyKey> javaOnlyKeys()
{
    return kKeys;
}

const JavaOnlyKey *findJavaOnlyKey(std::string_view key)
{
    const auto it = std::lower_bound(std::begin(kKeys), std::end(kKeys), key,
                                     [](const JavaOnlyKey &entry, std::string_view name) { return entry.key < name; });
    return it != std::end(kKeys) && it->key == key ? &*it : nullptr;
}

std::string checkJavaOnlyValue(const JavaOnlyKey &key, std::string_view value)
{
    if (key.reason->policy == NoEffect)
        return {};
    const std::string_view given = common::javaTrim(value);
    if (meansJavasDefault(key.javaDefault, given))
        return {};
    if (key.reason == &kAuthProviders
        && std::find(std::begin(kServedProviderClasses), std::end(kServedProviderClasses), given) != std::end(kServedProviderClasses))
        return {};
    const std::string javaDefault = key.javaDefault.empty() ? std::string("empty") : std::string(key.javaDefault);
    return "'" + std::string(key.key) + "=" + std::string(value) + "' is not served: " + std::string(key.reason->what)
           + ". Remove the key or give it Java's default (" + javaDefault + ")";
}

std::string markdownOfJavaOnlyKeys()
{
    std::map<const JavaOnlyReason *, std::string> keysByReason;
    std::vector<const JavaOnlyReason *> order;
    for (const JavaOnlyKey &key : kKeys) {
        std::string &keys = keysByReason[key.reason];
        if (keys.empty())
            order.push_back(key.reason);
        else
            keys += ", ";
        keys += "`" + std::string(key.key) + "`";
        if (key.reason->policy == OnlyJavasDefault)
            keys += " (" + (key.javaDefault.empty() ? std::string("—") : std::string(key.javaDefault)) + ")";
    }
    std::stable_sort(order.begin(), order.end(), [](const JavaOnlyReason *a, const JavaOnlyReason *b) {
        return a->policy == OnlyJavasDefault && b->policy == NoEffect;
    });
    std::string text = "| MQDesk | what they do in Java, and in MQDesk | keys (Java's default) |\n|---|---|---|\n";
    for (const JavaOnlyReason *reason : order) {
        text += reason->policy == OnlyJavasDefault ? "| served at Java's default only; another value is refused at start | "
                                                   : "| accepted, no effect | ";
        text += std::string(reason->what) + " | " + keysByReason[reason] + " |\n";
    }
    return text;
}

} // namespace mqdesk::server
