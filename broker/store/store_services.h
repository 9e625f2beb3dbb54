#pragma once

// The store's background services besides the commit log's own flushers:
//   FlushConsumeQueueService  flushes consume queues (and the index) on RocketMQ's schedule and
//                             keeps the checkpoint's logicsMsgTimestamp covered by flushed data
//   StoreCleaner              retention: deletes expired commit-log files, then the consume-queue
//                             and index files that only point into them; no thread of its own:
//                             the store's once-a-second ticker runs it every cleanResourceInterval
//                             (as Java runs it on the store's scheduled executor)

#include "broker/common/service_thread.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

namespace mqdesk::store {

class MessageStore;

class FlushConsumeQueueService : public common::ServiceThread
{
public:
    explicit FlushConsumeQueueService(MessageStore &store);
    ~FlushConsumeQueueService() override;
    // Flushes everything and persists the checkpoint (shutdown).
    void flushAll();

protected:
    void run() override;

private:
    void flushOnce(bool thorough);

    MessageStore &store_;
};

struct CleanResult
{
    int commitLogFiles = 0;
    int consumeQueueFiles = 0;
    int indexFiles = 0;
    double diskUsedRatio = 0; // of the commit log's file system, 0..1
};

class StoreCleaner
{
public:
    explicit StoreCleaner(MessageStore &store);

    // One cleaning round now. `force`: delete every file but the newest regardless of age and
    // hour (RocketMQ's manual delete / "clean immediately").
    CleanResult cleanOnce(bool force);
    // The scheduled round: cleanOnce(false) when cleanResourceInterval has passed since the last
    // one (the first a minute after start, as RocketMQ's). Called every second by the ticker.
    void cleanIfDue();
    bool diskFull() const { return diskFull_.load(std::memory_order_acquire); }

private:
    bool isDeleteHour() const;

    MessageStore &store_;
    std::atomic<bool> diskFull_{false};
    std::atomic<int64_t> nextRoundMicros_; // steady clock; tick() may also be driven by a test
};

// The file system holding a path, as Java's File reports it.
struct DiskSpace
{
    uint64_t total = 0;  // getTotalSpace: every block
    uint64_t free = 0;   // getFreeSpace: unallocated blocks, the root-reserved ones included
    uint64_t usable = 0; // getUsableSpace: what an unprivileged writer may still allocate
    bool known = false;

    // Java's UtilAll.getDiskPartitionSpaceUsedPercent: used / (used + usable), rounded up to a
    // whole percent, -1 when unknown. Like df's Use%, blocks reserved for root count neither as
    // used nor as usable: (total - usable) / total would call a disk with a large reserve full.
    double usedRatio() const;
};

DiskSpace diskSpaceOf(const std::string &path);

// diskSpaceOf(path).usedRatio(): 0..1, or -1 when the file system cannot be read.
double diskUsedRatio(const std::string &path);

} // namespace mqdesk::store
