#pragma once

// A remoting client written for the hostile suite: POSIX sockets and frames built byte by byte,
// so that it can send what no well-behaved client would (lying lengths, NUL bytes, 40,000
// header keys, half a frame). Responses are read back with our own JSON parser and record
// decoder; nothing of the broker's client library is involved.

#include "broker/common/bytes.h"
#include "broker/common/json.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace mqdesk::hostile {

using Fields = std::vector<std::pair<std::string, std::string>>;

struct Response
{
    int32_t code = -1;
    int32_t opaque = 0;
    int32_t flag = 0; // bit 0: a response (the broker also sends requests, e.g. NOTIFY_CONSUMER_IDS_CHANGED)
    std::string remark;
    std::map<std::string, std::string> ext;
    std::vector<uint8_t> body;
};

// JSON string escaping as fastjson writes it: quotes, backslashes and control bytes escaped,
// other bytes raw.
inline std::string jsonString(std::string_view text)
{
    std::string out = "\"";
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (byte < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", byte);
            out += escaped;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

inline std::string jsonHeader(int32_t code, int32_t opaque, const Fields &fields, int32_t flag = 0)
{
    std::string header = "{\"code\":" + std::to_string(code) + ",\"extFields\":{";
    for (size_t i = 0; i < fields.size(); ++i) {
        if (i > 0)
            header += ',';
        header += jsonString(fields[i].first) + ":" + jsonString(fields[i].second);
    }
    header += "},\"flag\":" + std::to_string(flag) + ",\"language\":\"JAVA\",\"opaque\":" + std::to_string(opaque)
              + ",\"serializeTypeCurrentRPC\":\"JSON\",\"version\":409}";
    return header;
}

// The ROCKETMQ binary header (remoting spec §1.4).
inline std::vector<uint8_t> binaryHeader(int32_t code, int32_t opaque, const Fields &fields, int32_t flag = 0)
{
    std::vector<uint8_t> out;
    const auto put = [&out](const void *data, size_t n) {
        out.insert(out.end(), static_cast<const uint8_t *>(data), static_cast<const uint8_t *>(data) + n);
    };
    const auto put16 = [&](int16_t v) { uint8_t b[2]; common::storeBigEndian(b, v); put(b, 2); };
    const auto put32 = [&](int32_t v) { uint8_t b[4]; common::storeBigEndian(b, v); put(b, 4); };
    put16(static_cast<int16_t>(code));
    out.push_back(0); // JAVA
    put16(409);
    put32(opaque);
    put32(flag);
    put32(0); // no remark
    size_t extLength = 0;
    for (const auto &[key, value] : fields)
        extLength += 2 + key.size() + 4 + value.size();
    put32(static_cast<int32_t>(extLength));
    for (const auto &[key, value] : fields) {
        put16(static_cast<int16_t>(key.size()));
        put(key.data(), key.size());
        put32(static_cast<int32_t>(value.size()));
        put(value.data(), value.size());
    }
    return out;
}

// length, serialize type + header length, header, body.
inline std::vector<uint8_t> frame(std::span<const uint8_t> header, std::span<const uint8_t> body, bool binary)
{
    uint8_t prefix[8];
    common::storeBigEndian(prefix, static_cast<int32_t>(4 + header.size() + body.size()));
    const uint32_t mark = (binary ? 1u << 24 : 0u) | static_cast<uint32_t>(header.size());
    common::storeBigEndian(prefix + 4, static_cast<int32_t>(mark));
    std::vector<uint8_t> out;
    out.reserve(sizeof prefix + header.size() + body.size());
    out.insert(out.end(), prefix, prefix + sizeof prefix);
    out.insert(out.end(), header.begin(), header.end());
    out.insert(out.end(), body.begin(), body.end());
    return out;
}

class RawClient
{
public:
    RawClient() = default;
    ~RawClient() { close(); }
    RawClient(const RawClient &) = delete;
    RawClient &operator=(const RawClient &) = delete;

    // "127.0.0.1:10911". `receiveBuffer` > 0: the socket's SO_RCVBUF, set before connecting (a
    // client that never reads then leaves what it is sent queued at the broker, not in its kernel).
    bool connect(const std::string &address, int receiveBuffer = 0)
    {
        close();
        const size_t colon = address.rfind(':');
        sockaddr_in target{};
        target.sin_family = AF_INET;
        target.sin_port = htons(static_cast<uint16_t>(std::stoi(address.substr(colon + 1))));
        if (inet_pton(AF_INET, address.substr(0, colon).c_str(), &target.sin_addr) != 1)
            return false;
        fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd_ < 0)
            return false;
        const int one = 1;
        ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (receiveBuffer > 0)
            ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receiveBuffer, sizeof receiveBuffer);
        if (::connect(fd_, reinterpret_cast<const sockaddr *>(&target), sizeof target) != 0) {
            close();
            return false;
        }
        return true;
    }

    void close()
    {
        if (fd_ >= 0)
            ::close(fd_);
        fd_ = -1;
        buffer_.clear();
    }

    bool sendBytes(std::span<const uint8_t> bytes)
    {
        size_t sent = 0;
        while (sent < bytes.size()) {
            const ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
            if (n <= 0)
                return false;
            sent += static_cast<size_t>(n);
        }
        return true;
    }

    int32_t sendJson(int32_t code, const Fields &fields, std::span<const uint8_t> body = {}, int32_t flag = 0)
    {
        const int32_t opaque = nextOpaque_++;
        const std::string header = jsonHeader(code, opaque, fields, flag);
        sendBytes(frame(std::span(reinterpret_cast<const uint8_t *>(header.data()), header.size()), body, false));
        return opaque;
    }

    int32_t sendBinary(int32_t code, const Fields &fields, std::span<const uint8_t> body = {})
    {
        const int32_t opaque = nextOpaque_++;
        sendBytes(frame(binaryHeader(code, opaque, fields), body, true));
        return opaque;
    }

    // The response with `opaque`, or nullopt when none arrives within `timeout` (or the
    // connection closed first: closedByPeer() says which).
    std::optional<Response> await(int32_t opaque, std::chrono::milliseconds timeout)
    {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            if (std::optional<Response> response = takeFrame()) {
                if (response->opaque == opaque && (response->flag & 1) != 0)
                    return response;
                continue;
            }
            if (peerClosed_ || !fill(deadline))
                return std::nullopt;
        }
    }

    std::optional<Response> call(int32_t code, const Fields &fields, std::span<const uint8_t> body = {},
                                 std::chrono::milliseconds timeout = std::chrono::seconds(10))
    {
        return await(sendJson(code, fields, body), timeout);
    }

    // Waits until the broker closes the connection (true) or `timeout` passes (false).
    bool waitClosed(std::chrono::milliseconds timeout)
    {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (!peerClosed_) {
            buffer_.clear();
            if (!fill(deadline))
                break;
        }
        return peerClosed_;
    }

    bool closedByPeer() const { return peerClosed_; }
    // The socket, for a suite that reads what is not a remoting frame (-1 when not connected).
    int descriptor() const { return fd_; }

private:
    // Reads what arrives before `deadline`; false on timeout or close.
    bool fill(std::chrono::steady_clock::time_point deadline)
    {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0)
            return false;
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(left.count())) <= 0)
            return false;
        uint8_t chunk[65536];
        const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
        if (n <= 0) {
            peerClosed_ = true;
            return false;
        }
        buffer_.insert(buffer_.end(), chunk, chunk + n);
        return true;
    }

    std::optional<Response> takeFrame()
    {
        if (buffer_.size() < 8)
            return std::nullopt;
        const auto length = static_cast<size_t>(common::readInt32(buffer_.data()));
        if (buffer_.size() < 4 + length)
            return std::nullopt;
        const uint32_t mark = static_cast<uint32_t>(common::readInt32(buffer_.data() + 4));
        const size_t headerLength = mark & 0xFFFFFF;
        const bool binary = (mark >> 24) == 1;
        Response response;
        const uint8_t *header = buffer_.data() + 8;
        if (binary) {
            response.code = common::readInt16(header);
            response.opaque = common::readInt32(header + 5);
            response.flag = common::readInt32(header + 9);
            const auto remarkLength = static_cast<size_t>(common::readInt32(header + 13));
            response.remark.assign(reinterpret_cast<const char *>(header + 17), remarkLength);
            const uint8_t *p = header + 17 + remarkLength + 4;
            while (p < header + headerLength) {
                const auto keyLength = static_cast<size_t>(common::readInt16(p));
                std::string key(reinterpret_cast<const char *>(p + 2), keyLength);
                p += 2 + keyLength;
                const auto valueLength = static_cast<size_t>(common::readInt32(p));
                response.ext[key].assign(reinterpret_cast<const char *>(p + 4), valueLength);
                p += 4 + valueLength;
            }
        } else {
            const auto parsed = common::parseJson(std::string_view(reinterpret_cast<const char *>(header), headerLength));
            if (parsed.ok() && parsed.value.isObject()) {
                const common::JsonObject &object = parsed.value.asObject();
                if (const auto *code = object.find("code"))
                    response.code = static_cast<int32_t>(code->asInteger());
                if (const auto *opaque = object.find("opaque"))
                    response.opaque = static_cast<int32_t>(opaque->asInteger());
                if (const auto *flag = object.find("flag"))
                    response.flag = static_cast<int32_t>(flag->asInteger());
                if (const auto *remark = object.find("remark"); remark && remark->isString())
                    response.remark = remark->asString();
                if (const auto *ext = object.find("extFields"); ext && ext->isObject()) {
                    for (const auto &member : ext->asObject())
                        response.ext[member.key] = member.value.isString() ? member.value.asString() : std::string();
                }
            }
        }
        response.body.assign(buffer_.begin() + static_cast<ptrdiff_t>(8 + headerLength),
                             buffer_.begin() + static_cast<ptrdiff_t>(4 + length));
        buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<ptrdiff_t>(4 + length));
        return response;
    }

    int fd_ = -1;
    int32_t nextOpaque_ = 1;
    bool peerClosed_ = false;
    std::vector<uint8_t> buffer_;
};

} // namespace mqdesk::hostile
