#pragma once

// The consumer groups seen through heartbeats (RocketMQ's ConsumerManager and
// ConsumerGroupInfo): per group its live client channels, its subscriptions and how it
// consumes. A group's channel set changing (a client joins, leaves, closes its connection or
// goes silent for channelExpiredTimeout) is what NOTIFY_CONSUMER_IDS_CHANGED announces.
// Thread-safe.

#include "broker/remoting/protocol/client_data.h"
#include "broker/server/client_channel.h"

#include <map>
#include <set>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mqdesk::server {

struct ConsumerGroupSnapshot
{
    std::string groupName;
    std::string consumeType;
    std::string messageModel;
    std::string consumeFromWhere;
    std::vector<ClientChannelInfo> channels; // by connection id
    std::vector<remoting::SubscriptionData> subscriptions; // by topic
    int64_t lastUpdateMillis = 0;
};

class ConsumerManager
{
public:
    // Registers or refreshes `client` in `consumer.groupName` and takes its subscriptions (a
    // topic's entry is replaced only by a newer subVersion; topics no longer sent are dropped).
    // Returns true when the group's set of channels changed.
    bool registerConsumer(const remoting::ConsumerData &consumer, const ClientChannelInfo &client, int64_t nowMillis);
    // Returns true when the channel was in the group.
    bool unregisterConsumer(const std::string &group, uint64_t connectionId);
    // Drops the connection from every group; returns the groups whose channels changed.
    std::vector<std::string> removeConnection(uint64_t connectionId);
    // Drops channels silent for longer than `timeoutMillis` or already closed; returns the
    // groups whose channels changed.
    std::vector<std::string> scanNotActive(int64_t nowMillis, int64_t timeoutMillis);

    std::optional<ConsumerGroupSnapshot> group(const std::string &group) const;
    std::optional<remoting::SubscriptionData> findSubscription(const std::string &group, const std::string &topic) const;
    // Client ids of the group's live channels (GET_CONSUMER_LIST_BY_GROUP), in channel order.
    std::vector<std::string> clientIds(const std::string &group) const;
    std::vector<std::string> groupNames() const;
    // Groups with a live subscription to `topic`.
    std::vector<std::string> groupsSubscribing(const std::string &topic) const;

    // realTimeNotifyConsumerChange=false: changed groups wait here to be announced together
    // (Java's DefaultConsumerIdsChangeListener, every 15 s).
    void deferNotification(const std::string &group);
    std::vector<std::string> takeDeferredNotifications();

private:
    struct GroupInfo
    {
        std::string consumeType;
        std::string messageModel;
        std::string consumeFromWhere;
        std::map<uint64_t, ClientChannelInfo> channels;
        std::map<std::string, remoting::SubscriptionData> subscriptions;
        int64_t lastUpdateMillis = 0;
    };

    mutable std::mutex mutex_;
    std::map<std::string, GroupInfo> groups_;
    std::set<std::string> deferredNotifications_; // guarded by mutex_
};

// Producer groups and their channels (RocketMQ's ProducerManager): used for transaction
// checks and GET_PRODUCER_CONNECTION_LIST. Thread-safe.
class ProducerManager
{
public:
    void registerProducer(const std::string &group, const ClientChannelInfo &client);
    void unregisterProducer(const std::string &group, uint64_t connectionId);
    void removeConnection(uint64_t connectionId);
    void scanNotActive(int64_t nowMillis, int64_t timeoutMillis);
    std::vector<ClientChannelInfo> channels(const std::string &group) const;
    std::vector<std::string> groupNames() const;
    // The live connection of the producer client with this client id, in any group (the
    // requester a reply message is pushed to); nullopt if it has none.
    std::optional<ClientChannelInfo> findClient(const std::string &clientId) const;

private:
    mutable std::mutex mutex_;
    std::map<std::string, std::map<uint64_t, ClientChannelInfo>> groups_;
};

} // namespace mqdesk::server
