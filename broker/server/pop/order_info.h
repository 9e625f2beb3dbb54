#pragma once

// FIFO (orderly) pops: which messages of a queue a group holds (Java's ConsumerOrderInfoManager,
// kept in memory here). A queue whose popped messages are not all acked is blocked for the group
// until their invisible time passes (then they are handed out again, their count one higher) or a
// pop with the same attemptId retries. Acks advance the group's committed offset over the acked
// prefix; the last ack unblocks the queue. Thread-safe.

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mqdesk::server::pop {

class OrderInfoTable
{
public:
    // Whether a FIFO pop may read the queue at `nowMs` (from the group's committed offset).
    bool admit(const std::string &topic, const std::string &group, int32_t queueId, const std::string &attemptId,
               int64_t nowMs);
    // Records a FIFO pop's messages; returns how many times they were handed out before (the
    // orderCountInfo count, what the client shows as reconsumeTimes).
    int32_t popped(const std::string &topic, const std::string &group, int32_t queueId, const std::string &attemptId,
                   int64_t popTime, int64_t invisibleTime, const std::vector<int64_t> &offsets);
    // A FIFO ack of `offset`: the offset to commit now (past the acked prefix), or nullopt when the
    // offset is not among the held ones.
    std::optional<int64_t> ack(const std::string &topic, const std::string &group, int32_t queueId, int64_t offset);
    // The next visible time of the held messages moves to `visibleAtMs`; false when not held.
    bool changeInvisible(const std::string &topic, const std::string &group, int32_t queueId, int64_t offset,
                         int64_t visibleAtMs);
    // Messages held (popped, not acked) per group, for the console.
    int64_t heldCount(const std::string &group) const;

private:
    struct Held
    {
        std::vector<int64_t> offsets;
        std::set<int64_t> acked;
        int64_t visibleAtMs = 0;
        std::string attemptId;
        int32_t count = 0;
    };
    static std::string keyOf(const std::string &topic, const std::string &group, int32_t queueId);

    mutable std::mutex mutex_;
    std::map<std::string, Held> held_;
    std::map<std::string, std::string> groupOfKey_;
};

} // namespace mqdesk::server::pop
