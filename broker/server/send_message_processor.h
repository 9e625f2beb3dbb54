#pragma once

// SEND_MESSAGE (10), SEND_MESSAGE_V2 (310) and SEND_BATCH_MESSAGE (320) (remoting spec §4.1):
// header checks in RocketMQ 4.9.8's order, topics created on the fly from a template, the
// store's asynchronous put, and the response — answered from the flush thread when the put
// completes, so a SYNC_FLUSH put never holds the send executor.
//
// A single send to %RETRY%<group> whose retries are used up goes to %DLQ%<group> (§4.1 step 4).
// DELAY needs nothing here: the store parks a delayed message in SCHEDULE_TOPIC_XXXX on any put.
// A message with TRAN_MSG=true is stored as a half message (TransactionService::toHalfMessage);
// the broker refuses them with rejectTransactionMessage, and in batches.

#include "broker/remoting/net/remoting_channel.h"

namespace mqdesk::server {

class BrokerController;

class SendMessageProcessor
{
public:
    explicit SendMessageProcessor(BrokerController &broker) : broker_(broker) {}

    void process(const remoting::RequestContext &context, remoting::RemotingCommand request,
                 remoting::Responder respond);

private:
    BrokerController &broker_;
};

} // namespace mqdesk::server
