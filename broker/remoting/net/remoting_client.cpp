#include "broker/remoting/net/remoting_client.h"

#include "broker/remoting/net/io_threads.h"
#include "broker/remoting/net/remoting_connection.h"
#include "broker/remoting/net/remoting_dispatcher.h"

#include <spdlog/spdlog.h>

#include <future>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace mqdesk::remoting {

namespace {

// One address's connection. Its mutex serialises connecting, so that concurrent first
// invocations share one connection, without blocking other addresses.
struct Slot
{
    std::mutex mutex;
    std::shared_ptr<Connection> connection; // guarded by mutex
};

} // namespace

struct RemotingClient::Impl
{
    explicit Impl(RemotingClientOptions opts)
        : options(std::move(opts))
    {
    }

    // The open connection to `address`, connecting when there is none; null with `error`.
    std::shared_ptr<Connection> connection(const std::string &address, std::string &error);
    std::shared_ptr<Connection> connect(const std::string &address, std::string &error);
    std::vector<std::shared_ptr<Connection>> snapshot() const;

    const RemotingClientOptions options;
    RequestDispatcher dispatcher;
    IoThreads io;

    mutable std::mutex mutex;
    bool shutDown = false;                                          // guarded by mutex
    std::unordered_map<std::string, std::shared_ptr<Slot>> slots;   // guarded by mutex
    std::unordered_map<uint64_t, std::shared_ptr<Connection>> open; // guarded by mutex
};

std::shared_ptr<Connection> RemotingClient::Impl::connection(const std::string &address, std::string &error)
{
    std::shared_ptr<Slot> slot;
    {
        std::lock_guard lock(mutex);
        if (shutDown) {
            error = "the client is shut down";
            return nullptr;
        }
        std::shared_ptr<Slot> &entry = slots[address];
        if (!entry)
            entry = std::make_shared<Slot>();
        slot = entry;
    }
    std::lock_guard slotLock(slot->mutex);
    if (!slot->connection || !slot->connection->isOpen())
        slot->connection = connect(address, error);
    return slot->connection;
}

std::shared_ptr<Connection> RemotingClient::Impl::connect(const std::string &address, std::string &error)
{
    const size_t colon = address.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == address.size()) {
        error = "bad address \"" + address + "\" (expected host:port)";
        return nullptr;
    }
    std::string host = address.substr(0, colon);
    if (host.size() > 2 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    const std::string service = address.substr(colon + 1);

    std::error_code ec;
    asio::ip::tcp::resolver resolver(*io.context());
    const auto endpoints = resolver.resolve(host, service, asio::ip::resolver_base::numeric_service, ec);
    if (ec) {
        error = "cannot resolve " + address + ": " + ec.message();
        return nullptr;
    }

    asio::ip::tcp::socket socket(asio::make_strand(*io.context()));
    std::promise<std::error_code> connected;
    std::future<std::error_code> result = connected.get_future();
    asio::async_connect(socket, endpoints, [&connected](std::error_code connectError, const asio::ip::tcp::endpoint &) {
        connected.set_value(connectError);
    });
    if (result.wait_for(options.connectTimeout) == std::future_status::timeout) {
        asio::post(socket.get_executor(), [&socket] {
            std::error_code ignored;
            socket.close(ignored);
        });
        result.wait(); // the handler references this frame
        error = "cannot connect to " + address + ": timed out after "
                + std::to_string(options.connectTimeout.count()) + " ms";
        return nullptr;
    }
    if (ec = result.get(); ec) {
        error = "cannot connect to " + address + ": " + ec.message();
        return nullptr;
    }

    auto budget = std::make_shared<MemoryBudget>(); // a client's requests are never dropped
    budget->maxPerConnection = options.maxQueuedWriteBytes;
    auto connection = std::make_shared<Connection>(io.context(), std::move(socket), address, "client",
                                                   options.maxFrameSize, std::move(budget));
    {
        std::lock_guard lock(mutex);
        if (shutDown) {
            error = "the client is shut down";
            return nullptr;
        }
        open.emplace(connection->id(), connection);
    }
    if (options.tls)
        connection->useClientTls(options.tls, address);
    connection->start(
        [this](const std::shared_ptr<Connection> &from, RemotingCommand request) {
            dispatcher.dispatch(from, std::move(request));
        },
        [this](const std::shared_ptr<Connection> &closed) {
            std::lock_guard lock(mutex);
            open.erase(closed->id());
        });
    return connection;
}

std::vector<std::shared_ptr<Connection>> RemotingClient::Impl::snapshot() const
{
    std::lock_guard lock(mutex);
    std::vector<std::shared_ptr<Connection>> result;
    result.reserve(open.size());
    for (const auto &[id, connection] : open)
        result.push_back(connection);
    return result;
}

RemotingClient::RemotingClient(RemotingClientOptions options)
    : impl_(std::make_unique<Impl>(std::move(options)))
{
    Impl &d = *impl_;
    d.io.start(d.options.name, d.options.ioThreads, [&d] {
        const auto now = std::chrono::steady_clock::now();
        for (const std::shared_ptr<Connection> &connection : d.snapshot())
            connection->expireRequests(now);
    });
}

RemotingClient::~RemotingClient()
{
    shutdown();
}

void RemotingClient::registerProcessor(int32_t code, Processor processor, Executor &executor)
{
    impl_->dispatcher.registerProcessor(code, std::move(processor), executor);
}

void RemotingClient::setDefaultProcessor(Processor processor, Executor &executor)
{
    impl_->dispatcher.setDefaultProcessor(std::move(processor), executor);
}

InvokeResult RemotingClient::invokeSync(const std::string &address, RemotingCommand request,
                                        std::chrono::milliseconds timeout)
{
    auto promise = std::make_shared<std::promise<InvokeResult>>();
    std::future<InvokeResult> future = promise->get_future();
    invokeAsync(address, std::move(request), timeout,
                [promise](InvokeResult result) { promise->set_value(std::move(result)); });
    // The callback always runs: the response, the timeout scan or the connection's close.
    return future.get();
}

void RemotingClient::invokeAsync(const std::string &address, RemotingCommand request,
                                 std::chrono::milliseconds timeout, ResponseCallback callback)
{
    std::string error;
    const std::shared_ptr<Connection> connection = impl_->connection(address, error);
    if (!connection) {
        callback(InvokeResult::failure(InvokeError::ConnectFailed, error));
        return;
    }
    connection->invoke(std::move(request), timeout, std::move(callback));
}

bool RemotingClient::invokeOneway(const std::string &address, RemotingCommand request, std::string *error)
{
    std::string failure;
    const std::shared_ptr<Connection> connection = impl_->connection(address, failure);
    if (connection && connection->sendOneway(std::move(request)))
        return true;
    if (error)
        *error = connection ? "cannot send a oneway request to " + address : failure;
    return false;
}

void RemotingClient::closeConnection(const std::string &address)
{
    std::shared_ptr<Slot> slot;
    {
        std::lock_guard lock(impl_->mutex);
        auto it = impl_->slots.find(address);
        if (it == impl_->slots.end())
            return;
        slot = it->second;
    }
    std::lock_guard slotLock(slot->mutex);
    if (slot->connection)
        slot->connection->close("closed by the client");
}

void RemotingClient::shutdown()
{
    Impl &d = *impl_;
    {
        std::lock_guard lock(d.mutex);
        if (d.shutDown)
            return;
        d.shutDown = true;
    }
    for (const std::shared_ptr<Connection> &connection : d.snapshot())
        connection->close("client shutting down");
    d.io.join();
    std::lock_guard lock(d.mutex);
    d.open.clear();
    d.slots.clear();
}

} // namespace mqdesk::remoting
