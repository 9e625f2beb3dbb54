#pragma once

// What both resource-exhaustion suites read of the broker beside an attack: its resident
// memory, and a figure of its runtime info (the limits' counters).

#include "raw_client.h"
#include "test_support.h"

#include "broker/common/json.h"
#include "broker/remoting/remoting_codes.h"

#include <string>
#include <vector>

namespace mqdesk::hostile {

// The broker's resident memory in MiB (VmRSS of /proc/<pid>/status); -1 when unknown.
inline int64_t rssMiB(qint64 pid)
{
    const int64_t kib = test::procStatusValue(std::to_string(pid), "VmRSS");
    return kib < 0 ? -1 : kib / 1024;
}

// A value of the broker's runtime info (GET_BROKER_RUNTIME_INFO), -1 when absent.
inline int64_t runtimeValue(RawClient &client, const std::string &key)
{
    const auto response = client.call(remoting::RequestCode::kGetBrokerRuntimeInfo, {});
    if (!response || response->code != remoting::ResponseCode::kSuccess)
        return -1;
    const common::JsonParseResult parsed = common::parseJson(
        std::string_view(reinterpret_cast<const char *>(response->body.data()), response->body.size()));
    if (!parsed.ok() || !parsed.value.isObject())
        return -1;
    const common::JsonValue *table = parsed.value.asObject().find("table");
    const common::JsonValue *value = table && table->isObject() ? table->asObject().find(key) : nullptr;
    return value && value->isString() ? std::stoll(value->asString()) : -1;
}

// The first 4 MiB of a remoting frame that says it holds 16 MiB (a JSON header of 100 bytes):
// what a client sends before it stops, holding the broker's buffer for the rest.
inline std::vector<uint8_t> halfOfABigFrame()
{
    std::vector<uint8_t> part(4 * 1024 * 1024 + 8, 'x');
    const uint32_t length = 16 * 1024 * 1024 - 8; // the frame's length field (all but itself)
    const uint32_t headerLength = 100;            // JSON header, serialize type 0
    for (int i = 0; i < 4; ++i) {
        part[i] = static_cast<uint8_t>(length >> (24 - 8 * i));
        part[4 + i] = static_cast<uint8_t>(headerLength >> (24 - 8 * i));
    }
    return part;
}

} // namespace mqdesk::hostile
