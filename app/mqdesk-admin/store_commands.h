#pragma once

// `mqdesk-admin store <command> DIR …`: offline, read-only inspection of a RocketMQ store through
// StoreReader and the health check (broker/store/store_reader.h, store_verifier.h).
//
// Output: human-readable tables and key-value lines, or with --json one JSON object per line for
// lists (records, queue entries, files, faults) and one object for single results.
// Exit status: 0 success; 1 the store cannot be read (message on stderr naming the path);
// 3 `verify` found faults (each printed).

#include "broker/store/reader/store_reader.h"

#include <cstdint>
#include <string>

namespace mqdesk::admin {

inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitFaults = 3;

struct StoreCommandOptions
{
    std::string command; // summary, records, cq, index, checkpoint, config, verify
    std::string dir;
    bool json = false;
    // records: commit-log offset; cq: queue offset.
    int64_t from = 0;
    // records, cq: start at the first record stored at or after this time instead (milliseconds,
    // "yyyy-MM-dd HH:mm:ss[.SSS]" or mqadmin's "yyyy-MM-dd#HH:mm:ss:SSS", local time).
    std::string fromTime;
    int64_t limit = 100; // 0: no limit
    std::string topic;
    std::string tag;
    std::string key;
    int32_t queue = -1;     // cq: -1 lists the queues instead of entries
    bool markers = false;   // records: also blank (end-of-file) and invalid entries
    std::string name;       // config: one file by name
    bool noCrc = false;     // verify: recovery without checkCRCOnRecover
};

// Opens the store read-only and runs the command; prints errors to stderr.
int runStoreCommand(const StoreCommandOptions &options);

// The commands, over an opened reader (store_commands.cpp, store_log_commands.cpp).
int runSummary(const store::StoreReader &reader, const StoreCommandOptions &options);
int runCheckpoint(const store::StoreReader &reader, const StoreCommandOptions &options);
int runConfig(const store::StoreReader &reader, const StoreCommandOptions &options);
int runVerify(const store::StoreReader &reader, const StoreCommandOptions &options);
int runRecords(const store::StoreReader &reader, const StoreCommandOptions &options);
int runConsumeQueue(const store::StoreReader &reader, const StoreCommandOptions &options);
int runIndex(const store::StoreReader &reader, const StoreCommandOptions &options);

} // namespace mqdesk::admin
