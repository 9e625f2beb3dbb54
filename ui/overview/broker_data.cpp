#include "ui/overview/broker_data.h"

#include "broker/client/admin_client.h"

#include <QDateTime>

#include <map>

namespace mqdesk::ui {

namespace {

QString flushModeName(const std::string &flushDiskType, bool pool)
{
    QString name = QString::fromStdString(flushDiskType);
    if (pool)
        name += QStringLiteral(" + pool");
    return name;
}

// MQDesk reports its flush mode (which it can switch live) in the runtime info; a Java broker's
// is only in its config.
QString flushModeOf(client::AdminClient &admin, const std::string &address, const client::BrokerRuntime &runtime)
{
    if (!runtime.flushDiskType.empty())
        return flushModeName(runtime.flushDiskType, runtime.transientStorePoolEnable.value_or(false));
    const client::Result<std::map<std::string, std::string>> config = admin.brokerConfig(address);
    if (!config.ok)
        return {};
    const auto type = config.value.find("flushDiskType");
    if (type == config.value.end())
        return {};
    const auto pool = config.value.find("transientStorePoolEnable");
    return flushModeName(type->second, pool != config.value.end() && pool->second == "true");
}

} // namespace

BrokerListing fetchBrokerRows(client::AdminClient &admin)
{
    BrokerListing listing;
    const client::Result<remoting::ClusterInfo> info = admin.clusterInfo();
    if (!info.ok) {
        listing.status = info.status();
        return listing;
    }
    for (const auto &[cluster, brokerNames] : info.value.clusterAddrTable) {
        for (const std::string &brokerName : brokerNames) {
            const auto broker = info.value.brokerAddrTable.find(brokerName);
            if (broker == info.value.brokerAddrTable.end())
                continue;
            for (const auto &[brokerId, address] : broker->second.brokerAddrs) {
                BrokerRow row;
                row.cluster = QString::fromStdString(cluster);
                row.brokerName = QString::fromStdString(brokerName);
                row.brokerId = brokerId;
                row.address = QString::fromStdString(address);
                const client::Result<remoting::KVTable> runtime = admin.brokerRuntimeInfo(address);
                row.fetchedAt = QDateTime::currentMSecsSinceEpoch();
                if (runtime.ok) {
                    row.runtime = client::readBrokerRuntime(runtime.value.table);
                    row.flushMode = flushModeOf(admin, address, row.runtime);
                } else {
                    row.error = QString::fromStdString(runtime.error);
                }
                listing.rows.push_back(std::move(row));
            }
        }
    }
    return listing;
}

} // namespace mqdesk::ui
