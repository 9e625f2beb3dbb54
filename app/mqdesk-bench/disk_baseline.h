#pragma once

// What the disk under the benchmark directory can do without any store on top, measured in the
// same run so the store's figures can be read as a fraction of the hardware: the latency of a
// 4 KiB append made durable with fdatasync (the floor for a SYNC_FLUSH put) and the bandwidth
// of large sequential writes (the ceiling for any flush mode).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mqdesk::bench {

struct DiskBaseline
{
    uint64_t fdatasyncP50Micros = 0;
    uint64_t fdatasyncP99Micros = 0;
    double seqWriteMbPerSecond = 0; // MB = 1e6 bytes
    int64_t seqWriteBytes = 0;
};

// How much the sequential test writes for a run of `count` bodies of `size` bytes: what the
// store run writes, between 64 MiB (so the figure is not just the page cache) and 4 GiB.
int64_t sequentialTestBytes(int64_t count, int64_t size);

// Runs both tests in `dir` with files named baseline-*, which are deleted afterwards whether
// or not the tests succeed. Returns nullopt with `error` naming the file and the failure.
std::optional<DiskBaseline> measureDiskBaseline(const std::string &dir, int64_t seqWriteBytes,
                                                std::string &error);

// A plain sequential read() in 1 MiB blocks of the first `bytes[i]` bytes of each file in
// `paths`: the machine's limit for scanning files that are in the page cache (run it after the
// files were read once). MB/s (1e6 bytes), or nullopt with `error` naming the file.
std::optional<double> measureCachedRead(const std::vector<std::string> &paths, const std::vector<int64_t> &bytes,
                                        std::string &error);

} // namespace mqdesk::bench
