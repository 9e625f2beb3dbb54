#pragma once

// Http2Inspector: reads what an HTTP/2 client sends, frame by frame, as the bytes pass on to
// grpc++, and says when the connection must close because its frames attack the server rather
// than ask it something (docs/grpc-http2-guard.md). Debian 12's libgrpc 1.51 predates the fixes
// for these, so the guard (http2_guard.h) closes such a connection before grpc++ buffers or
// works on it:
//
//   - a header block (HEADERS or PUSH_PROMISE and its CONTINUATION frames) past
//     maxHeaderBlockBytes, or interrupted by another frame (CVE-2023-33953 / CONTINUATION floods);
//   - streams reset by the client faster than a token bucket refills (rapid reset, CVE-2023-44487),
//     or more streams open at once than grpc++ advertises, on one connection or on all of them
//     (grpc++ 1.51 holds every stream a client opens before it acknowledged the limit);
//   - frames that cost the server work and carry nothing — PING, SETTINGS, PRIORITY, empty DATA
//     or HEADERS or CONTINUATION, frames of unknown types — faster than their bucket refills
//     (ping / settings / empty-frame floods, CVE-2019-9512, -9515, -9516, -9518);
//   - a connection that does not start with the preface, a PUSH_PROMISE from a client.
//
// A well-behaved client (every RocketMQ 5.x SDK) never comes near these: it sends a few hundred
// bytes of headers per call, a PING every few seconds at most and resets a stream only when a
// call is cancelled. Whole bytes are never held here: the inspector keeps a frame header's 9
// bytes per direction, counters and the ids of open streams, so an idle connection costs next to
// nothing. Not thread-safe: one per connection, on the guard's io thread.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <span>
#include <string>
#include <unordered_set>

namespace mqdesk::grpc {

struct Http2Limits
{
    // HEADERS + CONTINUATION of one header block. grpc++ refuses metadata past 8 KiB itself;
    // this bounds what it would buffer before it can tell.
    size_t maxHeaderBlockBytes = 64 * 1024;
    // Streams open at once on one connection (grpc++ advertises as many, but holds every stream
    // a client opens before it acknowledged that), and on all connections together — counting
    // a closed connection's for kStreamLinger more, while grpc++ frees them: a stream grpc++
    // holds costs 10–20 KiB.
    size_t maxOpenStreams = 256;
    size_t maxTotalOpenStreams = 5000;
    // Token buckets of one connection: a burst, then a rate per second. Stream resets of all
    // connections together have a bucket ten times this one (a client reconnecting gets no
    // fresh burst there); frames that carry nothing cost grpc++ little and have none.
    double resetBurst = 200; // RST_STREAM from the client
    double resetsPerSecond = 33;
    double idleFrameBurst = 1000; // PING, SETTINGS, PRIORITY, empty and unknown frames
    double idleFramesPerSecond = 100;
};

// A token bucket: `burst` tokens, refilled at `perSecond`.
struct TokenBucket
{
    double burst = 0;
    double perSecond = 0;
    double tokens = 0;
    std::chrono::steady_clock::time_point last;

    TokenBucket() = default;
    TokenBucket(double burstSize, double rate, std::chrono::steady_clock::time_point now)
        : burst(burstSize), perSecond(rate), tokens(burstSize), last(now)
    {}
    bool take(std::chrono::steady_clock::time_point now);
};

// What all connections of one guard share (on its one io thread).
struct Http2SharedBudget
{
    static constexpr std::chrono::seconds kStreamLinger{2};

    Http2SharedBudget(const Http2Limits &limits, std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now());
    // A closed connection's open streams, counted until grpc++ has had time to free them.
    void linger(size_t streams, std::chrono::steady_clock::time_point now);
    // Stops counting those that lingered long enough.
    void expire(std::chrono::steady_clock::time_point now);

    TokenBucket resets;
    size_t openStreams = 0; // open on live connections, and lingering
    size_t maxOpenStreams = 0;
    // At maxOpenStreams, a connection opening one more asks the guard whether it may: true when
    // the guard closed the connection holding the most streams instead, or the asker holds only
    // a few; false when the asker is to be closed.
    std::function<bool(const class Http2Inspector &asker)> closeBiggestHolder;
    std::deque<std::pair<std::chrono::steady_clock::time_point, size_t>> lingering;
};

class Http2Inspector
{
public:
    using Clock = std::chrono::steady_clock;

    // `shared` must outlive the inspector.
    Http2Inspector(const Http2Limits &limits, Http2SharedBudget &shared, Clock::time_point now = Clock::now());
    ~Http2Inspector();
    Http2Inspector(const Http2Inspector &) = delete;
    Http2Inspector &operator=(const Http2Inspector &) = delete;

    // Reads the next bytes the client sent. False when the connection must close; reason() then
    // names why ("a header block of more than 65536 bytes", "streams reset faster than 33/s"...).
    bool feed(std::span<const uint8_t> bytes, Clock::time_point now = Clock::now());
    // Reads the next bytes grpc++ sent the client: the streams it ended.
    void feedFromServer(std::span<const uint8_t> bytes);
    const std::string &reason() const { return reason_; }

    // True while a frame (or the preface) has begun and not ended: the guard's frame deadline.
    bool midFrame() const { return prefaceSeen_ < kPrefaceSize || client_.headerSeen > 0 || client_.payloadLeft > 0; }
    // Frames read whole so far.
    uint64_t frames() const { return frames_; }
    size_t openStreams() const { return open_.size(); }

    static constexpr size_t kPrefaceSize = 24;

private:
    // Where one direction's byte stream is: inside a frame header or a payload.
    struct FrameCursor
    {
        uint8_t header[9] = {};
        size_t headerSeen = 0;
        size_t payloadLeft = 0;
        // Feeds bytes; `onHeader` gets each whole frame header. False when it returned false.
        template<typename OnHeader>
        bool advance(std::span<const uint8_t> bytes, size_t &at, OnHeader onHeader);
    };

    bool onClientFrame(const uint8_t *header, Clock::time_point now);
    void onServerFrame(const uint8_t *header);
    void streamEnded(uint32_t stream);
    bool fail(std::string reason);

    Http2Limits limits_;
    Http2SharedBudget &shared_;
    size_t prefaceSeen_ = 0;
    FrameCursor client_;
    FrameCursor server_;
    bool inHeaderBlock_ = false;     // a HEADERS / PUSH_PROMISE without END_HEADERS was read
    uint32_t headerBlockStream_ = 0;
    size_t headerBlockBytes_ = 0;
    uint32_t lastClientStream_ = 0;
    std::unordered_set<uint32_t> open_; // streams the client opened that grpc++ has not ended
    TokenBucket resets_;
    TokenBucket idleFrames_;
    uint64_t frames_ = 0;
    std::string reason_;
};

} // namespace mqdesk::grpc
