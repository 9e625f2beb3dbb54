#include "broker/store/timer_log.h"

#include "broker/common/bytes.h"
#include "broker/store/mapped_file.h"

namespace mqdesk::store {

using common::readInt32;
using common::readInt64;
using common::writeInt32;
using common::writeInt64;

void TimerLogUnit::encode(uint8_t *out) const
{
    writeInt32(out, size);
    writeInt64(out + 4, prevPos);
    writeInt32(out + 12, magic);
    writeInt64(out + 16, writeTimeMs);
    writeInt32(out + 24, delayMs);
    writeInt64(out + 28, commitLogOffset);
    writeInt32(out + 36, commitLogSize);
    writeInt32(out + 40, realTopicHash);
    writeInt64(out + 44, 0);
}

TimerLogUnit TimerLogUnit::decode(const uint8_t *in)
{
    TimerLogUnit unit;
    unit.size = readInt32(in);
    unit.prevPos = readInt64(in + 4);
    unit.magic = readInt32(in + 12);
    unit.writeTimeMs = readInt64(in + 16);
    unit.delayMs = readInt32(in + 24);
    unit.commitLogOffset = readInt64(in + 28);
    unit.commitLogSize = readInt32(in + 36);
    unit.realTopicHash = readInt32(in + 40);
    return unit;
}

TimerLog::TimerLog(std::string directory, int64_t fileSize)
    : files_(std::move(directory), fileSize, MappedFile::Reservation::AsAppended)
{}

int64_t TimerLog::append(const TimerLogUnit &unit, std::string &error)
{
    std::shared_ptr<MappedFile> file = files_.lastFile();
    if (!file || file->isFull()) {
        file = files_.createFile(file ? file->fileFromOffset() + files_.fileSize() : 0, error);
        if (!file)
            return -1;
    }
    if (TimerLogUnit::kSize + kMinBlankLength > file->fileSize() - file->wrotePosition()) {
        // The end-of-file marker claims the rest of the file, so the file reads as full.
        const int64_t remaining = file->fileSize() - file->wrotePosition();
        if (!file->reserveThrough(file->wrotePosition() + kMinBlankLength, error))
            return -1;
        uint8_t *blank = file->appendTarget() + file->wrotePosition();
        writeInt32(blank, static_cast<int32_t>(remaining));
        writeInt64(blank + 4, 0);
        writeInt32(blank + 12, kBlankMagic);
        file->advanceWrote(remaining, file->lastStoreTimestamp());
        file = files_.createFile(file->fileFromOffset() + files_.fileSize(), error);
        if (!file)
            return -1;
    }
    // The file is sparse: a full disk refuses the unit here rather than in the copy (SIGBUS).
    if (!file->reserveThrough(file->wrotePosition() + TimerLogUnit::kSize, error))
        return -1;
    const int64_t offset = file->fileFromOffset() + file->wrotePosition();
    unit.encode(file->appendTarget() + file->wrotePosition());
    file->advanceWrote(TimerLogUnit::kSize, file->lastStoreTimestamp());
    return offset;
}

std::optional<TimerLogUnit> TimerLog::read(int64_t offset) const
{
    const std::shared_ptr<MappedFile> file = files_.findFileByOffset(offset);
    if (!file)
        return std::nullopt;
    const int64_t position = offset - file->fileFromOffset();
    if (position < 0 || position + TimerLogUnit::kSize > file->readPosition())
        return std::nullopt;
    return TimerLogUnit::decode(file->data() + position);
}

bool TimerLog::flushAll(std::string &error)
{
    for (;;) {
        const MappedFileQueue::SyncResult result = files_.flush(0);
        if (result.failed) {
            error = result.error;
            return false;
        }
        if (result.bytes == 0)
            return true;
    }
}

int64_t TimerLog::offsetOfLastUnit() const
{
    const int64_t size = files_.fileSize();
    return size - (size - kMinBlankLength) % TimerLogUnit::kSize - kMinBlankLength - TimerLogUnit::kSize;
}

int TimerLog::deleteExpiredFiles(int64_t minCommitLogOffset, std::string &error)
{
    int deleted = 0;
    for (;;) {
        if (files_.fileCount() < 2)
            return deleted;
        const std::shared_ptr<MappedFile> first = files_.firstFile();
        const int64_t at = offsetOfLastUnit();
        if (at < 0 || at + TimerLogUnit::kSize > first->readPosition())
            return deleted;
        const TimerLogUnit unit = TimerLogUnit::decode(first->data() + at);
        if (unit.size != TimerLogUnit::kSize || !TimerLogUnit::magicOk(unit.magic) || unit.commitLogOffset >= minCommitLogOffset)
            return deleted;
        if (!files_.deleteFirstFile(error))
            return deleted;
        ++deleted;
    }
}

} // namespace mqdesk::store
