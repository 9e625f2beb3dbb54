#pragma once

// CONSUMER_SEND_MSG_BACK (36) (remoting spec §6.6, store-format §14): a consumer hands back a
// message it failed to consume. The broker reads the original record by its commit-log offset
// and stores a copy in %RETRY%<group> with reconsumeTimes + 1 and a delay level (3 +
// reconsumeTimes unless the request names one) — the store's delay rewrite then parks it in
// SCHEDULE_TOPIC_XXXX until ScheduleMessageService delivers it — or, once the retries are used
// up or the request asks for it (delayLevel < 0), in %DLQ%<group> without delay.
//
// Also the retry-topic rule of a plain send (spec §4.1 step 4), shared with SendMessageProcessor.

#include "broker/remoting/net/remoting_channel.h"
#include "broker/store/config/subscription_group_config.h"

#include <optional>
#include <string>

namespace mqdesk::server {

class BrokerController;

// The group's config; a missing group is created with the defaults and persisted where
// BrokerConfig::createsGroupOnUse says and its name is one RocketMQ allows, else nullopt (Java's
// SubscriptionGroupManager.findSubscriptionGroupConfig).
std::optional<store::SubscriptionGroupConfig> findOrCreateSubscriptionGroup(BrokerController &broker,
                                                                            const std::string &group);

// The retries a requester allows before a message goes to the DLQ: the header's
// maxReconsumeTimes when present and the requester is at least V3_4_9 (version 121), else the
// group's retryMaxTimes.
int32_t maxReconsumeTimesOf(const store::SubscriptionGroupConfig &group, int32_t requestVersion,
                            std::optional<int32_t> headerMaxReconsumeTimes);

class SendMsgBackProcessor
{
public:
    explicit SendMsgBackProcessor(BrokerController &broker) : broker_(broker) {}

    void process(const remoting::RequestContext &context, remoting::RemotingCommand request,
                 remoting::Responder respond);

private:
    BrokerController &broker_;
};

} // namespace mqdesk::server
