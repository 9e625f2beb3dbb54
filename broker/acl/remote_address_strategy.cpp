#include "broker/acl/remote_address_strategy.h"

#include <arpa/inet.h>

#include <cctype>
#include <charconv>
#include <cstdio>
#include <vector>

namespace mqdesk::acl {

namespace {

std::vector<std::string> split(std::string_view text, char separator)
{
    std::vector<std::string> parts;
    size_t begin = 0;
    while (begin <= text.size()) {
        const size_t end = text.find(separator, begin);
        const std::string_view part = text.substr(begin, end == std::string_view::npos ? text.size() - begin : end - begin);
        if (!part.empty()) // StringUtils.split drops empty tokens
            parts.emplace_back(part);
        if (end == std::string_view::npos)
            break;
        begin = end + 1;
    }
    return parts;
}

std::string trim(std::string_view text)
{
    size_t begin = 0, end = text.size();
    while (begin < end && std::isspace(static_cast<unsigned char>(text[begin])))
        ++begin;
    while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1])))
        --end;
    return std::string(text.substr(begin, end - begin));
}

bool isIpv4(const std::string &text)
{
    in_addr address{};
    return inet_pton(AF_INET, text.c_str(), &address) == 1;
}

// "0000:0000:...:0001" upper case, or empty when `text` is not an IPv6 address.
std::string expandIpv6(const std::string &text)
{
    in6_addr address{};
    if (inet_pton(AF_INET6, text.c_str(), &address) != 1)
        return {};
    std::string expanded;
    char group[8];
    for (int i = 0; i < 8; ++i) {
        std::snprintf(group, sizeof group, "%02X%02X", address.s6_addr[2 * i], address.s6_addr[2 * i + 1]);
        if (i > 0)
            expanded += ':';
        expanded += group;
    }
    return expanded;
}

// The form addresses are compared in; empty when `text` is no address.
std::string normalise(const std::string &text)
{
    if (isIpv4(text))
        return text;
    return expandIpv6(text);
}

std::optional<int> parseNumber(std::string_view text, int base)
{
    const std::string trimmed = trim(text);
    int value = 0;
    const auto [end, ec] = std::from_chars(trimmed.data(), trimmed.data() + trimmed.size(), value, base);
    if (trimmed.empty() || ec != std::errc() || end != trimmed.data() + trimmed.size())
        return std::nullopt;
    return value;
}

} // namespace

std::optional<RemoteAddressStrategy> RemoteAddressStrategy::parse(std::string_view rawPattern, std::string &error)
{
    RemoteAddressStrategy strategy;
    const std::string pattern = trim(rawPattern);
    const auto fail = [&](const std::string &why) -> std::optional<RemoteAddressStrategy> {
        error = "bad remote address '" + std::string(rawPattern) + "': " + why;
        return std::nullopt;
    };
    if (pattern.empty())
        return strategy; // Nobody
    if (pattern == "*" || pattern == "*.*.*.*" || pattern == "*:*:*:*:*:*:*:*") {
        strategy.kind_ = Kind::Everybody;
        return strategy;
    }
    const bool ipv6 = pattern.find(':') != std::string::npos;
    std::vector<std::string> members;
    if (pattern.back() == '}') {
        const size_t brace = pattern.find('{');
        const size_t lastSeparator = pattern.find_last_of(ipv6 ? ':' : '.');
        if (brace == std::string::npos || lastSeparator == std::string::npos || brace != lastSeparator + 1)
            return fail("the {a,b} list must be the last part");
        const std::string head = pattern.substr(0, brace);
        for (const std::string &tail : split(std::string_view(pattern).substr(brace + 1, pattern.size() - brace - 2), ','))
            members.push_back(head + tail);
    } else if (pattern.find(',') != std::string::npos) {
        members = split(pattern, ',');
    }
    if (!members.empty()) {
        strategy.kind_ = Kind::Set;
        for (const std::string &member : members) {
            const std::string normal = normalise(trim(member));
            if (normal.empty())
                return fail("'" + member + "' is not an IPv4 or IPv6 address");
            strategy.addresses_.insert(normal);
        }
        return strategy;
    }
    if (pattern.find('*') == std::string::npos && pattern.find('-') == std::string::npos) {
        const std::string normal = normalise(pattern);
        if (normal.empty())
            return fail("not an IPv4 or IPv6 address");
        strategy.kind_ = Kind::Set;
        strategy.addresses_.insert(normal);
        return strategy;
    }

    // A range: the first part (after the first) that is * or a-b; the parts before it are fixed.
    strategy.kind_ = Kind::Range;
    strategy.ipv6_ = ipv6;
    const int base = ipv6 ? 16 : 10;
    const int maxValue = ipv6 ? 0xFFFF : 255;
    std::vector<std::string> parts;
    if (ipv6) {
        if (pattern.find("::") != std::string::npos)
            return fail("write an IPv6 range with all eight groups");
        parts = split(pattern, ':');
        if (parts.size() != 8)
            return fail("an IPv6 range needs eight groups");
    } else {
        parts = split(pattern, '.');
        if (parts.size() != 4)
            return fail("an IPv4 range needs four parts");
    }
    for (size_t i = 1; i < parts.size(); ++i) {
        const std::string part = trim(parts[i]);
        if (part == "*") {
            strategy.start_ = 0;
            strategy.end_ = maxValue;
        } else if (const size_t minus = part.find('-'); minus != std::string::npos) {
            const auto start = parseNumber(std::string_view(part).substr(0, minus), base);
            const auto end = parseNumber(std::string_view(part).substr(minus + 1), base);
            if (!start || !end || *start < 0 || *end > maxValue || *start > *end)
                return fail("the range '" + part + "' is not within 0-" + std::to_string(maxValue) + " in order");
            strategy.start_ = *start;
            strategy.end_ = *end;
        } else {
            continue;
        }
        strategy.rangeIndex_ = static_cast<int>(i);
        for (size_t j = 0; j < i; ++j) {
            const auto fixed = parseNumber(parts[j], base);
            if (!fixed || *fixed < 0 || *fixed > maxValue)
                return fail("'" + parts[j] + "' is not a number within 0-" + std::to_string(maxValue));
            if (ipv6) {
                char group[8];
                std::snprintf(group, sizeof group, "%04X", *fixed);
                strategy.head_ += std::string(group) + ":";
            } else {
                strategy.head_ += std::to_string(*fixed) + ".";
            }
        }
        return strategy;
    }
    return fail("no part is * or a range a-b");
}

bool RemoteAddressStrategy::match(std::string_view hostView) const
{
    const std::string host(hostView);
    switch (kind_) {
    case Kind::Nobody:
        return false;
    case Kind::Everybody:
        return true;
    case Kind::Set: {
        const std::string normal = normalise(host);
        return !normal.empty() && addresses_.count(normal) > 0;
    }
    case Kind::Range:
        break;
    }
    std::string normal;
    if (ipv6_) {
        normal = expandIpv6(host);
    } else if (isIpv4(host)) {
        // inet_pton accepts only the dotted-decimal form without leading zeros.
        normal = host;
    }
    if (normal.empty() || normal.compare(0, head_.size(), head_) != 0)
        return false;
    const std::vector<std::string> parts = split(normal, ipv6_ ? ':' : '.');
    if (static_cast<size_t>(rangeIndex_) >= parts.size())
        return false;
    const auto value = parseNumber(parts[static_cast<size_t>(rangeIndex_)], ipv6_ ? 16 : 10);
    return value && *value >= start_ && *value <= end_;
}

std::string peerHost(std::string_view peerAddress)
{
    std::string host(peerAddress);
    if (!host.empty() && host.front() == '[') {
        const size_t close = host.find(']');
        host = host.substr(1, close == std::string::npos ? std::string::npos : close - 1);
    } else if (const size_t colon = host.rfind(':'); colon != std::string::npos && host.find(':') == colon) {
        host.resize(colon); // "1.2.3.4:5"
    }
    constexpr std::string_view kMappedPrefix = "::ffff:";
    if (host.size() > kMappedPrefix.size() && host.compare(0, kMappedPrefix.size(), kMappedPrefix) == 0
        && isIpv4(host.substr(kMappedPrefix.size()))) {
        host = host.substr(kMappedPrefix.size());
    }
    return host;
}

} // namespace mqdesk::acl
