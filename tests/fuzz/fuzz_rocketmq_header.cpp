// libFuzzer target: the ROCKETMQ binary remoting header decoder (broker/remoting/remoting_header.h).
// A header that decodes is encoded again and must decode to the same fields.

#include "broker/remoting/remoting_header.h"

#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

using namespace mqdesk::remoting;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    RemotingCommand command;
    if (!decodeRocketMqHeader(std::span<const uint8_t>(data, size), command).empty())
        return 0;
    std::vector<uint8_t> written;
    if (!encodeRocketMqHeader(command, written).empty())
        std::abort(); // every decoded value fits the fields it came from
    RemotingCommand again;
    if (!decodeRocketMqHeader(written, again).empty() || again.code != command.code
        || again.opaque != command.opaque || again.flag != command.flag || again.version != command.version
        || again.remark != command.remark)
        std::abort();
    return 0;
}
