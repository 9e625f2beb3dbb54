#include "broker/client/message_trace.h"

#include <algorithm>
#include <charconv>
#include <map>

namespace mqdesk::client {

namespace {

constexpr char kContentSplitter = '\x01';
constexpr char kFieldSplitter = '\x02';

std::vector<std::string_view> split(std::string_view text, char separator)
{
    std::vector<std::string_view> parts;
    size_t start = 0;
    for (size_t i = 0; i <= text.size(); ++i) {
        if (i == text.size() || text[i] == separator) {
            parts.push_back(text.substr(start, i - start));
            start = i + 1;
        }
    }
    return parts;
}

template <typename Integer>
bool parseNumber(std::string_view text, Integer &value)
{
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size();
}

bool parseBool(std::string_view text) { return text == "true"; } // Boolean.parseBoolean, case aside

// Fields 2..8 of the producer's contexts (Pub, EndTransaction): region, group, topic, msgId,
// tags, keys, store host. The caller has checked there are enough fields.
void readProducerFields(const std::vector<std::string_view> &f, TraceEvent &e)
{
    e.regionId = f[2];
    e.group = f[3];
    e.topic = f[4];
    e.msgId = f[5];
    e.tags = f[6];
    e.keys = f[7];
    e.storeHost = f[8];
}

bool readPub(const std::vector<std::string_view> &f, TraceEvent &e)
{
    if (f.size() < 13)
        return false;
    readProducerFields(f, e);
    if (!parseNumber(f[1], e.timestamp) || !parseNumber(f[9], e.bodyLength) || !parseNumber(f[10], e.costTimeMs)
        || !parseNumber(f[11], e.messageType))
        return false;
    if (f.size() == 13) {
        e.success = parseBool(f[12]);
        return true;
    }
    e.offsetMsgId = f[12];
    e.success = parseBool(f[13]);
    if (f.size() >= 15)
        e.clientHost = f[14];
    return true;
}

bool readSubBefore(const std::vector<std::string_view> &f, TraceEvent &e)
{
    if (f.size() < 8)
        return false;
    e.regionId = f[2];
    e.group = f[3];
    e.requestId = f[4];
    e.msgId = f[5];
    e.keys = f[7];
    return parseNumber(f[1], e.timestamp) && parseNumber(f[6], e.retryTimes);
}

bool readSubAfter(const std::vector<std::string_view> &f, TraceEvent &e)
{
    if (f.size() < 6)
        return false;
    e.requestId = f[1];
    e.msgId = f[2];
    e.success = parseBool(f[4]);
    e.keys = f[5];
    if (!parseNumber(f[3], e.costTimeMs))
        return false;
    if (f.size() >= 7 && !parseNumber(f[6], e.contextCode))
        return false;
    return f.size() < 8 || parseNumber(f[7], e.timestamp);
}

bool readEndTransaction(const std::vector<std::string_view> &f, TraceEvent &e)
{
    if (f.size() < 13)
        return false;
    readProducerFields(f, e);
    e.transactionId = f[10];
    e.transactionState = f[11];
    e.fromTransactionCheck = parseBool(f[12]);
    e.success = true;
    return parseNumber(f[1], e.timestamp) && parseNumber(f[9], e.messageType);
}

std::optional<TraceEvent> readContext(std::string_view context)
{
    const std::vector<std::string_view> fields = split(context, kContentSplitter);
    TraceEvent event;
    bool ok = false;
    if (fields[0] == "Pub") {
        event.type = TraceType::Pub;
        ok = readPub(fields, event);
    } else if (fields[0] == "SubBefore") {
        event.type = TraceType::SubBefore;
        ok = readSubBefore(fields, event);
    } else if (fields[0] == "SubAfter") {
        event.type = TraceType::SubAfter;
        ok = readSubAfter(fields, event);
    } else if (fields[0] == "EndTransaction") {
        event.type = TraceType::EndTransaction;
        ok = readEndTransaction(fields, event);
    }
    return ok ? std::optional<TraceEvent>(std::move(event)) : std::nullopt;
}

} // namespace

std::vector<TraceEvent> decodeTraceData(std::string_view body)
{
    std::vector<TraceEvent> events;
    for (std::string_view context : split(body, kFieldSplitter)) {
        if (context.empty())
            continue;
        if (auto event = readContext(context))
            events.push_back(std::move(*event));
    }
    return events;
}

std::string traceMessageTypeName(int32_t messageType)
{
    static const char *const kNames[] = {"Normal", "Transactional (half)", "Transactional (commit)", "Delayed",
                                         "Ordered"};
    if (messageType >= 0 && messageType < static_cast<int32_t>(std::size(kNames)))
        return kNames[messageType];
    return "Unknown (" + std::to_string(messageType) + ")";
}

std::string consumeReturnTypeName(int32_t contextCode)
{
    static const char *const kNames[] = {"SUCCESS", "TIME_OUT", "EXCEPTION", "RETURNNULL", "FAILED"};
    if (contextCode >= 0 && contextCode < static_cast<int32_t>(std::size(kNames)))
        return kNames[contextCode];
    return "UNKNOWN (" + std::to_string(contextCode) + ")";
}

MessageTrace assembleMessageTrace(const std::vector<TraceEvent> &events, const std::string &msgId)
{
    MessageTrace trace;
    // A SubAfter carries no group: it is matched to its SubBefore by request id (one listener
    // call) and message id.
    std::map<std::string, const TraceEvent *> afterByRequest;
    for (const TraceEvent &event : events) {
        if (event.msgId != msgId)
            continue;
        switch (event.type) {
        case TraceType::Pub:
            if (!trace.publish || event.timestamp < trace.publish->timestamp)
                trace.publish = event;
            break;
        case TraceType::EndTransaction:
            trace.transactionEnds.push_back(event);
            break;
        case TraceType::SubAfter:
            afterByRequest.emplace(event.requestId, &event);
            break;
        case TraceType::SubBefore:
            trace.consumes.push_back({event.group, event.requestId, event.timestamp, event.retryTimes});
            break;
        }
    }
    for (ConsumeAttempt &attempt : trace.consumes) {
        const auto after = afterByRequest.find(attempt.requestId);
        if (after == afterByRequest.end())
            continue;
        attempt.finished = true;
        attempt.success = after->second->success;
        attempt.costTimeMs = after->second->costTimeMs;
        attempt.contextCode = after->second->contextCode;
    }
    std::sort(trace.transactionEnds.begin(), trace.transactionEnds.end(),
              [](const TraceEvent &a, const TraceEvent &b) { return a.timestamp < b.timestamp; });
    std::sort(trace.consumes.begin(), trace.consumes.end(), [](const ConsumeAttempt &a, const ConsumeAttempt &b) {
        return a.group != b.group ? a.group < b.group : a.beginTimestamp < b.beginTimestamp;
    });
    return trace;
}

} // namespace mqdesk::client
