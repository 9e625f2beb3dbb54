#include "app/mqdesk-bench/store_bench.h"

#include "app/mqdesk-bench/bench_report.h"
#include "app/mqdesk-bench/disk_baseline.h"
#include "app/mqdesk-bench/progress_reporter.h"
#include "broker/common/clock.h"
#include "broker/store/message_store.h"
#include "broker/store/store_files.h"

#include <linux/futex.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <latch>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace mqdesk::bench {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using store::PutMessageResult;
using store::PutMessageStatus;

std::string storeDir(const StoreBenchOptions &options)
{
    return (fs::path(options.dir) / "store").string();
}

// The store must start empty: recovery of an old store would be timed with the puts, and its
// data would make the figures meaningless.
bool prepareDirectories(const StoreBenchOptions &options, std::string &error)
{
    std::error_code ec;
    fs::create_directories(options.dir, ec);
    if (ec) {
        error = "cannot create the benchmark directory " + options.dir + ": " + ec.message();
        return false;
    }
    const std::string root = storeDir(options);
    if (!fs::exists(root, ec))
        return true;
    if (!fs::is_directory(root, ec)) {
        error = root + " exists and is not a directory; the benchmark puts a fresh store there "
                       "(move it away or choose another --dir)";
        return false;
    }
    if (!fs::is_empty(root, ec) || ec) {
        error = root + " already exists and is not empty; the benchmark wants a fresh store "
                       "(delete it or choose another --dir)";
        return false;
    }
    return true;
}

// The store's config for the run; --set lines come last, so they override the flush mode's
// defaults. Returns false with `error` naming the setting that is not a store setting or has a
// bad value.
bool makeStoreConfig(const StoreBenchOptions &options, store::MessageStoreConfig &config, std::string &error)
{
    config.storePathRootDir = storeDir(options);
    config.mappedFileSizeCommitLog = options.fileSize;
    config.flushDiskType = options.flush == FlushMode::Sync ? store::FlushDiskType::SyncFlush
                                                            : store::FlushDiskType::AsyncFlush;
    config.transientStorePoolEnable = options.flush == FlushMode::AsyncPool;
    for (const std::string &setting : options.settings) {
        const size_t equals = setting.find('=');
        if (equals == std::string::npos) {
            error = "--set " + setting + ": expected key=value";
            return false;
        }
        if (std::string why = config.set(setting.substr(0, equals), setting.substr(equals + 1)); !why.empty()) {
            error = "--set " + setting + ": " + why;
            return false;
        }
    }
    return true;
}

// Where one put thread waits for its acknowledgement. A cache line each, so the flush thread
// answering one thread never disturbs another. Owned outside the store so a flush thread still
// returning from wake() never touches freed memory.
//
// The wait is a plain futex wait. std::atomic::wait (libstdc++ 12) first spins calling
// sched_yield: with 64 put threads on 2 cores those yields took the CPU the group-commit thread
// needed, so the benchmark measured its own waiting (perf: ~10 % of the run in sched_yield, SYNC
// put p50 ~15× fdatasync p50).
struct alignas(64) PutSlot
{
    std::atomic<uint32_t> done{0};
    PutMessageStatus status = PutMessageStatus::UnknownError;
    int32_t wroteBytes = 0;
    std::string error; // copied only for failures, which are rare

    void reset() { done.store(0, std::memory_order_relaxed); }
    void complete(const PutMessageResult &result)
    {
        status = result.status;
        wroteBytes = result.wroteBytes;
        if (status != PutMessageStatus::PutOk)
            error = result.error;
        done.store(1, std::memory_order_release);
        ::syscall(SYS_futex, reinterpret_cast<uint32_t *>(&done), FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
    }
    void wait()
    {
        while (done.load(std::memory_order_acquire) == 0)
            ::syscall(SYS_futex, reinterpret_cast<uint32_t *>(&done), FUTEX_WAIT_PRIVATE, 0, nullptr, nullptr, 0);
    }
};
static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t) && std::atomic<uint32_t>::is_always_lock_free);

struct WorkerContext
{
    store::CommitLog &commitLog;
    const StoreBenchOptions &options;
    std::vector<std::string> topics;
    int64_t bornTimestamp = 0;
    PutStats stats;
    std::latch startGate;
    std::atomic<bool> failureShown{false};
};

common::BrokerMessage makeMessage(const WorkerContext &context, int index)
{
    common::BrokerMessage message;
    message.topic = context.topics.front();
    message.body.resize(static_cast<size_t>(context.options.size));
    uint32_t state = 0x9e3779b9u * static_cast<uint32_t>(index + 1); // xorshift: cheap, not constant
    for (uint8_t &byte : message.body) {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        byte = static_cast<uint8_t>(state);
    }
    message.properties.set(common::property::kTags, "TagA");
    message.bornTimestamp = context.bornTimestamp;
    message.bornHost = common::HostAddress::ipv4(127, 0, 0, 1, 40000 + index);
    return message;
}

// The counters say how many puts failed; the first failure's message says why.
void showFirstFailure(WorkerContext &context, const PutSlot &slot)
{
    if (context.failureShown.exchange(true, std::memory_order_relaxed))
        return;
    std::fprintf(stderr, "mqdesk-bench: first failed put: %s: %s\n",
                 std::string(store::putStatusName(slot.status)).c_str(), slot.error.c_str());
}

void account(WorkerContext &context, const PutSlot &slot, uint64_t nanos, uint64_t &storedBytes)
{
    PutStats &stats = context.stats;
    switch (slot.status) {
    case PutMessageStatus::PutOk:
        break;
    case PutMessageStatus::FlushDiskTimeout:
        stats.responseFailed.fetch_add(1, std::memory_order_relaxed);
        showFirstFailure(context, slot);
        break;
    default:
        stats.sendFailed.fetch_add(1, std::memory_order_relaxed);
        showFirstFailure(context, slot);
        return;
    }
    stats.latencyNanos.record(nanos);
    storedBytes += static_cast<uint64_t>(slot.wroteBytes);
}

// One put thread: `messages` puts, one at a time, round-robin over topics × queues.
uint64_t runWorker(WorkerContext &context, int index, int64_t messages, PutSlot &slot)
{
    common::BrokerMessage message = makeMessage(context, index);
    const int64_t queues = context.options.queues;
    const int64_t routes = static_cast<int64_t>(context.topics.size()) * queues;
    uint64_t storedBytes = 0;
    std::string keyBuffer;
    context.startGate.arrive_and_wait();
    for (int64_t seq = 0; seq < messages; ++seq) {
        const int64_t route = (seq + index) % routes;
        const std::string &topic = context.topics[static_cast<size_t>(route / queues)];
        if (message.topic != topic)
            message.topic = topic;
        message.queueId = static_cast<int32_t>(route % queues);
        if (context.options.keys) {
            keyBuffer.assign("k-");
            keyBuffer += std::to_string(index);
            keyBuffer += '-';
            keyBuffer += std::to_string(seq);
            message.properties.set(common::property::kKeys, keyBuffer);
        }

        slot.reset();
        const auto start = Clock::now();
        context.commitLog.asyncPutMessage(message, [s = &slot](const PutMessageResult &result) {
            s->complete(result);
        });
        slot.wait();
        const auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
        account(context, slot, static_cast<uint64_t>(nanos), storedBytes);
    }
    return storedBytes;
}

int64_t messagesForThread(const StoreBenchOptions &options, int index)
{
    return options.count / options.threads + (index < options.count % options.threads ? 1 : 0);
}

std::vector<std::string> topicNames(int topics)
{
    std::vector<std::string> names;
    for (int i = 0; i < topics; ++i)
        names.push_back("BenchTopic_" + std::to_string(i));
    return names;
}

// How far the dispatcher (consume queues, index) falls behind the appends: sampled every
// millisecond while the puts run, then the time it needs to catch up after the last one.
class DispatchWatch
{
public:
    explicit DispatchWatch(store::MessageStore &store)
        : store_(store), thread_([this] {
              while (!stopping_.load(std::memory_order_relaxed)) {
                  maxBehind_ = std::max(maxBehind_.load(), store_.dispatchBehindBytes());
                  std::this_thread::sleep_for(std::chrono::milliseconds(1));
              }
          })
    {}
    ~DispatchWatch() { stop(); }

    void measureCatchUp(StoreBenchResult &result)
    {
        stop();
        const auto start = Clock::now();
        store_.waitForDispatch();
        result.dispatchCatchUpMillis = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        result.dispatchBehindBytesMax = maxBehind_.load();
    }

private:
    void stop()
    {
        stopping_ = true;
        if (thread_.joinable())
            thread_.join();
    }

    store::MessageStore &store_;
    std::atomic<bool> stopping_{false};
    std::atomic<int64_t> maxBehind_{0};
    std::thread thread_;
};

// Everything after the last acknowledgement that the figures must include: the bytes the
// flush services had not yet forced to disk (and, with the pool, not yet committed).
void finalFlush(store::MessageStore &messageStore, StoreBenchResult &result)
{
    store::CommitLog &commitLog = messageStore.commitLog();
    const auto start = Clock::now();
    result.finalFlushComplete = commitLog.flushUpTo(commitLog.mappedFileQueue().maxWrotePosition(),
                                                    store::FlushKind::Shutdown, 0);
    result.finalFlushSeconds = std::chrono::duration<double>(Clock::now() - start).count();
}

void collectFigures(store::MessageStore &messageStore, const PutStats &stats, StoreBenchResult &result)
{
    const auto latency = stats.latencyNanos.snapshot();
    result.stored = latency.count();
    result.put = LatencySummary::of(latency, 1000.0);
    result.sendFailed = stats.sendFailed.load();
    result.responseFailed = stats.responseFailed.load();
    result.flush = LatencySummary::of(messageStore.metrics().flushLatency(), 1.0);
    result.flushes = messageStore.metrics().totalFlushes();
}

StoreBenchResult runPuts(store::MessageStore &messageStore, const StoreBenchOptions &options,
                         std::vector<PutSlot> &slots)
{
    WorkerContext context{messageStore.commitLog(), options, topicNames(options.topics), common::wallMillis(),
                          {}, std::latch(options.threads + 1)};
    std::vector<uint64_t> storedBytes(static_cast<size_t>(options.threads), 0);
    std::vector<std::thread> workers;
    for (int i = 0; i < options.threads; ++i) {
        workers.emplace_back([&, i] {
            storedBytes[static_cast<size_t>(i)] =
                runWorker(context, i, messagesForThread(options, i), slots[static_cast<size_t>(i)]);
        });
    }
    ProgressReporter reporter(context.stats, options.json ? stderr : stdout);
    reporter.start();
    DispatchWatch dispatchWatch(messageStore);
    const auto start = Clock::now();
    context.startGate.count_down();
    for (auto &worker : workers)
        worker.join();
    reporter.stop();

    StoreBenchResult result;
    dispatchWatch.measureCatchUp(result);
    finalFlush(messageStore, result);
    result.elapsedSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    collectFigures(messageStore, context.stats, result);
    for (uint64_t bytes : storedBytes)
        result.storedBytes += bytes;
    return result;
}

void routeEngineLogsToStderr()
{
    // The engine logs through spdlog's default logger, which writes to stdout; stdout is for
    // figures (and nothing but the JSON object with --json).
    static auto logger = spdlog::stderr_color_mt("mqdesk-store");
    spdlog::set_default_logger(logger);
}

void printResult(const StoreBenchOptions &options, const StoreBenchResult &result,
                 const DiskBaseline &baseline, bool clean)
{
    if (options.json) {
        std::fputs(formatJson(options, result, baseline).c_str(), stdout);
        return;
    }
    std::fputs(formatSummary(options, result, baseline).c_str(), stdout);
    std::printf("Store: %s (%s)\n", storeDir(options).c_str(),
                clean ? "shut down cleanly" : "NOT shut down cleanly, see the errors above");
}

} // namespace

int runStoreBench(const StoreBenchOptions &options)
{
    routeEngineLogsToStderr();
    std::string error;
    store::MessageStoreConfig config;
    if (!makeStoreConfig(options, config, error)) {
        std::fprintf(stderr, "mqdesk-bench: %s\n", error.c_str());
        return 2;
    }
    if (!prepareDirectories(options, error)) {
        std::fprintf(stderr, "mqdesk-bench: %s\n", error.c_str());
        return 2;
    }
    const int64_t seqBytes = sequentialTestBytes(options.count, options.size);
    const auto baseline = measureDiskBaseline(options.dir, seqBytes, error);
    if (!baseline) {
        std::fprintf(stderr, "mqdesk-bench: disk baseline failed: %s\n", error.c_str());
        return 1;
    }

    std::vector<PutSlot> slots(static_cast<size_t>(options.threads)); // outlives the store
    store::MessageStore messageStore(std::move(config));
    if (!messageStore.open(error)) {
        std::fprintf(stderr, "mqdesk-bench: cannot open the store: %s\n", error.c_str());
        return 1;
    }
    const StoreBenchResult result = runPuts(messageStore, options, slots);
    messageStore.shutdown();
    const bool clean = !store::abort_file::exists(storeDir(options));
    printResult(options, result, *baseline, clean);
    // Figures over puts that were not stored are no result: say so in the exit status too.
    return clean && result.finalFlushComplete && result.sendFailed == 0 ? 0 : 1;
}

} // namespace mqdesk::bench
