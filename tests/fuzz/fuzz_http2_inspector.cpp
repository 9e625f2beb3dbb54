// libFuzzer target: what a client sends the gRPC port, as the guard's HTTP/2 inspector reads it
// (broker/grpc/http2_inspector.h). The input is a run of chunks: a length byte, a direction bit
// in its top bit (set: grpc++'s bytes to the client), a clock step, then that many bytes. Two
// connections share one budget; whatever the bytes, the shared stream count stays the sum of
// what the connections hold and what lingers, and is back to the lingering alone once both are
// gone. A well-formed preface is prepended half the time, so frames past it are reached.

#include "broker/grpc/http2_inspector.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>

using namespace mqdesk::grpc;
using Clock = std::chrono::steady_clock;

namespace {

size_t lingering(const Http2SharedBudget &shared)
{
    size_t total = 0;
    for (const auto &[when, streams] : shared.lingering)
        total += streams;
    return total;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    Http2Limits limits;
    limits.maxHeaderBlockBytes = 4096;
    limits.maxOpenStreams = 16;
    limits.maxTotalOpenStreams = 24;
    limits.resetBurst = 8;
    limits.idleFrameBurst = 8;
    Clock::time_point now{};
    Http2SharedBudget shared(limits, now);
    shared.closeBiggestHolder = [](const Http2Inspector &asker) { return asker.openStreams() < 2; };
    auto first = std::make_unique<Http2Inspector>(limits, shared, now);
    auto second = std::make_unique<Http2Inspector>(limits, shared, now);
    if (data[0] & 1) {
        static const char preface[] = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
        first->feed(std::span(reinterpret_cast<const uint8_t *>(preface), 24), now);
        second->feed(std::span(reinterpret_cast<const uint8_t *>(preface), 24), now);
    }
    size_t at = 1;
    while (at + 2 <= size) {
        const uint8_t control = data[at];
        const size_t length = std::min<size_t>(control & 0x3f, size - at - 2);
        now += std::chrono::milliseconds(data[at + 1]);
        const std::span<const uint8_t> chunk(data + at + 2, length);
        Http2Inspector &target = (control & 0x40) ? *second : *first;
        if (control & 0x80)
            target.feedFromServer(chunk);
        else
            target.feed(chunk, now);
        shared.expire(now);
        if (shared.openStreams != first->openStreams() + second->openStreams() + lingering(shared))
            std::abort();
        at += 2 + length;
    }
    first.reset();
    second.reset();
    if (shared.openStreams != lingering(shared))
        std::abort();
    shared.expire(Clock::now() + Http2SharedBudget::kStreamLinger); // an inspector lingers from its real end
    if (shared.openStreams != 0)
        std::abort();
    return 0;
}
