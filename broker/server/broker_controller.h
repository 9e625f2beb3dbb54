#pragma once

// BrokerController: one RocketMQ broker (RocketMQ's BrokerController) — the message store,
// the config managers persisted next to it, the client tables, long polling, the remoting
// server with its processors, and registration with the NameServers.
//
// start() order: load config files → system topics → bind the server (the bound port is the
// store host every message id encodes) → open and recover the store → start services →
// register with the NameServers → serve. Until serving, processors answer SYSTEM_ERROR
// "broker is starting" instead of touching the store. shutdown() reverses it: stop serving,
// unregister, close connections, release held pulls, shut the store down cleanly (no abort
// file), persist offsets.
//
// Threads: io threads (remoting), one executor each for send, pull, client management and
// admin requests; the long-poll service; a scheduler (1 s) for client expiry, offset
// persistence, NameServer registration and statistics.

#include "broker/server/broker_config.h"
#include "broker/server/pull_offset_table.h"
#include "broker/store/recovery_progress.h"

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <memory>
#include <string>

namespace mqdesk::store {
class MessageStore;
class TopicConfigManager;
class ConsumerOffsetManager;
class SubscriptionGroupManager;
class DelayOffsetManager;
class ConsumerFilterManager;
class TopicQueueMappingManager;
}

namespace mqdesk::remoting {
class RemotingChannel;
struct RemotingCommand;
class RemotingServer;
class RemotingClient;
class ProcessorExecutor;
struct TopicRouteData;
struct InvokeResult;
}

namespace mqdesk::namesrv {
class NamesrvController;
}

namespace mqdesk::acl {
class AccessGate;
class AuthStore;
class PlainAccessValidator;
}

namespace mqdesk::server {

class BrokerStats;
class ConsumerManager;
class ProducerManager;
class PullRequestHoldService;
class TopicManager;
class BrokerScheduler;
class PullMessageProcessor;
class ScheduleMessageService;
class TransactionService;
class SqlFilterCache;
class TopicRouteCache;
class TopicStartedServices;
namespace pop {
class PopService;
}

class BrokerController
{
public:
    // `localNamesrv`, when given, is the embedded NameServer of this process (local mode): the
    // broker registers with it directly, in addition to any namesrvAddr. It must outlive the
    // broker's shutdown().
    explicit BrokerController(BrokerSettings settings, namesrv::NamesrvController *localNamesrv = nullptr);
    ~BrokerController();
    BrokerController(const BrokerController &) = delete;
    BrokerController &operator=(const BrokerController &) = delete;

    // False with `error` naming the cause (a port in use, a store that cannot open, a config
    // file that does not parse). A failed start leaves nothing running.
    bool start(std::string &error);
    void shutdown();
    // Told how the store's recovery progresses during start() (store/recovery_progress.h).
    void setRecoveryProgress(store::RecoveryProgressCallback progress) { recoveryProgress_ = std::move(progress); }
    bool isServing() const { return serving_.load(std::memory_order_acquire); }

    // "127.0.0.1:10911": what clients and the NameServer are told.
    std::string brokerAddress() const;
    uint16_t listenPort() const;
    // The settings in effect: an immutable snapshot that UPDATE_BROKER_CONFIG replaces whole
    // (never edits), so readers on any thread never see a torn string. Hold it for as long as
    // the values are used.
    std::shared_ptr<const BrokerSettings> settings() const;
    // The broker part of the current snapshot, for use within one request or one turn of a
    // loop: a snapshot replaced by an update is kept alive at least kRetiredSnapshotMillis.
    const BrokerConfig &brokerConfig() const { return settings()->broker; }
    static constexpr int64_t kRetiredSnapshotMillis = 10 * 60 * 1000;
    // UPDATE_BROKER_CONFIG: all pairs or none. A key whose setting is read while the broker runs
    // is applied live (flushDiskType and transientStorePoolEnable switch the store at once);
    // any other known key is refused with an error naming it (it takes effect only at a start),
    // never answered "updated" and ignored. Returns the error, empty on success.
    std::string updateConfig(const std::map<std::string, std::string> &properties);
    std::string configText() const;

    // For the processors.
    store::MessageStore &store() { return *store_; }
    TopicManager &topics() { return *topicManager_; }
    store::TopicConfigManager &topicTable() { return *topicTable_; }
    store::ConsumerOffsetManager &offsets() { return *offsetTable_; }
    store::SubscriptionGroupManager &subscriptionGroups() { return *groupTable_; }
    store::DelayOffsetManager &delayOffsets() { return *delayOffsetTable_; }
    store::ConsumerFilterManager &consumerFilters() { return *filterTable_; }
    store::TopicQueueMappingManager &queueMappings() { return *queueMappingTable_; }
    ConsumerManager &consumers() { return *consumers_; }
    ProducerManager &producers() { return *producers_; }
    PullRequestHoldService &pullHold() { return *pullHold_; }
    TransactionService &transactions() { return *transactions_; }
    SqlFilterCache &sqlFilters() { return *sqlFilters_; }
    BrokerStats &stats() { return *stats_; }
    PullOffsetTable &pullOffsets() { return pullOffsets_; }
    remoting::ProcessorExecutor &pullExecutor() { return *pullExecutor_; }
    remoting::ProcessorExecutor &sendExecutor() { return *sendExecutor_; }
    PullMessageProcessor &pullProcessor() { return *pullProcessor_; }
    pop::PopService &pop() { return *pop_; }
    int64_t bootTimestamp() const { return bootTimestamp_; }
    // The cluster's route of `topic` as the NameServer has it (cluster_route.cpp):
    // GET_ROUTEINFO_BY_TOPIC to namesrvAddr, else the embedded NameServer's own table; kept 30 s.
    // False when there is no NameServer or none knows the topic (`route` untouched then).
    bool clusterRoute(const std::string &topic, remoting::TopicRouteData &route);
    // Static topics (Java's RpcClient): sends `request` to the master of broker `brokerName`, found
    // in `topic`'s cluster route, signed as this broker, and waits up to forwardTimeout for its
    // answer. A failed result names the broker and why (not in the route, unreachable, silent).
    remoting::InvokeResult forwardToBroker(const std::string &topic, const std::string &brokerName,
                                           remoting::RemotingCommand request);
    // The plain ACL when aclEnable=true (set at start), else null; thread-safe.
    acl::PlainAccessValidator *accessValidator() const { return acl_.get(); }
    // Makes the access control (plain ACL, ACL 2.0's users and policies, the gates every request
    // of the broker and of the embedded NameServer passes; broker/acl/access_gate.h). start()
    // calls it; EmbeddedBroker calls it first so its NameServer is never open unguarded.
    // Idempotent. False with `error` naming the file or key at fault.
    bool prepareAccessControl(std::string &error);
    // Set by prepareAccessControl; the gate's store is null when ACL 2.0 is off.
    const acl::AccessGate *accessGate() const { return gate_.get(); }
    std::shared_ptr<acl::AccessGate> namesrvGate() const { return namesrvGate_; }
    acl::AuthStore *authStore() const { return authStore_.get(); }
    // Config files read from their .bak at start (a damaged or missing file): each "<file>: why",
    // also logged as a warning, and shown in runtime info and the console's Overview. Set before
    // the broker serves; not changed after.
    const std::vector<std::string> &configLoadWarnings() const { return configLoadWarnings_; }
    // The client port's server (null before start): its connection and write-budget figures.
    const remoting::RemotingServer *remotingServer() const { return server_.get(); }
    // Figures parts above the broker add to runtime info (the gRPC endpoint's connections and
    // guard): a source per name, replaced by the next of that name, removed by an empty one.
    // Thread-safe; a source must not call back into the controller.
    using RuntimeFigures = std::vector<std::pair<std::string, int64_t>>;
    void setRuntimeInfoSource(const std::string &name, std::function<RuntimeFigures()> source);
    RuntimeFigures externalRuntimeInfo() const;

    // In-process clients (the gRPC endpoint, RocketMQ's proxy in local mode): `request` runs
    // through the processor of its code on that processor's executor, as from a connection, and
    // the answer goes to `channel`. The caller has authenticated it (no ACL filter here).
    // localConnectionClosed drops what the channel registered (consumers, producers), as a
    // closed connection's does.
    void dispatchLocal(const std::shared_ptr<remoting::RemotingChannel> &channel, remoting::RemotingCommand request);
    void localConnectionClosed(uint64_t connectionId) { onConnectionClosed(connectionId); }

    // Sends this broker's topics (and static topics' mappings) to every NameServer now (also
    // every registerNameServerPeriod). Registrations are serialised, each taking its snapshot
    // under registerMutex_ (Java's is synchronized): an older snapshot sent after a newer one
    // would replace the newer at the NameServer, its data version being merely different.
    void registerBrokerAll();
    // Sends NOTIFY_CONSUMER_IDS_CHANGED to every channel of `group` now, or with
    // realTimeNotifyConsumerChange=false at the next notifyDeferredConsumerIdsChanges (every 15 s).
    void notifyConsumerIdsChanged(const std::string &group);
    void notifyDeferredConsumerIdsChanges();
    // Drops silent clients and answers the rest of the schedule; public for tests.
    void scanNotActiveClients();
    void persistConsumerOffsets();

private:
    bool loadConfigFiles(std::string &error);
    // Keeps (and logs) why a config file was not read as it was.
    void noteConfigLoad(const std::string &warning);
    bool startServer(std::string &error);
    void onConnectionClosed(uint64_t connectionId);
    void sendConsumerIdsChanged(const std::string &group);
    std::string registerWithRemote(const std::string &namesrvAddr, const std::string &body);
    void signAsBroker(remoting::RemotingCommand &request) const; // innerClientAuthenticationCredentials
    void unregisterBrokerAll();

    void publishSettings(BrokerSettings settings);

    // The start-up settings: written only by the constructor and start() before anything is
    // served; what runs afterwards reads the published snapshot (settings()).
    BrokerSettings settings_;
    mutable std::mutex settingsMutex_; // serialises UPDATE_BROKER_CONFIG
    mutable std::mutex snapshotMutex_;
    std::mutex registerMutex_; // one registerBrokerAll at a time, snapshot to answer
    std::shared_ptr<const BrokerSettings> current_; // guarded by snapshotMutex_
    // Replaced snapshots with the steady ms of their replacement, freed after
    // kRetiredSnapshotMillis (brokerConfig() references may still point into them); snapshotMutex_.
    std::vector<std::pair<int64_t, std::shared_ptr<const BrokerSettings>>> retired_;
    namesrv::NamesrvController *localNamesrv_;
    std::unique_ptr<store::TopicConfigManager> topicTable_;
    std::unique_ptr<store::ConsumerOffsetManager> offsetTable_;
    std::unique_ptr<store::SubscriptionGroupManager> groupTable_;
    std::unique_ptr<store::DelayOffsetManager> delayOffsetTable_;
    std::unique_ptr<store::ConsumerFilterManager> filterTable_;
    std::unique_ptr<store::TopicQueueMappingManager> queueMappingTable_; // static topics
    std::unique_ptr<TopicManager> topicManager_;
    std::unique_ptr<ConsumerManager> consumers_;
    std::unique_ptr<ProducerManager> producers_;
    std::unique_ptr<BrokerStats> stats_;
    PullOffsetTable pullOffsets_;
    std::unique_ptr<SqlFilterCache> sqlFilters_; // compiled SQL92 subscriptions per group and topic
    std::unique_ptr<store::MessageStore> store_;
    store::RecoveryProgressCallback recoveryProgress_;
    std::unique_ptr<remoting::ProcessorExecutor> sendExecutor_;
    std::unique_ptr<remoting::ProcessorExecutor> pullExecutor_;
    std::unique_ptr<remoting::ProcessorExecutor> clientExecutor_;
    std::unique_ptr<remoting::ProcessorExecutor> adminExecutor_;
    std::unique_ptr<PullMessageProcessor> pullProcessor_;
    std::unique_ptr<PullRequestHoldService> pullHold_;
    std::unique_ptr<acl::PlainAccessValidator> acl_; // set at start when aclEnable; outlives server_'s use
    std::unique_ptr<acl::AuthStore> authStore_;       // ACL 2.0 on (or migrating); outlives the gates
    std::shared_ptr<acl::AccessGate> gate_;           // this broker's; set by prepareAccessControl
    std::shared_ptr<acl::AccessGate> namesrvGate_;    // the embedded NameServer's
    std::unique_ptr<remoting::RemotingServer> server_;
    std::vector<std::string> configLoadWarnings_;
    mutable std::mutex runtimeSourcesMutex_;
    std::map<std::string, std::function<RuntimeFigures()>> runtimeSources_; // guarded by runtimeSourcesMutex_
    std::unique_ptr<remoting::RemotingClient> namesrvClient_;
    std::unique_ptr<TopicRouteCache> routeCache_; // made on first use; routeCacheMutex_
    std::mutex routeCacheMutex_;
    std::unique_ptr<BrokerScheduler> scheduler_;
    std::unique_ptr<TransactionService> transactions_; // half messages, END_TRANSACTION, checks
    std::unique_ptr<ScheduleMessageService> schedule_; // delay levels; runs while the store is open
    std::unique_ptr<pop::PopService> pop_;             // POP consumption (made with the broker)
    std::unique_ptr<TopicStartedServices> topicStartedServices_; // starts the three above on demand
    std::atomic<bool> serving_{false};
    bool started_ = false;
    int64_t bootTimestamp_ = 0;
};

} // namespace mqdesk::server
