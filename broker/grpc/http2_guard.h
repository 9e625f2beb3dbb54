#pragma once

// Http2Guard: the gRPC port's listener. It accepts each connection itself, relays its bytes to
// grpc++ over a socket pair (grpc::AddInsecureChannelFromFd) and reads what the client sends on
// the way (http2_inspector.h), so that a client attacking the HTTP/2 layer — rapid reset,
// CONTINUATION or ping floods, a frame that never ends — is closed before grpc++ buffers or
// works on it, and connections are bounded in total, per source address and against the
// process's descriptors (docs/grpc-http2-guard.md has the decision and its figures).
//
// What it bounds, before any authentication:
//   - connections: at `maxConnections` (or `maxConnectionsPerAddress` from one address, or the
//     process's descriptor budget) a new one takes the place of the idlest — one that never sent
//     a whole frame first, then the one silent longest, if silent for 200 ms — else is closed;
//   - time: the preface and every frame must arrive whole within `frameTimeout`;
//   - memory: at most one read (64 KiB) waits per direction; a client that does not read stops
//     the relay from grpc++, whose flow control then holds its writes;
//   - frames: what Http2Inspector refuses.
//
// TLS is terminated here too (Http2GuardOptions::tls), so the inspector reads plaintext frames.
//
// Threads: one io thread relays every connection. start()/stop() from one owner thread;
// stats() and peerOf() from any.

#include "broker/grpc/http2_inspector.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace mqdesk::remoting {
class TlsServerContext;
}

namespace mqdesk::grpc {

struct Http2GuardOptions
{
    std::string bindAddress = "127.0.0.1";
    uint16_t port = 0; // 0 picks a free port
    size_t maxConnections = 10000;
    size_t maxConnectionsPerAddress = 0; // 0: no limit of its own
    std::chrono::milliseconds frameTimeout{30'000};
    Http2Limits limits;
    // TLS (remoting/net/tls_context.h, with ALPN h2): a connection whose first byte starts a
    // handshake is decrypted here and relayed to grpc++ as plaintext, then inspected as any
    // other; its mode refuses TLS or plaintext. Null: plaintext only.
    std::shared_ptr<remoting::TlsServerContext> tls = nullptr;
};

struct Http2GuardStats
{
    uint64_t connections = 0;         // open now
    uint64_t accepted = 0;            // since start
    uint64_t shed = 0;                // closed for a new connection at a limit
    uint64_t refused = 0;             // closed at once: at a limit, every one active
    uint64_t closedForFrames = 0;     // closed by the inspector (floods, oversized header blocks)
    uint64_t closedForFrameTimeout = 0;
    uint64_t tlsAccepted = 0;  // connections that started a TLS handshake
    uint64_t tlsRefused = 0;   // closed: TLS where it is off, plaintext where it is enforced
    uint64_t tlsFailed = 0;    // closed: a handshake or record that failed
};

class Http2Guard
{
public:
    // Hands grpc++ its end of a connection's socket pair (it owns the descriptor from then on).
    using Handoff = std::function<void(int descriptor)>;

    Http2Guard(Http2GuardOptions options, Handoff handoff);
    ~Http2Guard();
    Http2Guard(const Http2Guard &) = delete;
    Http2Guard &operator=(const Http2Guard &) = delete;

    // Binds and starts relaying. False with `error` naming the address when it cannot bind.
    bool start(std::string &error);
    // Closes the listener; open connections go on (grpc++ can then end their calls cleanly
    // with a GOAWAY). Idempotent.
    void stopAccepting();
    // Closes the listener and every connection, joins the io thread. Idempotent.
    void stop();

    uint16_t port() const;
    Http2GuardStats stats() const;

    // The client address ("127.0.0.1:53412") of the connection whose grpc++ side is the
    // descriptor in `grpcPeer` ("fd:17", what grpc++ names such a peer); `grpcPeer` itself when
    // it names none of this process's guarded connections.
    static std::string peerOf(const std::string &grpcPeer);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace mqdesk::grpc
