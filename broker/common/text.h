#pragma once

// Bytes read as text the way Java reads them: hex digits, and UTF-8 as Java's UTF-8 decoder
// turns it into code points (what String.hashCode, fastjson and the console see).

#include <string_view>

namespace mqdesk::common {

// The value of one hex digit (either case), or -1.
inline int hexDigitValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// Decodes the UTF-8 sequence at s[i] (i < s.size()), advancing i past it. A malformed byte —
// a stray continuation, a truncated, overlong or surrogate sequence, a code point past U+10FFFF —
// gives U+FFFD and advances one byte, as Java's decoder replaces it.
char32_t decodeUtf8CodePoint(std::string_view s, size_t &i);

} // namespace mqdesk::common
