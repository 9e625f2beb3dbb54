#pragma once

// What POP consumption writes and hands out, in RocketMQ 5's formats (grpc-proxy spec §5–6;
// Java's PopCheckPoint, AckMsg, BatchAckMsg, ExtraInfoUtil, KeyBuilder, PopAckConstants):
//
// - a checkpoint (CK): one pop's read of one queue, stored as a message (tag `ck`) in the revive
//   topic `rmq_sys_REVIVE_LOG_<cluster>`, queue reviveQid, timer-delivered one second before the
//   messages become visible again;
// - an ack (tag `ack`) or batch ack (tag `bAck`): stored there too, delivered at the revive time,
//   so the revive service sees a CK's acks after the CK;
// - the extra info string (POP_CK) a client sends back with ACK_MESSAGE and
//   CHANGE_MESSAGE_INVISIBLETIME: "ckStartOffset popTime invisibleTime reviveQid retry brokerName
//   queueId queueOffset", space separated; retry is 0 (the topic), 1 (%RETRY%group_topic) or 2
//   (%RETRY%group+topic).
// Bodies are fastjson's compact JSON with Java's short property names, in fastjson's order.

#include "broker/common/json.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mqdesk::server::pop {

inline constexpr const char *kReviveGroup = "CID_RMQ_SYS_REVIVE_GROUP";
inline constexpr const char *kCheckpointTag = "ck";
inline constexpr const char *kAckTag = "ack";
inline constexpr const char *kBatchAckTag = "bAck";
inline constexpr const char *kFirstPopTimeProperty = "1ST_POP_TIME";
// A CK is delivered this long before its revive time, so acks (delivered at it) come after it.
inline constexpr int64_t kAckTimeIntervalMs = 1000;
inline constexpr int64_t kSecondMs = 1000;
// The largest time or duration (ms) read from a client or a stored record: sums of two stay far
// from overflowing (2^50 ms is some 35,000 years).
inline constexpr int64_t kMaxMillis = int64_t{1} << 50;
inline bool isMillis(int64_t value)
{
    return value >= 0 && value <= kMaxMillis;
}
// reviveQid of a FIFO (orderly) pop: no CK is written, ConsumerOrderInfo keeps the state.
inline constexpr int32_t kOrderReviveQid = 999;

std::string reviveTopic(const std::string &clusterName);
// KeyBuilder.buildPopRetryTopic (V1, enableRetryTopicV2=false): %RETRY%<group>_<topic>.
std::string popRetryTopic(const std::string &topic, const std::string &group);
// KeyBuilder.buildPopRetryTopic with enableRetryTopicV2: %RETRY%<group>+<topic> (read, never made).
std::string popRetryTopicV2(const std::string &topic, const std::string &group);
bool isRetryTopic(const std::string &topic);
// ExtraInfoUtil.getRetry: "0", "1" (V1 retry topic) or "2" (V2, `+` separated).
std::string retryMark(const std::string &topic);
// The topic a handle's retry mark points at, for `topic` as the client names it.
std::string realTopic(const std::string &retry, const std::string &topic, const std::string &group);

struct PopCheckPoint
{
    int64_t startOffset = 0;
    int64_t popTime = 0;
    int64_t invisibleTime = 0;
    int32_t bitMap = 0;
    int32_t num = 0;
    int32_t queueId = 0;
    std::string topic;
    std::string cid; // the consumer group
    int64_t reviveOffset = 0; // set when read back from the revive queue
    std::vector<int32_t> queueOffsetDiff; // message offset − startOffset, one per message
    std::string brokerName;
    std::optional<int32_t> rePutTimes;

    int64_t reviveTime() const { return popTime + invisibleTime; }
    // The bitMap bit of message `index` (0–31), as Java's int bit operations.
    bool acked(int index) const { return (static_cast<uint32_t>(bitMap) >> index) & 1u; }
    void setAcked(int index) { bitMap = static_cast<int32_t>(static_cast<uint32_t>(bitMap) | (1u << index)); }
    // Messages of this CK not acked.
    int32_t unackedCount() const
    {
        int32_t count = 0;
        for (int i = 0; i < num; ++i)
            count += acked(i) ? 0 : 1;
        return count;
    }
    int64_t queueOffset(int index) const
    {
        return queueOffsetDiff.empty() ? startOffset + index : startOffset + queueOffsetDiff[index];
    }
    // The index of `queueOffset` among this CK's messages, or -1.
    int indexOfOffset(int64_t queueOffset) const;
    std::string toJson() const;
    static std::optional<PopCheckPoint> fromJson(std::string_view json, std::string &error);
};

// AckMsg, or BatchAckMsg when ackOffsets has more than one (tag bAck, `aol`).
struct AckMessage
{
    std::vector<int64_t> ackOffsets;
    int64_t startOffset = 0;
    std::string consumerGroup;
    std::string topic;
    int32_t queueId = 0;
    int64_t popTime = 0;
    std::string brokerName;

    bool batch = false; // tag bAck
    bool isBatch() const { return batch || ackOffsets.size() != 1; }
    std::string toJson() const;
    static std::optional<AckMessage> fromJson(std::string_view json, bool batch, std::string &error);
};

// The key that matches acks to their CK (Java's PopReviveService: topic+cid+queueId+startOffset+
// popTime+brokerName).
std::string checkpointKey(const std::string &topic, const std::string &group, int32_t queueId, int64_t startOffset,
                          int64_t popTime, const std::string &brokerName);
// UNIQ_KEY of a CK / ACK message: "<topic>@<qid>@<offset>@<group>@<popTime>@<broker>@ck|ack".
std::string checkpointUniqueKey(const PopCheckPoint &ck);
std::string ackUniqueKey(const AckMessage &ack);

struct ExtraInfo
{
    int64_t ckStartOffset = 0;
    int64_t popTime = 0;
    int64_t invisibleTime = 0;
    int32_t reviveQid = 0;
    std::string retry = "0";
    std::string brokerName;
    int32_t queueId = 0;
    int64_t queueOffset = -1; // the 8th field; -1 when absent
    int64_t commitLogOffset = -1; // the proxy's 9th field; -1 when absent

    std::string toString() const; // eight fields (the 9th only when set)
    static std::optional<ExtraInfo> parse(std::string_view text, std::string &error);
};

// The response header strings of POP_MESSAGE (ExtraInfoUtil.buildStartOffsetInfo/
// buildMsgOffsetInfo/buildOrderCountInfo): per read queue "<retry> <queueId> <value>", `;` between
// queues; message offsets joined by `,`.
void appendStartOffsetInfo(std::string &info, const std::string &topic, int32_t queueId, int64_t startOffset);
void appendMsgOffsetInfo(std::string &info, const std::string &topic, int32_t queueId,
                         const std::vector<int64_t> &offsets);
void appendOrderCountInfo(std::string &info, const std::string &topic, int32_t queueId, int32_t count);

// Java's BitSet.toByteArray as fastjson writes a byte[] (Base64), for BatchAck's `b`.
std::vector<int32_t> decodeBitSet(std::string_view base64, std::string &error);
std::string encodeBitSet(const std::vector<int32_t> &bits);

} // namespace mqdesk::server::pop
