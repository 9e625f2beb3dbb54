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

std::vector<HeldPull> *PullRequestHoldService::heldOn(std::string_view topic, int32_t queueId)
{
    const auto byTopic = held_.find(topic);
    if (byTopic == held_.end())
        return nullptr;
    const auto byQueue = byTopic->second.find(queueId);
    return byQueue == byTopic->second.end() ? nullptr : &byQueue->second;
}

void PullRequestHoldService::forgetIfEmpty(std::string_view topic, int32_t queueId)
{
    const auto byTopic = held_.find(topic);
    if (byTopic == held_.end())
        return;
    if (const auto byQueue = byTopic->second.find(queueId); byQueue != byTopic->second.end() && byQueue->second.empty())
        byTopic->second.erase(byQueue);
    if (byTopic->second.empty())
        held_.erase(byTopic);
}

void PullRequestHoldService::suspend(HeldPull pull)
{
    const std::string topic = pull.topic;
    const int32_t queueId = pull.queueId;
    const int64_t from = pull.pullFromOffset;
    {
        std::lock_guard lock(mutex_);
        held_[topic][queueId].push_back(std::move(pull));
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
        std::vector<HeldPull> *held = heldOn(topic, queueId);
        if (!held)
            return;
        auto &pulls = *held;
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
        forgetIfEmpty(topic, queueId);
    }
    for (HeldPull &pull : woken)
        rerun_(std::move(pull));
}

void PullRequestHoldService::checkHeldPulls()
{
    std::vector<std::pair<std::string, int32_t>> queues;
    {
        std::lock_guard lock(mutex_);
        for (const auto &[topic, byQueue] : held_) {
            for (const auto &[queueId, pulls] : byQueue) {
                if (!pulls.empty())
                    queues.emplace_back(topic, queueId);
            }
        }
    }
    const int64_t now = common::steadyMicros() / 1000;
    for (const auto &[topic, queueId] : queues) {
        const int64_t maxOffset = maxOffset_(topic, queueId);
        std::vector<HeldPull> woken;
        {
            std::lock_guard lock(mutex_);
            std::vector<HeldPull> *held = heldOn(topic, queueId);
            if (!held)
                continue;
            auto &pulls = *held;
            for (auto pull = pulls.begin(); pull != pulls.end();) {
                const bool expired = now - pull->suspendMillis >= pull->timeoutMillis;
                if (expired || maxOffset > pull->pullFromOffset || !pull->context.isOpen()) {
                    woken.push_back(std::move(*pull));
                    pull = pulls.erase(pull);
                } else {
                    ++pull;
                }
            }
            forgetIfEmpty(topic, queueId);
        }
        for (HeldPull &pull : woken) {
            if (pull.context.isOpen())
                rerun_(std::move(pull));
        }
    }
}

void PullRequestHoldService::releaseAll()
{
    HeldPulls all;
    {
        std::lock_guard lock(mutex_);
        all.swap(held_);
    }
    for (auto &[topic, byQueue] : all) {
        for (auto &[queueId, pulls] : byQueue) {
            for (HeldPull &pull : pulls)
                rerun_(std::move(pull));
        }
    }
}

size_t PullRequestHoldService::heldCount() const
{
    std::lock_guard lock(mutex_);
    size_t count = 0;
    for (const auto &[topic, byQueue] : held_) {
        for (const auto &[queueId, pulls] : byQueue)
            count += pulls.size();
    }
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
