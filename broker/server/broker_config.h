#pragma once

// The broker's own settings (RocketMQ's BrokerConfig and the NettyServerConfig keys MQDesk
// uses), named and defaulted as RocketMQ does, plus the store's (MessageStoreConfig), so one
// broker.conf written for RocketMQ configures MQDesk unchanged. Deliberate differences: the
// broker binds 127.0.0.1 unless `bindAddress` says otherwise, and brokerName defaults to
// "broker-a" (RocketMQ uses the host name).

#include "broker/remoting/net/tls_context.h"
#include "broker/store/store_config.h"

#include "broker/common/config_fields.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mqdesk::server {

int defaultSendMessageThreads();
int defaultPullMessageThreads();

struct BrokerConfig
{
    std::string brokerClusterName = "DefaultCluster";
    std::string brokerName = "broker-a";
    int64_t brokerId = 0; // 0 = master
    std::string regionId = "DefaultRegion";
    std::string bindAddress = "127.0.0.1";
    // ";"-separated NameServer addresses to register with. Empty: the embedded one only.
    std::string namesrvAddr;
    int brokerPermission = 6; // PermName READ | WRITE

    bool autoCreateTopicEnable = true;
    int defaultTopicQueueNums = 8;
    // A group nobody created is created on first use (heartbeat, pull, pop, send back) when
    // autoCreateSubscriptionGroup is on, and a system group (CID_RMQ_SYS_…) also when
    // enableCreateSysGroup is (Java's findSubscriptionGroupConfig): createsGroupOnUse().
    bool autoCreateSubscriptionGroup = true;
    bool enableCreateSysGroup = true;
    // A consumer group's members are told at once when it changes (NOTIFY_CONSUMER_IDS_CHANGED),
    // or with false every 15 s, changes of the interval together (Java's listener). Live.
    bool realTimeNotifyConsumerChange = true;
    // INVOKE_BROKER_TO_RESET_OFFSET resets on the broker (the consumers' next pull or pop of a
    // queue is answered PULL_OFFSET_MOVED to the new offset, their commits of the old one
    // refused meanwhile), as Java 5.x does by default; false: the 4.x way, the consumers told
    // with RESET_CONSUMER_CLIENT_OFFSET.
    bool useServerSideResetOffset = true;
    // POP (RocketMQ 5): queues of rmq_sys_REVIVE_LOG_<cluster>, and how often in 100 a pop reads
    // the group's retry topic first.
    int reviveQueueNum = 8;
    int popFromRetryProbability = 20;
    // Where a POP group without an offset starts (initMode MAX): at 0 when the queue still holds
    // its first message (Java also asks whether it is in the page cache; MQDesk takes it as
    // there), else at the last message. false: at the last message always. Live.
    bool initPopOffsetByCheckMsgInMem = true;
    // Priority messages (RocketMQ 5.4): a pop of a PRIORITY topic reads the retry topic first this
    // often in 100 (its retries otherwise come after every queue), and reads the queues from the
    // highest id down (priorityOrderAsc: a higher priority value is served first) or from 0 up.
    int popFromRetryProbabilityForPriority = 0;
    bool priorityOrderAsc = true;
    // LiteTopic (RocketMQ 5.5): the (client, lite topic) pairs the broker keeps at most (a
    // PARTIAL_ADD beyond is refused with 2018), and how long a lite client's subscriptions live
    // without a subscription request (its SDK sends the whole set every 30 s).
    int64_t maxLiteSubscriptionCount = 100000;
    int64_t liteSubscriptionCheckTimeoutMills = 180000;
    // Lite topic expiry (a LITE parent's lite.topic.expiration, in minutes): checked this often,
    // once the broker has been up minLiteTTl; a lite topic idle for less than minLiteTTl never
    // expires, whatever its parent says.
    int64_t liteTtlCheckInterval = 120000;
    int64_t minLiteTTl = 900000;
    // An orderly POP parked behind a held batch is woken when the batch turns visible again (its
    // invisible time running out or changed), not only by arrivals, acks and its own deadline.
    bool enableNotifyAfterPopOrderLockRelease = true;
    // Java 5.x switches whose effect lies inside the Java broker only, accepted so that the
    // broker.conf and updateBrokerConfig calls written for it work unchanged: MQDesk writes POP
    // checkpoints directly (enablePopBufferMerge), registers every topic in one request
    // (enableSingleTopicRegister, enableSplitRegistration, splitRegistrationSize) and exports no
    // lag metrics (estimateAccumulation). docs/compatibility.md lists them.
    bool enablePopBufferMerge = false;
    bool enableSingleTopicRegister = false;
    bool enableSplitRegistration = false;
    int splitRegistrationSize = 800;
    bool estimateAccumulation = true;
    bool clusterTopicEnable = true;
    bool brokerTopicEnable = true;
    bool traceTopicEnable = false; // creates msgTraceTopicName at start, as Java's broker does
    std::string msgTraceTopicName = "RMQ_SYS_TRACE_TOPIC";
    // UPDATE_AND_CREATE_TOPIC refuses message.type=MIXED while false, as Java's 5.x broker.
    bool enableMixedMessageType = false;

    bool longPollingEnable = true;
    // SQL92 subscriptions (MessageSelector.bySql): refused with SYSTEM_ERROR while false, as Java.
    bool enablePropertyFilter = false;
    int64_t shortPollingTimeMills = 1000;
    bool transferMsgByHeap = true;
    bool traceOn = true;
    bool rejectTransactionMessage = false;
    // RECALL_MESSAGE (5.x: cancel a timer message before its time). Java's default is false; a
    // development broker serves it unless told not to (a deliberate difference; README).
    bool recallMessageEnable = true;
    // The gRPC endpoint's PushConsumer receipts, under the Java proxy's names: popped for
    // defaultInvisibleTimeMills, renewed every renewSchedulePeriodMillis when within
    // renewAheadTimeMillis of their end, for at most renewMaxTimeMillis after the delivery.
    int defaultInvisibleTimeMills = 60'000;
    int renewSchedulePeriodMillis = 5'000;
    int renewAheadTimeMillis = 10'000;
    int renewMaxTimeMillis = 3 * 3600'000;
    bool storeReplyMessageEnable = true; // reply messages are also stored in <cluster>_REPLY_TOPIC
    int transactionTimeOut = 6000;        // ms before an unresolved half message is checked
    int transactionCheckMax = 15;         // checks before it moves to TRANS_CHECK_MAX_TIME_TOPIC
    int transactionCheckInterval = 30000; // ms between check rounds (Java 5.x's 30 s)

    int registerNameServerPeriod = 30000; // ms, clamped to 10–60 s like RocketMQ
    int registerBrokerTimeoutMills = 6000;
    int forwardTimeout = 3000; // ms a static topic's request forwarded to another broker may take
    // Java 5.5's defaults, by the machine's processors (an executor starts its threads as tasks
    // need them, so an idle broker runs none of them): min(processors, 4) and 16 + processors × 2.
    int sendMessageThreadPoolNums = defaultSendMessageThreads();
    int pullMessageThreadPoolNums = defaultPullMessageThreads();
    int adminBrokerThreadPoolNums = 2;
    int sendThreadPoolQueueCapacity = 10000;
    int pullThreadPoolQueueCapacity = 100000;
    // ms a consumer may go without a heartbeat before it is dropped from its group (Java's
    // ConsumerManager, which also closes the connection; MQDesk leaves that to the client).
    // Producers: 120 s, fixed as in Java. Read by each scan (10 s).
    int64_t channelExpiredTimeout = 120000;
    // How often consumer offsets are written to config/consumerOffset.json (ms; the scheduler
    // looks once a second). Live.
    int flushConsumerOffsetInterval = 5000;
    // Sends, replies and recalls before this moment (epoch ms) are refused, as Java's: a broker
    // started early to be warmed or inspected before it takes traffic. Live.
    int64_t startAcceptSendRequestTimeStamp = 0;
    // Client connections open at once; one more is closed at once with a warning (0: no limit).
    // MQDesk's key, named like NettyServerConfig's server* settings. Read at start.
    int serverMaxConnections = 10000;
    // What connections may hold queued for clients that do not read (RemotingServerOptions): above
    // writeBufferHighWaterMark (Java's NettyServerConfig key) a connection's notifications are
    // dropped; at serverMaxQueuedWriteBytes it is closed; while all together hold more than
    // serverTotalQueuedWriteBytes, notifications are dropped everywhere and connections above
    // their high water mark that drain nothing closed. Bytes; 0: no limit. Read at start.
    int64_t writeBufferHighWaterMark = 1024 * 1024;
    int64_t serverMaxQueuedWriteBytes = 64 * 1024 * 1024;
    int64_t serverTotalQueuedWriteBytes = 64 * 1024 * 1024;
    // Bytes of frames still arriving from all clients together; a read past it closes its
    // connection. MQDesk's key; 0: no limit. Read at start.
    int64_t serverTotalPartialFrameBytes = 128 * 1024 * 1024;
    // A connection whose client completed no frame for this long is closed (Java's key; frames,
    // not bytes, count here), and one whose frame did not arrive whole within
    // serverFrameTimeoutMillis (MQDesk's). 0: never. Read at start.
    int serverChannelMaxIdleTimeSeconds = 120;
    // SO_SNDBUF / SO_RCVBUF of client sockets, as Java's NettyServerConfig; 0: the kernel's own.
    int serverSocketSndBufSize = 0;
    int serverSocketRcvBufSize = 0;
    int serverFrameTimeoutMillis = 30000;
    // Connections from one source address, remoting port (0: no limit of its own). At the limit a
    // new one takes the place of that address's idlest, as at serverMaxConnections. MQDesk's key.
    int serverMaxConnectionsPerAddress = 0;
    // The fast ("VIP") channel: the same requests on a second port, which the Java clients and
    // tools with their VIP channel on (the Dashboard's default) reach at the broker's port − 2.
    // Java always opens it at listenPort − 2; MQDesk's key: 0 (the default) is listenPort − 2,
    // another number that port, -1 none. Read at start.
    int fastListenPort = 0;
    // The gRPC port's guard (broker/grpc/http2_guard.h), MQDesk's keys: connections in all and
    // from one address (0: none of its own), the bytes of one header block (HEADERS and its
    // CONTINUATION frames), streams open at once on one connection (also what grpc++ advertises)
    // and on all, and what one connection may send per second after a burst — stream resets
    // (rapid reset; all connections together ten times that) and frames that carry nothing
    // (PING, SETTINGS, PRIORITY, empty). Read at start.
    int grpcMaxConnections = 10000;
    int grpcMaxConnectionsPerAddress = 0;
    int grpcMaxHeaderBlockBytes = 64 * 1024;
    int grpcMaxConcurrentStreams = 256;
    int grpcMaxTotalStreams = 5000;
    int grpcStreamResetsPerSecond = 33;
    int grpcStreamResetBurst = 200;
    int grpcIdleFramesPerSecond = 100;
    int grpcIdleFrameBurst = 1000;
    // How long a 5.x consumer's ReceiveMessage may wait for messages: what it asks, within
    // [min, max]; max is also the long_polling_timeout its Settings are given. Java's proxy keys
    // (ProxyConfig), its defaults. A PushConsumer's close waits for its receive in flight, so a
    // shorter max makes clients stop sooner (tests) at the cost of more polls. Read at start.
    int64_t grpcClientConsumerMinLongPollingTimeoutMillis = 5000;
    int64_t grpcClientConsumerMaxLongPollingTimeoutMillis = 20000;
    // ms an ordered consumer's queue lock (LOCK_BATCH_MQ) lives without renewal. RocketMQ reads
    // it from the system property rocketmq.broker.rebalance.lockMaxLiveTime; here it is a key.
    int64_t rebalanceLockMaxLiveTime = 60000;
    // MQDesk's own requests (codes 900–999, docs/remoting-extensions.md) and runtime-info keys.
    // false: answered REQUEST_CODE_NOT_SUPPORTED and left out, as a Java broker does — so a
    // console's Java fallback can be run against a real MQDesk broker.
    bool mqdeskExtensionsEnable = true;
    // RocketMQ's ACL (broker/acl): every request is checked against plain_acl.yml. Read at start.
    bool aclEnable = false;
    // Where plain_acl.yml is; empty: <storePathRootDir>/conf/plain_acl.yml. (Java reads
    // $ROCKETMQ_HOME/conf/plain_acl.yml, named by the system property rocketmq.acl.plain.file.)
    std::string plainAclFile;
    std::string plainAclPath(const std::string &storeRootDir) const;
    // ACL 2.0 (RocketMQ 5.3+, broker/acl/access_gate.h): users and policies in
    // <storePathRootDir>/config/auth.json, managed by the admin requests 3001–3010.
    bool authenticationEnabled = false;
    bool authorizationEnabled = false;
    std::string initAuthenticationUser;               // {"username":..,"password":..}, made Super
    std::string innerClientAuthenticationCredentials; // {"accessKey":..,"secretKey":..}, made Super
    std::string authenticationWhitelist;              // request codes that skip authentication
    std::string authorizationWhitelist;               // request codes that skip authorization
    bool migrateAuthFromV1Enabled = false;            // import plain_acl.yml into ACL 2.0 at start

    // Applies broker.conf keys. Keys of neither config come back in `unknownKeys`; a bad value
    // is an error naming the key and the value.
    using ApplyResult = common::ConfigApplyResult;
    ApplyResult apply(const std::map<std::string, std::string> &properties);
    // One key of this config; error message, empty on success. Unknown keys are an error.
    std::string set(std::string_view key, std::string_view value);
    bool knows(std::string_view key) const;
    std::vector<std::pair<std::string, std::string>> toProperties() const;

    bool createsGroupOnUse(std::string_view group) const
    {
        return !group.empty()
               && (autoCreateSubscriptionGroup || (enableCreateSysGroup && group.starts_with("CID_RMQ_SYS_")));
    }
};

// Both configs of a broker, read from one broker.conf.
struct BrokerSettings
{
    using ApplyResult = BrokerConfig::ApplyResult;

    BrokerConfig broker;
    store::MessageStoreConfig store;
    // TLS on the remoting ports and the gRPC endpoint: Java's tls.* keys (system properties
    // there), read at start, never reported by GET_BROKER_CONFIG (the key's password).
    remoting::TlsSettings tls;

    // Loads `path` (a Java .properties file). Keys that are not RocketMQ 5.5's are reported in
    // `unknownKeys` and otherwise ignored, as RocketMQ does; Java's keys MQDesk does not serve are
    // accepted or refused as java_only_keys.h says. Error names the file, line or key.
    bool loadFile(const std::string &path, std::vector<std::string> &unknownKeys, std::string &error);
    ApplyResult apply(const std::map<std::string, std::string> &properties);
    // One key of either config (UPDATE_BROKER_CONFIG). Error names the key.
    std::string set(std::string_view key, std::string_view value);
    // Every key of both with its effective value, sorted by name (`-p`, GET_BROKER_CONFIG).
    std::vector<std::pair<std::string, std::string>> toProperties() const;
    std::string toPropertiesText() const; // "key=value\n" lines

};

} // namespace mqdesk::server
