// clusterList: every broker of every cluster with its version and throughput, from
// GET_BROKER_CLUSTER_INFO and one GET_BROKER_RUNTIME_INFO per broker (as mqadmin).

#include "app/mqdesk-admin/admin_output.h"
#include "app/mqdesk-admin/admin_session.h"

#include <CLI/CLI.hpp>

#include <iostream>

namespace mqdesk::admin {

namespace {

int64_t counter(const std::map<std::string, std::string> &table, const std::string &key)
{
    const auto it = table.find(key);
    return it == table.end() ? 0 : std::strtoll(it->second.c_str(), nullptr, 10);
}

int runClusterList(AdminSession &s)
{
    if (!s.requireNamesrv())
        return kAdminUsage;
    const AdminOptions &o = s.options();
    client::Result<remoting::ClusterInfo> info = s.admin().clusterInfo();
    if (!info.ok)
        return s.fail(info.status());
    if (!o.cluster.empty() && !info.value.clusterAddrTable.contains(o.cluster))
        return s.fail("no cluster named " + o.cluster + " is registered with " + o.namesrv);

    std::vector<std::string> headers{"#Cluster Name", "#Broker Name", "#BID", "#Addr", "#Version", "#InTPS", "#OutTPS"};
    if (o.moreStats)
        headers.insert(headers.end(), {"#InTotalYest", "#OutTotalYest", "#InTotalToday", "#OutTotalToday"});
    TextTable table(headers);
    int exitCode = kAdminOk;
    for (const auto &[cluster, brokerNames] : info.value.clusterAddrTable) {
        if (!o.cluster.empty() && cluster != o.cluster)
            continue;
        for (const std::string &brokerName : brokerNames) {
            const auto broker = info.value.brokerAddrTable.find(brokerName);
            if (broker == info.value.brokerAddrTable.end())
                continue;
            for (const auto &[brokerId, addr] : broker->second.brokerAddrs) {
                client::Result<remoting::KVTable> runtime = s.admin().brokerRuntimeInfo(addr);
                if (!runtime.ok)
                    exitCode = s.fail(runtime.status()); // still list the other brokers
                const auto &kv = runtime.value.table;
                const auto get = [&](const std::string &key) {
                    const auto it = kv.find(key);
                    return it == kv.end() ? std::string("-") : it->second;
                };
                const int64_t inYesterday = counter(kv, "msgPutTotalTodayMorning") - counter(kv, "msgPutTotalYesterdayMorning");
                const int64_t outYesterday = counter(kv, "msgGetTotalTodayMorning") - counter(kv, "msgGetTotalYesterdayMorning");
                const int64_t inToday = counter(kv, "msgPutTotalTodayNow") - counter(kv, "msgPutTotalTodayMorning");
                const int64_t outToday = counter(kv, "msgGetTotalTodayNow") - counter(kv, "msgGetTotalTodayMorning");
                const std::string inTps = runtime.ok ? firstNumber(get("putTps")) : "-";
                const std::string outTps = runtime.ok ? firstNumber(get("getTotalTps")) : "-";
                if (s.json()) {
                    common::JsonObject json;
                    json.set("cluster", cluster);
                    json.set("brokerName", brokerName);
                    json.set("brokerId", brokerId);
                    // RocketMQ's convention: brokerId 0 is the master of its brokerName, any other a slave.
                    json.set("role", brokerId == 0 ? "MASTER" : "SLAVE");
                    json.set("addr", addr);
                    json.set("reachable", runtime.ok);
                    json.set("version", get("brokerVersionDesc"));
                    json.set("inTps", std::strtod(inTps.c_str(), nullptr));
                    json.set("outTps", std::strtod(outTps.c_str(), nullptr));
                    json.set("inTotalYesterday", inYesterday);
                    json.set("outTotalYesterday", outYesterday);
                    json.set("inTotalToday", inToday);
                    json.set("outTotalToday", outToday);
                    printJsonLine(std::cout, json);
                    continue;
                }
                std::vector<std::string> row{cluster, brokerName, std::to_string(brokerId), addr,
                                             get("brokerVersionDesc"), inTps, outTps};
                if (o.moreStats)
                    row.insert(row.end(), {std::to_string(inYesterday), std::to_string(outYesterday),
                                           std::to_string(inToday), std::to_string(outToday)});
                table.addRow(std::move(row));
            }
        }
    }
    if (!s.json())
        table.print(std::cout);
    return exitCode;
}

} // namespace

void addClusterCommands(CLI::App &app, AdminOptions &options)
{
    auto *list = addAdminCommand(app, options, "clusterList", "List the brokers of each cluster with version and TPS",
                                 runClusterList);
    list->add_option("-c,--clusterName", options.cluster, "Only this cluster");
    list->add_flag("-m,--moreStats", options.moreStats, "Also yesterday's and today's message totals");
}

} // namespace mqdesk::admin
