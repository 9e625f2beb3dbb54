#include "broker/server/pull_request_hold_service.h"

#include "broker/common/clock.h"

namespace mqdesk::server {

PullRequestHoldService::PullRequestHoldService(Rerun rerun, MaxOffset maxOffset)
    : ServiceThread("PullRequestHold"), rerun_(std::move(rerun)), maxOffset_(std::move(maxOffset))
{}

PullRequestHoldService::~PullRequestHoldService()
{
    stop();
}

std::string PullRequestHoldService::keyOf(const std::string &topic, int32_t queueId)
{
    return topic + "@" + std::to_string(queueId);
}

void PullRequestHoldService::suspend(HeldPull pull)
{
    const std::string key = keyOf(pull.topic, pull.queueId);
    const std::string topic = pull.topic;
    const int32_t queueId = pull.queueId;
    const int64_t from = pull.pullFromOffset;
    {
        std::lock_guard lock(mutex_);
        held_[key].push_back(std::move(pull));
    }
    startOnce(); // the hold-time checks run once something is held
    // A message dispatched between the pull's read and now notified nobody: look once more.
    const int64_t maxOffset = maxOffset_(topic, queueId);
    if (maxOffset > from)
        notifyMessageArriving(topic, queueId, maxOffset - 1, 0);
}

void PullRequestHoldService::notifyMessageArriving(const std::string &topic, int32_t queueId, int64_t queueOffset,
                                                   int64_t tagsCode)
{
    std::vector<HeldPull> woken;
    {
        std::lock_guard lock(mutex_);
        const auto it = held_.find(keyOf(topic, queueId));
        if (it == held_.end())
            return;
        auto &pulls = it->second;
        for (auto pull = pulls.begin(); pull != pulls.end();) {
            // tagsCode 0 from a check means "unknown": wake and let the re-run filter.
            const bool passes = tagsCode == 0 || pull->subscription.matchesTagsCode(tagsCode);
            if (queueOffset >= pull->pullFromOffset && passes) {
                woken.push_back(std::move(*pull));
                pull = pulls.erase(pull);
            } else {
                ++pull;
            }
        }
        if (pulls.empty())
            held_.erase(it);
    }
    for (HeldPull &pull : woken)
        rerun_(std::move(pull));
}

void PullRequestHoldService::checkHeldPulls()
{
    std::vector<std::pair<std::string, int32_t>> queues;
    {
        std::lock_guard lock(mutex_);
        for (const auto &[key, pulls] : held_) {
            if (!pulls.empty())
                queues.emplace_back(pulls.front().topic, pulls.front().queueId);
        }
    }
    const int64_t now = common::steadyMicros() / 1000;
    for (const auto &[topic, queueId] : queues) {
        const int64_t maxOffset = maxOffset_(topic, queueId);
        std::vector<HeldPull> woken;
        {
            std::lock_guard lock(mutex_);
            const auto it = held_.find(keyOf(topic, queueId));
            if (it == held_.end())
                continue;
            auto &pulls = it->second;
            for (auto pull = pulls.begin(); pull != pulls.end();) {
                const bool expired = now - pull->suspendMillis >= pull->timeoutMillis;
                if (expired || maxOffset > pull->pullFromOffset || !pull->context.isOpen()) {
                    woken.push_back(std::move(*pull));
                    pull = pulls.erase(pull);
                } else {
                    ++pull;
                }
            }
            if (pulls.empty())
                held_.erase(it);
        }
        for (HeldPull &pull : woken) {
            if (pull.context.isOpen())
                rerun_(std::move(pull));
        }
    }
}

void PullRequestHoldService::releaseAll()
{
    std::map<std::string, std::vector<HeldPull>> all;
    {
        std::lock_guard lock(mutex_);
        all.swap(held_);
    }
    for (auto &[key, pulls] : all) {
        for (HeldPull &pull : pulls)
            rerun_(std::move(pull));
    }
}

size_t PullRequestHoldService::heldCount() const
{
    std::lock_guard lock(mutex_);
    size_t count = 0;
    for (const auto &[key, pulls] : held_)
        count += pulls.size();
    return count;
}

void PullRequestHoldService::run()
{
    // RocketMQ checks every 5 s; once a second keeps the worst-case hold close to what the
    // client asked for at the cost of a map walk over the parked pulls.
    while (!isStopped()) {
        waitForRunning(std::chrono::milliseconds(1000));
        if (isStopped())
            break;
        checkHeldPulls();
    }
}

} // namespace mqdesk::server
