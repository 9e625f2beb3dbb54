#pragma once

// What request processors see of a connection, shared by RemotingServer and RemotingClient:
// the outcome of an invocation, the channel interface, the request context and the processor
// signature. No Asio here; the socket side lives in remoting_connection.h.

#include "broker/remoting/remoting_command.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace mqdesk::remoting {

enum class InvokeError {
    None,
    Timeout,          // no response within the request's timeout; a later one is dropped
    ConnectFailed,    // resolving or connecting to the address failed or timed out
    ConnectionClosed, // the connection closed (or was closed) before the response arrived
    SendFailed,       // the request could not be encoded (e.g. a code beyond int16 in binary)
};

std::string_view invokeErrorName(InvokeError error); // "timeout", "connection closed", ...

// The outcome of a request that expects a response.
struct InvokeResult
{
    InvokeError error = InvokeError::None;
    std::string errorMessage; // names the address and the request; empty on success
    RemotingCommand response; // valid only when ok()

    bool ok() const { return error == InvokeError::None; }

    static InvokeResult success(RemotingCommand response);
    static InvokeResult failure(InvokeError error, std::string message);
};

// Called exactly once per request, on an io thread: it must not block (and in particular must
// not call invokeSync).
using ResponseCallback = std::function<void(InvokeResult)>;

// One TCP connection as seen above the socket. Thread-safe. Every operation on a closed
// channel is harmless: sends are dropped, invocations fail with ConnectionClosed.
class RemotingChannel
{
public:
    virtual ~RemotingChannel() = default;

    // Unique within the process for its lifetime.
    virtual uint64_t id() const = 0;
    // "127.0.0.1:45678"
    virtual const std::string &peerAddress() const = 0;
    virtual bool isOpen() const = 0;

    // Sends `request` with the oneway flag set and a fresh opaque; nothing is expected back.
    // Returns false when the channel is closed or the request cannot be encoded.
    virtual bool sendOneway(RemotingCommand request) = 0;
    // As sendOneway, for a notification that may be lost (the client learns it again later):
    // dropped, returning false, while the peer is not reading what it was sent already (above
    // the write budget's high water mark, remoting_connection.h).
    virtual bool sendDroppable(RemotingCommand request) { return sendOneway(std::move(request)); }
    // Sends `request` with a fresh opaque and calls `callback` once with its response, a
    // timeout or the connection's close.
    virtual void invoke(RemotingCommand request, std::chrono::milliseconds timeout,
                        ResponseCallback callback) = 0;
    // Writes `response` as is (its opaque and flag already set). False when closed.
    virtual bool sendResponse(RemotingCommand response) = 0;
    // Closes the socket; pending invocations fail with ConnectionClosed. `reason` is logged.
    virtual void close(std::string_view reason) = 0;
};

// The connection a request arrived on. Cheap to copy; holds the connection weakly, so keeping
// a context (a held pull, a consumer table) never keeps a closed connection alive.
class RequestContext
{
public:
    RequestContext() = default;
    explicit RequestContext(const std::shared_ptr<RemotingChannel> &channel);

    uint64_t connectionId() const { return connectionId_; }
    const std::string &peerAddress() const { return peerAddress_; }
    bool isOpen() const;

    // Server -> client requests (NOTIFY_CONSUMER_IDS_CHANGED, CHECK_TRANSACTION_STATE, ...)
    // on this connection. Once it has closed, sendOneway returns false and invoke calls back
    // with ConnectionClosed.
    bool sendOneway(RemotingCommand request) const;
    bool sendDroppable(RemotingCommand request) const; // see RemotingChannel::sendDroppable
    void invoke(RemotingCommand request, std::chrono::milliseconds timeout,
                ResponseCallback callback) const;
    // The channel while it is alive, for tables keyed by connection; may be null.
    std::shared_ptr<RemotingChannel> channel() const { return channel_.lock(); }

private:
    std::weak_ptr<RemotingChannel> channel_;
    uint64_t connectionId_ = 0;
    std::string peerAddress_;
};

// Answers one request. Call it at most once, from any thread, at any time later (a held pull
// answers seconds later). The response's opaque and response flag are set from the request;
// build it with RemotingCommand::createResponse so it goes out in the request's encoding.
// Calling it for a oneway request, or after the connection closed, does nothing.
using Responder = std::function<void(RemotingCommand response)>;

// Handles one request; runs on the executor it was registered with. An exception it throws
// is answered SYSTEM_ERROR with the exception's text (unless the request was oneway).
using Processor = std::function<void(const RequestContext &context, RemotingCommand request,
                                     Responder respond)>;

} // namespace mqdesk::remoting
