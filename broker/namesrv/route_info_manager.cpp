#include "broker/namesrv/route_info_manager.h"

#include <mutex>

namespace mqdesk::namesrv {

using remoting::BrokerData;
using remoting::QueueData;
using remoting::TopicList;

RegisterBrokerResult RouteInfoManager::registerBroker(
    const std::string &clusterName, const std::string &brokerAddr, const std::string &brokerName, int64_t brokerId,
    const std::string &haServerAddr, const std::optional<remoting::TopicConfigSerializeWrapper> &topicConfig,
    uint64_t connectionId, int64_t nowMillis, const std::vector<std::string> &filterServerList)
{
    std::unique_lock lock(mutex_);
    clusterAddrTable_[clusterName].insert(brokerName);

    auto [brokerIt, firstOfName] = brokerAddrTable_.try_emplace(brokerName);
    BrokerData &broker = brokerIt->second;
    broker.cluster = clusterName;
    broker.brokerName = brokerName;
    // A slave promoted to master (or any id change) re-registers the same address under its
    // new id: the old id must not keep pointing at it.
    std::erase_if(broker.brokerAddrs,
                  [&](const auto &entry) { return entry.second == brokerAddr && entry.first != brokerId; });
    const auto [addrIt, newAddress] = broker.brokerAddrs.insert_or_assign(brokerId, brokerAddr);
    (void)addrIt;
    const bool registerFirst = firstOfName || newAddress;

    const auto liveIt = brokerLiveTable_.find(brokerAddr);
    if (topicConfig && brokerId == BrokerData::kMasterId) {
        const bool changed = liveIt == brokerLiveTable_.end() || !(liveIt->second.dataVersion == topicConfig->dataVersion);
        if (changed || registerFirst) {
            for (const remoting::TopicConfigData &topic : topicConfig->topicConfigTable) {
                topicQueueTable_[topic.topicName][brokerName] = QueueData{
                    .brokerName = brokerName,
                    .readQueueNums = topic.readQueueNums,
                    .writeQueueNums = topic.writeQueueNums,
                    .perm = topic.perm,
                    .topicSysFlag = topic.topicSysFlag,
                };
            }
            // Static topics: the mapping is filed under the broker name it names (Java's note:
            // the detail's bname, not the registering one).
            for (const auto &[topic, info] : topicConfig->topicQueueMappingInfoMap)
                mappingInfoTable_[topic][info.bname] = info;
        }
    }

    BrokerLiveInfo live{
        .clusterName = clusterName,
        .brokerName = brokerName,
        .brokerId = brokerId,
        .haServerAddr = haServerAddr,
        .lastUpdateMillis = nowMillis,
        .dataVersion = {},
        .connectionId = connectionId,
    };
    if (topicConfig)
        live.dataVersion = topicConfig->dataVersion;
    else if (liveIt != brokerLiveTable_.end())
        live.dataVersion = liveIt->second.dataVersion;
    brokerLiveTable_[brokerAddr] = std::move(live);

    if (filterServerList.empty())
        filterServerTable_.erase(brokerAddr);
    else
        filterServerTable_[brokerAddr] = filterServerList;

    RegisterBrokerResult result;
    if (brokerId != BrokerData::kMasterId) {
        const std::string masterAddr = broker.masterAddress();
        if (const auto master = brokerLiveTable_.find(masterAddr);
            !masterAddr.empty() && master != brokerLiveTable_.end()) {
            result.masterAddr = masterAddr;
            result.haServerAddr = master->second.haServerAddr;
        }
    }
    return result;
}

void RouteInfoManager::unregisterBroker(const std::string &clusterName, const std::string &brokerAddr,
                                        const std::string &brokerName, int64_t brokerId)
{
    std::unique_lock lock(mutex_);
    brokerLiveTable_.erase(brokerAddr);
    filterServerTable_.erase(brokerAddr);
    const auto it = brokerAddrTable_.find(brokerName);
    if (it == brokerAddrTable_.end())
        return;
    if (const auto addr = it->second.brokerAddrs.find(brokerId);
        addr != it->second.brokerAddrs.end() && addr->second == brokerAddr)
        it->second.brokerAddrs.erase(addr);
    if (it->second.brokerAddrs.empty())
        removeBrokerNameLocked(clusterName, brokerName);
}

void RouteInfoManager::removeBrokerNameLocked(const std::string &clusterName, const std::string &brokerName)
{
    brokerAddrTable_.erase(brokerName);
    if (const auto cluster = clusterAddrTable_.find(clusterName); cluster != clusterAddrTable_.end()) {
        cluster->second.erase(brokerName);
        if (cluster->second.empty())
            clusterAddrTable_.erase(cluster);
    }
    removeQueuesOfBrokerLocked(brokerName);
}

void RouteInfoManager::removeQueuesOfBrokerLocked(const std::string &brokerName)
{
    for (auto it = topicQueueTable_.begin(); it != topicQueueTable_.end();) {
        it->second.erase(brokerName);
        it = it->second.empty() ? topicQueueTable_.erase(it) : std::next(it);
    }
}

void RouteInfoManager::removeBrokerAddrLocked(const std::string &brokerAddr)
{
    brokerLiveTable_.erase(brokerAddr);
    filterServerTable_.erase(brokerAddr);
    std::vector<std::pair<std::string, std::string>> emptied; // cluster, brokerName
    for (auto &[name, broker] : brokerAddrTable_) {
        std::erase_if(broker.brokerAddrs, [&](const auto &entry) { return entry.second == brokerAddr; });
        if (broker.brokerAddrs.empty())
            emptied.emplace_back(broker.cluster, name);
    }
    for (const auto &[cluster, name] : emptied)
        removeBrokerNameLocked(cluster, name);
}

std::optional<remoting::TopicRouteData> RouteInfoManager::topicRoute(const std::string &topic) const
{
    std::shared_lock lock(mutex_);
    const auto queues = topicQueueTable_.find(topic);
    if (queues == topicQueueTable_.end())
        return std::nullopt;
    remoting::TopicRouteData route;
    for (const auto &[brokerName, queue] : queues->second) {
        route.queueDatas.push_back(queue);
        const auto broker = brokerAddrTable_.find(brokerName);
        if (broker == brokerAddrTable_.end())
            continue;
        route.brokerDatas.push_back(broker->second);
        for (const auto &[id, addr] : broker->second.brokerAddrs) {
            if (const auto filters = filterServerTable_.find(addr); filters != filterServerTable_.end())
                route.filterServerTable[addr] = filters->second;
        }
    }
    // Queue data of a broker group that is gone is never served without a broker to send to.
    if (route.brokerDatas.empty() || route.queueDatas.empty())
        return std::nullopt;
    if (const auto mappings = mappingInfoTable_.find(topic); mappings != mappingInfoTable_.end())
        route.topicQueueMappingByBroker = mappings->second;
    return route;
}

remoting::ClusterInfo RouteInfoManager::clusterInfo() const
{
    std::shared_lock lock(mutex_);
    remoting::ClusterInfo info;
    info.brokerAddrTable = brokerAddrTable_;
    for (const auto &[cluster, names] : clusterAddrTable_)
        info.clusterAddrTable[cluster].assign(names.begin(), names.end());
    return info;
}

TopicList RouteInfoManager::allTopics() const
{
    std::shared_lock lock(mutex_);
    TopicList list;
    list.topicList.reserve(topicQueueTable_.size());
    for (const auto &entry : topicQueueTable_)
        list.topicList.push_back(entry.first);
    return list;
}

TopicList RouteInfoManager::topicsByCluster(const std::string &cluster) const
{
    std::shared_lock lock(mutex_);
    TopicList list;
    const auto names = clusterAddrTable_.find(cluster);
    if (names == clusterAddrTable_.end())
        return list;
    for (const auto &[topic, queues] : topicQueueTable_) {
        for (const std::string &brokerName : names->second) {
            if (queues.contains(brokerName)) {
                list.topicList.push_back(topic);
                break;
            }
        }
    }
    return list;
}

TopicList RouteInfoManager::systemTopics() const
{
    std::shared_lock lock(mutex_);
    std::set<std::string> names;
    for (const auto &[cluster, brokerNames] : clusterAddrTable_) {
        names.insert(cluster);
        names.insert(brokerNames.begin(), brokerNames.end());
    }
    TopicList list;
    list.topicList.assign(names.begin(), names.end());
    for (const auto &entry : brokerAddrTable_) {
        if (!entry.second.brokerAddrs.empty()) {
            list.brokerAddr = entry.second.brokerAddrs.begin()->second;
            break;
        }
    }
    return list;
}

bool RouteInfoManager::deleteTopic(const std::string &topic, const std::optional<std::string> &clusterName)
{
    std::unique_lock lock(mutex_);
    const auto queues = topicQueueTable_.find(topic);
    if (queues == topicQueueTable_.end())
        return false;
    if (!clusterName) {
        topicQueueTable_.erase(queues);
        mappingInfoTable_.erase(topic);
        return true;
    }
    const auto names = clusterAddrTable_.find(*clusterName);
    if (names == clusterAddrTable_.end())
        return false;
    size_t removed = 0;
    for (const std::string &brokerName : names->second)
        removed += queues->second.erase(brokerName);
    if (queues->second.empty())
        topicQueueTable_.erase(queues);
    return removed > 0;
}

int RouteInfoManager::wipeWritePermOfBroker(const std::string &brokerName)
{
    std::unique_lock lock(mutex_);
    int count = 0;
    for (auto &[topic, queues] : topicQueueTable_) {
        if (const auto queue = queues.find(brokerName);
            queue != queues.end() && remoting::topicPerm::isWriteable(queue->second.perm)) {
            queue->second.perm &= ~remoting::topicPerm::kWrite;
            ++count;
        }
    }
    return count;
}

int RouteInfoManager::addWritePermOfBroker(const std::string &brokerName)
{
    std::unique_lock lock(mutex_);
    int count = 0;
    for (auto &[topic, queues] : topicQueueTable_) {
        if (const auto queue = queues.find(brokerName); queue != queues.end()) {
            queue->second.perm = remoting::topicPerm::kRead | remoting::topicPerm::kWrite;
            ++count;
        }
    }
    return count;
}

std::vector<std::string> RouteInfoManager::scanExpiredBrokers(int64_t nowMillis, int64_t expiryMillis)
{
    std::unique_lock lock(mutex_);
    std::vector<std::string> expired;
    for (const auto &[addr, live] : brokerLiveTable_) {
        if (live.lastUpdateMillis + expiryMillis < nowMillis)
            expired.push_back(addr);
    }
    for (const std::string &addr : expired)
        removeBrokerAddrLocked(addr);
    return expired;
}

std::vector<std::string> RouteInfoManager::onConnectionClosed(uint64_t connectionId)
{
    std::vector<std::string> removed;
    if (connectionId == 0)
        return removed;
    std::unique_lock lock(mutex_);
    for (const auto &[addr, live] : brokerLiveTable_) {
        if (live.connectionId == connectionId)
            removed.push_back(addr);
    }
    for (const std::string &addr : removed)
        removeBrokerAddrLocked(addr);
    return removed;
}

std::optional<BrokerLiveInfo> RouteInfoManager::liveInfo(const std::string &brokerAddr) const
{
    std::shared_lock lock(mutex_);
    const auto it = brokerLiveTable_.find(brokerAddr);
    if (it == brokerLiveTable_.end())
        return std::nullopt;
    return it->second;
}

bool RouteInfoManager::queryDataVersionChanged(const std::string &brokerAddr,
                                               const remoting::DataVersionData &version, int64_t nowMillis)
{
    std::unique_lock lock(mutex_);
    const auto it = brokerLiveTable_.find(brokerAddr);
    if (it == brokerLiveTable_.end() || !(it->second.dataVersion == version))
        return true;
    it->second.lastUpdateMillis = nowMillis;
    return false;
}

} // namespace mqdesk::namesrv
