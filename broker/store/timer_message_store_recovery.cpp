// TimerMessageStore's recovery (Java's TimerMessageStore.recover / recoverAndRevise /
// reviseQueueOffset): rebuild what the wheel may have lost since its last flush from the timer
// log, cut the log at its first bad unit, and find where parking and delivery resume.

#include "broker/common/clock.h"
#include "broker/store/consume_queue.h"
#include "broker/store/consume_queue_store.h"
#include "broker/store/mapped_file.h"
#include "broker/store/message_store.h"
#include "broker/store/timer_checkpoint.h"
#include "broker/store/timer_log.h"
#include "broker/store/timer_message_store.h"
#include "broker/store/timer_put_transform.h"
#include "broker/store/timer_wheel.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace mqdesk::store {

void TimerMessageStore::recover()
{
    int64_t from = checkpoint_->lastTimerLogFlushPos();
    if (const auto last = log_->files().lastFile())
        from -= last->fileSize(); // re-read the whole file before the flushed position
    const int64_t logEnd = recoverAndRevise(std::max<int64_t>(from, 0), true);
    log_->files().setFlushedWhere(logEnd);

    const auto lastQueueOffset = queueOffsetOfUnitBefore(logEnd);
    int64_t queueOffset = lastQueueOffset ? *lastQueueOffset + 1 : checkpoint_->lastTimerQueueOffset();
    queueOffset = std::min(queueOffset, checkpoint_->masterTimerQueueOffset());
    if (const auto queue = store_.consumeQueues().find(std::string(kTimerTopic), 0))
        queueOffset = std::clamp(queueOffset, queue->minOffset(), std::max(queue->minOffset(), queue->maxOffset()));
    currQueueOffset_ = queueOffset;

    // Slots older than the wheel's span have been overwritten: start at most that far back.
    const int64_t oldest = common::wallMillis() / precisionMs_ * precisionMs_ - int64_t{kSlotsTotal} * precisionMs_
                           + int64_t{kBlankSlots} * precisionMs_;
    const int64_t readTime = std::max(checkpoint_->lastReadTimeMs(), oldest);
    currReadTimeMs_ = readTime;
    // A slot pointing beyond the log's end means the log lost its tail: re-read from the
    // earliest unit such a slot starts at.
    const int64_t minFirst = wheel_->checkPhyPos(readTime, logEnd);
    if (minFirst < logEnd) {
        spdlog::warn("timer: the wheel points beyond the timer log's end {}; re-reading it from {}", logEnd, minFirst);
        recoverAndRevise(minFirst, false);
    }
    commitReadTimeMs_ = readTime;
    commitQueueOffset_ = queueOffset;
    spdlog::info("timer: recovered, read time {}, queue offset {} (checkpoint {}), timer log ends at {}", readTime,
                 queueOffset, checkpoint_->lastTimerQueueOffset(), logEnd);
    prepareCheckpoint();
}

// Scans the timer log from the file holding `beginOffset` and points each unit's slot at it.
// With `checkTimerLog` the scan stops at the first unit that is not a valid 52-byte unit and the
// log is cut there. Returns the offset the scan ended at.
int64_t TimerMessageStore::recoverAndRevise(int64_t beginOffset, bool checkTimerLog)
{
    const auto files = log_->files().files();
    if (files.empty())
        return 0;
    size_t index = files.size() - 1;
    while (index > 0 && beginOffset < files[index]->fileFromOffset())
        --index;
    int64_t checkOffset = files[index]->fileFromOffset();
    for (; index < files.size(); ++index) {
        const MappedFile &file = *files[index];
        const int64_t end = checkTimerLog ? file.fileSize() : file.readPosition();
        int64_t position = 0;
        bool stop = false;
        for (; position + TimerLogUnit::kSize <= end; position += TimerLogUnit::kSize) {
            const TimerLogUnit unit = TimerLogUnit::decode(file.data() + position);
            if (unit.magic == TimerLog::kBlankMagic)
                break;
            if (checkTimerLog && (!TimerLogUnit::magicOk(unit.magic) || unit.size != TimerLogUnit::kSize)) {
                stop = true;
                break;
            }
            if (unit.size == TimerLogUnit::kSize && TimerLogUnit::magicOk(unit.magic))
                wheel_->reviseSlot(unit.targetMs(), TimerWheel::kIgnore, file.fileFromOffset() + position, true);
        }
        checkOffset = file.fileFromOffset() + position;
        if (stop)
            break;
    }
    if (checkTimerLog) {
        std::string error;
        if (!log_->files().truncateDirtyFiles(checkOffset, error))
            spdlog::error("timer: cannot cut the timer log at {}: {}", checkOffset, error);
    }
    return checkOffset;
}

// The timer-queue offset of the message the last unit before `logEnd` parks: what was parked
// last. Its record's queue offset is checked against the queue (Java's reviseQueueOffset).
std::optional<int64_t> TimerMessageStore::queueOffsetOfUnitBefore(int64_t logEnd) const
{
    const auto unit = logEnd >= TimerLogUnit::kSize ? log_->read(logEnd - TimerLogUnit::kSize) : std::nullopt;
    if (!unit || unit->size != TimerLogUnit::kSize)
        return std::nullopt;
    const auto stored = store_.lookMessageByOffset(unit->commitLogOffset);
    if (!stored)
        return std::nullopt;
    const auto queue = store_.consumeQueues().find(std::string(kTimerTopic), stored->queueId);
    if (!queue)
        return stored->queueOffset;
    for (int64_t offset = stored->queueOffset, tries = 0; offset >= 0 && tries < 20000; --offset, ++tries) {
        const auto entries = queue->entriesFrom(offset, 1);
        if (!entries.empty() && entries.front().commitLogOffset == unit->commitLogOffset
            && entries.front().size == unit->commitLogSize)
            return offset;
    }
    return stored->queueOffset;
}

} // namespace mqdesk::store
