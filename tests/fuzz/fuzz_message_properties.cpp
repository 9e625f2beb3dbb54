// libFuzzer target: message properties decoding (broker/common/message_properties.h), the
// name\x01value\x02 string a producer sends. decode and find must agree (on the first and last 16
// keys: find is a linear scan of its own), and decode(encode(decode(x))) == decode(x).

#include "broker/common/message_properties.h"

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string_view>

using namespace mqdesk::common;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view encoded(reinterpret_cast<const char *>(data), size);
    const MessageProperties decoded = MessageProperties::decode(encoded);
    // find is one linear scan; asking it for every key of a 4 KiB input made each run quadratic
    // (a thousand scans), so the first and the last kChecked keys are asked.
    constexpr size_t kChecked = 16;
    size_t index = 0;
    for (const auto &[key, value] : decoded) {
        const bool checked = index < kChecked || index + kChecked >= decoded.size();
        ++index;
        if (checked && MessageProperties::find(encoded, key) != std::optional<std::string_view>(value))
            std::abort();
    }
    (void)decoded.keys(); // the KEYS property split into tokens
    if (MessageProperties::decode(decoded.encode()) != decoded)
        std::abort();
    return 0;
}
