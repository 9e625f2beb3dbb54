#pragma once

// Java's String methods where RocketMQ's text formats depend on their quirks.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::common {

// String.split with a one-character separator (no regex meaning): empty parts inside are kept,
// trailing empty parts dropped ("a,,b," → "a", "", "b"; "" → nothing).
std::vector<std::string_view> javaSplit(std::string_view text, char separator);

// String.trim: every character up to U+0020 (blanks, tabs, line ends, other controls) removed
// from both ends.
std::string_view javaTrim(std::string_view text);

// Long.parseLong / Integer.parseInt: an optional sign, then ASCII decimal digits only, in range;
// no blanks (ali-ons sends JSON numbers, which arrive as their decimal text).
std::optional<int64_t> parseJavaLong(std::string_view text);
std::optional<int32_t> parseJavaInt(std::string_view text);

// Boolean.parseBoolean: "true" in any case is true, everything else false.
bool parseJavaBoolean(std::string_view text);

// RocketMQ's UtilAll.timeMillisToHumanString2: epoch milliseconds as local time,
// "yyyy-MM-dd HH:mm:ss,SSS" (remarks that name a moment).
std::string javaHumanTime(int64_t epochMillis);

} // namespace mqdesk::common
