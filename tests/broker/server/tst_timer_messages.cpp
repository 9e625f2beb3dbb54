// Timer messages over a real socket (store-format §12.3): the broker creates rmq_sys_wheel_timer
// as Java does, a SEND_MESSAGE_V2 with TIMER_DELIVER_MS (what a 5.x remoting producer's
// setDeliverTimeMs sends) is answered SUCCESS and stored in its topic not before its time, across
// a broker restart; an illegal delay gets Java's MESSAGE_ILLEGAL and remark, a disabled wheel
// SYSTEM_ERROR and its remark. RECALL_MESSAGE with the handle a timer send was answered with keeps
// that message from being delivered, and refuses what Java refuses with Java's remarks.

#include "admin_test_util.h"
#include "broker_test_util.h"

#include "broker/common/base64.h"
#include "broker/common/clock.h"
#include "broker/server/broker_controller.h"
#include "broker/server/recall_message_processor.h"
#include "broker/server/topic_manager.h"
#include "broker/store/message_store.h"
#include "broker/store/timer_message_store.h"
#include "test_support.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <thread>

using namespace mqdesk;
using mqdesk::remoting::RemotingCommand;
using mqdesk::remoting::RequestCode;
using mqdesk::remoting::ResponseCode;
using mqdesk::test::TestBroker;

namespace {

RemotingCommand sendV2(const std::string &topic, const std::string &body, const std::string &properties,
                       const std::string &sysFlag = "0")
{
    RemotingCommand request = RemotingCommand::createRequest(
        RequestCode::kSendMessageV2, {{"a", "PG"}, {"b", topic}, {"c", "TBW102"}, {"d", "4"}, {"e", "0"}, {"f", sysFlag},
                                      {"g", std::to_string(common::wallMillis())}, {"h", "0"}, {"i", properties},
                                      {"j", "0"}, {"k", "false"}});
    request.body.assign(body.begin(), body.end());
    return request;
}

std::vector<common::StoredMessage> waitForMessages(TestBroker &broker, const std::string &topic, size_t count)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (;;) {
        auto result = broker.controller().store().getMessage(topic, 0, 0, 64);
        if (result.messages.size() >= count || std::chrono::steady_clock::now() > deadline)
            return std::move(result.messages);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

RemotingCommand recall(const std::string &topic, const std::string &handle)
{
    return RemotingCommand::createRequest(RequestCode::kRecallMessage,
                                          {{"producerGroup", "PG"}, {"topic", topic}, {"recallHandle", handle}});
}

std::string timerProperties(const std::string &uniqKey, int64_t deliverMs)
{
    return "UNIQ_KEY\001" + uniqKey + "\002TIMER_DELIVER_MS\001" + std::to_string(deliverMs) + "\002";
}

void fastTimers(server::BrokerSettings &settings)
{
    settings.store.timerPrecisionMs = 100;
    settings.store.mappedFileSizeTimerLog = 52 * 1000;
    settings.store.timerFlushIntervalMs = 100;
}

} // namespace

class TimerMessagesTest : public QObject
{
    Q_OBJECT

private slots:
    void deliverTimeSendsArriveNotBeforeTheirTimeAcrossARestart()
    {
        TestBroker broker(fastTimers);
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        const auto timerTopic = broker.controller().topics().find(server::kTimerTopic);
        QVERIFY(timerTopic);
        QCOMPARE(timerTopic->readQueueNums, 1);
        QCOMPARE(timerTopic->writeQueueNums, 1);

        // The topic first (its creation syncs files), and times 2 s apart: each is still in the
        // future when stored, and their order is the wheel's, not the sends', on a slow machine.
        QCOMPARE(broker.call(test::createTopic("TopicTimer", 4)).code, ResponseCode::kSuccess);
        const int64_t now = common::wallMillis();
        const std::vector<int64_t> at = {now + 4000, now + 2000, now + 6000};
        for (size_t i = 0; i < at.size(); ++i) {
            const RemotingCommand response = broker.call(
                sendV2("TopicTimer", "t" + std::to_string(i), "UNIQ_KEY\001U" + std::to_string(i) + "\002TIMER_DELIVER_MS\001"
                                                                   + std::to_string(at[i]) + "\002"));
            QCOMPARE(response.code, ResponseCode::kSuccess);
        }
        QCOMPARE(waitForMessages(broker, server::kTimerTopic, 3).size(), size_t{3});
        const auto timer = broker.controller().store().timerMessageStore();
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (timer->queueOffset() < 3 && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        QVERIFY2(broker.restart(error), error.c_str());

        const auto delivered = waitForMessages(broker, "TopicTimer", 3);
        QCOMPARE(delivered.size(), size_t{3});
        // In time order, each stored at or after the time it asked for.
        QCOMPARE(delivered[0].bodyText(), std::string("t1"));
        QCOMPARE(delivered[1].bodyText(), std::string("t0"));
        QCOMPARE(delivered[2].bodyText(), std::string("t2"));
        for (const auto &message : delivered) {
            const size_t i = static_cast<size_t>(message.bodyText()[1] - '0');
            QVERIFY(message.storeTimestamp >= at[i]);
        }
    }

    void illegalDelaysGetJavasAnswer()
    {
        TestBroker broker([](server::BrokerSettings &s) {
            fastTimers(s);
            s.store.timerMaxDelaySec = 60;
        });
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        RemotingCommand response = broker.call(sendV2("TopicTimer", "far", "TIMER_DELAY_SEC\00161\002"));
        QCOMPARE(response.code, ResponseCode::kMessageIllegal);
        QCOMPARE(response.remark, std::string("timer message illegal, the delay time should not be bigger than the max "
                                              "delay 60000ms; or if set del msg, the delay time should be bigger than "
                                              "the current time"));
        response = broker.call(sendV2("TopicTimer", "past-delete", "TIMER_DELIVER_MS\0011\002TIMER_DEL_UNIQKEY\001TopicTimer+X\002"));
        QCOMPARE(response.code, ResponseCode::kMessageIllegal);
        QCOMPARE(broker.controller().store().maxOffsetInQueue(server::kTimerTopic, 0), int64_t{0});
    }

    void halfMessagesWithTimersAreParkedAsJavaParksThem()
    {
        // Java stores a half message as a plain one in RMQ_SYS_TRANS_HALF_TOPIC
        // (TransactionalMessageBridge.parseHalfMessageInner) and its put hook then times it like
        // any other: it is parked in the timer topic with REAL_TOPIC = the half topic. So here.
        TestBroker broker(fastTimers);
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        const RemotingCommand half =
            broker.call(sendV2("TopicTx", "tx", "TRAN_MSG\001true\002PGROUP\001PG\002TIMER_DELAY_MS\00160000\002", "4"));
        QCOMPARE(half.code, ResponseCode::kSuccess);
        const auto parked = waitForMessages(broker, server::kTimerTopic, 1);
        QCOMPARE(parked.size(), size_t{1});
        QCOMPARE(std::string(parked[0].properties.get("REAL_TOPIC").value_or("")), std::string(server::kTransHalfTopic));
    }

    void recallHandlesAsJavaWritesThem()
    {
        // RecallMessageHandle.HandleV1.buildHandle("TopicA", "broker-a", "1795000000001", "7F0000010001")
        const std::string java = "djEgVG9waWNBIGJyb2tlci1hIDE3OTUwMDAwMDAwMDEgN0YwMDAwMDEwMDAx";
        const auto handle = server::decodeRecallHandle(java);
        QVERIFY(handle);
        QCOMPARE(handle->topic, std::string("TopicA"));
        QCOMPARE(handle->brokerName, std::string("broker-a"));
        QCOMPARE(handle->deliverMs, std::string("1795000000001"));
        QCOMPARE(handle->uniqKey, std::string("7F0000010001"));
        QCOMPARE(server::encodeRecallHandle(*handle), java);
        for (const std::string raw : {"v2 T b 1 U", "v1 T b 1", "", "v1 T b 1  ",
                                 "v1 T b 1 U\002REAL_TOPIC\001%DLQ%x"})
            QVERIFY2(!server::decodeRecallHandle(common::encodeBase64(raw, common::Base64Alphabet::UrlSafe)), raw.c_str());
        QVERIFY(!server::decodeRecallHandle("not base64 at all!"));
        // As String.split(" "): extra fields are ignored, trailing empty ones dropped.
        for (const std::string raw : {"v1 T b 1 U extra", "v1 T b 1 U "})
            QVERIFY2(server::decodeRecallHandle(common::encodeBase64(raw, common::Base64Alphabet::UrlSafe)), raw.c_str());
    }

    void recalledTimerMessagesAreNeverDelivered()
    {
        TestBroker broker(fastTimers);
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        // Due well after the dozen calls below (two of which create topics, syncing files): the
        // recall must reach the wheel before the slot is read, however slow the machine.
        const int64_t at = common::wallMillis() + 8000;
        std::map<std::string, std::string> handles;
        for (const std::string key : {"KEEP", "RECALL", "LATER"}) {
            const RemotingCommand sent = broker.call(sendV2("TopicRecall", key, timerProperties(key, key == "LATER" ? at + 400 : at)));
            QCOMPARE(sent.code, ResponseCode::kSuccess);
            const std::string *handle = sent.extFields.find("recallHandle");
            QVERIFY2(handle, key.c_str());
            handles[key] = *handle;
            const auto decoded = server::decodeRecallHandle(*handle);
            QVERIFY(decoded);
            QCOMPARE(decoded->topic, std::string("TopicRecall"));
            QCOMPARE(decoded->brokerName, broker.controller().brokerConfig().brokerName);
            QCOMPARE(decoded->uniqKey, key);
            // TIMER_OUT_MS + 1: the delivery time rounded down to the precision (100 ms here), plus one.
            const int64_t deliverMs = std::stoll(decoded->deliverMs);
            QVERIFY(deliverMs <= (key == "LATER" ? at + 400 : at) + 1 && deliverMs % 100 == 1);
        }
        const RemotingCommand plain = broker.call(sendV2("TopicRecall", "plain", "UNIQ_KEY\001P\002"));
        QCOMPARE(plain.code, ResponseCode::kSuccess);
        QVERIFY2(!plain.extFields.find("recallHandle"), "a message sent for now has no recall handle");

        // Refusals first, in Java's words.
        RemotingCommand refused = broker.call(recall("TopicRecall", "@@@"));
        QCOMPARE(refused.code, ResponseCode::kIllegalOperation);
        QCOMPARE(refused.remark, std::string("recall handle is invalid"));
        QCOMPARE(std::string(refused.extFields.find("MSG_REGION") ? *refused.extFields.find("MSG_REGION") : ""),
                 std::string("DefaultRegion"));
        refused = broker.call(recall("TopicOther", handles["RECALL"]));
        QCOMPARE(refused.code, ResponseCode::kTopicNotExist);
        QCOMPARE(refused.remark, std::string("recall failed, the topic[TopicOther] not exist"));
        QCOMPARE(broker.call(sendV2("TopicOther", "o", "")).code, ResponseCode::kSuccess);
        refused = broker.call(recall("TopicOther", handles["RECALL"]));
        QCOMPARE(refused.code, ResponseCode::kIllegalOperation);
        QCOMPARE(refused.remark, std::string("recall failed, topic not match"));
        server::RecallHandle otherBroker = *server::decodeRecallHandle(handles["RECALL"]);
        otherBroker.brokerName = "broker-elsewhere";
        refused = broker.call(recall("TopicRecall", server::encodeRecallHandle(otherBroker)));
        QCOMPARE(refused.code, ResponseCode::kIllegalOperation);
        QCOMPARE(refused.remark, std::string("recall failed, broker service not available"));
        RemotingCommand missing = recall("TopicRecall", "");
        missing.extFields.remove("recallHandle");
        QCOMPARE(broker.call(std::move(missing)).code, ResponseCode::kSystemError);

        const RemotingCommand recalled = broker.call(recall("TopicRecall", handles["RECALL"]));
        QCOMPARE(recalled.code, ResponseCode::kSuccess);
        QCOMPARE(std::string(recalled.extFields.find("msgId") ? *recalled.extFields.find("msgId") : ""),
                 std::string("RECALL"));
        // The region, without which the 5.x client writes no trace of the recall.
        QCOMPARE(std::string(recalled.extFields.find("MSG_REGION") ? *recalled.extFields.find("MSG_REGION") : ""),
                 std::string("DefaultRegion"));
        QCOMPARE(broker.call(recall("TopicRecall", handles["RECALL"])).code, ResponseCode::kSuccess); // twice: harmless

        // LATER is due 400 ms after the others: once it is delivered, their slot has been read.
        std::vector<common::StoredMessage> delivered;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        for (;;) {
            delivered = broker.controller().store().getMessage("TopicRecall", 0, 0, 64).messages;
            const bool laterArrived = std::any_of(delivered.begin(), delivered.end(),
                                                  [](const auto &m) { return m.bodyText() == "LATER"; });
            if (laterArrived || std::chrono::steady_clock::now() > deadline)
                break;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        std::vector<std::string> bodies;
        for (const auto &m : delivered)
            bodies.push_back(m.bodyText());
        std::sort(bodies.begin(), bodies.end());
        QCOMPARE(bodies, (std::vector<std::string>{"KEEP", "LATER", "plain"}));

        refused = broker.call(recall("TopicRecall", handles["KEEP"]));
        QCOMPARE(refused.code, ResponseCode::kIllegalOperation);
        QCOMPARE(refused.remark, std::string("recall failed, timestamp invalid"));
    }

    void recallIsRefusedWhenDisabled()
    {
        TestBroker broker([](server::BrokerSettings &s) {
            fastTimers(s);
            s.broker.recallMessageEnable = false;
        });
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        const RemotingCommand sent =
            broker.call(sendV2("TopicRecall", "x", timerProperties("X", common::wallMillis() + 60000)));
        QCOMPARE(sent.code, ResponseCode::kSuccess);
        const RemotingCommand refused = broker.call(recall("TopicRecall", *sent.extFields.find("recallHandle")));
        QCOMPARE(refused.code, ResponseCode::kNoPermission);
        QCOMPARE(refused.remark, std::string("recall failed, operation is forbidden"));
    }

    void disabledWheelIsRefusedWithJavasRemark()
    {
        TestBroker broker([](server::BrokerSettings &s) { s.store.timerWheelEnable = false; });
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QVERIFY(!broker.controller().topics().find(server::kTimerTopic));
        const RemotingCommand response = broker.call(sendV2("TopicTimer", "x", "TIMER_DELAY_MS\001500\002"));
        QCOMPARE(response.code, ResponseCode::kSystemError);
        QCOMPARE(response.remark, std::string("accurate timer message is not enabled, timerWheelEnable is false"));
    }
};

QObject *createTimerMessagesTest()
{
    return new TimerMessagesTest;
}

#include "tst_timer_messages.moc"
