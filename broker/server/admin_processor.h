#pragma once

// The admin requests the console and mqadmin send to a broker (remoting spec §8): topics,
// statistics, offsets, subscription groups, connections, runtime info, broker configuration,
// and MQDesk's flush-sample extension (docs/remoting-extensions.md).

#include "broker/remoting/remoting_channel.h"

#include <vector>

namespace mqdesk::server {

class BrokerController;

class AdminProcessor
{
public:
    explicit AdminProcessor(BrokerController &broker) : broker_(broker) {}

    // The request codes process() answers.
    static std::vector<int32_t> codes();
    void process(const remoting::RequestContext &context, remoting::RemotingCommand request,
                 remoting::Responder respond);

private:
    remoting::RemotingCommand updateBrokerConfig(const remoting::RemotingCommand &request);
    remoting::RemotingCommand getBrokerConfig(const remoting::RemotingCommand &request);

    BrokerController &broker_;
};

} // namespace mqdesk::server
