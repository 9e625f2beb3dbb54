#pragma once

// Message identifiers (store-format §4): the broker's offset message id and the client's
// unique id (UNIQ_KEY).

#include "broker/common/host_address.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::common {

std::string toUpperHex(std::span<const uint8_t> bytes);
// Local-time start of the month containing `millis`, shifted by `monthDelta` months: the
// origin of a UNIQ_KEY's time field.
int64_t monthStartMillis(int64_t millis, int monthDelta);
std::optional<std::vector<uint8_t>> fromHex(std::string_view text);

// Store host address ‖ port ‖ commit-log offset, as upper-case hex: 32 chars for IPv4, 56 for IPv6.
std::string createOffsetMessageId(const HostAddress &storeHost, int64_t commitLogOffset);

struct OffsetMessageId
{
    HostAddress storeHost;
    int64_t commitLogOffset = 0;
};
// Accepts 32 (IPv4) or 56 (IPv6) hex digits in either case.
std::optional<OffsetMessageId> decodeOffsetMessageId(std::string_view id);

// What a UNIQ_KEY tells: ip ‖ pid (16 bits) ‖ class-loader hash ‖ ms since the month start in
// the producer's time zone ‖ counter.
struct UniqKeyInfo
{
    bool ipv6 = false;
    std::array<uint8_t, 16> ip{};
    uint16_t pid = 0;
    int32_t classLoaderHash = 0;
    uint32_t millisSinceMonthStart = 0; // unsigned: a month has more than 2^31 ms
    uint16_t counter = 0;
    // The send time reconstructed as RocketMQ's getNearlyTimeFromID does: the reader's current
    // month start (local time) plus the span; the previous month's when that lies in the future.
    int64_t approximateTimestamp = 0;

    std::string ipString() const;
};
// `nowMillis` is the reader's clock; the month start is taken in the local time zone.
std::optional<UniqKeyInfo> decodeUniqKey(std::string_view id, int64_t nowMillis);

} // namespace mqdesk::common
