#include "broker/store/batch_consume_queue.h"

#include "broker/common/bytes.h"

#include <spdlog/spdlog.h>

namespace mqdesk::store {

using common::readInt32;
using common::readInt64;

namespace {

constexpr int64_t kBaseOffsetField = 28;
constexpr int32_t kNoCompactedOffset = -1; // RocketMQ's INVALID_POS

} // namespace

BatchConsumeQueue::BatchConsumeQueue(std::string topic, int32_t queueId, std::string directory, int64_t fileSize)
    : ConsumeQueue(std::move(topic), queueId, std::move(directory), fileSize)
{}

ConsumeQueueEntry BatchConsumeQueue::readUnit(const uint8_t *at)
{
    ConsumeQueueEntry unit;
    unit.commitLogOffset = readInt64(at);
    unit.size = readInt32(at + 8);
    unit.tagsCode = readInt64(at + 12);
    unit.storeTimestamp = readInt64(at + 20);
    unit.queueOffset = readInt64(at + kBaseOffsetField);
    unit.batchSize = static_cast<int16_t>(common::readInt16(at + 36));
    return unit;
}

void BatchConsumeQueue::writeUnit(uint8_t *at, const ConsumeQueueEntry &unit)
{
    common::writeInt64(at, unit.commitLogOffset);
    common::writeInt32(at + 8, unit.size);
    common::writeInt64(at + 12, unit.tagsCode);
    common::writeInt64(at + 20, unit.storeTimestamp);
    common::writeInt64(at + kBaseOffsetField, unit.queueOffset);
    common::writeInt16(at + 36, static_cast<int16_t>(unit.batchSize));
    common::writeInt32(at + 38, kNoCompactedOffset);
    common::writeInt32(at + 42, 0);
}

bool BatchConsumeQueue::isValidUnit(const ConsumeQueueEntry &unit)
{
    return unit.commitLogOffset >= 0 && unit.size > 0 && unit.queueOffset >= 0 && unit.batchSize > 0;
}

int64_t BatchConsumeQueue::commitLogOffsetAt(const MappedFile &file, int64_t position) const
{
    return readInt64(file.data() + position);
}

void BatchConsumeQueue::reviseFromFiles()
{
    const auto files = queue_.files();
    int64_t minOffset = 0;
    int64_t maxOffset = 0;
    int64_t maxPhysic = -1;
    for (const auto &file : files) {
        if (file->readPosition() >= kUnitSize) {
            minOffset = readUnit(file->data()).queueOffset;
            break;
        }
    }
    for (auto it = files.rbegin(); it != files.rend(); ++it) {
        if ((*it)->readPosition() >= kUnitSize) {
            const ConsumeQueueEntry last = readUnit((*it)->data() + (*it)->readPosition() - kUnitSize);
            maxOffset = last.queueOffset + last.batchSize;
            maxPhysic = last.commitLogOffset + last.size;
            break;
        }
    }
    minOffset_.store(std::min(minOffset, maxOffset), std::memory_order_release);
    maxOffset_.store(maxOffset, std::memory_order_release);
    maxPhysicOffset_.store(maxPhysic, std::memory_order_release);
}

bool BatchConsumeQueue::recover(std::string &error)
{
    if (!keepValidEntries([](const uint8_t *at) { return isValidUnit(readUnit(at)); }, error))
        return false;
    reviseFromFiles();
    return true;
}

bool BatchConsumeQueue::truncateDirtyLogicFiles(int64_t commitLogEnd, std::string &error)
{
    for (;;) {
        const auto last = queue_.lastFile();
        if (!last)
            break;
        // Units are in log order: the tail past the end goes, from the first unit beyond it.
        int64_t position = 0;
        while (position + kUnitSize <= last->readPosition()) {
            const ConsumeQueueEntry unit = readUnit(last->data() + position);
            if (unit.commitLogOffset + unit.size > commitLogEnd)
                break;
            position += kUnitSize;
        }
        if (position == 0 && queue_.fileCount() > 1) {
            if (!queue_.deleteLastFile(error))
                return false;
            continue;
        }
        if (!queue_.truncateDirtyFiles(last->fileFromOffset() + position, error))
            return false;
        break;
    }
    unitsAssigned_ = -1;
    reviseFromFiles();
    return true;
}

bool BatchConsumeQueue::reserveFor(int64_t /*firstQueueOffset*/, int32_t recordCount, std::string &error)
{
    const int64_t first = std::max(unitsAssigned_, queue_.maxOffset() / kUnitSize);
    if (!reserveBytes(first * kUnitSize, (first + recordCount) * kUnitSize, error))
        return false;
    unitsAssigned_ = first + recordCount;
    return true;
}

bool BatchConsumeQueue::putEntry(int64_t commitLogOffset, int32_t size, int64_t tagsCode, int64_t queueOffset,
                                 int64_t storeTimestamp, int32_t batchSize, std::string &error)
{
    if (commitLogOffset + size <= maxPhysicOffset_.load(std::memory_order_relaxed))
        return true; // already dispatched (recovery re-dispatch)
    if (batchSize <= 0 || batchSize > INT16_MAX || queueOffset < 0) {
        error = "record at commit-log offset " + std::to_string(commitLogOffset) + " names a batch of "
                + std::to_string(batchSize) + " messages at queue offset " + std::to_string(queueOffset)
                + "; no BatchCQ unit written";
        spdlog::error("batch consume queue {}/{}: {}", topic_, queueId_, error);
        return true; // retrying cannot help
    }
    const bool empty = queue_.maxOffset() == 0;
    if (!empty && queueOffset < maxOffset_.load(std::memory_order_relaxed))
        return true; // a unit for these offsets is already there
    auto file = queue_.lastFile();
    if (!file || file->isFull()) {
        file = nextFile(file ? file->fileFromOffset() + queue_.fileSize() : 0, error);
        if (!file)
            return false;
    }
    // Reserved by the put's reserveFor(); not when re-dispatching a log whose queue files are gone.
    if (!file->reserveThrough(file->wrotePosition() + kUnitSize, error))
        return false;
    ConsumeQueueEntry unit;
    unit.commitLogOffset = commitLogOffset;
    unit.size = size;
    unit.tagsCode = tagsCode;
    unit.storeTimestamp = storeTimestamp;
    unit.queueOffset = queueOffset;
    unit.batchSize = batchSize;
    writeUnit(file->appendTarget() + file->wrotePosition(), unit);
    file->advanceWrote(kUnitSize, storeTimestamp);
    if (empty)
        minOffset_.store(queueOffset, std::memory_order_release);
    maxOffset_.store(queueOffset + batchSize, std::memory_order_release);
    maxPhysicOffset_.store(commitLogOffset + size, std::memory_order_release);
    return true;
}

std::vector<ConsumeQueueEntry> BatchConsumeQueue::entriesFrom(int64_t queueOffset, int maxCount) const
{
    std::vector<ConsumeQueueEntry> entries;
    if (queueOffset < 0 || maxCount <= 0)
        return entries;
    const auto files = queue_.files();
    // The last file whose first unit starts at or before the offset (the first file otherwise).
    size_t index = 0;
    for (size_t i = files.size(); i-- > 0;) {
        if (files[i]->readPosition() >= kUnitSize && readUnit(files[i]->data()).queueOffset <= queueOffset) {
            index = i;
            break;
        }
    }
    for (; index < files.size() && entries.empty(); ++index) {
        const MappedFile &file = *files[index];
        // The first unit whose batch ends past the offset.
        int64_t low = 0;
        int64_t high = file.readPosition() / kUnitSize;
        const int64_t units = high;
        while (low < high) {
            const int64_t middle = low + (high - low) / 2;
            const ConsumeQueueEntry unit = readUnit(file.data() + middle * kUnitSize);
            if (unit.queueOffset + unit.batchSize > queueOffset)
                high = middle;
            else
                low = middle + 1;
        }
        for (int64_t at = low; at < units && static_cast<int>(entries.size()) < maxCount; ++at)
            entries.push_back(readUnit(file.data() + at * kUnitSize));
    }
    return entries;
}

bool BatchConsumeQueue::rewriteEntry(int64_t queueOffset, const ConsumeQueueEntry &, std::string &error)
{
    error = "batch consume queue " + topic_ + "/" + std::to_string(queueId_) + ": the unit of queue offset "
            + std::to_string(queueOffset) + " is not rebuilt from the commit log";
    return false;
}

void BatchConsumeQueue::correctMinOffset(int64_t commitLogMinOffset)
{
    const auto files = queue_.files();
    if (files.empty())
        return;
    const MappedFile &first = *files.front();
    int64_t low = 0;
    int64_t high = first.readPosition() / kUnitSize; // exclusive
    const int64_t units = high;
    while (low < high) {
        const int64_t middle = low + (high - low) / 2;
        if (commitLogOffsetAt(first, middle * kUnitSize) >= commitLogMinOffset)
            high = middle;
        else
            low = middle + 1;
    }
    int64_t minOffset = maxOffset();
    if (low < units)
        minOffset = readUnit(first.data() + low * kUnitSize).queueOffset;
    else if (files.size() > 1 && files[1]->readPosition() >= kUnitSize)
        minOffset = readUnit(files[1]->data()).queueOffset;
    minOffset_.store(std::max(minOffset, minOffset_.load()), std::memory_order_release);
}

} // namespace mqdesk::store
