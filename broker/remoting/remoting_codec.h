#pragma once

// Remoting frames (remoting spec §1.1): a command to bytes and back, whole or streamed.
//
//   int32 L | int32 (serialization type << 24 | H) | H header bytes | L - 4 - H body bytes
//
// All functions are total: malformed input gives an error naming the fault, never a crash, an
// exception or an allocation beyond the frame limit. A server logs the error and closes the
// connection without answering (§9).

#include "broker/remoting/remoting_command.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace mqdesk::remoting {

// RocketMQ's default com.rocketmq.remoting.frameMaxLength: the largest whole frame, its own
// 4-byte length field included.
inline constexpr size_t kDefaultMaxFrameSize = 16 * 1024 * 1024;
// The 24-bit header-length field's maximum.
inline constexpr size_t kMaxHeaderLength = (size_t{1} << 24) - 1;

struct EncodeResult
{
    std::vector<uint8_t> bytes;
    std::string error; // empty on success

    bool ok() const { return error.empty(); }
};

struct DecodeResult
{
    RemotingCommand command;
    std::string error; // empty on success

    bool ok() const { return error.empty(); }
};

// The whole frame of `command`, its header in command.serializeType. Fails when a field does
// not fit the encoding (a code beyond int16 in a binary header), the header exceeds
// kMaxHeaderLength, or the frame exceeds `maxFrameSize` (the peer would drop the connection).
EncodeResult encodeFrame(const RemotingCommand &command, size_t maxFrameSize = kDefaultMaxFrameSize);

// The same without the body: length field, header-length word and header, the length field
// already counting the body. For gathered writes: send these bytes, then command.body.
EncodeResult encodeFramePrefix(const RemotingCommand &command,
                               size_t maxFrameSize = kDefaultMaxFrameSize);

// Decodes exactly one frame, length field included; the span must end where the frame ends.
// The command's serializeType is the frame's.
DecodeResult decodeFrame(std::span<const uint8_t> frame, size_t maxFrameSize = kDefaultMaxFrameSize);

// Cuts a byte stream (one connection's reads) into commands. Chunks may split frames anywhere
// and hold several frames. Memory held for a partial frame grows with the bytes received, not
// with the length the peer announces, and never exceeds the frame limit.
//
// Not thread-safe: one decoder per connection, fed from its read handler.
class FrameDecoder
{
public:
    explicit FrameDecoder(size_t maxFrameSize = kDefaultMaxFrameSize);

    // Consumes all of `data` and appends each command it completes to `out`, in stream order.
    // Returns false once the stream is malformed: error() names the fault and its stream
    // offset, commands completed before the fault are still appended, and the decoder ignores
    // all further input (the connection must be closed; resynchronising is impossible).
    bool feed(std::span<const uint8_t> data, std::vector<RemotingCommand> &out);

    bool failed() const { return !error_.empty(); }
    const std::string &error() const { return error_; }

    // Bytes of an incomplete frame held; 0 at a frame boundary.
    size_t pendingBytes() const { return prefixSize_ + rest_.size(); }
    // Bytes consumed since construction or reset().
    uint64_t streamOffset() const { return offset_; }
    size_t maxFrameSize() const { return maxFrameSize_; }

    // Forgets any partial frame and a failure, for a new connection.
    void reset();

private:
    bool fail(const std::string &fault);
    bool completeFrame(std::vector<RemotingCommand> &out);
    void appendRest(std::span<const uint8_t> bytes);

    size_t maxFrameSize_;
    // The length field and the header-length word of the current frame, as received so far.
    uint8_t prefix_[8] = {};
    size_t prefixSize_ = 0;
    int32_t frameLength_ = 0; // L; valid once prefixSize_ >= 4
    std::vector<uint8_t> rest_; // header and body bytes received so far
    uint64_t offset_ = 0;
    uint64_t frameStart_ = 0;
    std::string error_;
};

} // namespace mqdesk::remoting
