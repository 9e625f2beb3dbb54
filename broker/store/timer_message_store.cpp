#include "broker/store/timer_message_store.h"

#include "broker/common/clock.h"
#include "broker/common/java_hash.h"
#include "broker/common/service_thread.h"
#include "broker/store/commit_log.h"
#include "broker/store/config/timer_metrics.h"
#include "broker/store/consume_queue.h"
#include "broker/store/consume_queue_store.h"
#include "broker/store/message_store.h"
#include "broker/store/timer_checkpoint.h"
#include "broker/store/timer_log.h"
#include "broker/store/timer_put_transform.h"
#include "broker/store/timer_wheel.h"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <functional>
#include <limits>
#include <set>
#include <thread>
#include <vector>

namespace mqdesk::store {

namespace {

namespace tp = timer_property;
constexpr int kEnqueueBatch = 32;
constexpr int64_t kCleanIntervalMillis = 30000; // Java's timerlog cleaning period

int32_t rollWindowOf(const MessageStoreConfig &config)
{
    const int32_t slots = TimerMessageStore::kSlotsTotal;
    if (config.timerRollWindowSlot > slots - TimerMessageStore::kBlankSlots || config.timerRollWindowSlot < 2)
        return slots - TimerMessageStore::kBlankSlots;
    return config.timerRollWindowSlot;
}

std::string deleteKey(std::string_view realTopic, std::string_view uniqKey)
{
    return std::string(realTopic) + "+" + std::string(uniqKey); // Java's buildDeleteKey
}

} // namespace

// One of the timer's loops on its own thread: `step` returns false when it found nothing to do,
// and the loop then waits `idle` (or a wakeup).
class TimerMessageStore::Service : public common::ServiceThread
{
public:
    Service(std::string name, std::function<bool()> step, std::chrono::milliseconds idle)
        : ServiceThread(std::move(name)), step_(std::move(step)), idle_(idle)
    {}
    ~Service() override { stop(); }

protected:
    void run() override
    {
        while (!isStopped()) {
            if (!step_())
                waitForRunning(idle_);
        }
    }

private:
    std::function<bool()> step_;
    std::chrono::milliseconds idle_;
};

TimerMessageStore::TimerMessageStore(MessageStore &store, const MessageStoreConfig &config)
    : store_(store), config_(config), precisionMs_(config.timerPrecisionMs), rollWindowSlots_(rollWindowOf(config))
{}

TimerMessageStore::~TimerMessageStore()
{
    shutdown();
}

bool TimerMessageStore::load(std::string &error)
{
    const std::string root = config_.rootDir();
    std::error_code ec;
    std::filesystem::create_directories(root + "/config", ec);
    if (ec) {
        error = "cannot create " + root + "/config: " + ec.message();
        return false;
    }
    wheel_ = TimerWheel::open(root + "/timerwheel", kSlotsTotal, precisionMs_, error);
    if (!wheel_)
        return false;
    log_ = std::make_unique<TimerLog>(root + "/timerlog", config_.mappedFileSizeTimerLog);
    if (!log_->load(error))
        return false;
    checkpoint_ = TimerCheckpoint::open(root + "/config/timercheck", error);
    if (!checkpoint_)
        return false;
    metrics_ = std::make_unique<TimerMetrics>();
    if (!metrics_->load(root + "/config", error))
        return false;
    recover();
    loaded_ = true;
    return true;
}

void TimerMessageStore::start()
{
    if (running_ || !loaded_)
        return;
    shouldStartTimeMs_ = common::wallMillis() + config_.disappearTimeAfterStart;
    stopping_ = false;
    maybeMoveWriteTime();
    const auto idle = std::chrono::milliseconds(std::max(1, 100 * precisionMs_ / 1000));
    enqueueService_ = std::make_unique<Service>("TimerEnqueue", [this] { return enqueueOnce(); }, idle);
    dequeueService_ = std::make_unique<Service>(
        "TimerDequeue",
        [this] { return common::wallMillis() >= shouldStartTimeMs_ && dequeueOnce() != -1; }, idle);
    flushService_ = std::make_unique<Service>(
        "TimerFlush",
        [this, lastClean = common::steadyMicros() / 1000]() mutable {
            flushOnce();
            if (const int64_t now = common::steadyMicros() / 1000; now - lastClean >= kCleanIntervalMillis) {
                lastClean = now;
                cleanExpiredFiles();
            }
            return false;
        },
        std::chrono::milliseconds(config_.timerFlushIntervalMs));
    enqueueService_->start();
    dequeueService_->start();
    flushService_->start();
    running_ = true;
}

void TimerMessageStore::shutdown()
{
    if (shutDown_)
        return; // once: the message store shuts it down, then destroys it with itself
    shutDown_ = true;
    if (running_) {
        running_ = false;
        stopping_ = true; // a put retrying in a loop gives up; its progress stays uncommitted
        enqueueService_->stop();
        dequeueService_->stop();
        flushService_->stop();
    }
    if (loaded_)
        flushOnce(); // not after a failed load: some files may not be open
}

bool TimerMessageStore::enqueueOnce()
{
    if (config_.timerStopEnqueue) {
        maybeMoveWriteTime(); // delivery of what is parked goes on (Java's put service keeps moving it)
        return false;
    }
    const auto queue = store_.consumeQueues().find(std::string(kTimerTopic), 0);
    if (!queue) {
        maybeMoveWriteTime();
        return false;
    }
    int64_t offset = currQueueOffset_.load();
    if (offset < queue->minOffset()) {
        spdlog::warn("timer: queue offset {} is below the timer queue's min {}; skipping ahead", offset,
                     queue->minOffset());
        offset = queue->minOffset();
    }
    const std::vector<ConsumeQueueEntry> entries = queue->entriesFrom(offset, kEnqueueBatch);
    for (const ConsumeQueueEntry &entry : entries) {
        if (!entry.isFiller()) {
            const auto stored = store_.lookMessageByOffset(entry.commitLogOffset);
            const auto out = stored ? stored->properties.get(tp::kOutMs) : std::nullopt;
            const auto targetMs = out ? parseJavaLong(*out) : std::nullopt;
            if (!stored) {
                spdlog::warn("timer: no record at {} for timer queue offset {}; skipped", entry.commitLogOffset, offset);
            } else if (!targetMs) {
                spdlog::error("timer: record at {} has no valid TIMER_OUT_MS; skipped", entry.commitLogOffset);
            } else if (*targetMs < currWriteTimeMs_.load()) {
                // Due already (a backlog after a stop): delivered now, never parked.
                while (!deliver(*stored, std::numeric_limits<int64_t>::max(), false)) {
                    if (stopping_.load())
                        return true; // offset not committed: parked again after the restart
                }
            } else if (!doEnqueue(entry.commitLogOffset, entry.size, *targetMs, *stored)) {
                return true; // retried from this offset on the next turn
            }
        }
        currQueueOffset_ = ++offset;
    }
    commitQueueOffset_ = currQueueOffset_.load();
    maybeMoveWriteTime();
    return !entries.empty();
}

bool TimerMessageStore::doEnqueue(int64_t commitLogOffset, int32_t size, int64_t targetMs,
                                  const common::StoredMessage &message)
{
    const int64_t writeTimeMs = currWriteTimeMs_.load();
    const int64_t window = int64_t{rollWindowSlots_} * precisionMs_;
    TimerLogUnit unit;
    if (targetMs - writeTimeMs >= window) {
        unit.magic |= TimerLogUnit::kMagicRoll;
        // Parked a window ahead at most; half a window when the rest would be a short last hop.
        targetMs = targetMs - writeTimeMs - window < int64_t{rollWindowSlots_ / 3} * precisionMs_
                       ? writeTimeMs + int64_t{rollWindowSlots_ / 2} * precisionMs_
                       : writeTimeMs + window;
    }
    const bool isDelete = message.properties.get(tp::kDelUniqKey).has_value();
    if (isDelete)
        unit.magic |= TimerLogUnit::kMagicDelete;
    const auto realTopic = message.properties.get(common::property::kRealTopic);
    const TimerSlot slot = wheel_->slot(targetMs);
    unit.prevPos = slot.lastPos;
    unit.writeTimeMs = writeTimeMs;
    unit.delayMs = static_cast<int32_t>(targetMs - writeTimeMs);
    unit.commitLogOffset = commitLogOffset;
    unit.commitLogSize = size;
    unit.realTopicHash = realTopic ? common::javaStringHashCode(*realTopic) : 0;
    std::string error;
    const int64_t position = log_->append(unit, error);
    if (position < 0) {
        spdlog::error("timer: cannot append to the timer log: {}", error);
        return false;
    }
    wheel_->putSlot(targetMs, slot.firstPos == -1 ? position : slot.firstPos, position,
                    isDelete ? slot.num - 1 : slot.num + 1, slot.magic);
    addMetric(message, isDelete ? -1 : 1);
    return true;
}

int TimerMessageStore::dequeueOnce()
{
    if (config_.timerStopDequeue)
        return -1;
    const int64_t readTimeMs = currReadTimeMs_.load();
    if (readTimeMs >= currWriteTimeMs_.load())
        return -1;
    const TimerSlot slot = wheel_->slot(readTimeMs);
    if (slot.timeMs != -1)
        deliverSlot(readTimeMs, slot.lastPos);
    if (stopping_.load() && slot.timeMs != -1)
        return 1; // stopped midway: the slot is delivered again after the restart
    currReadTimeMs_ = readTimeMs + precisionMs_;
    commitReadTimeMs_ = currReadTimeMs_.load();
    return slot.timeMs == -1 ? 0 : 1;
}

void TimerMessageStore::deliverSlot(int64_t slotTimeMs, int64_t lastPos)
{
    std::set<std::string> deletedKeys;
    std::vector<TimerLogUnit> units; // newest first, as the chain runs
    for (int64_t pos = lastPos; pos != -1;) {
        const auto unit = log_->read(pos);
        if (!unit) {
            spdlog::error("timer: slot {} points at timer log offset {}, which is not held; rest of its chain skipped",
                          slotTimeMs, pos);
            break;
        }
        units.push_back(*unit);
        pos = unit->prevPos;
    }
    std::vector<std::pair<TimerLogUnit, common::StoredMessage>> due;
    for (auto it = units.rbegin(); it != units.rend(); ++it) { // log order
        auto stored = store_.lookMessageByOffset(it->commitLogOffset);
        if (!stored) {
            spdlog::warn("timer: no record at {} (slot {}); skipped", it->commitLogOffset, slotTimeMs);
            continue;
        }
        if (it->deleteMarker() && !it->roll()) {
            if (const auto key = stored->properties.get(tp::kDelUniqKey))
                deletedKeys.insert(std::string(*key));
            continue;
        }
        due.emplace_back(*it, std::move(*stored));
    }
    for (const auto &[unit, stored] : due) {
        const auto uniq = stored.properties.get(common::property::kUniqClientMessageId);
        const auto realTopic = stored.properties.get(common::property::kRealTopic);
        if (uniq && realTopic && deletedKeys.contains(deleteKey(*realTopic, *uniq)))
            continue; // cancelled by a delete marker of the same slot
        addMetric(stored, -1);
        while (!deliver(stored, unit.writeTimeMs, unit.roll())) {
            if (stopping_.load())
                return;
        }
    }
}

bool TimerMessageStore::deliver(const common::StoredMessage &stored, int64_t enqueueTimeMs, bool roll)
{
    common::BrokerMessage message = common::toBrokerMessage(stored);
    if (!roll && message.properties.get(tp::kDelUniqKey)) {
        spdlog::warn("timer: a delete marker at {} came due; dropped", stored.physicalOffset);
        return true;
    }
    message.properties.set(tp::kEnqueueMs, std::to_string(enqueueTimeMs));
    if (roll) {
        const auto times = message.properties.get(tp::kRollTimes);
        const auto parsed = times ? parseJavaLong(*times) : std::nullopt;
        message.properties.set(tp::kRollTimes, std::to_string(parsed ? *parsed + 1 : 1));
    }
    message.properties.set(tp::kDequeueMs, std::to_string(common::wallMillis()));
    message.waitStoreMsgOk = false;
    message.preparedTransactionOffset = 0;
    if (!roll) {
        const auto realTopic = message.properties.get(common::property::kRealTopic);
        const auto realQueue = message.properties.get(common::property::kRealQueueId);
        const auto queueId = realQueue ? parseJavaLong(*realQueue) : std::nullopt;
        if (!realTopic || !queueId) {
            spdlog::error("timer: record at {} has no REAL_TOPIC/REAL_QID; dropped", stored.physicalOffset);
            return true;
        }
        message.topic = std::string(*realTopic);
        message.queueId = static_cast<int32_t>(*queueId);
    }
    for (int attempt = 1;; ++attempt) {
        const PutMessageResult result = store_.putMessage(message);
        if (result.stored())
            return true;
        const bool retry = result.status == PutMessageStatus::ServiceNotAvailable
                           || result.status == PutMessageStatus::CreateMappedFileFailed
                           || (result.status == PutMessageStatus::UnknownError && !config_.timerSkipUnknownError);
        if (!retry || (!config_.timerEnableRetryUntilSuccess && attempt >= 3)) {
            spdlog::error("timer: delivering the record at {} to {}:{} failed ({} {}); dropped", stored.physicalOffset,
                          message.topic, message.queueId, putStatusName(result.status), result.error);
            return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(500 * precisionMs_ / 1000));
        if (stopping_.load())
            return false;
    }
}

void TimerMessageStore::maybeMoveWriteTime()
{
    const int64_t now = common::wallMillis() / precisionMs_ * precisionMs_;
    if (currWriteTimeMs_.load() < now)
        currWriteTimeMs_ = now;
}

std::vector<PendingTimerMessage> TimerMessageStore::pending(int64_t fromMs, int64_t toMs, size_t maxMessages) const
{
    std::vector<PendingTimerMessage> out;
    if (!wheel_ || !log_)
        return out;
    const int64_t start = std::max(fromMs, currReadTimeMs_.load()) / precisionMs_ * precisionMs_;
    for (int64_t slotMs = start; slotMs < toMs && out.size() < maxMessages; slotMs += precisionMs_) {
        const TimerSlot slot = wheel_->slot(slotMs);
        if (slot.timeMs == -1 || slot.num <= 0)
            continue;
        std::vector<PendingTimerMessage> chain; // newest first
        for (int64_t pos = slot.lastPos; pos != -1 && chain.size() < static_cast<size_t>(slot.num);) {
            const auto unit = log_->read(pos);
            if (!unit)
                break;
            if (!unit->deleteMarker() || unit->roll())
                chain.push_back({slotMs, unit->commitLogOffset, unit->commitLogSize, unit->realTopicHash, unit->roll()});
            pos = unit->prevPos;
        }
        for (auto it = chain.rbegin(); it != chain.rend() && out.size() < maxMessages; ++it)
            out.push_back(*it);
    }
    return out;
}

int64_t TimerMessageStore::parkedCount() const
{
    return wheel_ ? wheel_->allNum(currReadTimeMs_.load()) : 0;
}

int64_t TimerMessageStore::slotCount(int64_t deliverMs) const
{
    return wheel_ ? wheel_->slot(deliverMs).num : 0;
}

void TimerMessageStore::addMetric(const common::StoredMessage &message, int64_t delta)
{
    const auto realTopic = message.properties.get(common::property::kRealTopic);
    if (!realTopic)
        return;
    const auto enqueued = message.properties.get(tp::kEnqueueMs);
    if (enqueued && parseJavaLong(*enqueued) == std::numeric_limits<int64_t>::max())
        return;
    metrics_->add(std::string(*realTopic), delta);
}

void TimerMessageStore::prepareCheckpoint()
{
    checkpoint_->setLastTimerLogFlushPos(log_->files().flushedWhere());
    checkpoint_->setLastReadTimeMs(commitReadTimeMs_.load());
    // A master (the only role MQDesk has) is its own master: both offsets are the committed one.
    const int64_t queueOffset = commitQueueOffset_.load();
    checkpoint_->setMasterTimerQueueOffset(queueOffset);
    if (commitReadTimeMs_.load() != lastCommitReadTimeMs_ || queueOffset != lastCommitQueueOffset_) {
        checkpoint_->nextVersion(0);
        lastCommitReadTimeMs_ = commitReadTimeMs_.load();
        lastCommitQueueOffset_ = queueOffset;
    }
    checkpoint_->setLastTimerQueueOffset(std::min(queueOffset, checkpoint_->masterTimerQueueOffset()));
}

int TimerMessageStore::cleanExpiredFiles()
{
    std::string error;
    const int deleted = log_->deleteExpiredFiles(store_.commitLog().minOffset(), error);
    if (!error.empty())
        spdlog::error("timer: timerlog retention: {}", error);
    if (deleted > 0)
        spdlog::info("timer: deleted {} timerlog file(s) whose messages left the commit log", deleted);
    return deleted;
}

void TimerMessageStore::flushOnce()
{
    std::string error;
    prepareCheckpoint();
    if (!log_->flushAll(error))
        spdlog::error("timer: {}", error);
    if (!wheel_->flush(error))
        spdlog::error("timer: {}", error);
    if (!checkpoint_->flush(error))
        spdlog::error("timer: {}", error);
    if (!metrics_->persist(error))
        spdlog::error("timer: {}", error);
}

} // namespace mqdesk::store
