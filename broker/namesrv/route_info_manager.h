#pragma once

// The NameServer's tables (remoting spec §5): which brokers exist, which topics they host, and
// when each broker last registered. Every method is thread-safe: processors read concurrently
// under a shared lock; registrations, expiry and deletes take it exclusively. Time is passed in
// (steady milliseconds), so callers decide the clock and tests need no sleeps.

#include "broker/common/clock.h"
#include "broker/remoting/protocol/route_data.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <shared_mutex>
#include <string>
#include <vector>

namespace mqdesk::namesrv {

// The clock the namesrv passes in: steady milliseconds (a wall-clock step must not expire
// every broker at once).
inline int64_t steadyMillis() { return common::steadyMicros() / 1000; }

// REGISTER_BROKER's answer: for a slave, its master's address and HA address; empty otherwise
// (and empty when the master has not registered yet).
struct RegisterBrokerResult
{
    std::string masterAddr;
    std::string haServerAddr;
};

// What the namesrv knows about one registered broker address.
struct BrokerLiveInfo
{
    std::string clusterName;
    std::string brokerName;
    int64_t brokerId = 0;
    std::string haServerAddr;
    int64_t lastUpdateMillis = 0; // steady clock of the last registration
    remoting::DataVersionData dataVersion;
    // The connection the broker registered over; 0 for an in-process (embedded) broker, which
    // no connection close can remove.
    uint64_t connectionId = 0;
};

class RouteInfoManager
{
public:
    static constexpr int64_t kDefaultBrokerExpiryMillis = 120000;

    // Records cluster → brokerName → {id → addr} (an address re-registering under another id
    // drops its old id) and the broker's liveness. A master (id 0) with a topic table rebuilds
    // its queue data (and its static topics' mapping summaries) when its data version changed or
    // on its first registration; topics are never removed by registration. A slave's topic table
    // is ignored.
    RegisterBrokerResult registerBroker(const std::string &clusterName, const std::string &brokerAddr,
                                        const std::string &brokerName, int64_t brokerId,
                                        const std::string &haServerAddr,
                                        const std::optional<remoting::TopicConfigSerializeWrapper> &topicConfig,
                                        uint64_t connectionId, int64_t nowMillis,
                                        const std::vector<std::string> &filterServerList = {});
    // Removes the address (under that id). When the broker group has no address left, its
    // queue data goes too, and topics left without any broker disappear.
    void unregisterBroker(const std::string &clusterName, const std::string &brokerAddr,
                          const std::string &brokerName, int64_t brokerId);

    // The route clients ask for (GET_ROUTEINFO_BY_TOPIC); nullopt when no registered broker
    // hosts the topic. brokerDatas are sorted by broker name; orderTopicConf is not set here.
    std::optional<remoting::TopicRouteData> topicRoute(const std::string &topic) const;
    remoting::ClusterInfo clusterInfo() const;
    remoting::TopicList allTopics() const;
    // Topics with queues on any broker of `cluster` (empty for an unknown cluster).
    remoting::TopicList topicsByCluster(const std::string &cluster) const;
    // Cluster and broker names (each is a system topic of its brokers) and, in brokerAddr, the
    // address of one registered broker.
    remoting::TopicList systemTopics() const;

    // Removes the topic, or with `clusterName` only its queues on that cluster's brokers.
    // False when nothing was removed.
    bool deleteTopic(const std::string &topic, const std::optional<std::string> &clusterName = std::nullopt);
    // Clears / sets the write bit on every queue entry of `brokerName`; returns how many topics
    // it touched (wipe: those that had the bit; add: all of the broker's, set to RW).
    int wipeWritePermOfBroker(const std::string &brokerName);
    int addWritePermOfBroker(const std::string &brokerName);

    // Removes every broker whose last registration is more than `expiryMillis` before
    // `nowMillis`, as if it had unregistered; returns their addresses.
    std::vector<std::string> scanExpiredBrokers(int64_t nowMillis, int64_t expiryMillis = kDefaultBrokerExpiryMillis);
    // Removes every broker that registered over this connection; returns their addresses.
    // Id 0 (in-process registrations) is never matched.
    std::vector<std::string> onConnectionClosed(uint64_t connectionId);

    std::optional<BrokerLiveInfo> liveInfo(const std::string &brokerAddr) const;
    // QUERY_DATA_VERSION: true when `version` differs from the one last registered for the
    // address (or none was). When unchanged, the broker's liveness is refreshed to `nowMillis`.
    bool queryDataVersionChanged(const std::string &brokerAddr, const remoting::DataVersionData &version,
                                 int64_t nowMillis);

private:
    // The caller holds mutex_ exclusively.
    void removeBrokerAddrLocked(const std::string &brokerAddr);
    void removeBrokerNameLocked(const std::string &clusterName, const std::string &brokerName);
    void removeQueuesOfBrokerLocked(const std::string &brokerName);

    mutable std::shared_mutex mutex_;
    std::map<std::string, std::set<std::string>> clusterAddrTable_;                      // cluster → brokerNames
    std::map<std::string, remoting::BrokerData> brokerAddrTable_;                        // brokerName → data
    std::map<std::string, std::map<std::string, remoting::QueueData>> topicQueueTable_; // topic → brokerName → queues
    std::map<std::string, BrokerLiveInfo> brokerLiveTable_;                             // brokerAddr → liveness
    std::map<std::string, std::vector<std::string>> filterServerTable_;                 // brokerAddr → filter servers
    // Static topics: topic → brokerName → its registered mapping summary. Like Java's, entries
    // stay when a broker goes (clients skip a broker without an address); a topic's deletion
    // drops them.
    std::map<std::string, std::map<std::string, common::TopicQueueMappingInfo>> mappingInfoTable_;
};

} // namespace mqdesk::namesrv
