#pragma once

// The admin requests the broker answers by asking a consumer over its own connection (Java's
// AdminBrokerProcessor.callConsumer and Broker2Client): the Dashboard's and mqadmin's view into
// a running client.
//
// - GET_CONSUMER_RUNNING_INFO (307): forwarded to the client named by consumerGroup + clientId,
//   its answer (ConsumerRunningInfo: properties, subscriptions, per-queue process state, status
//   table, the jstack when asked) relayed as it came.
// - CONSUME_MESSAGE_DIRECTLY (309): the message named by msgId (an offset message id) read from
//   the commit log and sent as the body; the client consumes it with its listener and answers
//   ConsumeMessageDirectlyResult. A `topic` in the request must be the message's (or its
//   REAL_TOPIC), so that a right on one topic never consumes another's message.
// - INVOKE_BROKER_TO_GET_CONSUMER_STATUS (223): GET_CONSUMER_STATUS_FROM_CLIENT (221) sent to
//   every client of the group (or the one named by originClientId); their per-queue offsets
//   gathered into GetConsumerStatusBody.
//
// Nothing blocks the admin executor: the requests go out with the connection's invoke and the
// answer is written from its callback. A client that is not online, too old, or does not answer
// within 10 s (5 s for 221, Java's timeouts) is answered SYSTEM_ERROR with Java's remark.

#include "broker/remoting/net/remoting_channel.h"

#include <cstdint>
#include <vector>

namespace mqdesk::server {

class BrokerController;

class ClientCallProcessor
{
public:
    explicit ClientCallProcessor(BrokerController &broker) : broker_(broker) {}

    static std::vector<int32_t> codes();
    void process(const remoting::RequestContext &context, remoting::RemotingCommand request,
                 remoting::Responder respond);

private:
    void getConsumerRunningInfo(remoting::RemotingCommand request, remoting::Responder respond);
    void consumeMessageDirectly(remoting::RemotingCommand request, remoting::Responder respond);
    void getConsumerStatus(remoting::RemotingCommand request, remoting::Responder respond);
    // Forwards `request` (its header and body) to the group's client and relays the answer.
    void callConsumer(int32_t code, const remoting::RemotingCommand &request, const std::string &group,
                      const std::string &clientId, remoting::Responder respond);

    BrokerController &broker_;
};

} // namespace mqdesk::server
