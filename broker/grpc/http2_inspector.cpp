#include "broker/grpc/http2_inspector.h"

#include <algorithm>
#include <cstring>

namespace mqdesk::grpc {

namespace {

// RFC 9113 §3.4 and §6.
constexpr char kPreface[] = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

enum FrameType : uint8_t {
    kData = 0x0,
    kHeaders = 0x1,
    kPriority = 0x2,
    kRstStream = 0x3,
    kSettings = 0x4,
    kPushPromise = 0x5,
    kPing = 0x6,
    kGoAway = 0x7,
    kWindowUpdate = 0x8,
    kContinuation = 0x9,
};
constexpr uint8_t kEndStream = 0x1;
constexpr uint8_t kEndHeaders = 0x4;

} // namespace

bool TokenBucket::take(std::chrono::steady_clock::time_point now)
{
    const double elapsed = std::chrono::duration<double>(now - last).count();
    tokens = std::min(burst, tokens + std::max(0.0, elapsed) * perSecond);
    last = now;
    if (tokens < 1)
        return false;
    tokens -= 1;
    return true;
}

Http2SharedBudget::Http2SharedBudget(const Http2Limits &limits, std::chrono::steady_clock::time_point now)
    : resets(10 * limits.resetBurst, 10 * limits.resetsPerSecond, now)
    , maxOpenStreams(limits.maxTotalOpenStreams)
{
}

void Http2SharedBudget::linger(size_t streams, std::chrono::steady_clock::time_point now)
{
    if (streams > 0)
        lingering.emplace_back(now, streams); // still counted in openStreams
}

void Http2SharedBudget::expire(std::chrono::steady_clock::time_point now)
{
    while (!lingering.empty() && now - lingering.front().first >= kStreamLinger) {
        openStreams -= lingering.front().second;
        lingering.pop_front();
    }
}

Http2Inspector::Http2Inspector(const Http2Limits &limits, Http2SharedBudget &shared, Clock::time_point now)
    : limits_(limits)
    , shared_(shared)
    , resets_(limits.resetBurst, limits.resetsPerSecond, now)
    , idleFrames_(limits.idleFrameBurst, limits.idleFramesPerSecond, now)
{
}

Http2Inspector::~Http2Inspector()
{
    shared_.linger(open_.size(), Clock::now());
}

bool Http2Inspector::fail(std::string reason)
{
    reason_ = std::move(reason);
    return false;
}

template<typename OnHeader>
bool Http2Inspector::FrameCursor::advance(std::span<const uint8_t> bytes, size_t &at, OnHeader onHeader)
{
    if (payloadLeft > 0) {
        const size_t n = std::min(payloadLeft, bytes.size() - at);
        payloadLeft -= n;
        at += n;
        return true;
    }
    const size_t n = std::min(sizeof header - headerSeen, bytes.size() - at);
    std::memcpy(header + headerSeen, bytes.data() + at, n);
    headerSeen += n;
    at += n;
    if (headerSeen < sizeof header)
        return true;
    headerSeen = 0;
    payloadLeft = (size_t{header[0]} << 16) | (size_t{header[1]} << 8) | header[2];
    return onHeader(header);
}

bool Http2Inspector::feed(std::span<const uint8_t> bytes, Clock::time_point now)
{
    if (!reason_.empty())
        return false;
    size_t at = 0;
    while (at < bytes.size()) {
        if (prefaceSeen_ < kPrefaceSize) {
            const size_t n = std::min(kPrefaceSize - prefaceSeen_, bytes.size() - at);
            if (std::memcmp(bytes.data() + at, kPreface + prefaceSeen_, n) != 0)
                return fail("not an HTTP/2 connection preface (a TLS or HTTP/1 client on the plaintext gRPC port?)");
            prefaceSeen_ += n;
            at += n;
            continue;
        }
        const bool wasInPayload = client_.payloadLeft > 0;
        if (!client_.advance(bytes, at, [this, now](const uint8_t *header) { return onClientFrame(header, now); }))
            return false;
        if (wasInPayload && client_.payloadLeft == 0)
            ++frames_;
    }
    return true;
}

void Http2Inspector::feedFromServer(std::span<const uint8_t> bytes)
{
    size_t at = 0;
    while (at < bytes.size())
        server_.advance(bytes, at, [this](const uint8_t *header) {
            onServerFrame(header);
            return true;
        });
}

namespace {

uint32_t streamOf(const uint8_t *header)
{
    return ((uint32_t{header[5]} << 24) | (uint32_t{header[6]} << 16) | (uint32_t{header[7]} << 8) | header[8])
           & 0x7fffffffu;
}

} // namespace

void Http2Inspector::streamEnded(uint32_t stream)
{
    if (open_.erase(stream) > 0)
        --shared_.openStreams;
}

void Http2Inspector::onServerFrame(const uint8_t *header)
{
    const uint8_t type = header[3];
    const uint8_t flags = header[4];
    if (type == kRstStream || ((type == kHeaders || type == kData) && (flags & kEndStream) != 0))
        streamEnded(streamOf(header));
}

bool Http2Inspector::onClientFrame(const uint8_t *header, Clock::time_point now)
{
    const size_t length = (size_t{header[0]} << 16) | (size_t{header[1]} << 8) | header[2];
    const uint8_t type = header[3];
    const uint8_t flags = header[4];
    const uint32_t stream = streamOf(header);
    if (length == 0)
        ++frames_;

    // A header block is one unit: nothing may come between its frames (RFC 9113 §6.10).
    if (inHeaderBlock_) {
        if (type != kContinuation || stream != headerBlockStream_)
            return fail("a header block interrupted by a frame of type " + std::to_string(type));
    } else if (type == kContinuation) {
        return fail("a CONTINUATION frame outside a header block");
    }
    if (type == kHeaders || type == kContinuation) {
        if (type == kHeaders)
            headerBlockBytes_ = 0;
        headerBlockBytes_ += length;
        if (headerBlockBytes_ > limits_.maxHeaderBlockBytes)
            return fail("a header block of more than " + std::to_string(limits_.maxHeaderBlockBytes) + " bytes");
        inHeaderBlock_ = (flags & kEndHeaders) == 0;
        headerBlockStream_ = stream;
    }
    if (type == kHeaders && stream > lastClientStream_) {
        lastClientStream_ = stream;
        if (open_.size() >= limits_.maxOpenStreams)
            return fail("more than " + std::to_string(limits_.maxOpenStreams) + " streams open at once");
        if (shared_.openStreams >= shared_.maxOpenStreams
            && !(shared_.closeBiggestHolder && shared_.closeBiggestHolder(*this)))
            return fail("the most streams open when all connections together held "
                        + std::to_string(shared_.maxOpenStreams));
        open_.insert(stream);
        ++shared_.openStreams;
    }

    bool idle = false;
    switch (type) {
    case kRstStream:
        streamEnded(stream);
        if (!resets_.take(now) || !shared_.resets.take(now))
            return fail("streams reset faster than " + std::to_string(static_cast<int>(limits_.resetsPerSecond))
                        + " a second (rapid reset)");
        return true;
    case kPing:
    case kSettings:
    case kPriority:
        idle = true;
        break;
    case kData:
        idle = length == 0 && (flags & kEndStream) == 0;
        break;
    case kHeaders:
    case kContinuation:
        idle = length == 0 && (flags & kEndHeaders) == 0;
        break;
    case kPushPromise:
        return fail("a PUSH_PROMISE from a client");
    case kGoAway:
    case kWindowUpdate:
        break;
    default:
        idle = true; // unknown types are ignored by the server, but each is read
        break;
    }
    if (idle && !idleFrames_.take(now))
        return fail("frames that carry nothing (PING, SETTINGS, PRIORITY, empty, unknown) faster than "
                    + std::to_string(static_cast<int>(limits_.idleFramesPerSecond)) + " a second");
    return true;
}

} // namespace mqdesk::grpc
