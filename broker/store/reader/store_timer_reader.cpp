#include "broker/store/reader/store_timer_reader.h"

#include "broker/common/bytes.h"
#include "broker/store/config/timer_metrics.h"
#include "broker/store/reader/store_reader_util.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <system_error>

namespace mqdesk::store {

using common::readInt32;
using common::readInt64;

namespace {

constexpr int kSlotSize = 32;
constexpr int kUnitSize = TimerLogUnit::kSize;

bool isTwentyDigits(const std::string &name)
{
    return name.size() == 20 && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int64_t commonSize(const std::vector<TimerLogFile> &files)
{
    std::map<int64_t, int> counts;
    for (const auto &f : files)
        ++counts[f.size];
    int64_t best = 0;
    int bestCount = 0;
    for (const auto &[size, count] : counts)
        if (count > bestCount || (count == bestCount && size > best)) {
            best = size;
            bestCount = count;
        }
    return best;
}

// What starts at `position` of a timer-log file of `size` bytes: a unit, the end-of-file blank,
// zeros (nullopt: the data ends) or invalid bytes.
std::optional<TimerLogEntry> entryAt(const FileView &view, const std::string &relativePath, int64_t startOffset,
                                     int64_t position)
{
    const int64_t remaining = view.size() - position;
    if (remaining <= 0)
        return std::nullopt;
    const uint8_t *p = view.bytes().data() + position;
    TimerLogEntry e;
    e.offset = startOffset + position;
    e.file = relativePath;
    e.filePosition = position;
    if (remaining >= TimerLog::kMinBlankLength && readInt32(p + 12) == TimerLog::kBlankMagic) {
        e.kind = TimerLogEntryKind::Blank;
        e.length = static_cast<int32_t>(remaining);
        if (readInt32(p) != remaining)
            e.error = relativePath + " at " + std::to_string(position) + ": end-of-file blank of size " +
                      std::to_string(readInt32(p)) + ", but " + std::to_string(remaining) + " bytes remain";
        return e;
    }
    if (allZero(p, static_cast<size_t>(std::min<int64_t>(remaining, kUnitSize))))
        return std::nullopt;
    e.length = static_cast<int32_t>(std::min<int64_t>(remaining, kUnitSize));
    if (remaining < kUnitSize) {
        e.error = relativePath + " at " + std::to_string(position) + ": " + std::to_string(remaining) +
                  " bytes left, a unit needs 52 (and no end-of-file blank)";
        return e;
    }
    e.unit = TimerLogUnit::decode(p);
    if (e.unit.size != kUnitSize)
        e.error = relativePath + " at " + std::to_string(position) + ": unit size " + std::to_string(e.unit.size) +
                  ", expected 52";
    else if (!TimerLogUnit::magicOk(e.unit.magic))
        e.error = relativePath + " at " + std::to_string(position) + ": unit magic " + std::to_string(e.unit.magic) +
                  " is not a combination of DEFAULT (1), ROLL (2), DELETE (4)";
    else
        e.kind = TimerLogEntryKind::Unit;
    return e;
}

} // namespace

TimerWheelPage readTimerWheelSlots(const StoreReader &reader, int32_t fromSlot, size_t limit, int32_t precisionMs)
{
    TimerWheelPage page;
    page.nextSlot = std::max(fromSlot, 0);
    const FileViewPtr view = reader.view(kTimerWheelFile);
    if (!view) {
        page.error = std::string(kTimerWheelFile) + ": missing or not readable";
        return page;
    }
    page.slotCount = static_cast<int32_t>(view->size() / kSlotSize);
    if (view->size() % kSlotSize != 0)
        page.error = std::string(kTimerWheelFile) + ": length " + std::to_string(view->size()) +
                     " is not a whole number of 32-byte slots; the last " + std::to_string(view->size() % kSlotSize) +
                     " bytes at " + std::to_string(int64_t{page.slotCount} * kSlotSize) + " are ignored";
    const uint8_t *base = view->bytes().data();
    int32_t i = page.nextSlot;
    for (; i < page.slotCount && page.occupied.size() < limit; ++i) {
        const uint8_t *p = base + int64_t{i} * kSlotSize;
        if (allZero(p, kSlotSize))
            continue;
        TimerWheelSlotRead s;
        s.index = i;
        s.filePosition = int64_t{i} * kSlotSize;
        s.time = readInt64(p);
        s.timeMs = s.time * precisionMs;
        s.firstPos = readInt64(p + 8);
        s.lastPos = readInt64(p + 16);
        s.num = readInt32(p + 24);
        s.magic = readInt32(p + 28);
        page.occupied.push_back(s);
    }
    page.nextSlot = i;
    page.atEnd = i >= page.slotCount;
    return page;
}

std::vector<TimerLogFile> timerLogFiles(const StoreReader &reader)
{
    std::vector<TimerLogFile> files;
    const std::string dir = reader.rootDir() + "/" + std::string(kTimerLogDir);
    for (const DirectoryEntry &entry : reader.files().list(dir)) {
        FileStatus status;
        if (!isTwentyDigits(entry.name) || reader.files().status(dir + "/" + entry.name, status) != 0
            || !status.regular)
            continue;
        TimerLogFile f;
        f.relativePath = std::string(kTimerLogDir) + "/" + entry.name;
        f.startOffset = std::stoll(entry.name);
        f.size = status.size;
        files.push_back(f);
    }
    std::sort(files.begin(), files.end(), [](const auto &a, const auto &b) { return a.startOffset < b.startOffset; });
    return files;
}

TimerLogPage readTimerLogEntries(const StoreReader &reader, int64_t fromOffset, size_t limit)
{
    TimerLogPage page;
    page.nextOffset = fromOffset;
    const auto files = timerLogFiles(reader);
    if (files.empty()) {
        page.error = std::string(kTimerLogDir) + "/: no timer-log files";
        return page;
    }
    page.fileSize = commonSize(files);
    int64_t offset = std::max(fromOffset, files.front().startOffset);
    for (const auto &file : files) {
        if (offset >= file.startOffset + file.size)
            continue;
        offset = std::max(offset, file.startOffset);
        const FileViewPtr view = reader.view(file.relativePath);
        if (!view) {
            page.error = file.relativePath + ": not readable";
            page.nextOffset = offset;
            return page;
        }
        // Units start on 52-byte steps from the file's start.
        int64_t position = offset - file.startOffset;
        position -= position % kUnitSize;
        while (position < view->size()) {
            auto entry = entryAt(*view, file.relativePath, file.startOffset, position);
            if (!entry) {
                page.dataEnd = file.startOffset + position;
                // zeros: this file's data ends; later files are still read (a damaged store)
                break;
            }
            if (page.entries.size() >= limit) {
                page.nextOffset = entry->offset;
                page.atEnd = false;
                return page;
            }
            position += entry->kind == TimerLogEntryKind::Blank ? entry->length : kUnitSize;
            page.dataEnd = file.startOffset + position;
            page.entries.push_back(std::move(*entry));
        }
        offset = file.startOffset + file.size;
    }
    page.nextOffset = offset;
    page.atEnd = true;
    return page;
}

std::optional<TimerCheckpointRead> readTimerCheckpointFile(const StoreReader &reader, std::string *error)
{
    const FileViewPtr view = reader.view(kTimerCheckFile);
    if (!view) {
        if (error)
            *error = std::string(kTimerCheckFile) + ": missing or not readable";
        return std::nullopt;
    }
    if (view->size() < 56) {
        if (error)
            *error = std::string(kTimerCheckFile) + ": " + std::to_string(view->size()) +
                     " bytes, the seven fields need 56 (the file has 4096)";
        return std::nullopt;
    }
    const uint8_t *p = view->bytes().data();
    TimerCheckpointRead c;
    c.fileSize = view->size();
    c.lastReadTimeMs = readInt64(p);
    c.lastTimerLogFlushPos = readInt64(p + 8);
    c.lastTimerQueueOffset = readInt64(p + 16);
    c.masterTimerQueueOffset = readInt64(p + 24);
    c.stateVersion = readInt64(p + 32);
    c.versionTimestamp = readInt64(p + 40);
    c.versionCounter = readInt64(p + 48);
    return c;
}

TimerMetricsRead readTimerMetricsFile(const StoreReader &reader)
{
    TimerMetricsRead out;
    const FileViewPtr view = reader.view(kTimerMetricsFile);
    if (!view) {
        out.error = std::string(kTimerMetricsFile) + ": missing or not readable";
        return out;
    }
    const auto bytes = view->bytes();
    TimerMetrics metrics;
    std::string error;
    if (!metrics.decode(std::string_view(reinterpret_cast<const char *>(bytes.data()), bytes.size()), error)) {
        out.error = std::string(kTimerMetricsFile) + ": " + error;
        return out;
    }
    for (const auto &[topic, metric] : metrics.timingCount())
        out.entries.push_back({topic, metric.count, metric.timeStamp});
    const DataVersion version = metrics.dataVersion();
    out.counter = version.counter;
    out.stateVersion = version.stateVersion;
    out.timestamp = version.timestamp;
    return out;
}

std::vector<uint8_t> readFileBytes(const StoreReader &reader, const std::string &relativePath, int64_t position,
                                   int64_t length)
{
    const FileViewPtr view = reader.view(relativePath);
    if (!view || position < 0 || length <= 0 || position >= view->size())
        return {};
    const int64_t n = std::min(length, view->size() - position);
    const uint8_t *p = view->bytes().data() + position;
    return {p, p + n};
}

namespace {

struct FaultList
{
    std::vector<StoreFault> &faults;
    size_t limit;
    std::map<std::string, size_t> perFile;

    void add(const std::string &file, int64_t offset, const char *kind, std::string message)
    {
        size_t &n = perFile[file];
        if (++n > limit) {
            if (n == limit + 1)
                faults.push_back({file, offset, "fault-limit", file + ": more than " + std::to_string(limit) + " faults"});
            return;
        }
        faults.push_back({file, offset, kind, std::move(message)});
    }
};

} // namespace

std::vector<StoreFault> verifyTimerFiles(const StoreReader &reader, size_t maxFaultsPerFile)
{
    std::vector<StoreFault> faults;
    FaultList list{faults, maxFaultsPerFile, {}};

    // The timer log first: the wheel's positions are judged against its units.
    const auto files = timerLogFiles(reader);
    int64_t dataEnd = 0;
    std::set<int64_t> unitOffsets;
    for (int64_t from = 0;;) {
        TimerLogPage page = readTimerLogEntries(reader, from, 65536);
        if (!page.error.empty() && !files.empty())
            list.add(kTimerLogDir, 0, "timer-unit-size", page.error);
        for (const auto &e : page.entries) {
            if (e.kind == TimerLogEntryKind::Unit) {
                unitOffsets.insert(e.offset);
                if (e.unit.prevPos != -1 && (e.unit.prevPos < 0 || e.unit.prevPos >= e.offset))
                    list.add(e.file, e.filePosition, "timer-unit-prev",
                             e.file + " at " + std::to_string(e.filePosition) + ": prevPos " +
                                 std::to_string(e.unit.prevPos) + " is not an earlier unit (this unit is at " +
                                 std::to_string(e.offset) + ")");
            } else if (e.kind == TimerLogEntryKind::Blank) {
                if (!e.error.empty())
                    list.add(e.file, e.filePosition, "timer-blank", e.error);
            } else {
                const bool sizeWrong = e.length < kUnitSize || e.unit.size != kUnitSize;
                list.add(e.file, e.filePosition, sizeWrong ? "timer-unit-size" : "timer-unit-magic", e.error);
            }
        }
        dataEnd = std::max(dataEnd, page.dataEnd);
        if (page.atEnd || page.entries.empty())
            break;
        from = page.nextOffset;
    }
    const int64_t logStart = files.empty() ? 0 : files.front().startOffset;

    if (const FileViewPtr wheel = reader.view(kTimerWheelFile)) {
        const int64_t slotCount = wheel->size() / kSlotSize;
        if (wheel->size() % kSlotSize != 0)
            list.add(kTimerWheelFile, slotCount * kSlotSize, "timer-wheel-size",
                     std::string(kTimerWheelFile) + ": length " + std::to_string(wheel->size()) +
                         " is not a whole number of 32-byte slots");
        for (int32_t from = 0;;) {
            const TimerWheelPage page = readTimerWheelSlots(reader, from, 65536);
            for (const auto &s : page.occupied) {
                const std::string at = std::string(kTimerWheelFile) + " slot " + std::to_string(s.index) + " (at " +
                                       std::to_string(s.filePosition) + "): ";
                if (s.time >= 0 && slotCount > 0 && s.time % slotCount != s.index)
                    list.add(kTimerWheelFile, s.filePosition, "timer-slot-index",
                             at + "time " + std::to_string(s.time) + " belongs to slot " +
                                 std::to_string(s.time % slotCount));
                if (!TimerLogUnit::magicOk(s.magic))
                    list.add(kTimerWheelFile, s.filePosition + 28, "timer-slot-magic",
                             at + "magic " + std::to_string(s.magic) + " has bits other than 1 | 2 | 4");
                if (s.firstPos == -1 && s.lastPos == -1)
                    continue; // Java's empty slot
                if (s.firstPos < 0 || s.lastPos < 0 || s.firstPos > s.lastPos) {
                    list.add(kTimerWheelFile, s.filePosition + 8, "timer-slot-position",
                             at + "firstPos " + std::to_string(s.firstPos) + ", lastPos " + std::to_string(s.lastPos) +
                                 " are not 0 ≤ firstPos ≤ lastPos");
                } else if (s.lastPos >= dataEnd) {
                    list.add(kTimerWheelFile, s.filePosition + 16, "timer-slot-position",
                             at + "lastPos " + std::to_string(s.lastPos) + " is past the timer log's data end " +
                                 std::to_string(dataEnd));
                } else if (s.lastPos >= logStart && !unitOffsets.count(s.lastPos)) {
                    // Below the first file: retention deleted the units of delivered slots.
                    list.add(kTimerWheelFile, s.filePosition + 16, "timer-slot-target",
                             at + "lastPos " + std::to_string(s.lastPos) + " holds no valid timer-log unit");
                }
            }
            if (page.atEnd || page.occupied.empty())
                break;
            from = page.nextSlot;
        }
    }

    std::string error;
    if (reader.view(kTimerCheckFile)) {
        const auto checkpoint = readTimerCheckpointFile(reader, &error);
        if (!checkpoint)
            list.add(kTimerCheckFile, 0, "timer-checkpoint", error);
        else if (checkpoint->lastTimerLogFlushPos > std::max(dataEnd, logStart))
            list.add(kTimerCheckFile, 8, "timer-checkpoint",
                     std::string(kTimerCheckFile) + ": lastTimerLogFlushPos " +
                         std::to_string(checkpoint->lastTimerLogFlushPos) + " is past the timer log's data end " +
                         std::to_string(dataEnd));
    }
    if (const FileViewPtr metrics = reader.view(kTimerMetricsFile)) {
        const auto bytes = metrics->bytes();
        const std::string_view text(reinterpret_cast<const char *>(bytes.data()), bytes.size());
        // A syntax error is the verifier's config-parse already; this names what does not decode.
        if (common::parseJson(text).ok()) {
            const TimerMetricsRead read = readTimerMetricsFile(reader);
            if (!read.error.empty())
                list.add(kTimerMetricsFile, 0, "timer-metrics", read.error);
        }
    }
    return faults;
}

} // namespace mqdesk::store
