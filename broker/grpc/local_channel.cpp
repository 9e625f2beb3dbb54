#include "broker/grpc/local_channel.h"

#include "broker/remoting/remoting_codes.h"
#include "broker/server/broker_controller.h"

#include <spdlog/spdlog.h>

#include <vector>

namespace mqdesk::grpc {

using remoting::RemotingCommand;
using remoting::ResponseCode;

namespace {

// Ids above every socket connection's (those count up from 1 in RemotingServer): consumer and
// producer tables key by id, and a local channel must never share one with a connection.
std::atomic<uint64_t> nextLocalChannelId{uint64_t{1} << 62};

RemotingCommand failure(const RemotingCommand &request, std::string remark)
{
    return RemotingCommand::createResponse(request, ResponseCode::kSystemError, std::move(remark));
}

} // namespace

LocalChannel::LocalChannel(server::BrokerController &broker, std::string peerAddress, ServerRequestHandler handler)
    : broker_(broker)
    , id_(nextLocalChannelId.fetch_add(1))
    , peerAddress_(std::move(peerAddress))
    , handler_(std::move(handler))
{
}

LocalChannel::~LocalChannel()
{
    close("channel destroyed");
}

void LocalChannel::call(RemotingCommand request, std::chrono::milliseconds timeout, Done done)
{
    if (!isOpen()) {
        done(failure(request, "the client's session with the broker is closed"));
        return;
    }
    if (request.isOneway()) {
        broker_.dispatchLocal(shared_from_this(), std::move(request));
        RemotingCommand none;
        none.code = ResponseCode::kSuccess;
        none.markResponse();
        done(std::move(none));
        return;
    }
    {
        std::lock_guard lock(mutex_);
        request.opaque = nextOpaque_++;
        if (nextOpaque_ == INT32_MAX)
            nextOpaque_ = 1;
        pending_[request.opaque] = Pending{std::move(done), std::chrono::steady_clock::now() + timeout, request.code};
    }
    broker_.dispatchLocal(shared_from_this(), std::move(request));
}

size_t LocalChannel::expireOverdue()
{
    std::vector<std::pair<int32_t, Pending>> overdue;
    {
        std::lock_guard lock(mutex_);
        const auto now = std::chrono::steady_clock::now();
        for (auto it = pending_.begin(); it != pending_.end();) {
            if (it->second.deadline <= now) {
                overdue.emplace_back(it->first, std::move(it->second));
                it = pending_.erase(it);
            } else {
                ++it;
            }
        }
    }
    for (auto &[opaque, call] : overdue) {
        RemotingCommand stub;
        stub.opaque = opaque;
        stub.code = call.code;
        call.done(failure(stub, "the broker did not answer request " + std::to_string(call.code) + " in time"));
    }
    return overdue.size();
}

bool LocalChannel::sendOneway(RemotingCommand request)
{
    if (!isOpen())
        return false;
    handler_(std::move(request));
    return true;
}

void LocalChannel::invoke(RemotingCommand request, std::chrono::milliseconds, remoting::ResponseCallback callback)
{
    // The broker asks nothing of a gRPC client that waits for an answer (checks are oneway);
    // refuse plainly instead of leaving the caller waiting.
    callback(remoting::InvokeResult::failure(remoting::InvokeError::ConnectionClosed,
                                             "a gRPC client answers no broker requests (code "
                                                 + std::to_string(request.code) + ")"));
}

bool LocalChannel::sendResponse(RemotingCommand response)
{
    Done done;
    {
        std::lock_guard lock(mutex_);
        auto it = pending_.find(response.opaque);
        if (it == pending_.end())
            return false; // answered late, after its deadline
        done = std::move(it->second.done);
        pending_.erase(it);
    }
    done(std::move(response));
    return true;
}

void LocalChannel::close(std::string_view reason)
{
    if (open_.exchange(false))
        spdlog::debug("grpc: local channel {} of {} closed: {}", id_, peerAddress_, reason);
    std::unordered_map<int32_t, Pending> pending;
    {
        std::lock_guard lock(mutex_);
        pending.swap(pending_);
    }
    for (auto &[opaque, call] : pending) {
        RemotingCommand stub;
        stub.opaque = opaque;
        stub.code = call.code;
        call.done(failure(stub, "the client's session with the broker closed"));
    }
}

} // namespace mqdesk::grpc
