#include "broker/store/config/data_version.h"

#include "broker/common/clock.h"

namespace mqdesk::store {

DataVersion DataVersion::create()
{
    DataVersion version;
    version.timestamp = common::wallMillis();
    return version;
}

void DataVersion::nextVersion(int64_t newStateVersion)
{
    timestamp = common::wallMillis();
    stateVersion = newStateVersion;
    ++counter;
}

common::JsonValue DataVersion::toJson() const
{
    BeanWriter writer(extras);
    writer.put("counter", counter);
    writer.put("stateVersion", stateVersion, stateVersion == 0);
    writer.put("timestamp", timestamp);
    return writer.finish();
}

bool DataVersion::fromJson(const common::JsonValue &value, const std::string &path, DataVersion &out,
                           std::string &error)
{
    DataVersion version = create(); // a missing timestamp reads as now, as in Java
    BeanReader reader(value, path);
    reader.readInt64("counter", version.counter);
    reader.readInt64("stateVersion", version.stateVersion);
    reader.readInt64("timestamp", version.timestamp);
    if (!reader.finish(version.extras, error))
        return false;
    out = std::move(version);
    return true;
}

} // namespace mqdesk::store
