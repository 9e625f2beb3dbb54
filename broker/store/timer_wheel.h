#pragma once

// The `timerwheel` file of RocketMQ 5's timer store (store-format §12.2, S/timer/TimerWheel.java,
// S/timer/Slot.java).
//
// Format: one file of 2 × slotsTotal slots × 32 bytes (1,209,600 slots, 38,707,200 bytes with
// the default 7-day wheel), big-endian. Slot i, at byte i × 32, serves every time t with
// (t / precisionMs) mod (2 × slotsTotal) == i:
//   0  long  the slot's time in precision units (t / precisionMs)
//   8  long  firstPos — timerlog offset of the first unit parked in it
//   16 long  lastPos  — timerlog offset of the newest unit: the head of the chain (prevPos links)
//   24 int   num      — messages parked (a delete marker counts −1)
//   28 int   magic    — unused, kept
// A slot whose stored time is not the asked time is empty (time −1, first −1, last −1).
// A file of another non-zero length is refused (Java aborts the start).
//
// Contract: the slots live in a heap copy (as in Java); flush() writes the slots changed since the
// last flush and forces the file, so after a crash the file holds the wheel as of the last flush
// and recovery revises the newer slots from the timer log (TimerMessageStore::recover).
// Unlike Java the file is read and written with pread/pwrite, not through a mapping: the file is
// sparse (only used slots take blocks), and touching a hole through a mapping on a full disk
// raises SIGBUS where a write returns ENOSPC.
//
// Memory: the heap copy is kept in 4 KiB pages, and only pages that hold data take memory — the
// pages the file has blocks for (found with SEEK_DATA, so holes are never read) and pages written
// since. An absent page reads as zeros, as the file's hole does. An idle broker's wheel costs a
// page table (75 KB for the default 7-day wheel) instead of 38.7 MB, and opening it reads only
// what was written.
//
// Threads: every member takes the internal mutex; any thread may call any of them.

#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace mqdesk::store {

struct TimerSlot
{
    int64_t timeMs = -1;   // precision-aligned time in ms, −1 for an empty slot
    int64_t firstPos = -1;
    int64_t lastPos = -1;
    int32_t num = 0;
    int32_t magic = 0;
};

class TimerWheel
{
public:
    static constexpr int kSlotSize = 32;
    // Java's reviseSlot marker: leave firstPos as it is.
    static constexpr int64_t kIgnore = -2;

    // Opens or creates `path` with 2 × slotsTotal slots. Returns nullptr with `error` naming the
    // file when it cannot, or when it exists with another non-zero length.
    static std::unique_ptr<TimerWheel> open(const std::string &path, int32_t slotsTotal, int32_t precisionMs,
                                            std::string &error);
    ~TimerWheel();
    TimerWheel(const TimerWheel &) = delete;
    TimerWheel &operator=(const TimerWheel &) = delete;

    int32_t slotsTotal() const { return slotsTotal_; }
    int32_t precisionMs() const { return precisionMs_; }
    int64_t fileLength() const { return static_cast<int64_t>(slotsTotal_) * 2 * kSlotSize; }

    int32_t slotIndex(int64_t timeMs) const;
    // The slot of `timeMs`, empty unless it was last written for that same time.
    TimerSlot slot(int64_t timeMs) const;
    void putSlot(int64_t timeMs, int64_t firstPos, int64_t lastPos, int32_t num, int32_t magic);
    // Recovery: sets lastPos (and firstPos unless kIgnore) of the slot of `timeMs`; a slot
    // holding another time is overwritten (first = last when firstPos is kIgnore) when `force`.
    void reviseSlot(int64_t timeMs, int64_t firstPos, int64_t lastPos, bool force);
    // The smallest firstPos of the slots from `timeStartMs` on whose lastPos lies beyond
    // `maxOffset` (INT64_MAX if none): where the timer log must be re-read after a damaged tail.
    int64_t checkPhyPos(int64_t timeStartMs, int64_t maxOffset) const;
    // Messages parked in every slot from `timeStartMs` on.
    int64_t allNum(int64_t timeStartMs) const;

    bool flush(std::string &error);

private:
    static constexpr size_t kPageSize = 4096;
    using Page = std::unique_ptr<uint8_t[]>;

    TimerWheel(std::string path, int fd, std::vector<Page> pages, int32_t slotsTotal, int32_t precisionMs);
    // Reads the pages of `fd` that hold data (the rest stay absent); false with `error` set.
    static bool loadPages(int fd, const std::string &path, int64_t length, std::vector<Page> &pages,
                          std::string &error);
    // Requires: mutex_ held. The slot of `timeMs` to change, its page made when absent, marked
    // to be written by the next flush.
    uint8_t *at(int64_t timeMs);
    // Requires: mutex_ held. Slot `index` to read: a zero slot when its page is absent.
    const uint8_t *slotBytes(int64_t index) const;

    const std::string path_;
    const int fd_;
    const int32_t slotsTotal_;
    const int32_t precisionMs_;
    mutable std::mutex mutex_;
    std::vector<Page> pages_;   // the wheel as it is now, nullptr for an all-zero page; guarded by mutex_
    std::set<int32_t> dirty_;   // slots changed since the last flush; guarded by mutex_
};

} // namespace mqdesk::store
