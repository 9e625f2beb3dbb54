#include "broker/common/java_hash.h"

namespace mqdesk::common {

namespace {

constexpr uint32_t kReplacementChar = 0xFFFD;

// Decodes one code point starting at text[i], advancing i. Invalid sequences yield U+FFFD and
// consume one byte.
uint32_t nextCodePoint(std::string_view text, size_t &i)
{
    const auto lead = static_cast<uint8_t>(text[i]);
    int extra = 0;
    uint32_t cp = 0;
    if (lead < 0x80) {
        ++i;
        return lead;
    } else if ((lead & 0xE0) == 0xC0) {
        extra = 1;
        cp = lead & 0x1F;
    } else if ((lead & 0xF0) == 0xE0) {
        extra = 2;
        cp = lead & 0x0F;
    } else if ((lead & 0xF8) == 0xF0) {
        extra = 3;
        cp = lead & 0x07;
    } else {
        ++i;
        return kReplacementChar;
    }
    if (i + extra >= text.size()) { // truncated sequence
        ++i;
        return kReplacementChar;
    }
    for (int k = 1; k <= extra; ++k) {
        const auto cont = static_cast<uint8_t>(text[i + k]);
        if ((cont & 0xC0) != 0x80) {
            ++i;
            return kReplacementChar;
        }
        cp = (cp << 6) | (cont & 0x3F);
    }
    i += extra + 1;
    return cp;
}

} // namespace

int32_t javaStringHashCode(std::string_view utf8)
{
    uint32_t h = 0;
    size_t i = 0;
    while (i < utf8.size()) {
        if (const auto c = static_cast<unsigned char>(utf8[i]); c < 0x80) { // ASCII: one UTF-16 unit
            h = 31 * h + c;
            ++i;
            continue;
        }
        const uint32_t cp = nextCodePoint(utf8, i);
        if (cp >= 0x10000) {
            const uint32_t v = cp - 0x10000;
            h = 31 * h + (0xD800 + (v >> 10));
            h = 31 * h + (0xDC00 + (v & 0x3FF));
        } else {
            h = 31 * h + cp;
        }
    }
    return static_cast<int32_t>(h);
}

} // namespace mqdesk::common
