#pragma once

// Who consumes which lite topic (RocketMQ 5.5 LiteTopic; docs/spec/lite-topic.md §4): each lite
// client (a LitePushConsumer, by its client id) belongs to one group bound to one parent topic
// and holds a set of lite topics, kept as their LMQ names (%LMQ%$<parent>$<lite>). The registry
// answers both ways: a client's LMQs (what its pops read, in the order they were added) and an
// LMQ's clients (who an arrival wakes). Memory only, as Java's: clients send their whole set
// again every 30 s (COMPLETE_ADD), so a restarted broker knows them again within that.
//
// The registry holds data only; what an action does besides (offset resets, the
// NOTIFY_UNSUBSCRIBE_LITE of a client pushed out) is the caller's, from what it answers.
// Thread-safe.

#include "broker/remoting/net/remoting_channel.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace mqdesk::server::pop {

// %LMQ%$<parent>$<lite>; empty when either is empty.
std::string liteQueueName(const std::string &parent, const std::string &liteTopic);
// The lite topic of an LMQ name of `parent` ("" when it is none).
std::string liteTopicOf(const std::string &lmq, const std::string &parent);
// Whether `name` is a lite topic's LMQ (%LMQ%$…).
bool isLiteQueue(const std::string &name);

struct LiteClientInfo
{
    std::string clientId;
    std::string group;
    std::string parent;
    std::vector<std::string> lmqs; // in the order they were added
    int64_t touchedMs = 0;         // wall ms of the last add or remove
    bool wildcard = false;         // of a wildcard group: every lite topic of the parent, no pairs
};

class LiteSubscriptions
{
public:
    // A client pushed off an LMQ by an Exclusive group's new subscriber.
    struct Evicted
    {
        std::string clientId;
        std::string group;
        std::string lmq;
        remoting::RequestContext channel; // where its subscriptions came from
    };

    explicit LiteSubscriptions(size_t maxPairs) : maxPairs_(maxPairs) {}

    // PARTIAL_ADD. False (nothing changed) when the broker would hold more than maxPairs
    // (client, LMQ) pairs. `exclusive`: the group's other clients on these LMQs are taken off them (`evicted`).
    // `added`: the LMQs new to the client.
    bool add(const std::string &clientId, const std::string &group, const std::string &parent,
             const std::vector<std::string> &lmqs, bool exclusive, const remoting::RequestContext &channel,
             int64_t nowMs, std::vector<std::string> &added, std::vector<Evicted> &evicted);
    // PARTIAL_REMOVE: the LMQs the client held.
    std::vector<std::string> remove(const std::string &clientId, const std::vector<std::string> &lmqs, int64_t nowMs);
    // COMPLETE_ADD: the client's set becomes `lmqs`; answers the LMQs new to it. `refused`
    // (nothing changed) when the broker would then hold more than maxPairs pairs: Java has no
    // limit here, but one request naming a million lite topics must not take the broker's memory.
    std::vector<std::string> replace(const std::string &clientId, const std::string &group, const std::string &parent,
                                     const std::vector<std::string> &lmqs, const remoting::RequestContext &channel,
                                     int64_t nowMs, bool &refused);
    // COMPLETE_ADD of a wildcard group's client (lite.sub.wildcard): it reads every lite topic of
    // `parent`, so it holds no pairs, and every arrival of the parent wakes it.
    void replaceWildcard(const std::string &clientId, const std::string &group, const std::string &parent,
                         const remoting::RequestContext &channel, int64_t nowMs);
    // COMPLETE_REMOVE, and a client gone: forgets it. False when it was unknown.
    bool removeClient(const std::string &clientId);
    // Clients not touched since `olderThanMs` (Java: 3 minutes), forgotten; their ids.
    std::vector<std::string> expire(int64_t olderThanMs);
    // An LMQ deleted (expired, or its parent deleted): every client's pair with it goes, no client
    // told (Java's cleanSubscription(lmq, false)); clients name it again on their next full sync.
    void removeQueue(const std::string &lmq);

    std::optional<LiteClientInfo> client(const std::string &clientId) const;
    // The clients subscribed to an LMQ, with their groups ((group, clientId) pairs); the wildcard
    // clients of its parent among them.
    std::vector<std::pair<std::string, std::string>> subscribers(const std::string &lmq) const;
    // Every lite client (the console's and GET_LITE_GROUP_INFO's view); of one group when not empty.
    std::vector<LiteClientInfo> clients(const std::string &group = {}) const;
    size_t pairCount() const;

    // A client's pops go round its LMQs: where the next one starts, and where the last one ended.
    size_t cursor(const std::string &clientId) const;
    void setCursor(const std::string &clientId, size_t next);

private:
    struct Client
    {
        std::string group;
        std::string parent;
        std::vector<std::string> lmqs;
        std::set<std::string> lmqSet;
        bool wildcard = false;
        remoting::RequestContext channel;
        int64_t touchedMs = 0;
        size_t cursor = 0;
    };
    Client &enter(const std::string &clientId, const std::string &group, const std::string &parent,
                  const remoting::RequestContext &channel); // mutex_ held
    bool addPair(const std::string &clientId, Client &client, const std::string &lmq);  // mutex_ held; false if held
    void dropPair(const std::string &clientId, Client &client, const std::string &lmq); // mutex_ held
    size_t newPairs(const std::string &clientId, const std::vector<std::string> &lmqs) const; // mutex_ held
    LiteClientInfo infoOf(const std::string &clientId, const Client &client) const;

    const size_t maxPairs_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, Client> clients_;
    std::unordered_map<std::string, std::map<std::string, std::string>> subscribers_; // lmq → clientId → group
    std::unordered_map<std::string, std::map<std::string, std::string>> wildcard_;    // parent → clientId → group
    size_t pairs_ = 0;
};

} // namespace mqdesk::server::pop
