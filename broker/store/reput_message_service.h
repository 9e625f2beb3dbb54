#pragma once

// The dispatcher (RocketMQ's ReputMessageService, store-format §10): one thread follows the
// commit log from reputFromOffset to the reput end — the flushed position under SYNC_FLUSH, the
// readable end otherwise — and hands every record to the dispatchers (consume queues, index).

#include "broker/common/service_thread.h"
#include "broker/store/dispatch_request.h"

#include <atomic>
#include <functional>
#include <vector>

namespace mqdesk::store {

class CommitLog;

class ReputMessageService : public common::ServiceThread
{
public:
    using Dispatcher = std::function<void(const DispatchRequest &)>;

    ReputMessageService(CommitLog &commitLog, std::vector<Dispatcher> dispatchers,
                        const std::vector<int64_t> &delayLevelMillis);
    ~ReputMessageService() override;

    void setReputFromOffset(int64_t offset) { reputFromOffset_.store(offset, std::memory_order_release); }
    int64_t reputFromOffset() const { return reputFromOffset_.load(std::memory_order_acquire); }
    // Bytes appended but not yet dispatched.
    int64_t dispatchBehindBytes() const;

    // Dispatches everything up to the reput end on the calling thread (startup, shutdown).
    // Requires: the service thread is not running. `progress` is told the dispatch offset every
    // few MiB.
    void dispatchAvailable(const std::function<void(int64_t offset)> &progress = {});

protected:
    void run() override;

private:
    int64_t reputEnd() const;
    // Dispatches records from reputFromOffset up to the reput end; returns how many.
    int doReput(const std::function<void(int64_t offset)> &progress = {});
    int64_t tagsCodeFor(std::string_view topic, std::string_view properties, int64_t storeTimestamp) const;

    CommitLog &commitLog_;
    std::vector<Dispatcher> dispatchers_;
    std::vector<int64_t> delayLevelMillis_; // index level - 1
    std::atomic<int64_t> reputFromOffset_{0};
};

// messageDelayLevel ("1s 5s 10s 30s 1m 2m ... 2h") in milliseconds; empty on a bad entry.
std::vector<int64_t> parseDelayLevels(std::string_view text);

inline constexpr std::string_view kScheduleTopic = "SCHEDULE_TOPIC_XXXX";

} // namespace mqdesk::store
