#include "broker/store/message_store.h"

#include "broker/common/clock.h"
#include "broker/common/java_strings.h"
#include "broker/common/service_thread.h"
#include "broker/store/consume_queue_store.h"
#include "broker/store/index_service.h"
#include "broker/store/reput_message_service.h"
#include "broker/store/store_checkpoint.h"
#include "broker/store/store_files.h"
#include "broker/store/store_paths.h"
#include "broker/store/store_services.h"
#include "broker/store/timer_message_store.h"
#include "broker/store/timer_put_transform.h"

#include <spdlog/spdlog.h>

#include <charconv>
#include <chrono>
#include <filesystem>
#include <thread>

namespace mqdesk::store {

class StoreTicker : public common::ServiceThread
{
public:
    explicit StoreTicker(MessageStore &store) : ServiceThread("StoreTicker"), store_(store) {}
    ~StoreTicker() override { stop(); }

protected:
    void run() override
    {
        using namespace std::chrono;
        while (!isStopped()) {
            // Tick on whole wall-clock seconds so samples line up with the clock the user sees.
            const auto now = system_clock::now();
            const auto next = ceil<seconds>(now + milliseconds(1));
            sleepFor(duration_cast<milliseconds>(next - now));
            if (isStopped())
                break;
            store_.tick();
        }
    }

private:
    MessageStore &store_;
};

MessageStore::MessageStore(MessageStoreConfig config) : config_(std::move(config)) {}

MessageStore::~MessageStore()
{
    shutdown();
}

bool MessageStore::open(std::string &error)
{
    const std::string root = config_.rootDir();
    std::error_code ec;
    std::filesystem::create_directories(root, ec);
    if (ec) {
        error = "cannot create the store directory " + root + ": " + ec.message();
        return false;
    }
    delayLevelMillis_ = parseDelayLevels(config_.messageDelayLevel);
    if (delayLevelMillis_.empty()) {
        // RocketMQ refuses to start on a table it cannot parse, too.
        error = "messageDelayLevel '" + config_.messageDelayLevel
                + "' is not a space-separated list of <number><s|m|h|d> delays";
        return false;
    }
    lock_ = StoreLock::acquire(root, error);
    if (!lock_)
        return false;

    const bool lastExitOk = !abort_file::exists(root);
    checkpoint_ = StoreCheckpoint::open(root + "/checkpoint", error);
    if (!checkpoint_ || !recover(lastExitOk, error)) {
        reput_.reset();
        index_.reset();
        consumeQueues_.reset();
        commitLog_.reset();
        lock_.reset();
        return false;
    }
    if (config_.timerWheelEnable) {
        // After recovery (the timer queue is complete), before any put (the wheel must be
        // there for the transform's flow control).
        timer_ = std::make_unique<TimerMessageStore>(*this, config_);
        if (!timer_->load(error)) {
            error = "timer store: " + error;
            timer_.reset();
            reput_.reset();
            index_.reset();
            consumeQueues_.reset();
            commitLog_.reset();
            lock_.reset();
            return false;
        }
    }
    startServices();
    if (timer_)
        timer_->start();
    if (!abort_file::create(root, error)) {
        shutdown();
        return false;
    }
    return true;
}

bool MessageStore::recover(bool lastExitOk, std::string &error)
{
    const std::string root = config_.rootDir();
    commitLog_ = std::make_unique<CommitLog>(config_, *checkpoint_, metrics_);
    consumeQueues_ = std::make_unique<ConsumeQueueStore>(root + "/consumequeue", config_.mappedFileSizeConsumeQueue,
                                                         root + "/batchconsumequeue",
                                                         config_.mapperFileSizeBatchConsumeQueue);
    consumeQueues_->setBatchTopicTest(batchTopicTest_);
    index_ = std::make_unique<IndexService>(config_);
    if (!commitLog_->load(error) || !consumeQueues_->load(error) || !index_->load(lastExitOk, *checkpoint_, error))
        return false;

    int64_t dispatchFrom = -1;
    if (!consumeQueues_->recover(dispatchFrom, error, recoveryProgress_)
        || !commitLog_->recover(lastExitOk, recovery_, error, recoveryProgress_))
        return false;
    // Queues and index never point past the log, and never below what retention left of it.
    int droppedIndexFiles = 0;
    int64_t cutQueuesEnd = -1;
    if (!consumeQueues_->truncateDirty(recovery_.processOffset, cutQueuesEnd, error)
        || !index_->truncateDirtyFiles(recovery_.processOffset, droppedIndexFiles, error))
        return false;
    consumeQueues_->correctMinOffsets(commitLog_->minOffset());

    std::vector<ReputMessageService::Dispatcher> dispatchers;
    dispatchers.emplace_back([this](const DispatchRequest &request, std::string &failure) {
        if (!common::sysflag::hasQueueEntry(request.sysFlag))
            return true;
        auto queue = consumeQueues_->find(request.topic, request.queueId, true, &failure);
        if (!queue) {
            if (!unsafePathComponentReason(request.topic).empty()) {
                // A record no put of ours can make (a store written elsewhere): it can never have
                // a queue, so report it and go on instead of retrying.
                if (const auto held = unsafeTopicLog_.admit())
                    spdlog::error("dispatch: record at commit-log offset {}: {}; it gets no consume-queue entry{}",
                                  request.commitLogOffset, failure, common::LogRateLimiter::heldNote(*held));
                return true;
            }
            return false;
        }
        if (!queue->putEntry(request.commitLogOffset, request.msgSize, request.tagsCode,
                             request.consumeQueueOffset, request.storeTimestamp, request.batchSize, failure))
            return false;
        if (arrivingListener_)
            arrivingListener_(request);
        if (config_.enableMultiDispatch && !request.multiDispatch.empty())
            dispatchToLmqs(request);
        return true;
    });
    if (config_.messageIndexEnable)
        dispatchers.emplace_back([this](const DispatchRequest &request, std::string &) {
            // The index is a lookup aid that retention may drop anyway: a record it cannot take
            // is reported and the queues keep flowing.
            std::string failure;
            if (!index_->buildIndex(request, failure)) {
                if (const auto held = indexFailureLog_.admit())
                    spdlog::error("dispatch: index: {}{}", failure, common::LogRateLimiter::heldNote(*held));
            }
            return true;
        });
    commitLog_->setQueueReserver([this](std::string_view topic, int32_t queueId, int64_t firstQueueOffset,
                                        int32_t count, std::string &failure) {
        const auto queue = consumeQueues_->find(std::string(topic), queueId, true, &failure);
        return queue && queue->reserveFor(firstQueueOffset, count, failure);
    });
    reput_ = std::make_unique<ReputMessageService>(*commitLog_, std::move(dispatchers), delayLevelMillis_);

    // After a clean stop every queue holds everything, so dispatch resumes where the queues end;
    // after a crash some queues may lag others, so everything from the recovery start is
    // dispatched again (the queues and the index skip what they already have).
    int64_t reputFrom = lastExitOk && dispatchFrom >= 0 ? dispatchFrom : recovery_.startOffset;
    if ((!lastExitOk || droppedIndexFiles > 0) && config_.messageIndexEnable) {
        // The index dropped files (newer than the checkpoint, or holding records the log lost);
        // they may begin before the recovery start, so dispatch again from where the kept files end.
        const auto indexFiles = index_->files();
        reputFrom = std::min(reputFrom, indexFiles.empty() ? commitLog_->minOffset()
                                                           : indexFiles.back().header.endPhyOffset);
    }
    if (cutQueuesEnd >= 0 && lastExitOk && cutQueuesEnd < reputFrom)
        spdlog::warn("store {}: a consume queue's last entries pointed past the commit log after a clean stop (a "
                     "damaged file); they were dropped and are dispatched again from commit-log offset {}",
                     root, cutQueuesEnd);
    if (cutQueuesEnd >= 0)
        reputFrom = std::min(reputFrom, cutQueuesEnd); // a queue's tail pointed past the log: refill it
    reputFrom = std::clamp(reputFrom, commitLog_->minOffset(), recovery_.processOffset);
    reput_->setReputFromOffset(reputFrom);
    PhaseProgress dispatched(recoveryProgress_, "dispatch", recovery_.processOffset - reputFrom);
    reput_->dispatchAvailable([&](int64_t offset) { dispatched.report(offset - reputFrom); });
    dispatched.finish();
    commitLog_->setQueueOffsetTable(consumeQueues_->queueOffsetTable());
    spdlog::info("store {}: {} recovery scanned {} records from offset {}, log ends at {} ({}); "
                 "dispatched from {}", root, lastExitOk ? "normal" : "abnormal", recovery_.recordsScanned,
                 recovery_.startOffset, recovery_.processOffset, recovery_.stopReason, reputFrom);
    return true;
}

void MessageStore::startServices()
{
    commitLog_->start();
    reput_->start();
    consumeQueueFlusher_ = std::make_unique<FlushConsumeQueueService>(*this);
    consumeQueueFlusher_->start();
    cleaner_ = std::make_unique<StoreCleaner>(*this);
    ticker_ = std::make_unique<StoreTicker>(*this);
    ticker_->start();
    running_ = true;
}

void MessageStore::tick()
{
    if (!commitLog_)
        return;
    std::string error;
    if (!checkpoint_->flush(error)) {
        if (const auto held = tickFailureLog_.admit()) // every second while the disk fails
            spdlog::error("store: {}{}", error, common::LogRateLimiter::heldNote(*held));
    }
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    FlushSampleState state;
    state.unflushedBytes = static_cast<uint64_t>(commitLog_->unflushedBytes());
    state.syncFlush = commitLog_->flushDiskType() == FlushDiskType::SyncFlush;
    state.transientStorePool = commitLog_->transientStorePoolEnabled();
    state.writeWithoutMmap = commitLog_->writeWithoutMmap();
    metrics_.takeSecondSample(std::chrono::duration_cast<std::chrono::seconds>(now).count(), state);
    // Retention shares this thread: a slow deletion delays the next sample, never a put.
    if (cleaner_)
        cleaner_->cleanIfDue();
}

CleanResult MessageStore::cleanExpiredFiles(bool force)
{
    return cleaner_->cleanOnce(force);
}

void MessageStore::setMessageArrivingListener(MessageArrivingListener listener)
{
    // Before open() nothing reads it; after, the dispatch thread does: swap it only there.
    if (!running_) {
        arrivingListener_ = std::move(listener);
        return;
    }
    reput_->stop();
    arrivingListener_ = std::move(listener);
    reput_->start();
}

int64_t MessageStore::dispatchBehindBytes() const
{
    return reput_ ? reput_->dispatchBehindBytes() : 0;
}

uint64_t MessageStore::dispatchSkippedRecords() const
{
    return reput_ ? reput_->skippedRecords() : 0;
}

void MessageStore::waitForDispatch()
{
    // The dispatcher follows the flushed position under SYNC_FLUSH, the readable end otherwise.
    for (;;) {
        const int64_t end = commitLog_->flushDiskType() == FlushDiskType::SyncFlush ? commitLog_->flushedWhere()
                                                                                     : commitLog_->maxOffset();
        if (!reput_ || reput_->reputFromOffset() >= end)
            return;
        reput_->wakeup();
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

bool MessageStore::deleteTopicQueues(const std::vector<std::string> &allTopics, std::string &error)
{
    // Puts are held only for topics that have queues: deleting a topic this broker never stored
    // (mqadmin sends a delete to every master) must not pause every producer.
    std::vector<std::string> topics;
    for (const std::string &topic : allTopics) {
        if (consumeQueues_->hasTopic(topic) || commitLog_->numbersQueuesOf(topic))
            topics.push_back(topic);
    }
    if (topics.empty())
        return true;
    bool ok = true;
    commitLog_->forgetQueues(topics, [&] {
        // Every entry of the old numbering is written before its queue goes: else the dispatcher
        // would make the queue again with them. A dispatcher that cannot keep up leaves it all be.
        const int64_t end = commitLog_->maxOffset();
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (reput_ && reput_->reputFromOffset() < end) {
            if (std::chrono::steady_clock::now() > deadline) {
                error = "the dispatcher did not reach commit-log offset " + std::to_string(end)
                        + " within 10 s; nothing deleted";
                return ok = false;
            }
            reput_->wakeup();
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        for (const std::string &topic : topics) {
            std::string failure;
            if (!consumeQueues_->remove(topic, failure)) {
                error = failure;
                ok = false;
            }
        }
        return true;
    });
    return ok;
}

void MessageStore::flushIndex()
{
    std::string error;
    if (index_ && !index_->flush(error))
        spdlog::error("store: index: {}", error);
}

int MessageStore::deleteExpiredIndexFiles(int64_t commitLogMinOffset)
{
    if (!index_)
        return 0;
    const size_t before = index_->fileCount();
    std::string error;
    if (!index_->deleteExpiredFiles(commitLogMinOffset, error))
        spdlog::error("store: index retention: {}", error);
    return static_cast<int>(before - index_->fileCount());
}

void MessageStore::shutdown()
{
    if (!running_)
        return;
    running_ = false;
    // The timer store and the cleaner are stopped, not destroyed: a put still in flight reads
    // them (refusal, timerForm) until commitLog_->shutdown() below has answered it. They go
    // with the store.
    if (timer_) {
        // First, while the log still takes its deliveries (Java shuts the timer store down
        // before the message store).
        timer_->shutdown();
    }
    ticker_.reset(); // and with it the cleaner's rounds
    commitLog_->shutdown(); // no more puts; everything appended is flushed
    reput_->stop();
    reput_->dispatchAvailable(); // whatever the thread had not reached yet
    consumeQueueFlusher_->stop();
    consumeQueueFlusher_->flushAll();
    std::string error;
    if (!index_->shutdown(error))
        spdlog::error("store: index: {}", error);
    if (!checkpoint_->flush(error)) {
        // Keep `abort`: the next start must not trust this shutdown.
        spdlog::error("store: {}; keeping the abort file", error);
    } else if (commitLog_->unflushedBytes() != 0 || reput_->dispatchBehindBytes() != 0) {
        spdlog::error("store: {} bytes not flushed, {} not dispatched; keeping the abort file",
                      commitLog_->unflushedBytes(), reput_->dispatchBehindBytes());
    } else if (!abort_file::remove(config_.rootDir(), error)) {
        spdlog::error("store: {}", error);
    }
    lock_.reset();
}

// Java's ConsumeQueue.multiDispatchLmqQueue: the record's entry again in each queue its
// INNER_MULTI_DISPATCH names, at the offset INNER_MULTI_QUEUE_OFFSET gives it (queue 0 for an
// LMQ when enableLmq, else the record's own queue), and the arrival told for each. Never for
// retries, system topics or SCHEDULE_TOPIC_XXXX. A name that cannot be a queue, an offset that
// is no number or a queue that cannot be written is reported and skipped (Java stops at the
// first): the record's own queue has its entry, and one bad name must not hold up dispatch.
void MessageStore::dispatchToLmqs(const DispatchRequest &request)
{
    const std::string_view topic = request.topic;
    if (topic.starts_with("%RETRY%") || topic.starts_with("rmq_sys_") || topic == "SCHEDULE_TOPIC_XXXX"
        || request.multiQueueOffsets.empty())
        return;
    const auto names = common::javaSplit(request.multiDispatch, ',');
    const auto offsets = common::javaSplit(request.multiQueueOffsets, ',');
    std::string failures;
    const auto report = [&failures](const std::string &what) { failures += (failures.empty() ? "" : "; ") + what; };
    if (names.size() != offsets.size())
        report(std::to_string(names.size()) + " queues in INNER_MULTI_DISPATCH but " + std::to_string(offsets.size())
               + " offsets in INNER_MULTI_QUEUE_OFFSET");
    for (size_t i = 0; names.size() == offsets.size() && i < names.size(); ++i) {
        const std::string name(names[i]);
        int64_t offset = -1;
        const auto [end, status] = std::from_chars(offsets[i].data(), offsets[i].data() + offsets[i].size(), offset);
        if (status != std::errc() || end != offsets[i].data() + offsets[i].size() || offset < 0) {
            if (name.starts_with(common::kLmqPrefix) || !offsets[i].empty())
                report("queue " + name + "'s offset '" + std::string(offsets[i]) + "' is no offset");
            continue; // a name that is no LMQ has no offset when enableLmq numbered the rest
        }
        DispatchRequest entry = request;
        entry.topic = name;
        entry.queueId = config_.enableLmq && name.starts_with(common::kLmqPrefix) ? 0 : request.queueId;
        entry.consumeQueueOffset = offset;
        std::string failure;
        auto queue = consumeQueues_->find(entry.topic, entry.queueId, true, &failure);
        if (!queue || !queue->putEntry(entry.commitLogOffset, entry.msgSize, entry.tagsCode, entry.consumeQueueOffset,
                                       entry.storeTimestamp, 1, failure)) {
            report(failure);
            continue;
        }
        if (arrivingListener_)
            arrivingListener_(entry);
    }
    if (!failures.empty()) {
        if (const auto held = lmqDispatchLog_.admit())
            spdlog::error("dispatch: record at commit-log offset {} (topic {}): LMQ entries skipped: {}{}",
                          request.commitLogOffset, request.topic, failures, common::LogRateLimiter::heldNote(*held));
    }
}

} // namespace mqdesk::store
