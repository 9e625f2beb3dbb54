// libFuzzer target: StoreReader's consume-queue reading (broker/store/store_reader_queues.cpp)
// on a damaged queue file next to a real Java-written commit log. Byte 0 chooses how the file
// is laid out: as given, or padded/cut to a whole number of entries, alone or after a full
// earlier file (so that queue offsets and file boundaries are crossed), and whether it is a
// SimpleCQ file (20-byte entries) or a BatchCQ one (46-byte units, batchconsumequeue/).

#include "broker/store/reader/store_reader.h"
#include "fuzz_store.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

using namespace mqdesk::store;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    auto &store = mqdesk::fuzz::FuzzStore::instance();
    const uint8_t mode = data[0];
    std::vector<uint8_t> file(data + 1, data + size);
    const bool batch = (mode & 8) != 0;
    const size_t unit = batch ? 46 : 20;
    if (mode & 1)
        file.resize((file.size() + unit - 1) / unit * unit);
    store.remove("consumequeue/TopicTest/0/");
    store.remove("batchconsumequeue/TopicTest/0/");
    const std::string queueDir = batch ? "batchconsumequeue/TopicTest/0/" : "consumequeue/TopicTest/0/";
    if (mode & 2) {
        // An earlier full file of the same size, so this one starts at a later queue offset.
        store.writeFile(queueDir + "00000000000000000000", file.data(), file.size());
        char name[21];
        std::snprintf(name, sizeof name, "%020zu", file.size());
        store.writeFile(queueDir + name, file.data(), file.size());
    } else {
        store.writeFile(queueDir + "00000000000000000000", file.data(), file.size());
    }

    StoreReaderOptions options;
    options.consumeQueueFileSize = (mode & 4) ? static_cast<int64_t>(file.size()) : 0;
    const auto reader = store.open(options);
    for (const ConsumeQueueInfo &queue : reader->consumeQueues()) {
        const ConsumeQueuePage page = reader->readConsumeQueue(queue.topic, queue.queueId, queue.minOffset, 64);
        (void)page;
        (void)reader->consumeQueueOffsetByTime(queue.topic, queue.queueId, 0);
        (void)reader->consumeQueueOffsetByTime(queue.topic, queue.queueId, INT64_MAX);
        (void)reader->consumeQueueOffsetAt(queue, 4096);
    }
    // The tail reader decodes the records the queues point at.
    (void)reader->readRecordsBefore(reader->commitLogDataEnd(), 8);
    return 0;
}
