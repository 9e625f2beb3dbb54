#include "broker/server/pop/order_info.h"

namespace mqdesk::server::pop {

std::string OrderInfoTable::keyOf(const std::string &topic, const std::string &group, int32_t queueId)
{
    return topic + "@" + group + "@" + std::to_string(queueId);
}

bool OrderInfoTable::admit(const std::string &topic, const std::string &group, int32_t queueId,
                           const std::string &attemptId, int64_t nowMs)
{
    std::lock_guard lock(mutex_);
    const auto it = held_.find(keyOf(topic, group, queueId));
    if (it == held_.end())
        return true;
    const Held &held = it->second;
    return nowMs >= held.visibleAtMs || (!attemptId.empty() && attemptId == held.attemptId);
}

int32_t OrderInfoTable::popped(const std::string &topic, const std::string &group, int32_t queueId,
                               const std::string &attemptId, int64_t popTime, int64_t invisibleTime,
                               const std::vector<int64_t> &offsets)
{
    std::lock_guard lock(mutex_);
    const std::string key = keyOf(topic, group, queueId);
    Held &held = held_[key];
    groupOfKey_[key] = group;
    const bool again = !held.offsets.empty() && !offsets.empty() && held.offsets.front() == offsets.front();
    held.count = again ? held.count + 1 : 0;
    if (!again)
        held.acked.clear();
    held.offsets = offsets;
    held.visibleAtMs = popTime + invisibleTime;
    held.attemptId = attemptId;
    return held.count;
}

std::optional<int64_t> OrderInfoTable::ack(const std::string &topic, const std::string &group, int32_t queueId,
                                           int64_t offset)
{
    std::lock_guard lock(mutex_);
    const std::string key = keyOf(topic, group, queueId);
    const auto it = held_.find(key);
    if (it == held_.end())
        return std::nullopt;
    Held &held = it->second;
    bool found = false;
    for (int64_t popped : held.offsets)
        found = found || popped == offset;
    if (!found)
        return std::nullopt;
    held.acked.insert(offset);
    for (int64_t popped : held.offsets) {
        if (!held.acked.contains(popped))
            return popped; // the committed offset stops at the first message still held
    }
    const int64_t next = held.offsets.back() + 1;
    held_.erase(it);
    groupOfKey_.erase(key);
    return next;
}

bool OrderInfoTable::changeInvisible(const std::string &topic, const std::string &group, int32_t queueId,
                                     int64_t offset, int64_t visibleAtMs)
{
    std::lock_guard lock(mutex_);
    const auto it = held_.find(keyOf(topic, group, queueId));
    if (it == held_.end())
        return false;
    for (int64_t popped : it->second.offsets) {
        if (popped == offset) {
            it->second.visibleAtMs = visibleAtMs;
            return true;
        }
    }
    return false;
}

int64_t OrderInfoTable::heldCount(const std::string &group) const
{
    std::lock_guard lock(mutex_);
    int64_t count = 0;
    for (const auto &[key, held] : held_) {
        const auto owner = groupOfKey_.find(key);
        if (owner != groupOfKey_.end() && owner->second == group)
            count += static_cast<int64_t>(held.offsets.size() - held.acked.size());
    }
    return count;
}

} // namespace mqdesk::server::pop
