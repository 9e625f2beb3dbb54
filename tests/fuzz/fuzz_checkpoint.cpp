// libFuzzer target: StoreReader's small files — checkpoint (store-format §7), abort, lock and
// config files — as a damaged store presents them. Byte 0 chooses which file gets the bytes.

#include "broker/store/reader/store_reader.h"
#include "fuzz_store.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mqdesk::store;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    auto &store = mqdesk::fuzz::FuzzStore::instance();
    static const char *const kFiles[] = {"checkpoint", "abort", "config/topics.json",
                                         "config/consumerOffset.json", "config/broker.properties"};
    const std::string file = kFiles[data[0] % std::size(kFiles)];
    store.writeFile(file, data + 1, size - 1);

    const auto reader = store.open();
    std::string checkpointError;
    const auto checkpoint = reader->readCheckpoint(&checkpointError);
    if (checkpoint)
        (void)checkpoint->minTimestamp();
    (void)reader->readAbort();
    (void)reader->configFiles();
    (void)reader->configFile("topics.json");
    return 0;
}
