#pragma once

// The `checkpoint` file (store-format §7): 4096 bytes, five big-endian longs at 0, 8, 16, 24, 32.
// Setters are lock-free; flush() writes the current values and forces the file.

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace mqdesk::store {

class StoreCheckpoint
{
public:
    static constexpr int64_t kFileSize = 4096;

    // Opens or creates `path` (a file shorter than 4096 bytes is extended with zeros).
    static std::unique_ptr<StoreCheckpoint> open(const std::string &path, std::string &error);
    ~StoreCheckpoint();

    int64_t physicMsgTimestamp() const { return physic_.load(); }
    int64_t logicsMsgTimestamp() const { return logics_.load(); }
    int64_t indexMsgTimestamp() const { return index_.load(); }
    int64_t masterFlushedOffset() const { return masterFlushed_.load(); }
    int64_t confirmPhyOffset() const { return confirm_.load(); }
    void setPhysicMsgTimestamp(int64_t v) { physic_.store(v); }
    void setLogicsMsgTimestamp(int64_t v) { logics_.store(v); }
    void setIndexMsgTimestamp(int64_t v) { index_.store(v); }
    void setMasterFlushedOffset(int64_t v) { masterFlushed_.store(v); }
    void setConfirmPhyOffset(int64_t v) { confirm_.store(v); }

    // max(0, min(physic, logics) − 3000 ms): everything stored before this is in the consume
    // queues and on disk.
    int64_t minTimestamp() const;
    int64_t minTimestampIndex() const;

    bool flush(std::string &error);

private:
    StoreCheckpoint(std::string path, int fd, uint8_t *mapped);

    std::string path_;
    int fd_;
    uint8_t *mapped_;
    std::mutex flushMutex_;
    std::atomic<int64_t> physic_{0};
    std::atomic<int64_t> logics_{0};
    std::atomic<int64_t> index_{0};
    std::atomic<int64_t> masterFlushed_{0};
    std::atomic<int64_t> confirm_{0};
};

} // namespace mqdesk::store
