#pragma once

// Java .properties files, the format of RocketMQ's broker.conf: `key=value` or `key: value`
// lines, `#`/`!` comments, surrounding blanks trimmed. (Line continuations and \uXXXX escapes,
// which broker.conf files do not use, are not supported; a trailing backslash is an error.)

#include <map>
#include <string>
#include <string_view>

namespace mqdesk::common {

struct PropertiesParseResult
{
    std::map<std::string, std::string> values;
    std::string error; // empty on success; otherwise names the line
};

PropertiesParseResult parseProperties(std::string_view text);
// Reads and parses `path`; a missing or unreadable file is an error naming the path.
PropertiesParseResult loadPropertiesFile(const std::string &path);

} // namespace mqdesk::common
