#pragma once

// Helpers for the remoting suites: bytes from spec dumps, hand-built frames, command diffs.

#include "broker/common/bytes.h"
#include "broker/remoting/remoting_command.h"

#include <cctype>
#include <cstdint>
#include <sstream>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::test {

inline std::vector<uint8_t> bytesOf(std::string_view text) { return {text.begin(), text.end()}; }

inline std::string textOf(const std::vector<uint8_t> &bytes) { return {bytes.begin(), bytes.end()}; }

// The bytes of an `xxd`-style dump as printed in remoting spec Appendix A: each line is an
// offset, up to 16 hex pairs, then the ASCII column between bars, which is ignored.
inline std::vector<uint8_t> fromXxd(std::string_view dump)
{
    std::vector<uint8_t> bytes;
    std::istringstream lines{std::string(dump)};
    for (std::string line; std::getline(lines, line);) {
        const size_t bar = line.find('|');
        std::istringstream fields(line.substr(0, bar));
        std::string offset;
        if (!(fields >> offset))
            continue;
        for (std::string pair; fields >> pair;)
            bytes.push_back(static_cast<uint8_t>(std::stoul(pair, nullptr, 16)));
    }
    return bytes;
}

// A frame around arbitrary header bytes: length field, header-length word, header, body.
inline std::vector<uint8_t> rawFrame(uint8_t type, const std::vector<uint8_t> &header,
                                     std::string_view body = {})
{
    // Sized once and filled with memcpy: g++ 12 at -O3 misreads vector::insert after a small
    // initial size as an out-of-bounds copy (-Warray-bounds).
    std::vector<uint8_t> frame(8 + header.size() + body.size());
    common::writeInt32(frame.data(), static_cast<int32_t>(4 + header.size() + body.size()));
    common::writeInt32(frame.data() + 4, static_cast<int32_t>((uint32_t{type} << 24) | header.size()));
    if (!header.empty())
        std::memcpy(frame.data() + 8, header.data(), header.size());
    if (!body.empty())
        std::memcpy(frame.data() + 8 + header.size(), body.data(), body.size());
    return frame;
}

inline std::vector<uint8_t> jsonFrame(std::string_view header, std::string_view body = {})
{
    return rawFrame(0, bytesOf(header), body);
}

// Appends big-endian integers and raw text, to build binary headers by hand.
class ByteWriter
{
public:
    template<typename T>
    ByteWriter &put(T value)
    {
        uint8_t raw[sizeof(T)];
        common::storeBigEndian(raw, value);
        bytes_.insert(bytes_.end(), raw, raw + sizeof(T));
        return *this;
    }
    ByteWriter &text(std::string_view s)
    {
        bytes_.insert(bytes_.end(), s.begin(), s.end());
        return *this;
    }
    const std::vector<uint8_t> &bytes() const { return bytes_; }

private:
    std::vector<uint8_t> bytes_;
};

// The first differing field of two commands, or an empty string when they are equal.
inline std::string commandDiff(const remoting::RemotingCommand &actual,
                               const remoting::RemotingCommand &expected)
{
    auto show = [](const std::optional<std::string> &s) { return s ? '"' + *s + '"' : std::string("(none)"); };
    if (actual.code != expected.code)
        return "code " + std::to_string(actual.code) + " != " + std::to_string(expected.code);
    if (actual.language != expected.language)
        return "language " + std::to_string(int(actual.language)) + " != " + std::to_string(int(expected.language));
    if (actual.version != expected.version)
        return "version " + std::to_string(actual.version) + " != " + std::to_string(expected.version);
    if (actual.opaque != expected.opaque)
        return "opaque " + std::to_string(actual.opaque) + " != " + std::to_string(expected.opaque);
    if (actual.flag != expected.flag)
        return "flag " + std::to_string(actual.flag) + " != " + std::to_string(expected.flag);
    if (actual.remark != expected.remark)
        return "remark " + show(actual.remark) + " != " + show(expected.remark);
    if (actual.serializeType != expected.serializeType)
        return "serializeType differs";
    if (actual.extFields.size() != expected.extFields.size())
        return "extFields size " + std::to_string(actual.extFields.size()) + " != "
               + std::to_string(expected.extFields.size());
    for (size_t i = 0; i < actual.extFields.size(); ++i) {
        const auto &a = actual.extFields.entries()[i];
        const auto &e = expected.extFields.entries()[i];
        if (a != e)
            return "extFields[" + std::to_string(i) + "] " + a.first + "=" + a.second + " != "
                   + e.first + "=" + e.second;
    }
    if (actual.body != expected.body)
        return "body of " + std::to_string(actual.body.size()) + " bytes != expected "
               + std::to_string(expected.body.size()) + " bytes";
    return actual == expected ? std::string() : std::string("commands differ");
}

} // namespace mqdesk::test
