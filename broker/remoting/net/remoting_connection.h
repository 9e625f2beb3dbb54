#pragma once

// Internal to the remoting library: one TCP connection on Asio, used by both RemotingServer
// and RemotingClient. Include it from .cpp files only; it pulls in <asio.hpp>.
//
// Threading: all socket work (reads, the write queue, closing) runs on the socket's strand;
// the public operations may be called from any thread and post onto it. The table of pending
// invocations has its own mutex because timeouts are scanned from the owner's timer.
//
// Limits: a peer that stops reading makes the write queue grow; once `maxQueuedWriteBytes`
// are queued (and not yet taken by the kernel), the next send closes the connection instead of
// queueing without bound — the peer sees the close, as after a network fault, and reconnects.
// The owner closes a connection idle (nothing read or written) for longer than it allows, as
// the Java broker's IdleStateHandler does after serverChannelMaxIdleTimeSeconds.

#include "broker/remoting/net/remoting_channel.h"
#include "broker/remoting/remoting_codec.h"

#include <asio.hpp>

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace mqdesk::remoting {

class Connection final : public RemotingChannel, public std::enable_shared_from_this<Connection>
{
public:
    // Called on the strand for every request (not response) decoded from the stream.
    using RequestHandler = std::function<void(const std::shared_ptr<Connection> &, RemotingCommand)>;
    // Called once on the strand after the connection closed, for whatever reason.
    using CloseHandler = std::function<void(const std::shared_ptr<Connection> &)>;

    // `socket` must be connected and use a strand executor of `io`. `io` is kept alive by the
    // connection so that a connection outliving its owner (held by a late responder) never
    // touches a destroyed io_context.
    // `maxQueuedWriteBytes` 0: no limit.
    Connection(std::shared_ptr<asio::io_context> io, asio::ip::tcp::socket socket,
               std::string peerAddress, std::string side, size_t maxFrameSize,
               size_t maxQueuedWriteBytes = 0);
    ~Connection() override;

    // Starts reading. Call once, right after construction.
    void start(RequestHandler onRequest, CloseHandler onClose);

    uint64_t id() const override { return id_; }
    const std::string &peerAddress() const override { return peerAddress_; }
    bool isOpen() const override { return !closed_.load(); }
    bool sendOneway(RemotingCommand request) override;
    void invoke(RemotingCommand request, std::chrono::milliseconds timeout,
                ResponseCallback callback) override;
    bool sendResponse(RemotingCommand response) override;
    void close(std::string_view reason) override;

    // Fails, with Timeout, every invocation whose deadline is before `now`. Called by the
    // owner's periodic scan; a response arriving later is dropped as unknown.
    void expireRequests(std::chrono::steady_clock::time_point now);
    size_t pendingRequests() const;
    // When bytes last moved either way (or the connection opened).
    std::chrono::steady_clock::time_point lastActivity() const;
    // Bytes queued for writing that the kernel has not taken yet.
    size_t queuedWriteBytes() const { return queuedWriteBytes_.load(); }

private:
    struct Outgoing
    {
        std::vector<uint8_t> prefix;
        std::vector<uint8_t> body;
        size_t size() const { return prefix.size() + body.size(); }
    };
    struct Pending
    {
        ResponseCallback callback;
        std::chrono::steady_clock::time_point deadline;
        std::chrono::milliseconds timeout;
        int32_t code = 0;
    };

    // Encodes on the calling thread and queues the write on the strand. False when closed or
    // unencodable (`error` says which).
    bool enqueue(RemotingCommand command, std::string *error);
    void readMore();
    void writeNext();
    void clearWriteQueue();
    void handleResponse(RemotingCommand response);
    // Requires: running on the strand.
    void closeNow(const std::string &reason, bool fault);
    int32_t nextOpaque();
    void noteActivity();

    // Declared first so it is destroyed last: the socket and strand need it.
    std::shared_ptr<asio::io_context> io_;
    asio::ip::tcp::socket socket_;
    const uint64_t id_;
    const std::string peerAddress_;
    const std::string side_; // "server" / "client", for log lines
    FrameDecoder decoder_;
    std::vector<uint8_t> readBuffer_;
    RequestHandler onRequest_;
    CloseHandler onClose_;
    std::atomic<bool> closed_{false};
    const size_t maxQueuedWriteBytes_;
    std::atomic<size_t> queuedWriteBytes_{0};
    std::atomic<bool> overflowed_{false}; // the queue limit was hit: the connection is closing
    std::atomic<int64_t> lastActivityTicks_; // steady_clock ticks

    // Strand only.
    std::deque<Outgoing> writeQueue_;
    bool writing_ = false;

    mutable std::mutex pendingMutex_;
    std::unordered_map<int32_t, Pending> pending_; // guarded by pendingMutex_
    bool pendingClosed_ = false;                    // guarded by pendingMutex_
    std::atomic<uint32_t> opaqueCounter_{0};
};

// "host:port" of an endpoint; IPv6 hosts in brackets.
std::string endpointText(const asio::ip::tcp::endpoint &endpoint);

} // namespace mqdesk::remoting
