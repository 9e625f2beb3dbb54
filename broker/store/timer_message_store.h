#pragma once

// RocketMQ 5's timer messages inside the store (store-format §12.2–12.3, S/timer/TimerMessageStore.java):
// messages put with TIMER_DELIVER_MS / TIMER_DELAY_SEC / TIMER_DELAY_MS are parked in
// rmq_sys_wheel_timer queue 0 by the put-time transform (timer_put_transform.h); this class moves
// them through the wheel and delivers them at their time.
//
// Files (all under the store root, names fixed): `timerwheel` (timer_wheel.h), `timerlog/`
// (timer_log.h), `config/timercheck` (timer_checkpoint.h), `config/timermetrics`
// (config/timer_metrics.h).
//
// Flow:
// - Enqueue (one thread): reads the timer queue from its offset; each message's TIMER_OUT_MS is
//   its target. A target before the wheel's write time is delivered at once (TIMER_ENQUEUE_MS =
//   Long.MAX_VALUE marks it never parked); otherwise a timerlog unit is appended whose prevPos is
//   the slot's lastPos and the slot is pointed at it. A target a roll window or more ahead is
//   parked nearer (half or whole window) with the ROLL magic; a TIMER_DEL_UNIQKEY message gets the
//   DELETE magic. The write time then moves to now (rounded to the precision).
// - Dequeue (one thread): while the read time is behind the write time, takes the slot of the
//   read time, walks its chain from lastPos, collects the delete markers' keys (REAL_TOPIC +
//   "+" + UNIQ_KEY, Java's buildDeleteKey) and puts the other units' messages in log order:
//   ROLL ones back into the timer topic with TIMER_ROLL_TIMES + 1, the others to REAL_TOPIC /
//   REAL_QID (stored property string still carrying REAL_TOPIC, REAL_QID and TIMER_OUT_MS, with
//   TIMER_ENQUEUE_MS and TIMER_DEQUEUE_MS added), skipping deleted ones. Then the read time moves
//   one precision on.
// - Flush (one thread, every timerFlushIntervalMs): prepares the checkpoint from the committed
//   progress, flushes the timer log, the wheel and the checkpoint, persists the metrics; every
//   30 s deletes the oldest timerlog files whose last unit's message left the commit log.
//
// Contract: delivery is at least once and never early. A slot's time is its messages' rounded
// target, and it is read only once the write time has passed it, i.e. one precision after; the
// write time moves only on the enqueue thread, between batches, so a slot is never still being
// filled when it is read. Progress is committed only after the work is done (queue offset after
// the unit is appended, read time after the slot's puts), and the checkpoint takes the flushed
// timer-log position before the log is flushed, so a crash re-parks or re-delivers, never loses.
//
// Recovery (load): the timer log is scanned from the start of the file holding
// lastTimerLogFlushPos − one file, truncated at the first bad unit, and every unit found revises
// its slot's lastPos; the queue offset resumes after the message of the last unit (bounded by the
// checkpoint), the read time from the checkpoint (at most the wheel's span back).
//
// Threads: load() and shutdown() on the owner's thread; the three services as above.
// MessageStore owns it, starts it after its own services and shuts it down before them, so its
// puts always find the store running.

#include "broker/common/message.h"
#include "broker/store/store_config.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mqdesk::store {

class MessageStore;
class TimerCheckpoint;
class TimerLog;
class TimerMetrics;
class TimerWheel;
struct TimerLogUnit;

// A message parked in the wheel (what the console's timeline shows).
struct PendingTimerMessage
{
    int64_t slotMs = 0; // the slot it is delivered from (the delivery time, rounded)
    int64_t commitLogOffset = 0;
    int32_t commitLogSize = 0;
    int32_t realTopicHash = 0; // Java's String.hashCode of its real topic
    bool roll = false;         // parked here to roll on to a later slot
};

class TimerMessageStore
{
public:
    static constexpr int32_t kWheelTtlDays = 7;
    static constexpr int32_t kBlankSlots = 60;
    static constexpr int32_t kSlotsTotal = kWheelTtlDays * 24 * 3600;

    TimerMessageStore(MessageStore &store, const MessageStoreConfig &config);
    ~TimerMessageStore();
    TimerMessageStore(const TimerMessageStore &) = delete;
    TimerMessageStore &operator=(const TimerMessageStore &) = delete;

    // Opens the files and recovers. Requires: the store's queues are recovered.
    bool load(std::string &error);
    void start();
    // Stops the services, then commits the progress and flushes every file.
    void shutdown();

    // One step of each service, public for tests (call only while the services are stopped).
    bool enqueueOnce();    // true when it read anything from the timer queue
    int dequeueOnce();     // −1 nothing due yet, 0 an empty slot passed, 1 a slot delivered
    void flushOnce();
    // timerlog retention (every 30 s on the flush thread): files whose messages all left the
    // commit log go. Returns how many files were deleted.
    int cleanExpiredFiles();

    int64_t slotCount(int64_t deliverMs) const; // messages parked for that time
    // Messages parked in the slots from `fromMs` (at least the read time) to before `toMs`,
    // soonest first, at most `maxMessages` (the rest are left out; delete markers are not
    // listed). Reads the wheel and timer log only; safe while the services run.
    std::vector<PendingTimerMessage> pending(int64_t fromMs, int64_t toMs, size_t maxMessages) const;
    // Messages parked anywhere in the wheel (Java's getAllCongestNum).
    int64_t parkedCount() const;
    int64_t readTimeMs() const { return currReadTimeMs_.load(); }
    int64_t writeTimeMs() const { return currWriteTimeMs_.load(); }
    int64_t queueOffset() const { return currQueueOffset_.load(); }
    int32_t precisionMs() const { return precisionMs_; }
    int32_t rollWindowSlots() const { return rollWindowSlots_; }
    TimerWheel &wheel() { return *wheel_; }
    TimerLog &log() { return *log_; }
    TimerCheckpoint &checkpoint() { return *checkpoint_; }
    TimerMetrics &metrics() { return *metrics_; }

private:
    class Service;

    // recovery (timer_message_store_recovery.cpp)
    void recover();
    int64_t recoverAndRevise(int64_t beginOffset, bool checkTimerLog);
    std::optional<int64_t> queueOffsetOfUnitBefore(int64_t logEnd) const;

    bool doEnqueue(int64_t commitLogOffset, int32_t size, int64_t targetMs, const common::StoredMessage &message);
    // Puts a due message (a rolled one back into the timer topic); false to retry later.
    bool deliver(const common::StoredMessage &stored, int64_t enqueueTimeMs, bool roll);
    void deliverSlot(int64_t slotTimeMs, int64_t lastPos);
    void maybeMoveWriteTime();
    void prepareCheckpoint();
    void addMetric(const common::StoredMessage &message, int64_t delta);

    MessageStore &store_;
    const MessageStoreConfig config_;
    const int32_t precisionMs_;
    const int32_t rollWindowSlots_;
    std::unique_ptr<TimerWheel> wheel_;
    std::unique_ptr<TimerLog> log_;
    std::unique_ptr<TimerCheckpoint> checkpoint_;
    std::unique_ptr<TimerMetrics> metrics_;
    std::unique_ptr<Service> enqueueService_;
    std::unique_ptr<Service> dequeueService_;
    std::unique_ptr<Service> flushService_;

    std::atomic<int64_t> currReadTimeMs_{0};
    std::atomic<int64_t> currWriteTimeMs_{0};   // moved only by the enqueue thread
    std::atomic<int64_t> currQueueOffset_{0};   // next timer-queue offset to park
    std::atomic<int64_t> commitReadTimeMs_{0};  // every slot before it delivered
    std::atomic<int64_t> commitQueueOffset_{0}; // every message before it in the timer log
    int64_t lastCommitReadTimeMs_ = 0;          // flush thread
    int64_t lastCommitQueueOffset_ = 0;         // flush thread
    int64_t shouldStartTimeMs_ = 0;
    bool loaded_ = false; // load() succeeded: every file is open
    bool shutDown_ = false; // shutdown() ran (it runs once)
    bool running_ = false;
    std::atomic<bool> stopping_{false}; // set by shutdown() before the services stop
};

} // namespace mqdesk::store
