#pragma once

// Broker-side queue locks for ordered consumption (remoting spec §6.7, LOCK_BATCH_MQ 41 /
// UNLOCK_BATCH_MQ 42). Per consumer group, each MessageQueue is held by at most one clientId.
// A lock lives `maxLiveMillis` after its last grant unless renewed: a client that dies simply
// stops renewing, and another member of the group can take the queue once the lock expired.
//
// RebalanceLockManager is the table alone, with the time passed in (tests drive expiry without
// sleeping); LockBatchProcessor answers the two requests over it with the steady clock.
// Locks live in memory only, like RocketMQ's: a broker restart forgets them, and clients
// re-lock within their renewal period. Thread-safe.

#include "broker/remoting/protocol/lock_batch_body.h"
#include "broker/remoting/net/remoting_channel.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace mqdesk::server {

class RebalanceLockManager
{
public:
    // RocketMQ's default lock lifetime (rocketmq.broker.rebalance.lockMaxLiveTime).
    static constexpr int64_t kDefaultMaxLiveMillis = 60000;

    // Locks held at once, over every group: far more than the queues of any real broker, so that
    // only a client naming queues without end meets it (each request is bounded by its batch size,
    // this bounds them together).
    static constexpr size_t kDefaultMaxEntries = 262144;

    explicit RebalanceLockManager(int64_t maxLiveMillis = kDefaultMaxLiveMillis, size_t maxEntries = kDefaultMaxEntries)
        : maxLiveMillis_(maxLiveMillis), maxEntries_(maxEntries)
    {}

    // Grants each of `queues` that is unlocked, already held by `clientId`, or whose holder's
    // lock is older than maxLiveMillis; every grant (re)stamps the lock with `nowMillis`.
    // Returns the granted queues, in the order asked (duplicates once). When the table holds
    // maxEntries locks, expired ones are dropped; if it is still full, queues not yet in it are not
    // granted (the client asks again at its next renewal) and a rate-limited warning says so.
    std::vector<remoting::MessageQueue> tryLockBatch(const std::string &group,
                                                         const std::vector<remoting::MessageQueue> &queues,
                                                         const std::string &clientId, int64_t nowMillis);
    // Releases those of `queues` that `clientId` holds; a queue held by another client (or by
    // nobody) is left as it is.
    void unlockBatch(const std::string &group, const std::vector<remoting::MessageQueue> &queues,
                     const std::string &clientId);
    // Whether `clientId` holds an unexpired lock on `queue` (no renewal).
    bool isLockedBy(const std::string &group, const remoting::MessageQueue &queue, const std::string &clientId,
                    int64_t nowMillis) const;

    int64_t maxLiveMillis() const { return maxLiveMillis_; }
    size_t size() const;

private:
    struct LockEntry
    {
        std::string clientId;
        int64_t lastUpdateMillis = 0;
    };
    bool expired(const LockEntry &entry, int64_t nowMillis) const
    {
        return nowMillis - entry.lastUpdateMillis > maxLiveMillis_;
    }

    // Requires: mutex_ held. Erases every expired lock, and the groups left without locks but
    // keepGroup; returns how many locks went.
    size_t dropExpiredLocked(int64_t nowMillis, const std::string &keepGroup);

    const int64_t maxLiveMillis_;
    const size_t maxEntries_;
    mutable std::mutex mutex_;
    // group → queue → holder; guarded by mutex_. Released entries are erased, expired ones
    // stay until taken over or until the table is full.
    std::map<std::string, std::map<remoting::MessageQueue, LockEntry>, std::less<>> groups_;
    size_t entries_ = 0; // locks in groups_; guarded by mutex_
};

// LOCK_BATCH_MQ and UNLOCK_BATCH_MQ over one RebalanceLockManager. Both answer SUCCESS (LOCK
// with {"lockOKMQSet":[…]}); a body that does not parse gets SYSTEM_ERROR naming the fault.
class LockBatchProcessor
{
public:
    // The lifetime is read once (broker config rebalanceLockMaxLiveTime): a live config change
    // applies after a restart.
    explicit LockBatchProcessor(int64_t maxLiveMillis) : locks_(maxLiveMillis) {}

    void lockBatch(const remoting::RequestContext &context, remoting::RemotingCommand request,
                   remoting::Responder respond);
    void unlockBatch(const remoting::RequestContext &context, remoting::RemotingCommand request,
                     remoting::Responder respond);

    RebalanceLockManager &locks() { return locks_; }

private:
    RebalanceLockManager locks_;
};

} // namespace mqdesk::server
