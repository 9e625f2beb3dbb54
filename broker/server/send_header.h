#pragma once

// The header of SEND_MESSAGE (10), SEND_MESSAGE_V2 (310), SEND_BATCH_MESSAGE (320) and the reply
// sends SEND_REPLY_MESSAGE (324) / _V2 (325) (remoting spec §4.1): V2 names its fields with one
// letter, V1 in full. Shared by SendMessageProcessor and ReplyMessageProcessor.

#include "broker/remoting/remoting_command.h"
#include "broker/store/put_message_result.h"
#include "broker/store/config/topic_config_manager.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mqdesk::server {

struct SendHeader
{
    std::string producerGroup;
    std::string topic;
    std::string defaultTopic;
    int32_t defaultTopicQueueNums = 4;
    int32_t queueId = -1;
    int32_t sysFlag = 0;
    int64_t bornTimestamp = 0;
    int32_t flag = 0;
    std::string properties;
    int32_t reconsumeTimes = 0;
    std::optional<int32_t> maxReconsumeTimes;
    bool unitMode = false;
    bool batch = false;
};

// Reads the header in the field names of the request's code; false with `error` naming the field.
bool readSendHeader(const remoting::RemotingCommand &request, SendHeader &header, std::string &error);

class BrokerController;

// A queue in [0, queues) picked at random (per thread), where a send asked for none (-1).
int32_t randomQueue(int32_t queues);

// Where a send or reply goes once Java's msgCheck passed: the topic's config and the queue (a
// random writable one when the header asked for -1).
struct SendTarget
{
    store::TopicConfig topic;
    int32_t queueId = 0;
};

// Java's preSend and msgCheck, shared by sends and replies: startAcceptSendRequestTimeStamp
// passed, the broker writable, the properties within what
// PROPERTIESLEN holds, the topic not one clients may not send to, existing or created from the
// template (a %RETRY% topic with one queue), writable, the queue in range. False with the
// response code and Java's remark of the first check that fails.
bool checkSendTarget(BrokerController &broker, const SendHeader &header, const std::string &peerAddress,
                     SendTarget &target, int32_t &code, std::string &remark);

// The response code Java answers a put with this status.
int32_t responseCodeOf(store::PutMessageStatus status);
// The remark of a failed put: the status name and why, or Java's own remark for the timer refusals.
std::string putFailureRemark(const store::PutMessageResult &result);

} // namespace mqdesk::server
