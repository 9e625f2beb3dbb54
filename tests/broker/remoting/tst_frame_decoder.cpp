// The streaming FrameDecoder: arbitrary chunking, several frames per chunk, every malformed
// frame rejected with an error naming the fault (remoting spec §1.1, §1.4, §9), and the frame
// limit at and just over its value.

#include "test_support.h"

#include "remoting_test_util.h"

#include "broker/remoting/remoting_codec.h"

#include <random>

using namespace mqdesk::remoting;
using namespace mqdesk::test;

namespace {

constexpr int32_t kMiB = 1024 * 1024;

RemotingCommand sampleCommand(int index)
{
    RemotingCommand c = RemotingCommand::createRequest(
        index % 2 ? RequestCode::kSendMessageV2 : RequestCode::kHeartBeat,
        {{"topic", "Topic" + std::to_string(index)}, {"queueId", std::to_string(index % 4)}});
    c.opaque = index;
    c.serializeType = index % 3 == 0 ? SerializeType::RocketMq : SerializeType::Json;
    if (index % 5 == 1)
        c.remark = "remark \xE2\x9C\x93 " + std::to_string(index);
    // Bodies from empty to larger than most chunks.
    const size_t bodySize = index % 4 == 0 ? 0 : size_t(index) * 997 % 70000;
    for (size_t i = 0; i < bodySize; ++i)
        c.body.push_back(uint8_t(i ^ size_t(index)));
    return c;
}

// The frames of `commands` back to back.
std::vector<uint8_t> streamOf(const std::vector<RemotingCommand> &commands)
{
    std::vector<uint8_t> stream;
    for (const RemotingCommand &c : commands) {
        const EncodeResult encoded = encodeFrame(c);
        stream.insert(stream.end(), encoded.bytes.begin(), encoded.bytes.end());
    }
    return stream;
}

std::string sameCommands(const std::vector<RemotingCommand> &actual,
                         const std::vector<RemotingCommand> &expected)
{
    if (actual.size() != expected.size())
        return std::to_string(actual.size()) + " commands, expected " + std::to_string(expected.size());
    for (size_t i = 0; i < actual.size(); ++i) {
        if (std::string diff = commandDiff(actual[i], expected[i]); !diff.empty())
            return "command " + std::to_string(i) + ": " + diff;
    }
    return {};
}

// The fixed part of a binary header: code 105, JAVA, version 409, opaque 2, flag 0.
ByteWriter binaryFixed()
{
    ByteWriter w;
    w.put<int16_t>(105).put<uint8_t>(0).put<int16_t>(409).put<int32_t>(2).put<int32_t>(0);
    return w;
}

std::vector<uint8_t> binaryFrame(const ByteWriter &header) { return rawFrame(1, header.bytes()); }

std::vector<uint8_t> prefixOnly(int32_t length, uint32_t word)
{
    return ByteWriter().put<int32_t>(length).put<uint32_t>(word).bytes();
}

} // namespace

class FrameDecoderTest : public QObject
{
    Q_OBJECT

private slots:
    void decodesOneByteAtATime()
    {
        std::vector<RemotingCommand> commands;
        for (int i = 0; i < 9; ++i)
            commands.push_back(sampleCommand(i));
        const std::vector<uint8_t> stream = streamOf(commands);

        FrameDecoder decoder;
        std::vector<RemotingCommand> out;
        for (size_t i = 0; i < stream.size(); ++i) {
            QVERIFY2(decoder.feed(std::span(stream).subspan(i, 1), out), decoder.error().c_str());
            QVERIFY(decoder.pendingBytes() <= kDefaultMaxFrameSize);
        }
        const std::string diff = sameCommands(out, commands);
        QVERIFY2(diff.empty(), diff.c_str());
        QCOMPARE(decoder.pendingBytes(), size_t{0});
        QCOMPARE(decoder.streamOffset(), uint64_t(stream.size()));
    }

    void decodesThreeFramesInOneChunk()
    {
        const std::vector<RemotingCommand> commands = {sampleCommand(1), sampleCommand(3), sampleCommand(4)};
        const std::vector<uint8_t> stream = streamOf(commands);
        FrameDecoder decoder;
        std::vector<RemotingCommand> out;
        QVERIFY(decoder.feed(stream, out));
        const std::string together = sameCommands(out, commands);
        QVERIFY2(together.empty(), together.c_str());
        QCOMPARE(decoder.pendingBytes(), size_t{0});

        // Two and a half frames, then the rest: the half waits, the rest completes it.
        out.clear();
        const std::vector<uint8_t> twice = streamOf({commands[0], commands[1], commands[2], commands[0]});
        const size_t cut = stream.size() - 10;
        QVERIFY(decoder.feed(std::span(twice).first(cut), out));
        QCOMPARE(out.size(), size_t{2});
        QCOMPARE(decoder.pendingBytes(), encodeFrame(commands[2]).bytes.size() - 10);
        QVERIFY(decoder.feed(std::span(twice).subspan(cut), out));
        const std::string diff = sameCommands(out, {commands[0], commands[1], commands[2], commands[0]});
        QVERIFY2(diff.empty(), diff.c_str());
    }

    void decodesAnyChunking()
    {
        std::vector<RemotingCommand> commands;
        for (int i = 0; i < 40; ++i)
            commands.push_back(sampleCommand(i));
        const std::vector<uint8_t> stream = streamOf(commands);
        std::mt19937 random(20240611); // fixed seed: the same splits every run
        for (int round = 0; round < 20; ++round) {
            FrameDecoder decoder;
            std::vector<RemotingCommand> out;
            std::uniform_int_distribution<size_t> chunkSize(1, round < 10 ? 64 : 150000);
            for (size_t pos = 0; pos < stream.size();) {
                const size_t n = std::min(chunkSize(random), stream.size() - pos);
                QVERIFY2(decoder.feed(std::span(stream).subspan(pos, n), out), decoder.error().c_str());
                pos += n;
            }
            const std::string diff = sameCommands(out, commands);
            QVERIFY2(diff.empty(), diff.c_str());
        }
    }

    void rejectsMalformedFrames_data()
    {
        QTest::addColumn<QByteArray>("frame");
        QTest::addColumn<QByteArray>("fault");
        auto row = [](const char *name, const std::vector<uint8_t> &frame, const char *fault) {
            QTest::newRow(name) << QByteArray(reinterpret_cast<const char *>(frame.data()), qsizetype(frame.size()))
                                << QByteArray(fault);
        };
        // Framing (§1.1).
        row("negative length", prefixOnly(-1, 0), "negative frame length -1");
        row("length below 4", ByteWriter().put<int32_t>(3).text("abc").bytes(),
            "frame length 3 is less than 4, the size of the header-length word");
        row("over the limit", prefixOnly(16 * kMiB - 3, 0),
            "frame of 16777217 bytes (length field 16777213) exceeds the 16777216-byte frame limit");
        row("header longer than frame", ByteWriter().put<int32_t>(8).put<int32_t>(16).text("{}{}").bytes(),
            "header length 16 exceeds the 4 bytes the frame holds after the header-length word");
        row("unknown serialization type", rawFrame(2, bytesOf("{}")),
            "unknown serialization type 2 in header-length word 0x02000002 (expected 0 = JSON or 1 = ROCKETMQ)");
        // JSON header (§1.3).
        row("empty JSON header", rawFrame(0, {}), "unparsable JSON header: line 1, column 1");
        row("unparsable JSON", jsonFrame("{\"code\":1,"), "unparsable JSON header: line 1, column 11");
        row("JSON not an object", jsonFrame("[1]"), "JSON header is an array, not an object");
        row("JSON without code", jsonFrame("{\"opaque\":1}"), "JSON header has no \"code\"");
        row("JSON code not a number", jsonFrame("{\"code\":\"abc\"}"),
            "JSON header: \"code\" is \"abc\", not an integer");
        row("JSON code a boolean", jsonFrame("{\"code\":true}"), "JSON header: \"code\" is true, not an integer");
        row("JSON flag a double", jsonFrame("{\"code\":1,\"flag\":1.5}"), "JSON header: \"flag\" is 1.5, not an integer");
        row("JSON opaque beyond int32", jsonFrame("{\"code\":1,\"opaque\":4294967296}"),
            "JSON header: \"opaque\" = 4294967296 is out of the int32 range");
        row("JSON extFields not an object", jsonFrame("{\"code\":1,\"extFields\":[\"a\"]}"),
            "JSON header: \"extFields\" is an array, not an object");
        // ROCKETMQ binary header (§1.4).
        row("binary empty header", rawFrame(1, {}),
            "ROCKETMQ header: truncated code at header offset 0 (needs 2 bytes, 0 left in the header)");
        row("binary truncated flag", binaryFrame(ByteWriter().put<int16_t>(105).put<uint8_t>(0).put<int16_t>(409).put<int32_t>(2).put<int8_t>(0)),
            "ROCKETMQ header: truncated flag at header offset 9 (needs 4 bytes, 1 left in the header)");
        row("binary no remark length", binaryFrame(binaryFixed()),
            "ROCKETMQ header: truncated remark length at header offset 13");
        row("binary negative remark length", binaryFrame(binaryFixed().put<int32_t>(-2)),
            "ROCKETMQ header: negative remark length -2 at header offset 13");
        row("binary remark overruns header", binaryFrame(binaryFixed().put<int32_t>(50).text("abc")),
            "ROCKETMQ header: truncated remark: length 50 at header offset 13 exceeds the 3 bytes left in the header");
        row("binary no extFields length", binaryFrame(binaryFixed().put<int32_t>(1).text("r")),
            "ROCKETMQ header: truncated extFields length at header offset 18");
        row("binary negative extFields length", binaryFrame(binaryFixed().put<int32_t>(0).put<int32_t>(-5)),
            "ROCKETMQ header: negative extFields length -5 at header offset 17");
        row("binary extFields overrun header", binaryFrame(binaryFixed().put<int32_t>(0).put<int32_t>(100).text("12345")),
            "ROCKETMQ header: truncated extFields: length 100 at header offset 17 exceeds the 5 bytes left in the header");
        row("binary bytes after extFields", binaryFrame(binaryFixed().put<int32_t>(0).put<int32_t>(0).text("xyz")),
            "ROCKETMQ header: 3 unexpected bytes after the extFields area, which ends at header offset 21");
        row("binary negative key length", binaryFrame(binaryFixed().put<int32_t>(0).put<int32_t>(2).put<int16_t>(-1)),
            "ROCKETMQ header: negative extFields entry 1 key length -1 at header offset 21");
        row("binary key overruns area", binaryFrame(binaryFixed().put<int32_t>(0).put<int32_t>(4).put<int16_t>(5).text("ab")),
            "ROCKETMQ header: truncated extFields entry 1 key: length 5 at header offset 21 exceeds the 2 bytes left in the extFields area");
        row("binary truncated value length", binaryFrame(binaryFixed().put<int32_t>(0).put<int32_t>(5).put<int16_t>(1).text("k").put<int16_t>(0)),
            "ROCKETMQ header: truncated extFields entry 1 value length at header offset 24 (needs 4 bytes, 2 left in the extFields area)");
        row("binary value overruns area", binaryFrame(binaryFixed().put<int32_t>(0).put<int32_t>(8).put<int16_t>(1).text("k").put<int32_t>(10).text("v")),
            "ROCKETMQ header: truncated extFields entry 1 value: length 10 at header offset 24 exceeds the 1 bytes left in the extFields area");
        row("binary second entry truncated", binaryFrame(binaryFixed().put<int32_t>(0).put<int32_t>(9).put<int16_t>(1).text("k").put<int32_t>(1).text("v").text("\x01")),
            "ROCKETMQ header: truncated extFields entry 2 key length at header offset 29 (needs 2 bytes, 1 left in the extFields area)");
    }

    void rejectsMalformedFrames()
    {
        QFETCH(QByteArray, frame);
        QFETCH(QByteArray, fault);
        const std::vector<uint8_t> bytes(frame.begin(), frame.end());
        const std::string expected = fault.toStdString();

        const DecodeResult whole = decodeFrame(bytes);
        QVERIFY(!whole.ok());
        QVERIFY2(whole.error.find(expected) == 0, whole.error.c_str());

        // Streamed in one chunk and byte by byte, after a good frame: the good command comes
        // out, and the error locates the bad frame in the stream.
        const std::vector<uint8_t> good = encodeFrame(sampleCommand(2)).bytes;
        std::vector<uint8_t> stream = good;
        stream.insert(stream.end(), bytes.begin(), bytes.end());
        const std::string located = "frame at stream offset " + std::to_string(good.size()) + ": " + expected;
        for (const size_t chunk : {stream.size(), size_t{1}}) {
            FrameDecoder decoder;
            std::vector<RemotingCommand> out;
            bool ok = true;
            for (size_t pos = 0; pos < stream.size() && ok; pos += chunk)
                ok = decoder.feed(std::span(stream).subspan(pos, std::min(chunk, stream.size() - pos)), out);
            QVERIFY(!ok);
            QVERIFY(decoder.failed());
            QVERIFY2(decoder.error().find(located) == 0, decoder.error().c_str());
            QCOMPARE(out.size(), size_t{1});
            QCOMPARE(out[0].opaque, 2);
        }
    }

    void survivesCorruptedStreams()
    {
        // Random byte flips anywhere in a valid stream: each run ends in commands or an error,
        // never a crash (the asan preset runs this under AddressSanitizer and UBSan).
        std::vector<RemotingCommand> commands;
        for (int i = 0; i < 12; ++i)
            commands.push_back(sampleCommand(i * 7 % 13));
        const std::vector<uint8_t> stream = streamOf(commands);
        std::mt19937 random(7);
        int failures = 0;
        for (int round = 0; round < 300; ++round) {
            std::vector<uint8_t> corrupted = stream;
            // Mostly hit the first frames' prefixes and headers, where the structure is.
            std::uniform_int_distribution<size_t> where(0, round % 2 ? 300 : corrupted.size() - 1);
            for (int flips = 1 + round % 4; flips > 0; --flips)
                corrupted[where(random)] ^= uint8_t(1u << (random() % 8));
            FrameDecoder decoder(1 << 20);
            std::vector<RemotingCommand> out;
            for (size_t pos = 0; pos < corrupted.size(); pos += 997)
                decoder.feed(std::span(corrupted).subspan(pos, std::min<size_t>(997, corrupted.size() - pos)), out);
            if (decoder.failed()) {
                ++failures;
                QVERIFY(decoder.error().starts_with("frame at stream offset "));
            }
            (void)decodeFrame(std::span(corrupted).first(encodeFrame(commands[0]).bytes.size()));
        }
        QVERIFY(failures > 0);
    }

    void staysFailedUntilReset()
    {
        const std::vector<uint8_t> good = encodeFrame(sampleCommand(1)).bytes;
        std::vector<uint8_t> stream = good;
        const std::vector<uint8_t> bad = prefixOnly(-7, 0);
        stream.insert(stream.end(), bad.begin(), bad.end());
        stream.insert(stream.end(), good.begin(), good.end());

        FrameDecoder decoder;
        std::vector<RemotingCommand> out;
        QVERIFY(!decoder.feed(stream, out));
        QCOMPARE(out.size(), size_t{1}); // the frame after the fault is not decoded
        const std::string error = decoder.error();
        QVERIFY(!decoder.feed(good, out));
        QCOMPARE(out.size(), size_t{1});
        QCOMPARE(decoder.error(), error);

        decoder.reset();
        QVERIFY(!decoder.failed());
        QVERIFY(decoder.feed(good, out));
        QCOMPARE(out.size(), size_t{2});
        QCOMPARE(decoder.streamOffset(), uint64_t(good.size()));
    }

    void holdsOnlyTheBytesThatArrived()
    {
        // A peer announcing a 16 MiB frame and sending 18 bytes costs 18 bytes.
        FrameDecoder decoder;
        std::vector<RemotingCommand> out;
        std::vector<uint8_t> start = prefixOnly(16 * kMiB - 4, 2);
        start.insert(start.end(), {'{', '}', 1, 2, 3, 4, 5, 6, 7, 8});
        QVERIFY(decoder.feed(start, out));
        QVERIFY(out.empty());
        QCOMPARE(decoder.pendingBytes(), size_t{18});
        decoder.reset();
        QCOMPARE(decoder.pendingBytes(), size_t{0});
    }

    void acceptsAFrameAtTheLimitAndRejectsOneOver_data()
    {
        QTest::addColumn<int>("limit");
        QTest::newRow("custom 256 bytes") << 256;
        QTest::newRow("default 16 MiB") << int(kDefaultMaxFrameSize);
    }

    void acceptsAFrameAtTheLimitAndRejectsOneOver()
    {
        QFETCH(int, limit);
        const auto maxFrame = size_t(limit);
        RemotingCommand c = sampleCommand(0);
        c.body.clear();
        const size_t prefix = encodeFramePrefix(c, maxFrame).bytes.size();
        c.body.assign(maxFrame - prefix, 0xAB);

        const EncodeResult atLimit = encodeFrame(c, maxFrame);
        QVERIFY2(atLimit.ok(), atLimit.error.c_str());
        QCOMPARE(atLimit.bytes.size(), maxFrame);
        QVERIFY2(decodeFrame(atLimit.bytes, maxFrame).ok(), decodeFrame(atLimit.bytes, maxFrame).error.c_str());
        FrameDecoder decoder(maxFrame);
        QCOMPARE(decoder.maxFrameSize(), maxFrame);
        std::vector<RemotingCommand> out;
        for (size_t pos = 0; pos < atLimit.bytes.size(); pos += 100000)
            QVERIFY(decoder.feed(std::span(atLimit.bytes).subspan(pos, std::min<size_t>(100000, atLimit.bytes.size() - pos)), out));
        QCOMPARE(out.size(), size_t{1});
        QCOMPARE(out[0].body.size(), c.body.size());

        // One byte more: the encoder refuses, and so do both decoders, the streaming one as
        // soon as the length field has arrived.
        c.body.push_back(0xCD);
        const EncodeResult over = encodeFrame(c, maxFrame);
        QVERIFY(!over.ok());
        const std::string overText = "frame of " + std::to_string(maxFrame + 1) + " bytes exceeds the "
                                     + std::to_string(maxFrame) + "-byte frame limit";
        QVERIFY2(over.error == overText, over.error.c_str());

        std::vector<uint8_t> overFrame = atLimit.bytes;
        overFrame.push_back(0xCD);
        mqdesk::common::writeInt32(overFrame.data(), int32_t(maxFrame + 1 - 4));
        const DecodeResult rejected = decodeFrame(overFrame, maxFrame);
        QVERIFY(!rejected.ok());
        QVERIFY2(rejected.error.find("exceeds the " + std::to_string(maxFrame) + "-byte frame limit")
                     != std::string::npos, rejected.error.c_str());
        FrameDecoder streaming(maxFrame);
        QVERIFY(!streaming.feed(std::span(overFrame).first(4), out));
        QCOMPARE(out.size(), size_t{1});
    }
};

QObject *createFrameDecoderTest() { return new FrameDecoderTest; }

#include "tst_frame_decoder.moc"
