// CommitLog's flush and commit side: the single flush and commit steps the services call, the
// flush up to an offset, and the live switches of flush mode and transient store pool.

#include "broker/store/commit_log.h"

#include "broker/common/clock.h"
#include "broker/store/flush_services.h"
#include "broker/store/transient_store_pool.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <thread>

namespace mqdesk::store {

using common::steadyMicros;
using common::wallMillis;

MappedFileQueue::SyncResult CommitLog::flushOnce(int leastPages, FlushKind kind, uint32_t satisfiedPuts)
{
    const int64_t start = steadyMicros();
    auto result = queue_.flush(leastPages);
    if (result.failed) {
        if (const auto held = flushFailureLog_.admit())
            spdlog::error("commit log: flush failed: {}{}", result.error, common::LogRateLimiter::heldNote(*held));
        std::lock_guard lock(flushErrorMutex_);
        lastFlushError_ = result.error;
        return result;
    }
    if (result.bytes > 0) {
        FlushEvent event;
        event.endTimeMillis = wallMillis();
        event.durationMicros = static_cast<uint32_t>(steadyMicros() - start);
        event.bytes = static_cast<uint64_t>(result.bytes);
        event.satisfiedPuts = satisfiedPuts;
        event.kind = kind;
        metrics_.recordFlush(event);
    }
    return result;
}

MappedFileQueue::SyncResult CommitLog::commitOnce(int leastPages)
{
    auto result = queue_.commit(leastPages);
    if (result.failed) {
        if (const auto held = flushFailureLog_.admit())
            spdlog::error("commit log: commit failed: {}{}", result.error, common::LogRateLimiter::heldNote(*held));
        std::lock_guard lock(flushErrorMutex_);
        lastFlushError_ = result.error;
        return result;
    }
    if (result.bytes > 0)
        returnFullyCommittedBuffers();
    return result;
}

bool CommitLog::flushUpTo(int64_t offset, FlushKind kind, uint32_t satisfiedPuts)
{
    using namespace std::chrono_literals;
    for (int idleAttempts = 0; queue_.flushedWhere() < offset && idleAttempts < 1000;) {
        if (transientStorePoolEnabled()) {
            while (queue_.committedWhere() < offset && commitOnce(0).bytes > 0) {
            }
        }
        // Credit the waiting puts to the flush that reaches them.
        const int64_t before = queue_.flushedWhere();
        const auto file = queue_.findFileByOffset(before);
        const bool reaches = file && file->fileFromOffset() + file->readPosition() >= offset;
        const auto result = flushOnce(0, kind, reaches ? satisfiedPuts : 0);
        if (result.failed)
            return false;
        if (result.bytes == 0) {
            ++idleAttempts;
            std::this_thread::sleep_for(1ms);
        }
    }
    return queue_.flushedWhere() >= offset;
}

std::string CommitLog::lastFlushError() const
{
    std::lock_guard lock(flushErrorMutex_);
    return lastFlushError_;
}

void CommitLog::wakeFlushService()
{
    if (flushDiskType() == FlushDiskType::SyncFlush)
        groupCommit_->wakeup();
    else
        flushRealTime_->wakeup();
}

int64_t CommitLog::unflushedBytes() const
{
    return std::max<int64_t>(0, queue_.maxWrotePosition() - queue_.flushedWhere());
}

void CommitLog::setFlushDiskType(FlushDiskType type)
{
    {
        // The new mode's services run before a put can hand them a request.
        std::lock_guard lock(servicesMutex_);
        startServicesFor(type, false);
    }
    if (flushDiskType_.exchange(type) == type)
        return;
    spdlog::info("commit log: flush mode is now {}", flushDiskTypeName(type));
    if (groupCommit_) {
        groupCommit_->wakeup();
        flushRealTime_->wakeup();
    }
}

bool CommitLog::setTransientStorePoolEnable(bool enable)
{
    // The pool's buffers (file-sized, locked in memory) are made before taking the put lock:
    // making them under it would stall every put for as long as locking gigabytes takes.
    std::unique_ptr<TransientStorePool> fresh;
    if (enable) {
        {
            std::lock_guard lock(servicesMutex_);
            startServicesFor(flushDiskType(), true); // commits what the pool's buffers hold
        }
        bool havePool = false;
        {
            std::lock_guard putLock(putMutex_);
            havePool = pool_ != nullptr;
        }
        if (!havePool) {
            fresh = std::make_unique<TransientStorePool>(config_.transientStorePoolSize, queue_.fileSize());
            fresh->preallocate();
        }
    }
    std::lock_guard putLock(putMutex_);
    std::lock_guard commitLock(queue_.commitMutex());
    if (poolEnabled_.load() == enable)
        return true;
    if (enable) {
        if (!pool_)
            pool_ = std::move(fresh);
        if (writeFile_ && !writeFile_->isFull() && !writeFile_->hasTransientBuffer()) {
            if (uint8_t *buffer = pool_->borrowBuffer())
                writeFile_->attachTransientBuffer(buffer);
        }
        queue_.setCommittedWhere(writeFile_ ? writeFile_->fileFromOffset() + writeFile_->committedPosition() : 0);
        poolEnabled_.store(true, std::memory_order_release);
    } else {
        poolEnabled_.store(false, std::memory_order_release);
        if (!drainTransientBuffers()) {
            poolEnabled_.store(true, std::memory_order_release);
            spdlog::error("commit log: the transient store pool stays on: its bytes could not be "
                          "written to the files: {}", lastFlushError());
            return false;
        }
    }
    spdlog::info("commit log: transient store pool {}", enable ? "enabled" : "disabled");
    if (commitRealTime_)
        commitRealTime_->wakeup();
    return true;
}

bool CommitLog::drainTransientBuffers()
{
    // Requires: putMutex_ and the commit mutex.
    for (const auto &file : queue_.files()) {
        if (!file->hasTransientBuffer())
            continue;
        std::string error;
        if (file->commit(0, error) < 0) {
            // Keep the buffer attached: its bytes are the only copy.
            std::lock_guard lock(flushErrorMutex_);
            lastFlushError_ = error;
            return false;
        }
        pool_->returnBuffer(file->detachTransientBuffer());
    }
    queue_.setCommittedWhere(queue_.maxWrotePosition());
    return true;
}

void CommitLog::returnFullyCommittedBuffers()
{
    std::lock_guard commitLock(queue_.commitMutex());
    for (const auto &file : queue_.files()) {
        if (file->hasTransientBuffer() && file->committedPosition() == file->fileSize())
            pool_->returnBuffer(file->detachTransientBuffer());
    }
}

} // namespace mqdesk::store
