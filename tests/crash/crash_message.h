#pragma once

// The message the crash writer puts for sequence number `seq`, so the test can check every
// byte of what comes back: variable sizes make records end at every possible position.

#include "broker/common/message.h"
#include "broker/store/store_config.h"

#include <string>

namespace mqdesk::test {

inline std::string crashBody(int64_t seq)
{
    std::string body = "seq=" + std::to_string(seq) + ";";
    body.append(static_cast<size_t>(seq * 7919 % 700), static_cast<char>('a' + seq % 26));
    return body;
}

// The store settings of both processes: small files so the log rolls over often.
inline store::MessageStoreConfig crashStoreConfig(const std::string &root)
{
    store::MessageStoreConfig config;
    config.storePathRootDir = root;
    config.mappedFileSizeCommitLog = 256 * 1024;
    config.mappedFileSizeConsumeQueue = 20 * 2000;
    config.maxHashSlotNum = 5000;
    config.maxIndexNum = 20000;
    config.timerPrecisionMs = 100;                // timer messages come due within the test
    config.mappedFileSizeTimerLog = 52 * 4000;     // not 100 MiB per timerlog file
    config.timerFlushIntervalMs = 100;            // progress checkpointed within a kill cycle
    return config;
}

inline common::BrokerMessage crashMessage(int64_t seq)
{
    common::BrokerMessage m;
    m.topic = "Crash";
    m.queueId = static_cast<int32_t>(seq % 4);
    m.setBody(crashBody(seq));
    m.properties.set(common::property::kKeys, "k" + std::to_string(seq));
    m.bornTimestamp = 1700000000000 + seq;
    m.bornHost = common::HostAddress::ipv4(127, 0, 0, 1, 40000);
    return m;
}

// A timer message due at `deliverMs` (TIMER_DELIVER_MS) to topic CrashTimer.
inline common::BrokerMessage crashTimerMessage(int64_t seq, int64_t deliverMs)
{
    common::BrokerMessage m = crashMessage(seq);
    m.topic = "CrashTimer";
    m.queueId = 0;
    m.properties.set("TIMER_DELIVER_MS", std::to_string(deliverMs));
    return m;
}

} // namespace mqdesk::test
