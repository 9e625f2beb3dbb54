#pragma once

// The receipts of PushConsumer deliveries, kept invisible while the client consumes them (the
// Java proxy's DefaultReceiptHandleManager and RenewStrategyPolicy). A ReceiveMessage with
// auto_renew pops with defaultInvisibleTimeMills and adds each message's receipt here; every
// renewSchedulePeriodMillis the service asks for the receipts whose invisible time ends within
// renewAheadTimeMillis and changes each one's invisible time to the next step of 1, 3, 5, 6, 10,
// 30 and 60 minutes, until renewMaxTimeMillis after the delivery, when renewing stops and the
// message comes back once its time is up. The client acks (or changes, or forwards) with the
// handle it was given; take() swaps in the latest one, waiting for a renewal under way, so an ack
// never names a checkpoint that a renewal has already replaced. A client that leaves takes its
// receipts with it (their messages come back after the time last set).
//
// Threads: every method may be called from any thread; callbacks given to take() run on the thread
// that completes the renewal, or on the caller's when none is under way, outside the lock.

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace mqdesk::grpc {

class ReceiptRenewals
{
public:
    // What the client holds: (client id, group, message id, the handle it was given).
    struct Key
    {
        std::string clientId;
        std::string group;
        std::string messageId;
        std::string givenHandle;
        auto operator<=>(const Key &) const = default;
    };
    // A renewal to make: the latest handle and for how long.
    struct Due
    {
        Key key;
        std::string topic;
        std::string handle;
        int64_t invisibleMillis = 0;
    };
    using Taken = std::function<void(const std::string &latestHandle)>;

    static constexpr int kMaxRetries = 3; // failed renewals in a row before giving up

    void add(const Key &key, const std::string &topic, int64_t deliveredMs, int64_t visibleAgainMs);
    // The latest handle for `key` goes to `then` and the receipt is forgotten; `key.givenHandle`
    // itself when the receipt is not (or no longer) kept.
    void take(const Key &key, Taken then);
    // Receipts to renew now, marked under way; those past renewMaxMillis are dropped instead.
    std::vector<Due> due(int64_t nowMs, int64_t aheadMillis, int64_t maxRenewMillis);
    // The end of a renewal `due` returned: the new handle and when it is visible again, or
    // nullopt for a failure (retried `kMaxRetries` times, then dropped).
    void renewed(const Key &key, std::optional<std::pair<std::string, int64_t>> handleAndVisibleMs);
    void forgetClient(const std::string &clientId);
    size_t size() const;

    // RenewStrategyPolicy: the invisible time of the n-th renewal (0-based).
    static int64_t renewStepMillis(int renewTimes);

private:
    struct Receipt
    {
        std::string topic;
        std::string handle;
        int64_t deliveredMs = 0;
        int64_t visibleAgainMs = 0;
        int renewTimes = 0;
        int failures = 0;
        bool renewing = false;
        std::vector<Taken> waiting; // take()s that came while renewing
    };

    mutable std::mutex mutex_;
    std::map<Key, Receipt> receipts_;
};

} // namespace mqdesk::grpc
