// Transactions through the C++ client against a real broker (remoting spec §6.8, store-format
// §13): commit, rollback, a producer that answers only the broker's check, one that never
// knows, the half/op records as RocketMQ stores them, and END_TRANSACTION's checks.

#include "../server/broker_test_util.h"

#include "broker/client/transaction_producer.h"
#include "broker/common/message.h"
#include "broker/common/message_id.h"
#include "broker/server/topic_manager.h"
#include "broker/server/transaction_service.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/message_store.h"
#include "test_support.h"

#include <atomic>
#include <mutex>
#include <set>

using namespace mqdesk;
using namespace mqdesk::client;
using mqdesk::test::TestBroker;

namespace {

// Short check timings so the check service acts within a test.
void fastChecks(server::BrokerSettings &settings)
{
    settings.broker.transactionTimeOut = 200;
    settings.broker.transactionCheckInterval = 200;
}

Message message(const std::string &topic, const std::string &body)
{
    Message m;
    m.topic = topic;
    m.tags = "TagT";
    m.keys = {"key-" + body};
    m.setBody(body);
    return m;
}

ProducerOptions group(const std::string &name, int retries = 2)
{
    ProducerOptions options;
    options.group = name;
    options.retryTimesWhenSendFailed = retries;
    return options;
}

ClientConfig configFor(TestBroker &broker)
{
    ClientConfig config;
    config.namesrvAddr = broker.namesrvAddress();
    return config;
}

// Every message stored in any queue of `topic` (queues 0..7).
std::vector<common::StoredMessage> storedIn(TestBroker &broker, const std::string &topic)
{
    std::vector<common::StoredMessage> all;
    for (int32_t queue = 0; queue < 8; ++queue) {
        const auto result = broker.controller().store().getMessage(topic, queue, 0, 64);
        all.insert(all.end(), result.messages.begin(), result.messages.end());
    }
    return all;
}

} // namespace

class TransactionTest : public QObject
{
    Q_OBJECT

private slots:
    void commitIsDeliveredRollbackIsNot()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        TransactionProducer producer(configFor(broker), group("PG_TX"),
                                     [](const common::StoredMessage &) { return LocalTransactionState::Unknown; });
        QVERIFY(producer.start().ok);

        const auto committed = producer.sendMessageInTransaction(
            message("TxTopic", "commit-me"), [](const Message &, const SendResult &) {
                return LocalTransactionState::CommitMessage;
            });
        QVERIFY2(committed.ok, committed.error.c_str());
        QCOMPARE(committed.value.state, LocalTransactionState::CommitMessage);
        const auto rolledBack = producer.sendMessageInTransaction(
            message("TxTopic", "roll-me"), [](const Message &, const SendResult &) {
                return LocalTransactionState::RollbackMessage;
            });
        QVERIFY2(rolledBack.ok, rolledBack.error.c_str());

        // Both half messages sit in the half topic, invisible to consumers of TxTopic; then the
        // commit appears in TxTopic and two op records mark both halves done.
        QTRY_COMPARE_WITH_TIMEOUT(storedIn(broker, server::kTransOpHalfTopic).size(), size_t{2}, 10000);
        const auto halves = storedIn(broker, server::kTransHalfTopic);
        QCOMPARE(halves.size(), size_t{2});
        for (const common::StoredMessage &half : halves) {
            QCOMPARE(std::string(half.properties.get("REAL_TOPIC").value_or("")), std::string("TxTopic"));
            QCOMPARE(std::string(half.properties.get("PGROUP").value_or("")), std::string("PG_TX"));
            QCOMPARE(half.sysFlag & common::sysflag::kTransactionMask, common::sysflag::kTransactionNotType);
            QVERIFY(half.properties.get("__transactionId__").has_value());
        }
        const auto delivered = storedIn(broker, "TxTopic");
        QCOMPARE(delivered.size(), size_t{1});
        const common::StoredMessage &real = delivered.front();
        QCOMPARE(real.bodyText(), std::string("commit-me"));
        QCOMPARE(real.tags(), std::string("TagT"));
        QCOMPARE(real.sysFlag & common::sysflag::kTransactionMask, common::sysflag::kTransactionCommit);
        const auto halfId = common::decodeOffsetMessageId(committed.value.send.msgId);
        QVERIFY(halfId.has_value());
        QCOMPARE(real.preparedTransactionOffset, halfId->commitLogOffset);
        QCOMPARE(std::string(real.properties.get("UNIQ_KEY").value_or("")), committed.value.send.uniqKey);

        std::vector<std::string> opBodies;
        for (const auto &op : storedIn(broker, server::kTransOpHalfTopic)) {
            opBodies.push_back(op.bodyText());
            QCOMPARE(op.tags(), std::string("d"));
        }
        std::sort(opBodies.begin(), opBodies.end());
        QCOMPARE(opBodies, (std::vector<std::string>{"0,", "1,"}));
    }

    void checkBackCommitsAnUnknownTransaction()
    {
        TestBroker broker(fastChecks);
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        std::mutex mutex;
        std::vector<common::StoredMessage> asked;
        TransactionProducer producer(configFor(broker), group("PG_CHECK"), [&](const common::StoredMessage &half) {
            std::lock_guard lock(mutex);
            asked.push_back(half);
            return LocalTransactionState::CommitMessage;
        });
        QVERIFY(producer.start().ok);
        const auto sent = producer.sendMessageInTransaction(
            message("TxChecked", "decided-later"),
            [](const Message &, const SendResult &) { return LocalTransactionState::Unknown; });
        QVERIFY2(sent.ok, sent.error.c_str());

        // Only the check-back's answer commits it.
        QTRY_COMPARE_WITH_TIMEOUT(storedIn(broker, "TxChecked").size(), size_t{1}, 15000);
        QCOMPARE(storedIn(broker, "TxChecked").front().bodyText(), std::string("decided-later"));
        std::lock_guard lock(mutex);
        QVERIFY(!asked.empty());
        // The check shows the message as the producer sent it: real topic, body, its UNIQ_KEY.
        QCOMPARE(asked.front().topic, std::string("TxChecked"));
        QCOMPARE(asked.front().bodyText(), std::string("decided-later"));
        QCOMPARE(std::string(asked.front().properties.get("UNIQ_KEY").value_or("")), sent.value.send.uniqKey);
    }

    // The check service starts with the first half message; after a restart, a half message the
    // store already holds starts it (no new one has to arrive).
    void aHalfMessageFromBeforeARestartIsChecked()
    {
        TestBroker broker([](server::BrokerSettings &settings) {
            fastChecks(settings);
            settings.broker.transactionTimeOut = 1500; // not checked before the restart
        });
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        {
            TransactionProducer gone(configFor(broker), group("PG_RESTART"),
                                     [](const common::StoredMessage &) { return LocalTransactionState::Unknown; });
            QVERIFY(gone.start().ok);
            const auto sent = gone.sendMessageInTransaction(
                message("TxRestart", "across"),
                [](const Message &, const SendResult &) { return LocalTransactionState::Unknown; });
            QVERIFY2(sent.ok, sent.error.c_str());
            gone.shutdown();
        }
        QVERIFY2(broker.restart(error), error.c_str());
        QVERIFY(storedIn(broker, "TxRestart").empty());
        TransactionProducer producer(configFor(broker), group("PG_RESTART"),
                                     [](const common::StoredMessage &) { return LocalTransactionState::CommitMessage; });
        QVERIFY(producer.start().ok);
        // Its group becomes known to the broker through a plain message (no new half message,
        // which would start the check service by itself) and a heartbeat.
        QVERIFY(producer.producer().send(message("TxRestart", "now")).ok);
        producer.producer().sendHeartbeat();
        QTRY_COMPARE_WITH_TIMEOUT(storedIn(broker, "TxRestart").size(), size_t{2}, 15000);
        std::set<std::string> bodies;
        for (const auto &stored : storedIn(broker, "TxRestart"))
            bodies.insert(stored.bodyText());
        QCOMPARE(bodies, (std::set<std::string>{"across", "now"}));
    }

    void undecidedTransactionRetiresAfterMaxChecks()
    {
        TestBroker broker([](server::BrokerSettings &settings) {
            fastChecks(settings);
            settings.broker.transactionCheckMax = 2;
        });
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        std::atomic<int> checks{0};
        TransactionProducer producer(configFor(broker), group("PG_NEVER"), [&](const common::StoredMessage &) {
            ++checks;
            return LocalTransactionState::Unknown;
        });
        QVERIFY(producer.start().ok);
        QVERIFY(producer
                    .sendMessageInTransaction(message("TxNever", "limbo"),
                                              [](const Message &, const SendResult &) {
                                                  return LocalTransactionState::Unknown;
                                              })
                    .ok);
        QTRY_COMPARE_WITH_TIMEOUT(storedIn(broker, server::kTransCheckMaxTimeTopic).size(), size_t{1}, 20000);
        QCOMPARE(checks.load(), 2);
        QVERIFY(storedIn(broker, "TxNever").empty());
    }

    void endTransactionChecksWhatItIsTold()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        TransactionProducer producer(configFor(broker), group("PG_A"),
                                     [](const common::StoredMessage &) { return LocalTransactionState::Unknown; });
        QVERIFY(producer.start().ok);
        const auto sent = producer.sendMessageInTransaction(
            message("TxWrong", "x"), [](const Message &, const SendResult &) { return LocalTransactionState::Unknown; });
        QVERIFY(sent.ok);
        const auto id = common::decodeOffsetMessageId(sent.value.send.msgId);
        QVERIFY(id.has_value());
        const auto end = [&](const std::string &group, int64_t queueOffset, int64_t commitLogOffset) {
            return broker.call(remoting::RemotingCommand::createRequest(
                remoting::RequestCode::kEndTransaction,
                {{"producerGroup", group}, {"tranStateTableOffset", std::to_string(queueOffset)},
                 {"commitLogOffset", std::to_string(commitLogOffset)}, {"commitOrRollback", "8"},
                 {"fromTransactionCheck", "false"}}));
        };
        auto response = end("PG_B", sent.value.send.queueOffset, id->commitLogOffset);
        QCOMPARE(response.code, remoting::ResponseCode::kSystemError);
        QCOMPARE(response.remark.value_or(""), std::string("The producer group wrong"));
        response = end("PG_A", sent.value.send.queueOffset + 5, id->commitLogOffset);
        QCOMPARE(response.remark.value_or(""), std::string("The transaction state table offset wrong"));
        response = end("PG_A", sent.value.send.queueOffset, id->commitLogOffset + 1);
        QCOMPARE(response.remark.value_or(""), std::string("Find prepared transaction message failed"));
        response = end("PG_A", sent.value.send.queueOffset, id->commitLogOffset);
        QCOMPARE(response.code, remoting::ResponseCode::kSuccess);
        QTRY_COMPARE_WITH_TIMEOUT(storedIn(broker, "TxWrong").size(), size_t{1}, 10000);
    }

    // Check rounds re-appended the half message twice, then a crash lost the rounds' progress:
    // the next round finds the original and both copies. It asks about the newest copy only,
    // and a commit for any other copy (a late answer) stores nothing more: the message is in
    // its topic once.
    void aTransactionIsDecidedOnceWhateverCopiesRemain()
    {
        TestBroker broker([](server::BrokerSettings &settings) {
            settings.broker.transactionTimeOut = 0;
            settings.broker.transactionCheckInterval = 3'600'000; // rounds run when the test says
        });
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        std::atomic<bool> knows{false};
        std::atomic<int> checks{0};
        TransactionProducer producer(configFor(broker), group("PG_ONCE"), [&](const common::StoredMessage &) {
            ++checks;
            return knows ? LocalTransactionState::CommitMessage : LocalTransactionState::Unknown;
        });
        QVERIFY(producer.start().ok);
        QVERIFY(producer
                    .sendMessageInTransaction(message("TxOnce", "exactly-once"),
                                              [](const Message &, const SendResult &) {
                                                  return LocalTransactionState::Unknown;
                                              })
                    .ok);
        server::TransactionService &service = broker.controller().transactions();
        // A round sees what the dispatcher has put in the half queue: wait for each copy there.
        QTRY_COMPARE_WITH_TIMEOUT(storedIn(broker, server::kTransHalfTopic).size(), size_t{1}, 10000);
        service.check();
        QTRY_COMPARE_WITH_TIMEOUT(checks.load(), 1, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(storedIn(broker, server::kTransHalfTopic).size(), size_t{2}, 10000);
        service.check();
        QTRY_COMPARE_WITH_TIMEOUT(checks.load(), 2, 10000);
        // The original and two copies.
        QTRY_COMPARE_WITH_TIMEOUT(storedIn(broker, server::kTransHalfTopic).size(), size_t{3}, 10000);

        // The crash: the check group's progress goes back to the start.
        broker.controller().offsets().commitOffset("", server::kTransactionCheckGroup, server::kTransHalfTopic, 0, 0);
        knows = true;
        service.check();
        QTRY_COMPARE_WITH_TIMEOUT(storedIn(broker, "TxOnce").size(), size_t{1}, 10000);
        QCOMPARE(checks.load(), 3); // one question for the three copies

        // A late commit for the first copy stores nothing.
        const auto firstCopy = broker.controller().store().getMessage(server::kTransHalfTopic, 0, 1, 1);
        QCOMPARE(firstCopy.messages.size(), size_t{1});
        const auto late = broker.call(remoting::RemotingCommand::createRequest(
            remoting::RequestCode::kEndTransaction,
            {{"producerGroup", "PG_ONCE"}, {"tranStateTableOffset", "1"},
             {"commitLogOffset", std::to_string(firstCopy.messages.front().physicalOffset)},
             {"commitOrRollback", "8"}, {"fromTransactionCheck", "true"}}));
        QCOMPARE(late.code, remoting::ResponseCode::kSuccess);
        service.check();
        QTest::qWait(300);
        QCOMPARE(storedIn(broker, "TxOnce").size(), size_t{1});
        QCOMPARE(storedIn(broker, "TxOnce").front().bodyText(), std::string("exactly-once"));
    }

    void brokerCanRefuseTransactions()
    {
        TestBroker broker([](server::BrokerSettings &settings) { settings.broker.rejectTransactionMessage = true; });
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        TransactionProducer producer(configFor(broker), group("PG_R", 0),
                                     [](const common::StoredMessage &) { return LocalTransactionState::Unknown; });
        QVERIFY(producer.start().ok);
        bool ran = false;
        const auto sent = producer.sendMessageInTransaction(message("TxRefused", "x"),
                                                            [&](const Message &, const SendResult &) {
                                                                ran = true;
                                                                return LocalTransactionState::CommitMessage;
                                                            });
        QVERIFY(!sent.ok);
        QCOMPARE(sent.code, remoting::ResponseCode::kNoPermission);
        QVERIFY(!ran);
    }
};

QObject *createTransactionTest() { return new TransactionTest; }

#include "tst_transactions.moc"
