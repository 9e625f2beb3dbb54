#pragma once

// GET_ACTIVITY_TOTALS (902), MQDesk's extension for the console's history
// (docs/remoting-extensions.md): in one answer, every topic's stored message count and every
// consumer group's lag on one broker. A Java broker answers REQUEST_CODE_NOT_SUPPORTED (3); the
// Result carries that code so a caller can fall back to per-group GET_CONSUME_STATS.

#include "broker/client/client_types.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace mqdesk::client {

class MQClientAPI;

struct ActivityTotals
{
    int64_t bootTimestamp = 0;              // ms; a change means the broker restarted
    int64_t timestamp = 0;                  // ms, the broker's clock when it answered
    std::map<std::string, int64_t> topics;  // topic → messages stored (sum of its queues' max offsets)
    std::map<std::string, int64_t> groups;  // group → lag (committed queues, retry topics left out)
};

// Parses the JSON body; `error` names the member that is wrong.
bool parseActivityTotals(std::string_view body, ActivityTotals &out, std::string &error);

// Sends GET_ACTIVITY_TOTALS to the broker at `addr` ("ip:port").
Result<ActivityTotals> getActivityTotals(MQClientAPI &api, const std::string &addr);

} // namespace mqdesk::client
