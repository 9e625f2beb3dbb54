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

LocalChannel::LocalChannel(server::BrokerController &broker, std::string peerAddress, ServerRequestHandler handler,
                           ClientCallHandler clientCalls)
    : broker_(broker)
    , id_(nextLocalChannelId.fetch_add(1))
    , peerAddress_(std::move(peerAddress))
    , handler_(std::move(handler))
    , clientCalls_(std::move(clientCalls))
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
    std::vector<ClientCall> overdueClientCalls;
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
        for (auto it = clientCallsPending_.begin(); it != clientCallsPending_.end();) {
            if (it->second.deadline <= now) {
                overdueClientCalls.push_back(std::move(it->second));
                it = clientCallsPending_.erase(it);
            } else {
                ++it;
            }
        }
    }
    for (ClientCall &call : overdueClientCalls) {
        call.callback(remoting::InvokeResult::failure(
            remoting::InvokeError::Timeout,
            "the gRPC client " + peerAddress_ + " did not answer request " + std::to_string(call.code) + " in time"));
    }
    for (auto &[opaque, call] : overdue) {
        RemotingCommand stub;
        stub.opaque = opaque;
        stub.code = call.code;
        call.done(failure(stub, "the broker did not answer request " + std::to_string(call.code) + " in time"));
    }
    return overdue.size() + overdueClientCalls.size();
}

bool LocalChannel::sendOneway(RemotingCommand request)
{
    if (!isOpen())
        return false;
    handler_(std::move(request));
    return true;
}

void LocalChannel::invoke(RemotingCommand request, std::chrono::milliseconds timeout,
                          remoting::ResponseCallback callback)
{
    if (!isOpen() || !clientCalls_) {
        callback(remoting::InvokeResult::failure(remoting::InvokeError::ConnectionClosed,
                                                 "the gRPC client " + peerAddress_ + " is not connected"));
        return;
    }
    std::string nonce;
    {
        std::lock_guard lock(mutex_);
        nonce = std::to_string(id_) + "-" + std::to_string(nextNonce_++);
        clientCallsPending_[nonce] = ClientCall{std::move(callback), std::chrono::steady_clock::now() + timeout, request.code};
    }
    // Registered first: the handler may answer at once (answerClientCall) on this thread.
    const std::string refusal = clientCalls_(request, nonce);
    if (refusal.empty())
        return;
    if (std::optional<ClientCall> call = takeClientCall(nonce))
        call->callback(remoting::InvokeResult::failure(remoting::InvokeError::ConnectionClosed, refusal));
}

std::optional<LocalChannel::ClientCall> LocalChannel::takeClientCall(const std::string &nonce)
{
    std::lock_guard lock(mutex_);
    const auto it = clientCallsPending_.find(nonce);
    if (it == clientCallsPending_.end())
        return std::nullopt;
    ClientCall call = std::move(it->second);
    clientCallsPending_.erase(it);
    return call;
}

bool LocalChannel::answerClientCall(const std::string &nonce, RemotingCommand response)
{
    std::optional<ClientCall> call = takeClientCall(nonce);
    if (!call)
        return false;
    response.markResponse();
    call->callback(remoting::InvokeResult::success(std::move(response)));
    return true;
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
    std::unordered_map<std::string, ClientCall> clientCalls;
    {
        std::lock_guard lock(mutex_);
        pending.swap(pending_);
        clientCalls.swap(clientCallsPending_);
    }
    for (auto &[nonce, call] : clientCalls) {
        call.callback(remoting::InvokeResult::failure(remoting::InvokeError::ConnectionClosed,
                                                      "the gRPC client " + peerAddress_ + " left"));
    }
    for (auto &[opaque, call] : pending) {
        RemotingCommand stub;
        stub.opaque = opaque;
        stub.code = call.code;
        call.done(failure(stub, "the client's session with the broker closed"));
    }
}

} // namespace mqdesk::grpc
