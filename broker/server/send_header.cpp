#include "broker/server/send_header.h"

#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/remoting_codes.h"

namespace mqdesk::server {

using remoting::HeaderReader;
using remoting::RemotingCommand;
using remoting::RequestCode;
using remoting::ResponseCode;

bool readSendHeader(const RemotingCommand &request, SendHeader &header, std::string &error)
{
    const bool v2 = request.code != RequestCode::kSendMessage && request.code != RequestCode::kSendReplyMessage;
    const auto key = [v2](const char *shortKey, const char *longKey) { return v2 ? shortKey : longKey; };
    HeaderReader reader(request.extFields);
    header.producerGroup = reader.requireGroup(key("a", "producerGroup"));
    header.topic = reader.requireTopic(key("b", "topic"));
    header.defaultTopic = reader.requireTopic(key("c", "defaultTopic"));
    header.defaultTopicQueueNums = reader.requireInt32(key("d", "defaultTopicQueueNums"));
    header.queueId = reader.requireInt32(key("e", "queueId"));
    header.sysFlag = reader.requireInt32(key("f", "sysFlag"));
    header.bornTimestamp = reader.requireInt64(key("g", "bornTimestamp"));
    header.flag = reader.requireInt32(key("h", "flag"));
    header.properties = reader.optString(key("i", "properties"));
    header.reconsumeTimes = reader.optInt32(key("j", "reconsumeTimes"), 0);
    if (request.extFields.contains(key("l", "maxReconsumeTimes")))
        header.maxReconsumeTimes = reader.optInt32(key("l", "maxReconsumeTimes"), 0);
    header.unitMode = reader.optBool(key("k", "unitMode"), false);
    header.batch = reader.optBool(key("m", "batch"), false) || request.code == RequestCode::kSendBatchMessage;
    error = reader.error();
    return reader.ok();
}

int32_t responseCodeOf(store::PutMessageStatus status)
{
    switch (status) {
    case store::PutMessageStatus::PutOk: return ResponseCode::kSuccess;
    case store::PutMessageStatus::FlushDiskTimeout: return ResponseCode::kFlushDiskTimeout;
    case store::PutMessageStatus::MessageIllegal:
    case store::PutMessageStatus::PropertiesSizeExceeded: return ResponseCode::kMessageIllegal;
    case store::PutMessageStatus::ServiceNotAvailable: return ResponseCode::kServiceNotAvailable;
    case store::PutMessageStatus::CreateMappedFileFailed:
    case store::PutMessageStatus::UnknownError: return ResponseCode::kSystemError;
    }
    return ResponseCode::kSystemError;
}

} // namespace mqdesk::server
