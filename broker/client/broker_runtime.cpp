#include "broker/client/broker_runtime.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace mqdesk::client {

namespace {

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

std::optional<int64_t> wholeInteger(std::string_view text)
{
    text = trimmed(text);
    int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty())
        return std::nullopt;
    return value;
}

std::optional<double> leadingDouble(std::string_view text)
{
    text = trimmed(text);
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end == text.data() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

// "12.5 11.0 10.2" → 12.5, the last 10 s (the dashboard shows the same number).
std::optional<double> firstWindow(std::string_view text)
{
    text = trimmed(text);
    return leadingDouble(text.substr(0, text.find(' ')));
}

// "10ms" → 10'000, "1s" → 1'000'000, "500ms" → 500'000.
std::optional<int64_t> durationMicros(std::string_view text)
{
    int64_t unit = 0;
    if (text.ends_with("ms")) {
        unit = 1000;
        text.remove_suffix(2);
    } else if (text.ends_with("s")) {
        unit = 1'000'000;
        text.remove_suffix(1);
    } else {
        return std::nullopt;
    }
    const std::optional<int64_t> value = wholeInteger(text);
    int64_t micros = 0; // a remote broker's text: a bound past int64 is unparsable, not UB
    if (!value || __builtin_mul_overflow(*value, unit, &micros))
        return std::nullopt;
    return micros;
}

// "[<=0ms]" → 0, "[0~10ms]" → 10 ms, "[1~2s]" → 2 s ("[1~2s]" carries its unit on the upper
// bound only), "[10s~]" → open.
std::optional<int64_t> bucketUpperMicros(std::string_view label)
{
    if (label.size() < 3 || label.front() != '[' || label.back() != ']')
        return std::nullopt;
    std::string_view inside = label.substr(1, label.size() - 2);
    if (inside.starts_with("<=")) {
        // Java times puts in whole milliseconds: "<=0ms" holds the puts under 1 ms.
        const std::optional<int64_t> upper = durationMicros(inside.substr(2));
        int64_t bound = 0;
        if (!upper || __builtin_add_overflow(*upper, 1000, &bound))
            return std::nullopt;
        return bound;
    }
    const size_t tilde = inside.find('~');
    if (tilde == std::string_view::npos)
        return std::nullopt;
    if (tilde + 1 == inside.size())
        return std::numeric_limits<int64_t>::max();
    return durationMicros(inside.substr(tilde + 1));
}

} // namespace

std::optional<int64_t> parseHumanBytes(std::string_view text)
{
    text = trimmed(text);
    const size_t space = text.find(' ');
    if (space == std::string_view::npos)
        return std::nullopt;
    const std::optional<double> number = leadingDouble(text.substr(0, space));
    const std::string_view unit = text.substr(space + 1);
    if (!number || *number < 0)
        return std::nullopt;
    static constexpr std::string_view kPrefixes = "KMGTPE";
    double scale = 1;
    if (unit != "B") {
        if (unit.size() != 3 || unit.substr(1) != "iB" || kPrefixes.find(unit[0]) == std::string_view::npos)
            return std::nullopt;
        scale = std::pow(1024.0, static_cast<double>(kPrefixes.find(unit[0]) + 1));
    }
    return static_cast<int64_t>(std::llround(*number * scale));
}

std::vector<LatencyBucket> parseLatencyDistribution(std::string_view text)
{
    std::vector<LatencyBucket> buckets;
    text = trimmed(text);
    while (!text.empty()) {
        const size_t space = text.find(' ');
        const std::string_view item = text.substr(0, space);
        text = space == std::string_view::npos ? std::string_view() : trimmed(text.substr(space + 1));
        const size_t colon = item.rfind(':');
        if (colon == std::string_view::npos)
            return {};
        const std::optional<int64_t> upper = bucketUpperMicros(item.substr(0, colon));
        const std::optional<int64_t> count = wholeInteger(item.substr(colon + 1));
        if (!upper || !count)
            return {};
        buckets.push_back({std::string(item.substr(0, colon)), *upper, *count});
    }
    return buckets;
}

int64_t bucketQuantileMicros(const std::vector<LatencyBucket> &buckets, const std::vector<int64_t> &counts,
                             double quantile)
{
    int64_t total = 0;
    for (const int64_t count : counts) // saturating: counts come from a remote broker
        if (__builtin_add_overflow(total, std::max<int64_t>(0, count), &total))
            total = std::numeric_limits<int64_t>::max();
    if (total == 0)
        return 0;
    const double rank = std::ceil(quantile * static_cast<double>(total));
    const int64_t wanted = rank >= 0x1p63 ? total : static_cast<int64_t>(rank); // 2^63 does not fit
    int64_t seen = 0;
    for (size_t i = 0; i < buckets.size() && i < counts.size(); ++i) {
        if (__builtin_add_overflow(seen, std::max<int64_t>(0, counts[i]), &seen))
            seen = std::numeric_limits<int64_t>::max();
        if (seen >= std::max<int64_t>(1, wanted))
            return buckets[i].upperMicros;
    }
    return buckets.empty() ? 0 : buckets.back().upperMicros;
}

BrokerRuntime readBrokerRuntime(const std::map<std::string, std::string> &table)
{
    const auto text = [&table](const char *key) -> std::string_view {
        const auto it = table.find(key);
        return it == table.end() ? std::string_view() : std::string_view(it->second);
    };
    const auto integer = [&](const char *key) { return wholeInteger(text(key)); };
    const auto difference = [&](const char *now, const char *morning) -> std::optional<int64_t> {
        const auto a = integer(now);
        const auto b = integer(morning);
        int64_t today = 0;
        if (!a || !b || __builtin_sub_overflow(*a, *b, &today))
            return std::optional<int64_t>();
        return std::optional<int64_t>(today);
    };

    BrokerRuntime runtime;
    runtime.version = std::string(text("brokerVersionDesc"));
    runtime.putTps = firstWindow(text("putTps"));
    runtime.getTps = firstWindow(text("getTotalTps"));
    runtime.bootTimestamp = integer("bootTimestamp");
    runtime.putToday = difference("msgPutTotalTodayNow", "msgPutTotalTodayMorning");
    runtime.getToday = difference("msgGetTotalTodayNow", "msgGetTotalTodayMorning");
    runtime.commitLogDiskRatio = leadingDouble(text("commitLogDiskRatio"));
    runtime.commitLogDirCapacity = std::string(text("commitLogDirCapacity"));
    runtime.flushDiskType = std::string(text("flushDiskType"));
    if (const std::string_view pool = text("transientStorePoolEnable"); pool == "true" || pool == "false")
        runtime.transientStorePoolEnable = pool == "true";
    runtime.remainToFlushBytes = parseHumanBytes(text("remainHowManyDataToFlush"));
    runtime.commitLogMaxOffset = integer("commitLogMaxOffset");
    runtime.putMessageEntireTimeMaxMillis = integer("putMessageEntireTimeMax");
    runtime.putLatencyBuckets = parseLatencyDistribution(text("putMessageDistributeTime"));
    runtime.configLoadWarnings = std::string(text("configLoadWarnings"));
    runtime.clientConnections = integer("clientConnections");
    runtime.grpcConnections = integer("grpcConnections");
    const auto sum = [&integer](std::initializer_list<const char *> keys) {
        int64_t total = 0;
        for (const char *key : keys)
            total += integer(key).value_or(0);
        return total;
    };
    runtime.connectionsShed = sum({"clientConnectionsShed", "grpcConnectionsShed"});
    runtime.connectionsRefused = sum({"clientConnectionsRefused", "grpcConnectionsRefused"});
    runtime.connectionsClosedForAbuse =
        sum({"clientConnectionsClosedForBacklog", "clientConnectionsClosedForPartialFrames",
             "grpcConnectionsClosedForFrames", "grpcConnectionsClosedForFrameTimeout"});
    return runtime;
}

} // namespace mqdesk::client
