// AdminClient's message lookups against a real in-process broker: by offset message id, by
// message id of either kind, by UNIQ_KEY, by key with a time range and maxNum, by queue offset,
// and by store-time range with a per-queue bound — found and not-found cases.

#include "../server/broker_test_util.h"

#include "broker/client/admin_client.h"
#include "broker/client/producer.h"
#include "broker/common/message_id.h"
#include "test_support.h"

#include <chrono>
#include <thread>

using namespace mqdesk;
using namespace mqdesk::client;
using mqdesk::test::TestBroker;

namespace {

int64_t nowMillis()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// A time strictly between the store times of messages sent before and after it (the broker
// stamps with the same wall clock): waits for the clock to move on both sides.
int64_t timeBoundary()
{
    const int64_t before = nowMillis();
    while (nowMillis() <= before + 1)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const int64_t boundary = nowMillis();
    while (nowMillis() <= boundary + 1)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return boundary;
}

std::vector<std::string> bodiesOf(const std::vector<common::StoredMessage> &messages)
{
    std::vector<std::string> out;
    for (const common::StoredMessage &message : messages)
        out.push_back(message.bodyText());
    return out;
}

QueueSelector toQueue(size_t queueId)
{
    return [queueId](const std::vector<MessageQueue> &, const Message &) { return queueId; };
}

} // namespace

class QueriesTest : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestBroker> broker_;
    ClientConfig config_;
    std::unique_ptr<Producer> producer_;

    SendResult send(const std::string &topic, const std::string &body, std::vector<std::string> keys = {},
                    size_t queueId = 0)
    {
        Message message;
        message.topic = topic;
        message.tags = "Q";
        message.keys = std::move(keys);
        message.setBody(body);
        Result<SendResult> sent = producer_->send(message, toQueue(queueId));
        if (!sent.ok)
            qWarning("send failed: %s", sent.error.c_str());
        return sent.value;
    }

private slots:
    void initTestCase()
    {
        broker_ = std::make_unique<TestBroker>();
        std::string error;
        QVERIFY2(broker_->start(error), error.c_str());
        config_.namesrvAddr = broker_->namesrvAddress();
        producer_ = std::make_unique<Producer>(config_, ProducerOptions{.group = "PG_QUERIES"});
        QVERIFY(producer_->start().ok);
    }
    void cleanupTestCase()
    {
        producer_.reset();
        broker_.reset();
    }

    void byOffsetMessageId()
    {
        AdminClient admin(config_);
        const SendResult sent = send("QById", "by-offset-id", {"id-key"});
        QVERIFY(!sent.msgId.empty());
        Result<common::StoredMessage> found = admin.viewMessage(sent.msgId);
        QVERIFY2(found.ok, found.error.c_str());
        QCOMPARE(found.value.bodyText(), std::string("by-offset-id"));
        QCOMPARE(found.value.topic, std::string("QById"));

        // Well-formed id, no record at that offset: the broker's SYSTEM_ERROR comes back.
        const std::optional<common::OffsetMessageId> id = common::decodeOffsetMessageId(sent.msgId);
        QVERIFY(id.has_value());
        Result<common::StoredMessage> missing =
            admin.viewMessage(common::createOffsetMessageId(id->storeHost, int64_t{1} << 40));
        QVERIFY(!missing.ok);
        QCOMPARE(missing.code, remoting::ResponseCode::kSystemError);
        QVERIFY2(missing.error.find("can not find message by the offset") != std::string::npos, missing.error.c_str());
        Result<common::StoredMessage> malformed = admin.viewMessage("not-hex");
        QCOMPARE(malformed.code, clientCode::kIllegalArgument);
    }

    void byUniqKeyAndById()
    {
        AdminClient admin(config_);
        const SendResult sent = send("QByUniq", "by-uniq", {}, 2);
        send("QByUniq", "other", {}, 1);
        QVERIFY(!sent.uniqKey.empty());
        QTRY_VERIFY_WITH_TIMEOUT(admin.queryMessageByUniqKey("QByUniq", sent.uniqKey).ok, 10000);
        Result<common::StoredMessage> found = admin.queryMessageByUniqKey("QByUniq", sent.uniqKey);
        QCOMPARE(found.value.bodyText(), std::string("by-uniq"));
        QCOMPARE(found.value.queueId, 2);

        // Either kind of id through the console's search box.
        QCOMPARE(admin.queryMessageById("QByUniq", sent.uniqKey).value.bodyText(), std::string("by-uniq"));
        QCOMPARE(admin.queryMessageById("QByUniq", sent.msgId).value.bodyText(), std::string("by-uniq"));
        // An offset id of another topic's message is not this topic's.
        const SendResult elsewhere = send("QById", "elsewhere");
        QCOMPARE(admin.queryMessageById("QByUniq", elsewhere.msgId).code, remoting::ResponseCode::kQueryNotFound);

        // Not found: an unknown key, a known key under another topic, an empty key.
        const std::string unknown = "0A0000010000000000000000000000FF";
        QCOMPARE(admin.queryMessageByUniqKey("QByUniq", unknown).code, remoting::ResponseCode::kQueryNotFound);
        QCOMPARE(admin.queryMessageByUniqKey("QById", sent.uniqKey).code, remoting::ResponseCode::kQueryNotFound);
        QCOMPARE(admin.queryMessageByUniqKey("QByUniq", "").code, clientCode::kIllegalArgument);
        QVERIFY(!admin.queryMessageByUniqKey("QNoSuchTopic", sent.uniqKey).ok);
    }

    void byKeyWithTimeRangeAndMaxNum()
    {
        AdminClient admin(config_);
        const std::string topic = "QByKey";
        send(topic, "a0", {"shared", "a"}, 0);
        send(topic, "a1", {"shared"}, 1);
        send(topic, "x", {"shared-not"}, 2); // a different token that merely starts alike
        const int64_t boundary = timeBoundary();
        send(topic, "b0", {"b", "shared"}, 3);
        send(topic, "b1", {"shared"}, 0);

        QTRY_COMPARE_WITH_TIMEOUT(admin.queryMessageByKey(topic, "shared").value.size(), size_t(4), 10000);
        std::vector<std::string> all = bodiesOf(admin.queryMessageByKey(topic, "shared").value);
        std::sort(all.begin(), all.end());
        QCOMPARE(all, (std::vector<std::string>{"a0", "a1", "b0", "b1"}));
        QCOMPARE(bodiesOf(admin.queryMessageByKey(topic, "shared-not").value), std::vector<std::string>{"x"});

        // maxNum bounds the answer.
        QCOMPARE(admin.queryMessageByKey(topic, "shared", 2).value.size(), size_t(2));
        // Time ranges that exclude one side or everything.
        std::vector<std::string> early = bodiesOf(admin.queryMessageByKey(topic, "shared", 32, 0, boundary).value);
        std::sort(early.begin(), early.end());
        QCOMPARE(early, (std::vector<std::string>{"a0", "a1"}));
        std::vector<std::string> late = bodiesOf(admin.queryMessageByKey(topic, "shared", 32, boundary).value);
        std::sort(late.begin(), late.end());
        QCOMPARE(late, (std::vector<std::string>{"b0", "b1"}));
        Result<std::vector<common::StoredMessage>> future =
            admin.queryMessageByKey(topic, "shared", 32, nowMillis() + 60000, nowMillis() + 120000);
        QVERIFY2(future.ok, future.error.c_str());
        QVERIFY(future.value.empty());

        // Not found is an empty list; bad arguments and unknown topics are failures.
        Result<std::vector<common::StoredMessage>> nobody = admin.queryMessageByKey(topic, "nobody");
        QVERIFY(nobody.ok && nobody.value.empty());
        QCOMPARE(admin.queryMessageByKey(topic, "shared", 0).code, clientCode::kIllegalArgument);
        QCOMPARE(admin.queryMessageByKey(topic, "shared", 32, 10, 5).code, clientCode::kIllegalArgument);
        Result<std::vector<common::StoredMessage>> unknown = admin.queryMessageByKey("QNoSuchTopic", "shared");
        QVERIFY(!unknown.ok || unknown.value.empty());
    }

    void byQueueOffset()
    {
        AdminClient admin(config_);
        const std::string topic = "QByOffset";
        SendResult first;
        for (int i = 0; i < 3; ++i) {
            const SendResult sent = send(topic, "o" + std::to_string(i), {}, 1);
            if (i == 0)
                first = sent;
        }
        const MessageQueue queue{topic, first.queue.brokerName, 1};
        QTRY_VERIFY_WITH_TIMEOUT(admin.queryMessageByOffset(queue, 2).ok, 10000);
        for (int i = 0; i < 3; ++i) {
            Result<common::StoredMessage> found = admin.queryMessageByOffset(queue, i);
            QVERIFY2(found.ok, found.error.c_str());
            QCOMPARE(found.value.bodyText(), "o" + std::to_string(i));
            QCOMPARE(found.value.queueOffset, int64_t(i));
        }
        Result<common::StoredMessage> pastEnd = admin.queryMessageByOffset(queue, 3);
        QCOMPARE(pastEnd.code, remoting::ResponseCode::kQueryNotFound);
        QCOMPARE(admin.queryMessageByOffset({topic, first.queue.brokerName, 0}, 0).code,
                 remoting::ResponseCode::kQueryNotFound); // an empty queue
        QCOMPARE(admin.queryMessageByOffset(queue, -1).code, clientCode::kIllegalArgument);
        QCOMPARE(admin.queryMessageByOffset({topic, "no-such-broker", 1}, 0).code, clientCode::kNoRoute);
        QVERIFY(!admin.queryMessageByOffset({"QNoSuchTopic", first.queue.brokerName, 0}, 0).ok);
    }

    void byTimeRangeBoundedPerQueue()
    {
        AdminClient admin(config_);
        const std::string topic = "QByTime";
        for (size_t q = 0; q < 4; ++q)
            for (int i = 0; i < 2; ++i)
                send(topic, "a-q" + std::to_string(q) + "-" + std::to_string(i), {}, q);
        const int64_t begin = timeBoundary();
        for (int i = 0; i < 5; ++i)
            send(topic, "b-q0-" + std::to_string(i), {}, 0);
        send(topic, "b-q2-0", {}, 2);
        const int64_t end = timeBoundary();
        send(topic, "c-q0-0", {}, 0);
        send(topic, "c-q3-0", {}, 3);

        // Everything stored (INT64_MAX end: up to the queues' max offsets).
        QTRY_COMPARE_WITH_TIMEOUT(admin.queryMessagesByTime(topic, 0, INT64_MAX, 32).value.messages.size(), size_t(16),
                                  10000);

        // [begin, end] holds exactly the b messages, per queue in queue order.
        Result<AdminClient::MessagesByTime> middle = admin.queryMessagesByTime(topic, begin, end, 32);
        QVERIFY2(middle.ok, middle.error.c_str());
        QCOMPARE(bodiesOf(middle.value.messages),
                 (std::vector<std::string>{"b-q0-0", "b-q0-1", "b-q0-2", "b-q0-3", "b-q0-4", "b-q2-0"}));
        QVERIFY(middle.value.truncated.empty());

        // The per-queue bound: queue 0 gives its first two and is reported truncated; queue 2's
        // single message fits.
        Result<AdminClient::MessagesByTime> bounded = admin.queryMessagesByTime(topic, begin, end, 2);
        QVERIFY2(bounded.ok, bounded.error.c_str());
        QCOMPARE(bodiesOf(bounded.value.messages), (std::vector<std::string>{"b-q0-0", "b-q0-1", "b-q2-0"}));
        QCOMPARE(bounded.value.truncated.size(), size_t(1));
        QCOMPARE(bounded.value.truncated.front().queueId, 0);
        // Exactly at the bound is not truncated.
        QVERIFY(admin.queryMessagesByTime(topic, begin, end, 5).value.truncated.empty());

        // Ranges that exclude: before everything, after everything, and from `end` on.
        Result<AdminClient::MessagesByTime> before = admin.queryMessagesByTime(topic, 1, 1000, 32);
        QVERIFY2(before.ok, before.error.c_str());
        QVERIFY(before.value.messages.empty());
        QVERIFY(admin.queryMessagesByTime(topic, nowMillis() + 60000, INT64_MAX, 32).value.messages.empty());
        QCOMPARE(bodiesOf(admin.queryMessagesByTime(topic, end, INT64_MAX, 32).value.messages),
                 (std::vector<std::string>{"c-q0-0", "c-q3-0"}));

        QCOMPARE(admin.queryMessagesByTime(topic, end, begin, 32).code, clientCode::kIllegalArgument);
        QCOMPARE(admin.queryMessagesByTime(topic, begin, end, 0).code, clientCode::kIllegalArgument);
        // Local mode creates a topic on its first route lookup (autoCreateTopicEnable): empty.
        Result<AdminClient::MessagesByTime> unknown = admin.queryMessagesByTime("QNoSuchTopic", begin, end, 32);
        QVERIFY(!unknown.ok || unknown.value.messages.empty());
    }
};

QObject *createQueriesTest() { return new QueriesTest; }

#include "tst_queries.moc"
