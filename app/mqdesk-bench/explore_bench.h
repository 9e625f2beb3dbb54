#pragma once

// `mqdesk-bench explore`: the store explorer's engine (StoreReader, verifyStore) on a large store.
// Builds DIR/store with `count` small records through MessageStore (ASYNC_FLUSH, so the store
// has its consume queues and index) unless DIR/store already holds a store, which is reused.
// Then, in one run: StoreReader::open and the first screen (listFiles, the first 100 records,
// the last 100 before the end), offsetByTime in the middle, a filtered scan of the whole log,
// and verifyStore twice (the second, with the files in the page cache, is reported) in MB/s
// next to a plain sequential read() of the same commit-log bytes from the page cache.

#include <cstdint>
#include <string>

namespace mqdesk::bench {

struct ExploreBenchOptions
{
    std::string dir;
    int64_t count = 5000000;
    int64_t size = 64; // body bytes: small bodies, so the figures are about records, not bytes
    int topics = 4;
    int queues = 4;
    int64_t fileSize = 1024LL * 1024 * 1024;
    bool json = false;
};

// Exit status: 0 done, 1 the store could not be built or read.
int runExploreBench(const ExploreBenchOptions &options);

} // namespace mqdesk::bench
