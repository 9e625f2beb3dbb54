#include "broker/grpc/receipt_renewals.h"

#include <algorithm>
#include <array>

namespace mqdesk::grpc {

int64_t ReceiptRenewals::renewStepMillis(int renewTimes)
{
    static constexpr std::array<int64_t, 7> kMinutes = {1, 3, 5, 6, 10, 30, 60};
    const size_t step = std::min(static_cast<size_t>(std::max(renewTimes, 0)), kMinutes.size() - 1);
    return kMinutes[step] * 60'000;
}

void ReceiptRenewals::add(const Key &key, const std::string &topic, int64_t deliveredMs, int64_t visibleAgainMs)
{
    std::lock_guard lock(mutex_);
    Receipt &receipt = receipts_[key];
    receipt.topic = topic;
    receipt.handle = key.givenHandle;
    receipt.deliveredMs = deliveredMs;
    receipt.visibleAgainMs = visibleAgainMs;
}

void ReceiptRenewals::take(const Key &key, Taken then)
{
    std::unique_lock lock(mutex_);
    const auto it = receipts_.find(key);
    if (it == receipts_.end()) {
        lock.unlock();
        then(key.givenHandle);
        return;
    }
    if (it->second.renewing) {
        it->second.waiting.push_back(std::move(then));
        return;
    }
    const std::string latest = std::move(it->second.handle);
    receipts_.erase(it);
    lock.unlock();
    then(latest);
}

std::vector<ReceiptRenewals::Due> ReceiptRenewals::due(int64_t nowMs, int64_t aheadMillis, int64_t maxRenewMillis)
{
    std::vector<Due> out;
    std::lock_guard lock(mutex_);
    for (auto it = receipts_.begin(); it != receipts_.end();) {
        Receipt &receipt = it->second;
        if (receipt.renewing || receipt.visibleAgainMs - nowMs > aheadMillis) {
            ++it;
            continue;
        }
        if (nowMs - receipt.deliveredMs >= maxRenewMillis) {
            it = receipts_.erase(it); // consumed too long: it comes back when its time is up
            continue;
        }
        receipt.renewing = true;
        out.push_back(Due{it->first, receipt.topic, receipt.handle, renewStepMillis(receipt.renewTimes)});
        ++it;
    }
    return out;
}

void ReceiptRenewals::renewed(const Key &key, std::optional<std::pair<std::string, int64_t>> handleAndVisibleMs)
{
    std::vector<Taken> waiting;
    std::string latest;
    {
        std::lock_guard lock(mutex_);
        const auto it = receipts_.find(key);
        if (it == receipts_.end())
            return;
        Receipt &receipt = it->second;
        receipt.renewing = false;
        if (handleAndVisibleMs) {
            receipt.handle = std::move(handleAndVisibleMs->first);
            receipt.visibleAgainMs = handleAndVisibleMs->second;
            ++receipt.renewTimes;
            receipt.failures = 0;
        } else if (++receipt.failures >= kMaxRetries && receipt.waiting.empty()) {
            receipts_.erase(it);
            return;
        }
        if (receipt.waiting.empty())
            return;
        waiting = std::move(receipt.waiting);
        latest = receipt.handle;
        receipts_.erase(it);
    }
    for (Taken &then : waiting)
        then(latest);
}

void ReceiptRenewals::forgetClient(const std::string &clientId)
{
    std::vector<std::pair<std::string, std::vector<Taken>>> waiting;
    {
        std::lock_guard lock(mutex_);
        for (auto it = receipts_.lower_bound(Key{clientId, {}, {}, {}}); it != receipts_.end() && it->first.clientId == clientId;) {
            if (!it->second.waiting.empty())
                waiting.emplace_back(it->second.handle, std::move(it->second.waiting));
            it = receipts_.erase(it);
        }
    }
    for (auto &[handle, takers] : waiting) {
        for (Taken &then : takers)
            then(handle);
    }
}

size_t ReceiptRenewals::size() const
{
    std::lock_guard lock(mutex_);
    return receipts_.size();
}

} // namespace mqdesk::grpc
