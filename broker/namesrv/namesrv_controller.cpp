#include "broker/namesrv/namesrv_controller.h"

#include "broker/common/service_thread.h"
#include "broker/remoting/net/processor_executor.h"
#include "broker/remoting/net/remoting_server.h"

#include <spdlog/spdlog.h>

namespace mqdesk::namesrv {

using remoting::RemotingCommand;
using remoting::RequestCode;

// Drops expired brokers every scanPeriod (read each turn, so an update applies at the next wait).
class NamesrvController::ExpiryScanner final : public common::ServiceThread
{
public:
    explicit ExpiryScanner(NamesrvController &owner) : ServiceThread("namesrv-scan"), owner_(owner) {}
    ~ExpiryScanner() override { stop(); }

protected:
    void run() override
    {
        while (!isStopped()) {
            waitForRunning(std::chrono::milliseconds(owner_.scanPeriodMillis_.load()));
            if (isStopped())
                break;
            owner_.scanExpiredBrokers();
        }
    }

private:
    NamesrvController &owner_;
};

NamesrvController::NamesrvController(NamesrvConfig config)
    : initialConfig_(std::move(config)),
      brokerExpiryMillis_(initialConfig_.brokerExpiry.count()),
      scanPeriodMillis_(initialConfig_.scanPeriod.count()),
      orderMessageEnable_(initialConfig_.orderMessageEnable)
{
}

NamesrvController::~NamesrvController() { stop(); }

void NamesrvController::setRequestFilter(remoting::RequestFilter filter)
{
    requestFilter_ = std::move(filter);
}

bool NamesrvController::start(std::string &error)
{
    std::lock_guard lock(lifecycleMutex_);
    if (server_) {
        error = "namesrv already started";
        return false;
    }
    executor_ = std::make_unique<remoting::ProcessorExecutor>("namesrv", initialConfig_.processorThreads,
                                                              initialConfig_.processorQueueCapacity);
    remoting::RemotingServerOptions options = initialConfig_.clientLimits;
    options.host = initialConfig_.listenHost;
    options.port = initialConfig_.listenPort;
    options.ioThreads = initialConfig_.ioThreads;
    options.name = "namesrv";
    server_ = std::make_unique<remoting::RemotingServer>(options);
    registerProcessors();
    if (requestFilter_)
        server_->setRequestFilter(requestFilter_);
    // On an io thread: one short exclusive lock, no I/O.
    server_->setConnectionCloseListener([this](const remoting::RequestContext &connection) {
        for (const std::string &addr : routes_.onConnectionClosed(connection.connectionId()))
            spdlog::info("namesrv: broker {} removed, its connection from {} closed", addr, connection.peerAddress());
    });
    if (!server_->start(&error)) {
        server_.reset();
        executor_->shutdown();
        executor_.reset();
        return false;
    }
    scanner_ = std::make_unique<ExpiryScanner>(*this);
    scanner_->start();
    spdlog::info("namesrv: listening on {}:{}", initialConfig_.listenHost, server_->localPort());
    return true;
}

void NamesrvController::stop()
{
    std::lock_guard lock(lifecycleMutex_);
    if (server_)
        server_->stop();
    scanner_.reset(); // joins
    if (executor_)
        executor_->shutdown();
    server_.reset();
    executor_.reset();
}

uint16_t NamesrvController::localPort() const
{
    return server_ ? server_->localPort() : 0;
}

NamesrvConfig NamesrvController::config() const
{
    NamesrvConfig config = initialConfig_;
    config.brokerExpiry = std::chrono::milliseconds(brokerExpiryMillis_.load());
    config.scanPeriod = std::chrono::milliseconds(scanPeriodMillis_.load());
    config.orderMessageEnable = orderMessageEnable_.load();
    return config;
}

void NamesrvController::scanExpiredBrokers()
{
    for (const std::string &addr : routes_.scanExpiredBrokers(steadyMillis(), brokerExpiryMillis_.load()))
        spdlog::warn("namesrv: broker {} expired, no registration for {} ms", addr, brokerExpiryMillis_.load());
}

void NamesrvController::addProcessor(int32_t code, Handler handler)
{
    server_->registerProcessor(
        code,
        [this, handler](const remoting::RequestContext &context, RemotingCommand request, remoting::Responder respond) {
            respond((this->*handler)(context, request));
        },
        *executor_);
}

void NamesrvController::registerProcessors()
{
    addProcessor(RequestCode::kRegisterBroker, &NamesrvController::registerBroker);
    addProcessor(RequestCode::kUnregisterBroker, &NamesrvController::unregisterBroker);
    addProcessor(RequestCode::kGetRouteinfoByTopic, &NamesrvController::routeInfoByTopic);
    addProcessor(RequestCode::kGetBrokerClusterInfo, &NamesrvController::brokerClusterInfo);
    addProcessor(RequestCode::kGetAllTopicListFromNameserver, &NamesrvController::allTopicList);
    addProcessor(RequestCode::kDeleteTopicInNamesrv, &NamesrvController::deleteTopic);
    addProcessor(RequestCode::kGetTopicsByCluster, &NamesrvController::topicsByCluster);
    addProcessor(RequestCode::kGetSystemTopicListFromNs, &NamesrvController::systemTopicList);
    addProcessor(RequestCode::kPutKvConfig, &NamesrvController::putKvConfig);
    addProcessor(RequestCode::kGetKvConfig, &NamesrvController::getKvConfig);
    addProcessor(RequestCode::kDeleteKvConfig, &NamesrvController::deleteKvConfig);
    addProcessor(RequestCode::kGetKvlistByNamespace, &NamesrvController::kvListByNamespace);
    addProcessor(RequestCode::kWipeWritePermOfBroker, &NamesrvController::wipeWritePerm);
    addProcessor(RequestCode::kAddWritePermOfBroker, &NamesrvController::addWritePerm);
    addProcessor(RequestCode::kUpdateNamesrvConfig, &NamesrvController::updateConfig);
    addProcessor(RequestCode::kGetNamesrvConfig, &NamesrvController::getConfig);
    addProcessor(RequestCode::kQueryDataVersion, &NamesrvController::queryDataVersion);
}

} // namespace mqdesk::namesrv
