#include "broker/server/pull_offset_table.h"

namespace mqdesk::server {

void PullOffsetTable::commit(const std::string &group, const std::string &topic, int32_t queueId, int64_t nextOffset)
{
    std::lock_guard lock(mutex_);
    table_[Key{group, topic, queueId}] = nextOffset;
}

int64_t PullOffsetTable::query(const std::string &group, const std::string &topic, int32_t queueId) const
{
    std::lock_guard lock(mutex_);
    const auto it = table_.find(Key{group, topic, queueId});
    return it == table_.end() ? -1 : it->second;
}

void PullOffsetTable::clear(const std::string &group, const std::string &topic)
{
    std::lock_guard lock(mutex_);
    auto it = table_.lower_bound(Key{group, topic, INT32_MIN});
    while (it != table_.end() && std::get<0>(it->first) == group && std::get<1>(it->first) == topic)
        it = table_.erase(it);
}

void PullOffsetTable::clearTopic(const std::string &topic)
{
    std::lock_guard lock(mutex_);
    for (auto it = table_.begin(); it != table_.end();)
        it = std::get<1>(it->first) == topic ? table_.erase(it) : std::next(it);
}

} // namespace mqdesk::server
