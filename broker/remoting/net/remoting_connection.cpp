#include "broker/remoting/net/remoting_connection.h"

#include "broker/remoting/net/tls_context.h"

#include <spdlog/spdlog.h>

#include <sys/socket.h>
#include <sys/uio.h>

#include <array>
#include <cerrno>
#include <utility>

namespace mqdesk::remoting {

namespace {

// The read buffer adapts to what the peer sends (as Netty's AdaptiveRecvByteBufAllocator): a
// quiet connection holds 2 KiB, a busy one up to 64 KiB, so that thousands of idle clients cost
// little.
constexpr size_t kMinReadChunk = 2 * 1024;
constexpr size_t kMaxReadChunk = 64 * 1024;
// A peer whose queued bytes have not moved for this long is not reading (MemoryBudget::maxTotal).
constexpr auto kStalledAfter = std::chrono::seconds(1);

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
                       std::shared_ptr<MemoryBudget> budget)
    : io_(std::move(io))
    , socket_(std::move(socket))
    , descriptor_(socket_.native_handle())
    , id_(nextConnectionId.fetch_add(1))
    , peerAddress_(std::move(peerAddress))
    , side_(std::move(side))
    , decoder_(maxFrameSize)
    , readBuffer_(kMinReadChunk)
    , budget_(std::move(budget))
    , lastActivityTicks_(std::chrono::steady_clock::now().time_since_epoch().count())
    , lastDrainTicks_(lastActivityTicks_.load())
{
    std::error_code ec;
    socket_.set_option(asio::ip::tcp::no_delay(true), ec);
}

Connection::~Connection() = default;

void Connection::noteFrames(size_t completed)
{
    const int64_t now = std::chrono::steady_clock::now().time_since_epoch().count();
    if (completed > 0) {
        lastActivityTicks_.store(now, std::memory_order_relaxed);
        framesReceived_.fetch_add(completed, std::memory_order_relaxed);
    }
    // A frame that is still arriving keeps the time it began (or began after the last one done);
    // so does a TLS handshake, which must complete within the same deadline.
    const bool handshaking = tls_ && !tls_->established();
    if (decoder_.pendingBytes() == 0 && !handshaking)
        partialSinceTicks_.store(0, std::memory_order_relaxed);
    else if (completed > 0 || partialSinceTicks_.load(std::memory_order_relaxed) == 0)
        partialSinceTicks_.store(now, std::memory_order_relaxed);
}

std::optional<std::chrono::steady_clock::time_point> Connection::partialFrameSince() const
{
    const int64_t ticks = partialSinceTicks_.load(std::memory_order_relaxed);
    if (ticks == 0)
        return std::nullopt;
    return std::chrono::steady_clock::time_point(std::chrono::steady_clock::duration(ticks));
}

std::chrono::steady_clock::time_point Connection::lastDrain() const
{
    return std::chrono::steady_clock::time_point(
        std::chrono::steady_clock::duration(lastDrainTicks_.load(std::memory_order_relaxed)));
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
    directWrites_.store(!tls_ && !tlsServer_, std::memory_order_release);
    asio::post(socket_.get_executor(), [self = shared_from_this()] {
        if (self->tls_)
            self->queueTlsOutput(); // the ClientHello
        self->readMore();
    });
}

void Connection::readMore()
{
    socket_.async_read_some(asio::buffer(readBuffer_), [self = shared_from_this()](std::error_code ec, size_t n) {
        if (ec) {
            self->closeNow(ec == asio::error::eof ? "peer closed" : "read failed: " + ec.message(), false);
            return;
        }
        self->adaptReadBuffer(n);
        std::span<const uint8_t> bytes(self->readBuffer_.data(), n);
        if (self->tlsServer_ && !self->chooseTransport(bytes[0]))
            return;
        if (self->tls_ && !self->decrypt(bytes))
            return;
        std::vector<RemotingCommand> commands;
        bool ok = false;
        // Nothing a peer sends may take an io thread down: an exception while decoding or
        // dispatching (out of memory, a bug) closes this one connection.
        try {
            ok = self->decoder_.feed(bytes, commands);
            if (self->plaintextRefused_) {
                if (!ok) { // not RocketMQ's framing either: closed without a word (one line per 10 s)
                    self->refusePlaintext({});
                    return;
                }
                if (!commands.empty())
                    self->refusePlaintext(commands); // each answered with the refusal, none served
                commands.clear(); // read on: within the frame deadline, then the refusal's linger
            }
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
        self->noteFrames(commands.size());
        if (ok && !self->accountPartial()) {
            self->closeNow("half-received frames of all connections hold more than "
                               + std::to_string(self->budget_->maxPartialTotal) + " bytes; this one "
                               + std::to_string(self->decoder_.pendingBytes()),
                           false); // counted in the budget; a flood of them is not logged one by one
            return;
        }
        if (!ok) {
            // §1.1/§9: no answer to a malformed frame; the stream cannot be resynchronised.
            self->closeNow("malformed frame: " + self->decoder_.error(), true);
            return;
        }
        if (self->tls_ && self->tls_->peerClosed()) {
            self->closeNow("peer closed (TLS close_notify)", false);
            return;
        }
        if (self->grownBuffer_ != 0) {
            self->readBuffer_.assign(self->grownBuffer_, 0);
            self->readBuffer_.shrink_to_fit();
            self->grownBuffer_ = 0;
        }
        if (!self->closed_)
            self->readMore();
    });
}

void Connection::release(size_t size)
{
    queuedWriteBytes_.fetch_sub(size);
    if (budget_)
        budget_->total.fetch_sub(size);
}

bool Connection::admit(size_t queued, size_t size, bool droppable, std::string *error)
{
    if (!budget_ || queued == 0) // a single frame larger than a limit still goes out alone
        return true;
    const MemoryBudget &budget = *budget_;
    const size_t total = budget.total.load();
    const bool overTotal = budget.maxTotal > 0 && total > budget.maxTotal;
    const bool notWritable = budget.highWaterMark > 0 && queued >= budget.highWaterMark;
    if (droppable && (notWritable || overTotal)) {
        budget_->dropped.fetch_add(1, std::memory_order_relaxed);
        if (error)
            *error = "dropped: " + std::to_string(queued) + " bytes are queued for " + peerAddress_;
        return false;
    }
    std::string reason;
    if (budget.maxPerConnection > 0 && queued + size > budget.maxPerConnection)
        reason = "the peer is not reading: " + std::to_string(queued) + " bytes already queued for it (limit "
                 + std::to_string(budget.maxPerConnection) + ")";
    else if (overTotal && notWritable && std::chrono::steady_clock::now() - lastDrain() > kStalledAfter)
        reason = "the peer is not reading: " + std::to_string(queued) + " bytes queued for it while the server holds "
                 + std::to_string(total) + " for all (limit " + std::to_string(budget.maxTotal) + ")";
    if (reason.empty())
        return true;
    if (error)
        *error = reason;
    if (!overflowed_.exchange(true)) { // said once; later sends meet the same closing connection
        budget_->closedForBacklog.fetch_add(1, std::memory_order_relaxed);
        spdlog::warn("remoting {} {}: closing: {}", side_, peerAddress_, reason);
        close(reason);
    }
    return false;
}

bool Connection::accountPartial()
{
    if (!budget_)
        return true;
    const size_t pending = decoder_.pendingBytes();
    if (pending >= partialCounted_)
        budget_->partialTotal.fetch_add(pending - partialCounted_);
    else
        budget_->partialTotal.fetch_sub(partialCounted_ - pending);
    partialCounted_ = pending;
    if (budget_->maxPartialTotal == 0 || pending == 0 || budget_->partialTotal.load() <= budget_->maxPartialTotal)
        return true;
    budget_->closedForPartial.fetch_add(1, std::memory_order_relaxed);
    return false;
}

void Connection::adaptReadBuffer(size_t lastRead)
{
    // Requires: on the strand, between reads; decodes below use only the first lastRead bytes.
    const size_t size = readBuffer_.size();
    if (lastRead == size && size < kMaxReadChunk)
        grownBuffer_ = std::min(size * 2, kMaxReadChunk);
    else if (lastRead < size / 8 && size > kMinReadChunk)
        grownBuffer_ = std::max(size / 2, kMinReadChunk);
}

bool Connection::enqueue(RemotingCommand command, std::string *error, bool droppable)
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
        if (error) {
            std::lock_guard lock(pendingMutex_);
            *error = "connection to " + peerAddress_ + " is closed"
                     + (closeReason_.empty() ? std::string() : " (" + closeReason_ + ")");
        }
        return false;
    }
    Outgoing outgoing{std::move(prefix.bytes), std::move(command.body)};
    outgoing.accounted = outgoing.prefix.size() + outgoing.body.size();
    const size_t size = outgoing.size();
    const size_t queued = queuedWriteBytes_.fetch_add(size);
    if (budget_)
        budget_->total.fetch_add(size);
    if (!admit(queued, size, droppable, error)) {
        release(size);
        return false;
    }
    if (directWrites_.load(std::memory_order_acquire))
        return writeOrQueue(std::move(outgoing));
    asio::post(socket_.get_executor(), [self = shared_from_this(), outgoing = std::move(outgoing)]() mutable {
        if (self->closed_) {
            self->release(outgoing.size());
            return;
        }
        if (self->tls_) {
            // Encrypted here, in queue order: the engine's records must reach the wire in the
            // order it made them.
            const bool sent = self->tls_->send(outgoing.prefix) && self->tls_->send(outgoing.body);
            std::vector<uint8_t>().swap(outgoing.prefix);
            outgoing.body.clear();
            self->tls_->takeOutput(outgoing.body);
            if (!sent) { // never a frame silently dropped: the peer sees the close
                self->release(outgoing.size());
                self->closeNow(self->tls_->error(), true);
                return;
            }
        }
        self->queueOnStrand(std::move(outgoing));
    });
    return true;
}

bool Connection::writeOrQueue(Outgoing outgoing)
{
    // Any thread. Nothing queued before it: the caller writes the frame itself, so a reply goes
    // out from the thread that made it instead of waking an io thread to write it. What the
    // kernel does not take at once is queued, and the strand writes it in order.
    std::unique_lock lock(writeMutex_);
    if (closed_) {
        lock.unlock();
        release(outgoing.size());
        return true; // as a frame queued just before the close: the peer sees the close
    }
    if (!writing_) {
        const size_t written = writeWithoutWaiting(outgoing);
        if (written == outgoing.prefix.size() + outgoing.body.size()) {
            lock.unlock();
            release(outgoing.size());
            lastDrainTicks_.store(std::chrono::steady_clock::now().time_since_epoch().count(),
                                  std::memory_order_relaxed);
            return true;
        }
        dropWritten(outgoing, written);
    }
    writeQueue_.push_back(std::move(outgoing));
    if (writing_)
        return true;
    writing_ = true;
    lock.unlock();
    asio::post(socket_.get_executor(), [self = shared_from_this()] { self->writeFront(); });
    return true;
}

size_t Connection::writeWithoutWaiting(const Outgoing &outgoing)
{
    // Requires: writeMutex_ (the descriptor stays open while it is held).
    std::array<iovec, 2> parts{iovec{const_cast<uint8_t *>(outgoing.prefix.data()), outgoing.prefix.size()},
                               iovec{const_cast<uint8_t *>(outgoing.body.data()), outgoing.body.size()}};
    msghdr message{};
    message.msg_iov = parts.data();
    message.msg_iovlen = outgoing.body.empty() ? 1 : 2;
    ssize_t written;
    do {
        written = ::sendmsg(descriptor_, &message, MSG_DONTWAIT | MSG_NOSIGNAL);
    } while (written < 0 && errno == EINTR);
    // A full socket buffer or an error: the strand's write takes the rest (and meets the error
    // again, and closes).
    return written < 0 ? 0 : static_cast<size_t>(written);
}

void Connection::dropWritten(Outgoing &outgoing, size_t written)
{
    const size_t fromPrefix = std::min(written, outgoing.prefix.size());
    outgoing.prefix.erase(outgoing.prefix.begin(), outgoing.prefix.begin() + fromPrefix);
    const auto fromBody = static_cast<std::ptrdiff_t>(written - fromPrefix);
    outgoing.body.erase(outgoing.body.begin(), outgoing.body.begin() + fromBody);
}

void Connection::queueOnStrand(Outgoing outgoing)
{
    std::unique_lock lock(writeMutex_);
    writeQueue_.push_back(std::move(outgoing));
    if (writing_)
        return;
    writing_ = true;
    lock.unlock();
    writeFront();
}

bool Connection::writeIdle() const
{
    std::lock_guard lock(writeMutex_);
    return !writing_;
}

// Requires: writeMutex_.
void Connection::clearWriteQueue()
{
    for (const Outgoing &outgoing : writeQueue_)
        release(outgoing.size());
    writeQueue_.clear();
}

// Requires: on the strand, writing_ set by the caller (the front is this write's until it completes).
void Connection::writeFront()
{
    std::unique_lock lock(writeMutex_);
    if (writeQueue_.empty() || closed_) {
        clearWriteQueue(); // a close while this write was posted: its handler is the last to touch the queue
        writing_ = false;
        lock.unlock();
        if (!closed_ && !closeWhenWritten_.empty())
            closeNow(closeWhenWritten_, false);
        return;
    }
    const Outgoing &front = writeQueue_.front(); // a deque's push_back keeps it where it is
    const std::array<asio::const_buffer, 2> buffers{asio::buffer(front.prefix), asio::buffer(front.body)};
    lock.unlock();
    asio::async_write(socket_, buffers, [self = shared_from_this()](std::error_code ec, size_t) {
        if (ec || self->closed_) {
            // The buffers of an aborted write stay alive until here, so free the queue now.
            {
                std::lock_guard queueLock(self->writeMutex_);
                self->clearWriteQueue();
                self->writing_ = false;
            }
            self->closeNow("write failed: " + ec.message(), false);
            return;
        }
        {
            std::lock_guard queueLock(self->writeMutex_);
            self->release(self->writeQueue_.front().size());
            self->writeQueue_.pop_front();
        }
        self->lastDrainTicks_.store(std::chrono::steady_clock::now().time_since_epoch().count(),
                                    std::memory_order_relaxed);
        self->writeFront();
    });
}

bool Connection::sendOneway(RemotingCommand request)
{
    request.flag &= ~RemotingCommand::kResponseFlag;
    request.markOneway();
    request.opaque = nextOpaque();
    return enqueue(std::move(request), nullptr);
}

bool Connection::sendDroppable(RemotingCommand request)
{
    request.flag &= ~RemotingCommand::kResponseFlag;
    request.markOneway();
    request.opaque = nextOpaque();
    return enqueue(std::move(request), nullptr, true);
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
            // Why it closed (a failed TLS handshake names the certificate): a request made just
            // after the close gets the same explanation as one that was waiting.
            std::string error = "connection to " + peerAddress_ + " is closed (" + closeReason_ + ")";
            lock.unlock(); // callbacks never run under the lock: they may invoke again
            callback(InvokeResult::failure(InvokeError::ConnectionClosed, std::move(error)));
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
    {
        // The reason is in place before closed_ shows, so enqueue() can always give it.
        std::lock_guard lock(pendingMutex_);
        if (closeReason_.empty())
            closeReason_ = reason;
    }
    if (closed_.exchange(true))
        return;
    if (fault)
        spdlog::warn("remoting {}: closing connection {} to {}: {}", side_, id_, peerAddress_, reason);
    else
        spdlog::debug("remoting {}: connection {} to {} closed: {}", side_, id_, peerAddress_, reason);
    {
        // Under the write lock: a thread writing a frame itself holds the descriptor open.
        std::lock_guard lock(writeMutex_);
        std::error_code ignored;
        socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
        socket_.close(ignored);
        // A write in flight (or posted) still references the front entry; its handler frees the queue.
        if (!writing_)
            clearWriteQueue();
    }
    if (budget_ && partialCounted_ > 0) // its half-received frame is dropped with it
        budget_->partialTotal.fetch_sub(partialCounted_);
    partialCounted_ = 0;

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
