#include "broker/client/uniq_key.h"

#include "broker/common/bytes.h"
#include "broker/common/host_address.h"
#include "broker/common/message_id.h"

#include <unistd.h>

#include <chrono>
#include <ctime>
#include <random>
#include <vector>

namespace mqdesk::client {

UniqKeyGenerator::UniqKeyGenerator(std::string_view clientIp)
{
    common::HostAddress host = common::HostAddress::parse(clientIp).value_or(common::HostAddress::ipv4(127, 0, 0, 1, 0));
    std::vector<uint8_t> bytes(host.ip.begin(), host.ip.begin() + static_cast<ptrdiff_t>(host.addressLength()));
    bytes.resize(bytes.size() + 6);
    uint8_t *p = bytes.data() + host.addressLength();
    common::writeInt16(p, static_cast<int16_t>(::getpid()));
    std::random_device seed;
    common::writeInt32(p + 2, static_cast<int32_t>(seed()));
    prefix_ = common::toUpperHex(bytes);
}

std::string UniqKeyGenerator::next(int64_t nowMillis)
{
    if (nowMillis == 0)
        nowMillis = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
    uint8_t tail[6];
    {
        std::lock_guard lock(mutex_);
        if (nowMillis >= nextMonthStart_ || nowMillis < monthStart_) {
            monthStart_ = common::monthStartMillis(nowMillis, 0);
            nextMonthStart_ = common::monthStartMillis(nowMillis, 1);
        }
        common::writeInt32(tail, static_cast<int32_t>(static_cast<uint32_t>(nowMillis - monthStart_)));
        common::writeInt16(tail + 4, static_cast<int16_t>(counter_++));
    }
    return prefix_ + common::toUpperHex(tail);
}

} // namespace mqdesk::client
