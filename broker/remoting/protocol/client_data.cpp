#include "broker/remoting/protocol/client_data.h"

#include "broker/common/java_hash.h"
#include "broker/common/java_strings.h"
#include "broker/common/json.h"
#include "broker/remoting/protocol/json_fields.h"

#include <charconv>
#include <optional>

namespace mqdesk::remoting {

using common::JsonArray;
using common::JsonObject;
using common::JsonValue;

namespace {

// A JSON string holding a decimal int32 ("-123"), as fastjson converts it to an Integer field.
std::optional<int32_t> decimalInt32(const std::string &text)
{
    int32_t value = 0;
    const char *begin = text.data();
    const char *end = begin + text.size();
    const auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec != std::errc() || ptr != end || begin == end)
        return std::nullopt;
    return value;
}

JsonValue connectionToJson(const ClientConnection &connection)
{
    JsonObject object;
    object.set("clientAddr", connection.clientAddr);
    object.set("clientId", connection.clientId);
    object.set("language", connection.language);
    object.set("version", connection.version);
    return object;
}

bool connectionsFromJson(const JsonArray *array, const std::string &path, std::vector<ClientConnection> &out,
                         std::string &error)
{
    if (!array)
        return true;
    for (size_t i = 0; i < array->size(); ++i) {
        JsonFieldReader reader((*array)[i], path + "[" + std::to_string(i) + "]", error);
        ClientConnection connection;
        reader.readString("clientId", connection.clientId);
        reader.readString("clientAddr", connection.clientAddr);
        reader.readString("language", connection.language);
        reader.readInt("version", connection.version);
        if (!reader.ok())
            return false;
        out.push_back(std::move(connection));
    }
    return true;
}

} // namespace

SubscriptionData SubscriptionData::build(std::string topic, std::string_view subString,
                                         std::string_view expressionType)
{
    SubscriptionData data;
    data.topic = std::move(topic);
    data.expressionType = expressionType.empty() ? std::string(kExpressionTag) : std::string(expressionType);
    const std::string_view text = common::javaTrim(subString);
    if (!data.isTagType()) {
        data.subString = std::string(text);
        return data;
    }
    if (text.empty() || text == kSubscribeAll) {
        data.subString = kSubscribeAll;
        return data;
    }
    data.subString = std::string(subString);
    std::string_view rest = text;
    while (!rest.empty()) {
        const size_t bar = rest.find("||");
        const std::string_view tag = common::javaTrim(rest.substr(0, bar));
        if (!tag.empty()) {
            data.tagsSet.emplace(tag);
            data.codeSet.insert(common::javaStringHashCode(tag));
        }
        if (bar == std::string_view::npos)
            break;
        rest.remove_prefix(bar + 2);
    }
    return data;
}

bool SubscriptionData::matchesTagsCode(int64_t tagsCode) const
{
    if (!isTagType() || subscribesAll())
        return true;
    return tagsCode >= INT32_MIN && tagsCode <= INT32_MAX && codeSet.contains(static_cast<int32_t>(tagsCode));
}

JsonValue SubscriptionData::toJson() const
{
    JsonArray codes;
    for (int32_t code : codeSet)
        codes.emplace_back(code);
    JsonArray tags;
    for (const std::string &tag : tagsSet)
        tags.emplace_back(tag);
    JsonObject object;
    object.set("classFilterMode", classFilterMode);
    object.set("codeSet", std::move(codes));
    object.set("expressionType", expressionType);
    object.set("subString", subString);
    object.set("subVersion", subVersion);
    object.set("tagsSet", std::move(tags));
    object.set("topic", topic);
    return object;
}

bool SubscriptionData::fromJson(const JsonValue &value, const std::string &path, SubscriptionData &out,
                                std::string &error)
{
    JsonFieldReader reader(value, path, error);
    if (!reader.ok())
        return false;
    reader.readString("topic", out.topic);
    reader.readString("subString", out.subString);
    reader.readLong("subVersion", out.subVersion);
    reader.readBool("classFilterMode", out.classFilterMode);
    reader.readString("expressionType", out.expressionType);
    if (out.expressionType.empty())
        out.expressionType = kExpressionTag; // ali-ons omits it for tag subscriptions
    if (const JsonArray *tags = reader.array("tagsSet")) {
        for (const JsonValue &tag : *tags) {
            if (!tag.isString()) {
                reader.fail(reader.pathOf("tagsSet"), "expected strings");
                break;
            }
            out.tagsSet.insert(tag.asString());
        }
    }
    if (const JsonArray *codes = reader.array("codeSet")) {
        for (const JsonValue &code : *codes) {
            // The Go client (rocketmq-client-go/v2) sends its codes as decimal strings
            // ("codeSet":["2598919"]); the Java broker's fastjson reads those as Integers too.
            std::optional<int32_t> hash;
            if (code.isInteger())
                hash = static_cast<int32_t>(code.asInteger());
            else if (code.isString())
                hash = decimalInt32(code.asString());
            if (!hash) {
                reader.fail(reader.pathOf("codeSet"), "expected integers");
                break;
            }
            out.codeSet.insert(*hash);
        }
    }
    // The codes the consume queues hold are the Java String.hashCode of each message's tag. A client
    // that sent tags but no codes, or codes of another hash (the Go client hashes a tag's UTF-8 bytes,
    // which differs from Java's UTF-16 hash for non-ASCII tags), still filters right: the codes of
    // the tags are always added. The client filters by the tag strings again, so extra codes are safe.
    if (out.isTagType() && !out.subscribesAll()) {
        for (const std::string &tag : out.tagsSet)
            out.codeSet.insert(common::javaStringHashCode(tag));
    }
    if (out.topic.empty())
        reader.fail(reader.pathOf("topic"), "missing");
    return reader.ok();
}

std::string HeartbeatData::toJson() const
{
    JsonArray consumers;
    for (const ConsumerData &consumer : consumerDataSet) {
        JsonArray subscriptions;
        for (const SubscriptionData &subscription : consumer.subscriptionDataSet)
            subscriptions.push_back(subscription.toJson());
        JsonObject object;
        object.set("consumeFromWhere", consumer.consumeFromWhere);
        object.set("consumeType", consumer.consumeType);
        object.set("groupName", consumer.groupName);
        object.set("messageModel", consumer.messageModel);
        object.set("subscriptionDataSet", std::move(subscriptions));
        object.set("unitMode", consumer.unitMode);
        consumers.emplace_back(std::move(object));
    }
    JsonArray producers;
    for (const ProducerData &producer : producerDataSet) {
        JsonObject object;
        object.set("groupName", producer.groupName);
        producers.emplace_back(std::move(object));
    }
    JsonObject root;
    root.set("clientID", clientId);
    root.set("consumerDataSet", std::move(consumers));
    root.set("producerDataSet", std::move(producers));
    return common::toJsonCompact(root);
}

bool HeartbeatData::fromJson(std::string_view body, HeartbeatData &out, std::string &error)
{
    JsonValue root;
    if (!parseJsonObject(body, root, error))
        return false;
    JsonFieldReader reader(root, "", error);
    reader.readString("clientID", out.clientId);
    if (const JsonArray *producers = reader.array("producerDataSet")) {
        for (size_t i = 0; i < producers->size() && reader.ok(); ++i) {
            JsonFieldReader producer((*producers)[i], "producerDataSet[" + std::to_string(i) + "]", error);
            ProducerData data;
            producer.readString("groupName", data.groupName);
            out.producerDataSet.push_back(std::move(data));
        }
    }
    if (const JsonArray *consumers = reader.array("consumerDataSet")) {
        for (size_t i = 0; i < consumers->size() && reader.ok(); ++i) {
            const std::string path = "consumerDataSet[" + std::to_string(i) + "]";
            JsonFieldReader consumer((*consumers)[i], path, error);
            ConsumerData data;
            consumer.readString("groupName", data.groupName);
            consumer.readString("consumeType", data.consumeType);
            consumer.readString("messageModel", data.messageModel);
            consumer.readString("consumeFromWhere", data.consumeFromWhere);
            consumer.readBool("unitMode", data.unitMode);
            if (const JsonArray *subscriptions = consumer.array("subscriptionDataSet")) {
                for (size_t j = 0; j < subscriptions->size() && consumer.ok(); ++j) {
                    SubscriptionData subscription;
                    if (SubscriptionData::fromJson((*subscriptions)[j],
                                                   path + ".subscriptionDataSet[" + std::to_string(j) + "]",
                                                   subscription, error))
                        data.subscriptionDataSet.push_back(std::move(subscription));
                }
            }
            if (consumer.ok() && data.groupName.empty())
                consumer.fail(consumer.pathOf("groupName"), "missing");
            out.consumerDataSet.push_back(std::move(data));
        }
    }
    if (reader.ok() && out.clientId.empty())
        reader.fail("clientID", "missing");
    return reader.ok();
}

std::string encodeConsumerIdList(const std::vector<std::string> &clientIds)
{
    JsonArray ids;
    for (const std::string &id : clientIds)
        ids.emplace_back(id);
    JsonObject root;
    root.set("consumerIdList", std::move(ids));
    return common::toJsonCompact(root);
}

bool decodeConsumerIdList(std::string_view body, std::vector<std::string> &out, std::string &error)
{
    JsonValue root;
    if (!parseJsonObject(body, root, error))
        return false;
    JsonFieldReader reader(root, "", error);
    if (const JsonArray *ids = reader.array("consumerIdList")) {
        for (const JsonValue &id : *ids) {
            if (!id.isString()) {
                reader.fail("consumerIdList", "expected strings");
                break;
            }
            out.push_back(id.asString());
        }
    }
    return reader.ok();
}

std::string ConsumerConnection::toJson() const
{
    JsonArray connections;
    for (const ClientConnection &connection : connectionSet)
        connections.push_back(connectionToJson(connection));
    JsonObject subscriptions;
    for (const SubscriptionData &subscription : subscriptionTable)
        subscriptions.set(subscription.topic, subscription.toJson());
    JsonObject root;
    root.set("connectionSet", std::move(connections));
    root.set("consumeFromWhere", consumeFromWhere);
    root.set("consumeType", consumeType);
    root.set("messageModel", messageModel);
    root.set("subscriptionTable", std::move(subscriptions));
    return common::toJsonCompact(root);
}

bool ConsumerConnection::fromJson(std::string_view body, ConsumerConnection &out, std::string &error)
{
    JsonValue root;
    if (!parseJsonObject(body, root, error))
        return false;
    JsonFieldReader reader(root, "", error);
    reader.readString("consumeType", out.consumeType);
    reader.readString("messageModel", out.messageModel);
    reader.readString("consumeFromWhere", out.consumeFromWhere);
    if (!connectionsFromJson(reader.array("connectionSet"), "connectionSet", out.connectionSet, error))
        return false;
    if (const JsonValue *table = reader.member("subscriptionTable"); table && table->isObject()) {
        for (const common::JsonMember &member : table->asObject()) {
            SubscriptionData subscription;
            if (!SubscriptionData::fromJson(member.value, "subscriptionTable." + member.key, subscription, error))
                return false;
            out.subscriptionTable.push_back(std::move(subscription));
        }
    }
    return reader.ok();
}

std::string encodeProducerConnection(const std::vector<ClientConnection> &connections)
{
    JsonArray array;
    for (const ClientConnection &connection : connections)
        array.push_back(connectionToJson(connection));
    JsonObject root;
    root.set("connectionSet", std::move(array));
    return common::toJsonCompact(root);
}

bool decodeProducerConnection(std::string_view body, std::vector<ClientConnection> &out, std::string &error)
{
    JsonValue root;
    if (!parseJsonObject(body, root, error))
        return false;
    JsonFieldReader reader(root, "", error);
    return reader.ok() && connectionsFromJson(reader.array("connectionSet"), "connectionSet", out, error);
}

} // namespace mqdesk::remoting
