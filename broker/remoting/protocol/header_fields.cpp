#include "broker/remoting/protocol/header_fields.h"

#include "broker/remoting/protocol/resource_names.h"

namespace mqdesk::remoting {

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
