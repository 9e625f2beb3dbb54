// libFuzzer target: StoreReader's small files — checkpoint (store-format §7), abort, lock and
// config files — as a damaged store presents them. Byte 0 chooses which file gets the bytes.

#include "broker/store/store_reader.h"
#include "fuzz_store_dir.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mqdesk::store;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    auto &dir = mqdesk::fuzz::FuzzStoreDir::instance();
    static const char *const kFiles[] = {"checkpoint", "abort", "config/topics.json",
                                         "config/consumerOffset.json", "config/broker.properties"};
    const std::string file = kFiles[data[0] % std::size(kFiles)];
    dir.writeFile(file, data + 1, size - 1);

    std::string error;
    const auto reader = StoreReader::open(dir.root(), StoreReaderOptions{}, error);
    if (!reader)
        std::abort();
    std::string checkpointError;
    const auto checkpoint = reader->readCheckpoint(&checkpointError);
    if (checkpoint)
        (void)checkpoint->minTimestamp();
    (void)reader->readAbort();
    (void)reader->configFiles();
    (void)reader->configFile("topics.json");
    return 0;
}
