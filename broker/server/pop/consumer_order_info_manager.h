#pragma once

// FIFO (orderly) pops: which messages of a queue a group holds — RocketMQ 5's
// ConsumerOrderInfoManager (5.5.0: QueueLevelConsumerManager), persisted as Java does in
// config/consumerOrderInfo.json:
//   {"orderInfoCount":n,"orderedConsumptionLevel":"QUEUE","table":{"<topic>@<group>":{<queueId>:OrderInfo}}}
// OrderInfo (short names): popTime, i invisibleTime, o offsets (o[0] absolute, the rest as
// differences from it), ot {offset: next visible ms} (change-invisible), oc {offset: times
// handed out before} (only counts > 0), l last pop ms, cm acked bits (by index in o), a attemptId.
// Integer map keys are written unquoted, as fastjson writes them.
//
// Rules (Java's): a queue whose popped messages are not all acked is blocked for the group until
// each un-acked one is visible again (ot, or popTime + i), except for a pop repeating the same
// attemptId; a pop of the same offsets again counts them once more; an ack with another popTime
// is stale and ignored; acks advance the group's offset over the acked prefix. Thread-safe.

#include "broker/store/config/config_manager.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mqdesk::server::pop {

class ConsumerOrderInfoManager : public store::ConfigManager
{
public:
    static constexpr const char *kFileName = "consumerOrderInfo.json";

    ConsumerOrderInfoManager();

    // Whether a FIFO pop with `attemptId` may read the queue at `nowMs`.
    bool admit(const std::string &topic, const std::string &group, int32_t queueId, const std::string &attemptId,
               int64_t nowMs) const;
    // Records a FIFO pop's messages; appends the orderCountInfo entries of the POP_MESSAGE
    // response (per message "<retry> qo<qid>%<offset> <count>", then the queue's "<retry> <qid> <min>").
    void popped(const std::string &topic, const std::string &group, int32_t queueId, const std::string &attemptId,
                int64_t popTime, int64_t invisibleTime, const std::vector<int64_t> &offsets, std::string &orderCountInfo);
    // As popped, for a lite pop (RocketMQ 5.5): records the pop and answers, per offset, how
    // many times it was handed out before (the orderCountInfo entries of POP_LITE_MESSAGE).
    std::vector<int32_t> recordPop(const std::string &topic, const std::string &group, int32_t queueId,
                                   const std::string &attemptId, int64_t popTime, int64_t invisibleTime,
                                   const std::vector<int64_t> &offsets);
    // When the queue stops blocking a pop with `attemptId` (wall ms, the last un-acked message's
    // visible time); 0 when it does not block at `nowMs`.
    int64_t blockedUntil(const std::string &topic, const std::string &group, int32_t queueId,
                         const std::string &attemptId, int64_t nowMs) const;
    // Whether the group holds popped messages of the queue (acked or not).
    bool holds(const std::string &topic, const std::string &group, int32_t queueId) const;
    // Java's suspendQueue: the held batch is visible again at `visibleAtMs` as a whole, and this
    // return does not count as a delivery (each count down by one). False when stale.
    bool suspend(const std::string &topic, const std::string &group, int32_t queueId, int64_t popTime,
                 int64_t visibleAtMs);
    // A FIFO ack: the offset to commit (past the acked prefix); nullopt when the offset is not
    // held or the ack is stale (another popTime).
    std::optional<int64_t> ack(const std::string &topic, const std::string &group, int32_t queueId, int64_t offset,
                               int64_t popTime);
    // Change-invisible of a held message; false when not held or stale.
    bool changeInvisible(const std::string &topic, const std::string &group, int32_t queueId, int64_t offset,
                         int64_t popTime, int64_t visibleAtMs);
    // Forgets what the group holds of a queue (-1: of every queue of the topic): its offsets were
    // reset (Java clearBlock), so the held messages block it no longer.
    void clearBlock(const std::string &topic, const std::string &group, int32_t queueId);
    // Queues with an order record (GET_BROKER_LITE_INFO's orderInfoCount).
    int64_t heldQueueCount() const;
    // Messages held (popped, not acked) by a group, for the console.
    int64_t heldCount(const std::string &group) const;
    // Whether something changed since the last persist (the revive thread persists then).
    bool dirty() const;

protected:
    bool decodeLocked(const common::JsonValue &root, std::string &error) override;
    common::JsonValue encodeLocked() const override;

private:
    struct OrderInfo
    {
        int64_t popTime = 0;
        int64_t invisibleTime = 0;
        std::vector<int64_t> offsets; // absolute
        std::map<int64_t, int64_t> nextVisible;
        std::map<int64_t, int32_t> consumedCount;
        int64_t lastConsumeTimestamp = 0;
        int64_t commitBits = 0;
        std::string attemptId;

        bool acked(size_t index) const { return index < 64 && (commitBits >> index) & 1; }
    };
    using Queues = std::map<int32_t, OrderInfo>;
    static std::string keyOf(const std::string &topic, const std::string &group) { return topic + "@" + group; }
    // The order record of a queue, or null; mutex_ held.
    const OrderInfo *findLocked(const std::string &topic, const std::string &group, int32_t queueId) const;
    OrderInfo *findLocked(const std::string &topic, const std::string &group, int32_t queueId);

    std::map<std::string, Queues> table_; // guarded by mutex_ (ConfigManager's)
    std::vector<std::string> order_;      // table keys in first-seen order (the file's order)
    mutable bool dirty_ = false;
};

} // namespace mqdesk::server::pop
