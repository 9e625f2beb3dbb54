#include "broker/grpc/message_codec.h"

#include "broker/common/message_id.h"
#include "broker/store/config/topic_config_manager.h"

#include <openssl/evp.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <charconv>

namespace mqdesk::grpc {

namespace property = common::property;

namespace {

// Java MessageConst.STRING_HASH_SET: names the broker and clients give meaning to.
constexpr std::array<std::string_view, 65> kSystemKeys = {
    "TRACE_ON", "MSG_REGION", "KEYS", "TAGS", "WAIT", "DELAY", "RETRY_TOPIC", "REAL_TOPIC", "REAL_QID",
    "TRAN_MSG", "PGROUP", "MIN_OFFSET", "MAX_OFFSET", "BUYER_ID", "ORIGIN_MESSAGE_ID", "TRANSFER_FLAG",
    "CORRECTION_FLAG", "MQ2_FLAG", "RECONSUME_TIME", "UNIQ_KEY", "MAX_RECONSUME_TIMES", "CONSUME_START_TIME",
    "POP_CK", "POP_CK_OFFSET", "1ST_POP_TIME", "TRAN_PREPARED_QUEUE_OFFSET", "DUP_INFO", "EXTEND_UNIQ_INFO",
    "INSTANCE_ID", "CORRELATION_ID", "REPLY_TO_CLIENT", "TTL", "ARRIVE_TIME", "PUSH_REPLY_TIME", "CLUSTER",
    "MSG_TYPE", "__transactionId__", "TRANSACTION_CHECK_TIMES", "CHECK_IMMUNITY_TIME_IN_SECONDS",
    "__SHARDINGKEY", "TIMER_DELAY_SEC", "TIMER_DELIVER_MS", "TIMER_DELAY_MS", "TIMER_ENQUEUE_MS",
    "TIMER_DEQUEUE_MS", "TIMER_ROLL_TIMES", "TIMER_OUT_MS", "TIMER_DEL_UNIQKEY", "__BORNHOST",
    "DLQ_ORIGIN_TOPIC", "DLQ_ORIGIN_MESSAGE_ID", "TRACE_CONTEXT", "INNER_MULTI_DISPATCH",
    "INNER_MULTI_QUEUE_OFFSET", "INNER_NUM", "INNER_BASE", "WAIT_STORE_MSG_OK", "STARTDELIVERTIME",
    "__STARTDELIVERTIME", "SHARDING_KEY", "CRC32", "__RECALL_HANDLE", "PRIORITY", "__LITE_TOPIC",
    "_SYS_MSG_PRIORITY_",
};

bool hasControlCharacter(std::string_view text)
{
    return std::any_of(text.begin(), text.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u < 0x20 || u == 0x7f;
    });
}

bool isBlank(std::string_view text)
{
    return std::all_of(text.begin(), text.end(), [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; });
}

// A 4.x producer's compressed body is zlib (its sysflag bit 0); nullopt when it does not inflate.
std::optional<std::string> inflateZlib(const std::vector<uint8_t> &body)
{
    z_stream stream{};
    if (inflateInit(&stream) != Z_OK)
        return std::nullopt;
    std::string out;
    std::array<char, 64 * 1024> chunk{};
    stream.next_in = const_cast<Bytef *>(body.data());
    stream.avail_in = static_cast<uInt>(body.size());
    int rc = Z_OK;
    while (rc == Z_OK) {
        stream.next_out = reinterpret_cast<Bytef *>(chunk.data());
        stream.avail_out = static_cast<uInt>(chunk.size());
        rc = inflate(&stream, Z_NO_FLUSH);
        out.append(chunk.data(), chunk.size() - stream.avail_out);
        if (out.size() > 256u * 1024 * 1024)
            rc = Z_MEM_ERROR;
    }
    inflateEnd(&stream);
    if (rc != Z_STREAM_END)
        return std::nullopt;
    return out;
}

int64_t propertyMillis(const common::MessageProperties &properties, std::string_view key)
{
    const auto value = properties.get(key);
    if (!value)
        return -1;
    int64_t millis = -1;
    const std::string text(*value);
    try {
        millis = std::stoll(text);
    } catch (...) {
        return -1;
    }
    return millis;
}

} // namespace

v2::Status makeStatus(v2::Code code, std::string message)
{
    v2::Status status;
    status.set_code(code);
    status.set_message(message.empty() ? v2::Code_Name(code) : std::move(message));
    return status;
}

std::vector<v2::MessageType> acceptedMessageTypes(const store::TopicConfig &topic)
{
    const std::string *type = topic.attributes.find("message.type");
    const std::string name = type ? *type : "NORMAL";
    if (name == "FIFO")
        return {v2::MessageType::FIFO};
    if (name == "DELAY")
        return {v2::MessageType::DELAY};
    if (name == "TRANSACTION")
        return {v2::MessageType::TRANSACTION};
    if (name == "PRIORITY")
        return {v2::MessageType::PRIORITY};
    if (name == "LITE")
        return {v2::MessageType::LITE};
    if (name == "MIXED")
        return {v2::MessageType::NORMAL, v2::MessageType::FIFO, v2::MessageType::DELAY, v2::MessageType::TRANSACTION};
    return {v2::MessageType::NORMAL};
}

v2::Status checkLiteTopicName(const std::string &liteTopic)
{
    // The Java proxy's GrpcValidator.validateLiteTopic: it also keeps '$' out, which would end
    // the lite topic's part of its LMQ name (%LMQ%$<parent>$<lite>).
    if (isBlank(liteTopic))
        return makeStatus(v2::Code::ILLEGAL_LITE_TOPIC, "lite topic cannot be the char sequence of whitespace");
    if (liteTopic.size() > static_cast<size_t>(kMaxLiteTopicSize))
        return makeStatus(v2::Code::ILLEGAL_LITE_TOPIC,
                          "lite topic exceed the max size " + std::to_string(kMaxLiteTopicSize));
    const bool allowed = std::all_of(liteTopic.begin(), liteTopic.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    });
    if (!allowed)
        return makeStatus(v2::Code::ILLEGAL_LITE_TOPIC,
                          "lite topic can only contain alphanumeric characters, hyphens(-), and underscores(_)");
    return makeStatus(v2::Code::OK);
}

v2::MessageType messageTypeOf(const v2::Message &message)
{
    const v2::SystemProperties &system = message.system_properties();
    if (system.message_type() == v2::MessageType::TRANSACTION)
        return v2::MessageType::TRANSACTION;
    if (system.has_delivery_timestamp())
        return v2::MessageType::DELAY;
    if (system.has_message_group())
        return v2::MessageType::FIFO;
    if (system.has_priority())
        return v2::MessageType::PRIORITY;
    if (system.has_lite_topic())
        return v2::MessageType::LITE;
    return v2::MessageType::NORMAL;
}

bool isSystemPropertyKey(std::string_view key)
{
    return std::find(kSystemKeys.begin(), kSystemKeys.end(), key) != kSystemKeys.end();
}

v2::Status toBrokerMessage(const v2::Message &message, const store::TopicConfig &topic, bool checkMessageType,
                           const std::string &peerAddress, int64_t now, const SendLimits &limits,
                           common::BrokerMessage &out)
{
    const v2::SystemProperties &system = message.system_properties();
    const std::string &body = message.body();
    if (body.empty())
        return makeStatus(v2::Code::MESSAGE_BODY_EMPTY, "message body is empty");
    if (body.size() > static_cast<size_t>(limits.maxBodyBytes))
        return makeStatus(v2::Code::MESSAGE_BODY_TOO_LARGE, "message body is " + std::to_string(body.size())
                                                               + " bytes, more than the limit of "
                                                               + std::to_string(limits.maxBodyBytes));
    if (message.user_properties_size() > limits.maxUserProperties)
        return makeStatus(v2::Code::MESSAGE_PROPERTIES_TOO_LARGE,
                          "a message has at most " + std::to_string(limits.maxUserProperties) + " user properties, got "
                              + std::to_string(message.user_properties_size()));
    size_t propertyBytes = 0;
    common::MessageProperties properties;
    for (const auto &[key, value] : message.user_properties()) {
        if (key.empty() || isSystemPropertyKey(key))
            return makeStatus(v2::Code::ILLEGAL_MESSAGE_PROPERTY_KEY, "property key '" + key + "' is reserved");
        if (hasControlCharacter(key) || hasControlCharacter(value))
            return makeStatus(v2::Code::ILLEGAL_MESSAGE_PROPERTY_KEY,
                              "property '" + key + "' has a control character in its key or value");
        if (value.empty())
            return makeStatus(v2::Code::ILLEGAL_MESSAGE_PROPERTY_KEY, "property '" + key + "' has an empty value");
        propertyBytes += key.size() + value.size();
        properties.set(key, value);
    }
    if (system.has_tag()) {
        const std::string &tag = system.tag();
        if (tag.empty() || isBlank(tag) || tag.find('|') != std::string::npos || hasControlCharacter(tag))
            return makeStatus(v2::Code::ILLEGAL_MESSAGE_TAG, "tag '" + tag + "' is blank or holds '|' or a control character");
        propertyBytes += tag.size();
        properties.set(property::kTags, tag);
    }
    std::string keys;
    for (const std::string &key : system.keys()) {
        if (key.empty() || isBlank(key) || hasControlCharacter(key))
            return makeStatus(v2::Code::ILLEGAL_MESSAGE_KEY, "message key '" + key + "' is blank or holds a control character");
        if (!keys.empty())
            keys += common::kKeySeparator;
        keys += key;
    }
    if (!keys.empty()) {
        propertyBytes += keys.size();
        properties.set(property::kKeys, keys);
    }
    if (propertyBytes > static_cast<size_t>(limits.maxPropertiesBytes))
        return makeStatus(v2::Code::MESSAGE_PROPERTIES_TOO_LARGE,
                          "properties, tag and keys are " + std::to_string(propertyBytes) + " bytes, more than "
                              + std::to_string(limits.maxPropertiesBytes));
    if (system.message_id().empty() || isBlank(system.message_id()))
        return makeStatus(v2::Code::ILLEGAL_MESSAGE_ID, "message id is blank");
    // What the SDK sends into the stored properties must not hold their separators (\001, \002):
    // stricter than the Java proxy, whose properties string would break the same way.
    if (hasControlCharacter(system.message_id()))
        return makeStatus(v2::Code::ILLEGAL_MESSAGE_ID, "message id holds a control character");
    if (hasControlCharacter(system.trace_context()) || hasControlCharacter(system.born_host()))
        return makeStatus(v2::Code::BAD_REQUEST, "trace context or born host holds a control character");
    properties.set(property::kUniqClientMessageId, system.message_id());
    if (system.has_message_group()) {
        const std::string &group = system.message_group();
        if (group.empty() || isBlank(group) || group.size() >= 64 || hasControlCharacter(group))
            return makeStatus(v2::Code::ILLEGAL_MESSAGE_GROUP,
                              "message group '" + group + "' is blank, 64 bytes or longer, or holds a control character");
        properties.set(property5::kShardingKey, group);
    }
    if (system.has_delivery_timestamp()) {
        const int64_t deliver = toMillis(system.delivery_timestamp());
        if (deliver - now > limits.maxDelayMillis)
            return makeStatus(v2::Code::ILLEGAL_DELIVERY_TIME,
                              "delivery time is " + std::to_string((deliver - now) / 1000) + " s ahead, more than "
                                  + std::to_string(limits.maxDelayMillis / 1000) + " s");
        properties.set(property5::kTimerDeliverMs, std::to_string(std::max(deliver, now)));
    }
    // The Java proxy puts a priority in unchecked; the broker then drops one that is negative
    // or on a message of another type, as it does for remoting senders.
    if (system.has_priority())
        properties.set(common::property::kPriority, std::to_string(system.priority()));
    if (system.has_lite_topic()) {
        if (v2::Status status = checkLiteTopicName(system.lite_topic()); !isOk(status))
            return status;
        properties.set(property::kLiteTopic, system.lite_topic());
    }
    const v2::MessageType type = messageTypeOf(message);
    // A MIXED topic takes every type (the proxy's validator), though its route lists four.
    const std::string *topicType = topic.attributes.find("message.type");
    if (checkMessageType && !(topicType && *topicType == "MIXED")) {
        const std::vector<v2::MessageType> accepted = acceptedMessageTypes(topic);
        if (std::find(accepted.begin(), accepted.end(), type) == accepted.end()) {
            std::string names;
            for (v2::MessageType t : accepted)
                names += (names.empty() ? "" : ", ") + v2::MessageType_Name(t);
            return makeStatus(v2::Code::MESSAGE_PROPERTY_CONFLICT_WITH_TYPE,
                              "topic " + topic.topicName + " accepts " + names + " messages, this one is "
                                  + v2::MessageType_Name(type));
        }
    }
    out = common::BrokerMessage{};
    out.topic = message.topic().name();
    out.body.assign(body.begin(), body.end());
    if (system.body_encoding() == v2::Encoding::GZIP)
        out.sysFlag |= common::sysflag::kCompressed;
    if (type == v2::MessageType::TRANSACTION) {
        out.sysFlag |= common::sysflag::kTransactionPrepared;
        properties.set(property::kTransactionPrepared, "true");
        if (system.has_orphaned_transaction_recovery_duration()) {
            const int64_t seconds =
                std::clamp<int64_t>(toMillis(system.orphaned_transaction_recovery_duration()) / 1000, 0, 3600);
            properties.set(property5::kCheckImmunitySeconds, std::to_string(seconds));
        }
    }
    // The producer group of a 5.x producer is its topic (the proxy's rule): transaction checks
    // find the producer by it.
    properties.set(property::kProducerGroup, topic.topicName);
    if (system.has_trace_context() && !system.trace_context().empty())
        properties.set(property5::kTraceContext, system.trace_context());
    properties.set(property5::kBornHost, system.born_host().empty() ? peerAddress : system.born_host());
    out.bornTimestamp = system.has_born_timestamp() ? toMillis(system.born_timestamp()) : now;
    if (out.bornTimestamp <= 0)
        out.bornTimestamp = now;
    if (auto host = common::HostAddress::parse(peerAddress))
        out.bornHost = *host;
    if (system.has_delivery_attempt() && system.delivery_attempt() > 1)
        out.reconsumeTimes = system.delivery_attempt() - 1;
    out.properties = std::move(properties);
    return makeStatus(v2::Code::OK);
}

v2::Message toProtoMessage(const common::StoredMessage &stored, const std::string &topicName,
                           const std::optional<std::string> &receiptHandle, int32_t deliveryAttempt)
{
    v2::Message message;
    message.mutable_topic()->set_name(topicName);
    v2::SystemProperties &system = *message.mutable_system_properties();
    const common::MessageProperties &properties = stored.properties;
    for (const auto &[key, value] : properties) {
        if (!isSystemPropertyKey(key))
            (*message.mutable_user_properties())[key] = value;
    }
    if (auto tag = properties.get(property::kTags))
        system.set_tag(std::string(*tag));
    for (std::string_view key : properties.keys())
        system.add_keys(std::string(key));
    std::string messageId(properties.get(property::kUniqClientMessageId).value_or(""));
    if (messageId.empty())
        messageId = common::createOffsetMessageId(stored.storeHost, stored.physicalOffset);
    system.set_message_id(messageId);

    std::string body(stored.body.begin(), stored.body.end());
    if ((stored.sysFlag & common::sysflag::kCompressed) != 0) {
        if (std::optional<std::string> inflated = inflateZlib(stored.body)) {
            body = std::move(*inflated);
            system.set_body_encoding(v2::Encoding::IDENTITY);
        } else {
            system.set_body_encoding(v2::Encoding::GZIP); // a 5.x producer's gzip: the client inflates it
        }
    } else {
        system.set_body_encoding(v2::Encoding::IDENTITY);
    }
    system.mutable_body_digest()->set_type(v2::DigestType::MD5);
    system.mutable_body_digest()->set_checksum(md5UpperHex(body));
    message.set_body(std::move(body));

    const bool prepared = (stored.sysFlag & common::sysflag::kTransactionMask) == common::sysflag::kTransactionPrepared;
    const std::string_view type = prepared ? "TRANSACTION" : common::messageTypeOf(properties);
    v2::MessageType protoType = v2::MessageType::NORMAL;
    v2::MessageType_Parse(std::string(type), &protoType);
    system.set_message_type(protoType);

    setMillis(system.mutable_born_timestamp(), stored.bornTimestamp);
    const auto bornHost = properties.get(property5::kBornHost);
    system.set_born_host(bornHost ? std::string(*bornHost) : stored.bornHost.addressString());
    setMillis(system.mutable_store_timestamp(), stored.storeTimestamp);
    system.set_store_host(stored.storeHost.toString());
    if (const int64_t deliver = propertyMillis(properties, property5::kTimerDeliverMs); deliver > 0)
        setMillis(system.mutable_delivery_timestamp(), deliver);
    if (receiptHandle)
        system.set_receipt_handle(*receiptHandle);
    system.set_queue_id(stored.queueId);
    system.set_queue_offset(stored.queueOffset);
    if (deliveryAttempt > 0)
        system.set_delivery_attempt(deliveryAttempt);
    if (const auto priority = properties.get(property::kPriority)) {
        int32_t value = -1;
        const auto [end, status] = std::from_chars(priority->data(), priority->data() + priority->size(), value);
        if (status == std::errc() && end == priority->data() + priority->size() && value >= 0)
            system.set_priority(value);
    }
    if (auto group = properties.get(property5::kShardingKey))
        system.set_message_group(std::string(*group));
    if (auto liteTopic = properties.get(property::kLiteTopic))
        system.set_lite_topic(std::string(*liteTopic));
    if (auto trace = properties.get(property5::kTraceContext))
        system.set_trace_context(std::string(*trace));
    const auto dlqTopic = properties.get(property5::kDlqOriginTopic);
    const auto dlqId = properties.get(property5::kDlqOriginMessageId);
    if (dlqTopic && dlqId) {
        system.mutable_dead_letter_queue()->set_topic(std::string(*dlqTopic));
        system.mutable_dead_letter_queue()->set_message_id(std::string(*dlqId));
    }
    return message;
}

std::string md5UpperHex(std::string_view bytes)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_md5(), nullptr);
    return common::toUpperHex(std::span<const uint8_t>(digest, length));
}

int64_t toMillis(const google::protobuf::Duration &duration)
{
    return duration.seconds() * 1000 + duration.nanos() / 1'000'000;
}

int64_t toMillis(const google::protobuf::Timestamp &timestamp)
{
    return timestamp.seconds() * 1000 + timestamp.nanos() / 1'000'000;
}

void setMillis(google::protobuf::Duration *duration, int64_t millis)
{
    duration->set_seconds(millis / 1000);
    duration->set_nanos(static_cast<int32_t>(millis % 1000) * 1'000'000);
}

void setMillis(google::protobuf::Timestamp *timestamp, int64_t millis)
{
    timestamp->set_seconds(millis / 1000);
    timestamp->set_nanos(static_cast<int32_t>(millis % 1000) * 1'000'000);
}

std::vector<remoting::SubscriptionData> subscriptionDataOf(const v2::Subscription &subscription)
{
    std::vector<remoting::SubscriptionData> out;
    for (const v2::SubscriptionEntry &entry : subscription.subscriptions()) {
        const bool sql = entry.expression().type() == v2::FilterType::SQL;
        const std::string &expression = entry.expression().expression();
        out.push_back(remoting::SubscriptionData::build(entry.topic().name(),
                                                        expression.empty() ? remoting::kSubscribeAll : expression,
                                                        sql ? remoting::kExpressionSql92 : remoting::kExpressionTag));
    }
    return out;
}

} // namespace mqdesk::grpc
