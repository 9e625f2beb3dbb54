// Connection's transport (remoting_connection.h): TLS or plaintext chosen by the first byte a
// client sends, the TLS engine between the socket and the frame decoder, and the refusal of a
// plaintext client by an enforcing server (every request answered for a second, then closed).

#include "broker/remoting/net/remoting_connection.h"

#include "broker/common/log_rate_limiter.h"
#include "broker/remoting/net/tls_context.h"
#include "broker/remoting/remoting_codes.h"

#include <spdlog/spdlog.h>

namespace mqdesk::remoting {

void Connection::useServerTls(std::shared_ptr<TlsServerContext> server)
{
    tlsServer_ = std::move(server);
}

void Connection::useClientTls(std::shared_ptr<ssl_ctx_st> context, std::string endpoint)
{
    tls_ = std::make_unique<TlsEngine>(std::move(context), TlsEngine::Role::Client, endpoint);
    tlsActive_ = true;
}

bool Connection::chooseTransport(uint8_t firstByte)
{
    std::shared_ptr<TlsServerContext> server = std::move(tlsServer_);
    if (startsTlsHandshake(firstByte)) {
        if (server->mode() == TlsMode::Disabled) {
            closeNow("the client starts a TLS handshake, but this server's TLS is off (tls.server.mode=disabled)", false);
            static common::LogRateLimiter refusals(std::chrono::seconds(10));
            if (const auto suppressed = refusals.admit())
                spdlog::warn("remoting {}: closed connection {} to {}: a TLS handshake, and tls.server.mode=disabled ({} "
                             "similar not logged)",
                             side_, id_, peerAddress_, *suppressed);
            return false;
        }
        std::shared_ptr<ssl_ctx_st> context = server->current();
        if (!context) { // its certificate did not load (logged by the context)
            closeNow("the client starts a TLS handshake, but this server's certificate could not be loaded", false);
            return false;
        }
        tls_ = std::make_unique<TlsEngine>(std::move(context), TlsEngine::Role::Server);
        tlsActive_ = true;
    } else if (server->mode() == TlsMode::Enforcing) {
        plaintextRefused_ = true;
    } else {
        directWrites_.store(true, std::memory_order_release); // nothing was queued before the first byte
    }
    return true;
}

bool Connection::decrypt(std::span<const uint8_t> &bytes)
{
    plain_.clear();
    const bool ok = tls_->receive(bytes, plain_);
    queueTlsOutput();
    if (!ok) {
        // The alert the engine made goes out first. A crowd of bad handshakes is one log line.
        closeWhenWritten_ = tls_->error();
        static common::LogRateLimiter failures(std::chrono::seconds(10));
        if (const auto suppressed = failures.admit())
            spdlog::warn("remoting {}: closing connection {} to {}: {} ({} similar not logged)", side_, id_,
                         peerAddress_, closeWhenWritten_, *suppressed);
        if (writeIdle())
            closeNow(closeWhenWritten_, false);
        return false;
    }
    bytes = plain_; // what came before a close_notify is still decoded (the read closes after)
    return true;
}

void Connection::queueTlsOutput()
{
    Outgoing outgoing;
    tls_->takeOutput(outgoing.body);
    if (outgoing.body.empty())
        return;
    outgoing.accounted = outgoing.body.size();
    queuedWriteBytes_.fetch_add(outgoing.accounted);
    if (budget_)
        budget_->total.fetch_add(outgoing.accounted);
    queueOnStrand(std::move(outgoing));
}

void Connection::refusePlaintext(const std::vector<RemotingCommand> &commands)
{
    static constexpr const char *kReason =
        "a plaintext client, and this server accepts TLS only (tls.server.mode=enforcing)";
    if (!closeWhenWritten_.empty())
        return;
    if (!refusing_) {
        static common::LogRateLimiter refusals(std::chrono::seconds(10)); // a crowd of them is one line
        if (const auto suppressed = refusals.admit())
            spdlog::warn("remoting {}: closing connection {} to {}: {} ({} similar not logged)", side_, id_,
                         peerAddress_, kReason, *suppressed);
    }
    if (commands.empty()) { // not RocketMQ's framing: closed without a word
        closeWhenWritten_ = kReason;
        asio::post(socket_.get_executor(), [self = shared_from_this()] {
            if (self->writeIdle())
                self->closeNow(self->closeWhenWritten_, false);
        });
        return;
    }
    if (!refusing_) {
        refusing_ = true;
        // Every request is answered, also those the client wrote after the first (a pooled
        // connection carries several callers' requests at once): closing at the first answer
        // would leave the later ones with "connection closed" instead of the reason. So the
        // connection stays open for a second, answering each with the refusal, then closes.
        auto linger = std::make_shared<asio::steady_timer>(socket_.get_executor(), std::chrono::seconds(1));
        linger->async_wait([self = shared_from_this(), linger](std::error_code) {
            self->closeWhenWritten_ = kReason;
            if (self->writeIdle())
                self->closeNow(kReason, false);
        });
    }
    for (const RemotingCommand &command : commands) {
        if (command.isResponse() || command.isOneway())
            continue;
        RemotingCommand refusal = RemotingCommand::createResponse(
            command, ResponseCode::kSystemError,
            "this server accepts TLS connections only (tls.server.mode=enforcing): connect with TLS (Java clients: "
            "-Dtls.enable=true)");
        enqueue(std::move(refusal), nullptr);
    }
}

} // namespace mqdesk::remoting
