// POP consumption over a real socket (grpc-proxy spec §5–6): what a 5.x remoting client sends —
// POP_MESSAGE, ACK_MESSAGE, BATCH_ACK_MESSAGE, CHANGE_MESSAGE_INVISIBLETIME, PEEK_MESSAGE,
// NOTIFICATION, POLLING_INFO, SET_MESSAGE_REQUEST_MODE, QUERY_ASSIGNMENT — and what it gets:
// handles built from the response headers as MQClientAPIImpl.processPopResponse builds them,
// invisibility, acks, redelivery through the retry topic with the delivery count, long polling,
// FIFO queues held until acked, and all of it across a broker restart. The CK/ACK bodies are
// compared with what the Java 5.5.0 classes write.

#include "admin_test_util.h"
#include "broker_test_util.h"

#include "broker/common/clock.h"
#include "broker/server/pop/pop_records.h"
#include "broker/server/pop/pop_revive_service.h"
#include "broker/server/pop/pop_service.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/message_request_mode_manager.h"
#include "broker/store/message_store.h"
#include "test_support.h"

#include <QtTest/QtTest>

#include <chrono>
#include <future>
#include <map>
#include <set>
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

void fastTimers(server::BrokerSettings &settings)
{
    settings.store.timerPrecisionMs = 100;
    settings.store.mappedFileSizeTimerLog = 52 * 1000;
    settings.store.timerFlushIntervalMs = 100;
}

std::vector<std::string> splitOn(const std::string &text, char separator)
{
    std::vector<std::string> parts;
    if (text.empty())
        return parts;
    size_t start = 0;
    for (size_t end; (end = text.find(separator, start)) != std::string::npos; start = end + 1)
        parts.push_back(text.substr(start, end - start));
    parts.push_back(text.substr(start));
    return parts;
}

struct Popped
{
    common::StoredMessage message;
    std::string extraInfo; // POP_CK, as the Java client makes it
};

struct PopAnswer
{
    int32_t code = -1;
    std::string remark;
    std::vector<Popped> messages;
    int64_t restNum = 0;
};

// bornTime 0 is "now" to the broker: a pop queued behind a slow fsync is not refused as stale
// (badRequestsGetJavasAnswers sends a real, old one).
RemotingCommand popRequest(const std::string &group, const std::string &topic, int32_t queueId, int64_t invisibleMs,
                           int64_t pollMs, bool order = false, const std::string &attemptId = {},
                           const std::string &exp = "*")
{
    return request(RequestCode::kPopMessage,
                   {{"consumerGroup", group}, {"topic", topic}, {"queueId", std::to_string(queueId)},
                    {"maxMsgNums", "32"}, {"invisibleTime", std::to_string(invisibleMs)},
                    {"pollTime", std::to_string(pollMs)}, {"bornTime", "0"},
                    {"initMode", "0"}, {"expType", "TAG"}, {"exp", exp}, {"order", order ? "true" : "false"},
                    {"attemptId", attemptId}});
}

// MQClientAPIImpl.processPopResponse: each message's POP_CK from startOffsetInfo/msgOffsetInfo
// (the retry mark and queue id key both), unless the broker set one (retry-topic messages).
PopAnswer toAnswer(const RemotingCommand &response)
{
    PopAnswer answer;
    answer.code = response.code;
    answer.remark = response.remark.value_or("");
    if (response.code != ResponseCode::kSuccess)
        return answer;
    answer.restNum = std::stoll(response.extFields.value("restNum", "0"));
    const auto field = [&](const char *name) { return response.extFields.value(name); };
    std::map<std::string, std::string> startOffsets;
    std::map<std::string, std::vector<std::string>> msgOffsets;
    for (const std::string &entry : splitOn(field("startOffsetInfo"), ';')) {
        const std::vector<std::string> parts = splitOn(entry, ' ');
        startOffsets[parts.at(0) + "@" + parts.at(1)] = parts.at(2);
    }
    for (const std::string &entry : splitOn(field("msgOffsetInfo"), ';')) {
        const std::vector<std::string> parts = splitOn(entry, ' ');
        msgOffsets[parts.at(0) + "@" + parts.at(1)] = splitOn(parts.at(2), ',');
    }
    std::map<std::string, size_t> seen;
    for (common::StoredMessage &message : decodeRecords(response.body)) {
        Popped popped;
        if (const auto ck = message.properties.get(common::property::kPopCk)) {
            popped.extraInfo = std::string(*ck);
        } else {
            const std::string key = server::pop::retryMark(message.topic) + "@" + std::to_string(message.queueId);
            const size_t index = seen[key]++;
            popped.extraInfo = startOffsets[key] + " " + field("popTime") + " " + field("invisibleTime") + " "
                               + field("reviveQid") + " " + server::pop::retryMark(message.topic) + " broker-a "
                               + std::to_string(message.queueId) + " " + msgOffsets[key].at(index);
        }
        popped.message = std::move(message);
        answer.messages.push_back(std::move(popped));
    }
    return answer;
}

PopAnswer pop(TestBroker &broker, const std::string &group, const std::string &topic, int64_t invisibleMs,
              int64_t pollMs = 0, int32_t queueId = -1)
{
    return toAnswer(broker.call(popRequest(group, topic, queueId, invisibleMs, pollMs), 30000));
}

std::vector<std::string> split(const std::string &text)
{
    return splitOn(text, ' ');
}

// DefaultMQPushConsumerImpl.ackAsync: the real topic from the handle's retry mark.
RemotingCommand ackRequest(const std::string &group, const std::string &topic, const Popped &popped)
{
    const std::vector<std::string> info = split(popped.extraInfo);
    return request(RequestCode::kAckMessage, {{"consumerGroup", group},
                                              {"topic", server::pop::realTopic(info[4], topic, group)},
                                              {"queueId", info[6]},
                                              {"extraInfo", popped.extraInfo},
                                              {"offset", info[7]}});
}

RemotingCommand changeInvisibleRequest(const std::string &group, const std::string &topic, const Popped &popped,
                                       int64_t invisibleMs)
{
    RemotingCommand command = ackRequest(group, topic, popped);
    command.code = RequestCode::kChangeMessageInvisibleTime;
    command.extFields.set("invisibleTime", std::to_string(invisibleMs));
    return command;
}

void sendMessages(TestBroker &broker, const std::string &topic, int count, int32_t queueId = 0,
                  const std::string &prefix = "m")
{
    for (int i = 0; i < count; ++i) {
        const RemotingCommand response = broker.call(sendV2(topic, queueId, prefix + std::to_string(i),
                                                            "TAGS\001TagA\002UNIQ_KEY\001" + prefix + std::to_string(i)
                                                                + "\002"));
        QCOMPARE(response.code, ResponseCode::kSuccess);
    }
    broker.controller().store().waitForDispatch();
}

std::set<std::string> bodies(const std::vector<Popped> &messages)
{
    std::set<std::string> out;
    for (const Popped &popped : messages)
        out.insert(popped.message.bodyText());
    return out;
}

// Pops until something comes back (the revive service's redelivery) or `timeoutMs` passes.
PopAnswer popUntilSome(TestBroker &broker, const std::string &group, const std::string &topic, int64_t invisibleMs,
                       int timeoutMs = 20000)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    PopAnswer answer;
    while (std::chrono::steady_clock::now() < deadline) {
        answer = pop(broker, group, topic, invisibleMs, 1000);
        if (!answer.messages.empty())
            return answer;
    }
    return answer;
}

} // namespace

class PopTest : public QObject
{
    Q_OBJECT

private slots:
    void recordsAreWrittenAsJavaWritesThem()
    {
        using namespace server::pop;
        PopCheckPoint ck;
        ck.startOffset = 100;
        ck.popTime = 1700000000000;
        ck.invisibleTime = 60000;
        ck.num = 3;
        ck.queueId = 2;
        ck.topic = "T";
        ck.cid = "G";
        ck.reviveOffset = 7;
        ck.queueOffsetDiff = {0, 1, 5};
        ck.brokerName = "broker-a";
        // What the 5.5.0 classes (fastjson2) write for the same checkpoint.
        QCOMPARE(ck.toJson(), std::string(R"({"bm":0,"bn":"broker-a","c":"G","d":[0,1,5],"it":60000,"n":3,)"
                                          R"("pt":1700000000000,"q":2,"reviveTime":1700000060000,"ro":7,"so":100,)"
                                          R"("sp":false,"t":"T"})"));
        std::string error;
        const auto back = PopCheckPoint::fromJson(ck.toJson(), error);
        QVERIFY2(back, error.c_str());
        QCOMPARE(back->queueOffset(2), int64_t{105});
        QCOMPARE(back->indexOfOffset(101), 1);

        AckMessage ack;
        ack.ackOffsets = {105};
        ack.startOffset = 100;
        ack.consumerGroup = "G";
        ack.topic = "T";
        ack.queueId = 2;
        ack.popTime = 1700000000000;
        ack.brokerName = "broker-a";
        QCOMPARE(ack.toJson(), std::string(R"({"ao":105,"bn":"broker-a","c":"G","pt":1700000000000,"q":2,"so":100,"t":"T"})"));
        ack.ackOffsets = {100, 105};
        QCOMPARE(ack.toJson(),
                 std::string(R"({"ao":-1,"aol":[100,105],"bn":"broker-a","c":"G","pt":1700000000000,"q":2,"so":100,"t":"T"})"));
        QCOMPARE(checkpointUniqueKey(ck), std::string("T@2@100@G@1700000000000@broker-a@ck"));

        // BatchAck's bit set: java.util.BitSet.toByteArray as Base64.
        QCOMPARE(encodeBitSet({1, 3, 5}), std::string("Kg=="));
        QCOMPARE(decodeBitSet("Kg==", error), (std::vector<int32_t>{1, 3, 5}));
        QCOMPARE(decodeBitSet(encodeBitSet({0, 9, 31}), error), (std::vector<int32_t>{0, 9, 31}));

        const auto info = ExtraInfo::parse("100 1700000000000 60000 3 1 broker-a 2 105", error);
        QVERIFY2(info, error.c_str());
        QCOMPARE(info->reviveQid, 3);
        QCOMPARE(info->retry, std::string("1"));
        QCOMPARE(info->queueOffset, int64_t{105});
        QCOMPARE(info->toString(), std::string("100 1700000000000 60000 3 1 broker-a 2 105"));
        QVERIFY(!ExtraInfo::parse("100 x 60000 3 1 broker-a 2 105", error));
        QVERIFY(!ExtraInfo::parse("1 2 3", error));
        QCOMPARE(realTopic("1", "T", "G"), std::string("%RETRY%G_T"));
    }

    void popHidesAckedMessagesAndRedeliversTheRestWithACount()
    {
        TestBroker broker(fastTimers);
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(test::createTopic("PopTopic", 2)).code, ResponseCode::kSuccess);
        sendMessages(broker, "PopTopic", 3, 0);
        sendMessages(broker, "PopTopic", 2, 1, "q1-");

        // Invisible for 6 s: the acks below land well before, however slow the machine.
        PopAnswer first = pop(broker, "PopGroup", "PopTopic", 6000);
        QCOMPARE(first.code, ResponseCode::kSuccess);
        QCOMPARE(bodies(first.messages), (std::set<std::string>{"m0", "m1", "m2", "q1-0", "q1-1"}));
        // Invisible now: a second pop finds nothing.
        QCOMPARE(pop(broker, "PopGroup", "PopTopic", 6000).messages.size(), size_t{0});

        // Ack m0 and q1-1 one by one, m1 in a batch ack; m2 and q1-0 are not acked.
        std::map<std::string, Popped> byBody;
        for (const Popped &popped : first.messages)
            byBody[popped.message.bodyText()] = popped;
        QCOMPARE(broker.call(ackRequest("PopGroup", "PopTopic", byBody["m0"])).code, ResponseCode::kSuccess);
        QCOMPARE(broker.call(ackRequest("PopGroup", "PopTopic", byBody["q1-1"])).code, ResponseCode::kSuccess);
        const std::vector<std::string> m1 = split(byBody["m1"].extraInfo);
        RemotingCommand batch = request(RequestCode::kBatchAckMessage);
        test::setBodyText(batch, R"({"acks":[{"b":")" + server::pop::encodeBitSet({int32_t(std::stoll(m1[7]) - std::stoll(m1[0]))})
                                     + R"(","c":"PopGroup","it":)" + m1[2] + R"(,"pt":)" + m1[1] + R"(,"q":)" + m1[6]
                                     + R"(,"r":"0","rq":)" + m1[3] + R"(,"so":)" + m1[0]
                                     + R"(,"t":"PopTopic"}],"brokerName":"broker-a"})");
        QCOMPARE(broker.call(batch).code, ResponseCode::kSuccess);

        // The un-acked two come back through %RETRY%PopGroup_PopTopic, once each, counted.
        std::vector<Popped> again;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (again.size() < 2 && std::chrono::steady_clock::now() < deadline) {
            PopAnswer answer = pop(broker, "PopGroup", "PopTopic", 60000, 1000);
            for (Popped &popped : answer.messages)
                again.push_back(std::move(popped));
        }
        QCOMPARE(bodies(again), (std::set<std::string>{"m2", "q1-0"}));
        for (const Popped &popped : again) {
            QCOMPARE(popped.message.topic, std::string("PopTopic"));
            QCOMPARE(popped.message.reconsumeTimes, 1);
            QVERIFY(popped.message.properties.get(server::pop::kFirstPopTimeProperty));
            QCOMPARE(split(popped.extraInfo)[4], std::string("1")); // a retry-topic handle
        }
        // Acked (retry-topic handle) they stay gone.
        for (const Popped &popped : again)
            QCOMPARE(broker.call(ackRequest("PopGroup", "PopTopic", popped)).code, ResponseCode::kSuccess);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        QCOMPARE(pop(broker, "PopGroup", "PopTopic", 60000).messages.size(), size_t{0});
        // The revive service committed its progress on the revive queue it read.
        int64_t reviveProgress = -1;
        for (int32_t q = 0; q < 8; ++q)
            reviveProgress = std::max(reviveProgress, broker.controller().offsets().queryOffset(
                                                          server::pop::kReviveGroup, broker.controller().pop().reviveTopic(), q));
        QVERIFY(reviveProgress >= 0);
    }

    // A new group popping with initMode MAX starts at 0 while the queue still holds its first
    // message (initPopOffsetByCheckMsgInMem), else at the last message, as Java's getInitOffset.
    void aNewGroupStartsWhereJavaStartsIt()
    {
        TestBroker broker(fastTimers);
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(test::createTopic("InitTopic", 1)).code, ResponseCode::kSuccess);
        sendMessages(broker, "InitTopic", 3, 0);
        const auto popFromMax = [&](const std::string &group) {
            RemotingCommand command = popRequest(group, "InitTopic", -1, 6000, 0);
            command.extFields.set("initMode", "1");
            return toAnswer(broker.call(std::move(command), 30000));
        };
        QCOMPARE(bodies(popFromMax("FromStart").messages), (std::set<std::string>{"m0", "m1", "m2"}));
        RemotingCommand update = request(RequestCode::kUpdateBrokerConfig);
        test::setBodyText(update, "initPopOffsetByCheckMsgInMem=false\n");
        QCOMPARE(broker.call(update).code, ResponseCode::kSuccess);
        QCOMPARE(bodies(popFromMax("FromLast").messages), (std::set<std::string>{"m2"}));
    }

    void changeInvisibleTimeBringsAMessageBackSooner()
    {
        TestBroker broker(fastTimers);
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        sendMessages(broker, "PopChange", 1, 0);
        PopAnswer first = pop(broker, "ChangeGroup", "PopChange", 600000);
        QCOMPARE(first.messages.size(), size_t{1});
        const RemotingCommand changed =
            broker.call(changeInvisibleRequest("ChangeGroup", "PopChange", first.messages.front(), 500));
        QCOMPARE(changed.code, ResponseCode::kSuccess);
        QCOMPARE(changed.extFields.value("invisibleTime"), std::string("500"));
        const PopAnswer again = popUntilSome(broker, "ChangeGroup", "PopChange", 60000);
        QCOMPARE(again.messages.size(), size_t{1});
        QCOMPARE(again.messages.front().message.bodyText(), std::string("m0"));
        QCOMPARE(again.messages.front().message.reconsumeTimes, 1);
        // An offset outside the queue is refused as Java refuses it.
        Popped bogus = first.messages.front();
        std::vector<std::string> info = split(bogus.extraInfo);
        info[7] = "99";
        bogus.extraInfo = info[0] + " " + info[1] + " " + info[2] + " " + info[3] + " " + info[4] + " " + info[5] + " "
                          + info[6] + " 99";
        QCOMPARE(broker.call(ackRequest("ChangeGroup", "PopChange", bogus)).code, ResponseCode::kNoMessage);
    }

    void aParkedPopIsAnsweredByTheNextMessage()
    {
        TestBroker broker(fastTimers);
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(test::createTopic("PopWait", 4)).code, ResponseCode::kSuccess);
        // Nothing there and no poll time: POLLING_TIMEOUT at once, with the header filled.
        const RemotingCommand empty = broker.call(popRequest("WaitGroup", "PopWait", -1, 30000, 0));
        QCOMPARE(empty.code, ResponseCode::kPollingTimeout);
        QVERIFY(empty.extFields.contains("popTime"));

        auto parked = std::async(std::launch::async, [&] {
            return broker.call(popRequest("WaitGroup", "PopWait", -1, 30000, 20000), 30000);
        });
        QTRY_COMPARE_WITH_TIMEOUT(broker.call(request(RequestCode::kPollingInfo, {{"consumerGroup", "WaitGroup"},
                                                                                  {"topic", "PopWait"},
                                                                                  {"queueId", "-1"}}))
                                      .extFields.value("pollingNum"),
                                  std::string("1"), 10000);
        sendMessages(broker, "PopWait", 1, 3);
        const PopAnswer answer = toAnswer(parked.get());
        QCOMPARE(answer.code, ResponseCode::kSuccess);
        QCOMPARE(answer.messages.size(), size_t{1});
        QCOMPARE(answer.messages.front().message.queueId, 3);

        // NOTIFICATION: parked likewise, answered hasMsg=true when a message comes.
        auto notified = std::async(std::launch::async, [&] {
            return broker.call(request(RequestCode::kNotification,
                                       {{"consumerGroup", "WaitGroup"}, {"topic", "PopWait"}, {"queueId", "-1"},
                                        {"pollTime", "20000"}, {"bornTime", std::to_string(common::wallMillis())}}),
                               30000);
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        sendMessages(broker, "PopWait", 1, 2);
        const RemotingCommand notification = notified.get();
        QCOMPARE(notification.code, ResponseCode::kSuccess);
        QCOMPARE(notification.extFields.value("hasMsg"), std::string("true"));

        // PEEK shows it without taking it; the pop then gets it.
        const RemotingCommand peeked = broker.call(request(
            RequestCode::kPeekMessage, {{"consumerGroup", "WaitGroup"}, {"topic", "PopWait"}, {"queueId", "2"}, {"maxMsgNums", "8"}}));
        QCOMPARE(peeked.code, ResponseCode::kSuccess);
        QCOMPARE(decodeRecords(peeked.body).size(), size_t{1});
        QCOMPARE(pop(broker, "WaitGroup", "PopWait", 30000).messages.size(), size_t{1});
    }

    void fifoPopsHoldAQueueUntilItsMessagesAreAcked()
    {
        TestBroker broker(fastTimers);
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(test::createTopic("PopFifo", 1)).code, ResponseCode::kSuccess);
        sendMessages(broker, "PopFifo", 3, 0);
        PopAnswer first = toAnswer(broker.call(popRequest("FifoGroup", "PopFifo", -1, 60000, 0, true, "attempt-1")));
        QCOMPARE(first.messages.size(), size_t{3});
        QCOMPARE(split(first.messages.front().extraInfo)[3], std::string("999"));
        sendMessages(broker, "PopFifo", 1, 0, "later");
        // Held: another attempt gets nothing, the same attempt the same messages again.
        QCOMPARE(toAnswer(broker.call(popRequest("FifoGroup", "PopFifo", -1, 60000, 0, true, "attempt-2"))).messages.size(),
                 size_t{0});
        // The hold is in config/consumerOrderInfo.json (Java's format) and survives a restart.
        QVERIFY2(broker.restart(error), error.c_str());
        const std::vector<uint8_t> file = test::readFile(broker.storeDir() + "/config/consumerOrderInfo.json");
        const std::string orderInfo(file.begin(), file.end());
        QVERIFY2(orderInfo.find("\"PopFifo@FifoGroup\":{0:{") != std::string::npos, orderInfo.c_str());
        QVERIFY2(orderInfo.find("\"a\":\"attempt-1\"") != std::string::npos, orderInfo.c_str());
        QCOMPARE(toAnswer(broker.call(popRequest("FifoGroup", "PopFifo", -1, 60000, 0, true, "attempt-2"))).messages.size(),
                 size_t{0});
        const RemotingCommand retriedResponse =
            broker.call(popRequest("FifoGroup", "PopFifo", -1, 60000, 0, true, "attempt-1"));
        // Same attempt: the counts stay 0 (a new attempt after the invisible time would count 1).
        QCOMPARE(retriedResponse.extFields.value("orderCountInfo"), std::string("0 0 0"));
        const PopAnswer retried = toAnswer(retriedResponse);
        QCOMPARE(bodies(retried.messages), (std::set<std::string>{"m0", "m1", "m2", "later0"}));
        for (const Popped &popped : retried.messages)
            QCOMPARE(broker.call(ackRequest("FifoGroup", "PopFifo", popped)).code, ResponseCode::kSuccess);
        QCOMPARE(broker.controller().offsets().queryOffset("FifoGroup", "PopFifo", 0), int64_t{4});
        sendMessages(broker, "PopFifo", 1, 0, "next");
        const PopAnswer next = toAnswer(broker.call(popRequest("FifoGroup", "PopFifo", -1, 60000, 0, true, "attempt-3")));
        QCOMPARE(bodies(next.messages), (std::set<std::string>{"next0"}));
    }

    // enableNotifyAfterPopOrderLockRelease (on, as in Java): an orderly pop parked behind a held
    // batch is answered when the batch turns visible again, and at once when a nack
    // (CHANGE_MESSAGE_INVISIBLETIME to 0) releases it; each within its call's 15 s, though its
    // poll time is 20 s (a park that ran to its poll time would leave the call unanswered, -1).
    void anOrderlyPopWakesWhenTheQueueIsReleased()
    {
        TestBroker broker(fastTimers);
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(test::createTopic("PopFifoWake", 1)).code, ResponseCode::kSuccess);
        sendMessages(broker, "PopFifoWake", 2, 0);
        const PopAnswer first =
            toAnswer(broker.call(popRequest("FifoWakeGroup", "PopFifoWake", -1, 2000, 0, true, "attempt-1")));
        QCOMPARE(first.messages.size(), size_t{2});
        const PopAnswer released = toAnswer(
            broker.call(popRequest("FifoWakeGroup", "PopFifoWake", -1, 60000, 20000, true, "attempt-2"), test::kPatienceMs));
        QCOMPARE(released.code, ResponseCode::kSuccess);
        QCOMPARE(bodies(released.messages), (std::set<std::string>{"m0", "m1"}));

        auto parked = std::async(std::launch::async, [&] {
            return toAnswer(
                broker.call(popRequest("FifoWakeGroup", "PopFifoWake", -1, 60000, 20000, true, "attempt-3"), test::kPatienceMs));
        });
        QVERIFY(parked.wait_for(std::chrono::milliseconds(500)) == std::future_status::timeout);
        for (const Popped &popped : released.messages)
            QCOMPARE(broker.call(changeInvisibleRequest("FifoWakeGroup", "PopFifoWake", popped, 0)).code,
                     ResponseCode::kSuccess);
        const PopAnswer nacked = parked.get();
        QCOMPARE(nacked.code, ResponseCode::kSuccess);
        QCOMPARE(bodies(nacked.messages), (std::set<std::string>{"m0", "m1"}));
    }

    void consumeModeIsStoredAndAssignsEveryQueueToPoppers()
    {
        TestBroker broker(fastTimers);
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(test::createTopic("PopMode", 4)).code, ResponseCode::kSuccess);
        RemotingCommand set = request(RequestCode::kSetMessageRequestMode);
        test::setBodyText(set, R"({"consumerGroup":"ModeGroup","mode":"POP","popShareQueueNum":8,"topic":"PopMode"})");
        QCOMPARE(broker.call(set).code, ResponseCode::kSuccess);
        const std::vector<uint8_t> file = test::readFile(broker.storeDir() + "/config/messageRequestMode.json");
        QCOMPARE(std::string(file.begin(), file.end()),
                 std::string("{\n\t\"messageRequestModeMap\":{\n\t\t\"PopMode\":{\n\t\t\t\"ModeGroup\":{\n"
                            "\t\t\t\t\"consumerGroup\":\"ModeGroup\",\n\t\t\t\t\"mode\":\"POP\",\n"
                            "\t\t\t\t\"popShareQueueNum\":8,\n\t\t\t\t\"topic\":\"PopMode\"\n\t\t\t}\n\t\t}\n\t}\n}"));
        RemotingCommand retry = request(RequestCode::kSetMessageRequestMode);
        test::setBodyText(retry, R"({"consumerGroup":"ModeGroup","mode":"POP","popShareQueueNum":8,"topic":"%RETRY%ModeGroup"})");
        QCOMPARE(broker.call(retry).code, ResponseCode::kNoPermission);

        RemotingCommand query = request(RequestCode::kQueryAssignment);
        test::setBodyText(query, R"({"clientId":"c1","consumerGroup":"ModeGroup","messageModel":"CLUSTERING",)"
                                 R"("strategyName":"AVG","topic":"PopMode"})");
        QCOMPARE(test::bodyOf(broker.call(query)),
                 std::string(R"({"messageQueueAssignments":[{"messageQueue":{"brokerName":"broker-a","queueId":-1,)"
                             R"("topic":"PopMode"},"mode":"POP"}]})"));
        // A pulling group gets its share of real queues.
        test::setBodyText(query, R"({"clientId":"c1","consumerGroup":"PullGroup","messageModel":"CLUSTERING",)"
                                 R"("strategyName":"AVG","topic":"PopMode"})");
        const common::JsonValue pulled = test::parsed(test::bodyOf(broker.call(query)));
        QCOMPARE(test::at(pulled, {"messageQueueAssignments"}).asArray().size(), size_t{4});
        QVERIFY2(broker.restart(error), error.c_str());
        QVERIFY(broker.controller().pop().requestModes().get("PopMode", "ModeGroup"));
    }

    // QUERY_ASSIGNMENT divides the queues of every broker of the cluster (as the NameServer
    // routes them), not only the answering broker's: two MQDesk brokers, the second registered
    // with the first's NameServer; either answers the same for a client.
    void queryAssignmentCoversEveryBrokerOfTheCluster()
    {
        TestBroker first(fastTimers);
        std::string error;
        QVERIFY2(first.start(error), error.c_str());
        TestBroker second([&](server::BrokerSettings &settings) {
            fastTimers(settings);
            settings.broker.brokerName = "broker-b";
            settings.broker.namesrvAddr = first.namesrvAddress();
        });
        QVERIFY2(second.start(error), error.c_str());
        QCOMPARE(first.call(test::createTopic("ClusterWide", 2)).code, ResponseCode::kSuccess);
        QCOMPARE(second.call(test::createTopic("ClusterWide", 2)).code, ResponseCode::kSuccess);
        QTRY_VERIFY_WITH_TIMEOUT(
            test::bodyOf(first.callAt(first.namesrvAddress(),
                                      request(RequestCode::kGetRouteinfoByTopic, {{"topic", "ClusterWide"}})))
                    .find("broker-b")
                != std::string::npos,
            10000);
        const auto assigned = [](TestBroker &broker, const std::string &group, const std::string &clientId) {
            RemotingCommand query = request(RequestCode::kQueryAssignment);
            test::setBodyText(query, R"({"clientId":")" + clientId + R"(","consumerGroup":")" + group
                                         + R"(","messageModel":"CLUSTERING","strategyName":"AVG","topic":"ClusterWide"})");
            std::set<std::string> queues;
            const common::JsonValue body = test::parsed(test::bodyOf(broker.call(query)));
            for (const common::JsonValue &entry : test::at(body, {"messageQueueAssignments"}).asArray())
                queues.insert(test::at(entry, {"messageQueue", "brokerName"}).asString() + ":"
                              + std::to_string(test::at(entry, {"messageQueue", "queueId"}).asInteger()));
            return queues;
        };
        const std::set<std::string> all{"broker-a:0", "broker-a:1", "broker-b:0", "broker-b:1"};
        QCOMPARE(assigned(first, "PullCluster", "c1"), all);
        QCOMPARE(assigned(second, "PullCluster", "c1"), all);
        // A group popping every queue gets one -1 per broker.
        RemotingCommand set = request(RequestCode::kSetMessageRequestMode);
        test::setBodyText(set, R"({"consumerGroup":"PopCluster","mode":"POP","popShareQueueNum":0,"topic":"ClusterWide"})");
        QCOMPARE(second.call(set).code, ResponseCode::kSuccess);
        QCOMPARE(assigned(second, "PopCluster", "c1"), (std::set<std::string>{"broker-a:-1", "broker-b:-1"}));
    }

    void unackedMessagesSurviveARestart()
    {
        TestBroker broker(fastTimers);
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        sendMessages(broker, "PopRestart", 2, 0);
        const PopAnswer first = pop(broker, "RestartGroup", "PopRestart", 3000);
        QCOMPARE(first.messages.size(), size_t{2});
        QVERIFY2(broker.restart(error), error.c_str());
        // Their checkpoint waits in the timer store; after the invisible time both come back.
        std::set<std::string> seen;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (seen.size() < 2 && std::chrono::steady_clock::now() < deadline) {
            for (const Popped &popped : pop(broker, "RestartGroup", "PopRestart", 60000, 1000).messages)
                seen.insert(popped.message.bodyText());
        }
        QCOMPARE(seen, (std::set<std::string>{"m0", "m1"}));
    }

    void consoleFiguresCountInFlightMessagesAndScheduledOnes()
    {
        TestBroker broker(fastTimers);
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        sendMessages(broker, "PopStats", 3, 0);
        const PopAnswer popped = pop(broker, "StatsGroup", "PopStats", 600000);
        QCOMPARE(popped.messages.size(), size_t{3});
        QCOMPARE(broker.call(ackRequest("StatsGroup", "PopStats", popped.messages.front())).code, ResponseCode::kSuccess);
        const auto stats = [&] {
            return test::parsed(test::bodyOf(broker.call(request(RequestCode::kGetPopStats, {{"consumerGroup", "StatsGroup"}}))));
        };
        // The CK and the ack wait in the timer wheel: 3 popped, 1 acked.
        QTRY_COMPARE_WITH_TIMEOUT(test::at(stats(), {"inFlight"}).asInteger(), int64_t{2}, test::kPatienceMs);
        QCOMPARE(test::at(stats(), {"reviveBacklog"}).asInteger(), int64_t{0});

        // Timer messages due in the 2nd and 3rd coming minute, on the timeline of their topic only.
        const int64_t now = common::wallMillis();
        for (int i = 0; i < 3; ++i) {
            const int64_t at = now + (i == 0 ? 90000 : 150000);
            QCOMPARE(broker.call(sendV2("Scheduled", 0, "s" + std::to_string(i),
                                        "KEYS\001key" + std::to_string(i) + "\002TIMER_DELIVER_MS\001"
                                            + std::to_string(at) + "\002"))
                         .code,
                     ResponseCode::kSuccess);
        }
        common::JsonValue timeline;
        QTRY_VERIFY_WITH_TIMEOUT((timeline = test::parsed(test::bodyOf(broker.call(request(
                                      RequestCode::kGetTimerTimeline, {{"topic", "Scheduled"}, {"minutes", "5"}})))),
                                  test::at(timeline, {"total"}).asInteger() == 3),
                                 10000);
        const common::JsonArray &buckets = test::at(timeline, {"buckets"}).asArray();
        QCOMPARE(buckets.size(), size_t{5});
        QCOMPARE(buckets[1].asInteger() + buckets[2].asInteger(), int64_t{3});
        const common::JsonArray &next = test::at(timeline, {"next"}).asArray();
        QCOMPARE(next.size(), size_t{3});
        QCOMPARE(test::at(next[0], {"keys"}).asString(), std::string("key0"));
        QCOMPARE(test::at(next[0], {"topic"}).asString(), std::string("Scheduled"));
        // Another topic's timeline does not show them.
        const common::JsonValue other = test::parsed(test::bodyOf(broker.call(
            request(RequestCode::kGetTimerTimeline, {{"topic", "PopStats"}, {"minutes", "5"}}))));
        QCOMPARE(test::at(other, {"total"}).asInteger(), int64_t{0});
    }

    // Priority messages (RocketMQ 5.4): the priority picks the queue (capped at the last one), a
    // priority on a message of another type is dropped, and a pop of the PRIORITY topic reads the
    // highest queue first, so a backlog comes out highest priority first; priorityOrderAsc=false
    // serves queue 0 first.
    void priorityMessagesPickTheirQueueAndArePoppedHighestFirst_data()
    {
        QTest::addColumn<bool>("orderAsc");
        QTest::newRow("priorityOrderAsc=true (default)") << true;
        QTest::newRow("priorityOrderAsc=false") << false;
    }

    void priorityMessagesPickTheirQueueAndArePoppedHighestFirst()
    {
        QFETCH(bool, orderAsc);
        TestBroker broker([orderAsc](server::BrokerSettings &settings) {
            fastTimers(settings);
            settings.broker.priorityOrderAsc = orderAsc;
        });
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(test::createTopic("PrioTopic", 4, {{"attributes", "+message.type=PRIORITY"}})).code,
                 ResponseCode::kSuccess);
        const auto send = [&](const std::string &body, const std::string &priority, const std::string &more = {}) {
            const RemotingCommand response = broker.call(
                sendV2("PrioTopic", 0, body, "UNIQ_KEY\001" + body + "\002_SYS_MSG_PRIORITY_\001" + priority + "\002" + more));
            [&] { QCOMPARE(response.code, ResponseCode::kSuccess); }();
            return response.extFields.value("queueId");
        };
        // Sent lowest first: p0 ×2, p1, p2, p9 (capped to queue 3), then two more p0.
        QCOMPARE(send("p0-a", "0"), std::string("0"));
        QCOMPARE(send("p0-b", "0"), std::string("0"));
        QCOMPARE(send("p1", "1"), std::string("1"));
        QCOMPARE(send("p2", "2"), std::string("2"));
        QCOMPARE(send("p9", "9"), std::string("3"));
        // A FIFO message's priority is dropped and its queue kept; a priority that is no number
        // is kept and ignored.
        QCOMPARE(send("fifo", "3", "__SHARDINGKEY\001g\002"), std::string("0"));
        QCOMPARE(send("bad", "high"), std::string("0"));
        broker.controller().store().waitForDispatch();

        PopAnswer answer = pop(broker, "PrioGroup", "PrioTopic", 60000);
        QCOMPARE(answer.code, ResponseCode::kSuccess);
        std::vector<std::string> order;
        for (const Popped &popped : answer.messages) {
            order.push_back(popped.message.bodyText());
            const auto priority = popped.message.properties.get("_SYS_MSG_PRIORITY_");
            if (popped.message.bodyText() == "fifo")
                QVERIFY(!priority);
            else
                QVERIFY2(priority, popped.message.bodyText().c_str());
        }
        const std::vector<std::string> queue0 = {"p0-a", "p0-b", "fifo", "bad"};
        std::vector<std::string> expected = {"p9", "p2", "p1"};
        expected.insert(expected.end(), queue0.begin(), queue0.end());
        if (!orderAsc) {
            expected = queue0;
            expected.insert(expected.end(), {"p1", "p2", "p9"});
        }
        QCOMPARE(order, expected);
    }

    void badRequestsGetJavasAnswers()
    {
        TestBroker broker(fastTimers);
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(pop(broker, "G", "NoSuchTopic", 30000).code, ResponseCode::kTopicNotExist);
        sendMessages(broker, "PopBad", 1, 0);
        RemotingCommand tooMany = popRequest("G", "PopBad", -1, 30000, 0);
        tooMany.extFields.set("maxMsgNums", "33");
        QCOMPARE(broker.call(tooMany).code, ResponseCode::kInvalidParameter);
        RemotingCommand stale = popRequest("G", "PopBad", -1, 30000, 1000);
        stale.extFields.set("bornTime", std::to_string(common::wallMillis() - 60000));
        QCOMPARE(broker.call(stale).code, ResponseCode::kPollingTimeout);
        RemotingCommand badQueue = popRequest("G", "PopBad", 99, 30000, 0);
        QCOMPARE(broker.call(badQueue).code, ResponseCode::kInvalidParameter);
        RemotingCommand ack = request(RequestCode::kAckMessage, {{"consumerGroup", "G"}, {"topic", "PopBad"},
                                                                 {"queueId", "0"}, {"extraInfo", "x y"}, {"offset", "0"}});
        QCOMPARE(broker.call(ack).code, ResponseCode::kInvalidParameter);
        RemotingCommand batch = request(RequestCode::kBatchAckMessage);
        test::setBodyText(batch, "{not json");
        QCOMPARE(broker.call(batch).code, ResponseCode::kNoMessage);
        // Hostile numbers and names: refused with the field named, never summed into an overflow.
        QCOMPARE(broker.call(popRequest("G", "PopBad", -1, INT64_MAX, 0)).code, ResponseCode::kInvalidParameter);
        // A nonsense bornTime counts as now and pollTime is capped: the pop is answered.
        RemotingCommand farBorn = popRequest("G", "PopBad", -1, 30000, INT64_MAX);
        farBorn.extFields.set("bornTime", std::to_string(INT64_MIN));
        QCOMPARE(toAnswer(broker.call(farBorn)).messages.size(), size_t{1});
        ack.extFields.set("extraInfo", "0 9223372036854775807 9223372036854775807 0 0 broker-a 0 0");
        QCOMPARE(broker.call(ack).code, ResponseCode::kInvalidParameter);
        RemotingCommand badMode = request(RequestCode::kSetMessageRequestMode);
        test::setBodyText(badMode, "{\"consumerGroup\":\"../../x\",\"mode\":\"POP\",\"popShareQueueNum\":8,"
                                   "\"topic\":\"PopBad\"}");
        const RemotingCommand refusedMode = broker.call(badMode);
        QCOMPARE(refusedMode.code, ResponseCode::kInvalidParameter);
        QVERIFY2(refusedMode.remark.value_or("").find("consumerGroup") != std::string::npos,
                 refusedMode.remark.value_or("").c_str());
        RemotingCommand manyBits = request(RequestCode::kBatchAckMessage);
        test::setBodyText(manyBits, "{\"acks\":[{\"b\":\"" + std::string(100000, 'A') + "/////"
                                        + "\",\"c\":\"G\",\"it\":9223372036854775807,\"pt\":-5,\"q\":0,\"r\":\"0\","
                                          "\"rq\":0,\"so\":0,\"t\":\"PopBad\"}]}");
        QCOMPARE(broker.call(manyBits).code, ResponseCode::kSuccess);
        // The broker still serves.
        sendMessages(broker, "PopBad", 1, 0, "after");
        QCOMPARE(pop(broker, "G", "PopBad", 30000).messages.size(), size_t{1});
        // And every acknowledged message is still there after a restart.
        QVERIFY2(broker.restart(error), error.c_str());
        const store::GetMessageResult kept = broker.controller().store().getMessage("PopBad", 0, 0, 32);
        QCOMPARE(kept.messages.size(), size_t{2});
        QCOMPARE(kept.messages[0].bodyText(), std::string("m0"));
        QCOMPARE(kept.messages[1].bodyText(), std::string("after0"));
    }
};

QObject *createPopTest()
{
    return new PopTest;
}

#include "tst_pop.moc"
