// Http2Inspector: what it lets through and what closes a connection, fed as a client's bytes
// arrive — whole, or a byte at a time (the verdict must not depend on how reads split frames).

#include "broker/grpc/http2_inspector.h"

#include "../../hostile/http2_frames.h"

#include <QtTest/QtTest>

using namespace mqdesk;
using namespace mqdesk::hostile;
using Clock = std::chrono::steady_clock;

namespace {

const http2::Bytes kHeaders = http2::requestHeaders("/apache.rocketmq.v2.MessagingService/QueryRoute");

http2::Bytes opened(uint32_t streams)
{
    http2::Bytes out = http2::prefaceAndSettings();
    for (uint32_t i = 0; i < streams; ++i)
        http2::appendFrame(out, http2::kHeaders, http2::kEndHeaders, 1 + 2 * i, kHeaders);
    return out;
}

// Feeds `bytes` whole, or one byte at a time; true while the inspector lets them through.
bool feed(grpc::Http2Inspector &inspector, const http2::Bytes &bytes, bool byteByByte, Clock::time_point now)
{
    if (!byteByByte)
        return inspector.feed(bytes, now);
    for (const uint8_t byte : bytes)
        if (!inspector.feed(std::span<const uint8_t>(&byte, 1), now))
            return false;
    return true;
}

} // namespace

class Http2InspectorTest : public QObject
{
    Q_OBJECT

private slots:
    void wholeOrByteByByte_data()
    {
        QTest::addColumn<bool>("byteByByte");
        QTest::newRow("whole") << false;
        QTest::newRow("byte by byte") << true;
    }

    void wholeOrByteByByte()
    {
        QFETCH(bool, byteByByte);
        const auto now = Clock::now();
        grpc::Http2Limits limits;
        limits.maxHeaderBlockBytes = 1024;
        limits.resetBurst = 5;
        limits.resetsPerSecond = 1;
        limits.idleFrameBurst = 5;
        limits.idleFramesPerSecond = 1;
        limits.maxOpenStreams = 4;

        { // A call as an SDK sends it passes, and its frames are counted whole.
            grpc::Http2SharedBudget shared(limits, now);
            grpc::Http2Inspector inspector(limits, shared, now);
            http2::Bytes call = opened(1);
            http2::appendFrame(call, http2::kData, http2::kEndStream, 1, http2::Bytes(300, 0));
            QVERIFY(feed(inspector, call, byteByByte, now));
            QCOMPARE(inspector.frames(), uint64_t{3});
            QVERIFY(!inspector.midFrame());
            QCOMPARE(inspector.openStreams(), size_t{1});
            http2::Bytes trailers; // grpc++ ends the stream
            http2::appendFrame(trailers, http2::kHeaders, http2::kEndHeaders | http2::kEndStream, 1, {0x88});
            inspector.feedFromServer(trailers);
            QCOMPARE(inspector.openStreams(), size_t{0});
        }
        { // Not HTTP/2.
            grpc::Http2SharedBudget shared(limits, now);
            grpc::Http2Inspector inspector(limits, shared, now);
            const std::string tls = "\x16\x03\x01\x02\x00";
            QVERIFY(!feed(inspector, http2::Bytes(tls.begin(), tls.end()), byteByByte, now));
            QVERIFY(inspector.reason().find("preface") != std::string::npos);
        }
        { // CONTINUATION frames past the header block's limit.
            grpc::Http2SharedBudget shared(limits, now);
            grpc::Http2Inspector inspector(limits, shared, now);
            http2::Bytes flood = http2::prefaceAndSettings();
            http2::appendFrame(flood, http2::kHeaders, 0, 1, kHeaders);
            for (int i = 0; i < 3; ++i)
                http2::appendFrame(flood, http2::kContinuation, 0, 1, http2::Bytes(400, 0));
            QVERIFY(!feed(inspector, flood, byteByByte, now));
            QVERIFY(inspector.reason().find("header block of more than 1024") != std::string::npos);
        }
        { // A header block interrupted by another frame.
            grpc::Http2SharedBudget shared(limits, now);
            grpc::Http2Inspector inspector(limits, shared, now);
            http2::Bytes broken = http2::prefaceAndSettings();
            http2::appendFrame(broken, http2::kHeaders, 0, 1, kHeaders);
            http2::appendFrame(broken, http2::kPing, 0, 0, http2::Bytes(8, 0));
            QVERIFY(!feed(inspector, broken, byteByByte, now));
        }
        { // Rapid reset: the sixth reset at once is one too many; a second later one more passes.
            grpc::Http2SharedBudget shared(limits, now);
            grpc::Http2Inspector inspector(limits, shared, now);
            QVERIFY(feed(inspector, http2::prefaceAndSettings(), byteByByte, now));
            const auto reset = [](uint32_t stream) {
                http2::Bytes pair;
                http2::appendFrame(pair, http2::kHeaders, http2::kEndHeaders, stream, kHeaders);
                http2::appendFrame(pair, http2::kRstStream, 0, stream, {0, 0, 0, 8});
                return pair;
            };
            for (uint32_t i = 0; i < 5; ++i)
                QVERIFY(feed(inspector, reset(1 + 2 * i), byteByByte, now));
            QCOMPARE(inspector.openStreams(), size_t{0}); // each reset ended its stream
            QVERIFY(feed(inspector, reset(11), byteByByte, now + std::chrono::milliseconds(1100)));
            QVERIFY(!feed(inspector, reset(13), byteByByte, now + std::chrono::milliseconds(1100)));
            QVERIFY(inspector.reason().find("rapid reset") != std::string::npos);
        }
        { // PINGs and SETTINGS past their bucket.
            grpc::Http2SharedBudget shared(limits, now);
            grpc::Http2Inspector inspector(limits, shared, now);
            http2::Bytes pings = http2::prefaceAndSettings(); // its SETTINGS takes one token
            for (int i = 0; i < 5; ++i)
                http2::appendFrame(pings, http2::kPing, 0, 0, http2::Bytes(8, 0));
            QVERIFY(!feed(inspector, pings, byteByByte, now));
        }
        { // More streams open than a connection may hold.
            grpc::Http2SharedBudget shared(limits, now);
            grpc::Http2Inspector inspector(limits, shared, now);
            QVERIFY(feed(inspector, opened(4), byteByByte, now));
            QCOMPARE(shared.openStreams, size_t{4});
            http2::Bytes fifth;
            http2::appendFrame(fifth, http2::kHeaders, http2::kEndHeaders, 9, kHeaders);
            QVERIFY(!feed(inspector, fifth, byteByByte, now));
        }
    }

    // A closed connection's streams count against all connections for a while (grpc++ frees
    // them later), then no more.
    void closedConnectionsStreamsLinger()
    {
        const auto now = Clock::now();
        grpc::Http2Limits limits;
        limits.maxOpenStreams = 10;
        limits.maxTotalOpenStreams = 12;
        grpc::Http2SharedBudget shared(limits, now);
        {
            grpc::Http2Inspector first(limits, shared, now);
            QVERIFY(first.feed(opened(10), now));
        }
        QCOMPARE(shared.openStreams, size_t{10});
        bool asked = false;
        shared.closeBiggestHolder = [&asked](const grpc::Http2Inspector &) {
            asked = true;
            return false;
        };
        grpc::Http2Inspector second(limits, shared, now);
        QVERIFY(second.feed(opened(2), now));
        QVERIFY(!asked);
        http2::Bytes third;
        http2::appendFrame(third, http2::kHeaders, http2::kEndHeaders, 5, kHeaders);
        QVERIFY(!second.feed(third, now));
        QVERIFY(asked);
        shared.expire(Clock::now() + grpc::Http2SharedBudget::kStreamLinger); // lingering from its real end
        QCOMPARE(shared.openStreams, size_t{2});
    }
};

QObject *createHttp2InspectorTest() { return new Http2InspectorTest; }

#include "tst_http2_inspector.moc"
