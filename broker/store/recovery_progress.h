#pragma once

// Progress of a store's open — the recovery of a large store can take seconds — for a UI that
// shows it (MessageStore::setRecoveryProgress, EmbeddedBrokerOptions::recoveryProgress).
//
// Contract: the callback runs on the thread calling MessageStore::open, synchronously, while the
// store is not yet usable; it must return quickly and must not call into the store. Phases come
// in this order, each at least once; within a phase `done` never decreases, never exceeds
// `total`, and the phase's last report has done == total:
//   "consume queues"  queues recovered, of those loaded (unit: queues)
//   "commit log"      bytes validated from the recovery start to the end of the last file (the
//                     scan stops at the end of the data; the rest counts as done)
//   "dispatch"        commit-log bytes dispatched again into the queues and the index, from where
//                     dispatch resumes to the end of the log (0 of 0 after a clean stop)
// Reports are throttled to about one per kRecoveryProgressStep units (per queue for queues).

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string_view>

namespace mqdesk::store {

struct RecoveryProgress
{
    std::string_view phase;
    int64_t done = 0;
    int64_t total = 0;
};

using RecoveryProgressCallback = std::function<void(const RecoveryProgress &)>;

inline constexpr int64_t kRecoveryProgressStep = 4LL * 1024 * 1024;

// Reports one phase through a callback (which may be empty): every report() at least `step`
// past the last one, and finish() once with done == total.
class PhaseProgress
{
public:
    PhaseProgress(const RecoveryProgressCallback &callback, std::string_view phase, int64_t total,
                  int64_t step = kRecoveryProgressStep)
        : callback_(callback), phase_(phase), total_(total < 0 ? 0 : total), step_(step)
    {
        if (callback_)
            callback_({phase_, 0, total_});
    }

    void report(int64_t done)
    {
        if (!callback_ || done < next_)
            return;
        last_ = std::clamp<int64_t>(done, last_, total_);
        next_ = last_ + step_;
        callback_({phase_, last_, total_});
    }
    void finish()
    {
        if (callback_)
            callback_({phase_, total_, total_});
    }

private:
    const RecoveryProgressCallback &callback_;
    std::string_view phase_;
    int64_t total_;
    int64_t step_;
    int64_t last_ = 0;
    int64_t next_ = 0;
};

} // namespace mqdesk::store
