#pragma once

// The bodies of the POP revive topic `rmq_sys_REVIVE_LOG_<cluster>` (RocketMQ 5's PopCheckPoint
// and AckMsg / BatchAckMsg, fastjson compact JSON with Java's short names) decoded for the store
// explorer's record detail. broker/store may not use broker/server's pop_records (the arrows point
// down only), so this small read-only decoder lives here; it names every field and never fails
// harder than an `error`.
//   tag ck   PopCheckPoint {bm, bn, c, d, it, n, pt, q, reviveTime, ro, rp?, so, sp?, t}
//   tag ack  AckMsg {ao, bn, c, pt, q, so, t}; tag bAck: BatchAckMsg with `aol` instead of `ao`

#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::store {

inline constexpr std::string_view kReviveTopicPrefix = "rmq_sys_REVIVE_LOG_";

struct ReviveBodyField
{
    std::string key;   // as stored, e.g. "so"
    std::string name;  // Java's property, e.g. "startOffset"
    std::string value; // as text (arrays as "[1,2]")
};

struct ReviveBody
{
    std::string kind; // "CK", "ACK", "BATCH_ACK"; empty when not decoded
    std::vector<ReviveBodyField> fields; // in the body's order; unknown keys keep their key as name
    std::string error; // why not (or which required key is missing)
};

bool isReviveTopic(std::string_view topic);
// `tags` chooses the record type (ck / ack / bAck); a body of another tag is told by its keys.
ReviveBody decodeReviveBody(std::string_view tags, std::string_view body);

} // namespace mqdesk::store
