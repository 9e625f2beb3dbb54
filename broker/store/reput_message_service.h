#pragma once

// The dispatcher (RocketMQ's ReputMessageService, store-format §10): one thread follows the
// commit log from reputFromOffset to the reput end — the flushed position under SYNC_FLUSH, the
// readable end otherwise — and hands every record to the dispatchers (consume queues, index).
//
// It never waits on a record's bytes: a record it cannot decode is reported once (file, offset,
// why) and stepped over — by its TOTALSIZE when that is sane and inside the data, else to the
// next record start found in the data (a magic whose PHYSICALOFFSET names its own position) or
// the end of the written data — as Java's ReputMessageService does with its "[BUG]" lines. Only
// a dispatcher that fails to write (a consume-queue file the full disk cannot hold) makes it
// retry the same record later, so that no queue entry is lost or shifted.

#include "broker/common/service_thread.h"
#include "broker/store/dispatch_request.h"
#include "broker/common/log_rate_limiter.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace mqdesk::store {

class CommitLog;
class MappedFile;

class ReputMessageService : public common::ServiceThread
{
public:
    // Returns false (with `error`) only when the entry could not be written and the same record
    // must be dispatched again later (a disk fault); a dispatcher must skip what it already has.
    using Dispatcher = std::function<bool(const DispatchRequest &, std::string &error)>;

    ReputMessageService(CommitLog &commitLog, std::vector<Dispatcher> dispatchers,
                        const std::vector<int64_t> &delayLevelMillis);
    ~ReputMessageService() override;

    void setReputFromOffset(int64_t offset) { reputFromOffset_.store(offset, std::memory_order_release); }
    int64_t reputFromOffset() const { return reputFromOffset_.load(std::memory_order_acquire); }
    // Bytes appended but not yet dispatched.
    int64_t dispatchBehindBytes() const;
    // Records stepped over because they could not be decoded, since start.
    uint64_t skippedRecords() const { return skippedRecords_.load(std::memory_order_relaxed); }
    // Whether the last dispatch attempt failed to write (the store refuses puts meanwhile), and why.
    bool writeFailing() const { return writeFailing_.load(std::memory_order_acquire); }

    // Dispatches everything up to the reput end on the calling thread (startup, shutdown).
    // Requires: the service thread is not running. `progress` is told the dispatch offset every
    // few MiB.
    void dispatchAvailable(const std::function<void(int64_t offset)> &progress = {});

    // The tags code a record's consume-queue entry carries (§3.8): the tag's hash, or a delayed
    // message's delivery time. Thread-safe.
    int64_t tagsCodeFor(std::string_view topic, std::string_view properties, int64_t storeTimestamp) const;

protected:
    void run() override;

private:
    int64_t reputEnd() const;
    // Dispatches records from reputFromOffset up to the reput end; returns how many.
    int doReput(const std::function<void(int64_t offset)> &progress = {});
    // Where dispatch continues after the undecodable record at `offset` (see the header comment).
    int64_t stepOver(const MappedFile &file, int64_t offset, int64_t limit, const std::string &why);

    CommitLog &commitLog_;
    std::vector<Dispatcher> dispatchers_;
    std::vector<int64_t> delayLevelMillis_; // index level - 1
    std::atomic<int64_t> reputFromOffset_{0};
    std::atomic<uint64_t> skippedRecords_{0};
    std::atomic<bool> writeFailing_{false};
    common::LogRateLimiter skipLog_;
    common::LogRateLimiter writeFailureLog_;
};

// messageDelayLevel ("1s 5s 10s 30s 1m 2m ... 2h") in milliseconds; empty on a bad entry.
std::vector<int64_t> parseDelayLevels(std::string_view text);

inline constexpr std::string_view kScheduleTopic = "SCHEDULE_TOPIC_XXXX";

} // namespace mqdesk::store
