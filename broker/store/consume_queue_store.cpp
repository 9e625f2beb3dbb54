#include "broker/store/consume_queue_store.h"

#include "broker/store/batch_consume_queue.h"
#include "broker/store/commit_log.h"
#include "broker/store/store_paths.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <filesystem>

namespace fs = std::filesystem;

namespace mqdesk::store {

namespace {

std::optional<int32_t> parseQueueId(const std::string &name)
{
    int32_t id = 0;
    const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), id);
    if (ec != std::errc() || end != name.data() + name.size() || id < 0)
        return std::nullopt;
    return id;
}

} // namespace

ConsumeQueueStore::ConsumeQueueStore(std::string rootDirectory, int64_t fileSize, std::string batchRootDirectory,
                                     int64_t batchFileSize)
    : root_(std::move(rootDirectory)), batchRoot_(std::move(batchRootDirectory)),
      fileSize_(consumeQueueFileSize(fileSize)), batchFileSize_(batchConsumeQueueFileSize(batchFileSize))
{}

std::shared_ptr<ConsumeQueue> ConsumeQueueStore::makeQueue(bool batch, const std::string &topic, int32_t queueId,
                                                           std::string directory) const
{
    if (batch)
        return std::make_shared<BatchConsumeQueue>(topic, queueId, std::move(directory), batchFileSize_);
    return std::make_shared<SimpleConsumeQueue>(topic, queueId, std::move(directory), fileSize_);
}

bool ConsumeQueueStore::load(std::string &error)
{
    std::unique_lock lock(mutex_);
    for (const bool batch : {false, true}) {
        const std::string &root = batch ? batchRoot_ : root_;
        if (root.empty())
            continue;
        std::error_code ec;
        if (!batch)
            fs::create_directories(root, ec); // batchconsumequeue/ is made by the first BatchCQ topic
        if (ec) {
            error = "cannot create " + root + ": " + ec.message();
            return false;
        }
        if (batch && !fs::exists(root, ec))
            continue;
        for (const auto &topicEntry : fs::directory_iterator(root, ec)) {
            if (!topicEntry.is_directory())
                continue;
            const std::string topic = topicEntry.path().filename().string();
            for (const auto &queueEntry : fs::directory_iterator(topicEntry.path(), ec)) {
                const auto queueId = parseQueueId(queueEntry.path().filename().string());
                if (!queueEntry.is_directory() || !queueId)
                    continue; // RocketMQ ignores non-numeric queue directories
                auto queue = makeQueue(batch, topic, *queueId, queueEntry.path().string());
                if (!queue->load(error))
                    return false;
                queues_[topic][*queueId] = std::move(queue);
            }
        }
        if (ec) {
            error = "cannot list " + root + ": " + ec.message();
            return false;
        }
    }
    return true;
}

bool ConsumeQueueStore::recover(int64_t &dispatchFromPhyOffset, std::string &error,
                                const RecoveryProgressCallback &progress)
{
    dispatchFromPhyOffset = -1;
    std::shared_lock lock(mutex_);
    int64_t total = 0;
    for (const auto &[topic, byId] : queues_)
        total += static_cast<int64_t>(byId.size());
    PhaseProgress recovered(progress, "consume queues", total, 1);
    int64_t done = 0;
    for (auto &[topic, byId] : queues_) {
        for (auto &[id, queue] : byId) {
            if (!queue->recover(error))
                return false;
            dispatchFromPhyOffset = std::max(dispatchFromPhyOffset, queue->maxPhysicOffset());
            recovered.report(++done);
        }
    }
    recovered.finish();
    return true;
}

bool ConsumeQueueStore::truncateDirty(int64_t commitLogEnd, int64_t &lowestEnd, std::string &error)
{
    std::shared_lock lock(mutex_);
    lowestEnd = -1;
    for (auto &[topic, byId] : queues_) {
        for (auto &[id, queue] : byId) {
            if (queue->maxPhysicOffset() <= commitLogEnd)
                continue;
            if (!queue->truncateDirtyLogicFiles(commitLogEnd, error))
                return false;
            const int64_t end = std::max<int64_t>(0, queue->maxPhysicOffset());
            lowestEnd = lowestEnd < 0 ? end : std::min(lowestEnd, end);
        }
    }
    return true;
}

void ConsumeQueueStore::correctMinOffsets(int64_t commitLogMinOffset)
{
    forEach([commitLogMinOffset](ConsumeQueue &queue) { queue.correctMinOffset(commitLogMinOffset); });
}

std::shared_ptr<ConsumeQueue> ConsumeQueueStore::find(const std::string &topic, int32_t queueId, bool create,
                                                      std::string *error)
{
    {
        std::shared_lock lock(mutex_);
        if (const auto t = queues_.find(topic); t != queues_.end()) {
            if (const auto q = t->second.find(queueId); q != t->second.end())
                return q->second;
        }
    }
    if (!create)
        return nullptr;
    // The store's own wall: the topic becomes a directory name, so it must be one safe path
    // component inside consumequeue/ whatever the request boundary let through.
    const bool batch = !batchRoot_.empty() && isBatchTopic_ && isBatchTopic_(topic);
    std::string topicDirectory;
    std::string failure;
    if (!joinInside(batch ? batchRoot_ : root_, topic, "topic", topicDirectory, failure)) {
        if (error)
            *error = failure;
        return nullptr;
    }
    std::unique_lock lock(mutex_);
    auto &byId = queues_[topic];
    auto &slot = byId[queueId];
    if (!slot) {
        auto queue = makeQueue(batch, topic, queueId, topicDirectory + "/" + std::to_string(queueId));
        if (!queue->load(failure)) { // creates the directory
            byId.erase(queueId);
            if (byId.empty())
                queues_.erase(topic);
            if (error)
                *error = "consume queue " + topic + "/" + std::to_string(queueId) + ": " + failure;
            return nullptr;
        }
        slot = std::move(queue);
    }
    return slot;
}

std::shared_ptr<ConsumeQueue> ConsumeQueueStore::find(const std::string &topic, int32_t queueId) const
{
    std::shared_lock lock(mutex_);
    if (const auto t = queues_.find(topic); t != queues_.end()) {
        if (const auto q = t->second.find(queueId); q != t->second.end())
            return q->second;
    }
    return nullptr;
}

void ConsumeQueueStore::forEach(const std::function<void(ConsumeQueue &)> &visit) const
{
    std::vector<std::shared_ptr<ConsumeQueue>> all;
    {
        std::shared_lock lock(mutex_);
        for (const auto &[topic, byId] : queues_) {
            for (const auto &[id, queue] : byId)
                all.push_back(queue);
        }
    }
    std::sort(all.begin(), all.end(), [](const auto &a, const auto &b) {
        const int byTopic = a->topic().compare(b->topic());
        return byTopic != 0 ? byTopic < 0 : a->queueId() < b->queueId();
    });
    for (const auto &queue : all)
        visit(*queue);
}

std::unordered_map<std::string, int64_t> ConsumeQueueStore::queueOffsetTable() const
{
    std::unordered_map<std::string, int64_t> table;
    forEach([&table](ConsumeQueue &queue) {
        table[topicQueueKey(queue.topic(), queue.queueId())] = queue.maxOffset();
    });
    return table;
}

int64_t ConsumeQueueStore::lastStoreTimestamp() const
{
    int64_t latest = 0;
    forEach([&latest](ConsumeQueue &queue) { latest = std::max(latest, queue.lastStoreTimestamp()); });
    return latest;
}

int64_t ConsumeQueueStore::flushAll(int leastPages)
{
    int64_t bytes = 0;
    forEach([this, &bytes, leastPages](ConsumeQueue &queue) {
        for (;;) {
            const auto result = queue.flush(leastPages);
            if (result.failed) {
                if (const auto held = flushFailureLog_.admit())
                    spdlog::error("consume queue {}/{}: {}{}", queue.topic(), queue.queueId(), result.error,
                                  common::LogRateLimiter::heldNote(*held));
                break;
            }
            if (result.bytes == 0)
                break;
            bytes += result.bytes;
        }
    });
    return bytes;
}

bool ConsumeQueueStore::hasTopic(const std::string &topic) const
{
    std::shared_lock lock(mutex_);
    return queues_.contains(topic);
}

bool ConsumeQueueStore::remove(const std::string &topic, std::string &error)
{
    QueuesById removed;
    {
        std::unique_lock lock(mutex_);
        const auto found = queues_.find(topic);
        if (found == queues_.end())
            return true;
        removed = std::move(found->second);
        queues_.erase(found);
    }
    // Only the names go: a reader holding one of `removed` keeps its mappings until it lets go.
    const bool batch = !removed.empty() && removed.begin()->second->isBatch();
    std::string topicDirectory;
    if (!joinInside(batch ? batchRoot_ : root_, topic, "topic", topicDirectory, error))
        return false;
    std::error_code failed;
    std::filesystem::remove_all(topicDirectory, failed);
    if (failed) {
        error = "cannot delete " + topicDirectory + ": " + failed.message();
        return false;
    }
    return true;
}

int ConsumeQueueStore::deleteExpiredFiles(int64_t commitLogMinOffset)
{
    int deleted = 0;
    forEach([&deleted, commitLogMinOffset](ConsumeQueue &queue) {
        deleted += queue.deleteExpiredFiles(commitLogMinOffset);
    });
    return deleted;
}

} // namespace mqdesk::store
