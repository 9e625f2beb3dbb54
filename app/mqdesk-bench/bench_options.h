#pragma once

// What `mqdesk-bench store` is asked to do, as parsed from the command line.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::bench {

// The three flush behaviours a RocketMQ broker can run with: SYNC_FLUSH, ASYNC_FLUSH, and
// ASYNC_FLUSH with the transient store pool (appends go to a buffer, a commit thread writes it).
enum class FlushMode { Sync, Async, AsyncPool };

inline std::string_view toString(FlushMode mode)
{
    switch (mode) {
    case FlushMode::Sync: return "sync";
    case FlushMode::Async: return "async";
    case FlushMode::AsyncPool: return "async-pool";
    }
    return "async";
}

struct StoreBenchOptions
{
    std::string dir;
    FlushMode flush = FlushMode::Async;
    int threads = 1;
    int64_t size = 1024;                  // body bytes per message
    int64_t count = 1000000;              // messages over all threads
    bool json = false;
    bool keys = false; // give every message a unique KEYS value, so the index is exercised
    int64_t fileSize = 1024LL * 1024 * 1024; // mappedFileSizeCommitLog
    int topics = 1;
    int queues = 4;
    std::vector<std::string> settings; // broker.conf "key=value" lines for the store, applied last
};

// Room a record needs beyond its body: the fixed header (~100 bytes), the topic, the TAGS
// property and the end-of-file blank record, rounded up generously.
inline constexpr int64_t kRecordOverheadBound = 512;

// Checks what single flags cannot: that one record fits in a commit-log file. Returns an error
// message, empty when the options are consistent.
inline std::string validate(const StoreBenchOptions &options)
{
    if (options.size + kRecordOverheadBound > options.fileSize) {
        return "a " + std::to_string(options.size) + "-byte message does not fit in a "
               + std::to_string(options.fileSize) + "-byte commit-log file; raise --file-size to at least "
               + std::to_string(options.size + kRecordOverheadBound);
    }
    return {};
}

} // namespace mqdesk::bench
