#include "broker/server/broker_controller.h"

#include "broker/acl/access_gate.h"
#include "broker/acl/auth_store.h"
#include "broker/acl/plain_access_validator.h"
#include "broker/common/clock.h"
#include "broker/common/host_address.h"
#include "broker/common/service_thread.h"
#include "broker/namesrv/namesrv_controller.h"
#include "broker/namesrv/route_info_manager.h"
#include "broker/remoting/net/processor_executor.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/protocol/route_data.h"
#include "broker/remoting/net/remoting_client.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/remoting/net/remoting_server.h"
#include "broker/server/broker_stats.h"
#include "broker/server/topic_route_cache.h"
#include "broker/server/topic_started_services.h"
#include "broker/server/client_limits.h"
#include "broker/server/consumer_manager.h"
#include "broker/server/pull_message_processor.h"
#include "broker/server/pull_request_hold_service.h"
#include "broker/server/pop/pop_service.h"
#include "broker/server/processor_table.h"
#include "broker/server/schedule_message_service.h"
#include "broker/server/sql_filter_cache.h"
#include "broker/server/topic_manager.h"
#include "broker/server/transaction_service.h"
#include "broker/store/config/consumer_filter_manager.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/topic_queue_mapping_manager.h"
#include "broker/store/config/delay_offset_manager.h"
#include "broker/store/config/subscription_group_manager.h"
#include "broker/store/config/topic_config_manager.h"
#include "broker/store/consume_queue_store.h"
#include "broker/store/message_store.h"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <set>

namespace mqdesk::server {

using remoting::RemotingCommand;
using remoting::RequestCode;
using remoting::ResponseCode;

// Once a second: statistics; every flushConsumerOffsetInterval (5 s) offsets; every 15 s the
// consumer changes held back (realTimeNotifyConsumerChange=false); every 10 s silent clients (and lite
// subscriptions no longer sent); every
// registerNameServerPeriod the NameServer registration.
class BrokerScheduler : public common::ServiceThread
{
public:
    explicit BrokerScheduler(BrokerController &broker) : ServiceThread("BrokerScheduler"), broker_(broker) {}
    ~BrokerScheduler() override { stop(); }

protected:
    void run() override
    {
        int64_t lastOffsets = common::steadyMicros() / 1000;
        int64_t lastScan = lastOffsets;
        int64_t lastRegister = lastOffsets;
        int64_t lastLiteTtl = lastOffsets;
        int64_t lastDeferredNotify = lastOffsets;
        while (!isStopped()) {
            waitForRunning(std::chrono::milliseconds(1000));
            if (isStopped())
                break;
            const int64_t now = common::steadyMicros() / 1000;
            broker_.stats().sample(common::wallMillis());
            if (now - lastOffsets >= broker_.brokerConfig().flushConsumerOffsetInterval) {
                lastOffsets = now;
                broker_.persistConsumerOffsets();
            }
            if (now - lastDeferredNotify >= 15000) {
                lastDeferredNotify = now;
                broker_.notifyDeferredConsumerIdsChanges();
            }
            if (now - lastScan >= 10000) {
                lastScan = now;
                broker_.scanNotActiveClients();
                broker_.pop().expireLiteSubscriptions();
            }
            // Lite topic expiry waits until the broker has been up minLiteTTl: a lite topic idle
            // that long before a restart gets its full time after it.
            const BrokerConfig &config = broker_.brokerConfig();
            if (now - lastLiteTtl >= config.liteTtlCheckInterval
                && common::wallMillis() - broker_.bootTimestamp() >= config.minLiteTTl) {
                lastLiteTtl = now;
                broker_.pop().expireLiteTopics(common::wallMillis());
            }
            const int period = std::clamp(config.registerNameServerPeriod, 10000, 60000);
            if (now - lastRegister >= period) {
                lastRegister = now;
                broker_.registerBrokerAll();
            }
        }
    }

private:
    BrokerController &broker_;
};

BrokerController::BrokerController(BrokerSettings settings, namesrv::NamesrvController *localNamesrv)
    : settings_(std::move(settings)), localNamesrv_(localNamesrv),
      topicTable_(std::make_unique<store::TopicConfigManager>()),
      offsetTable_(std::make_unique<store::ConsumerOffsetManager>()),
      groupTable_(std::make_unique<store::SubscriptionGroupManager>()),
      delayOffsetTable_(std::make_unique<store::DelayOffsetManager>()),
      filterTable_(std::make_unique<store::ConsumerFilterManager>()),
      queueMappingTable_(std::make_unique<store::TopicQueueMappingManager>()),
      consumers_(std::make_unique<ConsumerManager>()), producers_(std::make_unique<ProducerManager>()),
      stats_(std::make_unique<BrokerStats>(settings_.broker.brokerClusterName)), sqlFilters_(std::make_unique<SqlFilterCache>())
{
    topicManager_ = std::make_unique<TopicManager>(settings_.broker, *topicTable_, settings_.store.timerWheelEnable,
                                                   settings_.store.enableLmq);
    publishSettings(settings_);
    pop_ = std::make_unique<pop::PopService>(*this);
}

std::shared_ptr<const BrokerSettings> BrokerController::settings() const
{
    std::lock_guard lock(snapshotMutex_);
    return current_;
}

void BrokerController::publishSettings(BrokerSettings settings)
{
    auto next = std::make_shared<const BrokerSettings>(std::move(settings));
    const int64_t now = common::steadyMicros() / 1000;
    std::lock_guard lock(snapshotMutex_);
    std::erase_if(retired_, [now](const auto &entry) { return now - entry.first >= kRetiredSnapshotMillis; });
    if (current_)
        retired_.emplace_back(now, std::move(current_));
    current_ = std::move(next);
}

BrokerController::~BrokerController()
{
    shutdown();
}

std::string BrokerController::brokerAddress() const
{
    return settings_.store.brokerIP1 + ":" + std::to_string(listenPort());
}

uint16_t BrokerController::listenPort() const
{
    return server_ && server_->isRunning() ? server_->localPort() : static_cast<uint16_t>(settings_.store.listenPort);
}

bool BrokerController::loadConfigFiles(std::string &error)
{
    const std::string configDir = settings_.store.rootDir() + "/config";
    std::error_code ec;
    std::filesystem::create_directories(configDir, ec);
    if (ec) {
        error = "cannot create " + configDir + ": " + ec.message();
        return false;
    }
    // Java 5.5 with enableLmq keeps the offsets in lmqConsumerOffset.json (LmqConsumerOffsetManager)
    // and reads nothing else: read that one when it is there, write both, so that neither broker
    // loses the other's offsets whatever its setting.
    if (settings_.store.enableLmq)
        offsetTable_->setAlternateFileName(store::ConsumerOffsetManager::kLmqFileName);
    store::ConfigManager *managers[] = {topicTable_.get(), offsetTable_.get(), groupTable_.get(),
                                        delayOffsetTable_.get(), filterTable_.get(), queueMappingTable_.get()};
    for (store::ConfigManager *manager : managers) {
        if (!manager->load(configDir, error))
            return false;
        noteConfigLoad(manager->lastLoad().warning);
    }
    if (!pop_->load(configDir, error))
        return false;
    for (const std::string &warning : pop_->loadWarnings())
        noteConfigLoad(warning);
    return topicManager_->initialize(error);
}

void BrokerController::noteConfigLoad(const std::string &warning)
{
    if (warning.empty())
        return;
    spdlog::warn("config: {}", warning);
    configLoadWarnings_.push_back(warning);
}

bool BrokerController::startServer(std::string &error)
{
    const BrokerConfig &config = settings_.broker;
    sendExecutor_ = std::make_unique<remoting::ProcessorExecutor>(
        "send", static_cast<size_t>(config.sendMessageThreadPoolNums), static_cast<size_t>(config.sendThreadPoolQueueCapacity));
    pullExecutor_ = std::make_unique<remoting::ProcessorExecutor>(
        "pull", static_cast<size_t>(config.pullMessageThreadPoolNums), static_cast<size_t>(config.pullThreadPoolQueueCapacity));
    clientExecutor_ = std::make_unique<remoting::ProcessorExecutor>("client", 1, 50000);
    adminExecutor_ = std::make_unique<remoting::ProcessorExecutor>(
        "admin", static_cast<size_t>(config.adminBrokerThreadPoolNums), 10000);

    if (config.fastListenPort > 65535) {
        error = "broker: fastListenPort " + std::to_string(config.fastListenPort) + " is not a port (0: listenPort - 2, -1: none)";
        return false;
    }
    remoting::RemotingServerOptions options = remotingServerOptions(
        config, config.bindAddress, static_cast<uint16_t>(settings_.store.listenPort), "broker");
    options.fastListener = config.fastListenPort >= 0;
    options.fastPort = static_cast<uint16_t>(std::max(config.fastListenPort, 0));
    options.tls = serverTls(settings_, {}, error);
    if (!options.tls)
        return false;
    spdlog::info("broker: {}", options.tls->describe());
    server_ = std::make_unique<remoting::RemotingServer>(std::move(options));
    pullProcessor_ = std::make_unique<PullMessageProcessor>(*this);
    registerBrokerProcessors(*this, *server_, {*sendExecutor_, *pullExecutor_, *clientExecutor_, *adminExecutor_});
    if (!prepareAccessControl(error))
        return false;
    registerAuthProcessors(*server_, *authStore_, *gate_, *adminExecutor_);
    // Before every processor, on its executor (Java's RPC hook and auth pipeline).
    server_->setRequestFilter([gate = gate_](const remoting::RequestContext &context,
                                             const RemotingCommand &request) -> std::optional<RemotingCommand> {
        if (auto refusal = gate->check(request, context.peerAddress()))
            return RemotingCommand::createResponse(request, refusal->code, std::move(refusal->remark));
        return std::nullopt;
    });
    server_->setConnectionCloseListener(
        [this](const remoting::RequestContext &connection) { onConnectionClosed(connection.connectionId()); });
    if (!server_->start(&error)) {
        error = "broker: " + error;
        return false;
    }
    settings_.store.listenPort = server_->localPort();
    if (server_->fastPort() != 0)
        settings_.broker.fastListenPort = server_->fastPort();
    publishSettings(settings_);
    return true;
}

bool BrokerController::start(std::string &error)
{
    if (started_) {
        error = "broker already started";
        return false;
    }
    bootTimestamp_ = common::wallMillis();
    if (!loadConfigFiles(error) || !startServer(error)) {
        shutdown();
        return false;
    }
    store_ = std::make_unique<store::MessageStore>(settings_.store);
    store_->setRecoveryProgress(recoveryProgress_);
    store_->setBatchTopicTest([this](const std::string &topic) {
        const auto config = topicTable_->selectTopicConfig(topic);
        return config && config->isBatchCq();
    });
    pullHold_ = std::make_unique<PullRequestHoldService>(
        [this](HeldPull pull) { pullProcessor_->rerun(std::move(pull)); },
        [this](const std::string &topic, int32_t queueId) { return store_->maxOffsetInQueue(topic, queueId); });
    schedule_ = std::make_unique<ScheduleMessageService>(*this);
    transactions_ = std::make_unique<TransactionService>(*this);
    const auto storeHolds = [this](std::string topic) {
        return [this, topic] { return store_->consumeQueues().hasTopic(topic); };
    };
    topicStartedServices_ = std::make_unique<TopicStartedServices>(std::vector<TopicStartedServices::Service>{
        {std::string(kScheduleTopic), [this] { schedule_->startOnce(); }, storeHolds(std::string(kScheduleTopic))},
        {kTransHalfTopic, [this] { transactions_->startOnce(); }, storeHolds(kTransHalfTopic)},
        {pop_->reviveTopic(), [this] { pop_->startRevive(); }, storeHolds(pop_->reviveTopic())},
    });
    store_->setMessageArrivingListener([this](const store::DispatchRequest &dispatched) {
        pullHold_->notifyMessageArriving(dispatched.topic, dispatched.queueId, dispatched.consumeQueueOffset,
                                         dispatched.tagsCode);
        pop_->notifyMessageArriving(dispatched.topic, dispatched.queueId);
        topicStartedServices_->onMessageArriving(dispatched.topic);
    });
    if (!store_->open(error)) {
        store_.reset();
        shutdown();
        return false;
    }
    // Long polling starts its thread with the first held pull, these with their topic's first
    // message (topic_started_services.h): an idle broker runs none of them.
    schedule_->load();
    pop_->start();
    topicStartedServices_->arm();
    topicManager_->setChangeListener([this] { registerBrokerAll(); });
    remoting::RemotingClientOptions namesrvOptions{.name = "namesrv"};
    if (settings_.tls.clientEnable) { // Java's tls.enable: the broker's outer API speaks TLS too
        namesrvOptions.tls = remoting::makeTlsClientContext(false, {}, {}, error);
        if (!namesrvOptions.tls) {
            shutdown();
            return false;
        }
    }
    namesrvClient_ = std::make_unique<remoting::RemotingClient>(namesrvOptions);
    scheduler_ = std::make_unique<BrokerScheduler>(*this);
    started_ = true;
    // The TPS windows start from the counters at boot; else puts before the scheduler's first
    // sample (a second later) would be in every sample and never in a TPS figure.
    stats_->sample(common::wallMillis());
    serving_.store(true, std::memory_order_release);
    registerBrokerAll();
    scheduler_->start();
    spdlog::info("broker {} serving at {} (cluster {}, store {})", settings_.broker.brokerName, brokerAddress(),
                 settings_.broker.brokerClusterName, settings_.store.rootDir());
    return true;
}

void BrokerController::shutdown()
{
    const bool wasServing = serving_.exchange(false);
    if (topicStartedServices_)
        topicStartedServices_->disarm(); // the services below are about to stop
    if (scheduler_)
        scheduler_->stop();
    if (wasServing)
        unregisterBrokerAll();
    if (server_)
        server_->stop(); // closes every connection: held pulls can no longer be answered
    if (pullHold_) {
        pullHold_->stop();
        pullHold_->releaseAll();
    }
    pop_->shutdown(); // answers parked pops and stops the revive service while the store runs
    for (auto *executor : {sendExecutor_.get(), pullExecutor_.get(), clientExecutor_.get(), adminExecutor_.get()}) {
        if (executor)
            executor->shutdown();
    }
    if (namesrvClient_)
        namesrvClient_->shutdown();
    if (transactions_) {
        transactions_->stop();
        transactions_.reset();
    }
    if (schedule_) {
        // Stopped while the store still takes its puts; the offsets of what it delivered are
        // written before the store closes (a crash in between re-delivers, never loses).
        schedule_->stop();
        schedule_->persist();
        schedule_.reset();
    }
    if (store_) {
        store_->setMessageArrivingListener({});
        store_->shutdown();
    }
    if (started_) {
        persistConsumerOffsets();
        std::string error;
        for (store::ConfigManager *manager :
             {static_cast<store::ConfigManager *>(groupTable_.get()), static_cast<store::ConfigManager *>(topicTable_.get())}) {
            if (!manager->persist(error))
                spdlog::error("broker: {}", error);
        }
        spdlog::info("broker {} stopped", settings_.broker.brokerName);
    }
    started_ = false;
}

void BrokerController::persistConsumerOffsets()
{
    std::string error;
    if (!offsetTable_->persist(error))
        spdlog::error("broker: cannot persist consumer offsets: {}", error);
    pop_->persist(); // FIFO pop state goes with the offsets it explains
}

void BrokerController::dispatchLocal(const std::shared_ptr<remoting::RemotingChannel> &channel,
                                     RemotingCommand request)
{
    if (!server_ || !isServing()) {
        if (!request.isOneway())
            channel->sendResponse(RemotingCommand::createResponse(request, ResponseCode::kSystemError,
                                                                  "broker is starting or stopping, try again"));
        return;
    }
    server_->dispatchLocal(channel, std::move(request));
}

void BrokerController::onConnectionClosed(uint64_t connectionId)
{
    for (const std::string &group : consumers_->removeConnection(connectionId))
        notifyConsumerIdsChanged(group);
    producers_->removeConnection(connectionId);
}

void BrokerController::scanNotActiveClients()
{
    const int64_t now = common::wallMillis();
    // Java's ConsumerManager takes channelExpiredTimeout; its ProducerManager a fixed 120 s.
    constexpr int64_t kProducerExpiredTimeout = 120000;
    for (const std::string &group : consumers_->scanNotActive(now, brokerConfig().channelExpiredTimeout))
        notifyConsumerIdsChanged(group);
    producers_->scanNotActive(now, kProducerExpiredTimeout);
}

void BrokerController::notifyConsumerIdsChanged(const std::string &group)
{
    if (!brokerConfig().realTimeNotifyConsumerChange) {
        consumers_->deferNotification(group);
        return;
    }
    sendConsumerIdsChanged(group);
}

void BrokerController::notifyDeferredConsumerIdsChanges()
{
    for (const std::string &group : consumers_->takeDeferredNotifications())
        sendConsumerIdsChanged(group);
}

void BrokerController::sendConsumerIdsChanged(const std::string &group)
{
    const auto info = consumers_->group(group);
    if (!info)
        return;
    for (const ClientChannelInfo &channel : info->channels) {
        RemotingCommand notify = RemotingCommand::createRequest(RequestCode::kNotifyConsumerIdsChanged);
        remoting::setField(notify.extFields, "consumerGroup", group);
        // A consumer that is not reading loses it (it rebalances every 20 s anyway) rather than
        // the broker its memory.
        channel.channel.sendDroppable(std::move(notify));
    }
}

void BrokerController::registerBrokerAll()
{
    if (!isServing())
        return;
    std::lock_guard registering(registerMutex_);
    remoting::TopicConfigSerializeWrapper wrapper;
    wrapper.dataVersion = toWireVersion(topicTable_->dataVersion());
    const auto snapshot = settings();
    const int32_t brokerPerm = snapshot->broker.brokerPermission;
    for (const store::TopicConfig &topic : topicTable_->topicConfigs()) {
        remoting::TopicConfigData data = toWireTopicConfig(topic);
        // A broker without write permission advertises its topics read-only (Java does the same).
        if ((brokerPerm & store::perm::kWrite) == 0)
            data.perm &= brokerPerm;
        wrapper.topicConfigTable.push_back(std::move(data));
    }
    // Static topics: the summary of each mapping, from which the NameServer builds the route's
    // topicQueueMappingByBroker (Java's registerBrokerAll).
    for (const auto &[topic, detail] : queueMappingTable_->all())
        wrapper.topicQueueMappingInfoMap.emplace(topic, detail.asInfo());
    const std::string address = brokerAddress();
    const BrokerConfig &config = snapshot->broker;
    if (localNamesrv_)
        localNamesrv_->routes().registerBroker(config.brokerClusterName, address, config.brokerName, config.brokerId,
                                               settings_.store.brokerIP1 + ":" + std::to_string(listenPort() + 1),
                                               wrapper, 0, common::wallMillis());
    if (config.namesrvAddr.empty())
        return;
    remoting::RegisterBrokerBody body;
    body.topicConfigSerializeWrapper = std::move(wrapper);
    const std::string json = body.toJson();
    for (const std::string &namesrv : common::splitAddressList(config.namesrvAddr)) {
        if (std::string error = registerWithRemote(namesrv, json); !error.empty())
            spdlog::warn("broker: registration with NameServer {} failed: {}", namesrv, error);
    }
}

std::string BrokerController::registerWithRemote(const std::string &namesrvAddr, const std::string &body)
{
    const auto snapshot = settings();
    const BrokerConfig &config = snapshot->broker;
    RemotingCommand request = RemotingCommand::createRequest(RequestCode::kRegisterBroker);
    remoting::setField(request.extFields, "brokerName", config.brokerName);
    remoting::setField(request.extFields, "brokerAddr", brokerAddress());
    remoting::setField(request.extFields, "clusterName", config.brokerClusterName);
    remoting::setField(request.extFields, "haServerAddr",
                       settings_.store.brokerIP1 + ":" + std::to_string(listenPort() + 1));
    remoting::setField(request.extFields, "brokerId", config.brokerId);
    remoting::setField(request.extFields, "compressed", false);
    request.body.assign(body.begin(), body.end());
    signAsBroker(request);
    const remoting::InvokeResult result = namesrvClient_->invokeSync(
        namesrvAddr, std::move(request), std::chrono::milliseconds(config.registerBrokerTimeoutMills));
    if (!result.ok())
        return result.errorMessage;
    if (result.response.code != ResponseCode::kSuccess)
        return "answered " + std::to_string(result.response.code) + ": " + result.response.remark.value_or("");
    return {};
}

void BrokerController::signAsBroker(RemotingCommand &request) const
{
    // Java's BrokerOuterAPI signs with innerClientAuthenticationCredentials (a Super user), so a
    // NameServer with access control on lets this broker register.
    if (gate_) {
        if (const acl::Credentials credentials = gate_->config().innerCredentials(); credentials.enabled())
            acl::signRequest(request, credentials);
    }
}

void BrokerController::unregisterBrokerAll()
{
    const BrokerConfig &config = settings_.broker;
    if (localNamesrv_)
        localNamesrv_->routes().unregisterBroker(config.brokerClusterName, brokerAddress(), config.brokerName,
                                                 config.brokerId);
    for (const std::string &namesrv : common::splitAddressList(config.namesrvAddr)) {
        if (!namesrvClient_)
            break;
        RemotingCommand request = RemotingCommand::createRequest(RequestCode::kUnregisterBroker);
        remoting::setField(request.extFields, "brokerName", config.brokerName);
        remoting::setField(request.extFields, "brokerAddr", brokerAddress());
        remoting::setField(request.extFields, "clusterName", config.brokerClusterName);
        remoting::setField(request.extFields, "brokerId", config.brokerId);
        signAsBroker(request);
        namesrvClient_->invokeSync(namesrv, std::move(request), std::chrono::milliseconds(3000));
    }
}

namespace {

// The keys UPDATE_BROKER_CONFIG applies while the broker runs: what is read from the current
// snapshot on every use, plus the store's live switches (flush mode, transient pool, flush interval, writeWithoutMmap). Every other setting is read once at
// start (sockets, executors, the store's files and services, the topic manager's defaults, ACL)
// and is refused rather than stored and ignored.
bool isLiveKey(std::string_view key)
{
    static const std::set<std::string_view> live = {
        "regionId", "brokerPermission", "autoCreateSubscriptionGroup", "enableCreateSysGroup", "realTimeNotifyConsumerChange", "longPollingEnable", "enablePropertyFilter", "shortPollingTimeMills",
        "traceOn", "rejectTransactionMessage", "transactionTimeOut", "transactionCheckMax",
        "transactionCheckInterval", "registerNameServerPeriod", "registerBrokerTimeoutMills",
        "channelExpiredTimeout", "startAcceptSendRequestTimeStamp", "flushConsumerOffsetInterval", "mqdeskExtensionsEnable", "flushDiskType", "transientStorePoolEnable",
        "flushIntervalCommitLog", "writeWithoutMmap", "enableLmqQuota", "maxLmqConsumeQueueNum",
        // read by each request or scheduler turn from the settings in force
        "useServerSideResetOffset", "popFromRetryProbability", "initPopOffsetByCheckMsgInMem", "popFromRetryProbabilityForPriority",
        "priorityOrderAsc", "liteSubscriptionCheckTimeoutMills", "liteTtlCheckInterval", "minLiteTTl",
        "enableNotifyAfterPopOrderLockRelease", "enablePopBufferMerge", "enableSingleTopicRegister",
        "enableSplitRegistration", "splitRegistrationSize", "estimateAccumulation",
        "maxTransferBytesOnMessageInMemory", "maxTransferCountOnMessageInMemory", "maxTransferBytesOnMessageInDisk",
        "maxTransferCountOnMessageInDisk", "accessMessageInMemoryMaxRatio", "maxMsgsNumBatch", "defaultQueryMaxNum"};
    return live.contains(key);
}

} // namespace

std::string BrokerController::updateConfig(const std::map<std::string, std::string> &properties)
{
    std::lock_guard lock(settingsMutex_);
    BrokerSettings next = *settings();
    for (const auto &[key, value] : properties) {
        // Values first: a bad value or an unknown key is named as such.
        if (std::string error = next.set(key, value); !error.empty())
            return error;
        if (!isLiveKey(key))
            return "setting " + key + " is read only when the broker starts; not changed (set it in broker.conf "
                   "and restart)";
    }
    // Everything checked: now the store's live switches (the pool first, as it can refuse),
    // then the new snapshot for everybody else.
    const auto current = settings();
    if (store_ && next.store.transientStorePoolEnable != current->store.transientStorePoolEnable
        && !store_->setTransientStorePoolEnable(next.store.transientStorePoolEnable))
        return "transientStorePoolEnable cannot be switched now (buffered data not yet committed)";
    if (store_ && next.store.flushDiskType != current->store.flushDiskType)
        store_->setFlushDiskType(next.store.flushDiskType);
    if (store_ && next.store.flushIntervalCommitLog != current->store.flushIntervalCommitLog)
        store_->setFlushIntervalCommitLog(next.store.flushIntervalCommitLog);
    if (store_ && next.store.writeWithoutMmap != current->store.writeWithoutMmap)
        store_->commitLog().setWriteWithoutMmap(next.store.writeWithoutMmap);
    if (store_ && (next.store.enableLmqQuota != current->store.enableLmqQuota
                   || next.store.maxLmqConsumeQueueNum != current->store.maxLmqConsumeQueueNum))
        store_->commitLog().setLmqQuota(next.store.enableLmqQuota, next.store.maxLmqConsumeQueueNum);
    publishSettings(std::move(next));
    return {};
}

std::string BrokerController::configText() const
{
    return settings()->toPropertiesText();
}

void BrokerController::setRuntimeInfoSource(const std::string &name, std::function<RuntimeFigures()> source)
{
    std::lock_guard lock(runtimeSourcesMutex_);
    if (source)
        runtimeSources_[name] = std::move(source);
    else
        runtimeSources_.erase(name);
}

BrokerController::RuntimeFigures BrokerController::externalRuntimeInfo() const
{
    std::lock_guard lock(runtimeSourcesMutex_);
    RuntimeFigures figures;
    for (const auto &[name, source] : runtimeSources_)
        for (auto &figure : source())
            figures.push_back(std::move(figure));
    return figures;
}

} // namespace mqdesk::server
