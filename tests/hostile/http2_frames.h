#pragma once

// HTTP/2 frames built byte by byte (RFC 9113, HPACK RFC 7541) for the hostile suites: what the
// attacks on the gRPC port send — rapid reset, CONTINUATION and ping floods, streams never
// ended — with nothing of grpc++ involved. Header blocks use literal fields only (no dynamic
// table), which every decoder must accept.

#include <cstdint>
#include <string>
#include <vector>

namespace mqdesk::hostile::http2 {

using Bytes = std::vector<uint8_t>;

enum : uint8_t { kData = 0, kHeaders = 1, kPriority = 2, kRstStream = 3, kSettings = 4, kPing = 6, kContinuation = 9 };
enum : uint8_t { kEndStream = 0x1, kAck = 0x1, kEndHeaders = 0x4 };

inline const std::string kPreface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

inline void appendFrame(Bytes &out, uint8_t type, uint8_t flags, uint32_t stream, const Bytes &payload)
{
    const size_t length = payload.size();
    out.push_back(static_cast<uint8_t>(length >> 16));
    out.push_back(static_cast<uint8_t>(length >> 8));
    out.push_back(static_cast<uint8_t>(length));
    out.push_back(type);
    out.push_back(flags);
    for (int shift = 24; shift >= 0; shift -= 8)
        out.push_back(static_cast<uint8_t>((stream & 0x7fffffffu) >> shift));
    out.insert(out.end(), payload.begin(), payload.end());
}

// An HPACK integer with an N-bit prefix (RFC 7541 §5.1); `first` carries the pattern bits.
inline void appendInteger(Bytes &out, uint8_t first, int prefixBits, size_t value)
{
    const size_t max = (size_t{1} << prefixBits) - 1;
    if (value < max) {
        out.push_back(static_cast<uint8_t>(first | value));
        return;
    }
    out.push_back(static_cast<uint8_t>(first | max));
    value -= max;
    while (value >= 128) {
        out.push_back(static_cast<uint8_t>((value & 0x7f) | 0x80));
        value >>= 7;
    }
    out.push_back(static_cast<uint8_t>(value));
}

inline void appendString(Bytes &out, const std::string &text)
{
    appendInteger(out, 0x00, 7, text.size()); // not Huffman-coded
    out.insert(out.end(), text.begin(), text.end());
}

// A literal field without indexing, new name (RFC 7541 §6.2.2).
inline void appendField(Bytes &out, const std::string &name, const std::string &value)
{
    out.push_back(0x00);
    appendString(out, name);
    appendString(out, value);
}

// A gRPC call's request headers: POST `path`, as the SDKs send it.
inline Bytes requestHeaders(const std::string &path)
{
    Bytes block;
    block.push_back(0x83); // :method POST (static index 3)
    block.push_back(0x86); // :scheme http (6)
    appendInteger(block, 0x00, 4, 4); // :path, name from static index 4, literal value
    appendString(block, path);
    appendInteger(block, 0x00, 4, 1); // :authority
    appendString(block, "localhost");
    appendField(block, "content-type", "application/grpc");
    appendField(block, "te", "trailers");
    return block;
}

inline Bytes prefaceAndSettings()
{
    Bytes out(kPreface.begin(), kPreface.end());
    appendFrame(out, kSettings, 0, 0, {});
    return out;
}

} // namespace mqdesk::hostile::http2
