#include "broker/common/message_properties.h"

#include <algorithm>

namespace mqdesk::common {

MessageProperties::MessageProperties(std::initializer_list<Entry> entries)
{
    for (const auto &[key, value] : entries)
        set(key, value);
}

MessageProperties MessageProperties::decode(std::string_view encoded)
{
    MessageProperties result;
    while (!encoded.empty()) {
        const size_t end = encoded.find(kPropertySeparator);
        const std::string_view segment = encoded.substr(0, end);
        encoded = end == std::string_view::npos ? std::string_view() : encoded.substr(end + 1);
        if (segment.size() < 3)
            continue;
        const size_t split = segment.find(kNameValueSeparator);
        if (split == std::string_view::npos || split == 0 || split + 1 == segment.size())
            continue;
        result.set(segment.substr(0, split), segment.substr(split + 1));
    }
    return result;
}

std::optional<std::string_view> MessageProperties::find(std::string_view encoded, std::string_view key)
{
    // Hot in every scan of the log (tags, keys): segments are short, so a plain loop beats a
    // memchr call per segment, and the name is compared only where its separator fits.
    std::optional<std::string_view> found;
    size_t at = 0;
    while (at < encoded.size()) {
        size_t stop = at;
        while (stop < encoded.size() && encoded[stop] != kPropertySeparator)
            ++stop;
        const std::string_view segment = encoded.substr(at, stop - at);
        if (segment.size() > key.size() + 1 && segment[key.size()] == kNameValueSeparator
            && (key.empty() || segment[0] == key[0]) && segment.starts_with(key))
            found = segment.substr(key.size() + 1); // the last one wins, as Java's map put does
        at = stop + 1;
    }
    return found;
}

std::string MessageProperties::encode() const
{
    size_t length = 0;
    for (const auto &[key, value] : entries_)
        length += key.size() + value.size() + 2;
    std::string out;
    out.reserve(length);
    for (const auto &[key, value] : entries_) {
        out += key;
        out += kNameValueSeparator;
        out += value;
        out += kPropertySeparator;
    }
    return out;
}

std::optional<std::string_view> MessageProperties::get(std::string_view key) const
{
    for (const auto &entry : entries_) {
        if (entry.first == key)
            return std::string_view(entry.second);
    }
    return std::nullopt;
}

void MessageProperties::set(std::string_view key, std::string_view value)
{
    for (auto &entry : entries_) {
        if (entry.first == key) {
            entry.second = value;
            return;
        }
    }
    entries_.emplace_back(std::string(key), std::string(value));
}

bool MessageProperties::remove(std::string_view key)
{
    const auto it = std::find_if(entries_.begin(), entries_.end(),
                                 [key](const Entry &e) { return e.first == key; });
    if (it == entries_.end())
        return false;
    entries_.erase(it);
    return true;
}

std::vector<std::string_view> MessageProperties::keys() const
{
    std::vector<std::string_view> result;
    const auto value = get(property::kKeys);
    if (!value)
        return result;
    std::string_view rest = *value;
    while (!rest.empty()) {
        const size_t end = rest.find(kKeySeparator);
        const std::string_view key = rest.substr(0, end);
        if (!key.empty())
            result.push_back(key);
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    }
    return result;
}

} // namespace mqdesk::common
