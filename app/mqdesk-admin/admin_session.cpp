#include "app/mqdesk-admin/admin_session.h"

#include <CLI/CLI.hpp>

#include <iostream>

namespace mqdesk::admin {

AdminSession::~AdminSession()
{
    if (admin_)
        admin_->shutdown();
}

client::ClientConfig AdminSession::clientConfig() const
{
    client::ClientConfig config;
    config.namesrvAddr = options_.namesrv;
    config.timeoutMillis = options_.timeoutMillis;
    config.credentials = options_.credentials;
    config.useTls = options_.tls || !options_.tlsCaFile.empty();
    config.tlsTrustCertPath = options_.tlsCaFile;
    // Our pulls never ask the broker to hold them, but the transport deadline must stay
    // bounded by the same timeout so that no command can hang.
    config.pullTimeoutMillis = options_.timeoutMillis;
    config.instanceName = "mqdesk-admin-" + client::ClientConfig::defaultInstanceName();
    return config;
}

client::AdminClient &AdminSession::admin()
{
    if (!admin_)
        admin_ = std::make_unique<client::AdminClient>(clientConfig());
    return *admin_;
}

bool AdminSession::requireNamesrv() const
{
    if (!options_.namesrv.empty())
        return true;
    usage("no NameServer address: pass -n host:port or set NAMESRV_ADDR");
    return false;
}

int AdminSession::fail(const std::string &message) const
{
    std::cerr << "mqdesk-admin " << options_.command << ": " << message << '\n';
    return kAdminFailed;
}

int AdminSession::fail(const client::Status &status) const
{
    // The client calls a NameServer's answer "namesrv REQUEST(code) …" without an address (it
    // may have asked several); name the ones we were given.
    if (status.error.starts_with("namesrv ") && !options_.namesrv.empty())
        return fail("namesrv " + options_.namesrv + status.error.substr(7));
    return fail(status.error);
}

int AdminSession::usage(const std::string &message) const
{
    std::cerr << "mqdesk-admin " << options_.command << ": " << message << '\n';
    return kAdminUsage;
}

bool AdminSession::targetBrokers(std::vector<std::string> &out, int &exitCode)
{
    if (options_.brokerAddr.empty() == options_.cluster.empty()) {
        exitCode = usage("give exactly one of -b BROKER_ADDR or -c CLUSTER");
        return false;
    }
    if (!options_.brokerAddr.empty()) {
        out = {options_.brokerAddr};
        return true;
    }
    if (!requireNamesrv()) {
        exitCode = kAdminUsage;
        return false;
    }
    client::Result<std::vector<std::string>> masters = admin().masterAddresses(options_.cluster);
    if (!masters.ok) {
        exitCode = fail(masters.status());
        return false;
    }
    out = std::move(masters.value);
    return true;
}

CLI::App *addAdminCommand(CLI::App &app, AdminOptions &options, const std::string &name,
                          const std::string &description, int (*run)(AdminSession &))
{
    CLI::App *sub = app.add_subcommand(name, description);
    sub->callback([&options, name, run] {
        options.command = name;
        options.run = run;
    });
    return sub;
}

} // namespace mqdesk::admin
