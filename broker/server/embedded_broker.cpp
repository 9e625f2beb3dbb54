#include "broker/server/embedded_broker.h"

#include "broker/acl/access_gate.h"
#include "broker/common/descriptors.h"
#include "broker/remoting/net/remoting_server.h"
#include "broker/namesrv/namesrv_controller.h"
#include "broker/remoting/net/remoting_channel.h"
#include "broker/server/bind_policy.h"
#include "broker/server/broker_controller.h"
#include "broker/server/client_limits.h"
#include "broker/server/topic_manager.h"

#include <spdlog/spdlog.h>

#include <filesystem>

namespace mqdesk::server {

acl::Credentials consoleCredentials(const EmbeddedBrokerOptions &options)
{
    const BrokerConfig &config = options.settings.broker;
    acl::Credentials credentials;
    if (!config.authenticationEnabled)
        return credentials;
    std::string error;
    if (!config.innerClientAuthenticationCredentials.empty()
        && acl::parseCredentialJson("innerClientAuthenticationCredentials", config.innerClientAuthenticationCredentials,
                                    "accessKey", "secretKey", credentials.accessKey, credentials.secretKey, error))
        return credentials;
    if (!config.initAuthenticationUser.empty()
        && acl::parseCredentialJson("initAuthenticationUser", config.initAuthenticationUser, "username", "password",
                                    credentials.accessKey, credentials.secretKey, error))
        return credentials;
    return {};
}

EmbeddedBroker::EmbeddedBroker(EmbeddedBrokerOptions options) : options_(std::move(options)) {}

EmbeddedBroker::~EmbeddedBroker()
{
    shutdown();
}

void EmbeddedBroker::reserveDescriptors()
{
    const common::DescriptorLimit limit = common::raiseOpenFileLimit();
    if (!limit.error.empty())
        spdlog::warn("open-file limit: {}", limit.error);
    const uint64_t budget = common::connectionBudget(limit.soft);
    if (limit.soft > 0) {
        spdlog::info("open-file limit {} (was {}, hard {}): client connections may use {} of it, the rest is kept "
                     "for the store",
                     limit.soft, limit.softBefore, limit.hard, budget);
        remoting::RemotingServer::setProcessConnectionLimit(std::max<uint64_t>(budget, 1));
    }
}

bool EmbeddedBroker::start(std::string &error)
{
    if (error = checkBindPolicy(options_.settings, options_.allowUnauthenticated); !error.empty())
        return false;
    if (isExposedWithoutAcl(options_.settings)) {
        spdlog::warn("listening on {} WITHOUT access control: any host that reaches it can read, write and delete "
                     "every topic (set aclEnable=true, see README, Access control)",
                     options_.settings.broker.bindAddress);
    }
    resolveAdvertisedAddress(options_.settings);
    reserveDescriptors();
    if (options_.startNamesrv) {
        namesrv::NamesrvConfig config;
        config.listenHost = options_.settings.broker.bindAddress;
        config.listenPort = options_.namesrvPort;
        config.clientLimits = remotingServerOptions(options_.settings.broker, {}, 0, {});
        config.clientLimits.tls = serverTls(options_.settings, {}, error);
        if (!config.clientLimits.tls)
            return false;
        namesrv_ = std::make_unique<namesrv::NamesrvController>(config);
    }
    broker_ = std::make_unique<BrokerController>(options_.settings, namesrv_.get());
    broker_->setRecoveryProgress(options_.recoveryProgress);
    if (namesrv_) {
        // The NameServer's gate is ready before its port opens.
        if (!broker_->prepareAccessControl(error))
            return false;
        namesrv_->setRequestFilter([gate = broker_->namesrvGate()](const remoting::RequestContext &context,
                                                                    const remoting::RemotingCommand &request)
                                       -> std::optional<remoting::RemotingCommand> {
            if (auto refusal = gate->check(request, context.peerAddress()))
                return remoting::RemotingCommand::createResponse(request, refusal->code, std::move(refusal->remark));
            return std::nullopt;
        });
        if (!namesrv_->start(error)) {
            error = "namesrv: " + error;
            namesrv_.reset();
            return false;
        }
    }
    if (!broker_->start(error)) {
        if (namesrv_)
            namesrv_->stop();
        return false;
    }
    if (!applySeeds(*broker_, options_.topics, options_.groups, error)) {
        shutdown();
        return false;
    }
    return true;
}

void EmbeddedBroker::shutdown()
{
    if (broker_)
        broker_->shutdown();
    if (namesrv_)
        namesrv_->stop();
}

std::string EmbeddedBroker::namesrvAddress() const
{
    if (!namesrv_)
        return {};
    const std::string &bind = options_.settings.broker.bindAddress;
    const std::string &host = isWildcardAddress(bind) ? options_.settings.store.brokerIP1 : bind;
    return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + std::to_string(namesrv_->localPort());
}

std::string EmbeddedBroker::brokerAddress() const
{
    return broker_ ? broker_->brokerAddress() : std::string();
}

std::string EmbeddedBroker::storeDir() const
{
    std::error_code ec;
    const auto absolute = std::filesystem::absolute(options_.settings.store.rootDir(), ec);
    return ec ? options_.settings.store.rootDir() : absolute.lexically_normal().string();
}

std::string EmbeddedBroker::readyLine() const
{
    std::string line = "mqdesk-broker ready: namesrv=";
    line += namesrv_ ? namesrvAddress() : options_.settings.broker.namesrvAddr;
    line += " broker=" + brokerAddress() + " store=" + storeDir();
    return line;
}

} // namespace mqdesk::server
