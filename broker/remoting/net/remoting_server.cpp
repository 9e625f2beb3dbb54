#include "broker/remoting/net/remoting_server.h"

#include "broker/common/descriptors.h"
#include "broker/common/log_rate_limiter.h"
#include "broker/remoting/net/io_threads.h"
#include "broker/remoting/net/remoting_connection.h"
#include "broker/remoting/net/remoting_dispatcher.h"

#include <spdlog/spdlog.h>

#include <malloc.h>

#include <atomic>
#include <cerrno>
#include <optional>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace mqdesk::remoting {

struct RemotingServer::Impl
{
    // One listening socket; its handlers run on its own strand.
    struct Listener
    {
        explicit Listener(asio::io_context &context)
            : acceptor(asio::make_strand(context))
            , acceptPause(acceptor.get_executor())
        {}
        asio::ip::tcp::acceptor acceptor;
        asio::steady_timer acceptPause; // on the acceptor's strand
    };

    explicit Impl(RemotingServerOptions opts)
        : options(std::move(opts))
        , writeBudget(std::make_shared<MemoryBudget>())
    {
        writeBudget->highWaterMark = options.writeBufferHighWaterMark;
        writeBudget->maxPerConnection = options.maxQueuedWriteBytes;
        writeBudget->maxTotal = options.maxTotalQueuedWriteBytes;
        writeBudget->maxPartialTotal = options.maxTotalPartialFrameBytes;
    }

    void accept(Listener &listener);
    // Opens, binds and listens on host:port; the bound port, or nullopt with `error` set.
    std::optional<uint16_t> listen(Listener &listener, uint16_t wantedPort, std::string &error);
    bool listenAll(std::string &error);
    void closeListeners();
    void onAccepted(asio::ip::tcp::socket socket);
    std::shared_ptr<Connection> idlest(const std::string *address) const;
    void countIn(const std::shared_ptr<Connection> &connection);
    bool countOut(uint64_t id); // false when it was counted out already
    // Called by the periodic scan (one io thread): trims the heap after a write backlog drained.
    void returnMemoryAfterBurst();
    size_t burstPeak = 0; // the scan's only
    bool makeRoom(const std::string &peer, const std::string &address);
    std::vector<std::shared_ptr<Connection>> snapshot() const;

    const RemotingServerOptions options;
    RequestDispatcher dispatcher;
    ConnectionListener openListener;
    ConnectionListener closeListener;
    IoThreads io; // declared before the listeners, which use its context
    Listener main{*io.context()};
    Listener fast{*io.context()}; // open only with options.fastListener
    common::LogRateLimiter acceptFailureLog{std::chrono::seconds(10)};
    std::atomic<uint64_t> acceptFailures{0};
    std::atomic<uint64_t> acceptPauses{0};
    common::LogRateLimiter refusedConnections{std::chrono::seconds(10)};
    std::atomic<uint64_t> shed{0};
    std::atomic<uint64_t> refused{0};
    std::atomic<uint16_t> port{0};
    std::atomic<uint16_t> fastPort{0};
    std::atomic<bool> started{false};
    std::atomic<bool> stopping{false};
    const std::shared_ptr<MemoryBudget> writeBudget; // shared with every connection

    mutable std::mutex mutex;
    std::unordered_map<uint64_t, std::shared_ptr<Connection>> connections; // guarded by mutex
    std::unordered_map<std::string, size_t> perAddress;                     // guarded by mutex
};

void RemotingServer::Impl::accept(Listener &listener)
{
    listener.acceptor.async_accept(asio::make_strand(*io.context()), [this, &listener](std::error_code ec,
                                                                                       asio::ip::tcp::socket socket) {
        if (stopping || !listener.acceptor.is_open())
            return;
        if (!ec) {
            onAccepted(std::move(socket));
            accept(listener);
            return;
        }
        // Out of descriptors or memory (EMFILE, ENFILE, ENOBUFS, ENOMEM): the waiting
        // connection stays in the backlog, so accepting again at once fails again at once — a
        // loop that burns a core. Pause instead; closing connections frees descriptors meanwhile.
        // Anything else (a peer resetting before accept) is transient.
        // Compared by errno value: asio's system category does not map to std::errc conditions.
        const int code = ec.value();
        const bool exhausted = code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM;
        acceptFailures.fetch_add(1, std::memory_order_relaxed);
        if (const auto suppressed = acceptFailureLog.admit())
            spdlog::warn("remoting server {}: accept failed: {}{} ({} similar failures not logged)", options.name,
                         ec.message(), exhausted ? "; pausing accepts for 100 ms" : "", *suppressed);
        if (!exhausted) {
            accept(listener);
            return;
        }
        acceptPauses.fetch_add(1, std::memory_order_relaxed);
        listener.acceptPause.expires_after(std::chrono::milliseconds(100));
        listener.acceptPause.async_wait([this, &listener](std::error_code waitError) {
            if (!waitError && !stopping && listener.acceptor.is_open())
                accept(listener);
        });
    });
}

namespace {

// A connection may be shed for a new one once silent this long: time enough for a new client's
// first request, not enough for a flood of connections to keep every place taken.
constexpr auto kShedAfter = std::chrono::milliseconds(200);
// A write backlog this large, once drained, is worth returning to the system.
constexpr size_t kTrimAfterBurst = 16 * 1024 * 1024;

} // namespace

void RemotingServer::setProcessConnectionLimit(size_t limit)
{
    common::ProcessConnections::setLimit(limit);
}

size_t RemotingServer::processConnectionLimit()
{
    return common::ProcessConnections::limit();
}

size_t RemotingServer::processConnections()
{
    return common::ProcessConnections::open();
}

void RemotingServer::Impl::returnMemoryAfterBurst()
{
    // Queued bytes are many small blocks; glibc keeps what they freed for the process. Once a
    // burst of them has drained, the free pages go back to the system (malloc_trim also returns
    // free pages inside the heap, not only at its top).
    const size_t total = writeBudget->total.load(std::memory_order_relaxed);
    burstPeak = std::max(burstPeak, total);
    if (burstPeak >= kTrimAfterBurst && total <= burstPeak / 16) {
        burstPeak = 0;
        ::malloc_trim(0);
    }
}

namespace {

// "10.0.0.7" of "10.0.0.7:53412", "[::1]" of "[::1]:53412".
std::string addressOf(const std::string &peer)
{
    return peer.substr(0, peer.rfind(':'));
}

} // namespace

// Requires: mutex held. The connection to close for a new one (from `address` only, when
// given), when one may go.
std::shared_ptr<Connection> RemotingServer::Impl::idlest(const std::string *address) const
{
    const auto now = std::chrono::steady_clock::now();
    std::shared_ptr<Connection> chosen;
    for (const auto &[id, connection] : connections) {
        if (now - connection->lastActivity() < kShedAfter
            || (address && addressOf(connection->peerAddress()) != *address))
            continue;
        if (!chosen || (!connection->hasSpoken() && chosen->hasSpoken())
            || (connection->hasSpoken() == chosen->hasSpoken() && connection->lastActivity() < chosen->lastActivity()))
            chosen = connection;
    }
    return chosen;
}

// Requires: mutex held.
void RemotingServer::Impl::countIn(const std::shared_ptr<Connection> &connection)
{
    connections.emplace(connection->id(), connection);
    ++perAddress[addressOf(connection->peerAddress())];
    common::ProcessConnections::add(1);
}

// Requires: mutex held.
bool RemotingServer::Impl::countOut(uint64_t id)
{
    const auto found = connections.find(id);
    if (found == connections.end())
        return false;
    const auto count = perAddress.find(addressOf(found->second->peerAddress()));
    if (count != perAddress.end() && --count->second == 0)
        perAddress.erase(count);
    connections.erase(found);
    common::ProcessConnections::remove(1);
    return true;
}

// Requires: mutex held. Whether a new connection fits, after shedding the idlest (of its
// address, when that address is at its own limit) if need be.
bool RemotingServer::Impl::makeRoom(const std::string &peer, const std::string &address)
{
    const auto fromAddress = perAddress.find(address);
    const bool addressFull = options.maxConnectionsPerAddress > 0 && fromAddress != perAddress.end()
                             && fromAddress->second >= options.maxConnectionsPerAddress;
    const bool full = addressFull || (options.maxConnections > 0 && connections.size() >= options.maxConnections)
                      || !common::ProcessConnections::fits(1);
    if (!full)
        return true;
    if (const std::shared_ptr<Connection> victim = idlest(addressFull ? &address : nullptr)) {
        shed.fetch_add(1, std::memory_order_relaxed);
        if (const auto suppressed = refusedConnections.admit())
            spdlog::warn("remoting server {}: at its connection limit ({} open here, {} in the process); closing the "
                         "idlest, {} from {}, for {} ({} similar not logged)",
                         options.name, connections.size(), common::ProcessConnections::open(), victim->id(), victim->peerAddress(),
                         peer, *suppressed);
        countOut(victim->id()); // its close handler finds it gone
        victim->close("closed for a new connection at the limit");
        return true;
    }
    refused.fetch_add(1, std::memory_order_relaxed);
    if (const auto suppressed = refusedConnections.admit())
        spdlog::warn("remoting server {}: refusing the connection from {}: {} connections are open here, {} in the "
                     "process, every one active ({} similar refusals not logged)",
                     options.name, peer, connections.size(), common::ProcessConnections::open(), *suppressed);
    return false;
}

void RemotingServer::Impl::onAccepted(asio::ip::tcp::socket socket)
{
    std::error_code ec;
    const asio::ip::tcp::endpoint remote = socket.remote_endpoint(ec);
    const std::string peer = ec ? std::string("unknown peer") : endpointText(remote);
    {
        std::lock_guard lock(mutex);
        if (!makeRoom(peer, addressOf(peer))) {
            socket.close(ec); // closed at once rather than left in the backlog: the client sees a refusal
            return;
        }
    }
    if (options.socketSendBufferSize > 0)
        socket.set_option(asio::socket_base::send_buffer_size(options.socketSendBufferSize), ec);
    if (options.socketReceiveBufferSize > 0)
        socket.set_option(asio::socket_base::receive_buffer_size(options.socketReceiveBufferSize), ec);
    auto connection = std::make_shared<Connection>(io.context(), std::move(socket), peer, "server",
                                                   options.maxFrameSize, writeBudget);
    {
        std::lock_guard lock(mutex);
        if (stopping)
            return; // the socket closes with the connection
        countIn(connection);
    }
    if (options.tls)
        connection->useServerTls(options.tls);
    spdlog::debug("remoting server {}: connection {} from {}", options.name, connection->id(), peer);
    if (openListener)
        openListener(RequestContext(connection));
    connection->start(
        [this](const std::shared_ptr<Connection> &from, RemotingCommand request) {
            dispatcher.dispatch(from, std::move(request));
        },
        [this](const std::shared_ptr<Connection> &closed) {
            {
                std::lock_guard lock(mutex);
                countOut(closed->id()); // a shed one was counted out already
            }
            if (closeListener)
                closeListener(RequestContext(closed));
        });
}

std::vector<std::shared_ptr<Connection>> RemotingServer::Impl::snapshot() const
{
    std::lock_guard lock(mutex);
    std::vector<std::shared_ptr<Connection>> result;
    result.reserve(connections.size());
    for (const auto &[id, connection] : connections)
        result.push_back(connection);
    return result;
}

RemotingServer::RemotingServer(RemotingServerOptions options)
    : impl_(std::make_unique<Impl>(std::move(options)))
{
}

RemotingServer::~RemotingServer()
{
    stop();
}

void RemotingServer::registerProcessor(int32_t code, Processor processor, Executor &executor)
{
    impl_->dispatcher.registerProcessor(code, std::move(processor), executor);
}

void RemotingServer::setRequestFilter(RequestFilter filter)
{
    impl_->dispatcher.setRequestFilter(std::move(filter));
}

void RemotingServer::setDefaultProcessor(Processor processor, Executor &executor)
{
    impl_->dispatcher.setDefaultProcessor(std::move(processor), executor);
}

void RemotingServer::setConnectionOpenListener(ConnectionListener listener)
{
    impl_->openListener = std::move(listener);
}

void RemotingServer::setConnectionCloseListener(ConnectionListener listener)
{
    impl_->closeListener = std::move(listener);
}

std::optional<uint16_t> RemotingServer::Impl::listen(Listener &listener, uint16_t wantedPort, std::string &error)
{
    asio::ip::tcp::acceptor &acceptor = listener.acceptor;
    auto fail = [&](const char *what, const std::error_code &ec) -> std::optional<uint16_t> {
        error = "cannot listen on " + options.host + ":" + std::to_string(wantedPort) + ": " + what + ": " + ec.message();
        std::error_code ignored;
        acceptor.close(ignored);
        return std::nullopt;
    };
    std::error_code ec;
    const asio::ip::address address = asio::ip::make_address(options.host, ec);
    if (ec)
        return fail("bad host", ec);
    const asio::ip::tcp::endpoint endpoint(address, wantedPort);
    if (acceptor.open(endpoint.protocol(), ec); ec)
        return fail("open", ec);
    // A restarted broker must get its port back while old connections sit in TIME_WAIT.
    if (acceptor.set_option(asio::socket_base::reuse_address(true), ec); ec)
        return fail("SO_REUSEADDR", ec);
    if (acceptor.bind(endpoint, ec); ec)
        return fail("bind", ec);
    if (acceptor.listen(asio::socket_base::max_listen_connections, ec); ec)
        return fail("listen", ec);
    return acceptor.local_endpoint(ec).port();
}

bool RemotingServer::Impl::listenAll(std::string &error)
{
    if (!options.fastListener) {
        const auto bound = listen(main, options.port, error);
        port = bound.value_or(0);
        return bound.has_value();
    }
    if (options.port != 0 || options.fastPort != 0) {
        const uint16_t wanted = options.fastPort != 0 ? options.fastPort : options.port - 2;
        if (options.fastPort == 0 && options.port < 3) {
            error = "cannot listen on " + options.host + ":" + std::to_string(options.port)
                    + " with a fast channel at the port − 2: set fastListenPort, or -1 for none";
            return false;
        }
        const auto bound = listen(main, options.port, error);
        if (!bound)
            return false;
        const auto fastBound = listen(fast, wanted, error);
        if (!fastBound) {
            error += " (the fast channel: set fastListenPort, or -1 for none)";
            closeListeners();
            return false;
        }
        port = *bound;
        fastPort = *fastBound;
        return true;
    }
    // A free port whose port − 2 is free too: the kernel picks the first, the second may be taken.
    for (int attempt = 0; attempt < 64; ++attempt) {
        const auto bound = listen(main, 0, error);
        if (!bound)
            return false;
        if (*bound > 1024 + 2) {
            std::string fastError;
            if (const auto fastBound = listen(fast, options.fastPort != 0 ? options.fastPort : *bound - 2, fastError)) {
                port = *bound;
                fastPort = *fastBound;
                return true;
            }
            error = fastError;
        }
        closeListeners();
    }
    error = "cannot find a free port whose port − 2 is free for the fast listener: " + error;
    return false;
}

void RemotingServer::Impl::closeListeners()
{
    std::error_code ignored;
    for (Listener *listener : {&main, &fast}) {
        listener->acceptor.close(ignored);
        listener->acceptPause.cancel();
    }
}

bool RemotingServer::start(std::string *error)
{
    Impl &d = *impl_;
    std::string failure;
    if (d.started.exchange(true))
        failure = "already started";
    else if (d.listenAll(failure))
        failure.clear();
    else if (failure.empty())
        failure = "cannot listen";
    if (!failure.empty() || !d.port) {
        spdlog::error("remoting server {}: {}", d.options.name, failure);
        if (error)
            *error = failure;
        return false;
    }

    d.accept(d.main);
    if (d.fastPort)
        d.accept(d.fast);
    d.io.start(d.options.name, d.options.ioThreads, [&d] {
        d.returnMemoryAfterBurst();
        const auto now = std::chrono::steady_clock::now();
        for (const std::shared_ptr<Connection> &connection : d.snapshot()) {
            connection->expireRequests(now);
            if (d.options.maxIdle.count() > 0 && now - connection->lastActivity() > d.options.maxIdle) {
                spdlog::info("remoting server {}: closing connection {} from {}: no frame for more than {} ms",
                             d.options.name, connection->id(), connection->peerAddress(), d.options.maxIdle.count());
                connection->close("idle");
            } else if (const auto since = connection->partialFrameSince();
                       since && d.options.frameTimeout.count() > 0 && now - *since > d.options.frameTimeout) {
                spdlog::info("remoting server {}: closing connection {} from {}: a frame did not arrive whole "
                             "within {} ms",
                             d.options.name, connection->id(), connection->peerAddress(), d.options.frameTimeout.count());
                connection->close("frame timeout");
            }
        }
    });
    if (d.fastPort) {
        spdlog::info("remoting server {}: listening on {}:{} and, as its fast channel, {}:{}", d.options.name,
                     d.options.host, d.port.load(), d.options.host, d.fastPort.load());
    } else {
        spdlog::info("remoting server {}: listening on {}:{}", d.options.name, d.options.host, d.port.load());
    }
    return true;
}

void RemotingServer::stop()
{
    Impl &d = *impl_;
    if (d.stopping.exchange(true))
        return;
    {
        // Taking the lock orders this against onAccepted: a connection accepted from now on
        // sees `stopping`; every earlier one is in the snapshot below.
        std::lock_guard lock(d.mutex);
    }
    for (Impl::Listener *listener : {&d.main, &d.fast}) {
        asio::post(listener->acceptor.get_executor(), [listener] {
            std::error_code ignored;
            listener->acceptor.close(ignored);
            listener->acceptPause.cancel();
        });
    }
    for (const std::shared_ptr<Connection> &connection : d.snapshot())
        connection->close("server stopping");
    d.io.join();
    std::lock_guard lock(d.mutex);
    common::ProcessConnections::remove(d.connections.size()); // those whose close handler did not run
    d.connections.clear();
    d.perAddress.clear();
    if (d.started)
        spdlog::info("remoting server {}: stopped", d.options.name);
}

void RemotingServer::dispatchLocal(const std::shared_ptr<RemotingChannel> &channel, RemotingCommand request)
{
    impl_->dispatcher.dispatch(channel, std::move(request), false);
}

bool RemotingServer::isRunning() const
{
    return impl_->started && !impl_->stopping;
}

uint16_t RemotingServer::localPort() const
{
    return impl_->port;
}

uint16_t RemotingServer::fastPort() const
{
    return impl_->fastPort;
}

uint64_t RemotingServer::acceptFailures() const
{
    return impl_->acceptFailures.load(std::memory_order_relaxed);
}

uint64_t RemotingServer::acceptPauses() const
{
    return impl_->acceptPauses.load(std::memory_order_relaxed);
}

size_t RemotingServer::queuedWriteBytes() const
{
    return impl_->writeBudget->total.load(std::memory_order_relaxed);
}

uint64_t RemotingServer::droppedNotifications() const
{
    return impl_->writeBudget->dropped.load(std::memory_order_relaxed);
}

uint64_t RemotingServer::connectionsClosedForPartialFrames() const
{
    return impl_->writeBudget->closedForPartial.load(std::memory_order_relaxed);
}

uint64_t RemotingServer::connectionsShed() const
{
    return impl_->shed.load(std::memory_order_relaxed);
}

uint64_t RemotingServer::connectionsRefused() const
{
    return impl_->refused.load(std::memory_order_relaxed);
}

uint64_t RemotingServer::connectionsClosedForBacklog() const
{
    return impl_->writeBudget->closedForBacklog.load(std::memory_order_relaxed);
}

size_t RemotingServer::connectionCount() const
{
    std::lock_guard lock(impl_->mutex);
    return impl_->connections.size();
}

} // namespace mqdesk::remoting
