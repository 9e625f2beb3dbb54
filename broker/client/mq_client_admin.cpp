// MQClientAPI's admin calls (remoting spec §8): topics, stats, groups, connections, broker
// runtime info and config, message lookups, ACL 2.0's users and ACLs.

#include "broker/client/mq_client_api.h"

#include "broker/common/json.h"
#include "broker/common/properties_file.h"
#include "broker/remoting/protocol/header_fields.h"

namespace mqdesk::client {

using remoting::ExtFields;
using remoting::RemotingCommand;
using remoting::RequestCode;
using remoting::setField;

namespace {

std::string_view bodyText(const RemotingCommand &command)
{
    return {reinterpret_cast<const char *>(command.body.data()), command.body.size()};
}

// Decodes the body of a SUCCESS response with `decode(body, out, error)`.
template<typename T, typename Decode>
Result<T> decodeBody(const std::string &what, Result<RemotingCommand> response, Decode decode)
{
    if (!response.ok)
        return response.status();
    T value{};
    std::string error;
    if (!decode(bodyText(response.value), value, error))
        return Status::failure(clientCode::kBadResponse, what + ": bad body: " + error);
    return Result<T>(std::move(value));
}

RemotingCommand request(int32_t code, ExtFields fields = {}) { return RemotingCommand::createRequest(code, std::move(fields)); }

} // namespace

Status MQClientAPI::createTopic(const std::string &addr, const remoting::TopicConfigData &topic,
                                const std::string &defaultTopic, const std::string &attributes)
{
    ExtFields fields;
    setField(fields, "topic", topic.topicName);
    setField(fields, "defaultTopic", defaultTopic);
    setField(fields, "readQueueNums", topic.readQueueNums);
    setField(fields, "writeQueueNums", topic.writeQueueNums);
    setField(fields, "perm", topic.perm);
    setField(fields, "topicFilterType", topic.topicFilterType);
    setField(fields, "topicSysFlag", topic.topicSysFlag);
    setField(fields, "order", topic.order);
    if (!attributes.empty())
        setField(fields, "attributes", attributes);
    return call(addr, request(RequestCode::kUpdateAndCreateTopic, std::move(fields))).status();
}

Status MQClientAPI::deleteTopicInBroker(const std::string &addr, const std::string &topic)
{
    ExtFields fields;
    setField(fields, "topic", topic);
    return call(addr, request(RequestCode::kDeleteTopicInBroker, std::move(fields))).status();
}

Result<remoting::TopicConfigSerializeWrapper> MQClientAPI::getAllTopicConfig(const std::string &addr)
{
    RemotingCommand command = request(RequestCode::kGetAllTopicConfig);
    const std::string what = describeRequest(addr, command);
    return decodeBody<remoting::TopicConfigSerializeWrapper>(what, call(addr, std::move(command)),
                                                             remoting::TopicConfigSerializeWrapper::fromJson);
}

Result<TopicStatsTable> MQClientAPI::getTopicStatsInfo(const std::string &addr, const std::string &topic)
{
    ExtFields fields;
    setField(fields, "topic", topic);
    RemotingCommand command = request(RequestCode::kGetTopicStatsInfo, std::move(fields));
    const std::string what = describeRequest(addr, command);
    return decodeBody<TopicStatsTable>(what, call(addr, std::move(command)), TopicStatsTable::fromJson);
}

Result<ConsumeStats> MQClientAPI::getConsumeStats(const std::string &addr, const std::string &group,
                                                  const std::string &topic)
{
    ExtFields fields;
    setField(fields, "consumerGroup", group);
    if (!topic.empty())
        setField(fields, "topic", topic);
    RemotingCommand command = request(RequestCode::kGetConsumeStats, std::move(fields));
    const std::string what = describeRequest(addr, command);
    return decodeBody<ConsumeStats>(what, call(addr, std::move(command)), ConsumeStats::fromJson);
}

Result<ConsumerOffsetTable> MQClientAPI::getAllConsumerOffset(const std::string &addr)
{
    RemotingCommand command = request(RequestCode::kGetAllConsumerOffset);
    const std::string what = describeRequest(addr, command);
    return decodeBody<ConsumerOffsetTable>(what, call(addr, std::move(command)), ConsumerOffsetTable::fromJson);
}

Result<SubscriptionGroupWrapper> MQClientAPI::getAllSubscriptionGroup(const std::string &addr)
{
    RemotingCommand command = request(RequestCode::kGetAllSubscriptiongroupConfig);
    const std::string what = describeRequest(addr, command);
    return decodeBody<SubscriptionGroupWrapper>(what, call(addr, std::move(command)),
                                                SubscriptionGroupWrapper::fromJson);
}

Status MQClientAPI::createSubscriptionGroup(const std::string &addr, const SubscriptionGroupConfig &config)
{
    RemotingCommand command = request(RequestCode::kUpdateAndCreateSubscriptiongroup);
    const std::string json = config.toJson();
    command.body.assign(json.begin(), json.end());
    return call(addr, std::move(command)).status();
}

Status MQClientAPI::deleteSubscriptionGroup(const std::string &addr, const std::string &groupName, bool removeOffset)
{
    ExtFields fields;
    setField(fields, "groupName", groupName);
    setField(fields, "removeOffset", removeOffset);
    return call(addr, request(RequestCode::kDeleteSubscriptiongroup, std::move(fields))).status();
}

Result<remoting::ConsumerConnection> MQClientAPI::getConsumerConnectionList(const std::string &addr,
                                                                           const std::string &group)
{
    ExtFields fields;
    setField(fields, "consumerGroup", group);
    RemotingCommand command = request(RequestCode::kGetConsumerConnectionList, std::move(fields));
    const std::string what = describeRequest(addr, command);
    return decodeBody<remoting::ConsumerConnection>(what, call(addr, std::move(command)),
                                                    remoting::ConsumerConnection::fromJson);
}

Result<std::vector<remoting::ClientConnection>> MQClientAPI::getProducerConnectionList(const std::string &addr,
                                                                                       const std::string &group)
{
    ExtFields fields;
    setField(fields, "producerGroup", group);
    RemotingCommand command = request(RequestCode::kGetProducerConnectionList, std::move(fields));
    const std::string what = describeRequest(addr, command);
    return decodeBody<std::vector<remoting::ClientConnection>>(what, call(addr, std::move(command)),
                                                               remoting::decodeProducerConnection);
}

Result<remoting::KVTable> MQClientAPI::getBrokerRuntimeInfo(const std::string &addr)
{
    RemotingCommand command = request(RequestCode::kGetBrokerRuntimeInfo);
    const std::string what = describeRequest(addr, command);
    return decodeBody<remoting::KVTable>(what, call(addr, std::move(command)), remoting::KVTable::fromJson);
}

Result<std::map<std::string, std::string>> MQClientAPI::getBrokerConfig(const std::string &addr)
{
    RemotingCommand command = request(RequestCode::kGetBrokerConfig);
    const std::string what = describeRequest(addr, command);
    return decodeBody<std::map<std::string, std::string>>(
        what, call(addr, std::move(command)), [](std::string_view body, auto &out, std::string &error) {
            common::PropertiesParseResult parsed = common::parseProperties(body);
            error = parsed.error;
            out = std::move(parsed.values);
            return error.empty();
        });
}

Status MQClientAPI::updateBrokerConfig(const std::string &addr, const std::map<std::string, std::string> &properties)
{
    if (properties.empty())
        return Status::failure(clientCode::kIllegalArgument, addr + " UPDATE_BROKER_CONFIG(25): no properties given");
    std::string text;
    for (const auto &[key, value] : properties)
        text += key + "=" + value + "\n";
    RemotingCommand command = request(RequestCode::kUpdateBrokerConfig);
    command.body.assign(text.begin(), text.end());
    return call(addr, std::move(command)).status();
}

Result<std::vector<common::StoredMessage>> MQClientAPI::queryMessage(const std::string &addr,
                                                                     const std::string &topic, const std::string &key,
                                                                     int32_t maxNum, int64_t beginTimestamp,
                                                                     int64_t endTimestamp, bool uniqueKey)
{
    ExtFields fields;
    setField(fields, "topic", topic);
    setField(fields, "key", key);
    setField(fields, "maxNum", maxNum);
    setField(fields, "beginTimestamp", beginTimestamp);
    setField(fields, "endTimestamp", endTimestamp);
    if (uniqueKey)
        setField(fields, "_UNIQUE_KEY_QUERY", true);
    RemotingCommand command = request(RequestCode::kQueryMessage, std::move(fields));
    const std::string what = describeRequest(addr, command);
    return decodeBody<std::vector<common::StoredMessage>>(
        what, call(addr, std::move(command)), [](std::string_view body, auto &out, std::string &error) {
            return decodeMessages({reinterpret_cast<const uint8_t *>(body.data()), body.size()}, out, error);
        });
}

Result<common::StoredMessage> MQClientAPI::viewMessage(const std::string &addr, int64_t commitLogOffset,
                                                       const std::string &topic)
{
    ExtFields fields;
    if (!topic.empty())
        setField(fields, "topic", topic);
    setField(fields, "offset", commitLogOffset);
    RemotingCommand command = request(RequestCode::kViewMessageById, std::move(fields));
    const std::string what = describeRequest(addr, command);
    Result<RemotingCommand> response = call(addr, std::move(command));
    if (!response.ok)
        return response.status();
    std::vector<common::StoredMessage> messages;
    std::string error;
    if (!decodeMessages(response.value.body, messages, error))
        return Status::failure(clientCode::kBadResponse, what + ": bad body: " + error);
    if (messages.size() != 1)
        return Status::failure(clientCode::kBadResponse,
                               what + ": expected one record, got " + std::to_string(messages.size()));
    return std::move(messages.front());
}

Result<std::vector<std::string>> MQClientAPI::queryTopicConsumeByWho(const std::string &addr, const std::string &topic)
{
    ExtFields fields;
    setField(fields, "topic", topic);
    RemotingCommand command = request(RequestCode::kQueryTopicConsumeByWho, std::move(fields));
    const std::string what = describeRequest(addr, command);
    return decodeBody<std::vector<std::string>>(what, call(addr, std::move(command)), decodeGroupList);
}

// ---- ACL 2.0 (3001–3010): Java's UserInfo / AclInfo bodies ----

namespace {

RemotingCommand jsonRequest(int32_t code, ExtFields fields, const common::JsonValue &body)
{
    RemotingCommand command = request(code, std::move(fields));
    const std::string text = common::toJsonCompact(body);
    command.body.assign(text.begin(), text.end());
    return command;
}

// One JSON value, or a JSON array of them, read with `read(value, out, error)`. No body: an
// empty list or nothing found (Java sets none then).
template<typename T, typename Read>
bool decodeJson(std::string_view body, T &out, std::string &error, Read read)
{
    if (body.empty())
        return true;
    common::JsonParseResult parsed = common::parseJson(body);
    if (!parsed.ok()) {
        error = parsed.error;
        return false;
    }
    return read(parsed.value, out, error);
}

template<typename T, typename ReadOne>
auto listReader(ReadOne readOne)
{
    return [readOne](const common::JsonValue &value, std::vector<T> &out, std::string &error) {
        if (!value.isArray()) {
            error = "expected a JSON array";
            return false;
        }
        for (const common::JsonValue &item : value.asArray()) {
            T one;
            if (!readOne(item, one, error)) {
                error = "item " + std::to_string(out.size()) + ": " + error;
                return false;
            }
            out.push_back(std::move(one));
        }
        return true;
    };
}

} // namespace

Status MQClientAPI::createUser(const std::string &addr, const acl::User &user)
{
    ExtFields fields;
    setField(fields, "username", user.username);
    return call(addr, jsonRequest(RequestCode::kAuthCreateUser, std::move(fields), acl::userToJson(user))).status();
}

Status MQClientAPI::updateUser(const std::string &addr, const acl::User &user)
{
    ExtFields fields;
    setField(fields, "username", user.username);
    // A blank password leaves the stored one as it is (Java's updateUser).
    const common::JsonValue body = acl::userToJson(user, !user.password.empty());
    return call(addr, jsonRequest(RequestCode::kAuthUpdateUser, std::move(fields), body)).status();
}

Status MQClientAPI::deleteUser(const std::string &addr, const std::string &username)
{
    ExtFields fields;
    setField(fields, "username", username);
    return call(addr, request(RequestCode::kAuthDeleteUser, std::move(fields))).status();
}

Result<acl::User> MQClientAPI::getUser(const std::string &addr, const std::string &username)
{
    ExtFields fields;
    setField(fields, "username", username);
    RemotingCommand command = request(RequestCode::kAuthGetUser, std::move(fields));
    const std::string what = describeRequest(addr, command);
    return decodeBody<acl::User>(what, call(addr, std::move(command)), [](std::string_view body, auto &out, auto &error) {
        return decodeJson(body, out, error, acl::userFromJson);
    });
}

Result<std::vector<acl::User>> MQClientAPI::listUsers(const std::string &addr, const std::string &filter)
{
    ExtFields fields;
    if (!filter.empty())
        setField(fields, "filter", filter);
    RemotingCommand command = request(RequestCode::kAuthListUser, std::move(fields));
    const std::string what = describeRequest(addr, command);
    return decodeBody<std::vector<acl::User>>(
        what, call(addr, std::move(command)), [](std::string_view body, auto &out, auto &error) {
            return decodeJson(body, out, error, listReader<acl::User>(acl::userFromJson));
        });
}

Status MQClientAPI::createAcl(const std::string &addr, const acl::Acl &acl)
{
    ExtFields fields;
    setField(fields, "subject", acl.subject);
    return call(addr, jsonRequest(RequestCode::kAuthCreateAcl, std::move(fields), acl::aclToJson(acl))).status();
}

Status MQClientAPI::updateAcl(const std::string &addr, const acl::Acl &acl)
{
    ExtFields fields;
    setField(fields, "subject", acl.subject);
    return call(addr, jsonRequest(RequestCode::kAuthUpdateAcl, std::move(fields), acl::aclToJson(acl))).status();
}

Status MQClientAPI::deleteAcl(const std::string &addr, const std::string &subject, const std::string &policyType,
                              const std::string &resource)
{
    ExtFields fields;
    setField(fields, "subject", subject);
    if (!policyType.empty())
        setField(fields, "policyType", policyType);
    if (!resource.empty())
        setField(fields, "resource", resource);
    return call(addr, request(RequestCode::kAuthDeleteAcl, std::move(fields))).status();
}

Result<acl::Acl> MQClientAPI::getAcl(const std::string &addr, const std::string &subject)
{
    ExtFields fields;
    setField(fields, "subject", subject);
    RemotingCommand command = request(RequestCode::kAuthGetAcl, std::move(fields));
    const std::string what = describeRequest(addr, command);
    return decodeBody<acl::Acl>(what, call(addr, std::move(command)), [](std::string_view body, auto &out, auto &error) {
        return decodeJson(body, out, error, acl::aclFromJson);
    });
}

Result<std::vector<acl::Acl>> MQClientAPI::listAcls(const std::string &addr, const std::string &subjectFilter,
                                                    const std::string &resourceFilter)
{
    ExtFields fields;
    if (!subjectFilter.empty())
        setField(fields, "subjectFilter", subjectFilter);
    if (!resourceFilter.empty())
        setField(fields, "resourceFilter", resourceFilter);
    RemotingCommand command = request(RequestCode::kAuthListAcl, std::move(fields));
    const std::string what = describeRequest(addr, command);
    return decodeBody<std::vector<acl::Acl>>(
        what, call(addr, std::move(command)), [](std::string_view body, auto &out, auto &error) {
            return decodeJson(body, out, error, listReader<acl::Acl>(acl::aclFromJson));
        });
}

} // namespace mqdesk::client
