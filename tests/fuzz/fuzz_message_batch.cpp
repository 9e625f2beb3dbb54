// libFuzzer target: the SEND_BATCH_MESSAGE body decoder (broker/common/message_batch.h).

#include "broker/common/message_batch.h"

#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

using namespace mqdesk::common;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    std::vector<BrokerMessage> messages;
    std::string error;
    const bool ok = decodeMessageBatch(std::span<const uint8_t>(data, size), messages, error);
    if (ok != error.empty() || messages.size() > kMaxBatchMessages)
        std::abort();
    return 0;
}
