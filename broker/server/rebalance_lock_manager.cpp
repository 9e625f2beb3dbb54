#include "broker/server/rebalance_lock_manager.h"

#include "broker/common/log_rate_limiter.h"
#include "broker/remoting/protocol/resource_names.h"
#include "broker/remoting/remoting_codes.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <set>

namespace mqdesk::server {

using remoting::LockBatchRequestBody;
using remoting::MessageQueue;
using remoting::RemotingCommand;
using remoting::ResponseCode;

namespace {

// Lock ages are differences of this clock: a wall-clock step must not expire or revive locks.
int64_t steadyMillis()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

// A consumer locks the queues it was assigned: at most its topics' queues on this broker.
constexpr size_t kMaxQueuesPerLockBatch = 16384;

bool parseBody(const RemotingCommand &request, LockBatchRequestBody &body, std::string &error)
{
    const std::string_view text(reinterpret_cast<const char *>(request.body.data()), request.body.size());
    if (text.empty()) {
        error = "missing body";
        return false;
    }
    if (!LockBatchRequestBody::fromJson(text, body, error))
        return false;
    // Every queue named becomes a lock-table entry until it expires: names are checked and the
    // batch bounded so that no request grows the table without limit.
    if (body.mqSet.size() > kMaxQueuesPerLockBatch) {
        error = "mqSet names " + std::to_string(body.mqSet.size()) + " queues, more than "
                + std::to_string(kMaxQueuesPerLockBatch);
        return false;
    }
    error = remoting::groupNameError(body.consumerGroup, "consumerGroup");
    for (size_t i = 0; error.empty() && i < body.mqSet.size(); ++i)
        error = remoting::consumedTopicNameError(body.mqSet[i].topic, "mqSet[" + std::to_string(i) + "].topic");
    return error.empty();
}

} // namespace

std::vector<MessageQueue> RebalanceLockManager::tryLockBatch(const std::string &group,
                                                                 const std::vector<MessageQueue> &queues,
                                                                 const std::string &clientId, int64_t nowMillis)
{
    std::vector<MessageQueue> granted;
    std::set<MessageQueue> seen; // a queue named twice is granted once
    size_t refused = 0;
    bool swept = false;
    std::lock_guard lock(mutex_);
    auto &table = groups_[group];
    for (const MessageQueue &queue : queues) {
        if (!seen.insert(queue).second)
            continue;
        auto it = table.find(queue);
        if (it == table.end()) {
            // One sweep per request at most: a full table must not make a request quadratic.
            if (entries_ >= maxEntries_ && !swept) {
                dropExpiredLocked(nowMillis, group);
                swept = true;
            }
            if (entries_ >= maxEntries_) {
                ++refused;
                continue;
            }
            it = table.emplace(queue, LockEntry{clientId, nowMillis}).first;
            ++entries_;
        }
        LockEntry &entry = it->second;
        if (entry.clientId != clientId) {
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
    if (refused > 0) {
        static common::LogRateLimiter limiter(std::chrono::seconds(10));
        if (const auto held = limiter.admit())
            spdlog::warn("rebalance lock: table full ({} locks held): {} queues of group {} not granted to {}{}",
                         entries_, refused, group, clientId, common::LogRateLimiter::heldNote(*held));
    }
    return granted;
}

size_t RebalanceLockManager::dropExpiredLocked(int64_t nowMillis, const std::string &keepGroup)
{
    size_t dropped = 0;
    for (auto group = groups_.begin(); group != groups_.end();) {
        dropped += std::erase_if(group->second, [&](const auto &lock) { return expired(lock.second, nowMillis); });
        // keepGroup's table stays even when empty: the caller holds a reference to it.
        group = group->second.empty() && group->first != keepGroup ? groups_.erase(group) : std::next(group);
    }
    entries_ -= dropped;
    return dropped;
}

size_t RebalanceLockManager::size() const
{
    std::lock_guard lock(mutex_);
    return entries_;
}

void RebalanceLockManager::unlockBatch(const std::string &group, const std::vector<MessageQueue> &queues,
                                       const std::string &clientId)
{
    std::lock_guard lock(mutex_);
    const auto table = groups_.find(group);
    if (table == groups_.end())
        return;
    for (const MessageQueue &queue : queues) {
        const auto it = table->second.find(queue);
        if (it != table->second.end() && it->second.clientId == clientId) {
            table->second.erase(it);
            --entries_;
        }
    }
    if (table->second.empty())
        groups_.erase(table);
}

bool RebalanceLockManager::isLockedBy(const std::string &group, const MessageQueue &queue,
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
    const std::vector<MessageQueue> granted =
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
