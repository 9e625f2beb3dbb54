#include "broker/client/transaction_producer.h"

#include "broker/common/message_id.h"
#include "broker/common/message_properties.h"
#include "broker/common/record_codec.h"
#include "broker/remoting/net/processor_executor.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/net/remoting_client.h"
#include "broker/remoting/remoting_codes.h"

#include <spdlog/spdlog.h>

namespace mqdesk::client {

using remoting::RemotingCommand;
using remoting::RequestCode;

namespace {

int32_t commitOrRollbackOf(LocalTransactionState state)
{
    switch (state) {
    case LocalTransactionState::CommitMessage: return common::sysflag::kTransactionCommit;
    case LocalTransactionState::RollbackMessage: return common::sysflag::kTransactionRollback;
    case LocalTransactionState::Unknown: return common::sysflag::kTransactionNotType;
    }
    return common::sysflag::kTransactionNotType;
}

} // namespace

std::string_view localTransactionStateName(LocalTransactionState state)
{
    switch (state) {
    case LocalTransactionState::CommitMessage: return "COMMIT_MESSAGE";
    case LocalTransactionState::RollbackMessage: return "ROLLBACK_MESSAGE";
    case LocalTransactionState::Unknown: return "UNKNOW";
    }
    return "UNKNOW";
}

TransactionProducer::TransactionProducer(ClientConfig config, ProducerOptions options,
                                         TransactionCheckListener checkListener)
    : producer_(std::move(config), std::move(options)), checkListener_(std::move(checkListener)),
      checkExecutor_(std::make_unique<remoting::ProcessorExecutor>("tx-check", 1, 2000))
{
    producer_.api().remotingClient().registerProcessor(
        RequestCode::kCheckTransactionState,
        [this](const remoting::RequestContext &context, RemotingCommand request, remoting::Responder) {
            onCheck(context, std::move(request));
        },
        *checkExecutor_);
}

TransactionProducer::~TransactionProducer()
{
    shutdown();
    checkExecutor_->shutdown();
}

Status TransactionProducer::start()
{
    if (!checkListener_)
        return Status::failure(clientCode::kIllegalArgument, "a transaction producer needs a check listener");
    return producer_.start();
}

void TransactionProducer::shutdown()
{
    producer_.shutdown();
}

Result<TransactionSendResult> TransactionProducer::sendMessageInTransaction(const Message &message,
                                                                           const LocalTransactionExecutor &execute)
{
    if (message.delayLevel > 0)
        return Status::failure(clientCode::kIllegalArgument, "delay levels are not supported for transaction messages");
    Message half = message;
    half.properties[std::string(common::property::kTransactionPrepared)] = "true";
    half.properties[std::string(common::property::kProducerGroup)] = producer_.options().group;
    Result<SendResult> sent = producer_.send(half);
    if (!sent.ok)
        return sent.status();
    TransactionSendResult result;
    result.send = sent.value;
    result.state = execute ? execute(message, sent.value) : LocalTransactionState::Unknown;
    const auto id = common::decodeOffsetMessageId(sent.value.msgId);
    if (!id)
        return Status::failure(clientCode::kBadResponse, "the broker's message id " + sent.value.msgId
                                                             + " is not an offset message id");
    // The broker asks a producer group's live channel about undecided halves: make sure it knows
    // this one now rather than at the next periodic heartbeat.
    bool announce = false;
    {
        std::lock_guard lock(mutex_);
        announce = announced_.insert(id->storeHost.toString()).second;
    }
    if (announce)
        producer_.sendHeartbeat();
    endTransaction(id->storeHost.toString(), sent.value.uniqKey, sent.value.queueOffset, id->commitLogOffset,
                   result.state, false);
    return result;
}

void TransactionProducer::endTransaction(const std::string &brokerAddr, const std::string &uniqKey, int64_t queueOffset,
                                         int64_t commitLogOffset, LocalTransactionState state, bool fromCheck)
{
    RemotingCommand request = RemotingCommand::createRequest(RequestCode::kEndTransaction);
    remoting::setField(request.extFields, "producerGroup", producer_.options().group);
    remoting::setField(request.extFields, "tranStateTableOffset", queueOffset);
    remoting::setField(request.extFields, "commitLogOffset", commitLogOffset);
    remoting::setField(request.extFields, "commitOrRollback", commitOrRollbackOf(state));
    remoting::setField(request.extFields, "fromTransactionCheck", fromCheck);
    remoting::setField(request.extFields, "msgId", uniqKey);
    remoting::setField(request.extFields, "transactionId", uniqKey);
    producer_.api().prepareRequest(request);
    std::string error;
    if (!producer_.api().remotingClient().invokeOneway(brokerAddr, std::move(request), &error))
        spdlog::warn("transaction: END_TRANSACTION to {} failed: {} (the broker will ask again)", brokerAddr, error);
}

void TransactionProducer::onCheck(const remoting::RequestContext &context, RemotingCommand request)
{
    remoting::HeaderReader reader(request.extFields);
    const int64_t queueOffset = reader.requireInt64("tranStateTableOffset");
    const int64_t commitLogOffset = reader.requireInt64("commitLogOffset");
    const std::string uniqKey = reader.optString("msgId");
    const auto decoded = common::decodeRecord(request.body);
    if (!reader.ok() || decoded.status != common::DecodeStatus::Ok) {
        spdlog::warn("transaction: unreadable CHECK_TRANSACTION_STATE from {}: {}", context.peerAddress(),
                     reader.ok() ? "bad message body" : reader.error());
        return;
    }
    const common::StoredMessage half = decoded.record.materialize();
    const LocalTransactionState state = checkListener_(half);
    endTransaction(context.peerAddress(), uniqKey, queueOffset, commitLogOffset, state, true);
}

} // namespace mqdesk::client
