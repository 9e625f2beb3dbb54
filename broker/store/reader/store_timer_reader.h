#pragma once

// The store explorer's reading of RocketMQ 5's timer files (store-format §12.2) over a
// StoreReader, read-only like it: `timerwheel` (32-byte slots), `timerlog/` (52-byte units and the
// end-of-file blank), `config/timercheck` and `config/timermetrics`, plus their health checks in
// the verifier's style (StoreFault: file, offset, stable kind, message).
//
// Every call is defensive: a missing, short or damaged file gives a result with `error` naming
// the file (and the offset), never a crash. Free functions rather than StoreReader members: they
// only need the reader's public mappings (StoreReader::view), and keep store_reader.h lean.
//
// Fault kinds (added to verifyStore's list):
//   timer-wheel-size     a timerwheel whose length is not a whole number of slots
//   timer-slot-index     a slot whose stored time does not belong to its index
//   timer-slot-magic     a slot magic with bits other than the unit magics'
//   timer-slot-position  firstPos / lastPos negative, firstPos > lastPos, or past the timer log's data
//   timer-slot-target    a slot's lastPos that holds no valid unit
//   timer-unit-size      a unit whose size is not 52 (and no end-of-file blank)
//   timer-unit-magic     a unit whose magic is not a combination of DEFAULT / ROLL / DELETE
//   timer-unit-prev      a unit whose prevPos is not an earlier unit's offset
//   timer-blank          an end-of-file blank whose size is not the rest of the file
//   timer-checkpoint     config/timercheck too short, or lastTimerLogFlushPos past the timer log
//   timer-metrics        config/timermetrics that does not decode
//
// Threads: any thread, concurrently (as StoreReader).

#include "broker/store/reader/store_reader.h"
#include "broker/store/reader/store_verifier.h"
#include "broker/store/timer_log.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mqdesk::store {

inline constexpr const char *kTimerWheelFile = "timerwheel";
inline constexpr const char *kTimerLogDir = "timerlog";
inline constexpr const char *kTimerCheckFile = "config/timercheck";
inline constexpr const char *kTimerMetricsFile = "config/timermetrics";

struct TimerWheelSlotRead
{
    int32_t index = 0;
    int64_t filePosition = 0; // index × 32
    int64_t time = 0;         // as stored: precision units (seconds by default)
    int64_t timeMs = 0;       // time × precisionMs
    int64_t firstPos = 0;
    int64_t lastPos = 0;
    int32_t num = 0;
    int32_t magic = 0;
};

struct TimerWheelPage
{
    std::vector<TimerWheelSlotRead> occupied; // non-empty slots only (any non-zero byte)
    int32_t nextSlot = 0;
    bool atEnd = true;
    int32_t slotCount = 0; // slots in the file
    std::string error;     // the file is missing or cannot be read; names it
};

// The non-empty slots from `fromSlot` on, at most `limit`.
TimerWheelPage readTimerWheelSlots(const StoreReader &reader, int32_t fromSlot, size_t limit,
                                   int32_t precisionMs = 1000);

enum class TimerLogEntryKind { Unit, Blank, Invalid };

struct TimerLogEntry
{
    int64_t offset = 0;       // timer-log offset (file start + position)
    std::string file;         // relative path, e.g. "timerlog/00000000000000000000"
    int64_t filePosition = 0;
    int32_t length = 0;       // bytes this entry spans
    TimerLogEntryKind kind = TimerLogEntryKind::Invalid;
    TimerLogUnit unit;        // Unit (and Invalid, as decoded)
    std::string error;        // Invalid: why
};

struct TimerLogPage
{
    std::vector<TimerLogEntry> entries;
    int64_t nextOffset = 0;
    bool atEnd = true;
    int64_t fileSize = 0;  // the files' size (the most common one)
    int64_t dataEnd = 0;   // after the last unit (zeros follow)
    std::string error;
};

struct TimerLogFile
{
    std::string relativePath;
    int64_t startOffset = -1;
    int64_t size = 0;
};
// The 20-digit files of <root>/timerlog, ascending.
std::vector<TimerLogFile> timerLogFiles(const StoreReader &reader);
// Entries from `fromOffset` (a gap between files moves on to the next file) up to the data end.
TimerLogPage readTimerLogEntries(const StoreReader &reader, int64_t fromOffset, size_t limit);

struct TimerCheckpointRead
{
    int64_t fileSize = 0;
    int64_t lastReadTimeMs = 0;
    int64_t lastTimerLogFlushPos = 0;
    int64_t lastTimerQueueOffset = 0;
    int64_t masterTimerQueueOffset = 0;
    int64_t stateVersion = 0;
    int64_t versionTimestamp = 0;
    int64_t versionCounter = 0;
};
std::optional<TimerCheckpointRead> readTimerCheckpointFile(const StoreReader &reader, std::string *error = nullptr);

struct TimerMetricsEntry
{
    std::string topic;
    int64_t count = 0;
    int64_t timeStamp = 0;
};
struct TimerMetricsRead
{
    std::vector<TimerMetricsEntry> entries;
    int64_t counter = 0, stateVersion = 0, timestamp = 0; // dataVersion
    std::string error;
};
TimerMetricsRead readTimerMetricsFile(const StoreReader &reader);

// Up to `length` bytes of a file from `position` (for the hex view); shorter at its end.
std::vector<uint8_t> readFileBytes(const StoreReader &reader, const std::string &relativePath, int64_t position,
                                   int64_t length);

// The timer files' health (kinds above); nothing when the store has no timer files.
std::vector<StoreFault> verifyTimerFiles(const StoreReader &reader, size_t maxFaultsPerFile = 100);

} // namespace mqdesk::store
