#pragma once

// RocketMQ's flush and commit services (store-format §9), one thread each. All of them run for
// the whole life of the store and look at the current flush mode on every turn, which is what
// lets the mode change while puts flow:
//   GroupCommitService    SYNC_FLUSH: flushes for waiting puts (group commit) and answers
//                         them; it also answers puts that were still waiting when the mode
//                         went to ASYNC_FLUSH.
//   FlushRealTimeService  ASYNC_FLUSH: timed (or woken) flushes of at least N pages, a
//                         thorough flush of anything new every so often.
//   CommitRealTimeService transient store pool: writes buffered bytes into the file.
//   FlushDiskWatcher      answers FLUSH_DISK_TIMEOUT to puts still waiting at their deadline,
//                         even while a flush is stuck in the kernel.

#include "broker/common/service_thread.h"
#include "broker/store/put_message_result.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

namespace mqdesk::store {

class CommitLog;
class FlushMetrics;

struct GroupCommitRequest
{
    using Clock = std::chrono::steady_clock;

    int64_t nextOffset = 0;   // the put is durable once flushedWhere >= nextOffset
    Clock::time_point deadline;
    int64_t startMicros = 0;  // when the put arrived (steady clock), for put-to-ack latency
    PutMessageResult result;
    PutCallback done;

    // Answers the put with `status` unless already answered. Returns whether this call did.
    bool complete(PutMessageStatus status, FlushMetrics &metrics);
    bool isCompleted() const { return completed_.load(std::memory_order_acquire); }

private:
    std::atomic<bool> completed_{false};
};

int64_t steadyMicros();

class FlushDiskWatcher : public common::ServiceThread
{
public:
    explicit FlushDiskWatcher(FlushMetrics &metrics);
    ~FlushDiskWatcher() override;
    void add(std::shared_ptr<GroupCommitRequest> request);

protected:
    void run() override;

private:
    FlushMetrics &metrics_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::shared_ptr<GroupCommitRequest>> pending_; // guarded by mutex_
};

class GroupCommitService : public common::ServiceThread
{
public:
    explicit GroupCommitService(CommitLog &commitLog);
    ~GroupCommitService() override;
    void submit(std::shared_ptr<GroupCommitRequest> request);

protected:
    void run() override;
    void onWaitEnd() override;

private:
    void doCommit();

    CommitLog &commitLog_;
    std::mutex listMutex_;
    std::vector<std::shared_ptr<GroupCommitRequest>> writeList_; // guarded by listMutex_
    std::vector<std::shared_ptr<GroupCommitRequest>> readList_;  // service thread only
};

class FlushRealTimeService : public common::ServiceThread
{
public:
    explicit FlushRealTimeService(CommitLog &commitLog);
    ~FlushRealTimeService() override;

protected:
    void run() override;

private:
    CommitLog &commitLog_;
};

class CommitRealTimeService : public common::ServiceThread
{
public:
    explicit CommitRealTimeService(CommitLog &commitLog);
    ~CommitRealTimeService() override;

protected:
    void run() override;

private:
    CommitLog &commitLog_;
};

} // namespace mqdesk::store
