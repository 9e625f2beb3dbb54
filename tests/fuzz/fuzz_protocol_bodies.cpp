// libFuzzer target: the JSON request and response bodies of broker/remoting/protocol that a
// peer controls: heartbeat, lock batch, topic route, cluster info, register-broker (plain and
// compressed). The first byte picks the decoder; a failed decode must say why.

#include "broker/remoting/protocol/client_data.h"
#include "broker/remoting/protocol/lock_batch_body.h"
#include "broker/remoting/protocol/route_data.h"

#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>

using namespace mqdesk::remoting;

namespace {

template <typename Body>
void decode(std::string_view text)
{
    Body body;
    std::string error;
    if (!Body::fromJson(text, body, error) && error.empty())
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const std::string_view text(reinterpret_cast<const char *>(data + 1), size - 1);
    switch (data[0] % 6) {
    case 0: decode<HeartbeatData>(text); break;
    case 1: decode<LockBatchRequestBody>(text); break;
    case 2: decode<TopicRouteData>(text); break;
    case 3: decode<ClusterInfo>(text); break;
    case 4: decode<RegisterBrokerBody>(text); break;
    default: {
        RegisterBrokerBody body;
        std::string error;
        if (!RegisterBrokerBody::decodeCompressed(std::span<const uint8_t>(data + 1, size - 1), body, error)
            && error.empty())
            std::abort();
    }
    }
    return 0;
}
