#pragma once

// RocketMQ's TransientStorePool (store-format §9.3): a few off-heap buffers, each the size of a
// commit-log file and locked in memory, that appends go into before the commit service writes
// them to the file. preallocate() makes them all up front; otherwise they are made on first use.

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace mqdesk::store {

class TransientStorePool
{
public:
    TransientStorePool(int poolSize, int64_t bufferSize);
    ~TransientStorePool();
    TransientStorePool(const TransientStorePool &) = delete;
    TransientStorePool &operator=(const TransientStorePool &) = delete;

    // Makes (and locks) every buffer now, so borrowing never allocates.
    void preallocate();
    // A free buffer, or nullptr when all are in use (the file then writes through its mapping).
    uint8_t *borrowBuffer();
    void returnBuffer(uint8_t *buffer);
    int availableBufferCount() const;
    int64_t bufferSize() const { return bufferSize_; }
    // Whether the last created buffer could be locked in memory (mlock needs RLIMIT_MEMLOCK).
    bool locked() const;

private:
    int poolSize_;
    int64_t bufferSize_;
    mutable std::mutex mutex_;
    std::vector<uint8_t *> all_;  // guarded by mutex_
    std::vector<uint8_t *> free_; // guarded by mutex_
    bool locked_ = true;          // guarded by mutex_
};

} // namespace mqdesk::store
