// Delay levels, retries and dead letters over a real socket: DELAY>0 sends parked in
// SCHEDULE_TOPIC_XXXX and delivered in order, never before due (judged by store timestamps),
// across a restart; CONSUMER_SEND_MSG_BACK into %RETRY% with growing reconsume counts, then
// %DLQ% with the original message id; sends to %RETRY% over their retries; the error answers.

#include "broker_test_util.h"

#include "broker/common/message_id.h"
#include "broker/common/message_properties.h"
#include "broker/common/record_codec.h"
#include "broker/server/broker_controller.h"
#include "broker/server/topic_manager.h"
#include "broker/store/config/delay_offset_manager.h"
#include "broker/store/config/subscription_group_manager.h"
#include "broker/store/message_store.h"
#include "test_support.h"

#include <chrono>
#include <thread>

using namespace mqdesk;
using mqdesk::remoting::RemotingCommand;
using mqdesk::remoting::RequestCode;
using mqdesk::remoting::ResponseCode;
using mqdesk::test::decodeRecords;
using mqdesk::test::TestBroker;

namespace {

constexpr const char *kSchedule = "SCHEDULE_TOPIC_XXXX";

RemotingCommand sendV2(const std::string &topic, int32_t queueId, const std::string &body, const std::string &properties,
                       int32_t reconsumeTimes = 0, std::optional<int32_t> maxReconsumeTimes = std::nullopt)
{
    RemotingCommand request = RemotingCommand::createRequest(
        RequestCode::kSendMessageV2, {{"a", "PG"}, {"b", topic}, {"c", "TBW102"}, {"d", "4"},
                                      {"e", std::to_string(queueId)}, {"f", "0"}, {"g", "1700000000000"},
                                      {"h", "0"}, {"i", properties}, {"j", std::to_string(reconsumeTimes)},
                                      {"k", "false"}});
    if (maxReconsumeTimes)
        remoting::setField(request.extFields, "l", std::to_string(*maxReconsumeTimes));
    request.body.assign(body.begin(), body.end());
    return request;
}

RemotingCommand sendBack(int64_t offset, const std::string &group, int32_t delayLevel,
                         std::optional<int32_t> maxReconsumeTimes = std::nullopt)
{
    RemotingCommand request = RemotingCommand::createRequest(
        RequestCode::kConsumerSendMsgBack, {{"offset", std::to_string(offset)}, {"group", group},
                                            {"delayLevel", std::to_string(delayLevel)}, {"unitMode", "false"}});
    if (maxReconsumeTimes)
        remoting::setField(request.extFields, "maxReconsumeTimes", std::to_string(*maxReconsumeTimes));
    return request;
}

RemotingCommand pull(const std::string &group, const std::string &topic, int32_t queueId, int64_t offset,
                     const std::string &subscription)
{
    return RemotingCommand::createRequest(
        RequestCode::kPullMessage,
        {{"consumerGroup", group}, {"topic", topic}, {"queueId", std::to_string(queueId)},
         {"queueOffset", std::to_string(offset)}, {"maxMsgNums", "32"}, {"sysFlag", "4"},
         {"commitOffset", "-1"}, {"suspendTimeoutMillis", "0"}, {"subscription", subscription}, {"subVersion", "1"}});
}

// The messages of a queue once it holds `count` (polls up to `timeoutMillis`; no timing is
// asserted here, only that they come).
std::vector<common::StoredMessage> waitForMessages(TestBroker &broker, const std::string &topic, int32_t queueId,
                                                   size_t count, int timeoutMillis = 20000)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMillis);
    for (;;) {
        auto result = broker.controller().store().getMessage(topic, queueId, 0, 64);
        if (result.messages.size() >= count || std::chrono::steady_clock::now() > deadline)
            return std::move(result.messages);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

std::string prop(const common::StoredMessage &message, std::string_view key)
{
    return std::string(message.properties.get(key).value_or("<absent>"));
}

} // namespace

class RetryDelayTest : public QObject
{
    Q_OBJECT

private slots:
    void delayedMessagesAreDeliveredInOrderAndNeverBeforeDue()
    {
        // Levels 2 s apart: C (sent after A) is due before A even when the sends take a second.
        TestBroker broker([](server::BrokerSettings &s) { s.store.messageDelayLevel = "1s 3s 5s"; });
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        // Sent in an order different from their delivery; level 25 is capped at the table's 3.
        const std::vector<std::pair<std::string, int>> sends = {{"A", 3}, {"B", 1}, {"C", 2}, {"D", 25}};
        for (const auto &[body, level] : sends) {
            RemotingCommand response = broker.call(sendV2("TopicD", 1, body,
                                                          "TAGS\001TagA\002KEYS\001k" + body + "\002DELAY\001"
                                                              + std::to_string(level) + "\002"));
            QCOMPARE(response.code, ResponseCode::kSuccess);
            QCOMPARE(response.extFields.value("queueId"), std::string("1"));
        }
        // Parked: SCHEDULE_TOPIC_XXXX queue level-1, the real destination in properties.
        const auto parked = waitForMessages(broker, kSchedule, 2, 2);
        QCOMPARE(parked.size(), size_t(2));
        QCOMPARE(parked[0].bodyText(), std::string("A"));
        QCOMPARE(prop(parked[0], "REAL_TOPIC"), std::string("TopicD"));
        QCOMPARE(prop(parked[0], "REAL_QID"), std::string("1"));
        QCOMPARE(prop(parked[1], "DELAY"), std::string("3")); // D, capped

        const auto delivered = waitForMessages(broker, "TopicD", 1, 4);
        QCOMPARE(delivered.size(), size_t(4));
        const std::vector<std::string> order = {"B", "C", "A", "D"};
        for (size_t i = 0; i < order.size(); ++i) {
            const common::StoredMessage &message = delivered[i];
            QCOMPARE(message.bodyText(), order[i]);
            const int level = order[i] == "B" ? 1 : order[i] == "C" ? 2 : 3;
            const int64_t delayMillis = int64_t{2000} * level - 1000;
            const auto source = waitForMessages(broker, kSchedule, level - 1, 1);
            const auto it = std::find_if(source.begin(), source.end(),
                                         [&](const auto &m) { return m.bodyText() == order[i]; });
            QVERIFY(it != source.end());
            // Not before due: the delivered record was stored at least a level's delay after
            // the parked one.
            QVERIFY2(message.storeTimestamp >= it->storeTimestamp + delayMillis,
                     (order[i] + " early by " + std::to_string(it->storeTimestamp + delayMillis - message.storeTimestamp)
                      + " ms").c_str());
            // As RocketMQ 4.9 writes it: the parked record's properties unchanged (DELAY too).
            QCOMPARE(message.properties, it->properties);
            QCOMPARE(message.bornTimestamp, it->bornTimestamp);
            QCOMPARE(message.queueId, 1);
        }
        // The delivered entries carry the TAGS hash again: a tag-filtered pull finds them.
        RemotingCommand pulled = broker.call(pull("CG", "TopicD", 1, 0, "TagA"));
        QCOMPARE(pulled.code, ResponseCode::kSuccess);
        QCOMPARE(decodeRecords(pulled.body).size(), size_t(4));
        pulled = broker.call(pull("CG", "TopicD", 1, 0, "TagB"));
        QVERIFY(pulled.code != ResponseCode::kSuccess);
        // Progress recorded per level.
        QCOMPARE(broker.controller().delayOffsets().offset(1).value_or(-1), int64_t(1));
        QCOMPARE(broker.controller().delayOffsets().offset(3).value_or(-1), int64_t(2));
    }

    void pendingDelaysSurviveARestart()
    {
        TestBroker broker([](server::BrokerSettings &s) { s.store.messageDelayLevel = "2s 3s"; });
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        for (int i = 0; i < 3; ++i)
            QCOMPARE(broker.call(sendV2("TopicR", 0, "m" + std::to_string(i), "DELAY\0011\002")).code,
                     ResponseCode::kSuccess);
        QCOMPARE(broker.call(sendV2("TopicR", 0, "late", "DELAY\0012\002")).code, ResponseCode::kSuccess);
        QCOMPARE(waitForMessages(broker, kSchedule, 0, 3).size(), size_t(3));
        QVERIFY2(broker.restart(error), error.c_str());

        const auto delivered = waitForMessages(broker, "TopicR", 0, 4);
        QCOMPARE(delivered.size(), size_t(4));
        for (int i = 0; i < 3; ++i)
            QCOMPARE(delivered[static_cast<size_t>(i)].bodyText(), "m" + std::to_string(i));
        QCOMPARE(delivered[3].bodyText(), std::string("late"));

        // A clean stop writes the offsets: nothing is delivered twice after another restart.
        QVERIFY2(broker.restart(error), error.c_str());
        QCOMPARE(broker.controller().delayOffsets().offset(1).value_or(-1), int64_t(3));
        QCOMPARE(broker.controller().delayOffsets().offset(2).value_or(-1), int64_t(1));
        QCOMPARE(broker.controller().store().maxOffsetInQueue("TopicR", 0), int64_t(4));
        const auto text = test::readFile(broker.storeDir() + "/config/delayOffset.json");
        QVERIFY(std::string(text.begin(), text.end()).find("\"offsetTable\"") != std::string::npos);
    }

    void sendBackRetriesWithGrowingCountThenDeadLetters()
    {
        TestBroker broker([](server::BrokerSettings &s) {
            s.store.messageDelayLevel = "1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s";
        });
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        RemotingCommand sent = broker.call(sendV2("TopicS", 0, "payload", "TAGS\001TagX\002KEYS\001key1\002"));
        QCOMPARE(sent.code, ResponseCode::kSuccess);
        const std::string originId = sent.extFields.value("msgId");
        const auto originalOffset = common::decodeOffsetMessageId(originId);
        QVERIFY(originalOffset);

        int64_t offset = originalOffset->commitLogOffset;
        const std::string retryTopic = "%RETRY%CG_R";
        for (int round = 1; round <= 2; ++round) {
            // ali-ons sends maxReconsumeTimes with every send-back; 2 allows two retries.
            QCOMPARE(broker.call(sendBack(offset, "CG_R", 0, 2)).code, ResponseCode::kSuccess);
            // Level 3 + reconsumeTimes: parked in queue 2, then 3.
            const auto parked = waitForMessages(broker, kSchedule, 2 + (round - 1), 1);
            QCOMPARE(parked.size(), size_t(1));
            QCOMPARE(prop(parked[0], "REAL_TOPIC"), retryTopic);
            QCOMPARE(prop(parked[0], "DELAY"), std::to_string(2 + round));

            const auto retries = waitForMessages(broker, retryTopic, 0, static_cast<size_t>(round));
            QCOMPARE(retries.size(), size_t(round));
            const common::StoredMessage &retry = retries.back();
            QCOMPARE(retry.reconsumeTimes, round);
            QCOMPARE(retry.bodyText(), std::string("payload"));
            QCOMPARE(retry.bornTimestamp, int64_t(1700000000000));
            QCOMPARE(prop(retry, "RETRY_TOPIC"), std::string("TopicS"));
            QCOMPARE(prop(retry, "ORIGIN_MESSAGE_ID"), originId);
            QCOMPARE(prop(retry, "WAIT"), std::string("false"));
            QCOMPARE(prop(retry, "TAGS"), std::string("TagX"));
            QVERIFY(retry.storeTimestamp >= parked[0].storeTimestamp + 1000);
            offset = retry.physicalOffset;
        }
        QVERIFY(broker.controller().topics().find(retryTopic).has_value());

        // Retries used up: the third send-back goes to the DLQ at once, not delayed.
        QCOMPARE(broker.call(sendBack(offset, "CG_R", 0, 2)).code, ResponseCode::kSuccess);
        const auto dead = waitForMessages(broker, "%DLQ%CG_R", 0, 1);
        QCOMPARE(dead.size(), size_t(1));
        QCOMPARE(dead[0].reconsumeTimes, 3);
        QCOMPARE(prop(dead[0], "ORIGIN_MESSAGE_ID"), originId);
        QCOMPARE(prop(dead[0], "RETRY_TOPIC"), std::string("TopicS"));
        QCOMPARE(prop(dead[0], "DELAY"), std::string("0"));
        const auto dlq = broker.controller().topics().find("%DLQ%CG_R");
        QVERIFY(dlq.has_value());
        QCOMPARE(dlq->writeQueueNums, 1);
        QCOMPARE(dlq->perm, 6);
        // The original is still where the id says.
        const auto original = broker.controller().store().lookMessageByOffset(
            common::decodeOffsetMessageId(prop(dead[0], "ORIGIN_MESSAGE_ID"))->commitLogOffset);
        QVERIFY(original.has_value());
        QCOMPARE(original->topic, std::string("TopicS"));

        // delayLevel < 0 asks for the DLQ directly; without maxReconsumeTimes the group's 16 applies.
        QCOMPARE(broker.call(sendBack(originalOffset->commitLogOffset, "CG_R", -1)).code, ResponseCode::kSuccess);
        QCOMPARE(waitForMessages(broker, "%DLQ%CG_R", 0, 2).size(), size_t(2));
        QCOMPARE(broker.call(sendBack(originalOffset->commitLogOffset, "CG_R2", 0)).code, ResponseCode::kSuccess);
        QCOMPARE(waitForMessages(broker, kSchedule, 2, 2).size(), size_t(2)); // level 3 again, group CG_R2
    }

    void sendToRetryTopicOverItsRetriesGoesToTheDlq()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        // Within the retries: stored in the retry topic as sent.
        QCOMPARE(broker.call(sendV2("%RETRY%CG_S", 0, "again", "RETRY_TOPIC\001T\002", 1, 3)).code,
                 ResponseCode::kSuccess);
        QCOMPARE(waitForMessages(broker, "%RETRY%CG_S", 0, 1).size(), size_t(1));
        // reconsumeTimes ≥ max (the header's 3): %DLQ% queue 0, DELAY=-1 so it is never scheduled.
        RemotingCommand response = broker.call(sendV2("%RETRY%CG_S", 0, "dead", "RETRY_TOPIC\001T\002DELAY\0012\002", 3, 3));
        QCOMPARE(response.code, ResponseCode::kSuccess);
        const auto dead = waitForMessages(broker, "%DLQ%CG_S", 0, 1);
        QCOMPARE(dead.size(), size_t(1));
        QCOMPARE(dead[0].bodyText(), std::string("dead"));
        QCOMPARE(dead[0].reconsumeTimes, 3);
        QCOMPARE(prop(dead[0], "DELAY"), std::string("-1"));
        // Without the header the group's retryMaxTimes (16) decides.
        QCOMPARE(broker.call(sendV2("%RETRY%CG_S", 0, "x", "", 15)).code, ResponseCode::kSuccess);
        QCOMPARE(broker.call(sendV2("%RETRY%CG_S", 0, "y", "", 16)).code, ResponseCode::kSuccess);
        QCOMPARE(waitForMessages(broker, "%RETRY%CG_S", 0, 2).size(), size_t(2));
        QCOMPARE(waitForMessages(broker, "%DLQ%CG_S", 0, 2).back().bodyText(), std::string("y"));
    }

    void sendBackErrors()
    {
        TestBroker broker([](server::BrokerSettings &s) { s.broker.autoCreateSubscriptionGroup = false; });
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        RemotingCommand response = broker.call(sendBack(0, "NoSuchGroup", 0));
        QCOMPARE(response.code, ResponseCode::kSubscriptionGroupNotExist);
        QVERIFY(response.remark.value_or("").find("NoSuchGroup") != std::string::npos);
        response = broker.call(sendV2("%RETRY%NoSuchGroup", 0, "x", ""));
        QCOMPARE(response.code, ResponseCode::kSubscriptionGroupNotExist);

        store::SubscriptionGroupConfig group;
        group.groupName = "CG_E";
        broker.controller().subscriptionGroups().updateSubscriptionGroupConfig(group);
        response = broker.call(sendBack(123456789, "CG_E", 0));
        QCOMPARE(response.code, ResponseCode::kSystemError);
        QCOMPARE(response.remark.value_or(""), std::string("look message by offset failed, 123456789"));
        response = broker.call(RemotingCommand::createRequest(RequestCode::kConsumerSendMsgBack, {{"group", "CG_E"}}));
        QCOMPARE(response.code, ResponseCode::kSystemError);
        QVERIFY(response.remark.value_or("").find("offset") != std::string::npos);
    }
};

QObject *createRetryDelayTest()
{
    return new RetryDelayTest;
}

#include "tst_retry_delay.moc"
