#include "broker/common/java_strings.h"

#include <charconv>
#include <cstdio>
#include <ctime>
#include <string>
#include <strings.h>

namespace mqdesk::common {

namespace {

template <typename T>
std::optional<T> parseJavaInteger(std::string_view text)
{
    if (text.empty())
        return std::nullopt;
    std::string_view digits = text;
    bool negative = false;
    if (digits.front() == '+' || digits.front() == '-') {
        negative = digits.front() == '-';
        digits.remove_prefix(1);
    }
    if (digits.empty() || digits.front() < '0' || digits.front() > '9')
        return std::nullopt;
    // from_chars takes '-' but not '+': parse the magnitude with the sign put back.
    std::string buffer;
    buffer.reserve(digits.size() + 1);
    if (negative)
        buffer.push_back('-');
    buffer.append(digits);
    T value{};
    const auto [end, ec] = std::from_chars(buffer.data(), buffer.data() + buffer.size(), value, 10);
    if (ec != std::errc() || end != buffer.data() + buffer.size())
        return std::nullopt;
    return value;
}

} // namespace

std::vector<std::string_view> javaSplit(std::string_view text, char separator)
{
    std::vector<std::string_view> parts;
    for (size_t start = 0;;) {
        const size_t end = text.find(separator, start);
        parts.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos)
            break;
        start = end + 1;
    }
    while (!parts.empty() && parts.back().empty())
        parts.pop_back();
    return parts;
}

std::string_view javaTrim(std::string_view text)
{
    while (!text.empty() && static_cast<unsigned char>(text.front()) <= ' ')
        text.remove_prefix(1);
    while (!text.empty() && static_cast<unsigned char>(text.back()) <= ' ')
        text.remove_suffix(1);
    return text;
}

std::optional<int64_t> parseJavaLong(std::string_view text) { return parseJavaInteger<int64_t>(text); }

std::optional<int32_t> parseJavaInt(std::string_view text) { return parseJavaInteger<int32_t>(text); }

bool parseJavaBoolean(std::string_view text)
{
    return text.size() == 4 && strncasecmp(text.data(), "true", 4) == 0;
}

std::string javaHumanTime(int64_t epochMillis)
{
    int64_t millis = epochMillis % 1000;
    auto seconds = static_cast<std::time_t>(epochMillis / 1000);
    if (millis < 0) {
        millis += 1000;
        --seconds;
    }
    std::tm local{};
    localtime_r(&seconds, &local);
    char text[96]; // room for any int fields
    std::snprintf(text, sizeof text, "%04d-%02d-%02d %02d:%02d:%02d,%03d", local.tm_year + 1900, local.tm_mon + 1,
                  local.tm_mday, local.tm_hour, local.tm_min, local.tm_sec, static_cast<int>(millis));
    return text;
}

} // namespace mqdesk::common
