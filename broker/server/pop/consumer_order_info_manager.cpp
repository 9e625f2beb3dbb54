#include "broker/server/pop/consumer_order_info_manager.h"

#include "broker/server/pop/pop_records.h"

#include "broker/remoting/protocol/header_fields.h"

#include <algorithm>
#include <utility>

namespace mqdesk::server::pop {

using common::JsonArray;
using common::JsonObject;
using common::JsonValue;

namespace {

std::optional<int64_t> integerOf(const JsonValue &value)
{
    if (value.isInteger())
        return value.asInteger();
    return std::nullopt;
}

std::optional<int64_t> integerKey(const std::string &key)
{
    return remoting::parseJavaLong(key);
}

} // namespace

ConsumerOrderInfoManager::ConsumerOrderInfoManager() : ConfigManager(kFileName) {}

const ConsumerOrderInfoManager::OrderInfo *ConsumerOrderInfoManager::findLocked(const std::string &topic,
                                                                                const std::string &group,
                                                                                int32_t queueId) const
{
    const auto queues = table_.find(keyOf(topic, group));
    if (queues == table_.end())
        return nullptr;
    const auto found = queues->second.find(queueId);
    return found != queues->second.end() ? &found->second : nullptr;
}

ConsumerOrderInfoManager::OrderInfo *ConsumerOrderInfoManager::findLocked(const std::string &topic,
                                                                          const std::string &group, int32_t queueId)
{
    return const_cast<OrderInfo *>(std::as_const(*this).findLocked(topic, group, queueId));
}

bool ConsumerOrderInfoManager::admit(const std::string &topic, const std::string &group, int32_t queueId,
                                     const std::string &attemptId, int64_t nowMs) const
{
    return blockedUntil(topic, group, queueId, attemptId, nowMs) == 0;
}

void ConsumerOrderInfoManager::popped(const std::string &topic, const std::string &group, int32_t queueId,
                                      const std::string &attemptId, int64_t popTime, int64_t invisibleTime,
                                      const std::vector<int64_t> &offsets, std::string &orderCountInfo)
{
    const std::vector<int32_t> counts = recordPop(topic, group, queueId, attemptId, popTime, invisibleTime, offsets);
    const std::string retry = retryMark(topic);
    int32_t minCount = offsets.empty() ? 0 : INT32_MAX;
    for (size_t i = 0; i < offsets.size(); ++i) {
        minCount = std::min(minCount, counts[i]);
        if (counts[i] <= 0)
            continue;
        if (!orderCountInfo.empty())
            orderCountInfo += ';';
        orderCountInfo += retry + " qo" + std::to_string(queueId) + "%" + std::to_string(offsets[i]) + " "
                          + std::to_string(counts[i]);
    }
    appendOrderCountInfo(orderCountInfo, topic, queueId, minCount);
}

std::vector<int32_t> ConsumerOrderInfoManager::recordPop(const std::string &topic, const std::string &group,
                                                         int32_t queueId, const std::string &attemptId, int64_t popTime,
                                                         int64_t invisibleTime, const std::vector<int64_t> &offsets)
{
    std::lock_guard lock(mutex_);
    const std::string key = keyOf(topic, group);
    if (!table_.contains(key))
        order_.push_back(key);
    OrderInfo &info = table_[key][queueId];
    OrderInfo next;
    next.popTime = popTime;
    next.invisibleTime = invisibleTime;
    next.offsets = offsets;
    next.lastConsumeTimestamp = popTime;
    next.attemptId = attemptId;
    const bool sameAttempt = !attemptId.empty() && attemptId == info.attemptId;
    for (int64_t offset : offsets) {
        const bool before = std::find(info.offsets.begin(), info.offsets.end(), offset) != info.offsets.end();
        if (!before)
            continue;
        const auto previous = info.consumedCount.find(offset);
        const int32_t count = previous != info.consumedCount.end() ? previous->second : 0;
        next.consumedCount[offset] = sameAttempt ? count : count + 1;
    }
    std::erase_if(next.consumedCount, [](const auto &entry) { return entry.second <= 0; });
    info = std::move(next);
    dirty_ = true;
    std::vector<int32_t> counts;
    counts.reserve(offsets.size());
    for (int64_t offset : offsets) {
        const auto count = info.consumedCount.find(offset);
        counts.push_back(count != info.consumedCount.end() ? count->second : 0);
    }
    return counts;
}

int64_t ConsumerOrderInfoManager::blockedUntil(const std::string &topic, const std::string &group, int32_t queueId,
                                               const std::string &attemptId, int64_t nowMs) const
{
    std::lock_guard lock(mutex_);
    const auto found = findLocked(topic, group, queueId);
    if (!found || (!attemptId.empty() && attemptId == found->attemptId))
        return 0;
    const OrderInfo &info = *found;
    int64_t until = 0;
    for (size_t i = 0; i < info.offsets.size(); ++i) {
        if (info.acked(i))
            continue;
        const auto visible = info.nextVisible.find(info.offsets[i]);
        until = std::max(until, visible != info.nextVisible.end() ? visible->second : info.popTime + info.invisibleTime);
    }
    return until > nowMs ? until : 0;
}

bool ConsumerOrderInfoManager::holds(const std::string &topic, const std::string &group, int32_t queueId) const
{
    std::lock_guard lock(mutex_);
    const auto found = findLocked(topic, group, queueId);
    return found && !found->offsets.empty();
}

bool ConsumerOrderInfoManager::suspend(const std::string &topic, const std::string &group, int32_t queueId,
                                       int64_t popTime, int64_t visibleAtMs)
{
    std::lock_guard lock(mutex_);
    const auto found = findLocked(topic, group, queueId);
    if (!found || found->popTime != popTime)
        return false;
    OrderInfo &info = *found;
    for (auto &[offset, count] : info.consumedCount)
        --count;
    std::erase_if(info.consumedCount, [](const auto &entry) { return entry.second <= 0; });
    info.nextVisible.clear();
    info.invisibleTime = std::max<int64_t>(visibleAtMs - info.popTime, 0);
    dirty_ = true;
    return true;
}

std::optional<int64_t> ConsumerOrderInfoManager::ack(const std::string &topic, const std::string &group, int32_t queueId,
                                                     int64_t offset, int64_t popTime)
{
    std::lock_guard lock(mutex_);
    const auto found = findLocked(topic, group, queueId);
    if (!found || found->popTime != popTime)
        return std::nullopt;
    OrderInfo &info = *found;
    const auto at = std::find(info.offsets.begin(), info.offsets.end(), offset);
    if (at == info.offsets.end())
        return std::nullopt;
    const size_t index = static_cast<size_t>(at - info.offsets.begin());
    if (index < 64)
        info.commitBits |= int64_t{1} << index;
    dirty_ = true;
    for (size_t i = 0; i < info.offsets.size(); ++i) {
        if (!info.acked(i))
            return info.offsets[i];
    }
    return info.offsets.back() + 1;
}

bool ConsumerOrderInfoManager::changeInvisible(const std::string &topic, const std::string &group, int32_t queueId,
                                               int64_t offset, int64_t popTime, int64_t visibleAtMs)
{
    std::lock_guard lock(mutex_);
    const auto found = findLocked(topic, group, queueId);
    if (!found || found->popTime != popTime)
        return false;
    OrderInfo &info = *found;
    if (std::find(info.offsets.begin(), info.offsets.end(), offset) == info.offsets.end())
        return false;
    info.nextVisible[offset] = visibleAtMs;
    dirty_ = true;
    return true;
}

void ConsumerOrderInfoManager::clearBlock(const std::string &topic, const std::string &group, int32_t queueId)
{
    std::lock_guard lock(mutex_);
    const auto it = table_.find(keyOf(topic, group));
    if (it == table_.end())
        return;
    if (queueId < 0)
        it->second.clear();
    else
        it->second.erase(queueId);
    dirty_ = true;
}

int64_t ConsumerOrderInfoManager::heldQueueCount() const
{
    std::lock_guard lock(mutex_);
    int64_t count = 0;
    for (const auto &[key, queues] : table_)
        count += static_cast<int64_t>(queues.size());
    return count;
}

int64_t ConsumerOrderInfoManager::heldCount(const std::string &group) const
{
    std::lock_guard lock(mutex_);
    int64_t count = 0;
    const std::string suffix = "@" + group;
    for (const auto &[key, queues] : table_) {
        if (!key.ends_with(suffix))
            continue;
        for (const auto &[queueId, info] : queues) {
            for (size_t i = 0; i < info.offsets.size(); ++i)
                count += info.acked(i) ? 0 : 1;
        }
    }
    return count;
}

bool ConsumerOrderInfoManager::dirty() const
{
    std::lock_guard lock(mutex_);
    return dirty_;
}

bool ConsumerOrderInfoManager::decodeLocked(const JsonValue &root, std::string &error)
{
    std::map<std::string, Queues> table;
    std::vector<std::string> order;
    const JsonValue *tableValue = root.isObject() ? root.asObject().find("table") : nullptr;
    if (tableValue != nullptr && !tableValue->isNull()) {
        if (!tableValue->isObject()) {
            error = "table: expected an object";
            return false;
        }
        for (const common::JsonMember &entry : tableValue->asObject()) {
            if (!entry.value.isObject()) {
                error = "table[\"" + entry.key + "\"]: expected an object";
                return false;
            }
            Queues queues;
            for (const common::JsonMember &queue : entry.value.asObject()) {
                const std::string at = "table[\"" + entry.key + "\"][" + queue.key + "]";
                const auto queueId = integerKey(queue.key);
                if (!queueId || !queue.value.isObject()) {
                    error = at + ": expected a queue id and an object";
                    return false;
                }
                const JsonObject &object = queue.value.asObject();
                OrderInfo info;
                const auto number = [&](const char *name, int64_t &out) {
                    if (const JsonValue *v = object.find(name)) {
                        if (const auto n = integerOf(*v))
                            out = *n;
                    }
                };
                number("popTime", info.popTime);
                number("i", info.invisibleTime);
                if (!isMillis(info.popTime) || !isMillis(info.invisibleTime)) {
                    error = at + ": popTime or i out of range";
                    return false;
                }
                number("l", info.lastConsumeTimestamp);
                number("cm", info.commitBits);
                if (const JsonValue *a = object.find("a"); a && a->isString())
                    info.attemptId = a->asString();
                if (const JsonValue *o = object.find("o"); o && o->isArray()) {
                    for (size_t i = 0; i < o->asArray().size(); ++i) {
                        const auto n = integerOf(o->asArray()[i]);
                        if (!n) {
                            error = at + ".o: not an integer list";
                            return false;
                        }
                        info.offsets.push_back(i == 0 ? *n : info.offsets.front() + *n);
                    }
                }
                for (const char *name : {"ot", "oc"}) {
                    const JsonValue *map = object.find(name);
                    if (map == nullptr || !map->isObject())
                        continue;
                    for (const common::JsonMember &m : map->asObject()) {
                        const auto offset = integerKey(m.key);
                        const auto n = integerOf(m.value);
                        if (!offset || !n)
                            continue;
                        if (name[1] == 't')
                            info.nextVisible[*offset] = *n;
                        else
                            info.consumedCount[*offset] = static_cast<int32_t>(*n);
                    }
                }
                queues[static_cast<int32_t>(*queueId)] = std::move(info);
            }
            order.push_back(entry.key);
            table[entry.key] = std::move(queues);
        }
    }
    table_ = std::move(table);
    order_ = std::move(order);
    return true;
}

JsonValue ConsumerOrderInfoManager::encodeLocked() const
{
    JsonObject tableObject;
    int64_t count = 0;
    for (const std::string &key : order_) {
        const auto queues = table_.find(key);
        if (queues == table_.end())
            continue;
        JsonObject byQueue;
        for (const auto &[queueId, info] : queues->second) {
            JsonObject object;
            if (!info.attemptId.empty())
                object.set("a", info.attemptId);
            object.set("cm", info.commitBits);
            object.set("i", info.invisibleTime);
            object.set("l", info.lastConsumeTimestamp);
            JsonArray offsets;
            for (size_t i = 0; i < info.offsets.size(); ++i)
                offsets.emplace_back(i == 0 ? info.offsets[0] : info.offsets[i] - info.offsets[0]);
            object.set("o", std::move(offsets));
            if (!info.consumedCount.empty()) {
                JsonObject counts;
                for (const auto &[offset, n] : info.consumedCount)
                    counts.setIntegerKey(offset, n);
                object.set("oc", std::move(counts));
            }
            if (!info.nextVisible.empty()) {
                JsonObject visible;
                for (const auto &[offset, at] : info.nextVisible)
                    visible.setIntegerKey(offset, at);
                object.set("ot", std::move(visible));
            }
            object.set("popTime", info.popTime);
            byQueue.setIntegerKey(queueId, std::move(object));
            ++count;
        }
        tableObject.set(key, std::move(byQueue));
    }
    dirty_ = false;
    JsonObject root;
    root.set("orderInfoCount", count);
    root.set("orderedConsumptionLevel", "QUEUE");
    root.set("table", std::move(tableObject));
    return JsonValue(std::move(root));
}

} // namespace mqdesk::server::pop
