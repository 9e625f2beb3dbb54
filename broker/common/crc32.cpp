#include "broker/common/crc32.h"

#include <zlib.h>

#include <limits>

namespace mqdesk::common {

uint32_t crc32(std::span<const uint8_t> data)
{
    uLong crc = ::crc32(0L, Z_NULL, 0);
    const uint8_t *p = data.data();
    size_t remaining = data.size();
    // zlib takes a uInt length; bodies are far below 4 GiB but stay correct for any span.
    while (remaining > 0) {
        const auto chunk = static_cast<uInt>(
            std::min<size_t>(remaining, std::numeric_limits<uInt>::max()));
        crc = ::crc32(crc, p, chunk);
        p += chunk;
        remaining -= chunk;
    }
    return static_cast<uint32_t>(crc);
}

} // namespace mqdesk::common
