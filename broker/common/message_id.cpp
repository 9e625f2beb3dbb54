#include "broker/common/message_id.h"

#include "broker/common/bytes.h"
#include "broker/common/text.h"

#include <arpa/inet.h>

#include <cstring>
#include <ctime>

namespace mqdesk::common {

int64_t monthStartMillis(int64_t millis, int monthDelta)
{
    const time_t seconds = static_cast<time_t>(millis / 1000);
    std::tm local{};
    localtime_r(&seconds, &local);
    local.tm_mday = 1;
    local.tm_hour = 0;
    local.tm_min = 0;
    local.tm_sec = 0;
    local.tm_mon += monthDelta;
    local.tm_isdst = -1;
    return static_cast<int64_t>(std::mktime(&local)) * 1000;
}

std::string toUpperHex(std::span<const uint8_t> bytes)
{
    static constexpr char kDigits[] = "0123456789ABCDEF";
    std::string out(bytes.size() * 2, '0');
    for (size_t i = 0; i < bytes.size(); ++i) {
        out[2 * i] = kDigits[bytes[i] >> 4];
        out[2 * i + 1] = kDigits[bytes[i] & 0xF];
    }
    return out;
}

std::optional<std::vector<uint8_t>> fromHex(std::string_view text)
{
    if (text.size() % 2 != 0)
        return std::nullopt;
    std::vector<uint8_t> out(text.size() / 2);
    for (size_t i = 0; i < out.size(); ++i) {
        const int high = hexDigitValue(text[2 * i]);
        const int low = hexDigitValue(text[2 * i + 1]);
        if (high < 0 || low < 0)
            return std::nullopt;
        out[i] = static_cast<uint8_t>(high << 4 | low);
    }
    return out;
}

std::string createOffsetMessageId(const HostAddress &storeHost, int64_t commitLogOffset)
{
    uint8_t bytes[28];
    storeHost.encode(bytes);
    writeInt64(bytes + storeHost.encodedLength(), commitLogOffset);
    return toUpperHex(std::span<const uint8_t>(bytes, storeHost.encodedLength() + 8));
}

std::optional<OffsetMessageId> decodeOffsetMessageId(std::string_view id)
{
    if (id.size() != 32 && id.size() != 56)
        return std::nullopt;
    const auto bytes = fromHex(id);
    if (!bytes)
        return std::nullopt;
    OffsetMessageId result;
    const bool ipv6 = id.size() == 56;
    result.storeHost = HostAddress::decode(bytes->data(), ipv6);
    result.commitLogOffset = readInt64(bytes->data() + result.storeHost.encodedLength());
    return result;
}

std::string UniqKeyInfo::ipString() const
{
    char buffer[INET6_ADDRSTRLEN] = {};
    inet_ntop(ipv6 ? AF_INET6 : AF_INET, ip.data(), buffer, sizeof buffer);
    return buffer;
}

std::optional<UniqKeyInfo> decodeUniqKey(std::string_view id, int64_t nowMillis)
{
    if (id.size() != 32 && id.size() != 56)
        return std::nullopt;
    const auto bytes = fromHex(id);
    if (!bytes)
        return std::nullopt;
    UniqKeyInfo info;
    info.ipv6 = id.size() == 56;
    const size_t ipLength = info.ipv6 ? 16 : 4;
    std::memcpy(info.ip.data(), bytes->data(), ipLength);
    const uint8_t *p = bytes->data() + ipLength;
    info.pid = static_cast<uint16_t>(readInt16(p));
    info.classLoaderHash = readInt32(p + 2);
    info.millisSinceMonthStart = static_cast<uint32_t>(readInt32(p + 6));
    info.counter = static_cast<uint16_t>(readInt16(p + 10));

    int64_t when = monthStartMillis(nowMillis, 0) + info.millisSinceMonthStart;
    if (when > nowMillis)
        when = monthStartMillis(nowMillis, -1) + info.millisSinceMonthStart;
    info.approximateTimestamp = when;
    return info;
}

} // namespace mqdesk::common
