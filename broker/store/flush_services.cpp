#include "broker/store/flush_services.h"

#include "broker/store/commit_log.h"
#include "broker/store/flush_metrics.h"
#include "broker/store/store_checkpoint.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace mqdesk::store {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

int64_t steadyMicros()
{
    return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now().time_since_epoch()).count();
}

bool GroupCommitRequest::complete(PutMessageStatus status, FlushMetrics &metrics)
{
    if (completed_.exchange(true, std::memory_order_acq_rel))
        return false;
    result.status = status;
    if (status == PutMessageStatus::FlushDiskTimeout) {
        result.error = "the commit log was not flushed within syncFlushTimeout; the message is "
                       "stored but not yet known to be on disk";
        metrics.recordFlushTimeout();
    }
    metrics.recordPutLatency(static_cast<uint64_t>(std::max<int64_t>(0, steadyMicros() - startMicros)));
    if (done)
        done(result);
    return true;
}

// ---------------------------------------------------------------------------------------------

FlushDiskWatcher::FlushDiskWatcher(FlushMetrics &metrics)
    : ServiceThread("FlushDiskWatcher"), metrics_(metrics)
{}

FlushDiskWatcher::~FlushDiskWatcher()
{
    {
        std::lock_guard lock(mutex_);
    }
    changed_.notify_all();
    stop();
}

void FlushDiskWatcher::add(std::shared_ptr<GroupCommitRequest> request)
{
    std::lock_guard lock(mutex_);
    pending_.push_back(std::move(request));
    // No notify: the watcher polls every 10 ms, as RocketMQ's does, which keeps the put path
    // free of a second wakeup.
}

void FlushDiskWatcher::run()
{
    std::unique_lock lock(mutex_);
    while (!isStopped()) {
        // Requests are answered in order almost always; drop answered ones from the front and
        // time out the front one once its deadline has passed.
        while (!pending_.empty()) {
            auto &front = pending_.front();
            if (front->isCompleted() || Clock::now() >= front->deadline) {
                auto request = std::move(front);
                pending_.pop_front();
                lock.unlock();
                request->complete(PutMessageStatus::FlushDiskTimeout, metrics_);
                lock.lock();
                continue;
            }
            break;
        }
        changed_.wait_for(lock, 10ms);
    }
}

// ---------------------------------------------------------------------------------------------

GroupCommitService::GroupCommitService(CommitLog &commitLog)
    : ServiceThread("GroupCommit"), commitLog_(commitLog)
{}

GroupCommitService::~GroupCommitService() { stop(); }

void GroupCommitService::submit(std::shared_ptr<GroupCommitRequest> request)
{
    {
        std::lock_guard lock(listMutex_);
        writeList_.push_back(std::move(request));
    }
    wakeup();
}

void GroupCommitService::onWaitEnd()
{
    std::lock_guard lock(listMutex_);
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
    if (readList_.empty()) {
        // Nothing waits; in SYNC_FLUSH still flush whatever WAIT=false puts left behind.
        if (commitLog_.flushDiskType() == FlushDiskType::SyncFlush)
            commitLog_.flushOnce(0, FlushKind::GroupCommit);
        return;
    }
    int64_t target = 0;
    for (const auto &request : readList_)
        target = std::max(target, request->nextOffset);
    const auto waiting = static_cast<uint32_t>(readList_.size());
    commitLog_.flushUpTo(target, FlushKind::GroupCommit, waiting);
    const int64_t flushed = commitLog_.flushedWhere();
    for (auto &request : readList_) {
        request->complete(flushed >= request->nextOffset ? PutMessageStatus::PutOk
                                                         : PutMessageStatus::FlushDiskTimeout,
                          commitLog_.metrics());
    }
    readList_.clear();
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
        const auto interval = std::chrono::milliseconds(config.flushIntervalCommitLog);
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
