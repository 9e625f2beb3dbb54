#pragma once

// Reading and writing the typed "custom header" fields of a command (remoting spec §2.1).
// Java's CommandCustomHeader turns extFields into typed fields and rejects a request whose
// mandatory field is missing ("the custom field <x> is null") or unparsable; processors here
// read fields through a HeaderReader and answer SYSTEM_ERROR with its first error.

#include "broker/common/java_strings.h"
#include "broker/remoting/remoting_command.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mqdesk::remoting {

class HeaderReader
{
public:
    explicit HeaderReader(const ExtFields &fields) : fields_(fields) {}

    // Mandatory fields: a missing or unparsable one records an error (the first one is kept)
    // and returns an empty value.
    std::string requireString(std::string_view key);
    int32_t requireInt32(std::string_view key);
    int64_t requireInt64(std::string_view key);
    bool requireBool(std::string_view key);

    // Optional fields: absent (or, for strings, present) gives the value; present but
    // unparsable records an error like a mandatory field.
    std::string optString(std::string_view key, std::string_view fallback = {});
    int32_t optInt32(std::string_view key, int32_t fallback);
    int64_t optInt64(std::string_view key, int64_t fallback);
    bool optBool(std::string_view key, bool fallback);
    std::optional<int64_t> findInt64(std::string_view key);

    // A topic or group name (resource_names.h): mandatory, and a name RocketMQ allows; a bad
    // one records the validator's remark naming `key`. The opt* forms accept an absent or empty
    // field (giving empty) but check any other.
    std::string requireTopic(std::string_view key);
    std::string requireGroup(std::string_view key);
    std::string optTopic(std::string_view key);
    std::string optGroup(std::string_view key);

    bool ok() const { return error_.empty(); }
    // "the custom field <queueId> is null" / "the custom field <queueId> is not a number: x"
    const std::string &error() const { return error_; }

private:
    void fail(std::string message);
    const std::string *lookup(std::string_view key, bool mandatory);

    const ExtFields &fields_;
    std::string error_;
};

// Header values are parsed as Java parses them (broker/common/java_strings.h).
using common::parseJavaBoolean;
using common::parseJavaInt;
using common::parseJavaLong;

// Writers used by processors and clients: numbers in decimal, booleans as "true"/"false".
inline void setField(ExtFields &fields, std::string key, std::string value)
{
    fields.set(std::move(key), std::move(value));
}
inline void setField(ExtFields &fields, std::string key, const char *value)
{
    fields.set(std::move(key), std::string(value));
}
inline void setField(ExtFields &fields, std::string key, int64_t value)
{
    fields.set(std::move(key), std::to_string(value));
}
inline void setField(ExtFields &fields, std::string key, int32_t value)
{
    fields.set(std::move(key), std::to_string(value));
}
inline void setField(ExtFields &fields, std::string key, bool value)
{
    fields.set(std::move(key), value ? "true" : "false");
}

} // namespace mqdesk::remoting
