#include "broker/remoting/net/tls_engine.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>

#include <climits>

namespace mqdesk::remoting {

namespace {

constexpr size_t kPlainChunk = 16 * 1024;

} // namespace

TlsEngine::TlsEngine(std::shared_ptr<ssl_ctx_st> context, Role role, const std::string &endpoint)
    : context_(std::move(context)), endpoint_(endpoint)
{
    ssl_ = context_ ? SSL_new(context_.get()) : nullptr;
    if (!ssl_) {
        error_ = "no TLS context";
        return;
    }
    SSL_set_bio(ssl_, BIO_new(BIO_s_mem()), BIO_new(BIO_s_mem()));
    if (role == Role::Server) {
        SSL_set_accept_state(ssl_);
    } else {
        SSL_set_connect_state(ssl_);
        SSL_set_app_data(ssl_, &endpoint_);
        std::string host = endpoint_.substr(0, endpoint_.rfind(':'));
        if (host.size() > 2 && host.front() == '[' && host.back() == ']')
            host = host.substr(1, host.size() - 2);
        unsigned char address[16];
        const bool isAddress = inet_pton(AF_INET, host.c_str(), address) == 1
                               || inet_pton(AF_INET6, host.c_str(), address) == 1;
        if (!host.empty() && !isAddress)
            SSL_set_tlsext_host_name(ssl_, host.c_str());
        // A context that verifies (a CA given) also checks that the certificate names the host.
        if (!host.empty() && SSL_CTX_get_verify_callback(context_.get()) == nullptr
            && (SSL_CTX_get_verify_mode(context_.get()) & SSL_VERIFY_PEER) != 0) {
            if (isAddress)
                X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl_), host.c_str());
            else
                SSL_set1_host(ssl_, host.c_str());
        }
        handshake(); // the ClientHello
    }
}

TlsEngine::~TlsEngine()
{
    if (ssl_)
        SSL_free(ssl_);
}

bool TlsEngine::fail(int result, const char *during)
{
    const int code = SSL_get_error(ssl_, result);
    if (code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE)
        return true;
    if (code == SSL_ERROR_ZERO_RETURN) {
        peerClosed_ = true;
        return true;
    }
    std::string detail;
    while (const unsigned long e = ERR_get_error()) {
        char buffer[256];
        ERR_error_string_n(e, buffer, sizeof buffer);
        detail += detail.empty() ? "" : "; ";
        detail += buffer;
    }
    if (detail.empty())
        detail = code == SSL_ERROR_SYSCALL ? "the peer ended the stream mid-record" : "SSL error " + std::to_string(code);
    if (const long verify = SSL_get_verify_result(ssl_); verify != X509_V_OK)
        detail += std::string(" (the server's certificate: ") + X509_verify_cert_error_string(verify) + ")";
    error_ = std::string("TLS ") + during + " failed: " + detail;
    return false;
}

bool TlsEngine::handshake()
{
    ERR_clear_error();
    const int result = SSL_do_handshake(ssl_);
    if (result == 1) {
        established_ = true;
        return flushHeld();
    }
    return fail(result, "handshake");
}

bool TlsEngine::flushHeld()
{
    if (held_.empty())
        return true;
    std::vector<uint8_t> held;
    held.swap(held_);
    return send(held);
}

bool TlsEngine::receive(std::span<const uint8_t> cipher, std::vector<uint8_t> &plain)
{
    if (!ssl_ || !error_.empty())
        return false;
    if (!cipher.empty() && BIO_write(SSL_get_rbio(ssl_), cipher.data(), static_cast<int>(cipher.size())) <= 0) {
        error_ = "TLS: out of memory for a record";
        return false;
    }
    if (!established_ && (!handshake() || !established_))
        return error_.empty();
    for (;;) {
        const size_t before = plain.size();
        plain.resize(before + kPlainChunk);
        ERR_clear_error();
        const int n = SSL_read(ssl_, plain.data() + before, static_cast<int>(kPlainChunk));
        if (n > 0) {
            plain.resize(before + static_cast<size_t>(n));
            continue;
        }
        plain.resize(before);
        return fail(n, "read");
    }
}

bool TlsEngine::send(std::span<const uint8_t> plain)
{
    if (!ssl_ || !error_.empty())
        return false;
    if (!established_) {
        held_.insert(held_.end(), plain.begin(), plain.end());
        return true;
    }
    while (!plain.empty()) {
        const int chunk = static_cast<int>(std::min<size_t>(plain.size(), INT_MAX / 2));
        ERR_clear_error();
        const int n = SSL_write(ssl_, plain.data(), chunk);
        if (n <= 0) {
            if (fail(n, "write") && error_.empty())
                error_ = "TLS write failed: the connection cannot send";
            return false;
        }
        plain = plain.subspan(static_cast<size_t>(n));
    }
    return true;
}

void TlsEngine::takeOutput(std::vector<uint8_t> &out)
{
    if (!ssl_)
        return;
    BIO *wbio = SSL_get_wbio(ssl_);
    const size_t pending = BIO_ctrl_pending(wbio);
    if (pending == 0)
        return;
    const size_t before = out.size();
    out.resize(before + pending);
    const int n = BIO_read(wbio, out.data() + before, static_cast<int>(pending));
    out.resize(before + static_cast<size_t>(std::max(n, 0)));
}

size_t TlsEngine::pendingOutput() const
{
    return ssl_ ? BIO_ctrl_pending(SSL_get_wbio(ssl_)) : 0;
}

std::string TlsEngine::protocol() const
{
    return ssl_ ? SSL_get_version(ssl_) : "";
}

std::string TlsEngine::alpn() const
{
    const unsigned char *data = nullptr;
    unsigned int length = 0;
    if (ssl_)
        SSL_get0_alpn_selected(ssl_, &data, &length);
    return data ? std::string(reinterpret_cast<const char *>(data), length) : std::string();
}

} // namespace mqdesk::remoting
