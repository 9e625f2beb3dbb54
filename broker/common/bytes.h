#pragma once

// Big-endian integer access. Every multi-byte integer RocketMQ puts on disk or on the wire is
// big-endian (Java ByteBuffer's default), so all codecs go through these helpers.

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace mqdesk::common {

namespace detail {
template <typename U>
inline U byteSwap(U value)
{
    if constexpr (sizeof(U) == 2)
        return __builtin_bswap16(value);
    else if constexpr (sizeof(U) == 4)
        return __builtin_bswap32(value);
    else
        return __builtin_bswap64(value);
}
} // namespace detail

template <typename T>
inline T loadBigEndian(const void *source)
{
    static_assert(std::is_integral_v<T>);
    T value;
    std::memcpy(&value, source, sizeof(T));
    if constexpr (std::endian::native == std::endian::little && sizeof(T) > 1)
        value = static_cast<T>(detail::byteSwap(static_cast<std::make_unsigned_t<T>>(value)));
    return value;
}

template <typename T>
inline void storeBigEndian(void *target, T value)
{
    static_assert(std::is_integral_v<T>);
    if constexpr (std::endian::native == std::endian::little && sizeof(T) > 1)
        value = static_cast<T>(detail::byteSwap(static_cast<std::make_unsigned_t<T>>(value)));
    std::memcpy(target, &value, sizeof(T));
}

inline int16_t readInt16(const uint8_t *p) { return loadBigEndian<int16_t>(p); }
inline int32_t readInt32(const uint8_t *p) { return loadBigEndian<int32_t>(p); }
inline int64_t readInt64(const uint8_t *p) { return loadBigEndian<int64_t>(p); }
inline void writeInt16(uint8_t *p, int16_t v) { storeBigEndian(p, v); }
inline void writeInt32(uint8_t *p, int32_t v) { storeBigEndian(p, v); }
inline void writeInt64(uint8_t *p, int64_t v) { storeBigEndian(p, v); }

} // namespace mqdesk::common
