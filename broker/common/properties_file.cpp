#include "broker/common/properties_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace mqdesk::common {

namespace {

std::string_view trim(std::string_view s)
{
    const auto isBlank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f'; };
    while (!s.empty() && isBlank(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isBlank(s.back()))
        s.remove_suffix(1);
    return s;
}

} // namespace

PropertiesParseResult parseProperties(std::string_view text)
{
    PropertiesParseResult result;
    int lineNumber = 0;
    while (!text.empty()) {
        ++lineNumber;
        const size_t end = text.find('\n');
        const std::string_view line = trim(text.substr(0, end));
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        if (line.empty() || line.front() == '#' || line.front() == '!')
            continue;
        if (line.back() == '\\') {
            result.error = "line " + std::to_string(lineNumber)
                           + ": line continuations are not supported";
            return result;
        }
        const size_t split = line.find_first_of("=:");
        if (split == std::string_view::npos) {
            result.error = "line " + std::to_string(lineNumber) + ": expected key=value, got '"
                           + std::string(line) + "'";
            return result;
        }
        const std::string_view key = trim(line.substr(0, split));
        if (key.empty()) {
            result.error = "line " + std::to_string(lineNumber) + ": empty key";
            return result;
        }
        result.values[std::string(key)] = std::string(trim(line.substr(split + 1)));
    }
    return result;
}

PropertiesParseResult loadPropertiesFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        PropertiesParseResult result;
        result.error = path + ": cannot open: " + std::strerror(errno);
        return result;
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    PropertiesParseResult result = parseProperties(buffer.str());
    if (!result.error.empty())
        result.error = path + ": " + result.error;
    return result;
}

} // namespace mqdesk::common
