#include "broker/server/rebalance_lock_manager.h"

#include "broker/remoting/remoting_codes.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

namespace mqdesk::server {

using remoting::LockBatchRequestBody;
using remoting::MessageQueueData;
using remoting::RemotingCommand;
using remoting::ResponseCode;

namespace {

// Lock ages are differences of this clock: a wall-clock step must not expire or revive locks.
int64_t steadyMillis()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

bool parseBody(const RemotingCommand &request, LockBatchRequestBody &body, std::string &error)
{
    const std::string_view text(reinterpret_cast<const char *>(request.body.data()), request.body.size());
    if (text.empty()) {
        error = "missing body";
        return false;
    }
    return LockBatchRequestBody::fromJson(text, body, error);
}

} // namespace

std::vector<MessageQueueData> RebalanceLockManager::tryLockBatch(const std::string &group,
                                                                 const std::vector<MessageQueueData> &queues,
                                                                 const std::string &clientId, int64_t nowMillis)
{
    std::vector<MessageQueueData> granted;
    std::lock_guard lock(mutex_);
    auto &table = groups_[group];
    for (const MessageQueueData &queue : queues) {
        if (std::find(granted.begin(), granted.end(), queue) != granted.end())
            continue;
        auto [it, inserted] = table.try_emplace(queue, LockEntry{clientId, nowMillis});
        LockEntry &entry = it->second;
        if (!inserted && entry.clientId != clientId) {
            if (!expired(entry, nowMillis))
                continue;
            spdlog::info("rebalance lock: group {} queue {}@{}:{} taken over by {} from {} (expired)", group,
                         queue.topic, queue.brokerName, queue.queueId, clientId, entry.clientId);
            entry.clientId = clientId;
        }
        entry.lastUpdateMillis = nowMillis;
        granted.push_back(queue);
    }
    if (table.empty())
        groups_.erase(group);
    return granted;
}

void RebalanceLockManager::unlockBatch(const std::string &group, const std::vector<MessageQueueData> &queues,
                                       const std::string &clientId)
{
    std::lock_guard lock(mutex_);
    const auto table = groups_.find(group);
    if (table == groups_.end())
        return;
    for (const MessageQueueData &queue : queues) {
        const auto it = table->second.find(queue);
        if (it != table->second.end() && it->second.clientId == clientId)
            table->second.erase(it);
    }
    if (table->second.empty())
        groups_.erase(table);
}

bool RebalanceLockManager::isLockedBy(const std::string &group, const MessageQueueData &queue,
                                      const std::string &clientId, int64_t nowMillis) const
{
    std::lock_guard lock(mutex_);
    const auto table = groups_.find(group);
    if (table == groups_.end())
        return false;
    const auto it = table->second.find(queue);
    return it != table->second.end() && it->second.clientId == clientId && !expired(it->second, nowMillis);
}

void LockBatchProcessor::lockBatch(const remoting::RequestContext &, RemotingCommand request,
                                   remoting::Responder respond)
{
    LockBatchRequestBody body;
    std::string error;
    if (!parseBody(request, body, error)) {
        respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError, "bad LOCK_BATCH_MQ body: " + error));
        return;
    }
    const std::vector<MessageQueueData> granted =
        locks_.tryLockBatch(body.consumerGroup, body.mqSet, body.clientId, steadyMillis());
    RemotingCommand response = RemotingCommand::createResponse(request, ResponseCode::kSuccess);
    const std::string json = remoting::encodeLockBatchResponse(granted);
    response.body.assign(json.begin(), json.end());
    respond(std::move(response));
}

void LockBatchProcessor::unlockBatch(const remoting::RequestContext &, RemotingCommand request,
                                     remoting::Responder respond)
{
    LockBatchRequestBody body;
    std::string error;
    if (!parseBody(request, body, error)) {
        respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError,
                                                "bad UNLOCK_BATCH_MQ body: " + error));
        return;
    }
    locks_.unlockBatch(body.consumerGroup, body.mqSet, body.clientId);
    respond(RemotingCommand::createResponse(request, ResponseCode::kSuccess));
}

} // namespace mqdesk::server
