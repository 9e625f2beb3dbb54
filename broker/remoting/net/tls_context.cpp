#include "broker/remoting/net/tls_context.h"

#include "broker/common/log_rate_limiter.h"
#include "broker/common/properties_file.h"

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>

namespace mqdesk::remoting {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kSelfSignedCert = "mqdesk-selfsigned.pem";
constexpr std::string_view kSelfSignedKey = "mqdesk-selfsigned.key";
constexpr long kSelfSignedDays = 3650;

struct SslCtxFree
{
    void operator()(SSL_CTX *ctx) const { SSL_CTX_free(ctx); }
};
template<typename T, void (*Free)(T *)>
struct Freer
{
    void operator()(T *p) const { Free(p); }
};
using Pkey = std::unique_ptr<EVP_PKEY, Freer<EVP_PKEY, EVP_PKEY_free>>;
using Cert = std::unique_ptr<X509, Freer<X509, X509_free>>;
using Bio = std::unique_ptr<BIO, Freer<BIO, BIO_free_all>>;

// OpenSSL's queued errors, oldest first, as one line; the queue is left empty.
std::string opensslErrors()
{
    std::string text;
    while (const unsigned long code = ERR_get_error()) {
        char buffer[256];
        ERR_error_string_n(code, buffer, sizeof buffer);
        if (!text.empty())
            text += "; ";
        text += buffer;
    }
    return text.empty() ? "no detail from OpenSSL" : text;
}

bool parseMode(std::string_view text, TlsMode &mode)
{
    if (text == "disabled")
        mode = TlsMode::Disabled;
    else if (text == "permissive")
        mode = TlsMode::Permissive;
    else if (text == "enforcing")
        mode = TlsMode::Enforcing;
    else
        return false;
    return true;
}

bool parseBool(std::string_view text, bool &value)
{
    if (text == "true")
        value = true;
    else if (text == "false")
        value = false;
    else
        return false;
    return true;
}

// The subject's CN and the certificate's expiry, for the log.
std::string certificateSummary(X509 *cert)
{
    if (!cert)
        return "no certificate";
    char subject[256] = {};
    X509_NAME_oneline(X509_get_subject_name(cert), subject, sizeof subject);
    Bio bio(BIO_new(BIO_s_mem()));
    ASN1_TIME_print(bio.get(), X509_get0_notAfter(cert));
    char *data = nullptr;
    const long length = BIO_get_mem_data(bio.get(), &data);
    return std::string(subject) + ", valid until " + std::string(data, static_cast<size_t>(length));
}

// A P-256 key and a self-signed certificate for localhost (and 127.0.0.1, ::1): quick to make,
// accepted by every client RocketMQ ships.
bool makeSelfSigned(Pkey &key, Cert &cert, std::string &error)
{
    key.reset(EVP_EC_gen("P-256"));
    cert.reset(X509_new());
    if (!key || !cert) {
        error = "cannot make a key: " + opensslErrors();
        return false;
    }
    X509_set_version(cert.get(), 2);
    unsigned char serial[16];
    RAND_bytes(serial, sizeof serial);
    serial[0] &= 0x7f;
    BIGNUM *number = BN_bin2bn(serial, sizeof serial, nullptr);
    BN_to_ASN1_INTEGER(number, X509_get_serialNumber(cert.get()));
    BN_free(number);
    X509_gmtime_adj(X509_getm_notBefore(cert.get()), -24 * 3600);
    X509_gmtime_adj(X509_getm_notAfter(cert.get()), kSelfSignedDays * 24 * 3600);
    X509_set_pubkey(cert.get(), key.get());
    X509_NAME *name = X509_get_subject_name(cert.get());
    X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, reinterpret_cast<const unsigned char *>("MQDesk"), -1, -1, 0);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char *>("localhost"), -1, -1,
                               0);
    X509_set_issuer_name(cert.get(), name);
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, cert.get(), cert.get(), nullptr, nullptr, 0);
    for (const auto &[nid, value] : {std::pair{NID_subject_alt_name, "DNS:localhost,IP:127.0.0.1,IP:::1"},
                                     std::pair{NID_basic_constraints, "critical,CA:FALSE"},
                                     std::pair{NID_ext_key_usage, "serverAuth,clientAuth"}}) {
        X509_EXTENSION *extension = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
        if (!extension || !X509_add_ext(cert.get(), extension, -1)) {
            X509_EXTENSION_free(extension);
            error = "cannot make a certificate: " + opensslErrors();
            return false;
        }
        X509_EXTENSION_free(extension);
    }
    if (!X509_sign(cert.get(), key.get(), EVP_sha256())) {
        error = "cannot sign a certificate: " + opensslErrors();
        return false;
    }
    return true;
}

// Writes `bytes` to `path` through a temporary file, readable by the owner only.
bool writePrivateFile(const fs::path &path, const std::string &bytes, std::string &error)
{
    const fs::path temporary = path.string() + ".tmp";
    std::error_code ec;
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        fs::permissions(temporary, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace, ec);
        out << bytes;
        out.flush();
        if (!out) {
            error = "cannot write " + temporary.string();
            return false;
        }
    }
    fs::rename(temporary, path, ec);
    if (ec) {
        error = "cannot write " + path.string() + ": " + ec.message();
        return false;
    }
    return true;
}

std::string pemOf(int (*write)(BIO *, void *), void *object)
{
    Bio bio(BIO_new(BIO_s_mem()));
    write(bio.get(), object);
    char *data = nullptr;
    const long length = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<size_t>(length));
}

int writeCert(BIO *bio, void *cert)
{
    return PEM_write_bio_X509(bio, static_cast<X509 *>(cert));
}

int writeKey(BIO *bio, void *key)
{
    return PEM_write_bio_PrivateKey(bio, static_cast<EVP_PKEY *>(key), nullptr, nullptr, 0, nullptr, nullptr);
}

// The self-signed pair in `dir`, made there when either file is missing.
// Two contexts of one store (the remoting port's, the gRPC endpoint's) may make the pair at once.
std::mutex selfSignedFilesMutex;

// Requires selfSignedFilesMutex.
bool selfSignedFiles(const std::string &dir, fs::path &certPath, fs::path &keyPath, std::string &error)
{
    certPath = fs::path(dir) / kSelfSignedCert;
    keyPath = fs::path(dir) / kSelfSignedKey;
    std::error_code ec;
    if (fs::exists(certPath, ec) && fs::exists(keyPath, ec))
        return true;
    Pkey key;
    Cert cert;
    if (!makeSelfSigned(key, cert, error))
        return false;
    fs::create_directories(dir, ec);
    if (ec) {
        error = "cannot make " + dir + ": " + ec.message();
        return false;
    }
    if (!writePrivateFile(keyPath, pemOf(writeKey, key.get()), error)
        || !writePrivateFile(certPath, pemOf(writeCert, cert.get()), error))
        return false;
    spdlog::info("tls: made a self-signed certificate for localhost in {} ({})", dir, certificateSummary(cert.get()));
    return true;
}

int passwordCallback(char *buffer, int size, int, void *userdata)
{
    const std::string &password = *static_cast<const std::string *>(userdata);
    const int length = std::min<int>(size, static_cast<int>(password.size()));
    std::copy_n(password.data(), length, buffer);
    return length;
}

int selectAlpn(SSL *, const unsigned char **out, unsigned char *outLength, const unsigned char *offered,
               unsigned int offeredLength, void *arg)
{
    const std::string &ours = *static_cast<const std::string *>(arg);
    unsigned char *chosen = nullptr;
    if (SSL_select_next_proto(&chosen, outLength, reinterpret_cast<const unsigned char *>(ours.data()),
                              static_cast<unsigned int>(ours.size()), offered, offeredLength)
        != OPENSSL_NPN_NEGOTIATED)
        return SSL_TLSEXT_ERR_NOACK; // a client that offers none of ours goes on without ALPN
    *out = chosen;
    return SSL_TLSEXT_ERR_OK;
}

int acceptAnyCertificate(int, X509_STORE_CTX *)
{
    return 1;
}

std::string wireFormat(const std::vector<std::string> &protocols)
{
    std::string wire;
    for (const std::string &protocol : protocols) {
        wire += static_cast<char>(protocol.size());
        wire += protocol;
    }
    return wire;
}

std::string fingerprintOf(X509 *cert)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (!cert || X509_digest(cert, EVP_sha256(), digest, &length) != 1)
        return {};
    static const char hex[] = "0123456789ABCDEF";
    std::string text = "SHA256";
    for (unsigned int i = 0; i < length; ++i) {
        text += ':';
        text += hex[digest[i] >> 4];
        text += hex[digest[i] & 0xf];
    }
    return text;
}

// The pinned certificate is the server's own (depth 0); the chain above it is not judged.
int verifyPinned(int, X509_STORE_CTX *store)
{
    if (X509_STORE_CTX_get_error_depth(store) != 0)
        return 1;
    auto *ssl = static_cast<SSL *>(X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx()));
    auto *pin = static_cast<TlsCertificatePin *>(SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl)));
    const auto *endpoint = static_cast<const std::string *>(SSL_get_app_data(ssl)); // TlsEngine's
    if (pin && endpoint && pin->accept(*endpoint, fingerprintOf(X509_STORE_CTX_get_current_cert(store)))) {
        X509_STORE_CTX_set_error(store, X509_V_OK);
        return 1;
    }
    X509_STORE_CTX_set_error(store, X509_V_ERR_CERT_REJECTED);
    return 0;
}

std::string fileStamp(const std::string &path)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return "missing";
    return std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec) + "/"
           + std::to_string(st.st_size);
}

} // namespace

std::string_view tlsModeName(TlsMode mode)
{
    switch (mode) {
    case TlsMode::Disabled:
        return "disabled";
    case TlsMode::Permissive:
        return "permissive";
    case TlsMode::Enforcing:
        return "enforcing";
    }
    return "?";
}

bool TlsSettings::isKey(std::string_view key)
{
    static const char *const keys[] = {"tls.server.mode",          "tls.test.mode.enable",
                                       "tls.server.certPath",      "tls.server.keyPath",
                                       "tls.server.keyPassword",   "tls.server.need.client.auth",
                                       "tls.server.authClient",    "tls.server.trustCertPath",
                                       "tls.config.file",          "tls.server.certWatchIntervalMs",
                                       "tls.enable"};
    return std::find(std::begin(keys), std::end(keys), key) != std::end(keys);
}

std::string TlsSettings::apply(const std::map<std::string, std::string> &properties)
{
    auto applyOne = [this](const std::string &key, const std::string &value) -> std::string {
        bool ok = true;
        if (key == "tls.server.mode")
            ok = parseMode(value, mode);
        else if (key == "tls.test.mode.enable")
            ok = parseBool(value, testMode);
        else if (key == "tls.server.certPath")
            certPath = value;
        else if (key == "tls.server.keyPath")
            keyPath = value;
        else if (key == "tls.server.keyPassword")
            keyPassword = value;
        else if (key == "tls.server.need.client.auth")
        {
            needClientAuth = value;
            ok = value == "none" || value == "optional" || value == "require";
        }
        else if (key == "tls.server.authClient")
            ok = parseBool(value, authClient);
        else if (key == "tls.server.trustCertPath")
            trustCertPath = value;
        else if (key == "tls.config.file")
            configFile = value;
        else if (key == "tls.enable")
            ok = parseBool(value, clientEnable);
        else if (key == "tls.server.certWatchIntervalMs") {
            try {
                certWatchInterval = std::chrono::milliseconds(std::max(100L, std::stol(value)));
            } catch (...) {
                ok = false;
            }
        }
        return ok ? std::string() : "bad value '" + value + "' for " + key;
    };
    for (const auto &[key, value] : properties)
        if (isKey(key))
            if (std::string error = applyOne(key, value); !error.empty())
                return error;
    if (configFile.empty())
        return {};
    const common::PropertiesParseResult file = common::loadPropertiesFile(configFile);
    if (!file.error.empty())
        return "tls.config.file: " + file.error;
    for (const auto &[key, value] : file.values)
        if (isKey(key) && key != "tls.config.file" && !properties.contains(key))
            if (std::string error = applyOne(key, value); !error.empty())
                return configFile + ": " + error;
    return {};
}

std::vector<std::pair<std::string, std::string>> TlsSettings::toProperties() const
{
    return {{"tls.server.mode", std::string(tlsModeName(mode))},
            {"tls.test.mode.enable", testMode ? "true" : "false"},
            {"tls.server.certPath", certPath},
            {"tls.server.keyPath", keyPath},
            {"tls.server.keyPassword", keyPassword.empty() ? "" : "***"},
            {"tls.server.need.client.auth", needClientAuth},
            {"tls.server.authClient", authClient ? "true" : "false"},
            {"tls.server.trustCertPath", trustCertPath},
            {"tls.config.file", configFile},
            {"tls.server.certWatchIntervalMs", std::to_string(certWatchInterval.count())},
            {"tls.enable", clientEnable ? "true" : "false"}};
}

TlsServerContext::TlsServerContext(TlsSettings settings, std::string selfSignedDir, std::vector<std::string> alpn)
    : settings_(std::move(settings))
    , selfSignedDir_(std::move(selfSignedDir))
    , alpn_(std::move(alpn))
    , wireAlpn_(wireFormat(alpn_))
{
}

TlsServerContext::~TlsServerContext() = default;

std::shared_ptr<TlsServerContext> TlsServerContext::create(const TlsSettings &settings,
                                                           const std::string &selfSignedDir,
                                                           std::vector<std::string> alpn, std::string &error)
{
    std::shared_ptr<TlsServerContext> context(new TlsServerContext(settings, selfSignedDir, std::move(alpn)));
    if (settings.mode == TlsMode::Disabled)
        return context;
    if (settings.certPath.empty() != settings.keyPath.empty()) {
        error = "tls: set both tls.server.certPath and tls.server.keyPath, or neither";
        return nullptr;
    }
    if (settings.certPath.empty() && !settings.testMode) {
        error = "tls: tls.server.mode is " + std::string(tlsModeName(settings.mode))
                + " but there is no certificate: set tls.server.certPath and tls.server.keyPath, or "
                  "tls.test.mode.enable=true for a self-signed one, or tls.server.mode=disabled";
        return nullptr;
    }
    if (settings.certPath.empty()) {
        // The self-signed pair is made now, so clients can be told to trust it before they
        // connect; OpenSSL's context (a few MB of libcrypto touched, a few ms) waits for the
        // first TLS client: most brokers never see one.
        if (!context->selfSignedDir_.empty()) {
            fs::path cert, key;
            std::lock_guard files(selfSignedFilesMutex);
            if (!selfSignedFiles(context->selfSignedDir_, cert, key, error)) {
                spdlog::warn("tls: {}; the self-signed certificate is kept in memory only", error);
                error.clear();
            }
        }
        return context;
    }
    std::lock_guard lock(context->mutex_);
    context->context_ = context->build(error);
    if (!context->context_)
        return nullptr;
    context->fileStamp_ = fileStamp(settings.certPath) + fileStamp(settings.keyPath);
    context->nextCheck_ = std::chrono::steady_clock::now() + settings.certWatchInterval;
    return context;
}

std::shared_ptr<ssl_ctx_st> TlsServerContext::build(std::string &error)
{
    std::string certPath = settings_.certPath;
    std::string keyPath = settings_.keyPath;
    std::string password = settings_.keyPassword;
    Pkey memoryKey;
    Cert memoryCert;
    if (certPath.empty()) {
        fs::path cert, key;
        std::unique_lock files(selfSignedFilesMutex);
        if (selfSignedDir_.empty() || !selfSignedFiles(selfSignedDir_, cert, key, error)) {
            if (!selfSignedDir_.empty())
                spdlog::warn("tls: {}; the self-signed certificate is kept in memory only", error);
            error.clear();
            if (!makeSelfSigned(memoryKey, memoryCert, error))
                return nullptr;
        } else {
            certPath = cert.string();
            keyPath = key.string();
            password.clear();
        }
    }
    ERR_clear_error();
    std::shared_ptr<SSL_CTX> ctx(SSL_CTX_new(TLS_server_method()), SslCtxFree());
    if (!ctx) {
        error = "tls: " + opensslErrors();
        return nullptr;
    }
    SSL_CTX_set_min_proto_version(ctx.get(), TLS1_2_VERSION);
    // No session tickets: nothing is resumed, and no record leaves after the handshake unasked.
    SSL_CTX_set_num_tickets(ctx.get(), 0);
    SSL_CTX_set_options(ctx.get(), SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
    SSL_CTX_set_mode(ctx.get(), SSL_MODE_RELEASE_BUFFERS);
    bool loaded;
    if (memoryCert) {
        loaded = SSL_CTX_use_certificate(ctx.get(), memoryCert.get()) == 1
                 && SSL_CTX_use_PrivateKey(ctx.get(), memoryKey.get()) == 1;
    } else {
        SSL_CTX_set_default_passwd_cb(ctx.get(), passwordCallback);
        SSL_CTX_set_default_passwd_cb_userdata(ctx.get(), &password);
        loaded = SSL_CTX_use_certificate_chain_file(ctx.get(), certPath.c_str()) == 1
                 && SSL_CTX_use_PrivateKey_file(ctx.get(), keyPath.c_str(), SSL_FILETYPE_PEM) == 1;
        SSL_CTX_set_default_passwd_cb_userdata(ctx.get(), nullptr);
    }
    if (!loaded || SSL_CTX_check_private_key(ctx.get()) != 1) {
        error = "tls: cannot use the certificate " + (certPath.empty() ? std::string("(in memory)") : certPath)
                + " with the key " + keyPath + ": " + opensslErrors();
        return nullptr;
    }
    if (settings_.needClientAuth != "none") {
        int verify = SSL_VERIFY_PEER;
        if (settings_.needClientAuth == "require")
            verify |= SSL_VERIFY_FAIL_IF_NO_PEER_CERT;
        if (settings_.authClient && !settings_.trustCertPath.empty()
            && SSL_CTX_load_verify_locations(ctx.get(), settings_.trustCertPath.c_str(), nullptr) != 1) {
            error = "tls: cannot read tls.server.trustCertPath " + settings_.trustCertPath + ": " + opensslErrors();
            return nullptr;
        }
        // As Java: without tls.server.authClient any client certificate is taken.
        SSL_CTX_set_verify(ctx.get(), verify, settings_.authClient ? nullptr : acceptAnyCertificate);
    }
    if (!wireAlpn_.empty())
        SSL_CTX_set_alpn_select_cb(ctx.get(), selectAlpn, const_cast<std::string *>(&wireAlpn_));
    description_ = (settings_.certPath.empty() ? "self-signed " + (certPath.empty() ? std::string("(in memory)") : certPath)
                                               : certPath)
                   + " (" + certificateSummary(SSL_CTX_get0_certificate(ctx.get())) + ")";
    return ctx;
}

bool TlsServerContext::filesChanged()
{
    if (settings_.certPath.empty())
        return false;
    const auto now = std::chrono::steady_clock::now();
    if (now < nextCheck_)
        return false;
    nextCheck_ = now + settings_.certWatchInterval;
    const std::string stamp = fileStamp(settings_.certPath) + fileStamp(settings_.keyPath);
    if (stamp == fileStamp_)
        return false;
    fileStamp_ = stamp;
    return true;
}

std::shared_ptr<ssl_ctx_st> TlsServerContext::current()
{
    std::lock_guard lock(mutex_);
    if (!context_ && settings_.mode != TlsMode::Disabled) { // self-signed: built for the first TLS client
        std::string error;
        context_ = build(error);
        if (!context_) {
            static common::LogRateLimiter failures(std::chrono::seconds(10));
            if (const auto suppressed = failures.admit())
                spdlog::error("{}; TLS clients are refused ({} similar not logged)", error, *suppressed);
        }
    } else if (context_ && filesChanged()) {
        std::string error;
        if (std::shared_ptr<SSL_CTX> fresh = build(error)) {
            context_ = std::move(fresh);
            spdlog::info("tls: certificate reloaded: {}", description_);
        } else {
            spdlog::error("{}; new connections keep the previous certificate", error);
        }
    }
    return context_;
}

std::string TlsServerContext::describe() const
{
    std::lock_guard lock(mutex_);
    if (settings_.mode == TlsMode::Disabled)
        return "TLS disabled";
    if (!context_) {
        const std::string where = selfSignedDir_.empty() ? std::string("in memory")
                                                         : (fs::path(selfSignedDir_) / kSelfSignedCert).string();
        return "TLS " + std::string(tlsModeName(settings_.mode)) + ", certificate self-signed " + where
               + " (loaded for the first TLS client)";
    }
    return "TLS " + std::string(tlsModeName(settings_.mode)) + ", certificate " + description_;
}

TlsCertificatePin::TlsCertificatePin(const std::string &trusted, FirstUse onFirstUse)
    : onFirstUse_(std::move(onFirstUse))
{
    for (size_t start = 0; start < trusted.size();) {
        size_t stop = trusted.find(';', start);
        if (stop == std::string::npos)
            stop = trusted.size();
        const std::string entry = trusted.substr(start, stop - start);
        if (const size_t equals = entry.find('='); equals != std::string::npos && equals > 0)
            trusted_[entry.substr(0, equals)] = entry.substr(equals + 1);
        start = stop + 1;
    }
}

std::string TlsCertificatePin::toText() const
{
    std::lock_guard lock(mutex_);
    std::string text;
    for (const auto &[endpoint, fingerprint] : trusted_)
        text += (text.empty() ? "" : ";") + endpoint + "=" + fingerprint;
    return text;
}

std::string TlsCertificatePin::trusted(const std::string &endpoint) const
{
    std::lock_guard lock(mutex_);
    const auto found = trusted_.find(endpoint);
    return found == trusted_.end() ? std::string() : found->second;
}

std::string TlsCertificatePin::lastRefused() const
{
    std::lock_guard lock(mutex_);
    return lastRefused_;
}

bool TlsCertificatePin::accept(const std::string &endpoint, const std::string &fingerprint)
{
    FirstUse firstUse;
    {
        std::lock_guard lock(mutex_);
        if (fingerprint.empty() || endpoint.empty())
            return false;
        const auto [entry, added] = trusted_.try_emplace(endpoint, fingerprint);
        if (!added) {
            if (entry->second == fingerprint)
                return true;
            lastRefused_ = endpoint + " " + fingerprint;
            return false;
        }
        firstUse = onFirstUse_;
    }
    if (firstUse)
        firstUse(endpoint, fingerprint);
    return true;
}

std::shared_ptr<ssl_ctx_st> makeTlsClientContext(bool verifyServer, const std::string &trustCertPath,
                                                 const std::vector<std::string> &alpn, std::string &error,
                                                 std::shared_ptr<TlsCertificatePin> pin)
{
    ERR_clear_error();
    // The pin lives as long as the context that calls back into it.
    std::shared_ptr<SSL_CTX> ctx(SSL_CTX_new(TLS_client_method()), [pin](SSL_CTX *c) { SSL_CTX_free(c); });
    if (!ctx) {
        error = "tls: " + opensslErrors();
        return nullptr;
    }
    SSL_CTX_set_min_proto_version(ctx.get(), TLS1_2_VERSION);
    SSL_CTX_set_mode(ctx.get(), SSL_MODE_RELEASE_BUFFERS);
    if (verifyServer) {
        const bool loaded = trustCertPath.empty()
                                ? SSL_CTX_set_default_verify_paths(ctx.get()) == 1
                                : SSL_CTX_load_verify_locations(ctx.get(), trustCertPath.c_str(), nullptr) == 1;
        if (!loaded) {
            error = "tls: cannot read the trusted certificates " + trustCertPath + ": " + opensslErrors();
            return nullptr;
        }
        SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
    } else if (pin) {
        SSL_CTX_set_app_data(ctx.get(), pin.get());
        SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, verifyPinned);
    }
    if (!alpn.empty()) {
        const std::string wire = wireFormat(alpn);
        SSL_CTX_set_alpn_protos(ctx.get(), reinterpret_cast<const unsigned char *>(wire.data()),
                                static_cast<unsigned int>(wire.size()));
    }
    return ctx;
}

std::shared_ptr<ssl_ctx_st> makeTlsClientContextTrustingNothing()
{
    std::shared_ptr<SSL_CTX> ctx(SSL_CTX_new(TLS_client_method()), SslCtxFree());
    if (ctx)
        SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
    return ctx;
}

} // namespace mqdesk::remoting
