#include "broker/client/activity_totals.h"

#include "broker/client/mq_client_api.h"
#include "broker/remoting/protocol/json_fields.h"
#include "broker/remoting/remoting_codes.h"

namespace mqdesk::client {

namespace {

// `key` of `reader`'s object as a map of names to integers; absent is empty.
bool readCounts(remoting::JsonFieldReader &reader, std::string_view key, std::map<std::string, int64_t> &out)
{
    const common::JsonValue *member = reader.member(key);
    if (!member)
        return true;
    if (!member->isObject()) {
        reader.fail(reader.pathOf(key), "expected an object");
        return false;
    }
    for (const common::JsonMember &entry : member->asObject()) {
        if (!entry.value.isInteger()) {
            reader.fail(reader.pathOf(key) + "." + entry.key, "expected an integer");
            return false;
        }
        out[entry.key] = entry.value.asInteger();
    }
    return true;
}

} // namespace

bool parseActivityTotals(std::string_view body, ActivityTotals &out, std::string &error)
{
    error.clear(); // the field reader takes a non-empty error for an earlier failure
    common::JsonValue root;
    if (!remoting::parseJsonObject(body, root, error))
        return false;
    remoting::JsonFieldReader reader(root, "", error);
    reader.readLong("bootTimestamp", out.bootTimestamp);
    reader.readLong("timestamp", out.timestamp);
    return reader.ok() && readCounts(reader, "topics", out.topics) && readCounts(reader, "groups", out.groups);
}

Result<ActivityTotals> getActivityTotals(MQClientAPI &api, const std::string &addr)
{
    remoting::RemotingCommand request = remoting::RemotingCommand::createRequest(remoting::RequestCode::kGetActivityTotals);
    const std::string what = MQClientAPI::describeRequest(addr, request);
    Result<remoting::RemotingCommand> response = api.invoke(addr, std::move(request), api.config().timeoutMillis);
    if (!response.ok)
        return response.status();
    if (response.value.code != remoting::ResponseCode::kSuccess)
        return MQClientAPI::responseFailure(what, response.value);
    ActivityTotals totals;
    std::string error;
    const auto &body = response.value.body;
    if (!parseActivityTotals({reinterpret_cast<const char *>(body.data()), body.size()}, totals, error))
        return Status::failure(clientCode::kBadResponse, what + ": bad body: " + error);
    return Result<ActivityTotals>(std::move(totals));
}

} // namespace mqdesk::client
