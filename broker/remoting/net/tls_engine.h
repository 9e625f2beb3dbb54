#pragma once

// TlsEngine: one TLS connection's state on OpenSSL memory buffers, with no socket of its own, so
// that the remoting connections (Asio, completion-based) and the gRPC guard's relay
// (readiness-based) put the same TLS between their sockets and their frames. The owner reads
// ciphertext from its socket into receive(), hands plaintext to send(), and writes whatever
// takeOutput() gives back, in that order; nothing is written by the engine itself.
//
// Plaintext sent before the handshake completes is held and encrypted once it has.
//
// Threading: none; the owner serialises every call (its strand or io thread).

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

struct ssl_ctx_st;
struct ssl_st;

namespace mqdesk::remoting {

class TlsEngine
{
public:
    enum class Role { Server, Client };

    // A client sends its hello at once: takeOutput() has it after construction. `endpoint`
    // ("host:port") names the server: its host is sent as SNI unless it is an address, it is what
    // a TlsCertificatePin keys the server's certificate by, and a context that verifies checks the
    // certificate names that host.
    TlsEngine(std::shared_ptr<ssl_ctx_st> context, Role role, const std::string &endpoint = {});
    ~TlsEngine();
    TlsEngine(const TlsEngine &) = delete;
    TlsEngine &operator=(const TlsEngine &) = delete;

    // Ciphertext from the peer; the plaintext it completes is appended to `plain`. False on a
    // TLS failure (a bad handshake, a forged record): error() says what, and the connection
    // must close once the output (an alert) went out.
    bool receive(std::span<const uint8_t> cipher, std::vector<uint8_t> &plain);
    // Plaintext for the peer (held until the handshake completed). False once failed.
    bool send(std::span<const uint8_t> plain);
    // Moves the ciphertext made so far to the end of `out`.
    void takeOutput(std::vector<uint8_t> &out);
    size_t pendingOutput() const;

    bool established() const { return established_; }
    bool peerClosed() const { return peerClosed_; } // the peer sent close_notify
    const std::string &error() const { return error_; }
    std::string protocol() const; // "TLSv1.3"
    std::string alpn() const;     // "h2", or empty

private:
    bool handshake();
    bool flushHeld();
    bool fail(int result, const char *during);

    std::shared_ptr<ssl_ctx_st> context_; // kept alive while the connection lives
    ssl_st *ssl_ = nullptr;
    std::string endpoint_;      // SSL_get_app_data points here (the pin's verify callback)
    std::vector<uint8_t> held_; // plaintext sent before the handshake completed
    bool established_ = false;
    bool peerClosed_ = false;
    std::string error_;
};

} // namespace mqdesk::remoting
