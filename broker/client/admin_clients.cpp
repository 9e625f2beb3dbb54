// AdminClient's questions to a running consumer, asked through a broker that forwards them over
// the client's own connection (broker/server/client_call_processor.h): its running info and
// "consume this message directly". A client is connected to every broker it consumes from, so
// the group's brokers are asked in turn until one reaches it. And the brokers' traffic
// statistics (VIEW_BROKER_STATS_DATA) those diagnoses go with.

#include "broker/client/admin_client.h"

#include "broker/common/json.h"
#include "broker/common/message_id.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/remoting_codes.h"

namespace mqdesk::client {

using remoting::RemotingCommand;
using remoting::RequestCode;
using remoting::ResponseCode;

namespace {

// The broker waits up to 10 s for the client (Java's callClient); a Java client's stacks take a
// moment to gather.
constexpr int64_t kClientCallTimeoutMillis = 15'000;

std::string_view bodyText(const RemotingCommand &response)
{
    return {reinterpret_cast<const char *>(response.body.data()), response.body.size()};
}

} // namespace

Result<remoting::ConsumerRunningInfo> AdminClient::consumerRunningInfo(const std::string &group,
                                                                       const std::string &clientId, bool jstack)
{
    Result<std::vector<std::string>> masters = groupMasters(group, {});
    if (!masters.ok)
        return masters.status();
    Status last = Status::failure(clientCode::kNoRoute, "no broker of group " + group);
    for (const std::string &addr : masters.value) {
        remoting::ExtFields fields;
        remoting::setField(fields, "consumerGroup", group);
        remoting::setField(fields, "clientId", clientId);
        remoting::setField(fields, "jstackEnable", jstack);
        RemotingCommand command = RemotingCommand::createRequest(RequestCode::kGetConsumerRunningInfo, std::move(fields));
        const std::string what = MQClientAPI::describeRequest(addr, command);
        Result<RemotingCommand> response = api_->invoke(addr, std::move(command), kClientCallTimeoutMillis);
        if (!response.ok) {
            last = response.status();
            continue;
        }
        if (response.value.code != ResponseCode::kSuccess) {
            last = MQClientAPI::responseFailure(what, response.value); // "not online" on a broker it does not use
            continue;
        }
        remoting::ConsumerRunningInfo info;
        std::string error;
        if (!remoting::ConsumerRunningInfo::fromJson(bodyText(response.value), info, error))
            return Status::failure(clientCode::kBadResponse, what + ": bad body: " + error);
        return info;
    }
    return last;
}

Result<remoting::ConsumeMessageDirectlyResult> AdminClient::consumeMessageDirectly(const std::string &group,
                                                                                   const std::string &clientId,
                                                                                   const std::string &topic,
                                                                                   const std::string &offsetMsgId)
{
    const std::optional<common::OffsetMessageId> id = common::decodeOffsetMessageId(offsetMsgId);
    if (!id)
        return Status::failure(clientCode::kIllegalArgument, "not an offset message id: " + offsetMsgId);
    // The broker that stores the message is the one its id names.
    const std::string addr = id->storeHost.toString();
    remoting::ExtFields fields;
    remoting::setField(fields, "consumerGroup", group);
    remoting::setField(fields, "clientId", clientId);
    remoting::setField(fields, "msgId", offsetMsgId);
    remoting::setField(fields, "topic", topic);
    RemotingCommand command = RemotingCommand::createRequest(RequestCode::kConsumeMessageDirectly, std::move(fields));
    const std::string what = MQClientAPI::describeRequest(addr, command);
    Result<RemotingCommand> response = api_->invoke(addr, std::move(command), kClientCallTimeoutMillis);
    if (!response.ok)
        return response.status();
    if (response.value.code != ResponseCode::kSuccess)
        return MQClientAPI::responseFailure(what, response.value);
    remoting::ConsumeMessageDirectlyResult result;
    std::string error;
    if (!remoting::ConsumeMessageDirectlyResult::fromJson(bodyText(response.value), result, error))
        return Status::failure(clientCode::kBadResponse, what + ": bad body: " + error);
    return result;
}

Result<AdminClient::BrokerStats> AdminClient::brokerStats(const std::vector<std::string> &brokers,
                                                          const std::string &statsName, const std::string &statsKey)
{
    BrokerStats total;
    Status failure;
    for (const std::string &addr : brokers) {
        remoting::ExtFields fields;
        remoting::setField(fields, "statsName", statsName);
        remoting::setField(fields, "statsKey", statsKey);
        RemotingCommand command = RemotingCommand::createRequest(RequestCode::kViewBrokerStatsData, std::move(fields));
        const std::string what = MQClientAPI::describeRequest(addr, command);
        Result<RemotingCommand> response = api_->invoke(addr, std::move(command), api_->config().timeoutMillis);
        if (!response.ok) {
            failure = response.status();
            continue;
        }
        if (response.value.code != ResponseCode::kSuccess) {
            // "The stats <name> <key> not exist": this broker never counted it.
            if (!response.value.remark.value_or("").ends_with("not exist"))
                failure = MQClientAPI::responseFailure(what, response.value);
            continue;
        }
        const common::JsonParseResult parsed = common::parseJson(bodyText(response.value));
        if (!parsed.ok() || !parsed.value.isObject())
            return Status::failure(clientCode::kBadResponse, what + ": bad body: " + parsed.error);
        const auto add = [&](const char *window, StatsWindow &into) {
            if (const common::JsonValue *value = parsed.value.find(window)) {
                if (const common::JsonValue *sum = value->find("sum"))
                    into.sum += sum->asInteger();
                if (const common::JsonValue *tps = value->find("tps"))
                    into.tps += tps->asDouble();
            }
        };
        add("statsMinute", total.minute);
        add("statsHour", total.hour);
        add("statsDay", total.day);
        total.counted = true;
    }
    if (!total.counted && !failure.ok)
        return failure;
    return total;
}

} // namespace mqdesk::client
