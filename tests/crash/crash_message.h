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

} // namespace mqdesk::test
