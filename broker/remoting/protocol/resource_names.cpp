#include "broker/remoting/protocol/resource_names.h"

#include <algorithm>

namespace mqdesk::remoting {

namespace {

// Names are echoed in remarks and logs: a hostile one is cut short and its bytes made visible.
std::string printable(std::string_view name)
{
    constexpr size_t kShown = 64;
    std::string out;
    for (const char c : name.substr(0, kShown)) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte < 0x7F) {
            out += c;
        } else {
            static constexpr char kHex[] = "0123456789ABCDEF";
            out += "\\x";
            out += kHex[byte >> 4];
            out += kHex[byte & 0xF];
        }
    }
    if (name.size() > kShown)
        out += "...";
    return out;
}

std::string nameError(std::string_view kind, std::string_view name, std::string_view field, size_t maxLength)
{
    const std::string where = field.empty() ? std::string() : " (request field " + std::string(field) + ")";
    if (name.empty())
        return "The specified " + std::string(kind) + " is blank." + where;
    if (name.size() > maxLength)
        return "The specified " + std::string(kind) + " is longer than " + std::string(kind) + " max length "
               + std::to_string(maxLength) + "." + where;
    if (!hasOnlyNameCharacters(name))
        return "The specified " + std::string(kind) + "[" + printable(name)
               + "] contains illegal characters, allowing only ^[%|a-zA-Z0-9_-]+$" + where;
    return {};
}

} // namespace

bool hasOnlyNameCharacters(std::string_view name)
{
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '%' || c == '|'
               || c == '_' || c == '-';
    });
}

std::string topicNameError(std::string_view topic, std::string_view field)
{
    // An LMQ, RocketMQ 5.5's lite topics among them ("%LMQ%$<parent>$<lite>"), is read, acked and
    // committed as a topic: its name holds '$' and runs to 255 bytes (a consume-queue directory's
    // limit), as parent (127) and lite topic (64) need.
    constexpr std::string_view kLmqPrefix = "%LMQ%";
    if (topic.starts_with(kLmqPrefix) && topic.size() <= kMaxLmqNameLength) {
        std::string withoutDollars(topic);
        std::replace(withoutDollars.begin(), withoutDollars.end(), '$', '_');
        return nameError("topic", withoutDollars, field, kMaxLmqNameLength).empty()
                   ? std::string()
                   : nameError("topic", topic, field, kMaxLmqNameLength);
    }
    return nameError("topic", topic, field, kMaxTopicNameLength);
}

std::string groupNameError(std::string_view group, std::string_view field)
{
    return nameError("group", group, field, kMaxGroupNameLength);
}

std::string consumedTopicNameError(std::string_view topic, std::string_view field)
{
    constexpr std::string_view kRetryPrefix = "%RETRY%";
    if (topic.starts_with(kRetryPrefix))
        return groupNameError(topic.substr(kRetryPrefix.size()), field);
    return topicNameError(topic, field);
}

bool validateTopicName(std::string_view topic, std::string &error)
{
    error = topicNameError(topic);
    return error.empty();
}

} // namespace mqdesk::remoting
