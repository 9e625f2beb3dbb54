#pragma once

// GET_FLUSH_SAMPLES (901), MQDesk's extension for the console's live flush graph
// (docs/remoting-extensions.md): the per-second flush samples a broker holds that are newer than
// a sequence number. A Java broker answers REQUEST_CODE_NOT_SUPPORTED (3); the Result carries
// that code so a caller can fall back to GET_BROKER_RUNTIME_INFO.

#include "broker/client/client_types.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::client {

class MQClientAPI;

// One second of the broker's flush behaviour, ending at `timestamp` (units in the names; latencies
// are 0 when nothing ran in that second).
struct FlushSample
{
    int64_t sequence = 0;
    int64_t timestamp = 0;   // ms since epoch
    int64_t epochSecond = 0; // s since epoch
    int64_t puts = 0;
    int64_t putTps = 0;
    int64_t putBytes = 0;
    int64_t flushes = 0;
    int64_t bytesFlushed = 0;
    int64_t flushTimeouts = 0;
    int64_t flushP50Micros = 0;
    int64_t flushP99Micros = 0;
    int64_t flushMaxMicros = 0;
    int64_t putToAckP50Micros = 0;
    int64_t putToAckP99Micros = 0;
    int64_t putToAckMaxMicros = 0;
    int64_t dataAtRiskBytes = 0;
    std::string flushDiskType; // SYNC_FLUSH or ASYNC_FLUSH during that second
    bool transientStorePoolEnable = false;
    // The write path: false for writePathKnown when the broker did not say (older brokers, the
    // console's history, a Java broker's runtime info).
    bool writePathKnown = false;
    bool writeWithoutMmap = false;
    int64_t warmUps = 0; // commit-log warm-ups that ended in that second
    int64_t warmedBytes = 0;
    int64_t warmMicros = 0;
};

// The broker's write-path knobs now and the warm-up totals since it started.
struct WritePathState
{
    bool known = false; // the answer had a writePath member
    bool writeWithoutMmap = false;
    bool warmMapedFileEnable = false;
    int64_t flushLeastPagesWhenWarmMapedFile = 0;
    bool useReentrantLockWhenPutMessage = true;
    int64_t warmUps = 0;
    int64_t warmedBytes = 0;
    int64_t warmMicros = 0;
};

// One answer: the broker's state now and the samples after the request's sinceSequence.
struct FlushSamples
{
    int64_t bootTimestamp = 0; // ms; a change means the broker restarted
    int32_t capacity = 0;
    std::string flushDiskType;
    bool transientStorePoolEnable = false;
    int64_t nextSequence = 0;             // the sinceSequence to send next
    int64_t fdatasyncReferenceMicros = 0; // 0 when the broker does not say (it omits it)
    WritePathState writePath;
    std::vector<FlushSample> samples;     // oldest first
};

// Parses the JSON body; `error` names the member that is wrong.
bool parseFlushSamples(std::string_view body, FlushSamples &out, std::string &error);

// Sends GET_FLUSH_SAMPLES to the broker at `addr` ("ip:port").
Result<FlushSamples> getFlushSamples(MQClientAPI &api, const std::string &addr, int64_t sinceSequence);

} // namespace mqdesk::client
