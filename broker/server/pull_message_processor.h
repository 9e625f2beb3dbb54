#pragma once

// PULL_MESSAGE (11) (remoting spec §4.2): RocketMQ 4.9.8's checks in order, the store read
// (records sent back byte for byte as stored), the status → response-code mapping with the
// four offset fields on every outcome, the piggy-backed offset commit, and long polling
// through PullRequestHoldService.

#include "broker/remoting/net/remoting_channel.h"

namespace mqdesk::server {

class BrokerController;
struct HeldPull;

class PullMessageProcessor
{
public:
    explicit PullMessageProcessor(BrokerController &broker) : broker_(broker) {}

    void process(const remoting::RequestContext &context, remoting::RemotingCommand request,
                 remoting::Responder respond);
    // A held pull woken by an arrival, the periodic check or its timeout: run once more,
    // answering whatever the outcome (never parked again). Runs on the pull executor.
    void rerun(HeldPull pull);

private:
    void processRequest(const remoting::RequestContext &context, remoting::RemotingCommand &request,
                        remoting::Responder &respond, bool allowSuspend);

    BrokerController &broker_;
};

} // namespace mqdesk::server
