// brokerStatus, getBrokerConfig, updateBrokerConfig: one broker (-b ADDR) or every master of a
// cluster (-c CLUSTER), through GET_BROKER_RUNTIME_INFO, GET_BROKER_CONFIG, UPDATE_BROKER_CONFIG.

#include "app/mqdesk-admin/admin_output.h"
#include "app/mqdesk-admin/admin_session.h"

#include <CLI/CLI.hpp>

#include <iostream>

namespace mqdesk::admin {

namespace {

common::JsonObject tableToJson(const std::map<std::string, std::string> &table)
{
    common::JsonObject json;
    for (const auto &[key, value] : table)
        json.set(key, value);
    return json;
}

int runBrokerStatus(AdminSession &s)
{
    std::vector<std::string> brokers;
    int exitCode = kAdminOk;
    if (!s.targetBrokers(brokers, exitCode))
        return exitCode;
    KeyValueList list;
    for (const std::string &addr : brokers) {
        client::Result<remoting::KVTable> runtime = s.admin().brokerRuntimeInfo(addr);
        if (!runtime.ok) {
            exitCode = s.fail(runtime.status());
            continue;
        }
        if (s.json()) {
            common::JsonObject json;
            json.set("brokerAddr", addr);
            json.set("runtimeInfo", tableToJson(runtime.value.table));
            printJsonLine(std::cout, json);
            continue;
        }
        // One broker: mqadmin's "key: value"; several: each key prefixed with its broker.
        for (const auto &[key, value] : runtime.value.table)
            list.add(brokers.size() == 1 ? key : addr + "  " + key, value);
    }
    if (!s.json())
        list.print(std::cout);
    return exitCode;
}

int runGetBrokerConfig(AdminSession &s)
{
    std::vector<std::string> brokers;
    int exitCode = kAdminOk;
    if (!s.targetBrokers(brokers, exitCode))
        return exitCode;
    for (const std::string &addr : brokers) {
        client::Result<std::map<std::string, std::string>> config = s.admin().brokerConfig(addr);
        if (!config.ok) {
            exitCode = s.fail(config.status());
            continue;
        }
        if (s.json()) {
            common::JsonObject json;
            json.set("brokerAddr", addr);
            json.set("config", tableToJson(config.value));
            printJsonLine(std::cout, json);
            continue;
        }
        // broker.conf syntax, so that the output can be saved and edited as a config file.
        std::cout << "# " << addr << '\n';
        for (const auto &[key, value] : config.value)
            std::cout << key << '=' << value << '\n';
    }
    return exitCode;
}

int runUpdateBrokerConfig(AdminSession &s)
{
    const AdminOptions &o = s.options();
    std::vector<std::string> brokers;
    int exitCode = kAdminOk;
    if (!s.targetBrokers(brokers, exitCode))
        return exitCode;
    for (const std::string &addr : brokers) {
        // A broker ignores keys it does not know; say so instead of reporting a silent no-op.
        client::Result<std::map<std::string, std::string>> config = s.admin().brokerConfig(addr);
        if (!config.ok)
            return s.fail(config.status());
        if (!config.value.contains(o.key))
            return s.fail(addr + ": the broker has no config key '" + o.key + "'");
        if (client::Status status = s.admin().updateBrokerConfig(addr, {{o.key, o.value}}); !status.ok)
            return s.fail(status);
        if (s.json()) {
            common::JsonObject json;
            json.set("brokerAddr", addr);
            json.set("key", o.key);
            json.set("value", o.value);
            json.set("oldValue", config.value.at(o.key));
            printJsonLine(std::cout, json);
        } else {
            std::cout << "update broker config success, " << addr << ": " << o.key << '=' << o.value << '\n';
        }
    }
    return kAdminOk;
}

void addTarget(CLI::App *sub, AdminOptions &options)
{
    sub->add_option("-b,--brokerAddr", options.brokerAddr, "Broker address (host:port)");
    sub->add_option("-c,--clusterName", options.cluster, "Every master of this cluster");
}

} // namespace

void addBrokerCommands(CLI::App &app, AdminOptions &options)
{
    addTarget(addAdminCommand(app, options, "brokerStatus", "Broker runtime statistics (key: value)", runBrokerStatus),
              options);
    addTarget(addAdminCommand(app, options, "getBrokerConfig", "Broker configuration (key=value)", runGetBrokerConfig),
              options);
    auto *update = addAdminCommand(app, options, "updateBrokerConfig", "Change one broker setting live",
                                   runUpdateBrokerConfig);
    addTarget(update, options);
    update->add_option("-k,--key", options.key, "Config key")->required();
    update->add_option("-v,--value", options.value, "New value")->required();
}

} // namespace mqdesk::admin
