#include "broker/namesrv/kv_config_manager.h"

#include <mutex>

namespace mqdesk::namesrv {

void KvConfigManager::put(const std::string &ns, const std::string &key, const std::string &value)
{
    std::unique_lock lock(mutex_);
    table_[ns][key] = value;
}

std::optional<std::string> KvConfigManager::get(const std::string &ns, const std::string &key) const
{
    std::shared_lock lock(mutex_);
    const auto space = table_.find(ns);
    if (space == table_.end())
        return std::nullopt;
    const auto entry = space->second.find(key);
    if (entry == space->second.end())
        return std::nullopt;
    return entry->second;
}

bool KvConfigManager::remove(const std::string &ns, const std::string &key)
{
    std::unique_lock lock(mutex_);
    const auto space = table_.find(ns);
    if (space == table_.end() || space->second.erase(key) == 0)
        return false;
    if (space->second.empty())
        table_.erase(space);
    return true;
}

std::optional<std::map<std::string, std::string>> KvConfigManager::list(const std::string &ns) const
{
    std::shared_lock lock(mutex_);
    const auto space = table_.find(ns);
    if (space == table_.end())
        return std::nullopt;
    return space->second;
}

} // namespace mqdesk::namesrv
