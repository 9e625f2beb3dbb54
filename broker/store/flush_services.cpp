#include "broker/store/flush_services.h"

#include "broker/common/clock.h"
#include "broker/store/commit_log.h"
#include "broker/store/flush_metrics.h"
#include "broker/store/store_checkpoint.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace mqdesk::store {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using common::steadyMicros;

bool GroupCommitRequest::complete(PutMessageStatus status, FlushMetrics &metrics, std::string_view cause)
{
    if (completed_.exchange(true, std::memory_order_acq_rel))
        return false;
    result.status = status;
    if (status == PutMessageStatus::FlushDiskTimeout) {
        result.error = cause.empty()
                           ? "the commit log was not flushed within syncFlushTimeout; the message is "
                             "stored but not yet known to be on disk"
                           : "the commit log could not be flushed (" + std::string(cause)
                                 + "); the message is stored but not known to be on disk";
        metrics.recordFlushTimeout();
    }
    metrics.recordPutLatency(static_cast<uint64_t>(std::max<int64_t>(0, steadyMicros() - startMicros)));
    if (done)
        done(result);
    return true;
}

// ---------------------------------------------------------------------------------------------

GroupCommitAnswerService::GroupCommitAnswerService(CommitLog &commitLog)
    : ServiceThread("GroupCommitAck"), commitLog_(commitLog)
{}

GroupCommitAnswerService::~GroupCommitAnswerService()
{
    stop();
    answerPending();
}

void GroupCommitAnswerService::answer(std::vector<std::shared_ptr<GroupCommitRequest>> requests,
                                      int64_t flushedWhere, std::string cause)
{
    Batch batch{std::move(requests), flushedWhere, std::move(cause)};
    if (isStopped()) {
        answerPending(); // anything queued before the stop goes first, in order
        answerNow(batch);
        return;
    }
    {
        std::lock_guard lock(mutex_);
        pending_.push_back(std::move(batch));
    }
    wakeup();
}

void GroupCommitAnswerService::answerNow(Batch &batch)
{
    for (auto &request : batch.requests) {
        request->complete(batch.flushedWhere >= request->nextOffset ? PutMessageStatus::PutOk
                                                                    : PutMessageStatus::FlushDiskTimeout,
                          commitLog_.metrics(), batch.cause);
    }
}

void GroupCommitAnswerService::answerPending()
{
    std::vector<Batch> batches;
    {
        std::lock_guard lock(mutex_);
        batches.swap(pending_);
    }
    for (Batch &batch : batches)
        answerNow(batch);
}

void GroupCommitAnswerService::run()
{
    while (!isStopped()) {
        waitForRunning(std::chrono::milliseconds(10));
        answerPending();
        if (watched_)
            watched_->expireOverdue(GroupCommitRequest::Clock::now());
    }
    answerPending();
}

// ---------------------------------------------------------------------------------------------

GroupCommitService::GroupCommitService(CommitLog &commitLog, GroupCommitAnswerService &answers)
    : ServiceThread("GroupCommit"), commitLog_(commitLog), answers_(answers)
{}

GroupCommitService::~GroupCommitService() { stop(); }

void GroupCommitService::submit(std::shared_ptr<GroupCommitRequest> request)
{
    {
        std::lock_guard lock(writeMutex_);
        writeList_.push_back(std::move(request));
    }
    wakeup();
}

void GroupCommitService::expireOverdue(GroupCommitRequest::Clock::time_point now)
{
    std::vector<std::shared_ptr<GroupCommitRequest>> overdue;
    const auto collect = [&](const std::vector<std::shared_ptr<GroupCommitRequest>> &list) {
        for (const auto &request : list) {
            if (now >= request->deadline && !request->isCompleted())
                overdue.push_back(request);
        }
    };
    {
        std::lock_guard lock(readMutex_);
        collect(readList_);
    }
    {
        std::lock_guard lock(writeMutex_);
        collect(writeList_);
    }
    // Answered outside the locks: a callback may take its time.
    for (auto &request : overdue)
        request->complete(PutMessageStatus::FlushDiskTimeout, commitLog_.metrics());
}

void GroupCommitService::onWaitEnd()
{
    std::scoped_lock lock(readMutex_, writeMutex_);
    std::swap(writeList_, readList_);
}

void GroupCommitService::run()
{
    while (!isStopped()) {
        waitForRunning(10ms);
        doCommit();
    }
    // Answer whatever arrived while stopping.
    std::this_thread::sleep_for(10ms);
    onWaitEnd();
    doCommit();
    onWaitEnd();
    doCommit();
}

void GroupCommitService::doCommit()
{
    int64_t target = -1;
    uint32_t waiting = 0;
    {
        std::lock_guard lock(readMutex_);
        for (const auto &request : readList_)
            target = std::max(target, request->nextOffset);
        waiting = static_cast<uint32_t>(readList_.size());
    }
    if (waiting == 0) {
        // Nothing waits; in SYNC_FLUSH still flush whatever WAIT=false puts left behind.
        if (commitLog_.flushDiskType() == FlushDiskType::SyncFlush)
            commitLog_.flushOnce(0, FlushKind::GroupCommit);
        return;
    }
    const bool reached = commitLog_.flushUpTo(target, FlushKind::GroupCommit, waiting);
    const std::string cause = reached ? std::string() : commitLog_.lastFlushError();
    const int64_t flushed = commitLog_.flushedWhere();
    std::vector<std::shared_ptr<GroupCommitRequest>> answered;
    {
        std::lock_guard lock(readMutex_);
        answered.swap(readList_);
    }
    answers_.answer(std::move(answered), flushed, cause);
    if (const int64_t timestamp = commitLog_.mappedFileQueue().storeTimestamp(); timestamp > 0)
        commitLog_.checkpoint().setPhysicMsgTimestamp(timestamp);
}

// ---------------------------------------------------------------------------------------------

FlushRealTimeService::FlushRealTimeService(CommitLog &commitLog)
    : ServiceThread("FlushRealTime"), commitLog_(commitLog)
{}

FlushRealTimeService::~FlushRealTimeService() { stop(); }

void FlushRealTimeService::run()
{
    const MessageStoreConfig &config = commitLog_.config();
    auto lastThorough = Clock::now();
    while (!isStopped()) {
        const auto interval = std::chrono::milliseconds(commitLog_.flushIntervalCommitLog());
        if (commitLog_.flushDiskType() != FlushDiskType::AsyncFlush) {
            waitForRunning(interval); // the group-commit service flushes in SYNC_FLUSH
            continue;
        }
        int leastPages = config.flushCommitLogLeastPages;
        FlushKind kind = FlushKind::Timed;
        const auto now = Clock::now();
        if (now >= lastThorough + std::chrono::milliseconds(config.flushCommitLogThoroughInterval)) {
            lastThorough = now;
            leastPages = 0;
            kind = FlushKind::Thorough;
        }
        if (config.flushCommitLogTimed)
            sleepFor(interval);
        else
            waitForRunning(interval);
        if (isStopped())
            break;
        // Flush every file the page rule allows, not just one, so a burst that filled several
        // files is not left behind a file per interval.
        while (commitLog_.flushOnce(leastPages, kind).bytes > 0) {
        }
        if (const int64_t timestamp = commitLog_.mappedFileQueue().storeTimestamp(); timestamp > 0)
            commitLog_.checkpoint().setPhysicMsgTimestamp(timestamp);
    }
}

// ---------------------------------------------------------------------------------------------

CommitRealTimeService::CommitRealTimeService(CommitLog &commitLog)
    : ServiceThread("CommitRealTime"), commitLog_(commitLog)
{}

CommitRealTimeService::~CommitRealTimeService() { stop(); }

void CommitRealTimeService::run()
{
    const MessageStoreConfig &config = commitLog_.config();
    auto lastThorough = Clock::now();
    while (!isStopped()) {
        const auto interval = std::chrono::milliseconds(config.commitIntervalCommitLog);
        if (!commitLog_.transientStorePoolEnabled()) {
            waitForRunning(interval);
            continue;
        }
        int leastPages = config.commitCommitLogLeastPages;
        const auto now = Clock::now();
        if (now >= lastThorough + std::chrono::milliseconds(config.commitCommitLogThoroughInterval)) {
            lastThorough = now;
            leastPages = 0;
        }
        int64_t committed = 0;
        for (;;) {
            const auto result = commitLog_.commitOnce(leastPages);
            if (result.failed || result.bytes == 0)
                break;
            committed += result.bytes;
        }
        if (committed > 0)
            commitLog_.wakeFlushService();
        waitForRunning(interval);
    }
}

} // namespace mqdesk::store
