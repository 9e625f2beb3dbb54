#include "broker/common/java_hash.h"

#include "broker/common/text.h"

namespace mqdesk::common {

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
        const uint32_t cp = decodeUtf8CodePoint(utf8, i);
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
