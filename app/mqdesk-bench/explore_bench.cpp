#include "app/mqdesk-bench/explore_bench.h"

#include "app/mqdesk-bench/disk_baseline.h"
#include "broker/common/clock.h"
#include "broker/store/message_store.h"
#include "broker/store/reader/store_reader.h"
#include "broker/store/reader/store_verifier.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <time.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace mqdesk::bench {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr size_t kScreenRows = 100;
constexpr const char *kRareTag = "TagRare"; // every 1000th message: what the filtered scan looks for
constexpr int kBuildThreads = 2;

double millisSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// CPU time of the whole process (all threads), to read the wall-clock figures on a busy machine.
double processCpuMillis()
{
    timespec ts{};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1000.0 + static_cast<double>(ts.tv_nsec) / 1e6;
}

double mbPerSecond(int64_t bytes, double millis) { return millis > 0 ? static_cast<double>(bytes) / millis / 1000.0 : 0; }

struct ExploreResult
{
    bool reused = false;
    double buildSeconds = 0;
    int64_t records = 0;
    int64_t logBytes = 0;       // commit-log data (first file's start to the data end): the MB/s base
    int commitLogFiles = 0;
    double openMillis = 0;      // StoreReader::open
    double listMillis = 0;      // listFiles
    double firstPageMillis = 0; // the first 100 records
    double lastPageMillis = 0;  // the 100 before the end
    double firstScreenMillis = 0;
    double offsetByTimeMillis = 0;
    double filteredScanMillis = 0;
    size_t filteredMatches = 0;
    double verifyColdMillis = 0;
    double verifyMillis = 0;     // the second, warm run
    double verifyCpuMillis = 0;  // its CPU time over all threads
    uint64_t verifyFaults = 0;
    double cachedReadMbPerSecond = 0;
    double verifyMbPerSecond() const { return mbPerSecond(logBytes, verifyMillis); }
    double filteredScanMbPerSecond() const { return mbPerSecond(logBytes, filteredScanMillis); }
};

std::string storeRoot(const ExploreBenchOptions &options) { return (fs::path(options.dir) / "store").string(); }

common::BrokerMessage messageFor(const ExploreBenchOptions &options, int64_t i)
{
    common::BrokerMessage m;
    m.topic = "BenchTopic_" + std::to_string(i % options.topics);
    m.queueId = static_cast<int32_t>((i / options.topics) % options.queues);
    std::string body = "explore-" + std::to_string(i) + "-";
    body.resize(static_cast<size_t>(options.size), 'x');
    m.setBody(body);
    m.properties.set(common::property::kTags, i % 1000 == 1 ? kRareTag : "TagA");
    m.properties.set(common::property::kKeys, "k" + std::to_string(i));
    m.bornTimestamp = common::wallMillis();
    m.bornHost = common::HostAddress::ipv4(127, 0, 0, 1, 40000);
    return m;
}

// Puts `count` messages from two threads; the clean shutdown waits for dispatch and the flush.
bool buildStore(const ExploreBenchOptions &options, std::string &error)
{
    store::MessageStoreConfig config;
    config.storePathRootDir = storeRoot(options);
    config.mappedFileSizeCommitLog = options.fileSize;
    config.flushDiskType = store::FlushDiskType::AsyncFlush;
    store::MessageStore messageStore(config);
    if (!messageStore.open(error))
        return false;
    std::atomic<int64_t> failed{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kBuildThreads; ++t) {
        threads.emplace_back([&, t] {
            for (int64_t i = t; i < options.count; i += kBuildThreads) {
                if (messageStore.putMessage(messageFor(options, i)).status != store::PutMessageStatus::PutOk)
                    failed.fetch_add(1, std::memory_order_relaxed);
            }
        });
    }
    for (auto &thread : threads)
        thread.join();
    messageStore.waitForDispatch();
    messageStore.shutdown();
    if (failed.load() > 0)
        error = std::to_string(failed.load()) + " puts failed";
    return failed.load() == 0;
}

// StoreReader::open and what the explorer shows first: the files, the first and the last page.
std::unique_ptr<store::StoreReader> firstScreen(const std::string &root, ExploreResult &result, std::string &error)
{
    const auto start = Clock::now();
    auto reader = store::StoreReader::open(root, {}, error);
    result.openMillis = millisSince(start);
    if (!reader)
        return nullptr;
    auto at = Clock::now();
    const auto files = reader->listFiles();
    result.listMillis = millisSince(at);
    at = Clock::now();
    const auto first = reader->readRecords({.fromOffset = 0, .limit = kScreenRows, .includeMarkers = false});
    result.firstPageMillis = millisSince(at);
    at = Clock::now();
    const auto last = reader->readRecordsBefore(reader->commitLogDataEnd(), kScreenRows);
    result.lastPageMillis = millisSince(at);
    result.firstScreenMillis = millisSince(start);
    if (first.records.empty() || last.records.empty()) {
        error = root + ": the first or the last page is empty";
        return nullptr;
    }
    return reader;
}

void timeQueries(const store::StoreReader &reader, ExploreResult &result)
{
    const auto first = reader.readRecords({.fromOffset = 0, .limit = 1, .includeMarkers = false});
    const auto last = reader.readRecordsBefore(reader.commitLogDataEnd(), 1);
    const int64_t middle =
        (first.records.front().message.storeTimestamp + last.records.back().message.storeTimestamp) / 2;
    auto at = Clock::now();
    reader.offsetByTime(middle);
    result.offsetByTimeMillis = millisSince(at);

    at = Clock::now();
    const auto page = reader.readRecords({.fromOffset = 0, .limit = SIZE_MAX, .topic = "BenchTopic_1", .tag = kRareTag,
                                          .includeMarkers = false});
    result.filteredScanMillis = millisSince(at);
    result.filteredMatches = page.records.size();
}

bool timeVerifyAndRead(const store::StoreReader &reader, ExploreResult &result, std::string &error)
{
    auto at = Clock::now();
    store::verifyStore(reader);
    result.verifyColdMillis = millisSince(at);
    at = Clock::now();
    const double cpu = processCpuMillis();
    const store::VerifyReport report = store::verifyStore(reader);
    result.verifyMillis = millisSince(at);
    result.verifyCpuMillis = processCpuMillis() - cpu;
    result.verifyFaults = report.faults.size();
    result.records = static_cast<int64_t>(report.records);
    const auto log = reader.commitLogFiles();
    result.logBytes = log.files.empty() ? 0 : report.commitLogDataEnd - log.files.front().startOffset;

    std::vector<std::string> paths;
    std::vector<int64_t> bytes;
    const int64_t end = reader.commitLogDataEnd();
    for (const auto &file : log.files) {
        paths.push_back(file.path);
        bytes.push_back(std::clamp<int64_t>(end - file.startOffset, 0, file.size));
    }
    result.commitLogFiles = static_cast<int>(paths.size());
    if (!measureCachedRead(paths, bytes, error)) // the first read puts every byte in the page cache
        return false;
    const auto warm = measureCachedRead(paths, bytes, error);
    result.cachedReadMbPerSecond = warm.value_or(0);
    return warm.has_value();
}

void printResult(const ExploreBenchOptions &options, const ExploreResult &r)
{
    const double ratio = r.cachedReadMbPerSecond > 0 ? r.verifyMbPerSecond() / r.cachedReadMbPerSecond : 0;
    if (options.json) {
        std::printf("{\"dir\": \"%s\", \"reused\": %s, \"count\": %lld, \"size\": %lld, \"build_s\": %.3f, "
                    "\"records\": %lld, \"log_bytes\": %lld, \"commit_log_files\": %d, "
                    "\"open_ms\": %.3f, \"list_files_ms\": %.3f, \"first_page_ms\": %.3f, \"last_page_ms\": %.3f, "
                    "\"first_screen_ms\": %.3f, \"offset_by_time_ms\": %.3f, \"filtered_scan_ms\": %.3f, "
                    "\"filtered_scan_mb_per_s\": %.1f, \"filtered_matches\": %zu, \"verify_cold_ms\": %.3f, "
                    "\"verify_ms\": %.3f, \"verify_cpu_ms\": %.3f, \"verify_mb_per_s\": %.1f, \"verify_faults\": %llu, "
                    "\"cached_read_mb_per_s\": %.1f, \"ratio_verify_to_cached_read\": %.4f}\n",
                    options.dir.c_str(), r.reused ? "true" : "false", static_cast<long long>(options.count),
                    static_cast<long long>(options.size), r.buildSeconds, static_cast<long long>(r.records),
                    static_cast<long long>(r.logBytes), r.commitLogFiles, r.openMillis, r.listMillis,
                    r.firstPageMillis, r.lastPageMillis, r.firstScreenMillis, r.offsetByTimeMillis,
                    r.filteredScanMillis, r.filteredScanMbPerSecond(), r.filteredMatches, r.verifyColdMillis,
                    r.verifyMillis, r.verifyCpuMillis, r.verifyMbPerSecond(), static_cast<unsigned long long>(r.verifyFaults),
                    r.cachedReadMbPerSecond, ratio);
        return;
    }
    std::printf("Store: %s (%s), %lld records, %lld commit-log bytes in %d files\n", storeRoot(options).c_str(),
                r.reused ? "reused" : "built", static_cast<long long>(r.records), static_cast<long long>(r.logBytes),
                r.commitLogFiles);
    if (!r.reused)
        std::printf("Build: %.1f s (%.0f msg/s through MessageStore, ASYNC_FLUSH)\n", r.buildSeconds,
                    static_cast<double>(options.count) / std::max(r.buildSeconds, 1e-9));
    std::printf("First screen: %.1f ms (open %.1f, listFiles %.1f, first %zu records %.1f, last %zu %.1f)\n",
                r.firstScreenMillis, r.openMillis, r.listMillis, kScreenRows, r.firstPageMillis, kScreenRows,
                r.lastPageMillis);
    std::printf("offsetByTime (middle): %.1f ms\n", r.offsetByTimeMillis);
    std::printf("Filtered scan (topic + tag, whole log): %.1f ms, %.0f MB/s, %zu matches\n", r.filteredScanMillis,
                r.filteredScanMbPerSecond(), r.filteredMatches);
    std::printf("verifyStore: %.1f ms warm (CPU %.1f ms over its threads; %.1f ms first), %.0f MB/s, %llu faults\n",
                r.verifyMillis, r.verifyCpuMillis, r.verifyColdMillis, r.verifyMbPerSecond(),
                static_cast<unsigned long long>(r.verifyFaults));
    std::printf("Cached read() of the same bytes: %.0f MB/s; verify / read: %.3f\n", r.cachedReadMbPerSecond, ratio);
}

} // namespace

int runExploreBench(const ExploreBenchOptions &options)
{
    spdlog::set_default_logger(spdlog::stderr_color_mt("mqdesk-explore")); // stdout is for figures
    ExploreResult result;
    std::string error;
    std::error_code ec;
    const std::string root = storeRoot(options);
    result.reused = fs::is_directory(root, ec) && !fs::is_empty(root, ec);
    if (!result.reused) {
        std::fprintf(stderr, "mqdesk-bench: building %s with %lld records…\n", root.c_str(),
                     static_cast<long long>(options.count));
        const auto start = Clock::now();
        if (!buildStore(options, error)) {
            std::fprintf(stderr, "mqdesk-bench: cannot build the store in %s: %s\n", root.c_str(), error.c_str());
            return 1;
        }
        result.buildSeconds = millisSince(start) / 1000.0;
    }
    const auto reader = firstScreen(root, result, error);
    if (!reader) {
        std::fprintf(stderr, "mqdesk-bench: %s\n", error.c_str());
        return 1;
    }
    timeQueries(*reader, result);
    if (!timeVerifyAndRead(*reader, result, error)) {
        std::fprintf(stderr, "mqdesk-bench: %s\n", error.c_str());
        return 1;
    }
    printResult(options, result);
    return 0;
}

} // namespace mqdesk::bench
