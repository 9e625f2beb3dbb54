#include "broker/client/flush_samples.h"

#include "broker/client/mq_client_api.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/protocol/json_fields.h"
#include "broker/remoting/remoting_codes.h"

namespace mqdesk::client {

using remoting::JsonFieldReader;
using remoting::RemotingCommand;

bool parseFlushSamples(std::string_view body, FlushSamples &out, std::string &error)
{
    error.clear(); // the readers below fail once `error` holds anything
    out = FlushSamples();
    common::JsonValue root;
    if (!remoting::parseJsonObject(body, root, error))
        return false;
    JsonFieldReader reader(root, "", error);
    reader.readLong("bootTimestamp", out.bootTimestamp);
    reader.readInt("capacity", out.capacity);
    reader.readString("flushDiskType", out.flushDiskType);
    reader.readBool("transientStorePoolEnable", out.transientStorePoolEnable);
    reader.readLong("nextSequence", out.nextSequence);
    reader.readLong("fdatasyncReferenceMicros", out.fdatasyncReferenceMicros);
    if (const common::JsonValue *writePath = reader.member("writePath"); writePath && !writePath->isNull()) {
        WritePathState &state = out.writePath;
        JsonFieldReader knobs(*writePath, reader.pathOf("writePath"), error);
        if (!knobs.isObject()) {
            knobs.fail(reader.pathOf("writePath"), "expected an object");
            return false;
        }
        state.known = true;
        knobs.readBool("writeWithoutMmap", state.writeWithoutMmap);
        knobs.readBool("warmMapedFileEnable", state.warmMapedFileEnable);
        knobs.readLong("flushLeastPagesWhenWarmMapedFile", state.flushLeastPagesWhenWarmMapedFile);
        knobs.readBool("useReentrantLockWhenPutMessage", state.useReentrantLockWhenPutMessage);
        knobs.readLong("warmUps", state.warmUps);
        knobs.readLong("warmedBytes", state.warmedBytes);
        knobs.readLong("warmMicros", state.warmMicros);
        if (!knobs.ok())
            return false;
    }
    const common::JsonArray *samples = reader.array("samples");
    if (!reader.ok())
        return false;
    if (!samples)
        return true;
    out.samples.reserve(samples->size());
    for (size_t i = 0; i < samples->size(); ++i) {
        FlushSample sample;
        JsonFieldReader item((*samples)[i], reader.pathOf("samples") + "[" + std::to_string(i) + "]", error);
        if (!item.isObject()) {
            item.fail(reader.pathOf("samples") + "[" + std::to_string(i) + "]", "expected an object");
            return false;
        }
        item.readLong("sequence", sample.sequence);
        item.readLong("timestamp", sample.timestamp);
        item.readLong("epochSecond", sample.epochSecond);
        item.readLong("puts", sample.puts);
        item.readLong("putTps", sample.putTps);
        item.readLong("putBytes", sample.putBytes);
        item.readLong("flushes", sample.flushes);
        item.readLong("bytesFlushed", sample.bytesFlushed);
        item.readLong("flushTimeouts", sample.flushTimeouts);
        item.readLong("flushP50Micros", sample.flushP50Micros);
        item.readLong("flushP99Micros", sample.flushP99Micros);
        item.readLong("flushMaxMicros", sample.flushMaxMicros);
        item.readLong("putToAckP50Micros", sample.putToAckP50Micros);
        item.readLong("putToAckP99Micros", sample.putToAckP99Micros);
        item.readLong("putToAckMaxMicros", sample.putToAckMaxMicros);
        item.readLong("dataAtRiskBytes", sample.dataAtRiskBytes);
        item.readString("flushDiskType", sample.flushDiskType);
        item.readBool("transientStorePoolEnable", sample.transientStorePoolEnable);
        const common::JsonValue *path = item.member("writeWithoutMmap");
        sample.writePathKnown = path && !path->isNull();
        item.readBool("writeWithoutMmap", sample.writeWithoutMmap);
        item.readLong("warmUps", sample.warmUps);
        item.readLong("warmedBytes", sample.warmedBytes);
        item.readLong("warmMicros", sample.warmMicros);
        if (!item.ok())
            return false;
        out.samples.push_back(std::move(sample));
    }
    return true;
}

Result<FlushSamples> getFlushSamples(MQClientAPI &api, const std::string &addr, int64_t sinceSequence)
{
    remoting::ExtFields fields;
    remoting::setField(fields, "sinceSequence", sinceSequence);
    RemotingCommand request = RemotingCommand::createRequest(remoting::RequestCode::kGetFlushSamples, std::move(fields));
    const std::string what = MQClientAPI::describeRequest(addr, request);
    Result<RemotingCommand> response = api.invoke(addr, std::move(request), api.config().timeoutMillis);
    if (!response.ok)
        return response.status();
    if (response.value.code != remoting::ResponseCode::kSuccess)
        return MQClientAPI::responseFailure(what, response.value);
    FlushSamples samples;
    std::string error;
    const auto &body = response.value.body;
    if (!parseFlushSamples({reinterpret_cast<const char *>(body.data()), body.size()}, samples, error))
        return Status::failure(clientCode::kBadResponse, what + ": bad body: " + error);
    return Result<FlushSamples>(std::move(samples));
}

} // namespace mqdesk::client
