#pragma once

// RECALL_MESSAGE (370, RocketMQ 5.3+; Java's RecallMessageProcessor and RecallMessageHandle):
// cancels a timer message before its delivery time, by the recall handle its send answer carried.
//
// A handle is Base64url("v1 <topic> <brokerName> <deliverMs> <uniqKey>"), deliverMs being the
// message's TIMER_OUT_MS + 1 (Java's "consider of floor": the put-time rounding takes it back to
// the same slot). SEND_MESSAGE(_V2) answers it as `recallHandle` for a single message the store
// parked in the wheel, except retries. Recalling puts a delete marker: a message to <topic>
// carrying TIMER_DEL_UNIQKEY "<topic>+<uniqKey>" and TIMER_DELIVER_MS deliverMs, which the timer
// parks in the recalled message's slot; when the slot is due neither is delivered
// (timer_message_store.h). As in Java, a handle whose time is still ahead is answered SUCCESS
// whether or not its message is still parked (recalling twice is harmless).
//
// Refusals, in Java's order and words: recallMessageEnable=false → NO_PERMISSION; the broker not
// writable → SERVICE_NOT_AVAILABLE; no such topic → TOPIC_NOT_EXIST; a handle that does not decode
// → ILLEGAL_OPERATION "recall handle is invalid"; another topic's or broker's handle, a time passed
// or beyond timerMaxDelaySec → ILLEGAL_OPERATION naming which.

#include "broker/remoting/net/remoting_channel.h"

#include <optional>
#include <string>
#include <string_view>

namespace mqdesk::server {

class BrokerController;

struct RecallHandle
{
    std::string topic;
    std::string brokerName;
    std::string deliverMs; // as written (Java parses it only when recalling)
    std::string uniqKey;
};

std::string encodeRecallHandle(const RecallHandle &handle);
// Java's decodeHandle: Base64url, then at least five space-separated fields, the first "v1";
// stricter than Java, no control character anywhere (they would reach the marker's properties).
std::optional<RecallHandle> decodeRecallHandle(std::string_view handle);

class RecallMessageProcessor
{
public:
    explicit RecallMessageProcessor(BrokerController &broker) : broker_(broker) {}

    void process(const remoting::RequestContext &context, remoting::RemotingCommand request,
                 remoting::Responder respond);

private:
    BrokerController &broker_;
};

} // namespace mqdesk::server
