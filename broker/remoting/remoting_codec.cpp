#include "broker/remoting/remoting_codec.h"

#include "broker/common/bytes.h"
#include "broker/remoting/remoting_header.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>

namespace mqdesk::remoting {

namespace {

constexpr size_t kPrefixSize = 8; // length field + header-length word

// Checks the length field L, which counts the bytes after itself.
std::string checkFrameLength(int32_t length, size_t maxFrameSize)
{
    if (length < 0)
        return "negative frame length " + std::to_string(length);
    if (length < 4)
        return "frame length " + std::to_string(length)
               + " is less than 4, the size of the header-length word";
    const uint64_t total = 4 + static_cast<uint64_t>(length);
    if (total > maxFrameSize)
        return "frame of " + std::to_string(total) + " bytes (length field "
               + std::to_string(length) + ") exceeds the " + std::to_string(maxFrameSize)
               + "-byte frame limit";
    return {};
}

// Checks the header-length word of a frame whose length field is `length` (already checked).
std::string checkHeaderWord(uint32_t word, int32_t length)
{
    const uint32_t type = word >> 24;
    const uint32_t headerLength = word & 0xFFFFFF;
    if (type > static_cast<uint32_t>(SerializeType::RocketMq)) {
        char hex[16];
        std::snprintf(hex, sizeof hex, "0x%08X", word);
        return "unknown serialization type " + std::to_string(type) + " in header-length word "
               + hex + " (expected 0 = JSON or 1 = ROCKETMQ)";
    }
    const auto available = static_cast<uint32_t>(length) - 4;
    if (headerLength > available)
        return "header length " + std::to_string(headerLength) + " exceeds the "
               + std::to_string(available) + " bytes the frame holds after the header-length word";
    return {};
}

// Requires: checkHeaderWord(word, ...) passed and header.size() == word's header length.
std::string decodeHeader(uint32_t word, std::span<const uint8_t> header, RemotingCommand &command)
{
    command.serializeType = static_cast<SerializeType>(word >> 24);
    return command.serializeType == SerializeType::Json ? decodeJsonHeader(header, command)
                                                        : decodeRocketMqHeader(header, command);
}

// Decodes what follows a checked length field: `content` holds exactly L bytes.
std::string decodeContent(std::span<const uint8_t> content, RemotingCommand &command)
{
    const auto word = static_cast<uint32_t>(common::readInt32(content.data()));
    if (std::string fault = checkHeaderWord(word, static_cast<int32_t>(content.size()));
        !fault.empty())
        return fault;
    const size_t headerLength = word & 0xFFFFFF;
    if (std::string fault = decodeHeader(word, content.subspan(4, headerLength), command);
        !fault.empty())
        return fault;
    const auto body = content.subspan(4 + headerLength);
    command.body.assign(body.begin(), body.end());
    return {};
}

EncodeResult encode(const RemotingCommand &command, size_t maxFrameSize, bool withBody)
{
    EncodeResult result;
    std::vector<uint8_t> &out = result.bytes;
    out.resize(kPrefixSize);
    switch (command.serializeType) {
    case SerializeType::Json: {
        const std::string header = encodeJsonHeader(command);
        out.insert(out.end(), header.begin(), header.end());
        break;
    }
    case SerializeType::RocketMq:
        result.error = encodeRocketMqHeader(command, out);
        break;
    default:
        result.error = "unknown serialization type "
                       + std::to_string(static_cast<int>(command.serializeType));
        break;
    }
    const size_t headerLength = out.size() - kPrefixSize;
    const uint64_t total = uint64_t{kPrefixSize} + headerLength + command.body.size();
    if (result.ok() && headerLength > kMaxHeaderLength)
        result.error = "header of " + std::to_string(headerLength) + " bytes exceeds the "
                       + std::to_string(kMaxHeaderLength) + "-byte maximum of the 24-bit header length";
    if (result.ok() && total > maxFrameSize)
        result.error = "frame of " + std::to_string(total) + " bytes exceeds the "
                       + std::to_string(maxFrameSize) + "-byte frame limit";
    if (result.ok() && total - 4 > static_cast<uint64_t>(std::numeric_limits<int32_t>::max()))
        result.error = "frame of " + std::to_string(total) + " bytes exceeds the int32 length field";
    if (!result.ok()) {
        out.clear();
        return result;
    }
    common::writeInt32(out.data(), static_cast<int32_t>(total - 4));
    const uint32_t word = (uint32_t{static_cast<uint8_t>(command.serializeType)} << 24)
                          | static_cast<uint32_t>(headerLength);
    common::writeInt32(out.data() + 4, static_cast<int32_t>(word));
    if (withBody) {
        out.reserve(out.size() + command.body.size());
        out.insert(out.end(), command.body.begin(), command.body.end());
    }
    return result;
}

} // namespace

EncodeResult encodeFrame(const RemotingCommand &command, size_t maxFrameSize)
{
    return encode(command, maxFrameSize, true);
}

EncodeResult encodeFramePrefix(const RemotingCommand &command, size_t maxFrameSize)
{
    return encode(command, maxFrameSize, false);
}

DecodeResult decodeFrame(std::span<const uint8_t> frame, size_t maxFrameSize)
{
    DecodeResult result;
    if (frame.size() < 4) {
        result.error = "frame of " + std::to_string(frame.size())
                       + " bytes is shorter than its 4-byte length field";
        return result;
    }
    const int32_t length = common::readInt32(frame.data());
    result.error = checkFrameLength(length, maxFrameSize);
    if (result.ok() && frame.size() - 4 != static_cast<size_t>(length))
        result.error = "length field announces a frame of " + std::to_string(4 + uint64_t(length))
                       + " bytes, but " + std::to_string(frame.size()) + " bytes were given";
    if (result.ok())
        result.error = decodeContent(frame.subspan(4), result.command);
    return result;
}

FrameDecoder::FrameDecoder(size_t maxFrameSize)
    : maxFrameSize_(maxFrameSize)
{}

void FrameDecoder::reset()
{
    prefixSize_ = 0;
    frameLength_ = 0;
    rest_ = std::vector<uint8_t>();
    offset_ = 0;
    frameStart_ = 0;
    error_.clear();
}

bool FrameDecoder::fail(const std::string &fault)
{
    error_ = "frame at stream offset " + std::to_string(frameStart_) + ": " + fault;
    rest_ = std::vector<uint8_t>();
    return false;
}

bool FrameDecoder::feed(std::span<const uint8_t> data, std::vector<RemotingCommand> &out)
{
    if (failed())
        return false;
    while (!data.empty()) {
        if (prefixSize_ == 0) {
            frameStart_ = offset_;
            // A whole frame inside the chunk decodes in place, without going through rest_.
            if (data.size() >= 4) {
                const int32_t length = common::readInt32(data.data());
                if (std::string fault = checkFrameLength(length, maxFrameSize_); !fault.empty())
                    return fail(fault);
                const size_t frameSize = 4 + static_cast<size_t>(length);
                if (data.size() >= frameSize) {
                    RemotingCommand command;
                    if (std::string fault = decodeContent(data.subspan(4, frameSize - 4), command);
                        !fault.empty())
                        return fail(fault);
                    out.push_back(std::move(command));
                    data = data.subspan(frameSize);
                    offset_ += frameSize;
                    continue;
                }
            }
        }
        if (prefixSize_ < kPrefixSize) {
            const size_t before = prefixSize_;
            const size_t take = std::min(kPrefixSize - prefixSize_, data.size());
            std::memcpy(prefix_ + prefixSize_, data.data(), take);
            prefixSize_ += take;
            data = data.subspan(take);
            offset_ += take;
            if (before < 4 && prefixSize_ >= 4) {
                frameLength_ = common::readInt32(prefix_);
                if (std::string fault = checkFrameLength(frameLength_, maxFrameSize_); !fault.empty())
                    return fail(fault);
            }
            if (prefixSize_ < kPrefixSize)
                continue;
            // Checked as soon as it arrives, so a bad frame fails before its body is buffered.
            const auto word = static_cast<uint32_t>(common::readInt32(prefix_ + 4));
            if (std::string fault = checkHeaderWord(word, frameLength_); !fault.empty())
                return fail(fault);
        } else {
            const size_t missing = static_cast<size_t>(frameLength_) - 4 - rest_.size();
            const size_t take = std::min(missing, data.size());
            appendRest(data.first(take));
            data = data.subspan(take);
            offset_ += take;
        }
        if (rest_.size() == static_cast<size_t>(frameLength_) - 4 && !completeFrame(out))
            return false;
    }
    return true;
}

void FrameDecoder::appendRest(std::span<const uint8_t> bytes)
{
    // Grow geometrically but never beyond this frame's size: a peer announcing 16 MiB and
    // sending 10 bytes costs 10 bytes, and a complete frame costs at most its own size.
    const size_t frameRest = static_cast<size_t>(frameLength_) - 4;
    const size_t needed = rest_.size() + bytes.size();
    if (needed > rest_.capacity())
        rest_.reserve(std::min(frameRest, std::max(needed, rest_.capacity() * 2)));
    rest_.insert(rest_.end(), bytes.begin(), bytes.end());
}

// Requires: the prefix is complete and checked, and rest_ holds the whole header and body.
bool FrameDecoder::completeFrame(std::vector<RemotingCommand> &out)
{
    const auto word = static_cast<uint32_t>(common::readInt32(prefix_ + 4));
    const size_t headerLength = word & 0xFFFFFF;
    RemotingCommand command;
    if (std::string fault = decodeHeader(word, std::span(rest_).first(headerLength), command);
        !fault.empty())
        return fail(fault);
    // The buffer becomes the body: no second copy of a large body.
    rest_.erase(rest_.begin(), rest_.begin() + static_cast<std::ptrdiff_t>(headerLength));
    command.body = std::move(rest_);
    rest_ = std::vector<uint8_t>();
    out.push_back(std::move(command));
    prefixSize_ = 0;
    frameLength_ = 0;
    return true;
}

} // namespace mqdesk::remoting
