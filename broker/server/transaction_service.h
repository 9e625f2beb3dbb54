#pragma once

// Transaction messages (store-format §13, remoting spec §6.8), as RocketMQ 4.9 keeps them:
//  - a send with TRAN_MSG=true is stored as a half message in RMQ_SYS_TRANS_HALF_TOPIC queue 0
//    (REAL_TOPIC, REAL_QID and __transactionId__ added, transaction bits reset), so consumers
//    never see it;
//  - END_TRANSACTION commits (re-stores the half message's content in its real topic with the
//    COMMIT bits and the half record's offset as PREPARED TRANSACTION OFFSET) or rolls back, and
//    in both cases writes an op record ("<half queue offset>,", tag "d") to
//    RMQ_SYS_TRANS_OP_HALF_TOPIC that marks the half message done;
//  - the check service walks the half queue from its progress offset (consumerOffset.json,
//    group CID_RMQ_SYS_TRANS): a half message older than transactionTimeOut without an op record
//    is re-appended with TRANSACTION_CHECK_TIMES + 1 and its producer group is asked with
//    CHECK_TRANSACTION_STATE; after transactionCheckMax checks it moves to
//    TRANS_CHECK_MAX_TIME_TOPIC.
// Differences: op records are written one per END_TRANSACTION, not batched. A transaction is
// decided once, whatever copies check rounds and crashes left of its half message: each copy
// names its original (TRAN_PREPARED_QUEUE_OFFSET); a decision's op record lists the copy's and
// the original's queue offsets; END_TRANSACTION for a copy of a decided transaction stores
// nothing more, and a check round asks only about the newest copy of an undecided one (after a
// crash lost the round's progress, Java asks about each copy and stores a commit per answer).

#include "broker/common/message.h"
#include "broker/common/service_thread.h"
#include "broker/remoting/net/remoting_channel.h"

#include <cstdint>
#include <mutex>
#include <set>

namespace mqdesk::server {

class BrokerController;

inline constexpr const char *kTransactionCheckGroup = "CID_RMQ_SYS_TRANS";

class TransactionService : public common::ServiceThread
{
public:
    explicit TransactionService(BrokerController &broker);
    ~TransactionService() override;

    // Rewrites a prepared message (TRAN_MSG=true) into the half message stored instead.
    // Requires: the half topic exists (ensureTopics()).
    static void toHalfMessage(common::BrokerMessage &message);
    void ensureTopics();

    // END_TRANSACTION (37).
    void endTransaction(const remoting::RequestContext &context, remoting::RemotingCommand request,
                        remoting::Responder respond);

    // One check round now (the service runs one every transactionCheckInterval); for tests.
    void check();

protected:
    void run() override;

private:
    // Marks the half message at `halfQueueOffset` done: the op record; `origin` (the original's
    // queue offset, when it is a copy) is listed too, so that the transaction reads as decided
    // after a restart.
    bool writeOpRecord(int64_t halfQueueOffset, std::string &error, int64_t origin = -1);
    void loadRemovedOffsets();
    bool reappendAndAsk(const common::StoredMessage &half, int64_t halfQueueOffset);
    void moveToCheckMaxTopic(const common::StoredMessage &half, int64_t halfQueueOffset);

    BrokerController &broker_;
    std::mutex mutex_;
    std::set<int64_t> removed_; // half queue offsets with an op record, at or above the progress
    int64_t opProgress_ = 0;    // op queue offset read up to
    // Originals' queue offsets of the transactions decided while copies of them may remain (op
    // records read, and END_TRANSACTION, which marks one before its store and unmarks it when
    // the store fails).
    std::mutex decideMutex_;
    std::set<int64_t> decided_; // guarded by decideMutex_
};

} // namespace mqdesk::server
