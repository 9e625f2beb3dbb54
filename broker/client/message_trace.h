#pragma once

// Message traces as RocketMQ's clients write them (`enableMsgTrace`, the Java client's
// AsyncTraceDispatcher): ordinary messages in the trace topic (RMQ_SYS_TRACE_TOPIC unless the
// client names another), keyed (KEYS) by each traced message's msgId and keys, whose body holds
// one or more trace contexts. Contexts end with FIELD_SPLITOR (0x02); a context's fields are
// separated by CONTENT_SPLITOR (0x01), in the order TraceDataEncoder writes them:
//
//   Pub            type time region group topic msgId tags keys storeHost bodyLength costTime
//                  msgType [offsetMsgId] success [clientHost]
//   SubBefore      type time region group requestId msgId retryTimes keys
//   SubAfter       type requestId msgId costTime success keys [contextCode [time]]
//   EndTransaction type time region group topic msgId tags keys storeHost msgType transactionId
//                  transactionState fromTransactionCheck
//
// Bracketed fields are absent in older clients. msgType is Java's MessageType ordinal,
// contextCode ConsumeReturnType's. A context that cannot be read (unknown type, too few fields,
// a number that is not one) is skipped: traces are written by clients, never trusted.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::client {

inline constexpr const char *kDefaultTraceTopic = "RMQ_SYS_TRACE_TOPIC";

enum class TraceType { Pub, SubBefore, SubAfter, EndTransaction };

struct TraceEvent
{
    TraceType type = TraceType::Pub;
    int64_t timestamp = 0; // ms since the epoch; 0 when the client did not write it (old SubAfter)
    std::string regionId;
    std::string group; // producer group (Pub, EndTransaction) or consumer group (SubBefore)
    std::string requestId; // pairs a SubBefore with its SubAfter
    std::string topic;
    std::string msgId;
    std::string tags;
    std::string keys;
    std::string storeHost;
    std::string offsetMsgId;
    std::string clientHost;
    int32_t bodyLength = 0;
    int32_t costTimeMs = 0;
    int32_t retryTimes = 0;
    int32_t contextCode = 0;
    int32_t messageType = 0;
    bool success = false;
    std::string transactionId;
    std::string transactionState; // COMMIT_MESSAGE, ROLLBACK_MESSAGE, UNKNOW
    bool fromTransactionCheck = false;
};

// Every readable context in one trace message's body.
std::vector<TraceEvent> decodeTraceData(std::string_view body);

// "Normal", "Transactional (half)", … for a msgType ordinal; "Unknown (n)" otherwise.
std::string traceMessageTypeName(int32_t messageType);
// "SUCCESS", "TIME_OUT", … for a contextCode (ConsumeReturnType ordinal).
std::string consumeReturnTypeName(int32_t contextCode);

// One delivery of the message to a consumer group: a SubBefore and, once the listener
// returned, its SubAfter.
struct ConsumeAttempt
{
    std::string group;
    std::string requestId;
    int64_t beginTimestamp = 0;
    int32_t retryTimes = 0;
    bool finished = false; // a SubAfter was found
    bool success = false;
    int32_t costTimeMs = 0;
    int32_t contextCode = 0;
};

// One message's trace, put together from the events of every trace message that names it.
struct MessageTrace
{
    std::optional<TraceEvent> publish;      // the Pub (the first, if a client sent several)
    std::vector<TraceEvent> transactionEnds; // EndTransaction, in time order
    std::vector<ConsumeAttempt> consumes;    // by group, then begin time
    bool empty() const { return !publish && transactionEnds.empty() && consumes.empty(); }
};

// The events about `msgId` (a Pub's msgId is the client's UNIQ_KEY; consumers trace the same id)
// put in order; events about other messages are ignored.
MessageTrace assembleMessageTrace(const std::vector<TraceEvent> &events, const std::string &msgId);

} // namespace mqdesk::client
