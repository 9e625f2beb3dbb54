// Timer messages through the store (store-format §12.3): the put-time transform and its
// refusals, parking in rmq_sys_wheel_timer, delivery to the real topic never before its time and
// in time order, roll-over beyond the roll window, and survival of a clean restart and of a
// crash. Precision 100 ms and short delays keep it fast; no test asserts a time bound, only
// order and "not before" relations between clock readings and store timestamps.

#include "store_test_util.h"

#include "broker/common/clock.h"
#include "broker/common/bytes.h"
#include "broker/store/config/timer_metrics.h"
#include "broker/store/consume_queue_store.h"
#include "broker/store/timer_checkpoint.h"
#include "broker/store/timer_message_store.h"
#include "broker/store/timer_put_transform.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <set>
#include <thread>

using namespace mqdesk;
using namespace mqdesk::store;
namespace fs = std::filesystem;
namespace tp = store::timer_property;

namespace {

MessageStoreConfig timerConfig(const QString &root)
{
    MessageStoreConfig config = test::smallStoreConfig(root, 1024 * 1024);
    config.timerPrecisionMs = 100;
    config.mappedFileSizeTimerLog = 52 * 200; // several files in the longer tests
    config.timerFlushIntervalMs = 100;
    return config;
}

common::BrokerMessage timed(const std::string &body, std::string_view key, const std::string &value,
                            const std::string &topic = "TimerT")
{
    common::BrokerMessage message = test::makeMessage(topic, 0, body);
    message.properties.set(common::property::kUniqClientMessageId, "UNIQ-" + body);
    message.properties.set(key, value);
    return message;
}

// The messages of a queue once it holds at least `count` (waits up to 30 s; the test then
// fails on the count, never on the time).
std::vector<common::StoredMessage> waitFor(MessageStore &store, const std::string &topic, size_t count)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (;;) {
        auto result = store.getMessage(topic, 0, 0, 256);
        if (result.messages.size() >= count || std::chrono::steady_clock::now() > deadline)
            return std::move(result.messages);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

void waitUntilParked(TimerMessageStore &timer, int64_t queueOffset)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (timer.queueOffset() < queueOffset && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

int64_t prop(const common::StoredMessage &message, std::string_view key)
{
    return parseJavaLong(message.properties.get(key).value_or("-1")).value_or(-1);
}

std::string illegalRemark(int maxDelaySec)
{
    return "timer message illegal, the delay time should not be bigger than the max delay "
           + std::to_string(int64_t{maxDelaySec} * 1000)
           + "ms; or if set del msg, the delay time should be bigger than the current time";
}

} // namespace

class TimerStoreTest : public QObject
{
    Q_OBJECT

private slots:
    void timerMessagesAreParkedThenDeliveredInTimeOrder()
    {
        QTemporaryDir dir;
        auto store = test::openStore(timerConfig(dir.path()));
        QVERIFY(store && store->timerMessageStore());
        const int64_t before = common::wallMillis();
        const int64_t deliverAt = before + 900;
        QVERIFY(store->putMessage(timed("sec", tp::kDelaySec, "1")).stored());
        QVERIFY(store->putMessage(timed("abs", tp::kDeliverMs, std::to_string(deliverAt))).stored());
        QVERIFY(store->putMessage(timed("ms", tp::kDelayMs, "500")).stored());

        const auto parked = waitFor(*store, std::string(kTimerTopic), 3);
        QCOMPARE(parked.size(), size_t{3});
        std::map<std::string, int64_t> slotOf;
        for (const auto &message : parked) {
            QCOMPARE(std::string(message.properties.get(common::property::kRealTopic).value_or("")), std::string("TimerT"));
            QCOMPARE(std::string(message.properties.get(common::property::kRealQueueId).value_or("")), std::string("0"));
            const int64_t out = prop(message, tp::kOutMs);
            QCOMPARE(out % 100, int64_t{0}); // rounded to the precision
            slotOf[message.bodyText()] = out;
        }
        QCOMPARE(slotOf["abs"], deliverAt % 100 == 0 ? deliverAt - 100 : deliverAt / 100 * 100);

        const auto delivered = waitFor(*store, "TimerT", 3);
        QCOMPARE(delivered.size(), size_t{3});
        for (size_t i = 0; i < delivered.size(); ++i) {
            const auto &message = delivered[i];
            QCOMPARE(message.topic, std::string("TimerT"));
            // Never early: stored one precision after its slot, so at or after the asked time.
            QVERIFY(message.storeTimestamp >= slotOf[message.bodyText()] + 100);
            QVERIFY(prop(message, tp::kEnqueueMs) > 0);
            QVERIFY(prop(message, tp::kDequeueMs) >= prop(message, tp::kOutMs));
            QVERIFY(message.properties.get(common::property::kRealTopic)); // Java's stored string keeps it
            if (i > 0)
                QVERIFY(slotOf[delivered[i - 1].bodyText()] <= slotOf[message.bodyText()]);
        }
        const auto abs = std::find_if(delivered.begin(), delivered.end(), [](auto &m) { return m.bodyText() == "abs"; });
        QVERIFY(abs->storeTimestamp >= deliverAt);
        const auto ms = std::find_if(delivered.begin(), delivered.end(), [](auto &m) { return m.bodyText() == "ms"; });
        QVERIFY(ms->storeTimestamp >= before + 500);
        const auto sec = std::find_if(delivered.begin(), delivered.end(), [](auto &m) { return m.bodyText() == "sec"; });
        QVERIFY(sec->storeTimestamp >= before + 1000);
        // timermetrics counted each message in when parked and out when delivered.
        QCOMPARE(store->timerMessageStore()->metrics().count("TimerT"), int64_t{0});
        QVERIFY(store->timerMessageStore()->metrics().dataVersion().counter >= 6);
    }

    void brokerConfKeysHaveJavasNamesAndDefaults()
    {
        const auto defaults = MessageStoreConfig().toProperties();
        const std::map<std::string, std::string> table(defaults.begin(), defaults.end());
        QCOMPARE(table.at("timerWheelEnable"), std::string("true"));
        QCOMPARE(table.at("timerPrecisionMs"), std::string("1000"));
        QCOMPARE(table.at("timerMaxDelaySec"), std::string("259200"));
        QCOMPARE(table.at("timerRollWindowSlot"), std::string("172800"));
        QCOMPARE(table.at("timerFlushIntervalMs"), std::string("1000"));
        QCOMPARE(table.at("mappedFileSizeTimerLog"), std::string("104857600"));
        QCOMPARE(table.at("timerCongestNumEachSlot"), std::string("2147483647"));
        // Java's setter snaps the precision down to 100, 200, 500 or 1000.
        for (const auto &[given, effective] : std::vector<std::pair<std::string, int>>{
                 {"50", 100}, {"150", 100}, {"200", 200}, {"499", 200}, {"700", 500}, {"1000", 1000}, {"5000", 1000}}) {
            MessageStoreConfig config;
            QVERIFY(config.set("timerPrecisionMs", given).empty());
            QCOMPARE(config.timerPrecisionMs, effective);
        }
        MessageStoreConfig config;
        QVERIFY(!config.set("timerWheelEnable", "yes").empty());
        // The roll window is forced into [2, slots − 60] as Java's constructor does.
        QTemporaryDir dir;
        for (const int windowSlots : {1, 700000}) {
            MessageStoreConfig timer = timerConfig(dir.path());
            timer.timerRollWindowSlot = windowSlots;
            MessageStore unopened(timer);
            TimerMessageStore store(unopened, timer);
            QCOMPARE(store.rollWindowSlots(), TimerMessageStore::kSlotsTotal - TimerMessageStore::kBlankSlots);
        }
    }

    void farDeliveriesRollOverTheWheel()
    {
        QTemporaryDir dir;
        MessageStoreConfig config = timerConfig(dir.path());
        config.timerRollWindowSlot = 2; // a 200 ms window: a 1.5 s delay rolls several times
        auto store = test::openStore(config);
        QVERIFY(store);
        QCOMPARE(store->timerMessageStore()->rollWindowSlots(), 2);
        const int64_t before = common::wallMillis();
        QVERIFY(store->putMessage(timed("far", tp::kDelayMs, "1500")).stored());
        const auto delivered = waitFor(*store, "TimerT", 1);
        QCOMPARE(delivered.size(), size_t{1});
        QVERIFY(delivered[0].storeTimestamp >= before + 1500);
        const int64_t rolls = prop(delivered[0], tp::kRollTimes);
        QVERIFY2(rolls >= 1, std::to_string(rolls).c_str());
        // Each roll parked the message in the timer topic again.
        QCOMPARE(store->maxOffsetInQueue(std::string(kTimerTopic), 0), rolls + 1);
    }

    void illegalTimersAreRefusedAsJavaDoes()
    {
        QTemporaryDir dir;
        MessageStoreConfig config = timerConfig(dir.path());
        config.timerMaxDelaySec = 10;
        auto store = test::openStore(config);
        QVERIFY(store);
        auto result = store->putMessage(timed("too-far", tp::kDelaySec, "11"));
        QCOMPARE(result.status, PutMessageStatus::WheelTimerMsgIllegal);
        QCOMPARE(result.error, illegalRemark(10));
        result = store->putMessage(timed("garbage", tp::kDeliverMs, "soon"));
        QCOMPARE(result.status, PutMessageStatus::WheelTimerMsgIllegal);
        common::BrokerMessage pastDelete = timed("del", tp::kDeliverMs, "1000");
        pastDelete.properties.set(tp::kDelUniqKey, "TimerT+UNIQ-x");
        QCOMPARE(store->putMessage(pastDelete).status, PutMessageStatus::WheelTimerMsgIllegal);
        QCOMPARE(store->maxOffsetInQueue(std::string(kTimerTopic), 0), int64_t{0});

        // In the past: straight to the topic, as sent.
        QVERIFY(store->putMessage(timed("past", tp::kDeliverMs, "1000")).stored());
        const auto direct = waitFor(*store, "TimerT", 1);
        QCOMPARE(direct.size(), size_t{1});
        QVERIFY(!direct[0].properties.get(tp::kOutMs));
        // A DELAY level wins over TIMER_*: parked in SCHEDULE_TOPIC_XXXX without them.
        common::BrokerMessage both = timed("both", tp::kDelaySec, "5");
        both.properties.set(common::property::kDelayTimeLevel, "1");
        QVERIFY(store->putMessage(both).stored());
        const auto scheduled = waitFor(*store, "SCHEDULE_TOPIC_XXXX", 1);
        QCOMPARE(scheduled.size(), size_t{1});
        QVERIFY(!scheduled[0].properties.get(tp::kDelaySec));
        QCOMPARE(store->maxOffsetInQueue(std::string(kTimerTopic), 0), int64_t{0});
    }

    void disabledWheelRefusesTimers()
    {
        QTemporaryDir dir;
        MessageStoreConfig config = timerConfig(dir.path());
        config.timerWheelEnable = false;
        auto store = test::openStore(config);
        QVERIFY(store && !store->timerMessageStore());
        const auto result = store->putMessage(timed("x", tp::kDelayMs, "500"));
        QCOMPARE(result.status, PutMessageStatus::WheelTimerNotEnable);
        QCOMPARE(result.error, std::string("accurate timer message is not enabled, timerWheelEnable is false"));
        QVERIFY(!fs::exists(dir.path().toStdString() + "/timerwheel"));
    }

    void unusableTimerFilesRefuseToOpenNamingTheFile()
    {
        QTemporaryDir dir;
        const MessageStoreConfig config = timerConfig(dir.path());
        fs::create_directories(config.rootDir() + "/config");
        test::writeFile(config.rootDir() + "/timerwheel", std::vector<uint8_t>(1000, 0));
        std::string error;
        {
            MessageStore store(config);
            QVERIFY(!store.open(error));
            QVERIFY2(error.find("timerwheel: timer wheel length 1000") != std::string::npos, error.c_str());
        }
        // A timermetrics that is not JSON (and no .bak): refused after the other files opened.
        fs::remove(config.rootDir() + "/timerwheel");
        test::writeFile(config.rootDir() + "/config/timermetrics", {'{', 'x'});
        MessageStore store(config);
        QVERIFY(!store.open(error));
        QVERIFY2(error.find("timermetrics") != std::string::npos, error.c_str());
    }

    void deleteMarkerCancelsItsMessage()
    {
        QTemporaryDir dir;
        auto store = test::openStore(timerConfig(dir.path()));
        const int64_t deliverAt = common::wallMillis() + 800;
        QVERIFY(store->putMessage(timed("kept", tp::kDeliverMs, std::to_string(deliverAt))).stored());
        QVERIFY(store->putMessage(timed("cancelled", tp::kDeliverMs, std::to_string(deliverAt))).stored());
        common::BrokerMessage marker = timed("marker", tp::kDeliverMs, std::to_string(deliverAt));
        marker.properties.set(tp::kDelUniqKey, "TimerT+UNIQ-cancelled");
        QVERIFY(store->putMessage(marker).stored());
        QVERIFY(store->putMessage(timed("later", tp::kDeliverMs, std::to_string(deliverAt + 300))).stored());
        const auto delivered = waitFor(*store, "TimerT", 2);
        QCOMPARE(delivered.size(), size_t{2});
        QCOMPARE(delivered[0].bodyText(), std::string("kept"));
        QCOMPARE(delivered[1].bodyText(), std::string("later")); // after the cancelled one's slot passed
    }

    void pendingTimersSurviveACleanRestart()
    {
        QTemporaryDir dir;
        const MessageStoreConfig config = timerConfig(dir.path());
        const int64_t before = common::wallMillis();
        {
            auto store = test::openStore(config);
            for (int i = 0; i < 3; ++i)
                QVERIFY(store->putMessage(timed("m" + std::to_string(i), tp::kDelayMs, std::to_string(1500 + 200 * i))).stored());
            waitUntilParked(*store->timerMessageStore(), 3);
            QCOMPARE(store->timerMessageStore()->queueOffset(), int64_t{3});
        }
        const auto check = test::readFile(config.rootDir() + "/config/timercheck");
        QCOMPARE(common::readInt64(check.data() + 16), int64_t{3}); // lastTimerQueueOffset
        auto store = test::openStore(config);
        const auto delivered = waitFor(*store, "TimerT", 3);
        QCOMPARE(delivered.size(), size_t{3});
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(delivered[static_cast<size_t>(i)].bodyText(), "m" + std::to_string(i));
            QVERIFY(delivered[static_cast<size_t>(i)].storeTimestamp >= before + 1500 + 200 * i);
        }
        QCOMPARE(store->timerMessageStore()->queueOffset(), int64_t{3}); // nothing parked twice
    }

    void pendingTimersSurviveACrash()
    {
        QTemporaryDir dir;
        const QString live = dir.path() + QStringLiteral("/live");
        const QString crashed = dir.path() + QStringLiteral("/crashed");
        const int64_t before = common::wallMillis();
        {
            auto store = test::openStore(timerConfig(live));
            for (int i = 0; i < 3; ++i)
                QVERIFY(store->putMessage(timed("m" + std::to_string(i), tp::kDelayMs, "2000")).stored());
            waitUntilParked(*store->timerMessageStore(), 3);
            // One more that may or may not be parked when the process dies.
            QVERIFY(store->putMessage(timed("m3", tp::kDelayMs, "2000")).stored());
            // What a killed process leaves: the page cache as it is, abort file included.
            fs::copy(live.toStdString(), crashed.toStdString(), fs::copy_options::recursive);
            fs::remove(crashed.toStdString() + "/lock");
        }
        auto store = test::openStore(timerConfig(crashed));
        QVERIFY(store);
        QVERIFY(store->recoveryReport().abnormal);
        // At least once each: the copy's timer checkpoint may predate what its timer log holds, so
        // some messages are parked again and delivered twice. Four deliveries can therefore come
        // before all four messages did: wait for the four distinct ones.
        const std::set<std::string> expected{"m0", "m1", "m2", "m3"};
        std::set<std::string> bodies;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (bodies != expected && std::chrono::steady_clock::now() < deadline) {
            bodies.clear();
            for (const auto &message : store->getMessage("TimerT", 0, 0, 256).messages) {
                bodies.insert(message.bodyText());
                QVERIFY(message.storeTimestamp >= before + 2000);
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        std::string seen;
        for (const auto &body : bodies)
            seen += body + " ";
        QVERIFY2(bodies == expected, ("delivered (distinct): " + seen).c_str());
    }
};

QObject *createTimerStoreTest()
{
    return new TimerStoreTest;
}

#include "tst_timer_store.moc"
