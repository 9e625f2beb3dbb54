// Producer and PullConsumer against a real in-process broker (EmbeddedBroker on free ports).

#include "../server/broker_test_util.h"

#include "broker/client/admin_client.h"
#include "broker/client/producer.h"
#include "broker/client/pull_consumer.h"
#include "broker/common/java_hash.h"
#include "broker/common/message_id.h"
#include "test_support.h"

#include <chrono>
#include <future>

using namespace mqdesk;
using namespace mqdesk::client;
using mqdesk::test::TestBroker;

namespace {

Message makeMessage(const std::string &topic, const std::string &body, const std::string &tags = "TagA",
                    std::vector<std::string> keys = {})
{
    Message message;
    message.topic = topic;
    message.tags = tags;
    message.keys = std::move(keys);
    message.setBody(body);
    return message;
}

int64_t nowMillis()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// Every message of `queue` from `offset` on.
std::vector<common::StoredMessage> pullAll(PullConsumer &consumer, const MessageQueue &queue, int64_t offset = 0)
{
    std::vector<common::StoredMessage> all;
    for (int round = 0; round < 100; ++round) {
        Result<PullResult> result = consumer.pull(queue, "*", offset, 32);
        if (!result.ok) {
            qWarning("%s", result.error.c_str());
            break;
        }
        if (result.value.status != PullStatus::Found)
            break;
        all.insert(all.end(), result.value.messages.begin(), result.value.messages.end());
        offset = result.value.nextBeginOffset;
    }
    return all;
}

} // namespace

class ProducerConsumerTest : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestBroker> broker_;
    ClientConfig config_;

private slots:
    void initTestCase()
    {
        broker_ = std::make_unique<TestBroker>();
        std::string error;
        QVERIFY2(broker_->start(error), error.c_str());
        config_.namesrvAddr = broker_->namesrvAddress();
    }
    void cleanupTestCase() { broker_.reset(); }

    void sendAllWaysThenPullBack()
    {
        const std::string topic = "ClientAllWays";
        Producer producer(config_, {.group = "PG_ALL"});
        QVERIFY(producer.start().ok);
        const QueueSelector queue0 = [](const std::vector<MessageQueue> &, const Message &) { return size_t(0); };

        std::map<std::string, Message> sent;          // by uniq key
        std::map<std::string, std::string> msgIdOf;   // uniq key → offset msg id
        for (int i = 0; i < 3; ++i) {
            Message message = makeMessage(topic, "sync-" + std::to_string(i), "TagS", {"k" + std::to_string(i), "common"});
            message.properties["color"] = "red";
            message.flag = 40 + i;
            Result<SendResult> result = producer.send(message, queue0);
            QVERIFY2(result.ok, result.error.c_str());
            QCOMPARE(result.value.status, SendStatus::SendOk);
            QCOMPARE(result.value.queue, (MessageQueue{topic, "broker-a", 0}));
            sent[result.value.uniqKey] = message;
            msgIdOf[result.value.uniqKey] = result.value.msgId;
        }
        for (int i = 0; i < 2; ++i) {
            Message message = makeMessage(topic, "async-" + std::to_string(i), "TagB");
            std::promise<Result<SendResult>> done;
            producer.sendAsync(message, [&done](Result<SendResult> r) { done.set_value(std::move(r)); }, queue0);
            Result<SendResult> result = done.get_future().get();
            QVERIFY2(result.ok, result.error.c_str());
            sent[result.value.uniqKey] = message;
            msgIdOf[result.value.uniqKey] = result.value.msgId;
        }
        Message oneway = makeMessage(topic, "oneway", "TagO", {"ow"});
        QVERIFY(producer.sendOneway(oneway, queue0).ok);
        std::vector<Message> batch;
        for (int i = 0; i < 3; ++i)
            batch.push_back(makeMessage(topic, "batch-" + std::to_string(i), "TagBatch", {"b" + std::to_string(i)}));
        Result<SendResult> batchResult = producer.sendBatch(batch);
        QVERIFY2(batchResult.ok, batchResult.error.c_str());
        QCOMPARE(batchResult.value.msgIds().size(), size_t(3));
        QCOMPARE(batchResult.value.uniqKeys().size(), size_t(3));
        const MessageQueue batchQueue = batchResult.value.queue;
        for (int i = 0; i < 3; ++i) {
            sent[batchResult.value.uniqKeys()[i]] = batch[i];
            msgIdOf[batchResult.value.uniqKeys()[i]] = batchResult.value.msgIds()[i];
        }

        PullConsumer consumer(config_, {.group = "CG_ALL"});
        QVERIFY(consumer.start().ok);
        const MessageQueue q0{topic, "broker-a", 0};
        QTRY_COMPARE_WITH_TIMEOUT(consumer.maxOffset(q0).value, int64_t(6 + (batchQueue == q0 ? 3 : 0)), 10000);
        std::vector<common::StoredMessage> pulled = pullAll(consumer, q0);
        if (!(batchQueue == q0)) {
            const std::vector<common::StoredMessage> more = pullAll(consumer, batchQueue);
            pulled.insert(pulled.end(), more.begin(), more.end());
        }
        QCOMPARE(pulled.size(), size_t(9));

        std::map<std::string, int64_t> lastOffsetOfQueue;
        const std::string brokerHost = broker_->brokerAddress();
        bool sawOneway = false;
        for (const common::StoredMessage &message : pulled) {
            const std::string uniq(message.properties.get(common::property::kUniqClientMessageId).value_or(""));
            QVERIFY2(common::decodeUniqKey(uniq, nowMillis()).has_value(), uniq.c_str());
            // Queue offsets are consecutive per queue.
            const std::string queueKey = std::to_string(message.queueId);
            if (lastOffsetOfQueue.count(queueKey))
                QCOMPARE(message.queueOffset, lastOffsetOfQueue[queueKey] + 1);
            lastOffsetOfQueue[queueKey] = message.queueOffset;
            if (message.bodyText() == "oneway") {
                sawOneway = true;
                QCOMPARE(message.tags(), std::string("TagO"));
                QCOMPARE(message.properties.get(common::property::kKeys).value_or(""), std::string_view("ow"));
                continue;
            }
            QVERIFY2(sent.count(uniq), uniq.c_str());
            const Message &original = sent[uniq];
            QCOMPARE(message.bodyText(), std::string(original.body.begin(), original.body.end()));
            QCOMPARE(message.topic, topic);
            QCOMPARE(message.tags(), original.tags);
            QCOMPARE(message.flag, original.flag);
            std::string keys;
            for (const std::string &key : original.keys)
                keys += (keys.empty() ? "" : " ") + key;
            QCOMPARE(std::string(message.properties.get(common::property::kKeys).value_or("")), keys);
            for (const auto &[key, value] : original.properties)
                QCOMPARE(std::string(message.properties.get(key).value_or("")), value);
            // The broker's msg id names this record: its store host and commit-log offset.
            const auto id = common::decodeOffsetMessageId(msgIdOf[uniq]);
            QVERIFY(id);
            QCOMPARE(id->commitLogOffset, message.physicalOffset);
            QCOMPARE(id->storeHost, message.storeHost);
            QCOMPARE(id->storeHost.toString(), brokerHost);
        }
        QVERIFY(sawOneway);
    }

    void roundRobinAndHashSelection()
    {
        const std::string topic = "ClientRoundRobin";
        Producer producer(config_, {.group = "PG_RR"});
        QVERIFY(producer.start().ok);
        Result<std::vector<MessageQueue>> queues = producer.fetchPublishMessageQueues(topic);
        QVERIFY2(queues.ok, queues.error.c_str());
        QCOMPARE(queues.value.size(), size_t(4));
        std::map<int32_t, int> perQueue;
        int32_t previous = -1;
        for (int i = 0; i < 8; ++i) {
            Result<SendResult> result = producer.send(makeMessage(topic, "rr"));
            QVERIFY2(result.ok, result.error.c_str());
            if (previous >= 0)
                QCOMPARE(result.value.queue.queueId, (previous + 1) % 4);
            previous = result.value.queue.queueId;
            ++perQueue[result.value.queue.queueId];
        }
        QCOMPARE(perQueue.size(), size_t(4));
        for (const auto &[queue, count] : perQueue)
            QCOMPARE(count, 2);
        const QueueSelector byKey = selectByHash("order-42");
        const int32_t expected = std::abs(common::javaStringHashCode("order-42")) % 4;
        for (int i = 0; i < 3; ++i) {
            Result<SendResult> result = producer.send(makeMessage(topic, "hashed"), byKey);
            QVERIFY(result.ok);
            QCOMPARE(result.value.queue.queueId, expected);
        }
    }

    void routeRefreshesAfterTopicChanges()
    {
        ClientConfig config = config_;
        config.pollNameServerIntervalMillis = 200;
        AdminClient admin(config_);
        remoting::TopicConfigData topic{.topicName = "ClientRefresh", .readQueueNums = 2, .writeQueueNums = 2};
        Status created = admin.createTopic({}, topic);
        QVERIFY2(created.ok, created.error.c_str());
        Producer producer(config, {.group = "PG_REFRESH"});
        QVERIFY(producer.start().ok);
        QCOMPARE(producer.fetchPublishMessageQueues("ClientRefresh").value.size(), size_t(2));
        topic.readQueueNums = topic.writeQueueNums = 6;
        QVERIFY(admin.createTopic({}, topic).ok);
        QTRY_COMPARE_WITH_TIMEOUT(producer.fetchPublishMessageQueues("ClientRefresh").value.size(), size_t(6), 10000);
    }

    void unknownTopicFailsUntilCreated()
    {
        TestBroker strict([](server::BrokerSettings &settings) { settings.broker.autoCreateTopicEnable = false; });
        std::string error;
        QVERIFY2(strict.start(error), error.c_str());
        ClientConfig config;
        config.namesrvAddr = strict.namesrvAddress();
        Producer producer(config, {.group = "PG_STRICT"});
        QVERIFY(producer.start().ok);
        Result<SendResult> refused = producer.send(makeMessage("ClientLater", "x"));
        QVERIFY(!refused.ok);
        QCOMPARE(refused.code, remoting::ResponseCode::kTopicNotExist);
        QVERIFY2(refused.error.find("ClientLater") != std::string::npos, refused.error.c_str());
        AdminClient admin(config);
        QVERIFY(admin.createTopic({}, {.topicName = "ClientLater", .readQueueNums = 1, .writeQueueNums = 1}).ok);
        Result<SendResult> sent = producer.send(makeMessage("ClientLater", "x"));
        QVERIFY2(sent.ok, sent.error.c_str());
        QCOMPARE(sent.value.queue.queueId, 0);
    }

    void longPollReturnsWithTheNewMessage()
    {
        const std::string topic = "ClientLongPoll";
        Producer producer(config_, {.group = "PG_LP"});
        QVERIFY(producer.start().ok);
        PullConsumer consumer(config_, {.group = "CG_LP"});
        QVERIFY(consumer.start().ok);
        const MessageQueue queue{topic, "broker-a", 1};
        // A route lookup does not create the topic (Java): made first, as an operator would.
        QVERIFY(AdminClient(config_).createTopic({}, {.topicName = topic, .readQueueNums = 4, .writeQueueNums = 4}).ok);
        QVERIFY(!consumer.fetchSubscribeMessageQueues("ClientNeverCreated").ok);
        QVERIFY(consumer.fetchSubscribeMessageQueues(topic).ok);
        const int64_t end = consumer.maxOffset(queue).value;
        std::promise<Result<PullResult>> done;
        consumer.pullAsync(queue, "*", end, 32, [&done](Result<PullResult> r) { done.set_value(std::move(r)); },
                           {.suspend = true, .suspendTimeoutMillis = 20000});
        // Give the pull time to be parked; the outcome is the same either way.
        QTest::qWait(200);
        const auto toQueue1 = [](const std::vector<MessageQueue> &, const Message &) { return size_t(1); };
        QVERIFY(producer.send(makeMessage(topic, "wake-up"), toQueue1).ok);
        Result<PullResult> result = done.get_future().get();
        QVERIFY2(result.ok, result.error.c_str());
        QCOMPARE(result.value.status, PullStatus::Found);
        QCOMPARE(result.value.messages.size(), size_t(1));
        QCOMPARE(result.value.messages[0].bodyText(), std::string("wake-up"));
        QCOMPARE(result.value.nextBeginOffset, end + 1);
        // Caught up without suspend: NO_NEW_MSG at once.
        Result<PullResult> idle = consumer.pull(queue, "*", end + 1, 32);
        QVERIFY(idle.ok);
        QCOMPARE(idle.value.status, PullStatus::NoNewMsg);
        // Beyond the end: OFFSET_ILLEGAL with where to continue.
        Result<PullResult> beyond = consumer.pull(queue, "*", end + 50, 32);
        QVERIFY(beyond.ok);
        QCOMPARE(beyond.value.status, PullStatus::OffsetIllegal);
        QCOMPARE(beyond.value.nextBeginOffset, end + 1);
    }

    void tagFilterAndOffsets()
    {
        const std::string topic = "ClientTags";
        Producer producer(config_, {.group = "PG_TAGS"});
        QVERIFY(producer.start().ok);
        const auto toQueue2 = [](const std::vector<MessageQueue> &, const Message &) { return size_t(2); };
        for (const char *tag : {"TagA", "TagB", "TagA", "TagC"})
            QVERIFY(producer.send(makeMessage(topic, tag, tag), toQueue2).ok);
        PullConsumer consumer(config_, {.group = "CG_TAGS"});
        QVERIFY(consumer.start().ok);
        const MessageQueue queue{topic, "broker-a", 2};
        QTRY_COMPARE_WITH_TIMEOUT(consumer.maxOffset(queue).value, int64_t(4), 10000);
        Result<PullResult> result = consumer.pull(queue, "TagA || TagC", 0, 32);
        QVERIFY2(result.ok, result.error.c_str());
        QCOMPARE(result.value.status, PullStatus::Found);
        QCOMPARE(result.value.messages.size(), size_t(3));
        QCOMPARE(result.value.nextBeginOffset, int64_t(4));
        for (const common::StoredMessage &message : result.value.messages)
            QVERIFY(message.tags() != "TagB");

        QVERIFY(consumer.updateConsumeOffset(queue, 3).ok);
        Result<int64_t> committed = consumer.fetchConsumeOffset(queue);
        QVERIFY2(committed.ok, committed.error.c_str());
        QCOMPARE(committed.value, int64_t(3));
        // A commit piggy-backed on a pull.
        QVERIFY(consumer.pull(queue, "*", 3, 1, {.commitOffset = 4}).ok);
        QCOMPARE(consumer.fetchConsumeOffset(queue).value, int64_t(4));
        QCOMPARE(consumer.minOffset(queue).value, int64_t(0));
        QCOMPARE(consumer.searchOffset(queue, 0).value, int64_t(0));
    }

    void pullConsumerShowsInConnections()
    {
        PullConsumer consumer(config_, {.group = "CG_VISIBLE"});
        QVERIFY(consumer.start().ok);
        QVERIFY(AdminClient(config_).createTopic({}, {.topicName = "ClientVisible", .readQueueNums = 4, .writeQueueNums = 4}).ok);
        QVERIFY(consumer.subscribe("ClientVisible", "TagA").ok);
        QVERIFY(consumer.sendHeartbeat().ok);
        AdminClient admin(config_);
        Result<remoting::ConsumerConnection> connections = admin.consumerConnections("CG_VISIBLE");
        QVERIFY2(connections.ok, connections.error.c_str());
        QCOMPARE(connections.value.connectionSet.size(), size_t(1));
        QCOMPARE(connections.value.connectionSet[0].clientId, config_.clientId());
        QCOMPARE(connections.value.consumeType, std::string("CONSUME_ACTIVELY"));
        Result<std::vector<std::string>> ids =
            consumer.api().getConsumerIdList(broker_->brokerAddress(), "CG_VISIBLE");
        QVERIFY2(ids.ok, ids.error.c_str());
        QCOMPARE(ids.value, std::vector<std::string>{config_.clientId()});
        consumer.shutdown();
        QVERIFY(!admin.consumerConnections("CG_VISIBLE").ok);
    }
};

QObject *createProducerConsumerTest() { return new ProducerConsumerTest; }

#include "tst_producer_consumer.moc"
