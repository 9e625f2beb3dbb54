#pragma once

// TransactionProducer: RocketMQ's TransactionMQProducer over the Producer (remoting spec §6.8).
// sendMessageInTransaction sends a half message (TRAN_MSG=true, PGROUP, PREPARED bits), runs
// the local transaction, and reports its outcome with END_TRANSACTION (oneway, as Java). When
// the broker cannot learn the outcome (the producer answered UNKNOW, or crashed before
// answering) it asks later with CHECK_TRANSACTION_STATE; the check listener answers it on the
// producer's own executor, again with END_TRANSACTION (fromTransactionCheck=true).

#include "broker/client/producer.h"

#include <functional>
#include <mutex>
#include <set>
#include <memory>

namespace mqdesk::remoting {
class ProcessorExecutor;
}

namespace mqdesk::client {

enum class LocalTransactionState { CommitMessage, RollbackMessage, Unknown };
std::string_view localTransactionStateName(LocalTransactionState state);

struct TransactionSendResult
{
    SendResult send;
    LocalTransactionState state = LocalTransactionState::Unknown;
};

// Runs the local transaction for a half message that was stored. Called on the sending thread.
using LocalTransactionExecutor = std::function<LocalTransactionState(const Message &message, const SendResult &sent)>;
// Answers the broker's question about a half message (as stored: real topic and queue,
// properties, UNIQ_KEY). Called on the producer's check thread; may block briefly.
using TransactionCheckListener = std::function<LocalTransactionState(const common::StoredMessage &halfMessage)>;

class TransactionProducer
{
public:
    TransactionProducer(ClientConfig config, ProducerOptions options, TransactionCheckListener checkListener);
    ~TransactionProducer();
    TransactionProducer(const TransactionProducer &) = delete;
    TransactionProducer &operator=(const TransactionProducer &) = delete;

    Status start();
    void shutdown();

    // Fails without running `execute` when the half message cannot be sent (it was not stored).
    // Delay levels are not allowed on transaction messages (as in RocketMQ).
    Result<TransactionSendResult> sendMessageInTransaction(const Message &message,
                                                           const LocalTransactionExecutor &execute);
    Producer &producer() { return producer_; }

private:
    void endTransaction(const std::string &brokerAddr, const std::string &uniqKey, int64_t queueOffset,
                        int64_t commitLogOffset, LocalTransactionState state, bool fromCheck);
    void onCheck(const remoting::RequestContext &context, remoting::RemotingCommand request);

    Producer producer_;
    TransactionCheckListener checkListener_;
    std::mutex mutex_;
    std::set<std::string> announced_; // brokers told of this producer group (guarded by mutex_)
    std::unique_ptr<remoting::ProcessorExecutor> checkExecutor_;
};

} // namespace mqdesk::client
