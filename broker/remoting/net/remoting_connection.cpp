#include "broker/remoting/net/remoting_connection.h"

#include <spdlog/spdlog.h>

#include <array>
#include <utility>

namespace mqdesk::remoting {

namespace {

constexpr size_t kReadChunk = 64 * 1024;

std::atomic<uint64_t> nextConnectionId{1};

} // namespace

std::string endpointText(const asio::ip::tcp::endpoint &endpoint)
{
    const asio::ip::address address = endpoint.address();
    const std::string host = address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
    return host + ":" + std::to_string(endpoint.port());
}

Connection::Connection(std::shared_ptr<asio::io_context> io, asio::ip::tcp::socket socket,
                       std::string peerAddress, std::string side, size_t maxFrameSize,
                       size_t maxQueuedWriteBytes)
    : io_(std::move(io))
    , socket_(std::move(socket))
    , id_(nextConnectionId.fetch_add(1))
    , peerAddress_(std::move(peerAddress))
    , side_(std::move(side))
    , decoder_(maxFrameSize)
    , readBuffer_(kReadChunk)
    , maxQueuedWriteBytes_(maxQueuedWriteBytes)
    , lastActivityTicks_(std::chrono::steady_clock::now().time_since_epoch().count())
{
    std::error_code ec;
    socket_.set_option(asio::ip::tcp::no_delay(true), ec);
}

Connection::~Connection() = default;

void Connection::noteActivity()
{
    lastActivityTicks_.store(std::chrono::steady_clock::now().time_since_epoch().count(), std::memory_order_relaxed);
}

std::chrono::steady_clock::time_point Connection::lastActivity() const
{
    return std::chrono::steady_clock::time_point(
        std::chrono::steady_clock::duration(lastActivityTicks_.load(std::memory_order_relaxed)));
}

void Connection::start(RequestHandler onRequest, CloseHandler onClose)
{
    onRequest_ = std::move(onRequest);
    onClose_ = std::move(onClose);
    asio::post(socket_.get_executor(), [self = shared_from_this()] { self->readMore(); });
}

void Connection::readMore()
{
    socket_.async_read_some(asio::buffer(readBuffer_), [self = shared_from_this()](std::error_code ec, size_t n) {
        if (ec) {
            self->closeNow(ec == asio::error::eof ? "peer closed" : "read failed: " + ec.message(), false);
            return;
        }
        self->noteActivity();
        std::vector<RemotingCommand> commands;
        bool ok = false;
        // Nothing a peer sends may take an io thread down: an exception while decoding or
        // dispatching (out of memory, a bug) closes this one connection.
        try {
            ok = self->decoder_.feed(std::span(self->readBuffer_.data(), n), commands);
            for (RemotingCommand &command : commands) {
                if (self->closed_)
                    return;
                if (command.isResponse())
                    self->handleResponse(std::move(command));
                else if (self->onRequest_)
                    self->onRequest_(self, std::move(command));
            }
        } catch (const std::exception &e) {
            self->closeNow(std::string("exception while reading: ") + e.what(), true);
            return;
        }
        if (!ok) {
            // §1.1/§9: no answer to a malformed frame; the stream cannot be resynchronised.
            self->closeNow("malformed frame: " + self->decoder_.error(), true);
            return;
        }
        if (!self->closed_)
            self->readMore();
    });
}

bool Connection::enqueue(RemotingCommand command, std::string *error)
{
    EncodeResult prefix = encodeFramePrefix(command, decoder_.maxFrameSize());
    if (!prefix.ok()) {
        if (error)
            *error = prefix.error;
        spdlog::warn("remoting {} {}: cannot encode {}: {}", side_, peerAddress_, describeCommand(command),
                     prefix.error);
        return false;
    }
    if (closed_) {
        if (error)
            *error = "connection to " + peerAddress_ + " is closed";
        return false;
    }
    Outgoing outgoing{std::move(prefix.bytes), std::move(command.body)};
    const size_t size = outgoing.size();
    const size_t queued = queuedWriteBytes_.fetch_add(size);
    // A single frame larger than the limit still goes out when nothing else waits.
    if (maxQueuedWriteBytes_ > 0 && queued > 0 && queued + size > maxQueuedWriteBytes_) {
        queuedWriteBytes_.fetch_sub(size);
        const std::string reason = "the peer is not reading: " + std::to_string(queued)
                                   + " bytes already queued for it (limit " + std::to_string(maxQueuedWriteBytes_)
                                   + ")";
        if (error)
            *error = reason;
        if (!overflowed_.exchange(true)) { // said once; later sends meet the same closing connection
            spdlog::warn("remoting {} {}: closing: {}", side_, peerAddress_, reason);
            close(reason);
        }
        return false;
    }
    asio::post(socket_.get_executor(), [self = shared_from_this(), outgoing = std::move(outgoing)]() mutable {
        if (self->closed_) {
            self->queuedWriteBytes_.fetch_sub(outgoing.size());
            return;
        }
        self->writeQueue_.push_back(std::move(outgoing));
        if (!self->writing_)
            self->writeNext();
    });
    return true;
}

// Requires: on the strand, no write in flight.
void Connection::clearWriteQueue()
{
    for (const Outgoing &outgoing : writeQueue_)
        queuedWriteBytes_.fetch_sub(outgoing.size());
    writeQueue_.clear();
}

// Requires: on the strand, writeQueue_ not being written.
void Connection::writeNext()
{
    if (writeQueue_.empty()) {
        writing_ = false;
        return;
    }
    writing_ = true;
    const Outgoing &front = writeQueue_.front();
    const std::array<asio::const_buffer, 2> buffers{asio::buffer(front.prefix), asio::buffer(front.body)};
    asio::async_write(socket_, buffers, [self = shared_from_this()](std::error_code ec, size_t) {
        if (ec || self->closed_) {
            // The buffers of an aborted write stay alive until here, so free the queue now.
            self->clearWriteQueue();
            self->writing_ = false;
            self->closeNow("write failed: " + ec.message(), false);
            return;
        }
        self->noteActivity();
        self->queuedWriteBytes_.fetch_sub(self->writeQueue_.front().size());
        self->writeQueue_.pop_front();
        self->writeNext();
    });
}

bool Connection::sendOneway(RemotingCommand request)
{
    request.flag &= ~RemotingCommand::kResponseFlag;
    request.markOneway();
    request.opaque = nextOpaque();
    return enqueue(std::move(request), nullptr);
}

bool Connection::sendResponse(RemotingCommand response)
{
    return enqueue(std::move(response), nullptr);
}

int32_t Connection::nextOpaque()
{
    return static_cast<int32_t>(opaqueCounter_.fetch_add(1));
}

void Connection::invoke(RemotingCommand request, std::chrono::milliseconds timeout, ResponseCallback callback)
{
    request.flag &= ~(RemotingCommand::kResponseFlag | RemotingCommand::kOnewayFlag);
    {
        std::unique_lock lock(pendingMutex_);
        if (pendingClosed_) {
            lock.unlock(); // callbacks never run under the lock: they may invoke again
            callback(InvokeResult::failure(InvokeError::ConnectionClosed,
                                           "connection to " + peerAddress_ + " is closed"));
            return;
        }
        // An id still in use (after 2^32 requests, with one held for ages) is skipped.
        do {
            request.opaque = nextOpaque();
        } while (pending_.contains(request.opaque));
        pending_.emplace(request.opaque, Pending{std::move(callback), std::chrono::steady_clock::now() + timeout,
                                                 timeout, request.code});
    }
    const int32_t opaque = request.opaque;
    const std::string what = "request code " + std::to_string(request.code) + " opaque " + std::to_string(opaque);
    std::string error;
    if (!enqueue(std::move(request), &error)) {
        Pending pending;
        {
            std::lock_guard lock(pendingMutex_);
            auto it = pending_.find(opaque);
            if (it == pending_.end())
                return; // already failed by a concurrent close or the timeout scan
            pending = std::move(it->second);
            pending_.erase(it);
        }
        const InvokeError kind = isOpen() ? InvokeError::SendFailed : InvokeError::ConnectionClosed;
        pending.callback(InvokeResult::failure(kind, "cannot send " + what + " to " + peerAddress_ + ": " + error));
    }
}

void Connection::handleResponse(RemotingCommand response)
{
    Pending pending;
    {
        std::lock_guard lock(pendingMutex_);
        auto it = pending_.find(response.opaque);
        if (it != pending_.end()) {
            pending = std::move(it->second);
            pending_.erase(it);
        }
    }
    if (!pending.callback) {
        // §9: a response nobody waits for (timed out, or unsolicited) is logged and dropped.
        spdlog::info("remoting {} {}: dropping response with no pending request: {}", side_, peerAddress_,
                     describeCommand(response));
        return;
    }
    pending.callback(InvokeResult::success(std::move(response)));
}

void Connection::expireRequests(std::chrono::steady_clock::time_point now)
{
    std::vector<std::pair<int32_t, Pending>> expired;
    {
        std::lock_guard lock(pendingMutex_);
        for (auto it = pending_.begin(); it != pending_.end();) {
            if (it->second.deadline <= now) {
                expired.emplace_back(it->first, std::move(it->second));
                it = pending_.erase(it);
            } else {
                ++it;
            }
        }
    }
    for (auto &[opaque, pending] : expired) {
        pending.callback(InvokeResult::failure(
            InvokeError::Timeout, "request code " + std::to_string(pending.code) + " opaque "
                                      + std::to_string(opaque) + " to " + peerAddress_ + " timed out after "
                                      + std::to_string(pending.timeout.count()) + " ms"));
    }
}

size_t Connection::pendingRequests() const
{
    std::lock_guard lock(pendingMutex_);
    return pending_.size();
}

void Connection::close(std::string_view reason)
{
    if (closed_)
        return;
    asio::post(socket_.get_executor(), [self = shared_from_this(), reason = std::string(reason)] {
        self->closeNow(reason, false);
    });
}

void Connection::closeNow(const std::string &reason, bool fault)
{
    if (closed_.exchange(true))
        return;
    if (fault)
        spdlog::warn("remoting {}: closing connection {} to {}: {}", side_, id_, peerAddress_, reason);
    else
        spdlog::debug("remoting {}: connection {} to {} closed: {}", side_, id_, peerAddress_, reason);
    std::error_code ignored;
    socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
    // A write in flight still references the front entry; its handler frees the queue.
    if (!writing_)
        clearWriteQueue();

    std::unordered_map<int32_t, Pending> failed;
    {
        std::lock_guard lock(pendingMutex_);
        pendingClosed_ = true;
        failed.swap(pending_);
    }
    for (auto &[opaque, pending] : failed) {
        pending.callback(InvokeResult::failure(
            InvokeError::ConnectionClosed, "connection to " + peerAddress_ + " closed (" + reason
                                               + ") before the response to request code "
                                               + std::to_string(pending.code) + " opaque "
                                               + std::to_string(opaque) + " arrived"));
    }
    // Drop the handlers: they may capture the owner, which must not be kept alive by us.
    RequestHandler onRequest = std::move(onRequest_);
    CloseHandler onClose = std::move(onClose_);
    onRequest_ = nullptr;
    onClose_ = nullptr;
    if (onClose)
        onClose(shared_from_this());
}

} // namespace mqdesk::remoting
