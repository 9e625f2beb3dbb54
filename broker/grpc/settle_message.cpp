// The RPCs that settle a received message (AckMessage, ChangeInvisibleDuration,
// ForwardMessageToDeadLetterQueue) and the renewal of PushConsumer receipts (receipt_renewals.h).
// Each settling RPC first swaps the handle the client sent for the latest one a renewal made.

#include "broker/grpc/messaging_service.h"

#include "broker/common/clock.h"
#include "broker/grpc/message_codec.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/broker_config.h"
#include "broker/server/broker_controller.h"
#include "broker/server/pop/pop_records.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <mutex>

namespace mqdesk::grpc {

using remoting::RemotingCommand;
using remoting::RequestCode;
using remoting::ResponseCode;
using server::pop::ExtraInfo;

namespace {

// A receipt handle the client sends back: parsed, current, and of this broker's topic.
std::optional<ExtraInfo> readHandle(const std::string &handle, int64_t now, v2::Status &status)
{
    std::string error;
    std::optional<ExtraInfo> info = ExtraInfo::parse(handle, error);
    if (!info) {
        status = makeStatus(v2::Code::INVALID_RECEIPT_HANDLE, "receipt handle is malformed: " + error);
        return std::nullopt;
    }
    if (info->popTime + info->invisibleTime <= now) {
        status = makeStatus(v2::Code::INVALID_RECEIPT_HANDLE, "receipt handle has expired");
        return std::nullopt;
    }
    status = makeStatus(v2::Code::OK);
    return info;
}

// The handle after CHANGE_MESSAGE_INVISIBLETIME answered `answer`: the new checkpoint starts at
// this message (spec §5, the consistent form).
ExtraInfo changedHandle(const ExtraInfo &info, const RemotingCommand &answer)
{
    remoting::HeaderReader reader(answer.extFields);
    ExtraInfo renewed = info;
    renewed.ckStartOffset = info.queueOffset;
    renewed.popTime = reader.optInt64("popTime", common::wallMillis());
    renewed.invisibleTime = reader.optInt64("invisibleTime", 0);
    renewed.reviveQid = reader.optInt32("reviveQid", info.reviveQid);
    return renewed;
}

struct AckState
{
    v2::AckMessageResponse *response = nullptr;
    ::grpc::ServerUnaryReactor *reactor = nullptr;
    std::mutex mutex;
    std::vector<v2::AckMessageResultEntry> entries;
    size_t pending = 0;

    void finishOne(size_t index, v2::Status status)
    {
        std::unique_lock lock(mutex);
        *entries[index].mutable_status() = std::move(status);
        if (--pending != 0)
            return;
        bool allSame = true;
        for (const auto &e : entries)
            allSame = allSame && e.status().code() == entries.front().status().code();
        *response->mutable_status() =
            allSame ? entries.front().status() : makeStatus(v2::Code::MULTIPLE_RESULTS, "the entries had different results");
        for (auto &e : entries)
            *response->add_entries() = std::move(e);
        lock.unlock();
        reactor->Finish(::grpc::Status::OK);
    }
};

} // namespace

std::shared_ptr<GrpcClient> MessagingService::admitSettling(::grpc::CallbackServerContext *context,
                                                            const google::protobuf::Message *request,
                                                            const std::string &topic, const std::string &group,
                                                            v2::Status &refusal)
{
    std::shared_ptr<GrpcClient> client = admit(context, request, refusal);
    if (!client)
        return nullptr;
    if (refusal = checkTopicName(topic); !isOk(refusal))
        return nullptr;
    if (refusal = checkGroupName(group); !isOk(refusal))
        return nullptr;
    return client;
}

// ---- AckMessage --------------------------------------------------------------------------------

::grpc::ServerUnaryReactor *MessagingService::AckMessage(::grpc::CallbackServerContext *context,
                                                         const v2::AckMessageRequest *request,
                                                         v2::AckMessageResponse *response)
{
    const std::string &topic = request->topic().name();
    const std::string &group = request->group().name();
    v2::Status refusal;
    std::shared_ptr<GrpcClient> client = admitSettling(context, request, topic, group, refusal);
    if (!client)
        return answer(context, response, std::move(refusal));
    if (request->entries_size() == 0)
        return answer(context, response, makeStatus(v2::Code::BAD_REQUEST, "no entry to acknowledge"));

    auto state = std::make_shared<AckState>();
    state->response = response;
    state->reactor = context->DefaultReactor();
    state->entries.resize(static_cast<size_t>(request->entries_size()));
    state->pending = state->entries.size();
    for (size_t i = 0; i < state->entries.size(); ++i) {
        const v2::AckMessageEntry &entry = request->entries(static_cast<int>(i));
        state->entries[i].set_message_id(entry.message_id());
        state->entries[i].set_receipt_handle(entry.receipt_handle());
        renewals_.take({client->clientId(), group, entry.message_id(), entry.receipt_handle()},
                       [this, client, state, i, group, topic](const std::string &handle) {
                           v2::Status status;
                           const std::optional<ExtraInfo> info = readHandle(handle, common::wallMillis(), status);
                           if (!info) {
                               state->finishOne(i, std::move(status));
                               return;
                           }
                           RemotingCommand ack =
                               handleRequest(*client, RequestCode::kAckMessage, group, topic, *info, handle);
                           callBroker(*client, std::move(ack), kBrokerCallTimeout, [state, i](RemotingCommand answer) {
                               v2::Status result = statusOfResponse(answer, v2::Code::INTERNAL_SERVER_ERROR);
                               if (!isOk(result) && result.code() == v2::Code::INTERNAL_SERVER_ERROR)
                                   result.set_message("ack failed: " + result.message());
                               state->finishOne(i, std::move(result));
                           });
                       });
    }
    return state->reactor;
}

// ---- ChangeInvisibleDuration -------------------------------------------------------------------

::grpc::ServerUnaryReactor *MessagingService::ChangeInvisibleDuration(::grpc::CallbackServerContext *context,
                                                                      const v2::ChangeInvisibleDurationRequest *request,
                                                                      v2::ChangeInvisibleDurationResponse *response)
{
    const std::string &topic = request->topic().name();
    const std::string &group = request->group().name();
    v2::Status refusal;
    std::shared_ptr<GrpcClient> client = admitSettling(context, request, topic, group, refusal);
    if (!client)
        return answer(context, response, std::move(refusal));
    const int64_t invisible = toMillis(request->invisible_duration());
    if (invisible < 0 || invisible > kMaxInvisibleMillis)
        return answer(context, response,
                      makeStatus(v2::Code::ILLEGAL_INVISIBLE_TIME,
                                 "invisible duration " + std::to_string(invisible) + " ms is outside [0, 12 h]"));
    ::grpc::ServerUnaryReactor *reactor = context->DefaultReactor();
    // A PushConsumer's nack (a failed consumption, retried after its backoff) ends the renewal.
    renewals_.take(
        {client->clientId(), group, request->message_id(), request->receipt_handle()},
        [this, client, reactor, response, group, topic, invisible,
         suspend = request->suspend()](const std::string &handle) {
            v2::Status status;
            const std::optional<ExtraInfo> info = readHandle(handle, common::wallMillis(), status);
            if (!info) {
                *response->mutable_status() = std::move(status);
                response->set_receipt_handle(handle);
                reactor->Finish(::grpc::Status::OK);
                return;
            }
            RemotingCommand change =
                handleRequest(*client, RequestCode::kChangeMessageInvisibleTime, group, topic, *info, handle);
            remoting::setField(change.extFields, "invisibleTime", invisible);
            // 5.2.1's ConsumeResultSuspend and LiteSimpleConsumer: the lite batch comes back as a
            // whole and the return is not counted (the broker reads it with a liteTopic only).
            if (suspend)
                remoting::setField(change.extFields, "suspend", true);
            callBroker(*client, std::move(change), kBrokerCallTimeout,
                       [reactor, response, info = *info, handle](RemotingCommand answer) {
                           *response->mutable_status() = statusOfResponse(answer, v2::Code::INTERNAL_SERVER_ERROR);
                           response->set_receipt_handle(isOk(response->status()) ? changedHandle(info, answer).toString()
                                                                                 : handle);
                           reactor->Finish(::grpc::Status::OK);
                       });
        });
    return reactor;
}

// ---- ForwardMessageToDeadLetterQueue -----------------------------------------------------------

::grpc::ServerUnaryReactor *MessagingService::ForwardMessageToDeadLetterQueue(
    ::grpc::CallbackServerContext *context, const v2::ForwardMessageToDeadLetterQueueRequest *request,
    v2::ForwardMessageToDeadLetterQueueResponse *response)
{
    const std::string &topic = request->topic().name();
    const std::string &group = request->group().name();
    v2::Status refusal;
    std::shared_ptr<GrpcClient> client = admitSettling(context, request, topic, group, refusal);
    if (!client)
        return answer(context, response, std::move(refusal));
    ::grpc::ServerUnaryReactor *reactor = context->DefaultReactor();
    renewals_.take({client->clientId(), group, request->message_id(), request->receipt_handle()},
                   [this, client, reactor, response, group, topic, messageId = request->message_id(),
                    maxAttempts = request->max_delivery_attempts()](const std::string &handle) {
                       forwardToDeadLetter(client, reactor, response, group, topic, messageId, maxAttempts, handle);
                   });
    return reactor;
}

void MessagingService::forwardToDeadLetter(std::shared_ptr<GrpcClient> client, ::grpc::ServerUnaryReactor *reactor,
                                           v2::ForwardMessageToDeadLetterQueueResponse *response,
                                           const std::string &group, const std::string &topic,
                                           const std::string &messageId, int32_t maxDeliveryAttempts,
                                           const std::string &handle)
{
    v2::Status status;
    const std::optional<ExtraInfo> info = readHandle(handle, common::wallMillis(), status);
    if (!info || info->commitLogOffset < 0) {
        *response->mutable_status() = info ? makeStatus(v2::Code::INVALID_RECEIPT_HANDLE,
                                                        "receipt handle lacks the commit-log offset")
                                            : std::move(status);
        reactor->Finish(::grpc::Status::OK);
        return;
    }
    RemotingCommand sendBack = newRequest(*client, RequestCode::kConsumerSendMsgBack);
    remoting::setField(sendBack.extFields, "offset", info->commitLogOffset);
    remoting::setField(sendBack.extFields, "group", group);
    remoting::setField(sendBack.extFields, "delayLevel", int32_t{-1});
    remoting::setField(sendBack.extFields, "originMsgId", messageId);
    remoting::setField(sendBack.extFields, "originTopic", topic);
    remoting::setField(sendBack.extFields, "unitMode", false);
    remoting::setField(sendBack.extFields, "maxReconsumeTimes", std::max(maxDeliveryAttempts - 1, 0));
    callBroker(*client, std::move(sendBack), kBrokerCallTimeout,
               [this, client, reactor, response, info = *info, topic, group, handle](RemotingCommand answer) {
                   v2::Status result = statusOfResponse(answer, v2::Code::INTERNAL_SERVER_ERROR);
                   if (!isOk(result)) {
                       *response->mutable_status() = std::move(result);
                       reactor->Finish(::grpc::Status::OK);
                       return;
                   }
                   RemotingCommand ack = handleRequest(*client, RequestCode::kAckMessage, group, topic, info, handle);
                   callBroker(*client, std::move(ack), kBrokerCallTimeout, [reactor, response](RemotingCommand acked) {
                       *response->mutable_status() = statusOfResponse(acked, v2::Code::INTERNAL_SERVER_ERROR);
                       reactor->Finish(::grpc::Status::OK);
                   });
               });
}

// ---- Receipt renewal ---------------------------------------------------------------------------

void MessagingService::keepReceipt(const GrpcClient &client, const std::string &group, const std::string &topic,
                                   const std::string &messageId, const std::string &handle, int64_t visibleAgainMs)
{
    renewals_.add({client.clientId(), group, messageId, handle}, topic, common::wallMillis(), visibleAgainMs);
}

void MessagingService::renewDueReceipts(int64_t now)
{
    const server::BrokerConfig &config = broker_.brokerConfig();
    if (now - lastRenewScanMs_ < config.renewSchedulePeriodMillis)
        return;
    lastRenewScanMs_ = now;
    for (ReceiptRenewals::Due &due : renewals_.due(now, config.renewAheadTimeMillis, config.renewMaxTimeMillis)) {
        std::shared_ptr<GrpcClient> client = clients_.find(due.key.clientId);
        if (!client) {
            renewals_.forgetClient(due.key.clientId);
            continue;
        }
        v2::Status status;
        const std::optional<ExtraInfo> info = readHandle(due.handle, now, status);
        if (!info) {
            spdlog::info("grpc: cannot renew message {} of {}: {}", due.key.messageId, due.key.clientId, status.message());
            renewals_.renewed(due.key, std::nullopt);
            continue;
        }
        RemotingCommand change =
            handleRequest(*client, RequestCode::kChangeMessageInvisibleTime, due.key.group, due.topic, *info, due.handle);
        remoting::setField(change.extFields, "invisibleTime", due.invisibleMillis);
        callBroker(*client, std::move(change), kBrokerCallTimeout, [this, key = due.key, info = *info](RemotingCommand answer) {
            if (answer.code != ResponseCode::kSuccess) {
                spdlog::info("grpc: renewing message {} of {} failed: {}", key.messageId, key.clientId,
                             answer.remark.value_or(std::to_string(answer.code)));
                renewals_.renewed(key, std::nullopt);
                return;
            }
            const ExtraInfo renewed = changedHandle(info, answer);
            renewals_.renewed(key, std::make_pair(renewed.toString(), renewed.popTime + renewed.invisibleTime));
        });
    }
}

} // namespace mqdesk::grpc
