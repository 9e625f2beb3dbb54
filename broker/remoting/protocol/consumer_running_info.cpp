#include "broker/remoting/protocol/consumer_running_info.h"

#include "broker/remoting/protocol/json_fields.h"
#include "broker/remoting/protocol/queue_tables.h"

namespace mqdesk::remoting {

using common::JsonValue;

std::string ConsumerRunningInfo::property(std::string_view key) const
{
    const auto it = properties.find(std::string(key));
    return it == properties.end() ? std::string() : it->second;
}

namespace {

bool readProcessQueue(const JsonValue &value, const std::string &path, ProcessQueueInfo &info, std::string &error)
{
    JsonFieldReader reader(value, path, error);
    reader.readLong("commitOffset", info.commitOffset);
    reader.readLong("cachedMsgMinOffset", info.cachedMsgMinOffset);
    reader.readLong("cachedMsgMaxOffset", info.cachedMsgMaxOffset);
    reader.readInt("cachedMsgCount", info.cachedMsgCount);
    reader.readInt("cachedMsgSizeInMiB", info.cachedMsgSizeInMiB);
    reader.readLong("transactionMsgMinOffset", info.transactionMsgMinOffset);
    reader.readLong("transactionMsgMaxOffset", info.transactionMsgMaxOffset);
    reader.readInt("transactionMsgCount", info.transactionMsgCount);
    reader.readBool("locked", info.locked);
    reader.readLong("tryUnlockTimes", info.tryUnlockTimes);
    reader.readLong("lastLockTimestamp", info.lastLockTimestamp);
    reader.readBool("droped", info.dropped);
    reader.readLong("lastPullTimestamp", info.lastPullTimestamp);
    reader.readLong("lastConsumeTimestamp", info.lastConsumeTimestamp);
    return reader.ok();
}

// The members besides mqTable (which parseMessageQueueMap reads).
void readRest(const JsonValue &root, ConsumerRunningInfo &out, std::string &error)
{
    JsonFieldReader reader(root, {}, error);
    reader.readString("jstack", out.jstack);
    if (const JsonValue *properties = reader.member("properties"); properties && properties->isObject()) {
        for (const auto &member : properties->asObject())
            out.properties[member.key] = member.value.isString() ? member.value.asString()
                                                                 : common::toJsonCompact(member.value);
    }
    if (const common::JsonArray *subscriptions = reader.array("subscriptionSet")) {
        for (size_t i = 0; i < subscriptions->size(); ++i) {
            SubscriptionData data;
            if (!SubscriptionData::fromJson((*subscriptions)[i], "subscriptionSet[" + std::to_string(i) + "]", data, error))
                return;
            out.subscriptions.push_back(std::move(data));
        }
    }
    if (const JsonValue *table = reader.member("statusTable"); table && table->isObject()) {
        for (const auto &member : table->asObject()) {
            ConsumeStatus status;
            JsonFieldReader item(member.value, "statusTable." + member.key, error);
            item.readDouble("pullRT", status.pullRT);
            item.readDouble("pullTPS", status.pullTPS);
            item.readDouble("consumeRT", status.consumeRT);
            item.readDouble("consumeOKTPS", status.consumeOKTPS);
            item.readDouble("consumeFailedTPS", status.consumeFailedTPS);
            item.readLong("consumeFailedMsgs", status.consumeFailedMsgs);
            out.statusTable[member.key] = status;
        }
    }
}

} // namespace

bool ConsumerRunningInfo::fromJson(std::string_view body, ConsumerRunningInfo &out, std::string &error)
{
    out = {};
    error.clear();
    if (body.find("\"mqTable\"") == std::string_view::npos) {
        // A client with no queue table (a pull or POP consumer) may leave mqTable out.
        JsonValue root;
        if (!parseJsonObject(body, root, error))
            return false;
        readRest(root, out, error);
        return error.empty();
    }
    const bool parsed = parseMessageQueueMap(
        body, "mqTable",
        [&](const MessageQueue &queue, const JsonValue &value, const std::string &path) {
            return readProcessQueue(value, path, out.queues[queue], error);
        },
        [&](const JsonValue &root) { readRest(root, out, error); }, error);
    return parsed && error.empty();
}

std::string ConsumerRunningInfo::toJson() const
{
    std::string out = "{";
    if (!jstack.empty())
        out += "\"jstack\":" + common::toJsonCompact(JsonValue(jstack)) + ",";
    out += "\"mqTable\":{";
    bool first = true;
    for (const auto &[queue, info] : queues) {
        common::JsonObject value;
        value.set("cachedMsgCount", int64_t(info.cachedMsgCount));
        value.set("cachedMsgMaxOffset", info.cachedMsgMaxOffset);
        value.set("cachedMsgMinOffset", info.cachedMsgMinOffset);
        value.set("cachedMsgSizeInMiB", int64_t(info.cachedMsgSizeInMiB));
        value.set("commitOffset", info.commitOffset);
        value.set("droped", info.dropped);
        value.set("lastConsumeTimestamp", info.lastConsumeTimestamp);
        value.set("lastLockTimestamp", info.lastLockTimestamp);
        value.set("lastPullTimestamp", info.lastPullTimestamp);
        value.set("locked", info.locked);
        value.set("transactionMsgCount", int64_t(info.transactionMsgCount));
        value.set("transactionMsgMaxOffset", info.transactionMsgMaxOffset);
        value.set("transactionMsgMinOffset", info.transactionMsgMinOffset);
        value.set("tryUnlockTimes", info.tryUnlockTimes);
        out += (first ? "" : ",") + messageQueueKeyText(queue) + ":" + common::toJsonCompact(JsonValue(std::move(value)));
        first = false;
    }
    out += "},";
    common::JsonObject props;
    for (const auto &[key, value] : properties)
        props.set(key, value);
    out += "\"properties\":" + common::toJsonCompact(JsonValue(std::move(props))) + ",\"statusTable\":{";
    first = true;
    for (const auto &[topic, status] : statusTable) {
        // Doubles as Java's Double.toString writes them (12.5, 0.0).
        out += (first ? "" : ",") + common::toJsonCompact(JsonValue(topic)) + ":{\"consumeFailedMsgs\":"
               + std::to_string(status.consumeFailedMsgs) + ",\"consumeFailedTPS\":"
               + common::formatJavaDouble(status.consumeFailedTPS) + ",\"consumeOKTPS\":"
               + common::formatJavaDouble(status.consumeOKTPS) + ",\"consumeRT\":"
               + common::formatJavaDouble(status.consumeRT) + ",\"pullRT\":" + common::formatJavaDouble(status.pullRT)
               + ",\"pullTPS\":" + common::formatJavaDouble(status.pullTPS) + "}";
        first = false;
    }
    common::JsonArray subscriptionSet;
    for (const SubscriptionData &data : subscriptions)
        subscriptionSet.push_back(data.toJson());
    out += "},\"subscriptionSet\":" + common::toJsonCompact(JsonValue(std::move(subscriptionSet)))
           + ",\"userConsumerInfo\":{}}";
    return out;
}

std::string ConsumeMessageDirectlyResult::toJson() const
{
    common::JsonObject root;
    root.set("autoCommit", autoCommit);
    if (!consumeResult.empty())
        root.set("consumeResult", consumeResult);
    root.set("order", order);
    root.set("remark", remark);
    root.set("spentTimeMills", spentTimeMills);
    return common::toJsonCompact(JsonValue(std::move(root)));
}

bool ConsumeMessageDirectlyResult::fromJson(std::string_view body, ConsumeMessageDirectlyResult &out, std::string &error)
{
    out = {};
    JsonValue root;
    if (!parseJsonObject(body, root, error))
        return false;
    JsonFieldReader reader(root, {}, error);
    reader.readBool("order", out.order);
    reader.readBool("autoCommit", out.autoCommit);
    reader.readString("consumeResult", out.consumeResult);
    reader.readString("remark", out.remark);
    reader.readLong("spentTimeMills", out.spentTimeMills);
    return reader.ok();
}

} // namespace mqdesk::remoting
