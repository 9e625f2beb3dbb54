#pragma once

// `config/timercheck` of RocketMQ 5's timer store (store-format §12.2, S/timer/TimerCheckpoint.java):
// a mapped file of 4096 bytes, big-endian longs:
//   0  lastReadTimeMs          dequeue progress: every slot before it was delivered
//   8  lastTimerLogFlushPos    timerlog bytes known on disk
//   16 lastTimerQueueOffset    rmq_sys_wheel_timer queue 0 offset parked up to (exclusive)
//   24 masterTimerQueueOffset  the same as seen by the master (equal on a master)
//   32 dataVersion.stateVersion, 40 dataVersion.timestamp, 48 dataVersion.counter
// The rest is zero. A new file starts with zero progress and a data version stamped now.
//
// Threads: setters and getters are lock-free; flush() writes the current values and forces the
// file, serialised by its own mutex.

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace mqdesk::store {

class TimerCheckpoint
{
public:
    static constexpr int64_t kFileSize = 4096;

    static std::unique_ptr<TimerCheckpoint> open(const std::string &path, std::string &error);
    ~TimerCheckpoint();
    TimerCheckpoint(const TimerCheckpoint &) = delete;
    TimerCheckpoint &operator=(const TimerCheckpoint &) = delete;

    int64_t lastReadTimeMs() const { return lastReadTimeMs_.load(); }
    int64_t lastTimerLogFlushPos() const { return lastTimerLogFlushPos_.load(); }
    int64_t lastTimerQueueOffset() const { return lastTimerQueueOffset_.load(); }
    int64_t masterTimerQueueOffset() const { return masterTimerQueueOffset_.load(); }
    int64_t stateVersion() const { return stateVersion_.load(); }
    int64_t versionTimestamp() const { return versionTimestamp_.load(); }
    int64_t versionCounter() const { return versionCounter_.load(); }
    void setLastReadTimeMs(int64_t v) { lastReadTimeMs_.store(v); }
    void setLastTimerLogFlushPos(int64_t v) { lastTimerLogFlushPos_.store(v); }
    void setLastTimerQueueOffset(int64_t v) { lastTimerQueueOffset_.store(v); }
    void setMasterTimerQueueOffset(int64_t v) { masterTimerQueueOffset_.store(v); }
    // DataVersion.nextVersion(stateVersion): counter + 1, timestamp now.
    void nextVersion(int64_t stateVersion);

    bool flush(std::string &error);

private:
    TimerCheckpoint(std::string path, int fd, uint8_t *mapped, bool existed);

    std::string path_;
    int fd_;
    uint8_t *mapped_;
    std::mutex flushMutex_;
    std::atomic<int64_t> lastReadTimeMs_{0};
    std::atomic<int64_t> lastTimerLogFlushPos_{0};
    std::atomic<int64_t> lastTimerQueueOffset_{0};
    std::atomic<int64_t> masterTimerQueueOffset_{0};
    std::atomic<int64_t> stateVersion_{0};
    std::atomic<int64_t> versionTimestamp_{0};
    std::atomic<int64_t> versionCounter_{0};
};

} // namespace mqdesk::store
