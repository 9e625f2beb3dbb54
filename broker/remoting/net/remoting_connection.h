#pragma once

// Internal to the remoting library: one TCP connection on Asio, used by both RemotingServer
// and RemotingClient. Include it from .cpp files only; it pulls in <asio.hpp>.
//
// Threading: all socket work (reads, queued writes, closing) runs on the socket's strand; the
// public operations may be called from any thread and post onto it — except that a plaintext
// frame with nothing queued before it is written by the calling thread (non-blocking, under
// writeMutex_, which also holds the descriptor open against a close): a reply leaves from the
// thread that made it without waking an io thread. What the kernel does not take at once is
// queued, and the strand writes it, in order. The table of pending
// invocations has its own mutex because timeouts are scanned from the owner's timer.
//
// Limits (MemoryBudget, shared by one server's or client's connections): frames still arriving
// count against a total for all connections; a read past it closes its connection. A peer that
// stops reading makes the write queue grow. Above the budget's high water mark the connection is not
// writable: a droppable one-way request (a server's notification) is dropped and counted instead
// of queued. Once `maxPerConnection` bytes are queued (and not yet taken by the kernel), or while
// every connection together holds more than `maxTotal` and this one is above its high water
// mark and has not drained for a second, the next send closes the connection instead of queueing without bound — the peer sees
// the close, as after a network fault, and reconnects.
// TLS (tls_context.h): a server connection under a TlsServerContext is told apart by its first
// byte — a handshake gets a TlsEngine, plaintext is served or, when TLS is enforced, answered
// once with an error naming the setting and closed; a client connection given a context starts
// its handshake at once, and what it sends before the handshake completes goes out after it.
// Ciphertext is made on the strand in the order frames are queued, so the write queue holds the
// wire's bytes in order.
// The owner closes a connection that sent no complete frame for longer than it allows (as the
// Java broker's IdleStateHandler does after serverChannelMaxIdleTimeSeconds, but counting frames,
// not bytes: a byte now and then keeps nothing open), and one whose frame started arriving and
// did not complete within its frame deadline.

#include "broker/remoting/net/remoting_channel.h"
#include "broker/remoting/net/tls_engine.h"
#include "broker/remoting/remoting_codec.h"

#include <asio.hpp>

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace mqdesk::remoting {

class TlsServerContext;

// What the connections of one server (or client) may hold queued for their peers, and what the
// limits did. Java bounds the same with Netty's write-buffer water marks and its one-way
// semaphores (serverOnewaySemaphoreValue). 0 disables a limit.
struct MemoryBudget
{
    size_t highWaterMark = 0;    // per connection: above it, droppable one-way requests are dropped
    size_t maxPerConnection = 0; // per connection: a send past it closes the connection
    size_t maxTotal = 0;         // all connections together (see above)
    std::atomic<size_t> total{0};
    std::atomic<uint64_t> dropped{0};          // one-way requests not sent
    std::atomic<uint64_t> closedForBacklog{0}; // connections closed for not reading
    // Bytes of frames still arriving, all connections together: a read that takes them past
    // `maxPartialTotal` closes its connection (the frame deadline bounds how long they are held).
    size_t maxPartialTotal = 0;
    std::atomic<size_t> partialTotal{0};
    std::atomic<uint64_t> closedForPartial{0};
};

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
    // `budget` null: no write limits.
    Connection(std::shared_ptr<asio::io_context> io, asio::ip::tcp::socket socket,
               std::string peerAddress, std::string side, size_t maxFrameSize,
               std::shared_ptr<MemoryBudget> budget = nullptr);
    ~Connection() override;

    // Before start(): TLS as `server`'s mode says (a server's connection), or a client's handshake
    // with `context` to `endpoint` ("host:port", TlsEngine's).
    void useServerTls(std::shared_ptr<TlsServerContext> server);
    void useClientTls(std::shared_ptr<ssl_ctx_st> context, std::string endpoint);
    // Starts reading. Call once, right after construction.
    void start(RequestHandler onRequest, CloseHandler onClose);
    bool isTls() const { return tlsActive_.load(std::memory_order_relaxed); }

    uint64_t id() const override { return id_; }
    const std::string &peerAddress() const override { return peerAddress_; }
    bool isOpen() const override { return !closed_.load(); }
    bool sendOneway(RemotingCommand request) override;
    bool sendDroppable(RemotingCommand request) override;
    void invoke(RemotingCommand request, std::chrono::milliseconds timeout,
                ResponseCallback callback) override;
    bool sendResponse(RemotingCommand response) override;
    void close(std::string_view reason) override;

    // Fails, with Timeout, every invocation whose deadline is before `now`. Called by the
    // owner's periodic scan; a response arriving later is dropped as unknown.
    void expireRequests(std::chrono::steady_clock::time_point now);
    size_t pendingRequests() const;
    // When the peer last completed a frame (or the connection opened).
    std::chrono::steady_clock::time_point lastActivity() const;
    // Whether the peer has completed any frame yet.
    bool hasSpoken() const { return framesReceived_.load(std::memory_order_relaxed) > 0; }
    // When the frame now arriving began to arrive; nullopt at a frame boundary.
    std::optional<std::chrono::steady_clock::time_point> partialFrameSince() const;
    // Bytes queued for writing that the kernel has not taken yet.
    size_t queuedWriteBytes() const { return queuedWriteBytes_.load(); }

private:
    struct Outgoing
    {
        std::vector<uint8_t> prefix;
        std::vector<uint8_t> body;
        size_t accounted = 0; // what it counts in queuedWriteBytes_ and the budget
        size_t size() const { return accounted; }
    };
    struct Pending
    {
        ResponseCallback callback;
        std::chrono::steady_clock::time_point deadline;
        std::chrono::milliseconds timeout;
        int32_t code = 0;
    };

    // Encodes on the calling thread, then writes it (writeOrQueue) or queues the write on the
    // strand. False when closed, unencodable, dropped (`droppable` and not writable) or over the
    // budget (`error` says which).
    bool enqueue(RemotingCommand command, std::string *error, bool droppable = false);
    // A plaintext connection's frame, from any thread: written now when nothing is queued, else queued.
    bool writeOrQueue(Outgoing outgoing);
    // Requires: writeMutex_. One non-blocking sendmsg; the bytes the kernel took (0 on an error).
    size_t writeWithoutWaiting(const Outgoing &outgoing);
    static void dropWritten(Outgoing &outgoing, size_t written);
    // Strand only: queues it and starts the writes if none is under way.
    void queueOnStrand(Outgoing outgoing);
    // Nothing queued or being written.
    bool writeIdle() const;
    // Whether `size` more bytes may be queued on top of `queued`; else closes (once) and says why.
    bool admit(size_t queued, size_t size, bool droppable, std::string *error);
    void release(size_t size); // `size` queued bytes are gone (written or dropped)
    std::chrono::steady_clock::time_point lastDrain() const;
    void readMore();
    void writeFront();
    void clearWriteQueue();
    void handleResponse(RemotingCommand response);
    // Requires: running on the strand.
    void closeNow(const std::string &reason, bool fault);
    int32_t nextOpaque();
    // After a read: `completed` frames decoded; tracks the partial frame's start.
    void noteFrames(size_t completed);
    // Strand only. The first bytes of a server connection under TLS settings: false when closed.
    bool chooseTransport(uint8_t firstByte);
    // Strand only. Ciphertext in, plaintext out (in `plain_`); false when the connection closed.
    bool decrypt(std::span<const uint8_t> &bytes);
    // Strand only. Queues what the TLS engine made (handshake records, encrypted frames).
    void queueTlsOutput();
    // Strand only. Frames decoded from a plaintext client where TLS is enforced.
    void refusePlaintext(const std::vector<RemotingCommand> &commands);

    // Declared first so it is destroyed last: the socket and strand need it.
    std::shared_ptr<asio::io_context> io_;
    asio::ip::tcp::socket socket_;
    const int descriptor_; // socket_'s, read without touching socket_ from other threads
    const uint64_t id_;
    const std::string peerAddress_;
    const std::string side_; // "server" / "client", for log lines
    FrameDecoder decoder_;
    std::vector<uint8_t> readBuffer_;
    size_t grownBuffer_ = 0; // the read buffer's next size, applied after the read is decoded
    size_t partialCounted_ = 0; // strand only: this connection's share of budget_->partialTotal
    // After a read: counts the decoder's partial frame in the budget; false when over it.
    bool accountPartial();
    void adaptReadBuffer(size_t lastRead);
    RequestHandler onRequest_;
    CloseHandler onClose_;
    std::atomic<bool> closed_{false};
    const std::shared_ptr<MemoryBudget> budget_; // may be null
    std::atomic<size_t> queuedWriteBytes_{0};
    std::atomic<bool> overflowed_{false}; // the queue limit was hit: the connection is closing
    std::atomic<int64_t> lastActivityTicks_;       // steady_clock ticks
    std::atomic<int64_t> partialSinceTicks_{0};    // steady_clock ticks; 0: at a frame boundary
    std::atomic<int64_t> lastDrainTicks_;          // when a queued write last completed
    std::atomic<uint64_t> framesReceived_{0};

    // Set once the transport is known to be plaintext: frames may be written by their callers.
    std::atomic<bool> directWrites_{false};
    mutable std::mutex writeMutex_;
    std::deque<Outgoing> writeQueue_; // guarded by writeMutex_; its front is being written while writing_
    bool writing_ = false;            // guarded by writeMutex_; set whenever writeQueue_ is not empty
    // Strand only.
    std::string closeWhenWritten_; // non-empty: close with this reason once the queue is written
    std::shared_ptr<TlsServerContext> tlsServer_; // set: the first byte decides
    std::unique_ptr<TlsEngine> tls_;
    std::vector<uint8_t> plain_; // decrypted bytes of the last read
    bool plaintextRefused_ = false;
    bool refusing_ = false; // plaintext requests are being answered with the refusal until closed
    std::atomic<bool> tlsActive_{false};

    mutable std::mutex pendingMutex_;
    std::unordered_map<int32_t, Pending> pending_; // guarded by pendingMutex_
    bool pendingClosed_ = false;                    // guarded by pendingMutex_
    std::string closeReason_; // guarded by pendingMutex_: why closeNow() closed it, for later callers
    std::atomic<uint32_t> opaqueCounter_{0};
};

// "host:port" of an endpoint; IPv6 hosts in brackets.
std::string endpointText(const asio::ip::tcp::endpoint &endpoint);

} // namespace mqdesk::remoting
