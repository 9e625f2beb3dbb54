// The resource-exhaustion suite (label "exhaustion"): a real mqdesk-broker and raw socket
// clients that try to take its memory, its connections or its descriptors, while another client
// keeps sending. Each case states a limit — the broker's RSS under the attack, the connections it
// keeps, the notifications it drops — never a time; the client beside the attack must be
// answered (its requests succeed within the client's own timeout), and every acknowledged
// message is there at the end. Sizes are those of the issue that found them, scaled only where
// this machine's descriptors or minutes do not reach.

#include "exhaustion_support.h"
#include "hostile_fixture.h"

#include "broker/common/descriptors.h"
#include "broker/remoting/remoting_codes.h"

#include <QtTest/QtTest>

#include <memory>
#include <thread>

using namespace mqdesk;
using namespace mqdesk::hostile;
using namespace std::chrono_literals;
using remoting::RequestCode;
using remoting::ResponseCode;

namespace {

const std::string kTopic = "ExhaustionTopic";
const std::string kGroup = "CG_EXHAUSTION";

// A consumer's HEART_BEAT body joining kGroup (plain strings: moc does not read raw ones).
std::string heartbeatBody(const std::string &clientId)
{
    return "{\"clientID\":\"" + clientId + "\",\"consumerDataSet\":[{\"groupName\":\"" + kGroup
           + "\",\"consumeType\":\"CONSUME_PASSIVELY\",\"messageModel\":\"CLUSTERING\","
             "\"consumeFromWhere\":\"CONSUME_FROM_LAST_OFFSET\",\"subscriptionDataSet\":[{\"topic\":\""
           + kTopic
           + "\",\"subString\":\"*\",\"tagsSet\":[],\"codeSet\":[],\"subVersion\":0,"
             "\"classFilterMode\":false,\"expressionType\":\"TAG\"}],\"unitMode\":false}],"
             "\"producerDataSet\":[]}";
}

} // namespace

class ExhaustionTest : public QObject
{
    Q_OBJECT

    HostileFixture fixture_;

    // One control message through a fresh connection: acknowledged, so kept for the final check.
    bool sendControl(const std::string &label)
    {
        const auto response = fixture_.send(kTopic, 0, "control " + label, "TAGS\x01" "control\x02");
        return response && response->code == ResponseCode::kSuccess;
    }

private slots:
    void initTestCase()
    {
        // The test holds hundreds of sockets itself.
        const common::DescriptorLimit own = common::raiseOpenFileLimit();
        QVERIFY2(own.soft >= 2048, qPrintable(QStringLiteral("the test's open-file limit is %1").arg(own.soft)));
        // A send buffer as over a network (loopback's autotuned one holds megabytes per socket,
        // which would hide what the broker itself queues).
        QVERIFY2(fixture_.start({"serverMaxConnections=700", "serverFrameTimeoutMillis=2000",
                                 "serverSocketSndBufSize=65536", "serverTotalPartialFrameBytes=33554432"}),
                 qPrintable(fixture_.broker().log()));
        QVERIFY(fixture_.createTopic(kTopic));
        QVERIFY(sendControl("start"));
    }

    void cleanup()
    {
        QVERIFY2(fixture_.broker().running(), qPrintable(fixture_.broker().log().right(3000)));
        QVERIFY2(fixture_.otherClientAnswered(), "another client was not answered");
    }

    // 500 consumers of one group that never read, and one more client joining and leaving the
    // group in a loop: each join and leave tells all 500 (NOTIFY_CONSUMER_IDS_CHANGED). The
    // broker drops what they do not read instead of queueing it: its RSS stays within about its
    // write budget (64 MiB) of where it started, comes back after, and the producer beside it
    // is answered.
    void notificationFloodTakesNoMemory()
    {
        const qint64 pid = fixture_.broker().pid();
        const int64_t idle = rssMiB(pid);
        QVERIFY(idle > 0);
        std::vector<std::unique_ptr<RawClient>> silent;
        for (int i = 0; i < 500; ++i) {
            silent.push_back(std::make_unique<RawClient>());
            QVERIFY(silent.back()->connect(fixture_.broker().brokerAddress(), 4096));
            const std::string body = heartbeatBody("silent-" + std::to_string(i));
            silent.back()->sendJson(RequestCode::kHeartBeat, {}, bytesOf(body)); // never read
        }
        RawClient churn;
        QVERIFY(churn.connect(fixture_.broker().brokerAddress()));
        int64_t peak = idle;
        int controls = 0;
        for (int round = 0; round < 4000; ++round) {
            const std::string id = "churn-" + std::to_string(round);
            const auto joined = churn.call(RequestCode::kHeartBeat, {}, bytesOf(heartbeatBody(id)));
            QVERIFY(joined && joined->code == ResponseCode::kSuccess);
            const auto left = churn.call(RequestCode::kUnregisterClient, {{"clientID", id}, {"consumerGroup", kGroup}});
            QVERIFY(left && left->code == ResponseCode::kSuccess);
            if (round % 400 == 0) {
                peak = std::max(peak, rssMiB(pid));
                QVERIFY2(sendControl("during the flood " + std::to_string(round)), "the producer was not answered");
                ++controls;
            }
        }
        peak = std::max(peak, rssMiB(pid));
        const int64_t dropped = runtimeValue(churn, "clientNotificationsDropped");
        const int64_t queued = runtimeValue(churn, "clientQueuedWriteBytes");
        qInfo("RSS %lld MiB idle, %lld MiB at most during 8,000 joins and leaves told to 500 silent consumers; "
              "%lld notifications dropped, %lld bytes queued",
              static_cast<long long>(idle), static_cast<long long>(peak), static_cast<long long>(dropped),
              static_cast<long long>(queued));
        QVERIFY2(peak - idle < 128, qPrintable(QStringLiteral("RSS grew from %1 to %2 MiB").arg(idle).arg(peak)));
        QVERIFY(dropped > 0);
        QVERIFY(queued <= 64LL * 1024 * 1024 + 1024 * 1024);
        QVERIFY(controls >= 10);
        silent.clear();
        QTRY_VERIFY_WITH_TIMEOUT(runtimeValue(churn, "clientQueuedWriteBytes") == 0, 30000);
        // What the burst took goes back to the system within a minute.
        QTRY_VERIFY2_WITH_TIMEOUT(rssMiB(pid) - idle < 48, qPrintable(QStringLiteral("RSS %1 MiB after the flood, "
                                                                                   "%2 MiB idle before it")
                                                                    .arg(rssMiB(pid))
                                                                    .arg(idle)),
                                  60000);
        qInfo("RSS %lld MiB once the silent consumers left", static_cast<long long>(rssMiB(pid)));
    }

    // Connections that send a byte of a frame now and then, past the connection limit: each is
    // closed once its frame does not arrive whole in time (serverFrameTimeoutMillis=2000), and a
    // new client at the limit takes the place of one that never completed a frame (silent 200 ms).
    void dribblersCannotLockOthersOut()
    {
        std::vector<std::unique_ptr<RawClient>> dribblers;
        const uint8_t oneByte[] = {0};
        for (int i = 0; i < 700; ++i) {
            dribblers.push_back(std::make_unique<RawClient>());
            QVERIFY(dribblers.back()->connect(fixture_.broker().brokerAddress()));
            dribblers.back()->sendBytes(oneByte);
        }
        QTest::qWait(300); // silent long enough to be shed
        QVERIFY2(fixture_.otherClientAnswered(), "a new client at the limit was not served");
        int closed = 0;
        for (const auto &dribbler : dribblers)
            closed += dribbler->waitClosed(5000ms) ? 1 : 0;
        QCOMPARE(closed, 700); // each one's frame deadline passed
        RawClient admin;
        QVERIFY(admin.connect(fixture_.broker().brokerAddress()));
        QVERIFY(runtimeValue(admin, "clientConnectionsShed") >= 1);
    }

    // 16 connections each send 4 MiB of a frame that says it holds 16 MiB, and stop: frames still
    // arriving may hold 32 MiB in all (serverTotalPartialFrameBytes), so the reads past it close
    // their connections, and the rest go at the frame deadline — RSS stays within 64 MiB of idle.
    void halfSentFramesAreBounded()
    {
        const qint64 pid = fixture_.broker().pid();
        const int64_t idle = rssMiB(pid);
        const std::vector<uint8_t> part = halfOfABigFrame();
        std::vector<std::unique_ptr<RawClient>> halves;
        for (int i = 0; i < 16; ++i) {
            halves.push_back(std::make_unique<RawClient>());
            QVERIFY(halves.back()->connect(fixture_.broker().brokerAddress()));
            halves.back()->sendBytes(part);
        }
        const int64_t peak = rssMiB(pid);
        RawClient admin;
        QVERIFY(admin.connect(fixture_.broker().brokerAddress()));
        QTRY_VERIFY_WITH_TIMEOUT(runtimeValue(admin, "clientConnectionsClosedForPartialFrames") >= 8, 10000);
        int closed = 0;
        for (const auto &half : halves)
            closed += half->waitClosed(5000ms) ? 1 : 0;
        qInfo("RSS %lld MiB idle, %lld MiB with 16 half-sent 16 MiB frames; %lld closed over the budget",
              static_cast<long long>(idle), static_cast<long long>(peak),
              static_cast<long long>(runtimeValue(admin, "clientConnectionsClosedForPartialFrames")));
        QCOMPARE(closed, 16);
        QVERIFY2(peak - idle < 64, qPrintable(QStringLiteral("RSS grew from %1 to %2 MiB").arg(idle).arg(peak)));
    }

    // A broker started with only 1,024 descriptors (soft and hard, so it cannot raise them) and
    // 1,100 connections: it keeps a reserve for the store — a send to a new topic (new queue
    // files) is stored — and says its limits in runtime info.
    void aLowDescriptorLimitLeavesTheStoreItsFiles()
    {
        HostileFixture low;
        low.broker().setOpenFileLimit(1024);
        QVERIFY2(low.start({}), qPrintable(low.broker().log()));
        std::vector<std::unique_ptr<RawClient>> crowd;
        for (int i = 0; i < 1100; ++i) {
            crowd.push_back(std::make_unique<RawClient>());
            if (!crowd.back()->connect(low.broker().brokerAddress()))
                crowd.pop_back();
        }
        QTest::qWait(300); // the crowd silent long enough to make room
        QVERIFY(low.createTopic("FreshTopicUnderLoad"));
        const auto stored = low.send("FreshTopicUnderLoad", 3, "stored while crowded", "TAGS\x01" "x\x02");
        QVERIFY2(stored && stored->code == ResponseCode::kSuccess,
                 qPrintable(stored ? QString::fromStdString(stored->remark) : low.broker().log().right(2000)));
        RawClient admin;
        QVERIFY(admin.connect(low.broker().brokerAddress()));
        QCOMPARE(runtimeValue(admin, "maxFileDescriptors"), int64_t{1024});
        QCOMPARE(runtimeValue(admin, "processConnectionLimit"), int64_t{768});
        QVERIFY(runtimeValue(admin, "processConnections") <= 768);
        QVERIFY(low.broker().log().contains(QStringLiteral("open-file limit 1024")));
        crowd.clear();
        const std::string missing = low.missingAcknowledged();
        QVERIFY2(missing.empty(), missing.c_str());
    }

    // Every message acknowledged beside the attacks is there after the broker is killed and
    // started again on its store.
    void cleanupTestCase()
    {
        QVERIFY(sendControl("end"));
        const std::string restarted = fixture_.restart(SIGKILL);
        QVERIFY2(restarted.empty(), restarted.c_str());
        const std::string missing = fixture_.missingAcknowledged();
        QVERIFY2(missing.empty(), missing.c_str());
    }
};

QTEST_GUILESS_MAIN(ExhaustionTest)
#include "tst_exhaustion.moc"
