// libFuzzer target: the JSON remoting header decoder (broker/remoting/remoting_header.h), the
// bytes a client puts after the header-length word. A header that decodes is written again by
// encodeJsonHeader and must decode to the same fields (the writer's output is our own dialect).

#include "broker/remoting/remoting_header.h"

#include <cstdint>
#include <cstdlib>
#include <span>

using namespace mqdesk::remoting;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    RemotingCommand command;
    if (!decodeJsonHeader(std::span<const uint8_t>(data, size), command).empty())
        return 0;
    const std::string written = encodeJsonHeader(command);
    RemotingCommand again;
    const std::string error = decodeJsonHeader(
        std::span<const uint8_t>(reinterpret_cast<const uint8_t *>(written.data()), written.size()), again);
    if (!error.empty() || again.code != command.code || again.opaque != command.opaque
        || again.flag != command.flag || again.version != command.version)
        std::abort();
    return 0;
}
