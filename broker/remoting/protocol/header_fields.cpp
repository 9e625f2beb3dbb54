#include "broker/remoting/protocol/header_fields.h"

#include "broker/remoting/protocol/resource_names.h"

#include <charconv>
#include <limits>
#include <strings.h>

namespace mqdesk::remoting {

std::optional<int64_t> parseJavaLong(std::string_view text)
{
    if (!text.empty() && text.front() == '+')
        text.remove_prefix(1);
    if (text.empty() || text.front() == '+')
        return std::nullopt;
    int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

std::optional<int32_t> parseJavaInt(std::string_view text)
{
    const std::optional<int64_t> value = parseJavaLong(text);
    if (!value || *value < std::numeric_limits<int32_t>::min() || *value > std::numeric_limits<int32_t>::max())
        return std::nullopt;
    return static_cast<int32_t>(*value);
}

bool parseJavaBoolean(std::string_view text)
{
    return text.size() == 4 && strncasecmp(text.data(), "true", 4) == 0;
}

void HeaderReader::fail(std::string message)
{
    if (error_.empty())
        error_ = std::move(message);
}

const std::string *HeaderReader::lookup(std::string_view key, bool mandatory)
{
    const std::string *value = fields_.find(key);
    if (!value && mandatory)
        fail("the custom field <" + std::string(key) + "> is null");
    return value;
}

std::string HeaderReader::requireString(std::string_view key)
{
    const std::string *value = lookup(key, true);
    return value ? *value : std::string();
}

std::string HeaderReader::requireTopic(std::string_view key)
{
    std::string topic = requireString(key);
    if (ok())
        fail(topicNameError(topic, key));
    return topic;
}

std::string HeaderReader::requireGroup(std::string_view key)
{
    std::string group = requireString(key);
    if (ok())
        fail(groupNameError(group, key));
    return group;
}

std::string HeaderReader::optTopic(std::string_view key)
{
    const std::string *value = lookup(key, false);
    if (!value || value->empty())
        return {};
    fail(topicNameError(*value, key));
    return *value;
}

std::string HeaderReader::optGroup(std::string_view key)
{
    const std::string *value = lookup(key, false);
    if (!value || value->empty())
        return {};
    fail(groupNameError(*value, key));
    return *value;
}

int32_t HeaderReader::requireInt32(std::string_view key)
{
    return lookup(key, true) ? optInt32(key, 0) : 0;
}

int64_t HeaderReader::requireInt64(std::string_view key)
{
    return lookup(key, true) ? optInt64(key, 0) : 0;
}

bool HeaderReader::requireBool(std::string_view key)
{
    return lookup(key, true) ? optBool(key, false) : false;
}

std::string HeaderReader::optString(std::string_view key, std::string_view fallback)
{
    const std::string *value = lookup(key, false);
    return value ? *value : std::string(fallback);
}

int32_t HeaderReader::optInt32(std::string_view key, int32_t fallback)
{
    const std::string *text = lookup(key, false);
    if (!text)
        return fallback;
    if (const std::optional<int32_t> value = parseJavaInt(*text))
        return *value;
    fail("the custom field <" + std::string(key) + "> is not an int: " + *text);
    return fallback;
}

int64_t HeaderReader::optInt64(std::string_view key, int64_t fallback)
{
    return findInt64(key).value_or(fallback);
}

std::optional<int64_t> HeaderReader::findInt64(std::string_view key)
{
    const std::string *text = lookup(key, false);
    if (!text)
        return std::nullopt;
    if (const std::optional<int64_t> value = parseJavaLong(*text))
        return value;
    fail("the custom field <" + std::string(key) + "> is not a long: " + *text);
    return std::nullopt;
}

bool HeaderReader::optBool(std::string_view key, bool fallback)
{
    const std::string *text = lookup(key, false);
    return text ? parseJavaBoolean(*text) : fallback;
}

} // namespace mqdesk::remoting
