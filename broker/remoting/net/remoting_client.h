#pragma once

// RemotingClient: the requesting side of the remoting protocol (remoting spec §1, §2), for
// tests, tools and broker -> namesrv traffic. One connection per address, opened on first use
// and reopened on the next invocation after it broke. Many requests may be in flight on one
// connection; responses are matched by opaque. Thread-safe.

#include "broker/remoting/net/processor_executor.h"
#include "broker/remoting/net/remoting_channel.h"
#include "broker/remoting/remoting_codec.h"

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

struct ssl_ctx_st;

namespace mqdesk::remoting {

struct RemotingClientOptions
{
    size_t ioThreads = 1;
    std::chrono::milliseconds connectTimeout{3000};
    size_t maxFrameSize = kDefaultMaxFrameSize;
    std::string name = "client"; // prefixes io thread names
    // As RemotingServerOptions: a server that stops reading our requests gets its connection
    // closed once this many bytes wait for it (0: no limit).
    size_t maxQueuedWriteBytes = 64 * 1024 * 1024;
    // TLS to every server (makeTlsClientContext, tls_context.h), as Java clients with
    // -Dtls.enable=true; null: plaintext.
    std::shared_ptr<ssl_ctx_st> tls = nullptr;
};

class RemotingClient
{
public:
    explicit RemotingClient(RemotingClientOptions options = {});
    // Shuts down.
    ~RemotingClient();

    RemotingClient(const RemotingClient &) = delete;
    RemotingClient &operator=(const RemotingClient &) = delete;

    // Processors for requests the server sends on a client connection (NOTIFY_CONSUMER_IDS_
    // CHANGED, CHECK_TRANSACTION_STATE, ...). Unregistered codes are answered
    // REQUEST_CODE_NOT_SUPPORTED. `executor` must outlive the client.
    void registerProcessor(int32_t code, Processor processor, Executor &executor);
    void setDefaultProcessor(Processor processor, Executor &executor);

    // `address` is "host:port" (a name is resolved; IPv6 as "[::1]:port"). The connect, when
    // one is needed, happens on the calling thread and takes up to options.connectTimeout.
    // The request's opaque and flags are set by the connection.
    InvokeResult invokeSync(const std::string &address, RemotingCommand request,
                            std::chrono::milliseconds timeout);
    // `callback` runs exactly once: on an io thread with the response, a timeout or the
    // connection's close, or on the calling thread before return when connecting fails. It
    // must not block.
    void invokeAsync(const std::string &address, RemotingCommand request, std::chrono::milliseconds timeout,
                     ResponseCallback callback);
    // Sends with the oneway flag; nothing comes back. False, with `error`, when the connection
    // cannot be opened or the request cannot be encoded.
    bool invokeOneway(const std::string &address, RemotingCommand request, std::string *error = nullptr);

    // Closes the connection to `address`, failing its pending requests with ConnectionClosed;
    // the next invocation reconnects.
    void closeConnection(const std::string &address);
    // Closes every connection, fails every pending request and joins the io threads. Later
    // invocations fail with ConnectFailed. Idempotent; not from a callback or processor.
    void shutdown();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace mqdesk::remoting
