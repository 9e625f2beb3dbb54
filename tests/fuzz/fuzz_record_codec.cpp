// libFuzzer target: commit-log record decoding (broker/common/record_codec.h) as the store
// explorer, recovery and verify read damaged files. decodeRecord with and without the CRC check,
// peekRecordHeader, and for a decoded record its materialized copy and the size it claims.

#include "broker/common/record_codec.h"

#include <cstdint>
#include <cstdlib>
#include <span>

using namespace mqdesk::common;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::span<const uint8_t> input(data, size);
    (void)peekRecordHeader(input);
    for (const bool checkCrc : {true, false}) {
        const DecodeResult result = decodeRecord(input, DecodeOptions{.checkCrc = checkCrc});
        if (result.status == DecodeStatus::Ok) {
            if (result.size <= 0 || static_cast<size_t>(result.size) > size)
                std::abort(); // a record never claims bytes it was not given
            (void)result.record.materialize();
        }
    }
    return 0;
}
