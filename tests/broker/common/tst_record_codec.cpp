// The commit-log record codec against spec §17's worked example and the Java-written logs.

#include "test_support.h"

#include "broker/common/bytes.h"
#include "broker/common/crc32.h"
#include "broker/common/java_hash.h"
#include "broker/common/message_id.h"
#include "broker/common/record_codec.h"

#include <zlib.h>

using namespace mqdesk::common;
using mqdesk::test::q;

namespace {

// The hex dump of store-format §17.
const char *const kSpecExampleHex =
    "0000007BDAA320A777D1898200000001"
    "00000000000000000000000500000000"
    "00000000000000000000018BCFE56800"
    "7F0000010000C3500000018BCFE5687B"
    "7F00000100002A9F0000000000000000"
    "000000000000000548656C6C6F09546F"
    "70696354657374001254414753015461"
    "6741024B455953016B3102";

std::vector<uint8_t> specExampleBytes()
{
    std::string hex(kSpecExampleHex);
    return *fromHex(hex);
}

BrokerMessage specExampleMessage()
{
    BrokerMessage m;
    m.topic = "TopicTest";
    m.queueId = 1;
    m.setBody("Hello");
    m.properties = MessageProperties{{"TAGS", "TagA"}, {"KEYS", "k1"}};
    m.bornTimestamp = 1700000000000;
    m.bornHost = HostAddress::ipv4(127, 0, 0, 1, 50000);
    return m;
}

EncodeOptions specStoreHost()
{
    EncodeOptions options;
    options.storeHost = HostAddress::ipv4(127, 0, 0, 1, 10911);
    return options;
}

struct FixtureRecord
{
    int64_t offset;
    StoredMessage message;
};

std::vector<FixtureRecord> decodeFixtureLog(const std::string &store, int64_t &blankAt)
{
    const auto bytes = mqdesk::test::readFile(mqdesk::test::fixturesDir() + "/" + store
                                              + "/commitlog/00000000000000000000");
    std::vector<FixtureRecord> records;
    size_t position = 0;
    blankAt = -1;
    while (position < bytes.size()) {
        const auto decoded = decodeRecord(std::span<const uint8_t>(bytes).subspan(position));
        if (decoded.status == DecodeStatus::Blank) {
            blankAt = static_cast<int64_t>(position);
            // The blank's size is the rest of the file.
            if (decoded.size != static_cast<int32_t>(bytes.size() - position))
                blankAt = -2;
            break;
        }
        if (decoded.status != DecodeStatus::Ok)
            break;
        records.push_back({static_cast<int64_t>(position), decoded.record.materialize()});
        position += static_cast<size_t>(decoded.size);
    }
    return records;
}

} // namespace

class RecordCodecTest : public QObject
{
    Q_OBJECT

private slots:
    void encodesSpecExampleByteForByte()
    {
        std::vector<uint8_t> out;
        const BrokerMessage message = specExampleMessage();
        QCOMPARE(encodeRecord(message, message.properties.encode(), specStoreHost(), out), EncodeStatus::Ok);
        patchQueueOffset(out.data(), 5);
        patchPhysicalOffset(out.data(), 0);
        patchStoreTimestamp(out.data(), 1700000000123);
        const auto expected = specExampleBytes();
        QCOMPARE(expected.size(), size_t{123});
        QCOMPARE(q(toUpperHex(out)), q(toUpperHex(expected)));
    }

    void decodesSpecExample()
    {
        const auto bytes = specExampleBytes();
        const auto decoded = decodeRecord(bytes);
        QCOMPARE(decoded.status, DecodeStatus::Ok);
        QCOMPARE(decoded.size, 123);
        const StoredMessage m = decoded.record.materialize();
        QCOMPARE(m.magic, kMagicV1);
        QCOMPARE(m.bodyCrc, 2010220930);
        QCOMPARE(m.queueId, 1);
        QCOMPARE(m.queueOffset, int64_t{5});
        QCOMPARE(m.bornTimestamp, int64_t{1700000000000});
        QCOMPARE(m.storeTimestamp, int64_t{1700000000123});
        QCOMPARE(q(m.bornHost.toString()), QStringLiteral("127.0.0.1:50000"));
        QCOMPARE(q(m.storeHost.toString()), QStringLiteral("127.0.0.1:10911"));
        QCOMPARE(q(m.topic), QStringLiteral("TopicTest"));
        QCOMPARE(q(m.bodyText()), QStringLiteral("Hello"));
        QCOMPARE(q(m.tags()), QStringLiteral("TagA"));
        QCOMPARE(q(std::string(*m.properties.get("KEYS"))), QStringLiteral("k1"));
    }

    // The table-driven CRC (short inputs) and zlib (long ones) agree with zlib at every length
    // around the switch-over and at unaligned starts.
    void crc32MatchesZlib()
    {
        std::vector<uint8_t> bytes(9000);
        uint32_t state = 12345;
        for (auto &b : bytes) {
            state = state * 1103515245u + 12345u;
            b = static_cast<uint8_t>(state >> 16);
        }
        for (size_t start : {size_t{0}, size_t{1}, size_t{3}, size_t{7}}) {
            for (size_t length = 0; length + start <= bytes.size(); length += length < 300 ? 1 : 97) {
                const uint32_t expected = static_cast<uint32_t>(
                    ::crc32(::crc32(0L, Z_NULL, 0), bytes.data() + start, static_cast<uInt>(length)));
                QCOMPARE(crc32({bytes.data() + start, length}), expected);
            }
        }
    }

    void derivesSpecValues()
    {
        const std::string hello = "Hello";
        QCOMPARE(maskedBodyCrc({reinterpret_cast<const uint8_t *>(hello.data()), hello.size()}), 2010220930);
        QCOMPARE(crc32({reinterpret_cast<const uint8_t *>(hello.data()), hello.size()}), 0xF7D18982u);
        QCOMPARE(tagsCodeOf("TagA"), int64_t{2598919});
        QCOMPARE(javaStringHashCode("TopicTest#k1"), 2746024);
        QCOMPARE(tagsCodeOf(""), int64_t{0});
        // A negative hash is sign-extended.
        QVERIFY(javaStringHashCode("polygenelubricants") == INT32_MIN);
        QCOMPARE(tagsCodeOf("polygenelubricants"), int64_t{INT32_MIN});
        // Non-ASCII text hashes over UTF-16 code units, surrogate pairs included.
        QCOMPARE(javaStringHashCode("\xE4\xB8\xAD"), 0x4E2D);               // 中
        QCOMPARE(javaStringHashCode("\xF0\x9F\x98\x80"), 31 * 0xD83D + 0xDE00); // 😀
        QCOMPARE(q(createOffsetMessageId(HostAddress::ipv4(127, 0, 0, 1, 10911), 0)),
                 QStringLiteral("7F00000100002A9F0000000000000000"));
    }

    void decodesJavaWrittenLogs_data()
    {
        QTest::addColumn<QString>("store");
        QTest::addColumn<qint64>("firstStoreTimestamp");
        QTest::addColumn<qint64>("lastStoreTimestamp");
        QTest::addColumn<QString>("storeHost");
        QTest::newRow("fork-2021") << QStringLiteral("fork-2021") << qint64(1632821159372)
                                   << qint64(1632821159416) << QStringLiteral("192.168.71.1:8123");
        QTest::newRow("study-2019") << QStringLiteral("study-2019") << qint64(1551613204834)
                                    << qint64(1551613204843) << QStringLiteral("10.1.30.38:8123");
    }

    void decodesJavaWrittenLogs()
    {
        QFETCH(QString, store);
        QFETCH(qint64, firstStoreTimestamp);
        QFETCH(qint64, lastStoreTimestamp);
        QFETCH(QString, storeHost);
        int64_t blankAt = -1;
        const auto records = decodeFixtureLog(store.toStdString(), blankAt);
        QCOMPARE(records.size(), size_t{47});
        QCOMPARE(blankAt, int64_t{8084}); // a 108-byte end-of-file record closes the 8 KiB file
        for (size_t i = 0; i < records.size(); ++i) {
            const StoredMessage &m = records[i].message;
            QCOMPARE(m.physicalOffset, records[i].offset);
            QCOMPARE(m.queueOffset, static_cast<int64_t>(i));
            QCOMPARE(m.totalSize, 172);
            QCOMPARE(q(m.topic), QStringLiteral("abc"));
            QCOMPARE(q(m.bodyText()), QStringLiteral("Once, there was a chance for me!"));
            QCOMPARE(q(m.tags()), QStringLiteral("TAG1"));
            QCOMPARE(q(std::string(*m.properties.get("KEYS"))), QString::number(m.bornTimestamp));
            QCOMPARE(q(std::string(*m.properties.get("0"))), QStringLiteral("imagoodperson0"));
            QCOMPARE(q(m.storeHost.toString()), storeHost);
            QVERIFY(m.storeTimestamp >= firstStoreTimestamp && m.storeTimestamp <= lastStoreTimestamp);
        }
        QCOMPARE(records.front().message.storeTimestamp, firstStoreTimestamp);
        QCOMPARE(records.back().message.storeTimestamp, lastStoreTimestamp);
    }

    void roundTripsV2TopicsAndIpv6Hosts()
    {
        BrokerMessage m = specExampleMessage();
        m.topic = "%RETRY%" + std::string(150, 'g');
        m.bornHost = *HostAddress::parse("[2001:db8::1]:40000");
        EncodeOptions options;
        options.storeHost = *HostAddress::parse("[::1]:10911");
        std::vector<uint8_t> out;
        QCOMPARE(encodeRecord(m, m.properties.encode(), options, out), EncodeStatus::Ok);
        const auto decoded = decodeRecord(out);
        QCOMPARE(decoded.status, DecodeStatus::Ok);
        QCOMPARE(decoded.record.magic, kMagicV2);
        QCOMPARE(decoded.size, recordLength(MessageVersion::V2, sysflag::kBornHostV6 | sysflag::kStoreHostV6, 5,
                                            static_cast<int32_t>(m.topic.size()), 18));
        QVERIFY(decoded.record.sysFlag & sysflag::kBornHostV6);
        QVERIFY(decoded.record.sysFlag & sysflag::kStoreHostV6);
        QCOMPARE(q(std::string(decoded.record.topic)), q(m.topic));
        QCOMPARE(q(decoded.record.bornHost.toString()), QStringLiteral("[2001:db8::1]:40000"));
        QCOMPARE(q(decoded.record.storeHost.toString()), QStringLiteral("[::1]:10911"));
        const std::string id = createOffsetMessageId(decoded.record.storeHost, 4096);
        QCOMPARE(id.size(), size_t{56});
        const auto parsed = decodeOffsetMessageId(id);
        QVERIFY(parsed);
        QCOMPARE(parsed->commitLogOffset, int64_t{4096});
        QVERIFY(parsed->storeHost == decoded.record.storeHost);
    }

    void refusesWhatItCannotStore()
    {
        BrokerMessage m = specExampleMessage();
        std::vector<uint8_t> out;
        EncodeOptions options = specStoreHost();
        options.maxBodySize = 4;
        QCOMPARE(encodeRecord(m, "", options, out), EncodeStatus::BodyTooLarge);
        QCOMPARE(encodeRecord(m, std::string(40000, 'x'), specStoreHost(), out), EncodeStatus::PropertiesTooLarge);
        m.topic = std::string(256, 't');
        QCOMPARE(encodeRecord(m, "", specStoreHost(), out), EncodeStatus::TopicTooLong);
        QVERIFY(out.empty());
    }

    void rejectsDamagedRecords()
    {
        const auto good = specExampleBytes();
        {
            auto bytes = good;
            bytes[90] ^= 0x01; // a body byte
            const auto r = decodeRecord(bytes);
            QCOMPARE(r.status, DecodeStatus::Invalid);
            QVERIFY2(r.error.find("CRC") != std::string::npos, r.error.c_str());
            QCOMPARE(decodeRecord(bytes, {false}).status, DecodeStatus::Ok); // CRC check off
        }
        {
            auto bytes = good;
            bytes[5] = 0x00; // magic
            QVERIFY(decodeRecord(bytes).error.find("magic") != std::string::npos);
        }
        {
            const std::vector<uint8_t> torn(good.begin(), good.begin() + 100);
            const auto r = decodeRecord(torn);
            QCOMPARE(r.status, DecodeStatus::Invalid);
            QVERIFY2(r.error.find("runs past") != std::string::npos, r.error.c_str());
        }
        {
            auto bytes = good;
            bytes.push_back(0);
            writeInt32(bytes.data(), 124); // size no longer matches the fields
            QVERIFY(decodeRecord(bytes).error.find("disagrees") != std::string::npos);
        }
        {
            auto bytes = good;
            writeInt32(bytes.data() + 84, 1000000); // body length past the record
            QVERIFY(decodeRecord(bytes).error.find("body length") != std::string::npos);
        }
        {
            std::vector<uint8_t> blank(100, 0);
            encodeBlankRecord(blank.data(), 100);
            const auto r = decodeRecord(blank);
            QCOMPARE(r.status, DecodeStatus::Blank);
            QCOMPARE(r.size, 100);
            QCOMPARE(q(toUpperHex(std::span<const uint8_t>(blank.data(), 8))), QStringLiteral("00000064CBD43194"));
        }
        QCOMPARE(decodeRecord(std::vector<uint8_t>(4, 0)).status, DecodeStatus::Invalid);
    }

    void acceptsAnyPropertyBytes()
    {
        // What Java's broker stores and serves: a property value holding NUL bytes (the client sent
        // KEYS\x01bad\x02X\x01a\x00b\x02), and properties without the trailing 0x02 (a batch's
        // inner message). Magic, lengths and CRC are right, so the record is valid.
        for (const std::string &properties : {std::string("KEYS\x01" "bad\x02X\x01" "a\0b\x02", 15),
                                             std::string("TAGS\x01" "a\x02KEYS\x01" "k"),
                                             std::string("\0\0\0\0", 4)}) {
            BrokerMessage message;
            message.topic = "TopicTest";
            message.body = {'h', 'i'};
            std::vector<uint8_t> bytes;
            QCOMPARE(encodeRecord(message, properties, {}, bytes), EncodeStatus::Ok);
            const auto r = decodeRecord(bytes);
            QCOMPARE(r.status, DecodeStatus::Ok);
            QCOMPARE(r.record.properties, std::string_view(properties));
            QCOMPARE(r.size, static_cast<int32_t>(bytes.size()));
        }
    }
};

QObject *createRecordCodecTest() { return new RecordCodecTest; }

#include "tst_record_codec.moc"
