#include "broker/store/config/delay_offset_manager.h"

namespace mqdesk::store {

using common::JsonObject;
using common::JsonValue;

DelayOffsetManager::DelayOffsetManager(int64_t updateVersionStep)
    : ConfigManager(kFileName), updateVersionStep_(updateVersionStep > 0 ? updateVersionStep : 1)
{}

std::optional<int64_t> DelayOffsetManager::offset(int32_t delayLevel) const
{
    std::lock_guard lock(mutex_);
    if (const int64_t *value = table_.find(delayLevel))
        return *value;
    return std::nullopt;
}

void DelayOffsetManager::updateOffset(int32_t delayLevel, int64_t offset)
{
    std::lock_guard lock(mutex_);
    table_.insertOrAssign(delayLevel, offset);
    if (++versionChangeCounter_ % updateVersionStep_ == 0)
        dataVersion_.nextVersion();
}

std::vector<std::pair<int32_t, int64_t>> DelayOffsetManager::offsetTable() const
{
    std::lock_guard lock(mutex_);
    return std::vector<std::pair<int32_t, int64_t>>(table_.begin(), table_.end());
}

DataVersion DelayOffsetManager::dataVersion() const
{
    std::lock_guard lock(mutex_);
    return dataVersion_;
}

bool DelayOffsetManager::decodeLocked(const JsonValue &root, std::string &error)
{
    BeanReader reader(root, std::string());
    DataVersion version = DataVersion::create();
    reader.readWith("dataVersion", [&](const JsonValue &value, const std::string &path, std::string &err) {
        return DataVersion::fromJson(value, path, version, err);
    });
    Table table = newTable();
    reader.readWith("offsetTable", [&](const JsonValue &value, const std::string &path, std::string &err) {
        return forEachMember(value, path, err, [&](const common::JsonMember &entry, const std::string &at, std::string &e) {
            int32_t level = 0;
            int64_t offset = 0;
            if (!jsonToInt32(JsonValue(entry.key), at + " (delay level)", level, e)
                || !jsonToInt64(entry.value, at, offset, e))
                return false;
            table.append(level, offset);
            return true;
        });
    });
    BeanExtras extras;
    if (!reader.finish(extras, error))
        return false;
    table_ = std::move(table);
    dataVersion_ = std::move(version);
    rootExtras_ = std::move(extras);
    versionChangeCounter_ = 0;
    return true;
}

JsonValue DelayOffsetManager::encodeLocked() const
{
    JsonObject offsets;
    for (const auto &[level, offset] : table_)
        offsets.append(common::JsonMember{std::to_string(level), JsonValue(offset), true});
    BeanWriter writer(rootExtras_);
    writer.put("dataVersion", dataVersion_.toJson(), true);
    writer.put("offsetTable", JsonValue(std::move(offsets)), table_.empty());
    return writer.finish();
}

} // namespace mqdesk::store
