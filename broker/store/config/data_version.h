#pragma once

// RocketMQ's DataVersion (R/protocol/DataVersion.java): the version stamp of a config table,
// written as `"dataVersion":{"counter":…,"stateVersion":…,"timestamp":…}` (§8.2).

#include "broker/store/config/bean_codec.h"

#include <cstdint>

namespace mqdesk::store {

struct DataVersion
{
    int64_t counter = 0;
    int64_t stateVersion = 0; // 0 unless a controller/state machine is in use
    int64_t timestamp = 0;    // ms of the last change; a new DataVersion takes the current time
    BeanExtras extras;

    // A version stamped now, as `new DataVersion()` in Java.
    static DataVersion create();

    // Java's nextVersion(stateVersion): counter + 1, timestamp = now.
    void nextVersion(int64_t newStateVersion = 0);

    common::JsonValue toJson() const;
    // Reads `value` (at `path`, for messages) into `out`; false with `error` on a wrong type.
    static bool fromJson(const common::JsonValue &value, const std::string &path, DataVersion &out,
                         std::string &error);

    bool operator==(const DataVersion &other) const = default;
};

} // namespace mqdesk::store
