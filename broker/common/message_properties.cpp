#include "broker/common/message_properties.h"

#include <algorithm>
#include <unordered_map>

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
        result.entries_.emplace_back(segment.substr(0, split), segment.substr(split + 1));
    }
    result.removeRepeatedKeys();
    return result;
}

void MessageProperties::removeRepeatedKeys()
{
    // A repeated key keeps its first position and its last value, as a Java map's put does.
    // Messages carry a handful of properties, where a pairwise scan is cheapest; a client can
    // send thousands, where only a hash keeps the work linear.
    constexpr size_t kPairwiseLimit = 16;
    std::vector<Entry> unique;
    unique.reserve(entries_.size());
    if (entries_.size() <= kPairwiseLimit) {
        for (Entry &entry : entries_) {
            const auto it = std::find_if(unique.begin(), unique.end(),
                                         [&entry](const Entry &e) { return e.first == entry.first; });
            if (it == unique.end())
                unique.push_back(std::move(entry));
            else
                it->second = std::move(entry.second);
        }
    } else {
        std::unordered_map<std::string_view, size_t> positions;
        positions.reserve(entries_.size());
        for (Entry &entry : entries_) {
            const auto found = positions.find(entry.first);
            if (found != positions.end()) {
                unique[found->second].second = std::move(entry.second);
                continue;
            }
            unique.push_back(std::move(entry));
            // Keyed by the bytes in `unique` (reserved, never reallocated): a moved-from short
            // key in entries_ is emptied, so a view of it would match nothing later.
            positions.emplace(unique.back().first, unique.size() - 1);
        }
    }
    entries_ = std::move(unique);
}

void MessageProperties::merge(const MessageProperties &other)
{
    if (other.empty())
        return;
    entries_.insert(entries_.end(), other.entries_.begin(), other.entries_.end());
    removeRepeatedKeys();
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

std::string_view messageTypeOf(const MessageProperties &properties)
{
    if (properties.get(property::kTransactionPrepared) == "true")
        return "TRANSACTION";
    if (properties.get(property::kDelayTimeLevel) || properties.get(property::kTimerDeliverMs)
        || properties.get(property::kTimerDelaySec) || properties.get(property::kTimerDelayMs))
        return "DELAY";
    if (properties.get(property::kShardingKey))
        return "FIFO";
    if (properties.get(property::kPriority))
        return "PRIORITY";
    if (properties.get(property::kLiteTopic))
        return "LITE";
    return "NORMAL";
}

} // namespace mqdesk::common
