#include "broker/store/store_services.h"

#include "broker/common/clock.h"
#include "broker/store/consume_queue_store.h"
#include "broker/store/message_store.h"
#include "broker/store/store_checkpoint.h"

#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <chrono>
#include <ctime>

namespace mqdesk::store {

using namespace std::chrono_literals;

DiskSpace diskSpaceOf(const std::string &path)
{
    struct statvfs fs{};
    if (::statvfs(path.c_str(), &fs) != 0 || fs.f_blocks == 0)
        return {};
    const uint64_t block = fs.f_frsize;
    return {fs.f_blocks * block, fs.f_bfree * block, fs.f_bavail * block, true};
}

double DiskSpace::usedRatio() const
{
    if (!known || total == 0 || free > total)
        return -1;
    const uint64_t used = total - free;
    const uint64_t entire = used + usable;
    if (entire == 0)
        return -1;
    const uint64_t percent = used * 100 / entire + (used * 100 % entire != 0 ? 1 : 0);
    return static_cast<double>(percent) / 100.0;
}

double diskUsedRatio(const std::string &path) { return diskSpaceOf(path).usedRatio(); }

// ---------------------------------------------------------------------------------------------

FlushConsumeQueueService::FlushConsumeQueueService(MessageStore &store)
    : ServiceThread("FlushConsumeQueue"), store_(store)
{}

FlushConsumeQueueService::~FlushConsumeQueueService() { stop(); }

void FlushConsumeQueueService::flushOnce(bool thorough)
{
    const MessageStoreConfig &config = store_.config();
    // Captured before flushing, so the persisted value is covered by flushed data (§7).
    const int64_t logicsTimestamp = store_.consumeQueues().lastStoreTimestamp();
    store_.consumeQueues().flushAll(thorough ? 0 : config.flushConsumeQueueLeastPages);
    if (thorough) {
        store_.flushIndex();
        if (logicsTimestamp > 0)
            store_.checkpoint().setLogicsMsgTimestamp(logicsTimestamp);
        std::string error;
        if (!store_.checkpoint().flush(error))
            spdlog::error("store: {}", error);
    }
}

void FlushConsumeQueueService::flushAll()
{
    for (int i = 0; i < 3; ++i)
        flushOnce(true);
}

void FlushConsumeQueueService::run()
{
    const MessageStoreConfig &config = store_.config();
    auto lastThorough = std::chrono::steady_clock::now();
    while (!isStopped()) {
        sleepFor(std::chrono::milliseconds(config.flushIntervalConsumeQueue));
        const auto now = std::chrono::steady_clock::now();
        const bool thorough = now >= lastThorough + std::chrono::milliseconds(config.flushConsumeQueueThoroughInterval);
        if (thorough)
            lastThorough = now;
        flushOnce(thorough);
    }
}

// ---------------------------------------------------------------------------------------------

StoreCleaner::StoreCleaner(MessageStore &store)
    : store_(store), nextRoundMicros_(common::steadyMicros() + 60'000'000) // RocketMQ's first round: a minute after start
{
}

bool StoreCleaner::isDeleteHour() const
{
    const time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    std::string_view hours = store_.config().deleteWhen;
    while (!hours.empty()) {
        const size_t end = hours.find(';');
        const std::string_view hour = hours.substr(0, end);
        hours = end == std::string_view::npos ? std::string_view() : hours.substr(end + 1);
        if (!hour.empty() && std::atoi(std::string(hour).c_str()) == local.tm_hour)
            return true;
    }
    return false;
}

CleanResult StoreCleaner::cleanOnce(bool force)
{
    const MessageStoreConfig &config = store_.config();
    CleanResult result;
    result.diskUsedRatio = diskUsedRatio(config.commitLogDir());
    const double used = result.diskUsedRatio * 100;
    const bool warning = used > config.diskSpaceWarningLevelRatio;
    if (warning != diskFull_.load()) {
        diskFull_.store(warning);
        if (warning)
            spdlog::error("store: disk {:.1f}% full, above diskSpaceWarningLevelRatio {}%: puts are refused",
                          used, config.diskSpaceWarningLevelRatio);
        else
            spdlog::info("store: disk {:.1f}% full: puts are accepted again", used);
    }
    const bool cleanImmediately = config.cleanFileForciblyEnable && used > config.diskSpaceCleanForciblyRatio;
    if (!force && !cleanImmediately && !isDeleteHour() && used <= config.diskMaxUsedSpaceRatio)
        return result;

    // Commit-log files: oldest first, never the newest, stop at the first one still in time.
    MappedFileQueue &queue = store_.commitLog().mappedFileQueue();
    const int64_t reservedMillis = static_cast<int64_t>(config.fileReservedTime) * 3600 * 1000;
    const int64_t now = common::wallMillis();
    while (result.commitLogFiles < config.deleteFileBatchMax && queue.fileCount() > 1) {
        const auto oldest = queue.firstFile();
        struct stat st{};
        if (::stat(oldest->path().c_str(), &st) != 0)
            break;
        const int64_t modified = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
        if (!force && !cleanImmediately && modified + reservedMillis > now)
            break;
        std::string error;
        if (!queue.deleteFirstFile(error)) {
            spdlog::error("store: retention: {}", error);
            break;
        }
        spdlog::info("store: retention deleted {}", oldest->path());
        ++result.commitLogFiles;
    }
    const int64_t minOffset = store_.commitLog().minOffset();
    result.consumeQueueFiles = store_.consumeQueues().deleteExpiredFiles(minOffset);
    result.indexFiles = store_.deleteExpiredIndexFiles(minOffset);
    return result;
}

void StoreCleaner::cleanIfDue()
{
    int64_t due = nextRoundMicros_.load(std::memory_order_acquire);
    const int64_t now = common::steadyMicros();
    const int64_t next = now + int64_t{store_.config().cleanResourceInterval} * 1000;
    // One caller per round when two tick at once.
    if (now < due || !nextRoundMicros_.compare_exchange_strong(due, next, std::memory_order_acq_rel))
        return;
    cleanOnce(false);
}

} // namespace mqdesk::store
