#pragma once

// Java's String methods where RocketMQ's text formats depend on their quirks.

#include <string_view>
#include <vector>

namespace mqdesk::common {

// String.split with a one-character separator (no regex meaning): empty parts inside are kept,
// trailing empty parts dropped ("a,,b," → "a", "", "b"; "" → nothing).
std::vector<std::string_view> javaSplit(std::string_view text, char separator);

// String.trim: every character up to U+0020 (blanks, tabs, line ends, other controls) removed
// from both ends.
std::string_view javaTrim(std::string_view text);

} // namespace mqdesk::common
