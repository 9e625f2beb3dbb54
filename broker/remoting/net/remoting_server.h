#pragma once

// RemotingServer: accepts RocketMQ remoting connections and hands every request to the
// processor registered for its code (remoting spec §1, §2, §9). Asio io threads only read,
// decode and write; processors run on their executors (DESIGN.md, Threads), so a held pull
// or a slow disk never blocks a socket. Responses may be written in any order; each
// connection's writes go out in the order they were queued.

#include "broker/remoting/net/processor_executor.h"
#include "broker/remoting/net/remoting_channel.h"
#include "broker/remoting/remoting_codec.h"
#include "broker/remoting/net/remoting_dispatcher.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace mqdesk::remoting {

class TlsServerContext;

struct RemotingServerOptions
{
    std::string host = "0.0.0.0";
    uint16_t port = 0; // 0 picks a free port; see localPort()
    // A second port serving the same processors on the same connections' terms: the broker's
    // fast ("VIP") channel, Java's fastRemotingServer, which clients and tools reach at their
    // broker address's port − 2 (their sendMessageWithVIPChannel / isVIPChannel, default on).
    // `fastPort` 0 means port − 2; with port 0 a free port is chosen whose port − 2 is free too.
    bool fastListener = false;
    uint16_t fastPort = 0;
    size_t ioThreads = 1;
    size_t maxFrameSize = kDefaultMaxFrameSize; // a larger frame closes the connection
    std::string name = "remoting"; // prefixes io thread names and log lines
    // What connections may hold queued for peers that do not read (remoting_connection.h's
    // MemoryBudget; 0: no limit). Above `writeBufferHighWaterMark` a connection's notifications
    // (sendDroppable) are dropped; with `maxQueuedWriteBytes` queued a connection is closed
    // (generous: a busy consumer's pull responses stay far below it); while all connections
    // together hold more than `maxTotalQueuedWriteBytes`, notifications are dropped everywhere
    // and a connection above its high water mark that drained nothing for a second is closed at
    // its next send.
    size_t writeBufferHighWaterMark = 1024 * 1024;
    size_t maxQueuedWriteBytes = 64 * 1024 * 1024;
    size_t maxTotalQueuedWriteBytes = 64 * 1024 * 1024;
    // SO_SNDBUF / SO_RCVBUF of accepted sockets (Java's serverSocketSndBufSize /
    // serverSocketRcvBufSize); 0: the kernel's autotuned default.
    // Bytes of frames still arriving, all connections together; a read past it closes its
    // connection (a frame may be up to maxFrameSize; the frame deadline bounds how long). 0: none.
    size_t maxTotalPartialFrameBytes = 128 * 1024 * 1024;
    int socketSendBufferSize = 0;
    int socketReceiveBufferSize = 0;
    // A connection whose peer completed no frame for this long is closed, as the Java broker's
    // serverChannelMaxIdleTimeSeconds (120) does (counting frames, not bytes); clients heartbeat
    // every 30 s. 0: never.
    std::chrono::milliseconds maxIdle{120'000};
    // A frame must arrive whole within this long once its first byte came; else the connection
    // is closed (a peer sending a frame a byte at a time holds its buffer no longer). 0: never.
    std::chrono::milliseconds frameTimeout{30'000};
    // Connections open at once (also processConnectionLimit(), shared by every server of the
    // process). When the limit is reached, a new connection takes the place of the idlest one —
    // a connection that never completed a frame first, then the one silent longest, if silent
    // for 200 ms or more — else it is closed at once, with a rate-limited warning. 0: no limit
    // (accept() failing with EMFILE then pauses accepting for 100 ms instead of spinning).
    size_t maxConnections = 10000;
    // Connections from one source address (0: no limit of its own). At it, a new connection from
    // that address takes the place of its idlest one (as above), else is closed at once.
    size_t maxConnectionsPerAddress = 0;
    // TLS on this server's ports (tls_context.h): null, plaintext only.
    std::shared_ptr<TlsServerContext> tls = nullptr;
};

class RemotingServer
{
public:
    // Client connections every server of this process may hold together (0: no limit): set from
    // the descriptor limit, so that sockets never starve the store of files (descriptors.h).
    static void setProcessConnectionLimit(size_t limit);
    static size_t processConnectionLimit();
    static size_t processConnections();

    // Called on an io thread; must be quick and must not block.
    using ConnectionListener = std::function<void(const RequestContext &connection)>;

    explicit RemotingServer(RemotingServerOptions options = {});
    // Stops. Executors registered with the server must still be alive here, and should be
    // shut down by their owner after the server is gone.
    ~RemotingServer();

    RemotingServer(const RemotingServer &) = delete;
    RemotingServer &operator=(const RemotingServer &) = delete;

    // Registration is thread-safe but meant for before start(). A code registered twice keeps
    // the last processor. `executor` must outlive the server.
    void registerProcessor(int32_t code, Processor processor, Executor &executor);
    // For every code without a processor. Without one, such requests are answered
    // REQUEST_CODE_NOT_SUPPORTED, remark " request type <code> not supported".
    void setDefaultProcessor(Processor processor, Executor &executor);
    // Runs before every processor (remoting_dispatcher.h); set before start().
    void setRequestFilter(RequestFilter filter);
    // Set before start(). Close listeners run once per connection, whatever closed it.
    void setConnectionOpenListener(ConnectionListener listener);
    void setConnectionCloseListener(ConnectionListener listener);

    // Binds, listens and starts the io threads. False, with `error` naming the address and the
    // cause, when the address cannot be bound. Call once.
    bool start(std::string *error = nullptr);
    // Stops accepting, closes every connection (their pending server-initiated requests fail
    // with ConnectionClosed) and joins the io threads. Idempotent. Responders called later
    // do nothing.
    void stop();

    // Hands a request from an in-process channel (not a socket) to its processor, as if it had
    // arrived on a connection, without the request filter: the caller authenticated it. The
    // response goes to `channel`'s sendResponse.
    void dispatchLocal(const std::shared_ptr<RemotingChannel> &channel, RemotingCommand request);

    bool isRunning() const;
    // The bound port (the chosen one when options.port was 0); 0 before start().
    uint16_t localPort() const;
    // The fast listener's port; 0 without one or before start().
    uint16_t fastPort() const;
    size_t connectionCount() const;
    // accept() calls that failed (EMFILE and the like) since start: a pause between retries keeps
    // this small where a spinning loop would count millions.
    uint64_t acceptFailures() const;
    // Pauses taken after accept() failed for want of descriptors or memory: one per such failure
    // (accepting again at once would fail again at once).
    uint64_t acceptPauses() const;
    // The write budget's figures: bytes queued for peers now, notifications dropped and
    // connections closed for not reading since start.
    size_t queuedWriteBytes() const;
    uint64_t droppedNotifications() const;
    uint64_t connectionsClosedForBacklog() const;
    // Connections closed because half-received frames of all held too much.
    uint64_t connectionsClosedForPartialFrames() const;
    // Connections closed to make room for a new one at the limit, and new ones refused there.
    uint64_t connectionsShed() const;
    uint64_t connectionsRefused() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace mqdesk::remoting
