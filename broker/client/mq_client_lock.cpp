// MQClientAPI's ordered-consumption calls (remoting spec §6.7): LOCK_BATCH_MQ and
// UNLOCK_BATCH_MQ with their JSON bodies.

#include "broker/client/mq_client_api.h"

#include "broker/remoting/protocol/lock_batch_body.h"

namespace mqdesk::client {

using remoting::LockBatchRequestBody;
using remoting::RemotingCommand;
using remoting::RequestCode;

namespace {

RemotingCommand lockRequest(int32_t code, const std::string &group, const std::string &clientId,
                            const std::set<MessageQueue> &queues)
{
    LockBatchRequestBody body;
    body.consumerGroup = group;
    body.clientId = clientId;
    for (const MessageQueue &queue : queues)
        body.mqSet.push_back({queue.topic, queue.brokerName, queue.queueId});
    RemotingCommand command = RemotingCommand::createRequest(code);
    const std::string json = body.toJson();
    command.body.assign(json.begin(), json.end());
    return command;
}

} // namespace

Result<std::set<MessageQueue>> MQClientAPI::lockBatchMQ(const std::string &addr, const std::string &group,
                                                        const std::string &clientId,
                                                        const std::set<MessageQueue> &queues)
{
    RemotingCommand command = lockRequest(RequestCode::kLockBatchMq, group, clientId, queues);
    const std::string what = describeRequest(addr, command);
    Result<RemotingCommand> response = call(addr, std::move(command));
    if (!response.ok)
        return response.status();
    std::vector<MessageQueue> locked;
    std::string error;
    const std::string_view text(reinterpret_cast<const char *>(response.value.body.data()),
                                response.value.body.size());
    if (!remoting::decodeLockBatchResponse(text, locked, error))
        return Status::failure(clientCode::kBadResponse, what + ": bad body: " + error);
    return std::set<MessageQueue>(std::make_move_iterator(locked.begin()), std::make_move_iterator(locked.end()));
}

Status MQClientAPI::unlockBatchMQ(const std::string &addr, const std::string &group, const std::string &clientId,
                                  const std::set<MessageQueue> &queues, bool oneway)
{
    RemotingCommand command = lockRequest(RequestCode::kUnlockBatchMq, group, clientId, queues);
    if (!oneway)
        return call(addr, std::move(command)).status();
    const std::string what = describeRequest(addr, command);
    prepareRequest(command);
    std::string error;
    if (!remoting_->invokeOneway(addr, std::move(command), &error))
        return Status::failure(clientCode::kConnectFailed, what + ": " + error);
    return {};
}

} // namespace mqdesk::client
