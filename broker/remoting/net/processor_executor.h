#pragma once

// Executors that run request processors off the io threads (DESIGN.md, Threads): a slow disk or
// a held pull must never stall the sockets. The remoting layer only needs "try to run this";
// when an executor refuses, the dispatcher answers SYSTEM_BUSY (remoting spec §9).

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mqdesk::remoting {

class Executor
{
public:
    using Task = std::function<void()>;

    virtual ~Executor() = default;

    // Queues `task` to run later on one of the executor's threads. `bytes` is what the task
    // holds in memory while it waits (a request's header and body), counted against the
    // executor's byte budget. Returns false, without running or keeping the task, when the
    // executor is full (tasks or bytes) or shut down; the caller then owns the refusal (the
    // dispatcher answers SYSTEM_BUSY).
    virtual bool tryExecute(Task task, size_t bytes) = 0;
    bool tryExecute(Task task) { return tryExecute(std::move(task), 0); }
};

// A pool of up to `threadCount` named threads draining one bounded FIFO queue. Tasks run in
// queue order per thread; with more than one thread they may complete in any order.
//
// Threads start when tasks need them (a task is queued and no started thread is idle) and then
// stay: an idle broker runs none, a busy one runs Java's pool sizes. Starting one costs the
// queueing caller (an io thread) about 50 µs, once per thread.
class ProcessorExecutor final : public Executor
{
public:
    // A budget that lets a few hundred 4 MiB messages wait, far below this machine's memory:
    // without one, 10,000 queued 16 MiB frames could hold 160 GB.
    static constexpr size_t kDefaultQueuedBytesCapacity = 256u * 1024 * 1024;

    // `name` prefixes the thread names ("send-0", "send-1", ...; Linux keeps 15 characters).
    // `queueCapacity` counts queued tasks, not running ones; `queuedBytesCapacity` bounds the
    // bytes they hold (one task is always accepted into an empty queue, whatever its size).
    ProcessorExecutor(std::string name, size_t threadCount = 1, size_t queueCapacity = 10000,
                      size_t queuedBytesCapacity = kDefaultQueuedBytesCapacity);
    // Shuts down and joins.
    ~ProcessorExecutor() override;

    ProcessorExecutor(const ProcessorExecutor &) = delete;
    ProcessorExecutor &operator=(const ProcessorExecutor &) = delete;

    using Executor::tryExecute;
    bool tryExecute(Task task, size_t bytes) override;

    // Refuses new tasks, lets the threads finish the tasks already queued, and joins them.
    // Idempotent. Must not be called from one of this executor's own threads.
    void shutdown();

    const std::string &name() const { return name_; }
    size_t threadCount() const { return threadCount_; }
    size_t startedThreads() const;
    // Started threads waiting for a task.
    size_t idleThreads() const;
    size_t queueCapacity() const { return queueCapacity_; }
    size_t queuedTasks() const;
    size_t queuedBytes() const;
    // How long the oldest queued task has waited, in ms; 0 when none waits (Java's
    // headSlowTimeMills, the runtime info's …ThreadPoolQueueHeadWaitTimeMills).
    int64_t headWaitMillis() const;
    // How many tasks were refused because the queue was full (tasks or bytes) since the start.
    uint64_t refusedTasks() const;

private:
    void run();
    // Requires: mutex_ held. Starts one more thread; false when the system refuses one.
    bool startThread();

    const std::string name_;
    struct Queued
    {
        Task task;
        size_t bytes = 0;
        int64_t enqueuedMicros = 0; // steady clock
    };

    const size_t threadCount_;
    const size_t queueCapacity_;
    const size_t queuedBytesCapacity_;
    mutable std::mutex mutex_;
    std::condition_variable wakeUp_;
    std::deque<Queued> queue_; // guarded by mutex_
    size_t queuedBytes_ = 0;   // guarded by mutex_
    uint64_t refused_ = 0;     // guarded by mutex_
    bool stopping_ = false;  // guarded by mutex_
    size_t idleThreads_ = 0; // started threads waiting for a task; guarded by mutex_
    std::vector<std::thread> threads_; // guarded by mutex_
};

} // namespace mqdesk::remoting
