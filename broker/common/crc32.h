#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace mqdesk::common {

// Standard CRC-32 (IEEE 802.3), the value of zlib's crc32 and java.util.zip.CRC32.
uint32_t crc32(std::span<const uint8_t> data);

// BODYCRC of a commit-log record: CRC-32 of the stored body with the sign bit cleared
// (store-format §3.4). An empty body gives 0.
inline int32_t maskedBodyCrc(std::span<const uint8_t> body)
{
    return static_cast<int32_t>(crc32(body) & 0x7FFFFFFFu);
}

} // namespace mqdesk::common
