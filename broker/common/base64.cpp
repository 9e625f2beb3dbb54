#include "broker/common/base64.h"

#include <cstdint>

namespace mqdesk::common {

namespace {

constexpr std::string_view kBasic = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::string_view kUrlSafe = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string_view charsOf(Base64Alphabet alphabet)
{
    return alphabet == Base64Alphabet::UrlSafe ? kUrlSafe : kBasic;
}

} // namespace

std::string encodeBase64(std::string_view bytes, Base64Alphabet alphabet)
{
    const std::string_view chars = charsOf(alphabet);
    std::string out;
    out.reserve(4 * ((bytes.size() + 2) / 3));
    for (size_t i = 0; i < bytes.size(); i += 3) {
        const auto byteAt = [&](size_t j) { return j < bytes.size() ? uint32_t{static_cast<uint8_t>(bytes[j])} : 0u; };
        const uint32_t chunk = (byteAt(i) << 16) | (byteAt(i + 1) << 8) | byteAt(i + 2);
        out += chars[(chunk >> 18) & 63];
        out += chars[(chunk >> 12) & 63];
        out += i + 1 < bytes.size() ? chars[(chunk >> 6) & 63] : '=';
        out += i + 2 < bytes.size() ? chars[chunk & 63] : '=';
    }
    return out;
}

std::optional<std::string> decodeBase64(std::string_view text, Base64Alphabet alphabet)
{
    const std::string_view chars = charsOf(alphabet);
    if (const size_t pad = text.find('='); pad != std::string_view::npos) {
        const std::string_view padding = text.substr(pad);
        if (padding.find_first_not_of('=') != std::string_view::npos || padding.size() > 2)
            return std::nullopt;
        if ((pad + padding.size()) % 4 != 0)
            return std::nullopt;
        text = text.substr(0, pad);
    }
    if (text.size() % 4 == 1)
        return std::nullopt; // one character carries 6 bits: not a whole byte
    std::string out;
    out.reserve(text.size() * 3 / 4);
    uint32_t buffer = 0;
    int bits = 0;
    for (char c : text) {
        const size_t value = chars.find(c);
        if (value == std::string_view::npos)
            return std::nullopt;
        buffer = (buffer << 6) | static_cast<uint32_t>(value);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((buffer >> bits) & 0xff);
        }
    }
    return out;
}

} // namespace mqdesk::common
