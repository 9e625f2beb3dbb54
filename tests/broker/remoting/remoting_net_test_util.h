#pragma once

// Helpers for the network suites: addresses, waiting without asserting elapsed times, and a
// raw TCP socket for feeding a server bytes no well-behaved client would send.

#include "broker/remoting/remoting_codec.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mqdesk::test {

// Waits are generous: a loaded 2-core machine must never make a test fail.
inline constexpr std::chrono::milliseconds kWait{5000};

inline std::string localAddress(uint16_t port) { return "127.0.0.1:" + std::to_string(port); }

// Counts events from any thread; waitFor returns once `count` have happened or after kWait.
class EventCounter
{
public:
    void add(int n = 1)
    {
        {
            std::lock_guard lock(mutex_);
            count_ += n;
        }
        changed_.notify_all();
    }
    bool waitFor(int count, std::chrono::milliseconds timeout = kWait)
    {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, timeout, [&] { return count_ >= count; });
    }
    int count() const
    {
        std::lock_guard lock(mutex_);
        return count_;
    }

private:
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    int count_ = 0;
};

// A blocking TCP socket to 127.0.0.1 with a kWait receive timeout.
class RawSocket
{
public:
    // `receiveBuffer` > 0 shrinks SO_RCVBUF (before connecting, so the window stays small): a
    // peer that does not read then pushes back on the server quickly.
    explicit RawSocket(uint16_t port, int receiveBuffer = 0)
    {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        timeval timeout{static_cast<time_t>(kWait.count() / 1000), 0};
        ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
        if (receiveBuffer > 0)
            ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receiveBuffer, sizeof receiveBuffer);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        connected_ = ::connect(fd_, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0;
    }
    ~RawSocket() { ::close(fd_); }
    RawSocket(const RawSocket &) = delete;
    RawSocket &operator=(const RawSocket &) = delete;

    bool connected() const { return connected_; }

    bool send(std::span<const uint8_t> bytes)
    {
        size_t sent = 0;
        while (sent < bytes.size()) {
            const ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
            if (n <= 0)
                return false;
            sent += size_t(n);
        }
        return true;
    }
    bool send(const remoting::RemotingCommand &command) { return send(remoting::encodeFrame(command).bytes); }

    // The next command from the peer; nullopt when the peer closed, the stream is malformed or
    // nothing arrived within kWait.
    std::optional<remoting::RemotingCommand> receive()
    {
        while (received_.empty()) {
            uint8_t buffer[4096];
            const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
            if (n <= 0 || !decoder_.feed(std::span(buffer, size_t(n)), received_))
                return std::nullopt;
        }
        remoting::RemotingCommand command = std::move(received_.front());
        received_.erase(received_.begin());
        return command;
    }

    // True when the peer closed the connection (EOF or reset) within kWait, ignoring any data.
    bool waitForClose()
    {
        for (;;) {
            uint8_t buffer[4096];
            const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
            if (n == 0)
                return true;
            if (n < 0)
                return errno == ECONNRESET;
        }
    }

private:
    int fd_ = -1;
    bool connected_ = false;
    remoting::FrameDecoder decoder_;
    std::vector<remoting::RemotingCommand> received_;
};

} // namespace mqdesk::test
