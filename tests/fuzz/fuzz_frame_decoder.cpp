// libFuzzer target: the remoting frame decoder (broker/remoting/remoting_codec.h) on what a peer
// may send. The input is fed once whole and once cut into chunks whose sizes come from the
// input itself, as socket reads cut a stream; both must agree on what they decode, because
// FrameDecoder promises that chunk boundaries do not matter. A successfully decoded frame is
// encoded again and must decode to the same header fields.

#include "broker/remoting/remoting_codec.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

using namespace mqdesk::remoting;

namespace {

// Small enough that length fields near the limit are reachable by mutation.
constexpr size_t kFuzzMaxFrameSize = 64 * 1024;

void checkReencodes(const RemotingCommand &command)
{
    const EncodeResult encoded = encodeFrame(command, kFuzzMaxFrameSize * 4);
    if (!encoded.ok())
        return; // e.g. a binary header whose key no longer fits: a refusal, not a crash
    const DecodeResult again = decodeFrame(encoded.bytes, kFuzzMaxFrameSize * 4);
    if (!again.ok() || again.command.code != command.code || again.command.opaque != command.opaque
        || again.command.flag != command.flag || again.command.body != command.body)
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::span<const uint8_t> input(data, size);

    // One frame, exactly.
    const DecodeResult single = decodeFrame(input, kFuzzMaxFrameSize);
    if (single.ok())
        checkReencodes(single.command);

    // A stream, whole.
    FrameDecoder whole(kFuzzMaxFrameSize);
    std::vector<RemotingCommand> wholeOut;
    const bool wholeOk = whole.feed(input, wholeOut);

    // The same stream in chunks of 1..16 bytes, sizes taken from the stream's own bytes.
    FrameDecoder chunked(kFuzzMaxFrameSize);
    std::vector<RemotingCommand> chunkedOut;
    bool chunkedOk = true;
    for (size_t at = 0; at < size && chunkedOk;) {
        const size_t chunk = std::min<size_t>(size - at, 1 + data[at] % 16);
        chunkedOk = chunked.feed(input.subspan(at, chunk), chunkedOut);
        at += chunk;
    }
    if (wholeOk != chunkedOk || wholeOut.size() != chunkedOut.size())
        std::abort();
    for (size_t i = 0; i < wholeOut.size(); ++i) {
        if (wholeOut[i].code != chunkedOut[i].code || wholeOut[i].body != chunkedOut[i].body)
            std::abort();
    }
    if (wholeOk && whole.pendingBytes() > size)
        std::abort(); // memory held grows with bytes received, not with the announced length
    return 0;
}
