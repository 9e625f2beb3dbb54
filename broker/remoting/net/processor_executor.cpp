#include "broker/remoting/net/processor_executor.h"

#include "broker/common/clock.h"

#include <spdlog/spdlog.h>

#include <pthread.h>

#include <algorithm>
#include <exception>
#include <system_error>
#include <utility>

namespace mqdesk::remoting {

ProcessorExecutor::ProcessorExecutor(std::string name, size_t threadCount, size_t queueCapacity,
                                     size_t queuedBytesCapacity)
    : name_(std::move(name))
    , threadCount_(std::max<size_t>(threadCount, 1))
    , queueCapacity_(queueCapacity)
    , queuedBytesCapacity_(queuedBytesCapacity)
{
    threads_.reserve(threadCount_);
}

ProcessorExecutor::~ProcessorExecutor()
{
    shutdown();
}

bool ProcessorExecutor::tryExecute(Task task, size_t bytes)
{
    {
        std::lock_guard lock(mutex_);
        if (stopping_)
            return false;
        if (queue_.size() >= queueCapacity_
            || (!queue_.empty() && bytes > queuedBytesCapacity_ - std::min(queuedBytes_, queuedBytesCapacity_))) {
            ++refused_;
            return false;
        }
        queuedBytes_ += bytes;
        queue_.push_back(Queued{std::move(task), bytes, common::steadyMicros()});
        if (queue_.size() > idleThreads_ && threads_.size() < threadCount_ && !startThread()
            && threads_.empty()) {
            // Nobody could ever run it: refused, as a full queue is.
            queuedBytes_ -= bytes;
            queue_.pop_back();
            ++refused_;
            return false;
        }
    }
    wakeUp_.notify_one();
    return true;
}

bool ProcessorExecutor::startThread()
{
    try {
        threads_.emplace_back([this] { run(); });
    } catch (const std::system_error &e) {
        spdlog::warn("executor {}: cannot start thread {} of {}: {}", name_, threads_.size() + 1, threadCount_,
                     e.what());
        return false;
    }
    // Names show up in top -H, gdb and perf; Linux refuses names over 15 characters.
    const std::string threadName = (name_ + "-" + std::to_string(threads_.size() - 1)).substr(0, 15);
    pthread_setname_np(threads_.back().native_handle(), threadName.c_str());
    return true;
}

void ProcessorExecutor::shutdown()
{
    std::vector<std::thread> threads;
    {
        std::lock_guard lock(mutex_);
        stopping_ = true; // no thread is started from here on
        threads.swap(threads_);
    }
    wakeUp_.notify_all();
    for (std::thread &thread : threads) {
        if (thread.joinable())
            thread.join();
    }
}

size_t ProcessorExecutor::startedThreads() const
{
    std::lock_guard lock(mutex_);
    return threads_.size();
}

size_t ProcessorExecutor::idleThreads() const
{
    std::lock_guard lock(mutex_);
    return idleThreads_;
}

size_t ProcessorExecutor::queuedTasks() const
{
    std::lock_guard lock(mutex_);
    return queue_.size();
}

int64_t ProcessorExecutor::headWaitMillis() const
{
    std::lock_guard lock(mutex_);
    return queue_.empty() ? 0 : std::max<int64_t>(0, (common::steadyMicros() - queue_.front().enqueuedMicros) / 1000);
}

size_t ProcessorExecutor::queuedBytes() const
{
    std::lock_guard lock(mutex_);
    return queuedBytes_;
}

uint64_t ProcessorExecutor::refusedTasks() const
{
    std::lock_guard lock(mutex_);
    return refused_;
}

void ProcessorExecutor::run()
{
    for (;;) {
        Task task;
        {
            std::unique_lock lock(mutex_);
            ++idleThreads_;
            wakeUp_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            --idleThreads_;
            if (queue_.empty())
                return; // stopping and drained
            task = std::move(queue_.front().task);
            queuedBytes_ -= queue_.front().bytes;
            queue_.pop_front();
        }
        // A throwing task must not take the pool down with it; processors wrapped by the
        // dispatcher already turn exceptions into SYSTEM_ERROR, so this is a last resort.
        try {
            task();
        } catch (const std::exception &e) {
            spdlog::error("executor {}: task threw: {}", name_, e.what());
        } catch (...) {
            spdlog::error("executor {}: task threw a non-standard exception", name_);
        }
    }
}

} // namespace mqdesk::remoting
