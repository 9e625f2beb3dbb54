#pragma once

// TLS on the broker's ports, as RocketMQ serves it (docs/tls.md): the settings (Java's keys,
// read from broker.conf or the file `tls.config.file` names), the server's context with its
// certificate, and a client's context.
//
// Java's three modes, for the remoting port and the gRPC endpoint alike: `disabled` (TLS
// refused: a client's handshake closes its connection), `permissive` (the default: TLS and
// plaintext on one port, told apart by the first byte — 0x16 starts a TLS handshake) and
// `enforcing` (plaintext refused).
//
// The certificate: `tls.server.certPath` and `tls.server.keyPath` (PEM; the key may be encrypted
// with `tls.server.keyPassword`) when given; else, in test mode (`tls.test.mode.enable`, default
// true as in Java), a self-signed certificate for localhost made at the first start and kept in
// the store's config folder, so that clients that pin it on first use see the same one after a
// restart (the pair is made when the context is; OpenSSL's context for it is built for the first
// TLS client, as most brokers never see one). Configured files are re-read when they change on disk (checked at most every
// `tls.server.certWatchIntervalMs`), as Java's proxy does; a pair that does not load keeps the
// previous one and is logged.
//
// Threading: a TlsServerContext may be used from any thread.

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

struct ssl_ctx_st; // OpenSSL's SSL_CTX: this header stays free of OpenSSL's

namespace mqdesk::remoting {

enum class TlsMode { Disabled, Permissive, Enforcing };

std::string_view tlsModeName(TlsMode mode);

struct TlsSettings
{
    TlsMode mode = TlsMode::Permissive; // tls.server.mode
    bool testMode = true;               // tls.test.mode.enable: self-signed when no files are given
    std::string certPath;               // tls.server.certPath (PEM chain)
    std::string keyPath;                // tls.server.keyPath (PEM, PKCS#8 or traditional)
    std::string keyPassword;            // tls.server.keyPassword
    std::string needClientAuth = "none"; // tls.server.need.client.auth: none / optional / require
    bool authClient = false;            // tls.server.authClient: verify client certificates
    std::string trustCertPath;          // tls.server.trustCertPath: CAs for client certificates
    std::string configFile;             // tls.config.file: a properties file of the keys above
    std::chrono::milliseconds certWatchInterval{3000}; // tls.server.certWatchIntervalMs
    bool clientEnable = false; // tls.enable: this process's own connections (a broker's to its NameServers)

    // Whether `key` is one of the keys above.
    static bool isKey(std::string_view key);
    // Applies the keys above found in `properties` (others are left alone), then those of the
    // file `tls.config.file` names that broker.conf did not set. Error names the key or file.
    std::string apply(const std::map<std::string, std::string> &properties);
    // "key=value" lines of the effective settings, the password shown as "***".
    std::vector<std::pair<std::string, std::string>> toProperties() const;
};

class TlsServerContext
{
public:
    // Builds the context of `settings` (null with `error` when its files do not load). The
    // self-signed pair lives in `selfSignedDir` (made when missing; empty: kept in memory only).
    // `alpn`: protocols offered to clients that ask ({"h2"} for gRPC), in preference order.
    static std::shared_ptr<TlsServerContext> create(const TlsSettings &settings, const std::string &selfSignedDir,
                                                    std::vector<std::string> alpn, std::string &error);
    ~TlsServerContext();

    TlsMode mode() const { return settings_.mode; }
    // The context for a new connection: the newest certificate (files re-read when changed);
    // null when a self-signed one could not be built (logged).
    std::shared_ptr<ssl_ctx_st> current();
    // For the log: where the certificate comes from, its subject and expiry.
    std::string describe() const;

private:
    TlsServerContext(TlsSettings settings, std::string selfSignedDir, std::vector<std::string> alpn);
    std::shared_ptr<ssl_ctx_st> build(std::string &error);
    bool filesChanged();

    const TlsSettings settings_;
    const std::string selfSignedDir_;
    const std::vector<std::string> alpn_;
    std::string wireAlpn_; // alpn_ in the wire format ALPN selection reads
    mutable std::mutex mutex_;
    std::shared_ptr<ssl_ctx_st> context_;                     // guarded by mutex_
    std::string description_;                                  // guarded by mutex_
    std::chrono::steady_clock::time_point nextCheck_;          // guarded by mutex_
    std::string fileStamp_;                                    // guarded by mutex_
};

// Trust on first use, as ssh does with host keys: per server ("host:port"), the SHA-256
// fingerprint ("SHA256:AB:CD:…") of the certificate a client accepted first; a server that later
// shows another one is refused (its handshake fails, "certificate rejected"). Each server of a
// cluster (NameServers, brokers) has its own. Thread-safe.
class TlsCertificatePin
{
public:
    // `trusted`: what toText() gave before ("host:port=SHA256:…;…"; empty: nothing yet).
    // `onFirstUse(endpoint, fingerprint)` is called, on the connecting thread, for each server
    // trusted the first time.
    using FirstUse = std::function<void(const std::string &endpoint, const std::string &fingerprint)>;
    explicit TlsCertificatePin(const std::string &trusted = {}, FirstUse onFirstUse = {});
    std::string toText() const;
    std::string trusted(const std::string &endpoint) const; // empty: none yet
    std::string lastRefused() const; // "host:port SHA256:…" of the last refusal; empty when none
    // Whether `fingerprint` is `endpoint`'s trusted one (or becomes it).
    bool accept(const std::string &endpoint, const std::string &fingerprint);

private:
    mutable std::mutex mutex_;
    std::map<std::string, std::string> trusted_; // endpoint -> fingerprint
    std::string lastRefused_;
    FirstUse onFirstUse_;
};

// A client's side: Java's defaults (tls.client.authServer=false: any server certificate is
// accepted) unless `verifyServer`, with `trustCertPath` (PEM CAs; empty: the system's), or
// `pin` (then only its certificate). `alpn`: protocols to offer ({"h2"} for gRPC). Null with
// `error` when a file does not load.
std::shared_ptr<ssl_ctx_st> makeTlsClientContext(bool verifyServer, const std::string &trustCertPath,
                                                 const std::vector<std::string> &alpn, std::string &error,
                                                 std::shared_ptr<TlsCertificatePin> pin = nullptr);

// A client's context that verifies against no CA at all: every handshake fails. What a client
// uses when the CAs it was told to trust do not load (never a fallback to weaker trust).
std::shared_ptr<ssl_ctx_st> makeTlsClientContextTrustingNothing();

// Whether a connection's first byte starts a TLS record of a handshake (a ClientHello).
constexpr bool startsTlsHandshake(unsigned char firstByte)
{
    return firstByte == 0x16;
}

} // namespace mqdesk::remoting
