#include "broker/server/consumer_manager.h"

#include "broker/common/log_rate_limiter.h"

#include <spdlog/spdlog.h>

namespace mqdesk::server {

using remoting::SubscriptionData;

bool ConsumerManager::registerConsumer(const remoting::ConsumerData &consumer, const ClientChannelInfo &client,
                                       int64_t nowMillis)
{
    std::lock_guard lock(mutex_);
    GroupInfo &info = groups_[consumer.groupName];
    info.consumeType = consumer.consumeType;
    info.messageModel = consumer.messageModel;
    info.consumeFromWhere = consumer.consumeFromWhere;
    info.lastUpdateMillis = nowMillis;

    const uint64_t id = client.channel.connectionId();
    const auto [it, inserted] = info.channels.try_emplace(id, client);
    if (!inserted) {
        const bool idChanged = it->second.clientId != client.clientId;
        it->second = client;
        if (idChanged)
            spdlog::warn("consumer group {}: connection {} changed its client id to {}", consumer.groupName,
                         client.channel.peerAddress(), client.clientId);
    } else {
        // A heartbeat may name thousands of groups: the joins are logged, but not all of them.
        static common::LogRateLimiter joins(std::chrono::seconds(10), 20);
        if (const auto suppressed = joins.admit())
            spdlog::info("consumer group {}: client {} joined from {}{}", consumer.groupName, client.clientId,
                         client.channel.peerAddress(),
                         *suppressed ? " (" + std::to_string(*suppressed) + " joins before it not logged)" : "");
    }

    std::map<std::string, SubscriptionData> updated;
    for (const SubscriptionData &subscription : consumer.subscriptionDataSet) {
        const auto old = info.subscriptions.find(subscription.topic);
        if (old != info.subscriptions.end() && old->second.subVersion > subscription.subVersion)
            updated.emplace(subscription.topic, old->second);
        else
            updated.emplace(subscription.topic, subscription);
    }
    info.subscriptions = std::move(updated);
    return inserted;
}

bool ConsumerManager::unregisterConsumer(const std::string &group, uint64_t connectionId)
{
    std::lock_guard lock(mutex_);
    const auto it = groups_.find(group);
    if (it == groups_.end() || it->second.channels.erase(connectionId) == 0)
        return false;
    if (it->second.channels.empty())
        groups_.erase(it);
    return true;
}

std::vector<std::string> ConsumerManager::removeConnection(uint64_t connectionId)
{
    std::lock_guard lock(mutex_);
    std::vector<std::string> changed;
    for (auto it = groups_.begin(); it != groups_.end();) {
        if (it->second.channels.erase(connectionId) > 0)
            changed.push_back(it->first);
        it = it->second.channels.empty() ? groups_.erase(it) : std::next(it);
    }
    return changed;
}

std::vector<std::string> ConsumerManager::scanNotActive(int64_t nowMillis, int64_t timeoutMillis)
{
    std::lock_guard lock(mutex_);
    std::vector<std::string> changed;
    for (auto it = groups_.begin(); it != groups_.end();) {
        bool removed = false;
        for (auto channel = it->second.channels.begin(); channel != it->second.channels.end();) {
            const bool silent = nowMillis - channel->second.lastUpdateMillis > timeoutMillis;
            if (silent || !channel->second.channel.isOpen()) {
                static common::LogRateLimiter drops(std::chrono::seconds(10), 20);
                if (const auto suppressed = drops.admit())
                    spdlog::info("consumer group {}: dropping client {} ({}){}", it->first, channel->second.clientId,
                                 silent ? "no heartbeat" : "connection closed",
                                 *suppressed ? " (" + std::to_string(*suppressed) + " drops before it not logged)" : "");
                channel = it->second.channels.erase(channel);
                removed = true;
            } else {
                ++channel;
            }
        }
        if (removed)
            changed.push_back(it->first);
        it = it->second.channels.empty() ? groups_.erase(it) : std::next(it);
    }
    return changed;
}

void ConsumerManager::deferNotification(const std::string &group)
{
    std::lock_guard lock(mutex_);
    deferredNotifications_.insert(group);
}

std::vector<std::string> ConsumerManager::takeDeferredNotifications()
{
    std::lock_guard lock(mutex_);
    std::vector<std::string> groups(deferredNotifications_.begin(), deferredNotifications_.end());
    deferredNotifications_.clear();
    return groups;
}

std::optional<ConsumerGroupSnapshot> ConsumerManager::group(const std::string &group) const
{
    std::lock_guard lock(mutex_);
    const auto it = groups_.find(group);
    if (it == groups_.end())
        return std::nullopt;
    ConsumerGroupSnapshot snapshot;
    snapshot.groupName = group;
    snapshot.consumeType = it->second.consumeType;
    snapshot.messageModel = it->second.messageModel;
    snapshot.consumeFromWhere = it->second.consumeFromWhere;
    snapshot.lastUpdateMillis = it->second.lastUpdateMillis;
    for (const auto &[id, channel] : it->second.channels)
        snapshot.channels.push_back(channel);
    for (const auto &[topic, subscription] : it->second.subscriptions)
        snapshot.subscriptions.push_back(subscription);
    return snapshot;
}

std::optional<SubscriptionData> ConsumerManager::findSubscription(const std::string &group,
                                                                  const std::string &topic) const
{
    std::lock_guard lock(mutex_);
    const auto it = groups_.find(group);
    if (it == groups_.end())
        return std::nullopt;
    const auto subscription = it->second.subscriptions.find(topic);
    if (subscription == it->second.subscriptions.end())
        return std::nullopt;
    return subscription->second;
}

std::vector<std::string> ConsumerManager::clientIds(const std::string &group) const
{
    std::lock_guard lock(mutex_);
    std::vector<std::string> ids;
    if (const auto it = groups_.find(group); it != groups_.end()) {
        for (const auto &[id, channel] : it->second.channels)
            ids.push_back(channel.clientId);
    }
    return ids;
}

std::vector<std::string> ConsumerManager::groupNames() const
{
    std::lock_guard lock(mutex_);
    std::vector<std::string> names;
    for (const auto &[name, info] : groups_)
        names.push_back(name);
    return names;
}

std::vector<std::string> ConsumerManager::groupsSubscribing(const std::string &topic) const
{
    std::lock_guard lock(mutex_);
    std::vector<std::string> names;
    for (const auto &[name, info] : groups_) {
        if (info.subscriptions.contains(topic))
            names.push_back(name);
    }
    return names;
}

void ProducerManager::registerProducer(const std::string &group, const ClientChannelInfo &client)
{
    std::lock_guard lock(mutex_);
    groups_[group][client.channel.connectionId()] = client;
}

void ProducerManager::unregisterProducer(const std::string &group, uint64_t connectionId)
{
    std::lock_guard lock(mutex_);
    const auto it = groups_.find(group);
    if (it == groups_.end())
        return;
    it->second.erase(connectionId);
    if (it->second.empty())
        groups_.erase(it);
}

std::optional<ClientChannelInfo> ProducerManager::findClient(const std::string &clientId) const
{
    std::lock_guard lock(mutex_);
    for (const auto &[group, clients] : groups_) {
        for (const auto &[connectionId, client] : clients) {
            if (client.clientId == clientId && client.channel.isOpen())
                return client;
        }
    }
    return std::nullopt;
}

void ProducerManager::removeConnection(uint64_t connectionId)
{
    std::lock_guard lock(mutex_);
    for (auto it = groups_.begin(); it != groups_.end();) {
        it->second.erase(connectionId);
        it = it->second.empty() ? groups_.erase(it) : std::next(it);
    }
}

void ProducerManager::scanNotActive(int64_t nowMillis, int64_t timeoutMillis)
{
    std::lock_guard lock(mutex_);
    for (auto it = groups_.begin(); it != groups_.end();) {
        std::erase_if(it->second, [&](const auto &entry) {
            return nowMillis - entry.second.lastUpdateMillis > timeoutMillis || !entry.second.channel.isOpen();
        });
        it = it->second.empty() ? groups_.erase(it) : std::next(it);
    }
}

std::vector<ClientChannelInfo> ProducerManager::channels(const std::string &group) const
{
    std::lock_guard lock(mutex_);
    std::vector<ClientChannelInfo> out;
    if (const auto it = groups_.find(group); it != groups_.end()) {
        for (const auto &[id, channel] : it->second)
            out.push_back(channel);
    }
    return out;
}

std::vector<std::string> ProducerManager::groupNames() const
{
    std::lock_guard lock(mutex_);
    std::vector<std::string> names;
    for (const auto &[name, channels] : groups_)
        names.push_back(name);
    return names;
}

} // namespace mqdesk::server
