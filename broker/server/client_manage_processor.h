#pragma once

// Client management and per-queue offsets (remoting spec §4.3, §6.1–6.5): HEART_BEAT,
// UNREGISTER_CLIENT, GET_CONSUMER_LIST_BY_GROUP, QUERY/UPDATE_CONSUMER_OFFSET, GET_MAX_OFFSET,
// GET_MIN_OFFSET, SEARCH_OFFSET_BY_TIMESTAMP, GET_EARLIEST_MSG_STORETIME and CHECK_CLIENT_CONFIG.

#include "broker/remoting/net/remoting_channel.h"

#include <cstdint>
#include <string>

namespace mqdesk::server {

class BrokerController;
class StaticQueue;

class ClientManageProcessor
{
public:
    explicit ClientManageProcessor(BrokerController &broker) : broker_(broker) {}

    void heartbeat(const remoting::RequestContext &context, remoting::RemotingCommand request,
                   remoting::Responder respond);
    // CHECK_CLIENT_CONFIG (46): the Java client asks before heartbeating an SQL92 subscription.
    // TAG (or no subscription): SUCCESS; property filter off: SYSTEM_ERROR; an expression that
    // does not compile: SUBSCRIPTION_PARSE_FAILED with the error as remark.
    void checkClientConfig(const remoting::RequestContext &context, remoting::RemotingCommand request,
                           remoting::Responder respond);
    void unregisterClient(const remoting::RequestContext &context, remoting::RemotingCommand request,
                          remoting::Responder respond);
    void consumerListByGroup(const remoting::RequestContext &context, remoting::RemotingCommand request,
                             remoting::Responder respond);
    void queryConsumerOffset(const remoting::RequestContext &context, remoting::RemotingCommand request,
                             remoting::Responder respond);
    void updateConsumerOffset(const remoting::RequestContext &context, remoting::RemotingCommand request,
                              remoting::Responder respond);
    // GET_MAX_OFFSET, GET_MIN_OFFSET, SEARCH_OFFSET_BY_TIMESTAMP, GET_EARLIEST_MSG_STORETIME.
    void queueOffsetQuery(const remoting::RequestContext &context, remoting::RemotingCommand request,
                          remoting::Responder respond);

private:
    remoting::RemotingCommand queryPhysicalConsumerOffset(const remoting::RemotingCommand &request,
                                                          const std::string &group, const std::string &topic,
                                                          int32_t queueId, bool setZeroIfNotFound);
    // Static topics (static_topic_queue.h): the logical queue's offsets from its items.
    remoting::RemotingCommand queryStaticConsumerOffset(const remoting::RemotingCommand &request,
                                                        const StaticQueue &logical, const std::string &group,
                                                        bool setZeroIfNotFound);
    remoting::RemotingCommand staticQueueOffsetQuery(const remoting::RemotingCommand &request,
                                                     const StaticQueue &logical, int64_t timestamp);

    BrokerController &broker_;
};

} // namespace mqdesk::server
