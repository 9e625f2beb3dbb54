#pragma once

// SEND_REPLY_MESSAGE (324) and SEND_REPLY_MESSAGE_V2 (325): the reply half of request-reply
// (DefaultMQProducer.request / MessageUtil.createReplyMessage), as RocketMQ's
// ReplyMessageProcessor answers it.
//
// A reply carries REPLY_TO_CLIENT, the client id of the producer that sent the request. The
// broker pushes the reply to that client's connection (PUSH_REPLY_MESSAGE_TO_CLIENT, 326, with
// PUSH_REPLY_TIME added) and answers the replier with the push's outcome: SUCCESS, or
// SYSTEM_ERROR with Java's remark when the requester is unknown, gone or refuses it. With
// storeReplyMessageEnable (default true) the reply is also stored in its topic
// (<cluster>_REPLY_TOPIC), whatever the push did; the response then carries the stored id.

#include "broker/remoting/net/remoting_channel.h"

namespace mqdesk::server {

class BrokerController;

class ReplyMessageProcessor
{
public:
    explicit ReplyMessageProcessor(BrokerController &broker) : broker_(broker) {}

    void process(const remoting::RequestContext &context, remoting::RemotingCommand request,
                 remoting::Responder respond);

private:
    BrokerController &broker_;
};

} // namespace mqdesk::server
