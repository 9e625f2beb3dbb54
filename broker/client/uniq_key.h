#pragma once

// UNIQ_KEY generation as Java's MessageClientIDSetter (store-format §4, remoting spec App. B):
// 32 hex digits (56 with an IPv6 client address) = client ip ‖ pid (16 bits) ‖ a per-process
// random int (Java: the class loader's identity hash) ‖ ms since the start of the current month
// in local time (32 bits) ‖ a 16-bit counter. common::decodeUniqKey reads it back.

#include <array>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

namespace mqdesk::client {

class UniqKeyGenerator
{
public:
    // `clientIp` "a.b.c.d" or an IPv6 address; anything else falls back to 127.0.0.1.
    explicit UniqKeyGenerator(std::string_view clientIp);

    // Thread-safe. `nowMillis` is injectable for tests; 0 = the system clock.
    std::string next(int64_t nowMillis = 0);

private:
    std::string prefix_; // hex of ip ‖ pid ‖ hash
    std::mutex mutex_;
    int64_t monthStart_ = 0;     // guarded by mutex_
    int64_t nextMonthStart_ = 0; // guarded by mutex_
    uint16_t counter_ = 0;       // guarded by mutex_
};

} // namespace mqdesk::client
