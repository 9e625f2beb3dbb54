#include "broker/grpc/http2_guard.h"

#include "broker/common/descriptors.h"
#include "broker/common/log_rate_limiter.h"
#include "broker/remoting/net/tls_context.h"
#include "broker/remoting/net/tls_engine.h"

#include <asio.hpp>
#include <spdlog/spdlog.h>
#include <malloc.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <thread>
#include <unordered_map>
#include <vector>

namespace mqdesk::grpc {

namespace {

using Clock = std::chrono::steady_clock;

// A connection may be shed for a new one once silent this long (as the remoting server's).
constexpr auto kShedAfter = std::chrono::milliseconds(200);
constexpr auto kSweepPeriod = std::chrono::milliseconds(250);
// Descriptors a guarded connection holds: the client's socket and both ends of the pair.
constexpr uint64_t kDescriptorsPerConnection = 3;
constexpr size_t kReadSize = 64 * 1024;
constexpr size_t kTrimAfterClosed = 64;

// grpc++ names a connection added from a descriptor "fd:<n>"; the guard knows whose it is.
struct PeerEntry
{
    uint64_t link;
    std::string peer;
};
std::mutex peersMutex;
std::unordered_map<int, PeerEntry> peersByDescriptor; // guarded by peersMutex

std::string endpointText(const asio::ip::tcp::endpoint &endpoint)
{
    const asio::ip::address address = endpoint.address();
    const std::string host = address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
    return host + ":" + std::to_string(endpoint.port());
}

} // namespace

struct Http2Guard::Impl
{
    struct Link;

    Impl(Http2GuardOptions opts, Handoff give)
        : options(std::move(opts))
        , shared(options.limits)
        , handoff(std::move(give))
        , acceptor(io)
        , acceptPause(io)
        , sweepTimer(io)
    {
        shared.closeBiggestHolder = [this](const Http2Inspector &asker) { return closeBiggestHolder(asker); };
    }

    void accept();
    void onAccepted(asio::ip::tcp::socket socket);
    bool makeRoom(const std::string &address, const std::string &peer);
    std::shared_ptr<Link> idlest(const std::string *address) const;
    void close(const std::shared_ptr<Link> &link, const char *why);
    void sweep();
    bool chooseTransport(Link &link, uint8_t firstByte);
    void returnMemoryAfterAttack(Clock::time_point now);
    bool closeBiggestHolder(const Http2Inspector &asker);

    Http2GuardOptions options;
    Http2SharedBudget shared; // before io: links its handlers hold give their streams back to it
    Handoff handoff;
    asio::io_context io;
    asio::ip::tcp::acceptor acceptor;
    asio::steady_timer acceptPause;
    asio::steady_timer sweepTimer;
    std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work;
    std::thread thread;
    uint16_t boundPort = 0;
    std::array<uint8_t, kReadSize> scratch{}; // the io thread's one read buffer

    // The io thread's own: links by id, and how many each source address holds.
    std::map<uint64_t, std::shared_ptr<Link>> links;
    std::unordered_map<std::string, size_t> perAddress;
    uint64_t nextId = 1;

    // After connections holding grpc++ streams closed (an attack cut, a crowd gone), the heap
    // grpc++ freed goes back to the system once it is quiet: glibc keeps it otherwise.
    bool trimWanted = false;
    int trimsDone = 0;
    Clock::time_point lastClose;
    size_t closedSinceTrim = 0;

    std::atomic<uint64_t> open{0}, accepted{0}, shed{0}, refused{0}, closedForFrames{0}, closedForFrameTimeout{0};
    std::atomic<uint64_t> tlsAccepted{0}, tlsRefused{0}, tlsFailed{0};
    common::LogRateLimiter tlsLog{std::chrono::seconds(10)};
    common::LogRateLimiter limitLog{std::chrono::seconds(10)};
    common::LogRateLimiter frameLog{std::chrono::seconds(10)};
};

// One client connection and its relay to grpc++.
struct Http2Guard::Impl::Link : std::enable_shared_from_this<Link>
{
    Link(Impl &owner, uint64_t linkId, asio::ip::tcp::socket socket, std::string from, std::string fromAddress)
        : guard(owner)
        , id(linkId)
        , peer(std::move(from))
        , address(std::move(fromAddress))
        , client(std::move(socket))
        , grpcSide(owner.io)
        , inspector(owner.options.limits, owner.shared)
        , lastFrameAt(Clock::now())
    {
    }

    // grpc++ speaks first (its SETTINGS), but nothing may reach the client before its first
    // byte said whether the connection is TLS: grpc++ is read from then on.
    void start()
    {
        readClient();
    }

    // Client → grpc++, inspected on the way.
    void readClient()
    {
        client.async_wait(asio::socket_base::wait_read, [self = shared_from_this()](std::error_code ec) {
            self->onClientReadable(ec);
        });
    }

    void onClientReadable(std::error_code ec)
    {
        if (closed)
            return;
        size_t n = ec ? 0 : client.read_some(asio::buffer(guard.scratch), ec);
        if (ec == asio::error::would_block)
            return readClient();
        if (ec || n == 0)
            return guard.close(shared_from_this(), ec ? "client read error" : "client end");
        std::span<const uint8_t> bytes(guard.scratch.data(), n);
        if (!transportChosen) {
            transportChosen = true;
            if (!guard.chooseTransport(*this, bytes[0]))
                return guard.close(shared_from_this(), "tls mode");
            readGrpc();
        }
        if (tls && !decrypt(bytes))
            return;
        if (bytes.empty())
            return readClient();
        const uint64_t framesBefore = inspector.frames();
        if (!inspector.feed(bytes)) {
            guard.closedForFrames.fetch_add(1, std::memory_order_relaxed);
            if (const auto suppressed = guard.frameLog.admit())
                spdlog::warn("grpc: closing the connection from {}: {} ({} similar not logged)", peer,
                             inspector.reason(), *suppressed);
            return guard.close(shared_from_this(), "frames");
        }
        if (inspector.frames() != framesBefore)
            lastFrameAt = Clock::now();
        forward(grpcSide, bytes, toGrpc, [self = shared_from_this()] { self->readClient(); });
    }

    // Ciphertext in, plaintext out (`bytes` then points into `plain`); false when closed.
    bool decrypt(std::span<const uint8_t> &bytes)
    {
        plain.clear();
        const bool ok = tls->receive(bytes, plain);
        std::vector<uint8_t> out;
        tls->takeOutput(out);
        if (!out.empty())
            sendToClient(out, {});
        if (closed)
            return false;
        if (!ok) {
            guard.tlsFailed.fetch_add(1, std::memory_order_relaxed);
            if (const auto suppressed = guard.tlsLog.admit())
                spdlog::warn("grpc: closing the connection from {}: {} ({} similar not logged)", peer, tls->error(),
                             *suppressed);
            guard.close(shared_from_this(), "tls");
            return false;
        }
        if (tls->peerClosed()) {
            guard.close(shared_from_this(), "client end (TLS close_notify)");
            return false;
        }
        bytes = plain;
        return true;
    }

    // grpc++ → client, as it comes.
    void readGrpc()
    {
        grpcSide.async_wait(asio::socket_base::wait_read, [self = shared_from_this()](std::error_code ec) {
            self->onGrpcReadable(ec);
        });
    }

    void onGrpcReadable(std::error_code ec)
    {
        if (closed)
            return;
        size_t n = ec ? 0 : grpcSide.read_some(asio::buffer(guard.scratch), ec);
        if (ec == asio::error::would_block)
            return readGrpc();
        if (ec || n == 0)
            return guard.close(shared_from_this(), ec ? "grpc read error" : "grpc end");
        const std::span<const uint8_t> bytes(guard.scratch.data(), n);
        inspector.feedFromServer(bytes);
        auto next = [self = shared_from_this()] { self->readGrpc(); };
        if (!tls)
            return sendToClient(bytes, std::move(next));
        std::vector<uint8_t> out;
        if (!tls->send(bytes)) {
            guard.tlsFailed.fetch_add(1, std::memory_order_relaxed);
            return guard.close(shared_from_this(), "tls write");
        }
        tls->takeOutput(out);
        sendToClient(out, std::move(next));
    }

    // Bytes for the client, in the order given: written now if nothing waits before them, else
    // queued behind what does; `next` (may be empty) runs once everything given so far is out.
    void sendToClient(std::span<const uint8_t> bytes, std::function<void()> next)
    {
        if (clientDraining) {
            toClient.insert(toClient.end(), bytes.begin(), bytes.end());
            if (next)
                afterClientDrain.push_back(std::move(next));
            return;
        }
        std::error_code ec;
        const size_t written = bytes.empty() ? 0 : client.write_some(asio::buffer(bytes.data(), bytes.size()), ec);
        if (ec && ec != asio::error::would_block)
            return guard.close(shared_from_this(), "write error");
        const size_t done = ec ? 0 : written;
        if (done == bytes.size()) {
            if (next)
                next();
            return;
        }
        toClient.assign(bytes.begin() + static_cast<std::ptrdiff_t>(done), bytes.end());
        clientDraining = true;
        if (next)
            afterClientDrain.push_back(std::move(next));
        drainClient();
    }

    void drainClient()
    {
        client.async_wait(asio::socket_base::wait_write, [self = shared_from_this()](std::error_code ec) {
            if (self->closed)
                return;
            size_t written = ec ? 0 : self->client.write_some(asio::buffer(self->toClient), ec);
            if (ec && ec != asio::error::would_block)
                return self->guard.close(self, "drain error");
            self->toClient.erase(self->toClient.begin(),
                                 self->toClient.begin() + static_cast<std::ptrdiff_t>(ec ? 0 : written));
            if (!self->toClient.empty())
                return self->drainClient();
            std::vector<uint8_t>().swap(self->toClient); // an idle connection holds no buffer
            self->clientDraining = false;
            std::vector<std::function<void()>> after;
            after.swap(self->afterClientDrain);
            for (auto &next : after)
                next();
        });
    }

    // Writes what it can now; the rest waits in `pending` (the direction reads no more until it
    // went out), then `next` reads on.
    template<typename Socket>
    void forward(Socket &to, std::span<const uint8_t> bytes, std::vector<uint8_t> &pending, std::function<void()> next)
    {
        std::error_code ec;
        const size_t written = to.write_some(asio::buffer(bytes.data(), bytes.size()), ec);
        if (ec && ec != asio::error::would_block)
            return guard.close(shared_from_this(), "write error");
        const size_t done = ec ? 0 : written;
        if (done == bytes.size())
            return next();
        pending.assign(bytes.begin() + static_cast<std::ptrdiff_t>(done), bytes.end());
        drain(to, pending, std::move(next));
    }

    template<typename Socket>
    void drain(Socket &to, std::vector<uint8_t> &pending, std::function<void()> next)
    {
        to.async_wait(asio::socket_base::wait_write, [self = shared_from_this(), &to, &pending,
                                                      next = std::move(next)](std::error_code ec) mutable {
            if (self->closed)
                return;
            size_t written = ec ? 0 : to.write_some(asio::buffer(pending), ec);
            if (ec && ec != asio::error::would_block)
                return self->guard.close(self, "drain error");
            pending.erase(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(ec ? 0 : written));
            if (!pending.empty())
                return self->drain(to, pending, std::move(next));
            std::vector<uint8_t>().swap(pending); // an idle connection holds no buffer
            next();
        });
    }

    Impl &guard;
    const uint64_t id;
    const std::string peer;    // "127.0.0.1:53412"
    const std::string address; // "127.0.0.1"
    asio::ip::tcp::socket client;
    asio::local::stream_protocol::socket grpcSide;
    int grpcDescriptor = -1; // grpc++'s end, as it names the peer
    Http2Inspector inspector;
    std::vector<uint8_t> toGrpc;
    std::vector<uint8_t> toClient;
    bool clientDraining = false; // toClient is being written; later bytes queue behind it
    std::vector<std::function<void()>> afterClientDrain;
    bool transportChosen = false;
    std::unique_ptr<remoting::TlsEngine> tls; // a TLS connection's engine
    std::vector<uint8_t> plain;               // what the last read decrypted to
    Clock::time_point lastFrameAt;
    bool closed = false;
};

void Http2Guard::Impl::accept()
{
    acceptor.async_accept([this](std::error_code ec, asio::ip::tcp::socket socket) {
        if (ec == asio::error::operation_aborted || !acceptor.is_open())
            return;
        if (ec) {
            // EMFILE and the like: wait rather than spin.
            if (const auto suppressed = limitLog.admit())
                spdlog::warn("grpc: accept failed: {} ({} similar not logged)", ec.message(), *suppressed);
            acceptPause.expires_after(std::chrono::milliseconds(100));
            acceptPause.async_wait([this](std::error_code waitError) {
                if (!waitError && acceptor.is_open())
                    accept();
            });
            return;
        }
        onAccepted(std::move(socket));
        accept();
    });
}

std::shared_ptr<Http2Guard::Impl::Link> Http2Guard::Impl::idlest(const std::string *address) const
{
    const auto now = Clock::now();
    std::shared_ptr<Link> chosen;
    for (const auto &[id, link] : links) {
        if ((address && link->address != *address) || now - link->lastFrameAt < kShedAfter)
            continue;
        const bool spoke = link->inspector.frames() > 0;
        const bool chosenSpoke = chosen && chosen->inspector.frames() > 0;
        if (!chosen || (!spoke && chosenSpoke) || (spoke == chosenSpoke && link->lastFrameAt < chosen->lastFrameAt))
            chosen = link;
    }
    return chosen;
}

// Whether a connection from `address` fits, after shedding the idlest if need be.
bool Http2Guard::Impl::makeRoom(const std::string &address, const std::string &peer)
{
    const auto count = perAddress.find(address);
    const bool addressFull = options.maxConnectionsPerAddress > 0 && count != perAddress.end()
                             && count->second >= options.maxConnectionsPerAddress;
    const bool full = (options.maxConnections > 0 && links.size() >= options.maxConnections)
                      || !common::ProcessConnections::fits(kDescriptorsPerConnection);
    if (!addressFull && !full)
        return true;
    if (const std::shared_ptr<Link> victim = idlest(addressFull ? &address : nullptr)) {
        shed.fetch_add(1, std::memory_order_relaxed);
        if (const auto suppressed = limitLog.admit())
            spdlog::warn("grpc: at the connection limit ({} open, {} from {}); closing the idlest, from {}, for {} ({} "
                         "similar not logged)",
                         links.size(), count == perAddress.end() ? 0 : count->second, address, victim->peer, peer,
                         *suppressed);
        close(victim, "shed");
        return true;
    }
    refused.fetch_add(1, std::memory_order_relaxed);
    if (const auto suppressed = limitLog.admit())
        spdlog::warn("grpc: refusing the connection from {}: {} connections are open ({} from {}), every one active ({} "
                     "similar refusals not logged)",
                     peer, links.size(), count == perAddress.end() ? 0 : count->second, address, *suppressed);
    return false;
}

void Http2Guard::Impl::onAccepted(asio::ip::tcp::socket socket)
{
    std::error_code ec;
    const asio::ip::tcp::endpoint remote = socket.remote_endpoint(ec);
    if (ec)
        return; // gone already
    const std::string peer = endpointText(remote);
    const std::string address = peer.substr(0, peer.rfind(':'));
    if (!makeRoom(address, peer))
        return; // the socket closes here: the client sees a refusal, not a backlog
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, pair) != 0) {
        refused.fetch_add(1, std::memory_order_relaxed);
        if (const auto suppressed = limitLog.admit())
            spdlog::warn("grpc: refusing the connection from {}: socketpair: {} ({} similar not logged)", peer,
                         std::strerror(errno), *suppressed);
        return;
    }
    socket.set_option(asio::ip::tcp::no_delay(true), ec);
    socket.non_blocking(true, ec);
    auto link = std::make_shared<Link>(*this, nextId++, std::move(socket), peer, address);
    link->grpcSide.assign(asio::local::stream_protocol(), pair[0], ec);
    // Asio's own flag, not only the descriptor's: else its read_some and write_some wait (poll)
    // where they should say would_block, and the one io thread stalls on one connection.
    link->grpcSide.non_blocking(true, ec);
    link->grpcDescriptor = pair[1];
    {
        std::lock_guard lock(peersMutex);
        peersByDescriptor[pair[1]] = {link->id, peer};
    }
    links.emplace(link->id, link);
    ++perAddress[address];
    common::ProcessConnections::add(kDescriptorsPerConnection);
    open.fetch_add(1, std::memory_order_relaxed);
    accepted.fetch_add(1, std::memory_order_relaxed);
    handoff(pair[1]);
    link->start();
}

bool Http2Guard::Impl::chooseTransport(Link &link, uint8_t firstByte)
{
    using remoting::TlsMode;
    const TlsMode mode = options.tls ? options.tls->mode() : TlsMode::Disabled;
    const char *refusal = nullptr;
    if (remoting::startsTlsHandshake(firstByte)) {
        if (mode == TlsMode::Disabled)
            refusal = "the client starts a TLS handshake, but this endpoint's TLS is off (tls.server.mode=disabled)";
        else if (std::shared_ptr<ssl_ctx_st> context = options.tls->current()) {
            link.tls = std::make_unique<remoting::TlsEngine>(std::move(context), remoting::TlsEngine::Role::Server);
            tlsAccepted.fetch_add(1, std::memory_order_relaxed);
        } else {
            refusal = "the client starts a TLS handshake, but this endpoint's certificate could not be loaded";
        }
    } else if (mode == TlsMode::Enforcing) {
        refusal = "a plaintext client, and this endpoint accepts TLS only (tls.server.mode=enforcing)";
    }
    if (!refusal)
        return true;
    tlsRefused.fetch_add(1, std::memory_order_relaxed);
    if (const auto suppressed = tlsLog.admit())
        spdlog::warn("grpc: closing the connection from {}: {} ({} similar not logged)", link.peer, refusal,
                     *suppressed);
    return false;
}

void Http2Guard::Impl::close(const std::shared_ptr<Link> &link, const char *why)
{
    if (link->closed)
        return;
    link->closed = true;
    if (why)
        spdlog::debug("grpc: connection from {} closed ({})", link->peer, why);
    lastClose = Clock::now();
    if (link->inspector.openStreams() > 0 || ++closedSinceTrim >= kTrimAfterClosed || !link->inspector.reason().empty()) {
        trimWanted = true;
        trimsDone = 0;
    }
    std::error_code ignored;
    link->client.close(ignored);
    link->grpcSide.close(ignored); // grpc++ reads the end of its side and lets the transport go
    {
        std::lock_guard lock(peersMutex);
        const auto entry = peersByDescriptor.find(link->grpcDescriptor);
        if (entry != peersByDescriptor.end() && entry->second.link == link->id)
            peersByDescriptor.erase(entry);
    }
    if (links.erase(link->id) > 0) {
        if (auto count = perAddress.find(link->address); count != perAddress.end() && --count->second == 0)
            perAddress.erase(count);
        common::ProcessConnections::remove(kDescriptorsPerConnection);
        open.fetch_sub(1, std::memory_order_relaxed);
    }
}

void Http2Guard::Impl::sweep()
{
    sweepTimer.expires_after(kSweepPeriod);
    sweepTimer.async_wait([this](std::error_code ec) {
        if (ec)
            return;
        const auto now = Clock::now();
        shared.expire(now);
        returnMemoryAfterAttack(now);
        if (options.frameTimeout.count() > 0) {
            std::vector<std::shared_ptr<Link>> late;
            for (const auto &[id, link] : links)
                if ((link->inspector.midFrame() || (link->tls && !link->tls->established()))
                    && now - link->lastFrameAt > options.frameTimeout)
                    late.push_back(link);
            for (const auto &link : late) {
                closedForFrameTimeout.fetch_add(1, std::memory_order_relaxed);
                if (const auto suppressed = frameLog.admit())
                    spdlog::warn("grpc: closing the connection from {}: a frame did not arrive whole within {} ms ({} "
                                 "similar not logged)",
                                 link->peer, options.frameTimeout.count(), *suppressed);
                close(link, "frame deadline");
            }
        }
        sweep();
    });
}

// All connections together hold the most streams they may: the one holding the most goes, and
// a client holding a few (under an eighth of a connection's limit) opens its stream anyway — a
// flood, or the streams of connections it just closed, do not cut it off.
bool Http2Guard::Impl::closeBiggestHolder(const Http2Inspector &asker)
{
    std::shared_ptr<Link> biggest;
    for (const auto &[id, link] : links)
        if (!biggest || link->inspector.openStreams() > biggest->inspector.openStreams())
            biggest = link;
    const bool askerIsModest = asker.openStreams() < std::max<size_t>(8, options.limits.maxOpenStreams / 8);
    if (!biggest || &biggest->inspector == &asker || biggest->inspector.openStreams() <= asker.openStreams())
        return askerIsModest;
    closedForFrames.fetch_add(1, std::memory_order_relaxed);
    if (const auto suppressed = frameLog.admit())
        spdlog::warn("grpc: closing the connection from {}: the most streams open ({}) when all connections together "
                     "held {} ({} similar not logged)",
                     biggest->peer, biggest->inspector.openStreams(), shared.maxOpenStreams, *suppressed);
    close(biggest, "most streams");
    return true;
}

// grpc++ frees a closed connection's streams on its own threads, some time after the close: trim
// once the closing stopped for a second, and again four seconds later.
void Http2Guard::Impl::returnMemoryAfterAttack(Clock::time_point now)
{
    if (!trimWanted || now - lastClose < std::chrono::seconds(trimsDone == 0 ? 1 : 5))
        return;
    ::malloc_trim(0);
    closedSinceTrim = 0;
    if (++trimsDone == 2)
        trimWanted = false;
}

Http2Guard::Http2Guard(Http2GuardOptions options, Handoff handoff)
    : impl_(std::make_unique<Impl>(std::move(options), std::move(handoff)))
{
}

Http2Guard::~Http2Guard()
{
    stop();
}

bool Http2Guard::start(std::string &error)
{
    Impl &d = *impl_;
    std::error_code ec;
    const asio::ip::address address = asio::ip::make_address(d.options.bindAddress, ec);
    if (!ec) {
        const asio::ip::tcp::endpoint endpoint(address, d.options.port);
        d.acceptor.open(endpoint.protocol(), ec);
        if (!ec)
            d.acceptor.set_option(asio::socket_base::reuse_address(true), ec);
        if (!ec)
            d.acceptor.bind(endpoint, ec);
        if (!ec)
            d.acceptor.listen(asio::socket_base::max_listen_connections, ec);
    }
    if (ec) {
        error = "grpc: cannot listen on " + d.options.bindAddress + ":" + std::to_string(d.options.port) + ": "
                + ec.message() + " (in use, or not an address of this machine); --grpc-port 0 picks a free one";
        std::error_code ignored;
        d.acceptor.close(ignored);
        return false;
    }
    d.boundPort = d.acceptor.local_endpoint().port();
    d.work.emplace(d.io.get_executor());
    d.accept();
    d.sweep();
    d.thread = std::thread([&d] {
        pthread_setname_np(pthread_self(), "grpc-guard");
        d.io.run();
    });
    return true;
}

void Http2Guard::stopAccepting()
{
    Impl &d = *impl_;
    if (!d.thread.joinable())
        return;
    std::promise<void> closed;
    asio::post(d.io, [&d, &closed] {
        std::error_code ignored;
        d.acceptor.close(ignored);
        d.acceptPause.cancel();
        closed.set_value();
    });
    closed.get_future().wait();
}

void Http2Guard::stop()
{
    Impl &d = *impl_;
    if (!d.thread.joinable())
        return;
    asio::post(d.io, [&d] {
        std::error_code ignored;
        d.acceptor.close(ignored);
        d.acceptPause.cancel();
        d.sweepTimer.cancel();
        std::vector<std::shared_ptr<Impl::Link>> all;
        for (const auto &[id, link] : d.links)
            all.push_back(link);
        for (const auto &link : all)
            d.close(link, "stopping");
    });
    d.work.reset();
    d.thread.join();
    d.boundPort = 0;
}

uint16_t Http2Guard::port() const
{
    return impl_->boundPort;
}

Http2GuardStats Http2Guard::stats() const
{
    const Impl &d = *impl_;
    Http2GuardStats stats;
    stats.connections = d.open.load(std::memory_order_relaxed);
    stats.accepted = d.accepted.load(std::memory_order_relaxed);
    stats.shed = d.shed.load(std::memory_order_relaxed);
    stats.refused = d.refused.load(std::memory_order_relaxed);
    stats.closedForFrames = d.closedForFrames.load(std::memory_order_relaxed);
    stats.closedForFrameTimeout = d.closedForFrameTimeout.load(std::memory_order_relaxed);
    stats.tlsAccepted = d.tlsAccepted.load(std::memory_order_relaxed);
    stats.tlsRefused = d.tlsRefused.load(std::memory_order_relaxed);
    stats.tlsFailed = d.tlsFailed.load(std::memory_order_relaxed);
    return stats;
}

std::string Http2Guard::peerOf(const std::string &grpcPeer)
{
    if (grpcPeer.rfind("fd:", 0) != 0)
        return grpcPeer;
    int descriptor = -1;
    try {
        descriptor = std::stoi(grpcPeer.substr(3));
    } catch (...) {
        return grpcPeer;
    }
    std::lock_guard lock(peersMutex);
    const auto entry = peersByDescriptor.find(descriptor);
    return entry == peersByDescriptor.end() ? grpcPeer : entry->second.peer;
}

} // namespace mqdesk::grpc
