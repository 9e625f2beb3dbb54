#pragma once

// The `timerlog/` directory of RocketMQ 5's timer store (store-format §12.2, S/timer/TimerLog.java):
// mapped files of mappedFileSizeTimerLog bytes (100 MiB by default) named by their start offset
// in 20 digits, holding 52-byte units, big-endian:
//   0  int   size = 52
//   4  long  prevPos — the previous unit parked in the same slot (−1 for the first)
//   12 int   magic: 1 DEFAULT | 2 ROLL | 4 DELETE (valid iff (magic | 0xF) == 0xF)
//   16 long  the wheel's write time when the unit was written (ms)
//   24 int   target − that write time (ms): the slot the unit is parked in
//   28 long  commit-log offset of the message in rmq_sys_wheel_timer
//   36 int   its record size
//   40 int   String.hashCode of its REAL_TOPIC (0 without one)
//   44 long  reserved, 0
// End of file: when a unit plus 16 bytes no longer fits, the file gets `int remaining, long 0,
// int 0xCBD43194` (Java's BLANK_MAGIC_CODE, which evaluates to the commit log's blank magic) and
// counts as full; the unit goes to the next file.
//
// Threads: one appender (the enqueue thread); any thread may read units below the appended end
// and flush.

#include "broker/store/mapped_file_queue.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mqdesk::store {

struct TimerLogUnit
{
    static constexpr int32_t kSize = 52;
    static constexpr int32_t kMagicDefault = 1;
    static constexpr int32_t kMagicRoll = 1 << 1;
    static constexpr int32_t kMagicDelete = 1 << 2;

    int32_t size = kSize;
    int64_t prevPos = -1;
    int32_t magic = kMagicDefault;
    int64_t writeTimeMs = 0;
    int32_t delayMs = 0;     // target − writeTimeMs
    int64_t commitLogOffset = 0;
    int32_t commitLogSize = 0;
    int32_t realTopicHash = 0;

    int64_t targetMs() const { return writeTimeMs + delayMs; }
    bool roll() const { return (magic & kMagicRoll) != 0; }
    bool deleteMarker() const { return (magic & kMagicDelete) != 0; }
    static bool magicOk(int32_t magic) { return (magic | 0xF) == 0xF; }

    void encode(uint8_t *out) const;
    static TimerLogUnit decode(const uint8_t *in);
};

class TimerLog
{
public:
    static constexpr int32_t kBlankMagic = static_cast<int32_t>(0xCBD43194);
    static constexpr int32_t kMinBlankLength = 4 + 8 + 4;

    TimerLog(std::string directory, int64_t fileSize);

    bool load(std::string &error) { return files_.load(error); }
    MappedFileQueue &files() { return files_; }
    int64_t fileSize() const { return files_.fileSize(); }

    // Appends one unit; returns its offset, or −1 with `error` when no file could be created.
    // Requires: the single appender.
    int64_t append(const TimerLogUnit &unit, std::string &error);
    // The unit at `offset`, if that offset lies in a held file below the appended end.
    std::optional<TimerLogUnit> read(int64_t offset) const;
    // Forces everything appended to disk; false with `error` on failure.
    bool flushAll(std::string &error);
    // Retention (Java's deleteExpiredFileByOffsetForTimerLog): deletes files from the oldest on,
    // never the last one, while the last unit of the file parks a message below
    // `minCommitLogOffset` (its record is gone from the commit log). Returns how many went;
    // stops at the first file it keeps or cannot delete (`error` then says why).
    int deleteExpiredFiles(int64_t minCommitLogOffset, std::string &error);
    // Where a full file's last unit starts (Java's getOffsetForLastUnit).
    int64_t offsetOfLastUnit() const;

private:
    MappedFileQueue files_;
};

} // namespace mqdesk::store
