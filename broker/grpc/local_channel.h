#pragma once

// LocalChannel: how the gRPC endpoint talks to the broker in its own process, the way RocketMQ's
// proxy in local mode does: each gRPC client gets one channel, its requests are remoting commands
// dispatched to the broker's own processors (BrokerController::dispatchLocal), and the broker
// sees an ordinary connection (consumer and producer tables, transaction checks, client ids).
//
// Requests the broker starts on the channel (CHECK_TRANSACTION_STATE, NOTIFY_CONSUMER_IDS_CHANGED)
// go to the ServerRequestHandler, which turns what the client must know into telemetry commands.
// Requests the broker asks the client to answer (invoke: GET_CONSUMER_RUNNING_INFO,
// CONSUME_MESSAGE_DIRECTLY) go to the ClientCallHandler with a nonce, which the telemetry command
// carries and the client's answer names; answerClientCall() completes the call, expireOverdue()
// and close() fail it, as a socket's invoke would.
//
// Thread-safe. call()'s `done` runs exactly once: with the broker's response (on the processor's
// executor thread), or with a SYSTEM_ERROR response when the channel closes or the call outlives
// its deadline (expireOverdue, called by the endpoint's ticker).

#include "broker/remoting/net/remoting_channel.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace mqdesk::server {
class BrokerController;
}

namespace mqdesk::grpc {

class LocalChannel : public remoting::RemotingChannel, public std::enable_shared_from_this<LocalChannel>
{
public:
    using ServerRequestHandler = std::function<void(remoting::RemotingCommand request)>;
    using Done = std::function<void(remoting::RemotingCommand response)>;
    // Asks the client `request` under `nonce`; returns why it cannot be asked (empty: asked, or
    // answered already through answerClientCall).
    using ClientCallHandler = std::function<std::string(const remoting::RemotingCommand &request, const std::string &nonce)>;

    LocalChannel(server::BrokerController &broker, std::string peerAddress, ServerRequestHandler handler,
                 ClientCallHandler clientCalls = {});
    ~LocalChannel() override;

    // Sends `request` (its opaque is replaced) to the broker; `done` gets the answer. A oneway
    // request is done at once with an empty SUCCESS response.
    void call(remoting::RemotingCommand request, std::chrono::milliseconds timeout, Done done);
    // Answers overdue calls with SYSTEM_ERROR "timeout", and overdue client calls with a
    // Timeout; returns how many.
    size_t expireOverdue();
    // The client's answer to the invoke() asked under `nonce`; false when none waits for it
    // (answered late, or a nonce never issued).
    bool answerClientCall(const std::string &nonce, remoting::RemotingCommand response);

    // RemotingChannel
    uint64_t id() const override { return id_; }
    const std::string &peerAddress() const override { return peerAddress_; }
    bool isOpen() const override { return open_.load(std::memory_order_acquire); }
    bool sendOneway(remoting::RemotingCommand request) override;
    void invoke(remoting::RemotingCommand request, std::chrono::milliseconds timeout,
                remoting::ResponseCallback callback) override;
    bool sendResponse(remoting::RemotingCommand response) override;
    void close(std::string_view reason) override;

private:
    struct Pending
    {
        Done done;
        std::chrono::steady_clock::time_point deadline;
        int32_t code = 0;
    };
    struct ClientCall
    {
        remoting::ResponseCallback callback;
        std::chrono::steady_clock::time_point deadline;
        int32_t code = 0;
    };
    std::optional<ClientCall> takeClientCall(const std::string &nonce);

    server::BrokerController &broker_;
    const uint64_t id_;
    const std::string peerAddress_;
    ServerRequestHandler handler_;
    ClientCallHandler clientCalls_;
    std::atomic<bool> open_{true};
    std::mutex mutex_;
    int32_t nextOpaque_ = 1;                          // guarded by mutex_
    std::unordered_map<int32_t, Pending> pending_;    // guarded by mutex_
    uint64_t nextNonce_ = 1;                                      // guarded by mutex_
    std::unordered_map<std::string, ClientCall> clientCallsPending_; // guarded by mutex_
};

} // namespace mqdesk::grpc
