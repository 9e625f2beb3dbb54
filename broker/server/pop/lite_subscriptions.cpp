#include "broker/server/pop/lite_subscriptions.h"

#include <algorithm>

namespace mqdesk::server::pop {

namespace {
constexpr std::string_view kLitePrefix = "%LMQ%$";
} // namespace

std::string liteQueueName(const std::string &parent, const std::string &liteTopic)
{
    if (parent.empty() || liteTopic.empty())
        return {};
    return std::string(kLitePrefix) + parent + "$" + liteTopic;
}

std::string liteTopicOf(const std::string &lmq, const std::string &parent)
{
    const std::string prefix = std::string(kLitePrefix) + parent + "$";
    return lmq.starts_with(prefix) ? lmq.substr(prefix.size()) : std::string();
}

bool isLiteQueue(const std::string &name)
{
    return name.starts_with(kLitePrefix);
}

LiteSubscriptions::Client &LiteSubscriptions::enter(const std::string &clientId, const std::string &group,
                                                    const std::string &parent, const remoting::RequestContext &channel)
{
    auto [it, inserted] = clients_.try_emplace(clientId);
    Client &client = it->second;
    if (inserted) {
        client.group = group;
        client.parent = parent;
    }
    client.channel = channel;
    return client;
}

bool LiteSubscriptions::addPair(const std::string &clientId, Client &client, const std::string &lmq)
{
    if (!client.lmqSet.insert(lmq).second)
        return false;
    client.lmqs.push_back(lmq);
    subscribers_[lmq][clientId] = client.group;
    ++pairs_;
    return true;
}

void LiteSubscriptions::dropPair(const std::string &clientId, Client &client, const std::string &lmq)
{
    if (client.lmqSet.erase(lmq) == 0)
        return;
    std::erase(client.lmqs, lmq);
    --pairs_;
    const auto subscribers = subscribers_.find(lmq);
    if (subscribers != subscribers_.end()) {
        subscribers->second.erase(clientId);
        if (subscribers->second.empty())
            subscribers_.erase(subscribers);
    }
}

void LiteSubscriptions::removeQueue(const std::string &lmq)
{
    std::lock_guard lock(mutex_);
    const auto subscribers = subscribers_.find(lmq);
    if (subscribers == subscribers_.end())
        return;
    const std::map<std::string, std::string> holders = subscribers->second; // dropPair edits the original
    for (const auto &[clientId, group] : holders) {
        if (const auto client = clients_.find(clientId); client != clients_.end())
            dropPair(clientId, client->second, lmq);
    }
}

bool LiteSubscriptions::add(const std::string &clientId, const std::string &group, const std::string &parent,
                            const std::vector<std::string> &lmqs, bool exclusive,
                            const remoting::RequestContext &channel, int64_t nowMs, std::vector<std::string> &added,
                            std::vector<Evicted> &evicted)
{
    std::lock_guard lock(mutex_);
    if (pairs_ + newPairs(clientId, lmqs) > maxPairs_)
        return false;
    Client &client = enter(clientId, group, parent, channel);
    client.touchedMs = nowMs;
    for (const std::string &lmq : lmqs) {
        if (exclusive) {
            // Last subscriber wins: the group's others leave the LMQ.
            std::vector<std::string> others;
            if (const auto subscribers = subscribers_.find(lmq); subscribers != subscribers_.end()) {
                for (const auto &[otherId, otherGroup] : subscribers->second) {
                    if (otherId != clientId && otherGroup == client.group)
                        others.push_back(otherId);
                }
            }
            for (const std::string &otherId : others) {
                Client &other = clients_.at(otherId);
                dropPair(otherId, other, lmq);
                evicted.push_back({otherId, other.group, lmq, other.channel});
                if (other.lmqs.empty())
                    clients_.erase(otherId);
            }
        }
        if (addPair(clientId, client, lmq))
            added.push_back(lmq);
    }
    return true;
}

size_t LiteSubscriptions::newPairs(const std::string &clientId, const std::vector<std::string> &lmqs) const
{
    const auto it = clients_.find(clientId);
    std::set<std::string> fresh;
    for (const std::string &lmq : lmqs) {
        if (it == clients_.end() || !it->second.lmqSet.contains(lmq))
            fresh.insert(lmq);
    }
    return fresh.size();
}

std::vector<std::string> LiteSubscriptions::remove(const std::string &clientId, const std::vector<std::string> &lmqs,
                                                   int64_t nowMs)
{
    std::lock_guard lock(mutex_);
    std::vector<std::string> removed;
    const auto it = clients_.find(clientId);
    if (it == clients_.end())
        return removed;
    it->second.touchedMs = nowMs;
    for (const std::string &lmq : lmqs) {
        if (it->second.lmqSet.contains(lmq)) {
            dropPair(clientId, it->second, lmq);
            removed.push_back(lmq);
        }
    }
    return removed;
}

std::vector<std::string> LiteSubscriptions::replace(const std::string &clientId, const std::string &group,
                                                    const std::string &parent, const std::vector<std::string> &lmqs,
                                                    const remoting::RequestContext &channel, int64_t nowMs,
                                                    bool &refused)
{
    std::lock_guard lock(mutex_);
    const auto known = clients_.find(clientId);
    const size_t holding = known != clients_.end() ? known->second.lmqs.size() : 0;
    refused = pairs_ - holding + std::set<std::string>(lmqs.begin(), lmqs.end()).size() > maxPairs_;
    if (refused)
        return {};
    Client &client = enter(clientId, group, parent, channel);
    client.touchedMs = nowMs;
    if (client.wildcard) { // its group is no wildcard group any more
        client.wildcard = false;
        if (const auto it = wildcard_.find(client.parent); it != wildcard_.end()) {
            it->second.erase(clientId);
            if (it->second.empty())
                wildcard_.erase(it);
        }
    }
    const std::set<std::string> wanted(lmqs.begin(), lmqs.end());
    const std::vector<std::string> held = client.lmqs;
    for (const std::string &lmq : held) {
        if (!wanted.contains(lmq))
            dropPair(clientId, client, lmq);
    }
    std::vector<std::string> added;
    for (const std::string &lmq : lmqs) {
        if (addPair(clientId, client, lmq))
            added.push_back(lmq);
    }
    return added;
}

void LiteSubscriptions::replaceWildcard(const std::string &clientId, const std::string &group,
                                        const std::string &parent, const remoting::RequestContext &channel,
                                        int64_t nowMs)
{
    std::lock_guard lock(mutex_);
    Client &client = enter(clientId, group, parent, channel);
    client.touchedMs = nowMs;
    const std::vector<std::string> held = client.lmqs;
    for (const std::string &lmq : held)
        dropPair(clientId, client, lmq);
    client.wildcard = true;
    wildcard_[client.parent][clientId] = client.group;
}

bool LiteSubscriptions::removeClient(const std::string &clientId)
{
    std::lock_guard lock(mutex_);
    const auto it = clients_.find(clientId);
    if (it == clients_.end())
        return false;
    const std::vector<std::string> held = it->second.lmqs;
    for (const std::string &lmq : held)
        dropPair(clientId, it->second, lmq);
    if (it->second.wildcard) {
        if (const auto parent = wildcard_.find(it->second.parent); parent != wildcard_.end()) {
            parent->second.erase(clientId);
            if (parent->second.empty())
                wildcard_.erase(parent);
        }
    }
    clients_.erase(it);
    return true;
}

std::vector<std::string> LiteSubscriptions::expire(int64_t olderThanMs)
{
    std::vector<std::string> stale;
    {
        std::lock_guard lock(mutex_);
        for (const auto &[clientId, client] : clients_) {
            if (client.touchedMs < olderThanMs)
                stale.push_back(clientId);
        }
    }
    for (const std::string &clientId : stale)
        removeClient(clientId);
    return stale;
}

LiteClientInfo LiteSubscriptions::infoOf(const std::string &clientId, const Client &client) const
{
    return {clientId, client.group, client.parent, client.lmqs, client.touchedMs, client.wildcard};
}

std::optional<LiteClientInfo> LiteSubscriptions::client(const std::string &clientId) const
{
    std::lock_guard lock(mutex_);
    const auto it = clients_.find(clientId);
    if (it == clients_.end())
        return std::nullopt;
    return infoOf(clientId, it->second);
}

std::vector<std::pair<std::string, std::string>> LiteSubscriptions::subscribers(const std::string &lmq) const
{
    std::lock_guard lock(mutex_);
    std::vector<std::pair<std::string, std::string>> found;
    if (const auto it = subscribers_.find(lmq); it != subscribers_.end()) {
        for (const auto &[clientId, group] : it->second)
            found.emplace_back(group, clientId);
    }
    if (!wildcard_.empty() && isLiteQueue(lmq)) {
        // %LMQ%$<parent>$<lite>: topic names hold no '$'.
        const size_t start = lmq.find('$');
        const size_t end = lmq.find('$', start + 1);
        if (end != std::string::npos) {
            if (const auto it = wildcard_.find(lmq.substr(start + 1, end - start - 1)); it != wildcard_.end()) {
                for (const auto &[clientId, group] : it->second)
                    found.emplace_back(group, clientId);
            }
        }
    }
    return found;
}

std::vector<LiteClientInfo> LiteSubscriptions::clients(const std::string &group) const
{
    std::lock_guard lock(mutex_);
    std::vector<LiteClientInfo> found;
    for (const auto &[clientId, client] : clients_) {
        if (group.empty() || client.group == group)
            found.push_back(infoOf(clientId, client));
    }
    std::sort(found.begin(), found.end(),
              [](const LiteClientInfo &a, const LiteClientInfo &b) { return a.clientId < b.clientId; });
    return found;
}

size_t LiteSubscriptions::pairCount() const
{
    std::lock_guard lock(mutex_);
    return pairs_;
}

size_t LiteSubscriptions::cursor(const std::string &clientId) const
{
    std::lock_guard lock(mutex_);
    const auto it = clients_.find(clientId);
    return it != clients_.end() ? it->second.cursor : 0;
}

void LiteSubscriptions::setCursor(const std::string &clientId, size_t next)
{
    std::lock_guard lock(mutex_);
    if (const auto it = clients_.find(clientId); it != clients_.end())
        it->second.cursor = next;
}

} // namespace mqdesk::server::pop
