// Ordered consumption over broker queue locks (remoting spec §6.7): LOCK_BATCH_MQ /
// UNLOCK_BATCH_MQ as the broker grants them, and an application consuming per-key sequences in
// order on PullConsumer::lockQueues across a hand-over between two consumers of one group.
// ali-ons has no orderly mode (spec §6.7), so the end-to-end proof here uses our C++ client;
// the raw-frame case checks the bodies a Java client sends and reads.

#include "../server/broker_test_util.h"

#include "broker/client/producer.h"
#include "broker/client/pull_consumer.h"
#include "broker/remoting/protocol/lock_batch_body.h"
#include "broker/server/rebalance_lock_manager.h"
#include "test_support.h"

#include <chrono>
#include <thread>

using namespace mqdesk;
using namespace mqdesk::client;
using mqdesk::test::TestBroker;

namespace {

constexpr int64_t kLockLifetimeMillis = 800;

ClientConfig clientNamed(const std::string &namesrv, const std::string &instance)
{
    ClientConfig config;
    config.namesrvAddr = namesrv;
    config.instanceName = instance; // one process, two clients: distinct clientIds
    return config;
}

std::set<MessageQueue> setOf(std::initializer_list<MessageQueue> queues) { return std::set<MessageQueue>(queues); }

// Per key, the sequence numbers in the order consumed.
using Seen = std::map<std::string, std::vector<int>>;

// Consumes up to `limit` messages of `queue` from the group's committed offset (0 when none),
// only while `consumer` holds the queue's lock, then commits. Returns how many it consumed.
int consumeLocked(PullConsumer &consumer, const MessageQueue &queue, int limit, Seen &seen)
{
    Result<int64_t> committed = consumer.fetchConsumeOffset(queue);
    int64_t offset = committed.ok ? committed.value : 0;
    int consumed = 0;
    while (consumed < limit) {
        Result<std::set<MessageQueue>> held = consumer.lockQueues({queue}); // renew before each batch
        if (!held.ok || !held.value.contains(queue))
            break;
        Result<PullResult> pulled = consumer.pull(queue, "*", offset, std::min(limit - consumed, 8));
        if (!pulled.ok || pulled.value.status != PullStatus::Found)
            break;
        for (const common::StoredMessage &message : pulled.value.messages) {
            const std::string body = message.bodyText();
            const size_t colon = body.find(':');
            seen[body.substr(0, colon)].push_back(std::stoi(body.substr(colon + 1)));
            ++consumed;
        }
        offset = pulled.value.nextBeginOffset;
    }
    if (!consumer.updateConsumeOffset(queue, offset).ok)
        qWarning("commit of %s failed", queue.toString().c_str());
    return consumed;
}

} // namespace

class OrderlyTest : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestBroker> broker_;

    // A topic with 4 queues (created through the TBW102 template by a first send).
    std::vector<MessageQueue> makeTopic(const std::string &topic)
    {
        Producer producer(clientNamed(broker_->namesrvAddress(), "maker"), {.group = "PG_ORDER_MAKER"});
        if (!producer.start().ok)
            return {};
        Message message;
        message.topic = topic;
        message.setBody("seed:0");
        if (!producer.send(message).ok)
            return {};
        Result<std::vector<MessageQueue>> queues = producer.fetchPublishMessageQueues(topic);
        return queues.ok ? queues.value : std::vector<MessageQueue>{};
    }

private slots:
    void initTestCase()
    {
        broker_ = std::make_unique<TestBroker>([](server::BrokerSettings &settings) {
            settings.broker.rebalanceLockMaxLiveTime = kLockLifetimeMillis;
        });
        std::string error;
        QVERIFY2(broker_->start(error), error.c_str());
    }
    void cleanupTestCase() { broker_.reset(); }

    // The table alone, time passed in: grant, renew, expiry take-over, non-holder unlock.
    void lockTableRules()
    {
        server::RebalanceLockManager locks(1000);
        const remoting::MessageQueue q0{"T", "broker-a", 0}, q1{"T", "broker-a", 1};
        using Queues = std::vector<remoting::MessageQueue>;
        QCOMPARE(locks.tryLockBatch("G", {q0, q0}, "c1", 0), Queues{q0});
        QCOMPARE(locks.tryLockBatch("G", {q0, q1}, "c2", 10), Queues{q1});
        QCOMPARE(locks.tryLockBatch("OTHER", {q0}, "c2", 10), Queues{q0}); // groups are separate
        QCOMPARE(locks.tryLockBatch("G", {q0}, "c1", 900), Queues{q0});   // renewal
        QCOMPARE(locks.tryLockBatch("G", {q0}, "c2", 1800), Queues{});    // 900 ms after the renewal
        QVERIFY(locks.isLockedBy("G", q0, "c1", 1900));
        QCOMPARE(locks.tryLockBatch("G", {q0}, "c2", 1901), Queues{q0});  // expired: taken over
        QVERIFY(!locks.isLockedBy("G", q0, "c1", 1901));
        QCOMPARE(locks.tryLockBatch("G", {q0}, "c1", 1902), Queues{});
        locks.unlockBatch("G", {q0, q1}, "c1"); // holds neither: nothing changes
        QVERIFY(locks.isLockedBy("G", q0, "c2", 1902));
        QVERIFY(locks.isLockedBy("G", q1, "c2", 1000));
        locks.unlockBatch("G", {q1}, "c2");
        QCOMPARE(locks.tryLockBatch("G", {q1}, "c1", 1903), Queues{q1});
    }


    // Across requests the table is bounded: a full table drops expired locks first, then grants
    // nothing new until locks expire or are released; held locks are still renewed.
    void lockTableIsBoundedAcrossRequests()
    {
        server::RebalanceLockManager locks(1000, 100);
        using Queues = std::vector<remoting::MessageQueue>;
        const auto queuesOf = [](const std::string &topic, int count) {
            Queues out;
            for (int i = 0; i < count; ++i)
                out.push_back({topic, "broker-a", i});
            return out;
        };
        QCOMPARE(locks.tryLockBatch("G1", queuesOf("A", 60), "c1", 0).size(), size_t{60});
        QCOMPARE(locks.tryLockBatch("G2", queuesOf("B", 60), "c2", 500).size(), size_t{40});
        QCOMPARE(locks.size(), size_t{100});
        QCOMPARE(locks.tryLockBatch("G3", queuesOf("C", 1), "c3", 900), Queues{});
        QCOMPARE(locks.tryLockBatch("G1", queuesOf("A", 1), "c1", 900).size(), size_t{1}); // a renewal
        // G1's other 59 locks expire at 1000 ms: a new group gets their room.
        QCOMPARE(locks.tryLockBatch("G3", queuesOf("C", 70), "c3", 1200).size(), size_t{59});
        QCOMPARE(locks.size(), size_t{100});
        QVERIFY(locks.isLockedBy("G1", {"A", "broker-a", 0}, "c1", 1200));
        locks.unlockBatch("G3", queuesOf("C", 70), "c3");
        QCOMPARE(locks.size(), size_t{41});
        QCOMPARE(locks.tryLockBatch("G4", queuesOf("D", 59), "c4", 1300).size(), size_t{59});
    }
    // The frames a Java client sends: fastjson's body in, {"lockOKMQSet":[…]} out.
    void javaShapedFrames()
    {
        using remoting::RemotingCommand;
        const std::string body = R"({"consumerGroup":"CG_RAW","clientId":"192.0.2.2@77","mqSet":[)"
                                 R"({"brokerName":"broker-a","queueId":0,"topic":"RawT"},)"
                                 R"({"brokerName":"broker-a","queueId":1,"topic":"RawT"}]})";
        const auto frame = [&](int32_t code, const std::string &text) {
            RemotingCommand request = RemotingCommand::createRequest(code);
            request.body.assign(text.begin(), text.end());
            return request;
        };
        RemotingCommand locked = broker_->call(frame(remoting::RequestCode::kLockBatchMq, body));
        QCOMPARE(locked.code, remoting::ResponseCode::kSuccess);
        QCOMPARE(test::bodyOf(locked), std::string(R"({"lockOKMQSet":[{"brokerName":"broker-a","queueId":0,"topic":"RawT"},)"
                                                   R"({"brokerName":"broker-a","queueId":1,"topic":"RawT"}]})"));
        RemotingCommand unlocked = broker_->call(frame(remoting::RequestCode::kUnlockBatchMq, body));
        QCOMPARE(unlocked.code, remoting::ResponseCode::kSuccess);
        QVERIFY(unlocked.body.empty());

        RemotingCommand bad = broker_->call(frame(remoting::RequestCode::kLockBatchMq, R"({"mqSet":[1]})"));
        QCOMPARE(bad.code, remoting::ResponseCode::kSystemError);
        QVERIFY2(bad.remark.value_or("").find("mqSet[0]") != std::string::npos, bad.remark.value_or("").c_str());
        RemotingCommand empty = broker_->call(frame(remoting::RequestCode::kUnlockBatchMq, ""));
        QCOMPARE(empty.code, remoting::ResponseCode::kSystemError);

        remoting::LockBatchRequestBody parsed;
        std::string error;
        QVERIFY2(remoting::LockBatchRequestBody::fromJson(body, parsed, error), error.c_str());
        QCOMPARE(parsed.clientId, std::string("192.0.2.2@77"));
        QCOMPARE(parsed.mqSet.size(), size_t(2));
        QCOMPARE(parsed.toJson(), std::string(R"({"clientId":"192.0.2.2@77","consumerGroup":"CG_RAW","mqSet":[)"
                                      R"({"brokerName":"broker-a","queueId":0,"topic":"RawT"},)"
                                      R"({"brokerName":"broker-a","queueId":1,"topic":"RawT"}]})"));
    }

    // Two clients of one group contend for the same queues over the wire.
    void twoClientsContend()
    {
        const std::vector<MessageQueue> queues = makeTopic("OrderLockTopic");
        QCOMPARE(queues.size(), size_t(4));
        const MessageQueue &q0 = queues[0], &q1 = queues[1], &q2 = queues[2], &q3 = queues[3];
        PullConsumer c1(clientNamed(broker_->namesrvAddress(), "c1"), {.group = "CG_LOCK"});
        PullConsumer c2(clientNamed(broker_->namesrvAddress(), "c2"), {.group = "CG_LOCK"});
        QVERIFY(c1.start().ok && c2.start().ok);

        QCOMPARE(c1.lockQueues({q0, q1}).value, setOf({q0, q1}));
        QCOMPARE(c2.lockQueues(queues).value, setOf({q2, q3})); // only what nobody holds
        QCOMPARE(c1.lockQueues({q0, q1}).value, setOf({q0, q1})); // the holder renews

        QVERIFY(c2.unlockQueues({q0}).ok); // a non-holder's unlock does nothing
        QCOMPARE(c2.lockQueues({q0}).value, setOf({}));
        QVERIFY(c1.unlockQueues({q1}).ok); // the holder's unlock frees it at once
        QCOMPARE(c2.lockQueues({q1}).value, setOf({q1}));
        QCOMPARE(c1.lockQueues({q1}).value, setOf({}));

        // Renewing more often than the lifetime keeps q0 through several lifetimes; each of
        // c2's attempts comes right after a renewal, so only the lock results are asserted.
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(3 * kLockLifetimeMillis);
        int rounds = 0;
        while (std::chrono::steady_clock::now() < deadline) {
            QCOMPARE(c1.lockQueues({q0}).value, setOf({q0}));
            QCOMPARE(c2.lockQueues({q0}).value, setOf({}));
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            ++rounds;
        }
        QVERIFY(rounds > 3);

        // c1 stops renewing: once its lock expired c2 takes q0, and c1 no longer gets it back.
        QTRY_COMPARE_WITH_TIMEOUT(c2.lockQueues({q0}).value, setOf({q0}), 10000);
        QCOMPARE(c1.lockQueues({q0}).value, setOf({}));
        QVERIFY(c2.unlockQueues(queues).ok);
        QCOMPARE(c1.lockQueues(queues).value, setOf({q0, q1, q2, q3}));

        // Another group is independent of CG_LOCK's locks.
        PullConsumer other(clientNamed(broker_->namesrvAddress(), "c3"), {.group = "CG_LOCK_OTHER"});
        QVERIFY(other.start().ok);
        QCOMPARE(other.lockQueues({q0}).value, setOf({q0}));
    }

    // Per-key sequences sent with selectByHash to 4 queues; two consumers each lock and consume
    // their half in order, then consumer 1 commits and unlocks and consumer 2 takes over its
    // queues from the committed offsets: every key is seen once, in order, without gaps.
    void orderedConsumptionWithHandOver()
    {
        const std::string topic = "OrderSeqTopic";
        const std::vector<MessageQueue> queues = makeTopic(topic);
        QCOMPARE(queues.size(), size_t(4));
        const int keys = 8, perKey = 20;
        {
            Producer producer(clientNamed(broker_->namesrvAddress(), "p"), {.group = "PG_ORDER"});
            QVERIFY(producer.start().ok);
            for (int seq = 0; seq < perKey; ++seq)
                for (int k = 0; k < keys; ++k) {
                    const std::string key = "order-" + std::to_string(k);
                    Message message;
                    message.topic = topic;
                    message.keys = {key};
                    message.setBody(key + ":" + std::to_string(seq));
                    Result<SendResult> sent = producer.send(message, selectByHash(key));
                    QVERIFY2(sent.ok, sent.error.c_str());
                }
        }
        const std::vector<MessageQueue> half1{queues[0], queues[1]}, half2{queues[2], queues[3]};
        PullConsumer c1(clientNamed(broker_->namesrvAddress(), "o1"), {.group = "CG_ORDER"});
        PullConsumer c2(clientNamed(broker_->namesrvAddress(), "o2"), {.group = "CG_ORDER"});
        QVERIFY(c1.start().ok && c2.start().ok);
        QVERIFY(c1.subscribe(topic).ok && c2.subscribe(topic).ok);
        QCOMPARE(c1.lockQueues(half1).value.size(), size_t(2));
        QCOMPARE(c2.lockQueues(half2).value.size(), size_t(2));
        QCOMPARE(c2.lockQueues(half1).value.size(), size_t(0));

        // The seed message of makeTopic is not part of any sequence.
        Seen seen;
        const auto dropSeed = [&] { seen.erase("seed"); };
        int consumed = 0;
        // Phase 1: part of each queue.
        for (const MessageQueue &queue : half1)
            consumed += consumeLocked(c1, queue, 13, seen);
        for (const MessageQueue &queue : half2)
            consumed += consumeLocked(c2, queue, 17, seen);
        QVERIFY(consumed > 0);

        // Hand-over: c1 committed in consumeLocked; it unlocks, c2 locks and continues.
        QVERIFY(c1.unlockQueues(half1).ok);
        QCOMPARE(c2.lockQueues(half1).value, std::set<MessageQueue>(half1.begin(), half1.end()));
        for (const MessageQueue &queue : queues)
            consumed += consumeLocked(c2, queue, 1000, seen);
        QCOMPARE(c1.lockQueues(half1).value.size(), size_t(0)); // c2 holds them now

        dropSeed();
        QCOMPARE(int(seen.size()), keys);
        std::vector<int> expected(perKey);
        for (int i = 0; i < perKey; ++i)
            expected[i] = i;
        for (const auto &[key, sequence] : seen)
            QVERIFY2(sequence == expected, key.c_str());
        QCOMPARE(consumed, keys * perKey + 1);
    }
};

QObject *createOrderlyTest() { return new OrderlyTest; }

#include "tst_orderly.moc"
