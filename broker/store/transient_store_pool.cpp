#include "broker/store/transient_store_pool.h"

#include <sys/mman.h>

#include <algorithm>

namespace mqdesk::store {

TransientStorePool::TransientStorePool(int poolSize, int64_t bufferSize)
    : poolSize_(poolSize), bufferSize_(bufferSize)
{}

TransientStorePool::~TransientStorePool()
{
    for (uint8_t *buffer : all_) {
        ::munlock(buffer, static_cast<size_t>(bufferSize_));
        ::munmap(buffer, static_cast<size_t>(bufferSize_));
    }
}

void TransientStorePool::preallocate()
{
    std::vector<uint8_t *> made;
    while (uint8_t *buffer = borrowBuffer())
        made.push_back(buffer);
    for (uint8_t *buffer : made)
        returnBuffer(buffer);
}

uint8_t *TransientStorePool::borrowBuffer()
{
    std::lock_guard lock(mutex_);
    if (!free_.empty()) {
        uint8_t *buffer = free_.back();
        free_.pop_back();
        return buffer;
    }
    if (static_cast<int>(all_.size()) >= poolSize_)
        return nullptr;
    void *memory = ::mmap(nullptr, static_cast<size_t>(bufferSize_), PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED)
        return nullptr;
    // Locking keeps the buffer from being swapped out; without the privilege it still works,
    // only less predictably, so a failure is remembered, not fatal.
    if (::mlock(memory, static_cast<size_t>(bufferSize_)) != 0)
        locked_ = false;
    all_.push_back(static_cast<uint8_t *>(memory));
    return all_.back();
}

void TransientStorePool::returnBuffer(uint8_t *buffer)
{
    if (!buffer)
        return;
    std::lock_guard lock(mutex_);
    if (std::find(all_.begin(), all_.end(), buffer) != all_.end())
        free_.push_back(buffer);
}

int TransientStorePool::availableBufferCount() const
{
    std::lock_guard lock(mutex_);
    return static_cast<int>(free_.size()) + (poolSize_ - static_cast<int>(all_.size()));
}

bool TransientStorePool::locked() const
{
    std::lock_guard lock(mutex_);
    return locked_;
}

} // namespace mqdesk::store
