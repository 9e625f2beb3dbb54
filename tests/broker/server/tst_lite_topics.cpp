// RocketMQ 5.5 lite topics over a real socket (docs/spec/lite-topic.md §4–5), as a Java proxy in
// cluster mode drives a broker: LITE_SUBSCRIPTION_CTL (200071) with each action and offset option,
// POP_LITE_MESSAGE (200070) delivering in order per lite topic and holding a lite topic while its
// batch is out, ACK_MESSAGE / CHANGE_MESSAGE_INVISIBLETIME with the `liteTopic` header field, an
// Exclusive group's NOTIFY_UNSUBSCRIBE_LITE (200073), long polling, and the refusals a hostile or
// confused client gets.

#include "admin_test_util.h"
#include "broker_test_util.h"

#include "broker/common/clock.h"
#include "broker/common/json.h"
#include "broker/remoting/net/processor_executor.h"
#include "broker/remoting/net/remoting_client.h"
#include "broker/server/pop/lite_subscriptions.h"
#include "broker/server/pop/pop_service.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/consume_queue_store.h"
#include "broker/store/message_store.h"
#include "test_support.h"

#include <QtTest/QtTest>

#include <filesystem>
#include <future>
#include <mutex>
#include <thread>

using namespace mqdesk;
using mqdesk::remoting::RemotingCommand;
using mqdesk::remoting::RequestCode;
using mqdesk::remoting::ResponseCode;
using mqdesk::test::TestBroker;
using mqdesk::test::decodeRecords;
using mqdesk::test::request;
using mqdesk::test::sendV2;

namespace {

constexpr const char *kParent = "LiteParent";
constexpr const char *kGroup = "LiteGroup";

void createLiteTopicAndGroup(TestBroker &broker, const std::string &groupAttributes = {})
{
    QCOMPARE(broker.call(test::createTopic(kParent, 4, {{"attributes", "+message.type=LITE"}})).code,
             ResponseCode::kSuccess);
    RemotingCommand group = request(RequestCode::kUpdateAndCreateSubscriptiongroup);
    test::setBodyText(group, std::string(R"({"groupName":")") + kGroup + R"(","consumeEnable":true,"attributes":{"+lite.bind.topic":")"
                                 + kParent + "\"" + groupAttributes + "}}");
    QCOMPARE(broker.call(group).code, ResponseCode::kSuccess);
}

void sendLite(TestBroker &broker, const std::string &liteTopic, const std::string &body)
{
    const RemotingCommand sent =
        broker.call(sendV2(kParent, 0, body, "__LITE_TOPIC\001" + liteTopic + "\002UNIQ_KEY\001" + body + "\002"));
    QCOMPARE(sent.code, ResponseCode::kSuccess);
}

// One LITE_SUBSCRIPTION_CTL entry, as the Java proxy sends it.
RemotingCommand subscriptionRequest(const std::string &action, const std::string &clientId,
                                    const std::vector<std::string> &liteTopics, const std::string &offsetOption = {})
{
    std::string set;
    for (const std::string &topic : liteTopics)
        set += (set.empty() ? "\"" : ",\"") + topic + "\"";
    RemotingCommand command = request(RequestCode::kLiteSubscriptionCtl);
    test::setBodyText(command, R"({"subscriptionSet":[{"action":")" + action + R"(","clientId":")" + clientId
                                   + R"(","group":")" + kGroup + R"(","topic":")" + kParent + R"(","liteTopicSet":[)"
                                   + set + "]" + (offsetOption.empty() ? "" : ",\"offsetOption\":" + offsetOption)
                                   + R"(,"version":0}]})");
    return command;
}

struct LitePopped
{
    std::string body;
    std::string liteTopic;
    int64_t lmqOffset = -1;
    int32_t count = 0; // how many times handed out before
    std::string extraInfo;
};

struct LiteAnswer
{
    int32_t code = -1;
    std::vector<LitePopped> messages;
};

// bornTime 0 is "now" to the broker: a pop queued behind a slow fsync is not refused as stale
// (tst_pop's badRequestsGetJavasAnswers sends a real, old one).
RemotingCommand popLiteRequest(const std::string &clientId, int64_t invisibleMs, int64_t pollMs,
                               const std::string &attemptId = {})
{
    return request(RequestCode::kPopLiteMessage,
                   {{"clientId", clientId}, {"consumerGroup", kGroup}, {"topic", kParent}, {"maxMsgNum", "32"},
                    {"invisibleTime", std::to_string(invisibleMs)}, {"pollTime", std::to_string(pollMs)},
                    {"bornTime", "0"}, {"attemptId", attemptId}});
}

// MQClientAPIImpl.processPopLiteResponse: the handle from the LMQ offset, queue 0, reviveQid 999.
LiteAnswer toLiteAnswer(const RemotingCommand &response)
{
    LiteAnswer answer;
    answer.code = response.code;
    if (response.code != ResponseCode::kSuccess)
        return answer;
    std::vector<std::string> counts;
    const std::string countInfo = response.extFields.value("orderCountInfo");
    for (size_t start = 0; start <= countInfo.size();) {
        const size_t end = std::min(countInfo.find(';', start), countInfo.size());
        counts.push_back(countInfo.substr(start, end - start));
        start = end + 1;
    }
    const std::vector<common::StoredMessage> records = decodeRecords(response.body);
    for (size_t i = 0; i < records.size(); ++i) {
        LitePopped popped;
        popped.body = records[i].bodyText();
        popped.liteTopic = std::string(records[i].properties.get("__LITE_TOPIC").value_or(""));
        popped.lmqOffset = std::stoll(std::string(records[i].properties.get("INNER_MULTI_QUEUE_OFFSET").value_or("-1")));
        popped.count = i < counts.size() ? std::stoi(counts[i]) : -1;
        popped.extraInfo = "0 " + response.extFields.value("popTime") + " " + response.extFields.value("invisibleTime")
                           + " " + response.extFields.value("reviveQid") + " 0 broker-a 0 "
                           + std::to_string(popped.lmqOffset);
        answer.messages.push_back(std::move(popped));
    }
    return answer;
}

LiteAnswer popLite(TestBroker &broker, const std::string &clientId, int64_t invisibleMs = 60000, int64_t pollMs = 0)
{
    return toLiteAnswer(broker.call(popLiteRequest(clientId, invisibleMs, pollMs), 30000));
}

RemotingCommand liteAckRequest(const LitePopped &popped, int32_t code = RequestCode::kAckMessage)
{
    return request(code, {{"consumerGroup", kGroup}, {"topic", kParent}, {"queueId", "0"},
                          {"extraInfo", popped.extraInfo}, {"offset", std::to_string(popped.lmqOffset)},
                          {"liteTopic", popped.liteTopic}});
}

std::vector<std::string> bodiesOf(const LiteAnswer &answer)
{
    std::vector<std::string> bodies;
    for (const LitePopped &popped : answer.messages)
        bodies.push_back(popped.body);
    return bodies;
}

int64_t committed(TestBroker &broker, const std::string &liteTopic)
{
    return broker.controller().offsets().queryOffset(kGroup, server::pop::liteQueueName(kParent, liteTopic), 0);
}

} // namespace

class LiteTopicsTest : public QObject
{
    Q_OBJECT

private slots:
    // A client gets the lite topics it subscribed, in order within each, never the others; a lite
    // topic's next messages wait while its batch is out; an ack moves its offset; an unsubscribed
    // one stops.
    void subscribedLiteTopicsAreDeliveredInOrderAndHeldUntilAcked()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        createLiteTopicAndGroup(broker);
        for (int i = 0; i < 3; ++i) {
            sendLite(broker, "a", "a" + std::to_string(i));
            sendLite(broker, "b", "b" + std::to_string(i));
            sendLite(broker, "x", "x" + std::to_string(i));
        }
        broker.controller().store().waitForDispatch();
        QCOMPARE(broker.call(subscriptionRequest("PARTIAL_ADD", "client-1", {"a", "b"})).code, ResponseCode::kSuccess);

        const LiteAnswer first = popLite(broker, "client-1");
        QCOMPARE(first.code, ResponseCode::kSuccess);
        QCOMPARE(bodiesOf(first), (std::vector<std::string>{"a0", "a1", "a2", "b0", "b1", "b2"}));
        for (size_t i = 0; i < first.messages.size(); ++i) {
            QCOMPARE(first.messages[i].lmqOffset, int64_t(i % 3));
            QCOMPARE(first.messages[i].count, 0);
        }
        // Held: nothing more until acked, even with new messages.
        sendLite(broker, "a", "a3");
        broker.controller().store().waitForDispatch();
        QCOMPARE(popLite(broker, "client-1").code, ResponseCode::kPollingTimeout);

        // Acking a0 and a1 (not a2) commits a2's offset: a2 comes again (count 1) with a3.
        QCOMPARE(broker.call(liteAckRequest(first.messages[0])).code, ResponseCode::kSuccess);
        QCOMPARE(broker.call(liteAckRequest(first.messages[1])).code, ResponseCode::kSuccess);
        QCOMPARE(committed(broker, "a"), int64_t{2});
        RemotingCommand change = liteAckRequest(first.messages[2], RequestCode::kChangeMessageInvisibleTime);
        change.extFields.set("invisibleTime", "0");
        QCOMPARE(broker.call(change).code, ResponseCode::kSuccess);
        // The next pop must have another popTime (ms) than the first for the stale ack below.
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        const LiteAnswer again = popLite(broker, "client-1");
        QCOMPARE(bodiesOf(again), (std::vector<std::string>{"a2", "a3"}));
        QCOMPARE(again.messages[0].count, 1);
        QCOMPARE(again.messages[1].count, 0);

        // An ack with the popTime of a batch handed out again since changes nothing.
        QCOMPARE(broker.call(liteAckRequest(first.messages[2])).code, ResponseCode::kSuccess);
        QCOMPARE(committed(broker, "a"), int64_t{2});
        for (const LitePopped &popped : again.messages)
            QCOMPARE(broker.call(liteAckRequest(popped)).code, ResponseCode::kSuccess);
        QCOMPARE(committed(broker, "a"), int64_t{4});

        // Unsubscribed: a's new messages are no longer this client's.
        QCOMPARE(broker.call(subscriptionRequest("PARTIAL_REMOVE", "client-1", {"a"})).code, ResponseCode::kSuccess);
        sendLite(broker, "a", "a4");
        broker.controller().store().waitForDispatch();
        for (const LitePopped &popped : first.messages) {
            if (popped.liteTopic == "b")
                QCOMPARE(broker.call(liteAckRequest(popped)).code, ResponseCode::kSuccess);
        }
        QCOMPARE(popLite(broker, "client-1").code, ResponseCode::kPollingTimeout);
    }

    // A parked pop is answered by a message arriving on a subscribed lite topic, and by a held
    // batch turning visible again; a message on another lite topic does not wake it.
    void aParkedLitePopWakesForItsLiteTopics()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        createLiteTopicAndGroup(broker);
        QCOMPARE(broker.call(subscriptionRequest("PARTIAL_ADD", "client-1", {"a"})).code, ResponseCode::kSuccess);
        auto parked = std::async(std::launch::async, [&] {
            return toLiteAnswer(broker.call(popLiteRequest("client-1", 1000, 20000), 30000));
        });
        QVERIFY(parked.wait_for(std::chrono::milliseconds(300)) == std::future_status::timeout);
        sendLite(broker, "other", "not for client-1");
        QVERIFY(parked.wait_for(std::chrono::milliseconds(300)) == std::future_status::timeout);
        sendLite(broker, "a", "a0");
        QVERIFY(parked.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
        QCOMPARE(bodiesOf(parked.get()), std::vector<std::string>{"a0"});

        // Not acked: visible again after its 1 s, which ends the next park, polled for 20 s,
        // well before the call gives up waiting (15 s); a park that ran to its deadline would
        // leave the call unanswered (-1).
        const LiteAnswer redelivered = toLiteAnswer(broker.call(popLiteRequest("client-1", 1000, 20000), test::kPatienceMs));
        QCOMPARE(redelivered.code, ResponseCode::kSuccess);
        QCOMPARE(bodiesOf(redelivered), std::vector<std::string>{"a0"});
        QCOMPARE(redelivered.messages[0].count, 1);
    }

    // A wildcard group (lite.sub.wildcard): PARTIAL_ADD refused; a COMPLETE_ADD (of any set, as
    // the 5.2.1 SDK sends one at start) and its client reads every lite topic of the parent, in
    // order within each, and a parked pop wakes for a lite topic nobody named.
    void aWildcardGroupsClientReadsEveryLiteTopic()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        createLiteTopicAndGroup(broker, R"(,"+lite.sub.wildcard":"true")");
        QCOMPARE(broker.call(subscriptionRequest("PARTIAL_ADD", "w1", {"a"})).code, ResponseCode::kIllegalOperation);
        QCOMPARE(broker.call(subscriptionRequest("COMPLETE_ADD", "w1", {})).code, ResponseCode::kSuccess);
        QVERIFY(broker.controller().pop().liteSubscriptions().client("w1")->wildcard);
        for (int i = 0; i < 2; ++i) {
            sendLite(broker, "p", "p" + std::to_string(i));
            sendLite(broker, "q", "q" + std::to_string(i));
        }
        broker.controller().store().waitForDispatch();
        const LiteAnswer first = popLite(broker, "w1");
        std::vector<std::string> bodies = bodiesOf(first);
        std::sort(bodies.begin(), bodies.end());
        QCOMPARE(bodies, (std::vector<std::string>{"p0", "p1", "q0", "q1"}));
        for (const LitePopped &popped : first.messages)
            QCOMPARE(broker.call(liteAckRequest(popped)).code, ResponseCode::kSuccess);
        QCOMPARE(committed(broker, "q"), int64_t{2});

        auto parked = std::async(std::launch::async, [&] {
            return toLiteAnswer(broker.call(popLiteRequest("w1", 1000, 20000), 30000));
        });
        QVERIFY(parked.wait_for(std::chrono::milliseconds(300)) == std::future_status::timeout);
        sendLite(broker, "never-named", "n0");
        QVERIFY(parked.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
        QCOMPARE(bodiesOf(parked.get()), std::vector<std::string>{"n0"});

        // Gone with COMPLETE_REMOVE: its pops get nothing.
        QCOMPARE(broker.call(subscriptionRequest("COMPLETE_REMOVE", "w1", {})).code, ResponseCode::kSuccess);
        QVERIFY(!broker.controller().pop().liteSubscriptions().client("w1"));
        QCOMPARE(popLite(broker, "w1").code, ResponseCode::kPollingTimeout);
    }

    // The offset options of a PARTIAL_ADD: MIN from 0, MAX only new messages, OFFSET from there,
    // TAIL_N back from the group's position; no option on a fresh lite topic: its whole backlog.
    void offsetOptionsSetWhereALiteTopicIsReadFrom()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        createLiteTopicAndGroup(broker);
        for (int i = 0; i < 8; ++i)
            sendLite(broker, "t", "t" + std::to_string(i));
        broker.controller().store().waitForDispatch();
        int clients = 0;
        const auto readFrom = [&](const std::string &option) {
            const std::string client = "client-" + std::to_string(++clients);
            [&] { QCOMPARE(broker.call(subscriptionRequest("PARTIAL_ADD", client, {"t"}, option)).code, ResponseCode::kSuccess); }();
            const LiteAnswer answer = popLite(broker, client);
            for (const LitePopped &popped : answer.messages)
                broker.call(liteAckRequest(popped));
            broker.call(subscriptionRequest("COMPLETE_REMOVE", client, {}));
            return answer.messages.empty() ? int64_t{-1} : answer.messages.front().lmqOffset;
        };
        QCOMPARE(readFrom({}), int64_t{0});
        QCOMPARE(readFrom(R"({"type":"OFFSET","value":5})"), int64_t{5});
        QCOMPARE(readFrom(R"({"type":"TAIL_N","value":3})"), int64_t{5}); // at 8 after the last read
        QCOMPARE(readFrom(R"({"type":"POLICY","value":1})"), int64_t{0}); // MIN
        QCOMPARE(readFrom(R"({"type":"POLICY","value":2})"), int64_t{-1}); // MAX: nothing new
        sendLite(broker, "t", "t8");
        broker.controller().store().waitForDispatch();
        QCOMPARE(readFrom(R"({"type":"POLICY","value":0})"), int64_t{8}); // LAST: where the group is
    }

    // Exclusive: the last subscriber of a lite topic takes it; the one before is told with a
    // oneway NOTIFY_UNSUBSCRIBE_LITE naming the lite topic, the group and itself.
    void anExclusiveGroupGivesALiteTopicToItsLastSubscriber()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        createLiteTopicAndGroup(broker, R"(,"+lite.sub.model":"Exclusive")");
        remoting::ProcessorExecutor executor{"lite-client"};
        remoting::RemotingClient first;
        std::mutex mutex;
        std::vector<RemotingCommand> notified;
        first.registerProcessor(
            RequestCode::kNotifyUnsubscribeLite,
            [&](const remoting::RequestContext &, RemotingCommand command, remoting::Responder) {
                std::lock_guard lock(mutex);
                notified.push_back(std::move(command));
            },
            executor);
        const auto invoke = [&](remoting::RemotingClient &client, RemotingCommand command) {
            return client.invokeSync(broker.brokerAddress(), std::move(command), std::chrono::seconds(5));
        };
        QCOMPARE(invoke(first, subscriptionRequest("PARTIAL_ADD", "client-1", {"a", "b"})).response.code,
                 ResponseCode::kSuccess);
        QCOMPARE(broker.call(subscriptionRequest("PARTIAL_ADD", "client-2", {"a"})).code, ResponseCode::kSuccess);
        QTRY_COMPARE_WITH_TIMEOUT(([&] { std::lock_guard lock(mutex); return notified.size(); }()), size_t{1}, test::kPatienceMs);
        {
            std::lock_guard lock(mutex);
            QCOMPARE(notified[0].extFields.value("liteTopic"), std::string("a"));
            QCOMPARE(notified[0].extFields.value("consumerGroup"), std::string(kGroup));
            QCOMPARE(notified[0].extFields.value("clientId"), std::string("client-1"));
            QVERIFY(notified[0].isOneway());
        }
        sendLite(broker, "a", "a0");
        sendLite(broker, "b", "b0");
        broker.controller().store().waitForDispatch();
        QCOMPARE(bodiesOf(popLite(broker, "client-1")), std::vector<std::string>{"b0"});
        QCOMPARE(bodiesOf(popLite(broker, "client-2")), std::vector<std::string>{"a0"});
    }

    // The admin codes mqadmin's lite commands send (200074–200079): Java's field names, the
    // figures of the state above, Java's refusals.
    void adminCodesDescribeLiteTopics()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        createLiteTopicAndGroup(broker);
        for (int i = 0; i < 3; ++i)
            sendLite(broker, "a", "a" + std::to_string(i));
        sendLite(broker, "b", "b0");
        broker.controller().store().waitForDispatch();
        QCOMPARE(broker.call(subscriptionRequest("PARTIAL_ADD", "client-1", {"a", "b"})).code, ResponseCode::kSuccess);
        const LiteAnswer popped = popLite(broker, "client-1");
        QCOMPARE(popped.messages.size(), size_t{4});
        QCOMPARE(broker.call(liteAckRequest(popped.messages[0])).code, ResponseCode::kSuccess); // a at 1 of 3

        const auto ask = [&](int32_t code, test::ExtFields fields) {
            const RemotingCommand response = broker.call(request(code, std::move(fields)));
            [&] { QCOMPARE(response.code, ResponseCode::kSuccess); }();
            return test::parsed(test::bodyOf(response));
        };
        using test::at;
        const common::JsonValue brokerInfo = ask(RequestCode::kGetBrokerLiteInfo, {});
        QCOMPARE(at(brokerInfo, {"currentLmqNum"}).asInteger(), int64_t{2});
        QCOMPARE(at(brokerInfo, {"liteSubscriptionCount"}).asInteger(), int64_t{2});
        QCOMPARE(at(brokerInfo, {"maxLmqNum"}).asInteger(), int64_t{20000});
        QCOMPARE(at(brokerInfo, {"topicMeta", kParent}).asInteger(), int64_t{-1});
        QCOMPARE(at(brokerInfo, {"groupMeta", kParent}).asArray().front().asString(), std::string(kGroup));

        const common::JsonValue parent = ask(RequestCode::kGetParentTopicInfo, {{"topic", kParent}});
        QCOMPARE(at(parent, {"liteTopicCount"}).asInteger(), int64_t{2});
        QCOMPARE(at(parent, {"groups"}).asArray().size(), size_t{1});

        const common::JsonValue topic = ask(RequestCode::kGetLiteTopicInfo, {{"parentTopic", kParent}, {"liteTopic", "a"}});
        QCOMPARE(at(topic, {"topicOffset", "maxOffset"}).asInteger(), int64_t{3});
        QCOMPARE(at(topic, {"subscriber"}).asArray().size(), size_t{1});
        QCOMPARE(at(topic, {"subscriber"}).asArray().front().asObject().find("clientId")->asString(),
                 std::string("client-1"));

        const common::JsonValue client = ask(RequestCode::kGetLiteClientInfo,
                                             {{"parentTopic", kParent}, {"group", kGroup}, {"clientId", "client-1"}});
        QCOMPARE(at(client, {"liteTopicCount"}).asInteger(), int64_t{2});
        QCOMPARE(at(client, {"liteTopicSet"}).asArray().front().asString(), std::string("%LMQ%$LiteParent$a"));
        const common::JsonValue stranger = ask(RequestCode::kGetLiteClientInfo,
                                               {{"parentTopic", kParent}, {"group", kGroup}, {"clientId", "nobody"}});
        QCOMPARE(at(stranger, {"liteTopicCount"}).asInteger(), int64_t{-1});

        const common::JsonValue group = ask(RequestCode::kGetLiteGroupInfo, {{"group", kGroup}});
        QCOMPARE(at(group, {"totalLagCount"}).asInteger(), int64_t{3}); // a: 2 of 3, b: 1 of 1
        QCOMPARE(at(group, {"lagCountTopK"}).asArray().front().asObject().find("liteTopic")->asString(), std::string("a"));
        QVERIFY(at(group, {"earliestUnconsumedTimestamp"}).asInteger() > 0);
        const common::JsonValue one = ask(RequestCode::kGetLiteGroupInfo, {{"group", kGroup}, {"liteTopic", "a"}});
        QCOMPARE(at(one, {"totalLagCount"}).asInteger(), int64_t{2});
        QCOMPARE(at(one, {"liteTopicOffsetWrapper", "consumerOffset"}).asInteger(), int64_t{1});
        QCOMPARE(broker.call(request(RequestCode::kTriggerLiteDispatch, {{"group", kGroup}})).code, ResponseCode::kSuccess);

        QCOMPARE(broker.call(request(RequestCode::kGetParentTopicInfo, {{"topic", "NoSuchTopic"}})).code,
                 ResponseCode::kTopicNotExist);
        QCOMPARE(broker.call(test::createTopic("PlainTopic", 1)).code, ResponseCode::kSuccess);
        QCOMPARE(broker.call(request(RequestCode::kGetParentTopicInfo, {{"topic", "PlainTopic"}})).code,
                 ResponseCode::kInvalidParameter);
        QCOMPARE(broker.call(request(RequestCode::kGetLiteGroupInfo, {{"group", "NoSuchGroup"}})).code,
                 ResponseCode::kSubscriptionGroupNotExist);
    }

    // A lite topic idle past its parent's lite.topic.expiration (and past minLiteTTl) goes: its
    // consume queue and directory, the group's offset, the client's pair; the next message starts
    // it again at offset 0, also after a restart. Deleting the parent takes every lite topic.
    void expiredLiteTopicsAndADeletedParentTakeTheirQueues()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        createLiteTopicAndGroup(broker);
        RemotingCommand ttl = test::createTopic(kParent, 4, {{"attributes", "+lite.topic.expiration=1"}});
        QCOMPARE(broker.call(ttl).code, ResponseCode::kSuccess);
        for (int i = 0; i < 3; ++i) {
            sendLite(broker, "idle", "idle" + std::to_string(i));
            sendLite(broker, "kept", "kept" + std::to_string(i));
        }
        broker.controller().store().waitForDispatch();
        QCOMPARE(broker.call(subscriptionRequest("PARTIAL_ADD", "client-1", {"idle", "kept"})).code, ResponseCode::kSuccess);
        for (const LitePopped &popped : popLite(broker, "client-1").messages)
            QCOMPARE(broker.call(liteAckRequest(popped)).code, ResponseCode::kSuccess);
        QCOMPARE(committed(broker, "idle"), int64_t{3});

        server::pop::PopService &pop = broker.controller().pop();
        store::ConsumeQueueStore &queues = broker.controller().store().consumeQueues();
        const std::string idle = server::pop::liteQueueName(kParent, "idle");
        const std::string kept = server::pop::liteQueueName(kParent, "kept");
        const int64_t now = common::wallMillis();
        // A minute of TTL, but minLiteTTl (15 min) not yet reached: nothing goes.
        QCOMPARE(pop.expireLiteTopics(now + 10 * 60000), size_t{0});
        QVERIFY(queues.find(idle, 0));
        // Both idle past both: both go (an ack is no activity; the last message's time counts).
        QCOMPARE(pop.expireLiteTopics(now + 16 * 60000), size_t{2});
        QVERIFY(!queues.find(idle, 0));
        QVERIFY(!std::filesystem::exists(std::filesystem::path(broker.storeDir()) / "consumequeue" / idle));
        QCOMPARE(committed(broker, "idle"), int64_t{-1});
        QVERIFY(pop.liteSubscriptions().client("client-1")->lmqs.empty());
        const RemotingCommand info = broker.call(request(RequestCode::kGetParentTopicInfo, {{"topic", kParent}}));
        QCOMPARE(test::at(test::parsed(test::bodyOf(info)), {"liteTopicCount"}).asInteger(), int64_t{0});

        // The next message starts the lite topic again at 0, and a restart keeps counting from there.
        // (Sent with WAIT, which a message numbered in LMQs loses, as Java's LmqDispatch drops it.)
        QCOMPARE(broker.call(sendV2(kParent, 0, "again", "__LITE_TOPIC\001idle\002WAIT\001true\002")).code,
                 ResponseCode::kSuccess);
        broker.controller().store().waitForDispatch();
        QCOMPARE(queues.find(idle, 0)->maxOffset(), int64_t{1});
        const auto again = broker.controller().store().lookMessageByOffset(queues.find(idle, 0)->entryAt(0)->commitLogOffset);
        QVERIFY(again && again->bodyText() == "again" && !again->properties.get("WAIT"));
        QVERIFY2(broker.restart(error), error.c_str());
        sendLite(broker, "idle", "again2");
        broker.controller().store().waitForDispatch();
        QCOMPARE(broker.controller().store().consumeQueues().find(idle, 0)->maxOffset(), int64_t{2});
        QCOMPARE(broker.controller().store().consumeQueues().find(idle, 0)->entryAt(1)->commitLogOffset > 0, true);

        // The parent deleted: its lite topics with it.
        sendLite(broker, "kept", "kept3");
        broker.controller().store().waitForDispatch();
        QCOMPARE(broker.call(request(RequestCode::kDeleteTopicInBroker, {{"topic", kParent}})).code, ResponseCode::kSuccess);
        QVERIFY(!broker.controller().store().consumeQueues().find(idle, 0));
        QVERIFY(!broker.controller().store().consumeQueues().find(kept, 0));
        QVERIFY(!std::filesystem::exists(std::filesystem::path(broker.storeDir()) / "consumequeue" / kept));
        QVERIFY(!std::filesystem::exists(std::filesystem::path(broker.storeDir()) / "consumequeue" / kParent));
    }

    // What a confused or hostile client gets: Java's codes for a bad body, a group not bound to
    // the topic, a non-lite topic, a lite ack on the wrong queue; the subscription pairs capped
    // by maxLiteSubscriptionCount, a COMPLETE_ADD of a huge set included.
    void badLiteRequestsGetJavasAnswers()
    {
        TestBroker broker([](server::BrokerSettings &settings) { settings.broker.maxLiteSubscriptionCount = 5; });
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        createLiteTopicAndGroup(broker);
        RemotingCommand empty = request(RequestCode::kLiteSubscriptionCtl);
        QCOMPARE(broker.call(empty).code, ResponseCode::kIllegalOperation);
        test::setBodyText(empty, R"({"subscriptionSet":[]})");
        QCOMPARE(broker.call(empty).code, ResponseCode::kIllegalOperation);
        test::setBodyText(empty, "\x01not json");
        QCOMPARE(broker.call(empty).code, ResponseCode::kIllegalOperation);

        QCOMPARE(broker.call(subscriptionRequest("PARTIAL_ADD", "c1", {"a", "b", "c"})).code, ResponseCode::kSuccess);
        const RemotingCommand over = broker.call(subscriptionRequest("PARTIAL_ADD", "c2", {"d", "e", "f"}));
        QCOMPARE(over.code, ResponseCode::kLiteSubscriptionQuotaExceeded);
        std::vector<std::string> many;
        for (int i = 0; i < 1000; ++i)
            many.push_back("t" + std::to_string(i));
        QCOMPARE(broker.call(subscriptionRequest("COMPLETE_ADD", "c2", many)).code,
                 ResponseCode::kLiteSubscriptionQuotaExceeded);
        QCOMPARE(broker.controller().pop().liteSubscriptions().pairCount(), size_t{3});
        QCOMPARE(broker.call(subscriptionRequest("BOGUS", "c2", {"a"})).code, ResponseCode::kSystemError);

        QCOMPARE(broker.call(test::createTopic("PlainTopic", 1)).code, ResponseCode::kSuccess);
        RemotingCommand wrongTopic = popLiteRequest("c1", 60000, 0);
        wrongTopic.extFields.set("topic", "PlainTopic");
        QCOMPARE(broker.call(wrongTopic).code, ResponseCode::kInvalidParameter);
        RemotingCommand unbound = popLiteRequest("c1", 60000, 0);
        unbound.extFields.set("consumerGroup", "NoSuchGroup");
        QCOMPARE(broker.call(unbound).code, ResponseCode::kSubscriptionGroupNotExist);
        RemotingCommand tooMany = popLiteRequest("c1", 60000, 0);
        tooMany.extFields.set("maxMsgNum", "33");
        QCOMPARE(broker.call(tooMany).code, ResponseCode::kInvalidParameter);

        sendLite(broker, "a", "a0");
        broker.controller().store().waitForDispatch();
        const LiteAnswer popped = popLite(broker, "c1");
        QCOMPARE(popped.messages.size(), size_t{1});
        RemotingCommand wrongQueue = liteAckRequest(popped.messages[0]);
        wrongQueue.extFields.set("queueId", "1");
        QCOMPARE(broker.call(wrongQueue).code, ResponseCode::kInvalidParameter);
        RemotingCommand pastTheEnd = liteAckRequest(popped.messages[0]);
        pastTheEnd.extFields.set("offset", "99");
        QCOMPARE(broker.call(pastTheEnd).code, ResponseCode::kNoMessage);
        QCOMPARE(committed(broker, "a"), int64_t{0});

        // COMPLETE_REMOVE forgets the client: its lite topics are free for the group's others.
        QCOMPARE(broker.call(subscriptionRequest("COMPLETE_REMOVE", "c1", {})).code, ResponseCode::kSuccess);
        QCOMPARE(broker.controller().pop().liteSubscriptions().pairCount(), size_t{0});
    }
};

QObject *createLiteTopicsTest() { return new LiteTopicsTest; }

#include "tst_lite_topics.moc"
