#pragma once

#include <cstdint>
#include <string_view>

namespace mqdesk::common {

// Java's String.hashCode() of a UTF-8 string: h = 31*h + c over its UTF-16 code units, with
// 32-bit wrap-around. RocketMQ uses it for the consume-queue tags code and the index key hash.
// Malformed UTF-8 bytes count as U+FFFD, as Java's decoder would produce.
int32_t javaStringHashCode(std::string_view utf8);

// tagsCode of a TAGS value: the hash sign-extended to 64 bits, 0 for an empty tag (§3.8).
inline int64_t tagsCodeOf(std::string_view tags)
{
    return tags.empty() ? 0 : static_cast<int64_t>(javaStringHashCode(tags));
}

} // namespace mqdesk::common
