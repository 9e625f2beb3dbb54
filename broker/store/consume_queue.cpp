#include "broker/store/consume_queue.h"

#include "broker/common/bytes.h"
#include "broker/common/java_strings.h"

#include <spdlog/spdlog.h>

#include <cstring>
#include <functional>

namespace mqdesk::store {

bool isMultiDispatchedTo(std::optional<std::string_view> names, std::optional<std::string_view> offsets,
                         std::string_view topic, int64_t queueOffset)
{
    if (!names || !offsets)
        return false;
    const auto queueNames = common::javaSplit(*names, ',');
    const auto queueOffsets = common::javaSplit(*offsets, ',');
    if (queueNames.size() != queueOffsets.size())
        return false;
    const std::string expected = std::to_string(queueOffset);
    for (size_t i = 0; i < queueNames.size(); ++i) {
        if (queueNames[i] == topic && queueOffsets[i] == expected)
            return true;
    }
    return false;
}


using common::readInt32;
using common::readInt64;

namespace {

void writeEntry(uint8_t *at, int64_t commitLogOffset, int32_t size, int64_t tagsCode)
{
    common::writeInt64(at, commitLogOffset);
    common::writeInt32(at + 8, size);
    common::writeInt64(at + 12, tagsCode);
}

// An entry recovery keeps (§5.3): the filler counts as valid.
bool isValidEntry(const ConsumeQueueEntry &entry) { return entry.commitLogOffset >= 0 && entry.size > 0; }

} // namespace

ConsumeQueue::ConsumeQueue(std::string topic, int32_t queueId, std::string directory, int64_t fileSize)
    : topic_(std::move(topic)), queueId_(queueId),
      queue_(std::move(directory), fileSize, MappedFile::Reservation::AsWritten)
{}

bool ConsumeQueue::load(std::string &error)
{
    return queue_.load(error);
}

SimpleConsumeQueue::SimpleConsumeQueue(std::string topic, int32_t queueId, std::string directory, int64_t fileSize)
    : ConsumeQueue(std::move(topic), queueId, std::move(directory), fileSize)
{}

ConsumeQueueEntry SimpleConsumeQueue::readEntry(const uint8_t *at)
{
    return {readInt64(at), readInt32(at + 8), readInt64(at + 12)};
}

int64_t SimpleConsumeQueue::commitLogOffsetAt(const MappedFile &file, int64_t position) const
{
    return readInt64(file.data() + position);
}

bool ConsumeQueue::keepValidEntries(const std::function<bool(const uint8_t *entry)> &accept, std::string &error)
{
    const auto files = queue_.files();
    if (files.empty())
        return true;
    const int64_t unit = unitSize();
    size_t index = files.size() >= 3 ? files.size() - 3 : 0;
    int64_t validEnd = files[index]->fileFromOffset();
    for (; index < files.size(); ++index) {
        const MappedFile &file = *files[index];
        int64_t position = 0;
        while (position + unit <= file.fileSize() && accept(file.data() + position))
            position += unit;
        validEnd = file.fileFromOffset() + position;
        if (position + unit <= file.fileSize())
            break; // stopped inside this file
    }
    if (!queue_.truncateDirtyFiles(validEnd, error))
        return false;
    // A file with no entry at the end is one a put reserved before a crash: drop it, so the
    // writer starts the queue (fillers first) or the next file itself.
    if (const auto last = queue_.lastFile(); last && last->readPosition() == 0 && !queue_.deleteLastFile(error))
        return false;
    return true;
}

bool SimpleConsumeQueue::recover(std::string &error)
{
    int64_t maxPhysic = -1;
    const bool kept = keepValidEntries(
        [&maxPhysic](const uint8_t *at) {
            const ConsumeQueueEntry entry = readEntry(at);
            if (!isValidEntry(entry))
                return false;
            if (!entry.isFiller())
                maxPhysic = entry.commitLogOffset + entry.size;
            return true;
        },
        error);
    maxPhysicOffset_.store(maxPhysic);
    if (!kept)
        return false;
    if (auto first = queue_.firstFile()) {
        // Until correctMinOffset() knows the commit log, the first valid entry is the minimum.
        int64_t position = 0;
        while (position + kEntrySize <= first->readPosition() && readEntry(first->data() + position).isFiller())
            position += kEntrySize;
        minLogicOffset_.store(first->fileFromOffset() + position);
    }
    return true;
}

bool SimpleConsumeQueue::truncateDirtyLogicFiles(int64_t commitLogEnd, std::string &error)
{
    for (;;) {
        const auto last = queue_.lastFile();
        if (!last)
            break;
        // Only the tail goes: entries past the end that no entry within it follows. Dispatch
        // writes in log order, so a log cut short leaves exactly such a tail; an entry past the
        // end with good ones after it is damage, kept for the read that meets it to rebuild
        // (consume_queue_repair.cpp) rather than taking every later entry with it.
        int64_t position = 0;
        int64_t maxPhysic = -1;
        for (int64_t at = 0; at + kEntrySize <= last->readPosition(); at += kEntrySize) {
            const ConsumeQueueEntry entry = readEntry(last->data() + at);
            if (entry.isFiller()) {
                position = at + kEntrySize;
            } else if (entry.commitLogOffset >= 0 && entry.size > 0 && entry.commitLogOffset + entry.size <= commitLogEnd) {
                position = at + kEntrySize;
                maxPhysic = entry.commitLogOffset + entry.size;
            }
        }
        if (position == 0 && queue_.fileCount() > 1) {
            // The whole file points past the end: delete it and look at the one before.
            if (!queue_.deleteLastFile(error))
                return false;
            continue;
        }
        if (!queue_.truncateDirtyFiles(last->fileFromOffset() + position, error))
            return false;
        if (maxPhysic < 0) {
            // Nothing valid left in the last file: the previous file's last entry is the end.
            maxPhysic = -1;
            const auto files = queue_.files();
            if (files.size() >= 2) {
                const MappedFile &previous = *files[files.size() - 2];
                const ConsumeQueueEntry entry = readEntry(previous.data() + previous.readPosition() - kEntrySize);
                if (!entry.isFiller())
                    maxPhysic = entry.commitLogOffset + entry.size;
            }
        }
        maxPhysicOffset_.store(maxPhysic);
        break;
    }
    if (minLogicOffset_.load() > queue_.maxOffset())
        minLogicOffset_.store(queue_.maxOffset());
    return true;
}

void SimpleConsumeQueue::fillBlank(MappedFile &file, int64_t untilPosition)
{
    // Fillers read as "no message here" (§5.1): readers step over them.
    for (int64_t position = file.wrotePosition(); position < untilPosition; position += kEntrySize)
        writeEntry(file.appendTarget() + position, 0, 0x7FFFFFFF, 0);
    file.advanceWrote(untilPosition - file.wrotePosition(), file.lastStoreTimestamp());
}

bool SimpleConsumeQueue::reserveFor(int64_t firstQueueOffset, int32_t recordCount, std::string &error)
{
    return reserveBytes(firstQueueOffset * kEntrySize, (firstQueueOffset + recordCount) * kEntrySize, error);
}

bool ConsumeQueue::reserveBytes(int64_t needBegin, int64_t needEnd, std::string &error)
{
    const int64_t fileSize = queue_.fileSize();
    if (needEnd <= provisionedEnd_.load(std::memory_order_acquire))
        return true;
    std::lock_guard lock(reserveMutex_);
    const auto last = queue_.lastFile();
    int64_t covered = reserved_.empty() ? (last ? last->fileFromOffset() + fileSize : -1)
                                        : reserved_.back()->fileFromOffset() + fileSize;
    if (covered < 0)
        covered = needBegin / fileSize * fileSize; // the writer's first file starts here
    if (needEnd - covered > 2 * fileSize)
        return true; // the queue lags its offsets far behind (a damaged store): the writer copes
    while (covered < needEnd) {
        auto file = MappedFile::open(queue_.directory() + "/" + offsetToFileName(covered), covered, fileSize,
                                     true, error, queue_.reservation());
        if (!file)
            return false;
        reserved_.push_back(std::move(file));
        covered += fileSize;
    }
    // The blocks of the needed entries, in each file they fall into (a batch may span two).
    int64_t reservedEnd = 0;
    const auto reserveIn = [&](MappedFile &file) {
        const int64_t from = file.fileFromOffset();
        if (from >= needEnd || from + fileSize <= needBegin)
            return true;
        if (!file.reserveThrough(std::min(needEnd - from, fileSize), error))
            return false;
        reservedEnd = std::max(reservedEnd, from + file.reservedEnd());
        return true;
    };
    if (last && !reserveIn(*last))
        return false;
    for (const auto &file : reserved_) {
        if (!reserveIn(*file))
            return false;
    }
    if (reservedEnd > provisionedEnd_.load(std::memory_order_relaxed))
        provisionedEnd_.store(reservedEnd, std::memory_order_release);
    return true;
}

std::shared_ptr<MappedFile> ConsumeQueue::nextFile(int64_t startOffset, std::string &error)
{
    // Under reserveMutex_ throughout, so reserveFor() never sees the list and the reservations
    // between a file leaving one and joining the other (it would try to make that file again).
    std::lock_guard lock(reserveMutex_);
    while (!reserved_.empty() && reserved_.front()->fileFromOffset() < startOffset)
        reserved_.pop_front(); // made for offsets the queue no longer needs (recovery drops it)
    if (!reserved_.empty() && reserved_.front()->fileFromOffset() == startOffset) {
        auto file = queue_.addFile(std::move(reserved_.front()));
        reserved_.pop_front();
        return file;
    }
    return queue_.createFile(startOffset, error);
}

bool SimpleConsumeQueue::putEntry(int64_t commitLogOffset, int32_t size, int64_t tagsCode, int64_t queueOffset,
                                  int64_t storeTimestamp, int32_t /*batchSize*/, std::string &error)
{
    if (commitLogOffset + size <= maxPhysicOffset_.load(std::memory_order_relaxed))
        return true; // already dispatched (recovery re-dispatch)
    const int64_t expected = queueOffset * kEntrySize;
    const int64_t fileSize = queue_.fileSize();
    for (;;) {
        auto file = queue_.lastFile();
        if (!file) {
            // The first file ever of this queue: entries before the first one are fillers, and the
            // queue starts at that entry (§5.1).
            file = nextFile(expected / fileSize * fileSize, error);
            if (!file || !file->reserveThrough(expected % fileSize, error))
                return false;
            fillBlank(*file, expected % fileSize);
            minLogicOffset_.store(expected);
        } else if (file->isFull()) {
            file = nextFile(file->fileFromOffset() + fileSize, error);
            if (!file)
                return false;
        }
        const int64_t current = file->fileFromOffset() + file->wrotePosition();
        if (expected < current)
            return true; // an entry for this offset is already there
        if (expected > current) {
            // Queue offsets with no record: the dispatcher stepped over an undecodable record,
            // or the log lost one. Fillers keep every later entry at its own queue offset.
            if (expected - current > fileSize) {
                error = "queue offset " + std::to_string(queueOffset) + " lies far beyond the queue's end "
                        + std::to_string(current / kEntrySize) + "; entry not written";
                spdlog::error("consume queue {}/{}: {}", topic_, queueId_, error);
                return true; // retrying cannot help
            }
            const int64_t fillEnd = std::min(expected - file->fileFromOffset(), fileSize);
            if (!file->reserveThrough(fillEnd, error))
                return false;
            spdlog::warn("consume queue {}/{}: queue offsets {} to {} have no record; fillers written",
                         topic_, queueId_, current / kEntrySize, queueOffset - 1);
            fillBlank(*file, fillEnd);
            continue;
        }
        // Reserved by the put's reserveFor(); not when this entry was never put (recovery
        // re-dispatching a log whose queue files are gone): then here.
        if (!file->reserveThrough(file->wrotePosition() + kEntrySize, error))
            return false;
        writeEntry(file->appendTarget() + file->wrotePosition(), commitLogOffset, size, tagsCode);
        file->advanceWrote(kEntrySize, storeTimestamp);
        maxPhysicOffset_.store(commitLogOffset + size, std::memory_order_release);
        return true;
    }
}

int64_t ConsumeQueue::lastStoreTimestamp() const
{
    const auto last = queue_.lastFile();
    return last ? last->lastStoreTimestamp() : 0;
}

bool SimpleConsumeQueue::rewriteEntry(int64_t queueOffset, const ConsumeQueueEntry &entry, std::string &error)
{
    const int64_t logical = queueOffset * kEntrySize;
    const auto file = queue_.findFileByOffset(logical);
    if (!file || logical - file->fileFromOffset() + kEntrySize > file->readPosition()) {
        error = "consume queue " + topic_ + "/" + std::to_string(queueId_) + " has no entry at queue offset "
                + std::to_string(queueOffset) + " to rewrite";
        return false;
    }
    uint8_t bytes[kEntrySize];
    writeEntry(bytes, entry.commitLogOffset, entry.size, entry.tagsCode);
    if (!file->writeAt(logical - file->fileFromOffset(), bytes, kEntrySize, error))
        return false;
    // The last entry also says how far the queue was dispatched: a damaged one pointing past
    // the log would make the dispatcher skip every record up to it.
    if (queueOffset + 1 == maxOffset())
        maxPhysicOffset_.store(entry.commitLogOffset + entry.size, std::memory_order_release);
    return true;
}

std::optional<ConsumeQueueEntry> ConsumeQueue::entryAt(int64_t queueOffset) const
{
    const auto entries = entriesFrom(queueOffset, 1);
    if (entries.empty())
        return std::nullopt;
    return entries.front();
}

std::vector<ConsumeQueueEntry> SimpleConsumeQueue::entriesFrom(int64_t queueOffset, int maxCount) const
{
    std::vector<ConsumeQueueEntry> entries;
    if (queueOffset < 0 || maxCount <= 0)
        return entries;
    const int64_t logical = queueOffset * kEntrySize;
    const auto file = queue_.findFileByOffset(logical);
    if (!file)
        return entries;
    const int64_t readable = file->readPosition();
    for (int64_t position = logical - file->fileFromOffset();
         position + kEntrySize <= readable && static_cast<int>(entries.size()) < maxCount;
         position += kEntrySize) {
        entries.push_back(readEntry(file->data() + position));
        entries.back().queueOffset = (file->fileFromOffset() + position) / kEntrySize;
    }
    return entries;
}

void SimpleConsumeQueue::correctMinOffset(int64_t commitLogMinOffset)
{
    const auto first = queue_.firstFile();
    if (!first)
        return;
    // Binary search in the first file for the first entry whose record is still there.
    int64_t low = 0;
    int64_t high = first->readPosition() / kEntrySize; // exclusive
    while (low < high) {
        const int64_t middle = (low + high) / 2;
        const ConsumeQueueEntry entry = readEntry(first->data() + middle * kEntrySize);
        if (!entry.isFiller() && entry.commitLogOffset >= commitLogMinOffset)
            high = middle;
        else
            low = middle + 1;
    }
    int64_t minLogic = first->fileFromOffset() + low * kEntrySize;
    if (low == first->readPosition() / kEntrySize && queue_.fileCount() == 1)
        minLogic = queue_.maxOffset(); // every entry points below the commit log: the queue is empty
    minLogicOffset_.store(std::max(minLogic, minLogicOffset_.load()));
}

int ConsumeQueue::deleteExpiredFiles(int64_t commitLogMinOffset)
{
    int deleted = 0;
    while (queue_.fileCount() > 1) {
        const auto first = queue_.firstFile();
        if (first->readPosition() < unitSize())
            break;
        if (commitLogOffsetAt(*first, first->readPosition() - unitSize()) >= commitLogMinOffset)
            break;
        std::string error;
        if (!queue_.deleteFirstFile(error)) {
            spdlog::error("consume queue {}/{}: {}", topic_, queueId_, error);
            break;
        }
        ++deleted;
    }
    correctMinOffset(commitLogMinOffset);
    return deleted;
}

} // namespace mqdesk::store
