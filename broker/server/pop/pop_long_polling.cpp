#include "broker/server/pop/pop_long_polling.h"

#include "broker/common/clock.h"

#include <set>

namespace mqdesk::server::pop {

PopLongPolling::~PopLongPolling()
{
    stop();
}

bool PopLongPolling::park(ParkedRequest &request)
{
    Parked missedWake;
    {
        std::lock_guard lock(mutex_);
        if (parked_ >= maxParked_)
            return false;
        auto parked = std::make_shared<ParkedRequest>(std::move(request));
        if (parked->notificationsSeen && *parked->notificationsSeen != notificationsOfLocked(parked->topics)) {
            missedWake = std::move(parked);
        } else {
            for (const std::string &topic : parked->topics)
                byTopic_.emplace(topic, parked);
            ++parked_;
        }
    }
    if (missedWake)
        wakeAll({std::move(missedWake)}, false);
    else
        startOnce(); // the deadline checks run once something is parked
    return true;
}

uint64_t PopLongPolling::notificationsOf(const std::vector<std::string> &topics) const
{
    std::lock_guard lock(mutex_);
    return notificationsOfLocked(topics);
}

uint64_t PopLongPolling::notificationsOfLocked(const std::vector<std::string> &topics) const
{
    uint64_t sum = 0;
    for (const std::string &topic : topics)
        sum += notifications_[std::hash<std::string>{}(topic) % notifications_.size()];
    return sum;
}

void PopLongPolling::notifyMessageArriving(const std::string &topic, int32_t queueId)
{
    std::vector<Parked> woken;
    {
        std::lock_guard lock(mutex_);
        ++notifications_[std::hash<std::string>{}(topic) % notifications_.size()];
        auto [first, last] = byTopic_.equal_range(topic);
        for (auto it = first; it != last; ++it) {
            if (it->second->queueId < 0 || it->second->queueId == queueId)
                woken.push_back(it->second);
        }
        for (const Parked &request : woken) {
            for (const std::string &watched : request->topics) {
                auto [from, to] = byTopic_.equal_range(watched);
                for (auto it = from; it != to;) {
                    it = it->second == request ? byTopic_.erase(it) : std::next(it);
                }
            }
            --parked_;
        }
    }
    wakeAll(std::move(woken), false);
}

void PopLongPolling::releaseAll()
{
    std::vector<Parked> woken;
    {
        std::lock_guard lock(mutex_);
        std::set<ParkedRequest *> seen;
        for (auto &[topic, request] : byTopic_) {
            if (seen.insert(request.get()).second)
                woken.push_back(request);
        }
        byTopic_.clear();
        parked_ = 0;
    }
    wakeAll(std::move(woken), true);
}

int32_t PopLongPolling::parkedCount(const std::string &topic, const std::string &group, int32_t queueId) const
{
    std::lock_guard lock(mutex_);
    int32_t count = 0;
    auto [first, last] = byTopic_.equal_range(topic);
    for (auto it = first; it != last; ++it) {
        const ParkedRequest &request = *it->second;
        if (request.watchedTopic == topic && request.group == group && request.queueId == queueId)
            ++count;
    }
    return count;
}

size_t PopLongPolling::parkedCount(const std::string &group) const
{
    std::lock_guard lock(mutex_);
    std::set<const ParkedRequest *> seen;
    for (const auto &[topic, request] : byTopic_) {
        if (request->group == group)
            seen.insert(request.get());
    }
    return seen.size();
}

size_t PopLongPolling::parkedCount() const
{
    std::lock_guard lock(mutex_);
    return parked_;
}

void PopLongPolling::run()
{
    while (!isStopped()) {
        waitForRunning(std::chrono::milliseconds(100));
        const int64_t now = steadyMillis();
        std::vector<Parked> expired;
        {
            std::lock_guard lock(mutex_);
            std::set<ParkedRequest *> seen;
            for (auto it = byTopic_.begin(); it != byTopic_.end();) {
                if (it->second->deadlineMillis <= now) {
                    if (seen.insert(it->second.get()).second) {
                        expired.push_back(it->second);
                        --parked_;
                    }
                    it = byTopic_.erase(it);
                } else {
                    ++it;
                }
            }
        }
        wakeAll(std::move(expired), true);
    }
}

void PopLongPolling::wakeAll(std::vector<Parked> woken, bool timedOut)
{
    for (Parked &request : woken) {
        auto wake = std::move(request->wake);
        if (wake)
            wake(std::move(*request), timedOut);
    }
}

} // namespace mqdesk::server::pop
