#pragma once

// The store of the store-reader fuzz targets: held in memory (MemoryReaderFiles), so that an input
// costs no system call. It holds a real 8 KiB commit log written by the Java broker (the fork-2021
// fixture, 47 records) so that consume-queue and index entries the fuzzer makes can point at
// records. Each input replaces one file.
//
// Not thread-safe; libFuzzer calls the target from one thread.

#include "broker/store/reader/reader_files.h"
#include "broker/store/reader/store_reader.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace mqdesk::fuzz {

class FuzzStore
{
public:
    static FuzzStore &instance()
    {
        static FuzzStore store;
        return store;
    }

    static constexpr const char *kRoot = "/fuzz-store";

    // Writes `bytes` as <root>/<relativePath>, replacing the file.
    void writeFile(const std::string &relativePath, const uint8_t *bytes, size_t size)
    {
        files_->put(std::string(kRoot) + "/" + relativePath, std::vector<uint8_t>(bytes, bytes + size));
    }
    void remove(const std::string &relativePath) { files_->remove(std::string(kRoot) + "/" + relativePath); }

    // A reader over the store as it is now; aborts if it cannot open (the root always exists).
    std::unique_ptr<store::StoreReader> open(store::StoreReaderOptions options = {})
    {
        options.files = files_;
        std::string error;
        auto reader = store::StoreReader::open(kRoot, std::move(options), error);
        if (!reader) {
            std::fprintf(stderr, "fuzz: the store in memory does not open: %s\n", error.c_str());
            std::abort();
        }
        return reader;
    }

private:
    FuzzStore() : files_(std::make_shared<store::MemoryReaderFiles>())
    {
        std::ifstream in(MQDESK_FUZZ_COMMITLOG, std::ios::binary);
        const std::vector<uint8_t> log{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        if (log.empty()) {
            std::fprintf(stderr, "fuzz: cannot read the fixture commit log %s\n", MQDESK_FUZZ_COMMITLOG);
            std::abort();
        }
        writeFile("commitlog/00000000000000000000", log.data(), log.size());
    }

    std::shared_ptr<store::MemoryReaderFiles> files_;
};

} // namespace mqdesk::fuzz
