// libFuzzer target: StoreReader's index-file reading (broker/store/store_reader_queues.cpp):
// summary (header, layout inference), slot occupancy, entries and key lookups, on a damaged
// index file next to a real Java-written commit log. Byte 0 chooses the layout: odd sizes the
// file to exactly 8 slots and 16 entries (given as options or inferred), even writes it as given.

#include "broker/store/index_file.h"
#include "broker/store/reader/store_reader.h"
#include "fuzz_store.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

using namespace mqdesk::store;

namespace {
constexpr int32_t kSlots = 8;
constexpr int32_t kEntries = 16;
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    auto &store = mqdesk::fuzz::FuzzStore::instance();
    const uint8_t mode = data[0];
    std::vector<uint8_t> file(data + 1, data + size);
    if (mode & 1)
        file.resize(static_cast<size_t>(IndexFile::fileSizeFor(kSlots, kEntries)));
    const std::string name = "20211101120000000";
    store.writeFile("index/" + name, file.data(), file.size());

    StoreReaderOptions options;
    if (mode & 2) {
        options.maxHashSlotNum = kSlots;
        options.maxIndexNum = kEntries;
    }
    const auto reader = store.open(options);
    for (const IndexFileSummary &summary : reader->indexFiles()) {
        (void)reader->indexSlotOccupancy(summary.file.name, 1 + mode % 7);
        (void)reader->readIndexEntries(summary.file.name, 0, 32);
        // The newest entries; indexCount is the file's own (damaged) word, so in 64 bits.
        const int64_t newest = std::clamp<int64_t>(int64_t{summary.header.indexCount} - 1, 0, INT32_MAX);
        (void)reader->readIndexEntries(summary.file.name, static_cast<int32_t>(newest), 4);
    }
    // fork-2021's records are topic "abc"; the keys are guesses the hash chains may or may not hold.
    (void)reader->lookupIndexKey("abc", "key");
    (void)reader->lookupIndexKey("abc", std::string(reinterpret_cast<const char *>(data), std::min<size_t>(size, 8)));
    return 0;
}
