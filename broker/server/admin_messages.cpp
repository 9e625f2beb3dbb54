// QUERY_MESSAGE (by key or unique key, through the index) and VIEW_MESSAGE_BY_ID (by commit-log
// offset): both answer with the records exactly as stored (remoting spec Appendix B), which
// the admin tools decode themselves.

#include "broker/server/admin_processor.h"

#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/admin_bodies.h"
#include "broker/server/broker_controller.h"
#include "broker/store/message_store.h"

#include <algorithm>

namespace mqdesk::server {

using admin::failure;
using remoting::HeaderReader;
using remoting::RemotingCommand;
using remoting::ResponseCode;

RemotingCommand AdminProcessor::queryMessage(const RemotingCommand &request)
{
    HeaderReader reader(request.extFields);
    const std::string topic = reader.requireTopic("topic");
    const std::string key = reader.requireString("key");
    int32_t maxNum = reader.requireInt32("maxNum");
    const int64_t begin = reader.requireInt64("beginTimestamp");
    const int64_t end = reader.requireInt64("endTimestamp");
    const bool uniqueKey = reader.optBool("_UNIQUE_KEY_QUERY", false);
    // RocketMQ 5.5: "K" (keys, the default) or "T" (tags, indexed as "<topic>#T#<TAGS>").
    const bool byTags = reader.optString("indexType") == "T";
    if (!reader.ok())
        return failure(request, ResponseCode::kSystemError, reader.error());
    // The settings in force (UPDATE_BROKER_CONFIG changes them live, as in Java).
    const store::MessageStoreConfig &limits = broker_.settings()->store;
    if (uniqueKey)
        maxNum = limits.defaultQueryMaxNum;
    maxNum = std::clamp(maxNum, 0, limits.maxMsgsNumBatch);

    store::MessageStore &store = broker_.store();
    const store::QueryMessageResult found = store.queryMessage(topic, key, maxNum, begin, end, byTags && !uniqueKey);
    std::vector<uint8_t> records;
    for (const common::StoredMessage &message : found.messages) {
        // A record retention removed between the lookup and the copy is left out.
        store.commitLog().copyRecord(message.physicalOffset, message.totalSize, records);
    }

    RemotingCommand response = RemotingCommand::createResponse(request, ResponseCode::kSuccess);
    remoting::setField(response.extFields, "indexLastUpdateTimestamp", found.indexLastUpdateTimestamp);
    remoting::setField(response.extFields, "indexLastUpdatePhyoffset", found.indexLastUpdatePhyOffset);
    if (records.empty()) {
        response.code = ResponseCode::kQueryNotFound;
        response.remark = "can not find message, maybe time range not correct";
        return response;
    }
    response.body = std::move(records);
    return response;
}

RemotingCommand AdminProcessor::viewMessageById(const RemotingCommand &request)
{
    HeaderReader reader(request.extFields);
    const int64_t offset = reader.requireInt64("offset");
    if (!reader.ok())
        return failure(request, ResponseCode::kSystemError, reader.error());
    store::MessageStore &store = broker_.store();
    std::vector<uint8_t> record;
    const auto message = offset >= 0 ? store.lookMessageByOffset(offset) : std::nullopt;
    // The topic the caller names (5.x clients send it; access control checked the caller's right
    // to it) must be the message's, or its real topic while delayed, timed or half: otherwise a
    // right on one topic would read any topic's message by offset. Answered as not found.
    const std::string *topic = request.extFields.find("topic");
    const bool ofTopic = !message || !topic || message->topic == *topic
                         || message->properties.get(common::property::kRealTopic) == std::optional<std::string_view>(*topic);
    if (!message || !ofTopic || !store.commitLog().copyRecord(offset, message->totalSize, record))
        return failure(request, ResponseCode::kSystemError, "can not find message by the offset, " + std::to_string(offset));
    RemotingCommand response = RemotingCommand::createResponse(request, ResponseCode::kSuccess);
    response.body = std::move(record);
    return response;
}

} // namespace mqdesk::server
