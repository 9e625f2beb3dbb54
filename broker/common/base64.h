#pragma once

// RFC 4648 Base64 as java.util.Base64 writes and reads it: the basic alphabet (`+/`, used by
// fastjson for byte[] and by the ACL signatures) and the URL-safe one (`-_`, RocketMQ 5's recall
// handles). Encoding always pads with `=`.

#include <optional>
#include <string>
#include <string_view>

namespace mqdesk::common {

enum class Base64Alphabet { Basic, UrlSafe };

std::string encodeBase64(std::string_view bytes, Base64Alphabet alphabet = Base64Alphabet::Basic);

// What java.util.Base64's decoder of that alphabet accepts: padding optional, nothing after it but
// more padding, no character outside the alphabet, no dangling single character. nullopt otherwise.
std::optional<std::string> decodeBase64(std::string_view text, Base64Alphabet alphabet = Base64Alphabet::Basic);

} // namespace mqdesk::common
