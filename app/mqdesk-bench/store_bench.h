#pragma once

// `mqdesk-bench store`: measures the disk under DIR, then puts messages straight into a fresh
// MessageStore in DIR/store from N threads, makes everything durable, and reports throughput
// and latency next to what the bare disk did.

#include "app/mqdesk-bench/bench_options.h"

namespace mqdesk::bench {

// Exit status: 0 done, 1 the disk or the store failed (including any put not stored), 2 the
// directory is not usable for a fresh run. Progress goes to stdout, or to stderr with --json so stdout holds only the JSON.
int runStoreBench(const StoreBenchOptions &options);

} // namespace mqdesk::bench
