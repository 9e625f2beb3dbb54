// The resource-exhaustion suite, gRPC and NameServer ports (label "exhaustion"): a real
// mqdesk-broker, raw HTTP/2 frames against its gRPC port — rapid reset, CONTINUATION and ping
// floods, streams never ended, connections that never speak — and raw remoting frames against
// its NameServer port, while a 5.x-style gRPC producer and a remoting client keep calling
// beside them. Each case states a limit (RSS, connections closed, calls failed), never a time;
// every acknowledged message is there after a restart at the end.

#include "exhaustion_support.h"
#include "hostile_fixture.h"
#include "http2_frames.h"

#include "broker/common/descriptors.h"
#include "broker/grpc/grpc_producer.h"
#include "broker/remoting/remoting_codes.h"

#include <QtTest/QtTest>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

using namespace mqdesk;
using namespace mqdesk::hostile;
using namespace std::chrono_literals;
using remoting::RequestCode;
using remoting::ResponseCode;

namespace {

const std::string kTopic = "GrpcExhaustionTopic";
const std::string kQueryRoute = "/apache.rocketmq.v2.MessagingService/QueryRoute";

// runtimeValue over a fresh connection to `brokerAddress`.
int64_t runtimeValue(const std::string &brokerAddress, const std::string &key)
{
    RawClient client;
    return client.connect(brokerAddress) ? runtimeValue(client, key) : -1;
}

// Whether a new connection to the gRPC port is answered: the server's SETTINGS come back for
// the client's preface within a second.
bool http2Answered(const std::string &address)
{
    RawClient client;
    if (!client.connect(address) || !client.sendBytes(http2::prefaceAndSettings()))
        return false;
    pollfd ready{client.descriptor(), POLLIN, 0};
    uint8_t header[9];
    return ::poll(&ready, 1, 1000) == 1 && ::recv(client.descriptor(), header, sizeof header, MSG_WAITALL) == 9
           && header[3] == http2::kSettings;
}

// The clients beside an attack: a gRPC producer sending and a NameServer client asking for a
// route, each every 50 ms on its own thread, counting what failed and the slowest answer.
class NormalClients
{
public:
    NormalClients(const std::string &grpcAddress, const std::string &namesrvAddress)
        : producer_(grpcAddress)
    {
        grpcThread_ = std::thread([this] {
            while (!stop_) {
                const auto start = std::chrono::steady_clock::now();
                const std::string error = producer_.send(kTopic, "normal", "beside the attack");
                record(start, error, grpcCalls_, grpcFailures_);
                std::this_thread::sleep_for(50ms);
            }
        });
        namesrvThread_ = std::thread([this, namesrvAddress] {
            while (!stop_) {
                const auto start = std::chrono::steady_clock::now();
                RawClient client;
                std::optional<Response> response;
                if (client.connect(namesrvAddress))
                    response = client.call(RequestCode::kGetRouteinfoByTopic, {{"topic", kTopic}}, {}, 3000ms);
                record(start, response && response->code == ResponseCode::kSuccess ? "" : "no route", namesrvCalls_,
                       namesrvFailures_);
                std::this_thread::sleep_for(50ms);
            }
        });
    }

    ~NormalClients() { finish(); }

    void finish()
    {
        stop_ = true;
        if (grpcThread_.joinable())
            grpcThread_.join();
        if (namesrvThread_.joinable())
            namesrvThread_.join();
    }

    // "12 gRPC sends (0 failed), 12 routes (0 failed), slowest 35 ms; first failure: ..."
    QString summary() const
    {
        std::lock_guard lock(mutex_);
        return QStringLiteral("%1 gRPC sends (%2 failed), %3 NameServer routes (%4 failed), slowest %5 ms%6")
            .arg(grpcCalls_)
            .arg(grpcFailures_)
            .arg(namesrvCalls_)
            .arg(namesrvFailures_)
            .arg(slowestMillis_)
            .arg(firstFailure_.empty() ? QString() : QStringLiteral("; first failure: ") + QString::fromStdString(firstFailure_));
    }
    bool allServed() const
    {
        std::lock_guard lock(mutex_);
        return grpcFailures_ == 0 && namesrvFailures_ == 0 && grpcCalls_ > 0 && namesrvCalls_ > 0;
    }

private:
    void record(std::chrono::steady_clock::time_point start, const std::string &error, int &calls, int &failures)
    {
        const auto millis =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
        std::lock_guard lock(mutex_);
        ++calls;
        slowestMillis_ = std::max<int64_t>(slowestMillis_, millis);
        if (!error.empty()) {
            ++failures;
            if (firstFailure_.empty())
                firstFailure_ = error;
        }
    }

    grpc::GrpcProducer producer_;
    std::atomic<bool> stop_{false};
    std::thread grpcThread_;
    std::thread namesrvThread_;
    mutable std::mutex mutex_;
    int grpcCalls_ = 0, grpcFailures_ = 0, namesrvCalls_ = 0, namesrvFailures_ = 0; // guarded by mutex_
    int64_t slowestMillis_ = 0;                                                   // guarded by mutex_
    std::string firstFailure_;                                                    // guarded by mutex_
};

} // namespace

class GrpcExhaustionTest : public QObject
{
    Q_OBJECT

    HostileFixture fixture_;
    std::unique_ptr<NormalClients> normal_;
    int64_t idle_ = 0; // before the case
    int64_t peak_ = 0;
    int64_t idleAtStart_ = 0;

    struct Attack
    {
        int connections = 0;
        int cut = 0; // connections the broker closed
        int64_t done = 0;
    };

    // Runs one connection's attack (`attack` sends on the connected client until the broker
    // closes it, or all of `total` went through that one connection, and returns what it counts:
    // pairs, frames, bytes) on fresh connections until `total` is reached, sampling RSS; counts
    // the connections the broker cut. Each connection attacks in full (a last one sending only
    // what is left could stay below every limit, and rightly not be cut).
    Attack attackUntil(int64_t total, const std::function<int64_t(RawClient &, int64_t cap)> &attack)
    {
        Attack result;
        while (result.done < total && result.connections < 5000) {
            RawClient attacker;
            if (!attacker.connect(fixture_.broker().grpcAddress()))
                continue;
            ++result.connections;
            result.done += std::max<int64_t>(1, attack(attacker, total));
            result.cut += attacker.waitClosed(3000ms) ? 1 : 0;
            peak_ = std::max(peak_, rssMiB(fixture_.broker().pid()));
        }
        // grpc++ frees what the cut connections held on its own threads, after the cut.
        for (int i = 0; i < 10; ++i) {
            QTest::qWait(100);
            peak_ = std::max(peak_, rssMiB(fixture_.broker().pid()));
        }
        return result;
    }

    bool send(RawClient &client, const http2::Bytes &bytes) { return client.sendBytes(bytes); }

    int64_t grpcFigure(const std::string &key) { return runtimeValue(fixture_.broker().brokerAddress(), key); }

private slots:
    void initTestCase()
    {
        const common::DescriptorLimit own = common::raiseOpenFileLimit();
        QVERIFY2(own.soft >= 2048, qPrintable(QStringLiteral("the test's open-file limit is %1").arg(own.soft)));
        QVERIFY2(fixture_.start({"serverMaxConnections=300", "grpcMaxConnections=300", "serverFrameTimeoutMillis=2000",
                                 "serverTotalPartialFrameBytes=33554432"}),
                 qPrintable(fixture_.broker().log()));
        QVERIFY(fixture_.createTopic(kTopic));
        QVERIFY(fixture_.send(kTopic, 0, "control start", "TAGS\x01" "control\x02"));
        idleAtStart_ = rssMiB(fixture_.broker().pid());
    }

    void init()
    {
        idle_ = peak_ = rssMiB(fixture_.broker().pid());
        QVERIFY(idle_ > 0);
        normal_ = std::make_unique<NormalClients>(fixture_.broker().grpcAddress(), fixture_.broker().namesrvAddress());
    }

    void cleanup()
    {
        normal_->finish();
        qInfo("RSS %lld MiB idle, %lld MiB at most; beside it: %s", static_cast<long long>(idle_),
              static_cast<long long>(peak_), qPrintable(normal_->summary()));
        QVERIFY2(fixture_.broker().running(), qPrintable(fixture_.broker().log().right(3000)));
        QVERIFY2(normal_->allServed(), qPrintable(normal_->summary()));
        const auto stored = fixture_.send(kTopic, 1, "control after a case", "TAGS\x01" "control\x02");
        QVERIFY(stored && stored->code == ResponseCode::kSuccess);
    }

    // 128,800 HEADERS + RST_STREAM pairs (the rapid reset): each connection is closed
    // once its resets outrun the bucket (1,000, then 33 a second), before grpc++ works on them.
    void rapidResetIsCut()
    {
        const http2::Bytes headers = http2::requestHeaders(kQueryRoute);
        const Attack attack = attackUntil(128'800, [this, &headers](RawClient &attacker, int64_t cap) {
            int64_t pairs = 0;
            if (!send(attacker, http2::prefaceAndSettings()))
                return pairs;
            for (uint32_t stream = 1; pairs < cap;) {
                http2::Bytes batch;
                for (int i = 0; i < 100; ++i, stream += 2) {
                    http2::appendFrame(batch, http2::kHeaders, http2::kEndHeaders, stream, headers);
                    http2::appendFrame(batch, http2::kRstStream, 0, stream, {0, 0, 0, 8}); // CANCEL
                }
                if (!send(attacker, batch))
                    break;
                pairs += 100;
            }
            return pairs;
        });
        qInfo("rapid reset: %lld pairs sent over %d connections, %d cut", static_cast<long long>(attack.done),
              attack.connections, attack.cut);
        QCOMPARE(attack.cut, attack.connections);
        QVERIFY(attack.done >= 128'800);
        QVERIFY2(peak_ - idle_ < 128, qPrintable(QStringLiteral("RSS grew from %1 to %2 MiB").arg(idle_).arg(peak_)));
    }

    // 1 GiB of CONTINUATION frames after a HEADERS without END_HEADERS, 16 KiB of literal fields
    // each: a header block past 64 KiB closes its connection.
    void continuationFloodIsCut()
    {
        http2::Bytes fields;
        while (fields.size() < 16'000)
            http2::appendField(fields, "x-flood-" + std::to_string(fields.size()), std::string(200, 'v'));
        http2::Bytes frame;
        http2::appendFrame(frame, http2::kContinuation, 0, 1, fields);
        const Attack attack = attackUntil(int64_t{1} << 30, [this, &frame](RawClient &attacker, int64_t cap) {
            int64_t bytes = 0;
            http2::Bytes opening = http2::prefaceAndSettings();
            http2::appendFrame(opening, http2::kHeaders, 0, 1, http2::requestHeaders(kQueryRoute));
            if (!send(attacker, opening))
                return bytes;
            while (bytes < cap && send(attacker, frame))
                bytes += static_cast<int64_t>(frame.size());
            return bytes;
        });
        qInfo("CONTINUATION flood: %lld MiB sent over %d connections, %d cut",
              static_cast<long long>(attack.done >> 20), attack.connections, attack.cut);
        QCOMPARE(attack.cut, attack.connections);
        QVERIFY2(peak_ - idle_ < 128, qPrintable(QStringLiteral("RSS grew from %1 to %2 MiB").arg(idle_).arg(peak_)));
    }

    // PING, SETTINGS and PRIORITY frames without end: 1,000,000 of them, cut at the bucket.
    void idleFrameFloodIsCut()
    {
        http2::Bytes batch;
        for (int i = 0; i < 300; ++i) {
            http2::appendFrame(batch, http2::kPing, 0, 0, {1, 2, 3, 4, 5, 6, 7, 8});
            http2::appendFrame(batch, http2::kSettings, 0, 0, {});
            http2::appendFrame(batch, http2::kPriority, 0, 3, {0, 0, 0, 0, 16});
        }
        const Attack attack = attackUntil(1'000'000, [this, &batch](RawClient &attacker, int64_t cap) {
            int64_t frames = 0;
            if (!send(attacker, http2::prefaceAndSettings()))
                return frames;
            while (frames < cap && send(attacker, batch))
                frames += 900;
            return frames;
        });
        qInfo("idle-frame flood: %lld frames sent over %d connections, %d cut", static_cast<long long>(attack.done),
              attack.connections, attack.cut);
        QCOMPARE(attack.cut, attack.connections);
        QVERIFY2(peak_ - idle_ < 64, qPrintable(QStringLiteral("RSS grew from %1 to %2 MiB").arg(idle_).arg(peak_)));
    }

    // 20 connections each open 20,000 streams and end none (never acknowledging the server's
    // limit): each is cut past 256 open streams, and all together hold at most 5,000.
    void streamsNeverEndedAreBounded()
    {
        const http2::Bytes headers = http2::requestHeaders(kQueryRoute);
        const Attack attack = attackUntil(20 * 20'000, [this, &headers](RawClient &attacker, int64_t) {
            int64_t streams = 0;
            if (!send(attacker, http2::prefaceAndSettings()))
                return streams;
            for (uint32_t stream = 1; streams < 20'000;) {
                http2::Bytes batch;
                for (int i = 0; i < 200; ++i, stream += 2)
                    http2::appendFrame(batch, http2::kHeaders, http2::kEndHeaders, stream, headers);
                if (!send(attacker, batch))
                    break;
                streams += 200;
            }
            return std::max<int64_t>(streams, 20'000); // a connection's share, whatever got through
        });
        qInfo("streams never ended: %d connections of 20,000, %d cut", attack.connections, attack.cut);
        QCOMPARE(attack.cut, attack.connections);
        QVERIFY2(peak_ - idle_ < 128, qPrintable(QStringLiteral("RSS grew from %1 to %2 MiB").arg(idle_).arg(peak_)));
    }

    // 400 connections to the gRPC port that never send the preface, past its limit of 300: a new
    // producer still connects (taking a silent one's place), and each is closed once its preface
    // did not arrive within the frame deadline (2 s here).
    void silentConnectionsCannotLockOthersOut()
    {
        const int64_t shedBefore = grpcFigure("grpcConnectionsShed");
        std::vector<std::unique_ptr<RawClient>> silent;
        for (int i = 0; i < 400; ++i) {
            silent.push_back(std::make_unique<RawClient>());
            QVERIFY(silent.back()->connect(fixture_.broker().grpcAddress()));
        }
        QTest::qWait(300);
        // A new connection (not the producer's: grpc++ shares one per target in the process).
        QVERIFY2(http2Answered(fixture_.broker().grpcAddress()), "a new client at the limit was not served");
        int closed = 0;
        for (const auto &connection : silent)
            closed += connection->waitClosed(5000ms) ? 1 : 0;
        QCOMPARE(closed, 400);
        // Those past the limit within 200 ms of the rest found none idle enough and were refused;
        // the newcomer took a silent one's place.
        QVERIFY(grpcFigure("grpcConnectionsShed") - shedBefore >= 1);
        QVERIFY(grpcFigure("grpcConnectionsRefused") >= 1);
        QVERIFY(grpcFigure("grpcConnectionsClosedForFrameTimeout") >= 1);
    }

    // The NameServer port takes the broker's limits: 400 connections sending a byte of a frame
    // past its limit of 300, and 16 half-sent 16 MiB frames; the route client beside them is
    // answered, every dribbler goes at the frame deadline, and RSS stays bounded.
    void nameServerPortCannotBeExhausted()
    {
        std::vector<std::unique_ptr<RawClient>> dribblers;
        const uint8_t oneByte[] = {0};
        for (int i = 0; i < 400; ++i) {
            dribblers.push_back(std::make_unique<RawClient>());
            QVERIFY(dribblers.back()->connect(fixture_.broker().namesrvAddress()));
            dribblers.back()->sendBytes(oneByte);
        }
        const std::vector<uint8_t> part = halfOfABigFrame();
        std::vector<std::unique_ptr<RawClient>> halves;
        for (int i = 0; i < 16; ++i) {
            halves.push_back(std::make_unique<RawClient>());
            if (halves.back()->connect(fixture_.broker().namesrvAddress()))
                halves.back()->sendBytes(part);
        }
        peak_ = std::max(peak_, rssMiB(fixture_.broker().pid()));
        int closed = 0;
        for (const auto &dribbler : dribblers)
            closed += dribbler->waitClosed(5000ms) ? 1 : 0;
        for (const auto &half : halves)
            closed += half->waitClosed(5000ms) ? 1 : 0;
        QCOMPARE(closed, 416);
        QVERIFY2(peak_ - idle_ < 64, qPrintable(QStringLiteral("RSS grew from %1 to %2 MiB").arg(idle_).arg(peak_)));
    }

    // What the attacks took goes back; what was acknowledged is all there after a restart.
    void cleanupTestCase()
    {
        normal_.reset();
        QTRY_VERIFY2_WITH_TIMEOUT(rssMiB(fixture_.broker().pid()) - idleAtStart_ < 48,
                                  qPrintable(QStringLiteral("RSS %1 MiB after the attacks, %2 MiB before")
                                                 .arg(rssMiB(fixture_.broker().pid()))
                                                 .arg(idleAtStart_)),
                                  60000);
        qInfo("RSS %lld MiB idle before the attacks, %lld MiB after", static_cast<long long>(idleAtStart_),
              static_cast<long long>(rssMiB(fixture_.broker().pid())));
        const std::string restarted = fixture_.restart(SIGKILL);
        QVERIFY2(restarted.empty(), restarted.c_str());
        const std::string missing = fixture_.missingAcknowledged();
        QVERIFY2(missing.empty(), missing.c_str());
    }
};

QTEST_GUILESS_MAIN(GrpcExhaustionTest)
#include "tst_exhaustion_grpc.moc"
