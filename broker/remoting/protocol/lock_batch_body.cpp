#include "broker/remoting/protocol/lock_batch_body.h"

#include "broker/common/json.h"
#include "broker/remoting/protocol/json_fields.h"

namespace mqdesk::remoting {

using common::JsonArray;
using common::JsonObject;
using common::JsonValue;

namespace {

JsonArray queuesToJson(const std::vector<MessageQueue> &queues)
{
    JsonArray array;
    for (const MessageQueue &queue : queues) {
        JsonObject object;
        object.set("brokerName", queue.brokerName);
        object.set("queueId", queue.queueId);
        object.set("topic", queue.topic);
        array.emplace_back(std::move(object));
    }
    return array;
}

// A missing array is an empty set (fastjson leaves the bean's set empty).
bool queuesFromJson(JsonFieldReader &reader, std::string_view key, std::vector<MessageQueue> &out,
                    std::string &error)
{
    const JsonArray *array = reader.array(key);
    if (!array)
        return reader.ok();
    const std::string path = reader.pathOf(key);
    for (size_t i = 0; i < array->size(); ++i) {
        const std::string itemPath = path + "[" + std::to_string(i) + "]";
        JsonFieldReader item((*array)[i], itemPath, error);
        if (!item.isObject()) {
            item.fail(itemPath, "expected an object");
            return false;
        }
        MessageQueue queue;
        item.readString("topic", queue.topic);
        item.readString("brokerName", queue.brokerName);
        item.readInt("queueId", queue.queueId);
        if (!item.ok())
            return false;
        out.push_back(std::move(queue));
    }
    return true;
}

} // namespace

std::string LockBatchRequestBody::toJson() const
{
    JsonObject root;
    root.set("clientId", clientId);
    root.set("consumerGroup", consumerGroup);
    root.set("mqSet", queuesToJson(mqSet));
    if (onlyThisBroker)
        root.set("onlyThisBroker", true);
    return common::toJsonCompact(root);
}

bool LockBatchRequestBody::fromJson(std::string_view body, LockBatchRequestBody &out, std::string &error)
{
    JsonValue root;
    if (!parseJsonObject(body, root, error))
        return false;
    JsonFieldReader reader(root, "", error);
    reader.readString("consumerGroup", out.consumerGroup);
    reader.readString("clientId", out.clientId);
    reader.readBool("onlyThisBroker", out.onlyThisBroker);
    return reader.ok() && queuesFromJson(reader, "mqSet", out.mqSet, error);
}

std::string encodeLockBatchResponse(const std::vector<MessageQueue> &locked)
{
    JsonObject root;
    root.set("lockOKMQSet", queuesToJson(locked));
    return common::toJsonCompact(root);
}

bool decodeLockBatchResponse(std::string_view body, std::vector<MessageQueue> &out, std::string &error)
{
    JsonValue root;
    if (!parseJsonObject(body, root, error))
        return false;
    JsonFieldReader reader(root, "", error);
    return queuesFromJson(reader, "lockOKMQSet", out, error);
}

} // namespace mqdesk::remoting
