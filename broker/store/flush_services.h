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
#include <memory>
#include <mutex>
#include <string_view>
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
    // `cause`: why the flush failed, when it did (named in the put's error).
    bool complete(PutMessageStatus status, FlushMetrics &metrics, std::string_view cause = {});
    bool isCompleted() const { return completed_.load(std::memory_order_acquire); }

private:
    std::atomic<bool> completed_{false};
};

class GroupCommitService;

// Answers the puts a group commit covered, on a thread of its own, so the group-commit thread
// starts its next fdatasync the moment the last one returns instead of first running every
// put's callback (64 put threads woken one by one take longer than the flush itself here).
// It is also RocketMQ's FlushDiskWatcher: at least every 10 ms it answers FLUSH_DISK_TIMEOUT to
// the waiting puts whose deadline has passed — also while the group-commit thread is stuck in a
// flush, when this thread has nothing else to do. It looks into the group-commit service's
// lists instead of keeping its own, so a put costs it nothing.
class GroupCommitAnswerService : public common::ServiceThread
{
public:
    explicit GroupCommitAnswerService(CommitLog &commitLog);
    ~GroupCommitAnswerService() override;
    // The service whose waiting puts' deadlines it watches; set before start().
    void watchDeadlinesOf(GroupCommitService &groupCommit) { watched_ = &groupCommit; }
    // Answers `requests` PUT_OK where `flushedWhere` covers them, else FLUSH_DISK_TIMEOUT
    // naming `cause`. After stop() answers on the calling thread, so no put is left unanswered.
    void answer(std::vector<std::shared_ptr<GroupCommitRequest>> requests, int64_t flushedWhere,
                std::string cause);

protected:
    void run() override;

private:
    struct Batch
    {
        std::vector<std::shared_ptr<GroupCommitRequest>> requests;
        int64_t flushedWhere = 0;
        std::string cause;
    };
    void answerNow(Batch &batch);
    void answerPending();

    CommitLog &commitLog_;
    GroupCommitService *watched_ = nullptr;
    std::mutex mutex_;
    std::vector<Batch> pending_; // guarded by mutex_
};

class GroupCommitService : public common::ServiceThread
{
public:
    GroupCommitService(CommitLog &commitLog, GroupCommitAnswerService &answers);
    ~GroupCommitService() override;
    void submit(std::shared_ptr<GroupCommitRequest> request);
    // Answers FLUSH_DISK_TIMEOUT to every waiting put past its deadline (the answer service's watch).
    void expireOverdue(GroupCommitRequest::Clock::time_point now);

protected:
    void run() override;
    void onWaitEnd() override;

private:
    void doCommit();

    CommitLog &commitLog_;
    GroupCommitAnswerService &answers_;
    std::mutex writeMutex_;
    std::vector<std::shared_ptr<GroupCommitRequest>> writeList_; // guarded by writeMutex_
    // Filled by the swap and answered by the service thread, which holds readMutex_ for both
    // but not while flushing, so the watcher can time requests out during a slow flush.
    std::mutex readMutex_;
    std::vector<std::shared_ptr<GroupCommitRequest>> readList_; // guarded by readMutex_
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
