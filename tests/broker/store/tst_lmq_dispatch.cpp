// LMQ multi-dispatch (store-format §LMQ; RocketMQ 5.5's lite topics are LMQs): with enableLmq a
// message whose INNER_MULTI_DISPATCH names `%LMQ%` queues is numbered in each at append
// (INNER_MULTI_QUEUE_OFFSET, written into the record as Java writes it), and with
// enableMultiDispatch its entry is written into each queue's consume queue (queue 0) too; the
// numbering continues across a restart and the verifier finds the store clean. Off (Java's
// default), the property is stored as sent and no LMQ is made.

#include "store_reader_test_util.h"

#include "broker/store/consume_queue_store.h"

#include <filesystem>

using namespace mqdesk;
using namespace mqdesk::store;
using namespace mqdesk::test;

namespace {

constexpr const char *kLmqA = "%LMQ%$Orders$user-1";
constexpr const char *kLmqB = "%LMQ%$Orders$user-2";

common::BrokerMessage lmqMessage(const std::string &body, const std::string &lmqs)
{
    common::BrokerMessage message = makeMessage("Orders", 1, body);
    message.properties.set(common::property::kInnerMultiDispatch, lmqs);
    return message;
}

MessageStoreConfig lmqStoreConfig(const QString &root)
{
    auto config = smallStoreConfig(root);
    config.enableLmq = true;
    config.enableMultiDispatch = true;
    return config;
}

std::vector<std::string> bodiesIn(MessageStore &store, const std::string &topic, int32_t queueId)
{
    std::vector<std::string> bodies;
    for (const common::StoredMessage &message : store.getMessage(topic, queueId, 0, 32).messages)
        bodies.push_back(message.bodyText());
    return bodies;
}

std::string queueOffsetsOf(const common::StoredMessage &message)
{
    return std::string(message.properties.get(common::property::kInnerMultiQueueOffset).value_or("<none>"));
}

} // namespace

class LmqDispatchTest : public QObject
{
    Q_OBJECT

private slots:
    void messagesAreNumberedAndEnteredInTheirLmqs()
    {
        QTemporaryDir dir;
        const auto config = lmqStoreConfig(dir.path());
        {
            auto store = openStore(config);
            QVERIFY(store);
            QVERIFY(store->putMessage(lmqMessage("m0", std::string(kLmqA) + "," + kLmqB)).stored());
            QVERIFY(store->putMessage(lmqMessage("m1", kLmqA)).stored());
            // A name that is no LMQ gets an empty offset (Java joins its null so) and no entry.
            QVERIFY(store->putMessage(lmqMessage("m2", std::string("plain,") + kLmqB)).stored());
            store->waitForDispatch();

            const auto records = allRecords(store->commitLog());
            QCOMPARE(records.size(), size_t{3});
            QCOMPARE(queueOffsetsOf(records[0]), std::string("0,0"));
            QCOMPARE(queueOffsetsOf(records[1]), std::string("1"));
            QCOMPARE(queueOffsetsOf(records[2]), std::string(",1"));
            QCOMPARE(bodiesIn(*store, kLmqA, 0), (std::vector<std::string>{"m0", "m1"}));
            QCOMPARE(bodiesIn(*store, kLmqB, 0), (std::vector<std::string>{"m0", "m2"}));
            // The parent queue holds all three as usual; a batch is never multi-dispatched.
            QCOMPARE(bodiesIn(*store, "Orders", 1), (std::vector<std::string>{"m0", "m1", "m2"}));
            QVERIFY(!store->consumeQueues().find("plain", 1));
            store->shutdown();
        }
        QVERIFY(std::filesystem::is_directory(dir.path().toStdString() + "/consumequeue/" + kLmqA + "/0"));
        {
            auto store = openStore(config);
            QVERIFY(store);
            QCOMPARE(store->maxOffsetInQueue(kLmqA, 0), int64_t{2});
            QVERIFY(store->putMessage(lmqMessage("m3", kLmqA)).stored());
            store->waitForDispatch();
            QCOMPARE(queueOffsetsOf(allRecords(store->commitLog()).back()), std::string("2"));
            QCOMPARE(bodiesIn(*store, kLmqA, 0), (std::vector<std::string>{"m0", "m1", "m3"}));
            store->shutdown();
        }
        auto reader = openReader(dir.path().toStdString());
        QVERIFY(reader);
        const auto report = verifyStore(*reader, {});
        QVERIFY2(report.healthy(), listFaults(report).c_str());
    }

    // Both switches on is MQDesk's default (Java's is off, and then the property is only stored).
    void switchedOffTheDispatchPropertyIsOnlyStored()
    {
        QTemporaryDir dir;
        QVERIFY(store::MessageStoreConfig{}.enableLmq && store::MessageStoreConfig{}.enableMultiDispatch);
        store::MessageStoreConfig config = smallStoreConfig(dir.path());
        config.enableLmq = false;
        config.enableMultiDispatch = false;
        auto store = openStore(config);
        QVERIFY(store);
        QVERIFY(store->putMessage(lmqMessage("m0", kLmqA)).stored());
        store->waitForDispatch();
        QCOMPARE(queueOffsetsOf(allRecords(store->commitLog()).front()), std::string("<none>"));
        QVERIFY(!store->consumeQueues().find(kLmqA, 0));
        QCOMPARE(bodiesIn(*store, "Orders", 1), (std::vector<std::string>{"m0"}));
    }

    // Retries and system topics are never entered in LMQs (MixAll.topicAllowsLMQ).
    void retriesAreNotEntered()
    {
        QTemporaryDir dir;
        auto store = openStore(lmqStoreConfig(dir.path()));
        QVERIFY(store);
        common::BrokerMessage retry = lmqMessage("r0", kLmqA);
        retry.topic = "%RETRY%G";
        retry.queueId = 0;
        QVERIFY(store->putMessage(retry).stored());
        store->waitForDispatch();
        QCOMPARE(queueOffsetsOf(allRecords(store->commitLog()).front()), std::string("<none>"));
        QVERIFY(!store->consumeQueues().find(kLmqA, 0));
    }

    // enableLmqQuota: at maxLmqConsumeQueueNum LMQs a message naming a new one is refused whole
    // (nothing appended, no queue made), one naming only existing LMQs is stored; the count
    // includes the message's own new LMQs and survives a restart.
    void newLmqsBeyondTheQuotaAreRefused()
    {
        QTemporaryDir dir;
        auto config = lmqStoreConfig(dir.path());
        config.maxLmqConsumeQueueNum = 3;
        const std::string lmqC = "%LMQ%$Orders$user-3";
        const std::string lmqD = "%LMQ%$Orders$user-4";
        const auto expectRefused = [](const PutMessageResult &result) {
            QCOMPARE(result.status, PutMessageStatus::LmqConsumeQueueNumExceeded);
            QCOMPARE(result.error, std::string("[LMQ_CONSUME_QUEUE_NUM_EXCEEDED]lmq consume queue num exceeded."));
        };
        {
            auto store = openStore(config);
            QVERIFY(store);
            QVERIFY(store->putMessage(lmqMessage("m0", std::string(kLmqA) + "," + kLmqB)).stored());
            // Two new ones with room for one: refused, and so is the message, in no queue at all.
            expectRefused(store->putMessage(lmqMessage("two-new", lmqC + "," + lmqD)));
            QVERIFY(store->putMessage(lmqMessage("m1", lmqC + "," + kLmqA)).stored());
            expectRefused(store->putMessage(lmqMessage("fourth", lmqD)));
            QVERIFY(store->putMessage(lmqMessage("m2", std::string(kLmqB) + "," + lmqC)).stored());
            store->waitForDispatch();
            QCOMPARE(bodiesIn(*store, "Orders", 1), (std::vector<std::string>{"m0", "m1", "m2"}));
            QVERIFY(!store->consumeQueues().find(lmqD, 0));
            QCOMPARE(bodiesIn(*store, lmqC, 0), (std::vector<std::string>{"m1", "m2"}));
        }
        auto store = openStore(config); // recovered: still three LMQs
        QVERIFY(store);
        expectRefused(store->putMessage(lmqMessage("after-restart", lmqD)));
        QVERIFY(store->putMessage(lmqMessage("m3", kLmqA)).stored());
        config.enableLmqQuota = false;
        store.reset();
        store = openStore(config);
        QVERIFY(store);
        QVERIFY(store->putMessage(lmqMessage("unbounded", lmqD)).stored());
    }
};

QObject *createLmqDispatchTest() { return new LmqDispatchTest; }

#include "tst_lmq_dispatch.moc"
