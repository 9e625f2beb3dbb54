// Properties, message ids, host addresses, histograms and broker.conf parsing.

#include "test_support.h"

#include "broker/common/base64.h"
#include "broker/common/histogram.h"
#include "broker/common/host_address.h"
#include "broker/common/java_strings.h"
#include "broker/common/message_id.h"
#include "broker/common/message_properties.h"
#include "broker/common/properties_file.h"

#include <ctime>
#include <thread>

using namespace mqdesk::common;
using mqdesk::test::q;

class CommonPartsTest : public QObject
{
    Q_OBJECT

private slots:
    void encodesPropertiesWithTrailingSeparator()
    {
        MessageProperties p{{"TAGS", "TagA"}, {"KEYS", "k1 k2"}};
        QCOMPARE(q(p.encode()), QStringLiteral("TAGS\x01TagA\x02KEYS\x01k1 k2\x02"));
        p.set("TAGS", "TagB"); // replaced in place
        QCOMPARE(q(p.encode()), QStringLiteral("TAGS\x01TagB\x02KEYS\x01k1 k2\x02"));
        QCOMPARE(p.keys().size(), size_t{2});
        QVERIFY(p.remove("KEYS"));
        QVERIFY(!p.get("KEYS"));
    }

    void decodesPropertiesLikeRocketMq()
    {
        // Short segments, empty keys or values and missing separators are ignored; a repeated
        // key keeps its last value; a missing final separator is fine.
        const auto p = MessageProperties::decode(std::string("a\x01") + "\x02" + "\x01v\x02" + "xy\x02"
                                                 + "K\x01" "1\x02" "K\x01" "2\x02" "TAGS\x01t");
        QCOMPARE(p.size(), size_t{2});
        QCOMPARE(q(std::string(*p.get("K"))), QStringLiteral("2"));
        QCOMPARE(q(std::string(*p.get("TAGS"))), QStringLiteral("t"));
        QVERIFY(MessageProperties::decode("").empty());
    }

    void decodesUniqKeyOfSpecExample()
    {
        // 2023-11-14T22:13:20.123Z, read in the same month (TZ=UTC for this test).
        const auto info = decodeUniqKey("7F00000112345E2DE80C47B7607B0000", 1700000000123 + 1000);
        QVERIFY(info);
        QCOMPARE(q(info->ipString()), QStringLiteral("127.0.0.1"));
        QCOMPARE(info->pid, uint16_t{0x1234});
        QCOMPARE(info->classLoaderHash, 0x5E2DE80C);
        QCOMPARE(info->millisSinceMonthStart, 1203200123);
        QCOMPARE(info->counter, uint16_t{0});
        QCOMPARE(info->approximateTimestamp, int64_t{1700000000123});
        // Read early next month, the span lies in the future of that month: previous month used.
        const auto later = decodeUniqKey("7F00000112345E2DE80C47B7607B0000", 1701388800000 + 5000);
        QCOMPARE(later->approximateTimestamp, int64_t{1700000000123});
        // A span past 2^31 ms (after day 24 of a month) is unsigned, as RocketMQ reads it:
        // 0x90000000 ms = 2415919104 ms after 2023-11-01T00:00Z.
        const auto lateInMonth = decodeUniqKey("7F00000112345E2DE80C900000000001", 1698796800000 + 2415919104 + 1000);
        QVERIFY(lateInMonth);
        QCOMPARE(lateInMonth->millisSinceMonthStart, 2415919104u);
        QCOMPARE(lateInMonth->approximateTimestamp, int64_t{1698796800000 + 2415919104});
        QVERIFY(!decodeUniqKey("XYZ", 0));
        QVERIFY(!decodeUniqKey(std::string(32, 'G'), 0));
    }

    void decodesOffsetMessageIds()
    {
        const auto id = decodeOffsetMessageId("0A011E2600001FBB00000000000000AC");
        QVERIFY(id);
        QCOMPARE(q(id->storeHost.toString()), QStringLiteral("10.1.30.38:8123"));
        QCOMPARE(id->commitLogOffset, int64_t{172});
        QVERIFY(decodeOffsetMessageId("0a011e2600001fbb00000000000000ac")); // either case
        QVERIFY(!decodeOffsetMessageId("0A011E26"));
    }

    void parsesHostAddresses()
    {
        QCOMPARE(q(HostAddress::parse("192.168.0.1:10911")->toString()), QStringLiteral("192.168.0.1:10911"));
        QCOMPARE(q(HostAddress::parse("[fe80::1]:9876")->toString()), QStringLiteral("[fe80::1]:9876"));
        QCOMPARE(HostAddress::parse("::1")->ipv6, true);
        QCOMPARE(HostAddress::parse("10.0.0.1")->port, 0);
        QVERIFY(!HostAddress::parse("300.1.1.1:1"));
        QVERIFY(!HostAddress::parse("1.2.3.4:99999"));
        QVERIFY(!HostAddress::parse("host:1"));
    }

    void histogramPercentilesStayWithinABucket()
    {
        Histogram h;
        for (uint64_t v = 1; v <= 10000; ++v)
            h.record(v);
        const auto s = h.snapshot();
        QCOMPARE(s.count(), uint64_t{10000});
        QCOMPARE(s.max(), uint64_t{10000});
        const auto near = [](uint64_t got, double want) { return got >= want && got <= want * 1.0625 + 1; };
        QVERIFY2(near(s.percentile(0.5), 5000), std::to_string(s.percentile(0.5)).c_str());
        QVERIFY2(near(s.percentile(0.99), 9900), std::to_string(s.percentile(0.99)).c_str());
        QCOMPARE(s.percentile(1.0), uint64_t{10000});
        QCOMPARE(Histogram().snapshot().percentile(0.5), uint64_t{0});
        for (uint64_t v : {0ull, 1ull, 15ull, 16ull, 17ull, 1000ull, 1ull << 40, ~0ull})
            QVERIFY(Histogram::bucketUpperBound(Histogram::bucketIndex(v)) >= std::min<uint64_t>(v, 1ull << 49) || v == ~0ull);
    }

    void histogramWindowsAndThreads()
    {
        Histogram h;
        h.record(100);
        const auto before = h.snapshot();
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&h] { for (int i = 0; i < 10000; ++i) h.record(3000); });
        for (auto &t : threads)
            t.join();
        const auto window = h.snapshot().since(before);
        QCOMPARE(window.count(), uint64_t{40000});
        QVERIFY(window.percentile(0.01) >= 3000);
        QVERIFY(window.max() >= 3000 && window.max() < 3200);
    }

    void parsesBrokerConf()
    {
        const auto r = parseProperties("# comment\nbrokerName = broker-a\n! also\nflushDiskType=SYNC_FLUSH\r\n"
                                       "  listenPort:10911  \n\n");
        QVERIFY(r.error.empty());
        QCOMPARE(r.values.size(), size_t{3});
        QCOMPARE(q(r.values.at("brokerName")), QStringLiteral("broker-a"));
        QCOMPARE(q(r.values.at("listenPort")), QStringLiteral("10911"));
        const auto bad = parseProperties("ok=1\njust-a-word\n");
        QVERIFY(bad.error.find("line 2") != std::string::npos);
        const auto missing = loadPropertiesFile("/nonexistent/broker.conf");
        QVERIFY(missing.error.find("/nonexistent/broker.conf") != std::string::npos);
    }

    // java.util.Base64.getEncoder() / getUrlEncoder() outputs, and what their decoders refuse.
    void base64AsJavaWritesAndReadsIt()
    {
        using mqdesk::common::Base64Alphabet;
        using mqdesk::common::decodeBase64;
        using mqdesk::common::encodeBase64;
        QCOMPARE(q(encodeBase64("")), QString());
        QCOMPARE(q(encodeBase64("f")), QStringLiteral("Zg=="));
        QCOMPARE(q(encodeBase64("fo")), QStringLiteral("Zm8="));
        QCOMPARE(q(encodeBase64("foo")), QStringLiteral("Zm9v"));
        const std::string highBytes("\xfb\xff\xfe", 3);
        QCOMPARE(q(encodeBase64(highBytes)), QStringLiteral("+//+"));
        QCOMPARE(q(encodeBase64(highBytes, Base64Alphabet::UrlSafe)), QStringLiteral("-__-"));
        QCOMPARE(q(encodeBase64("v1 TopicA broker-a 1795000000001 7F0000010001")),
                 QStringLiteral("djEgVG9waWNBIGJyb2tlci1hIDE3OTUwMDAwMDAwMDEgN0YwMDAwMDEwMDAx"));
        for (const std::string &bytes : {std::string(), std::string("a"), std::string("ab"), highBytes,
                                         std::string("\0\1\2\3\x80", 5)}) {
            for (Base64Alphabet alphabet : {Base64Alphabet::Basic, Base64Alphabet::UrlSafe})
                QCOMPARE(decodeBase64(encodeBase64(bytes, alphabet), alphabet), std::optional<std::string>(bytes));
        }
        QCOMPARE(decodeBase64("Zm8"), std::optional<std::string>("fo")); // padding optional
        QCOMPARE(decodeBase64("-__-", Base64Alphabet::UrlSafe), std::optional<std::string>(highBytes));
        for (const char *bad : {"-__-", "Zm8=x", "Zm===", "Z", "Zm9vY", "Zg=", "Zm 8", "Zm8\n"})
            QVERIFY2(!decodeBase64(bad), bad);
        QVERIFY(!decodeBase64("+//+", Base64Alphabet::UrlSafe));
    }

    // Long.parseLong / Integer.parseInt / Boolean.parseBoolean, as the JDK answers for ASCII text
    // (the one parser of headers, store properties and SQL92 filter values; Java's non-ASCII
    // Unicode digits are not taken).
    void numbersParseAsJavaParsesThem()
    {
        using mqdesk::common::parseJavaBoolean;
        using mqdesk::common::parseJavaInt;
        using mqdesk::common::parseJavaLong;
        QCOMPARE(parseJavaLong("42"), std::optional<int64_t>(42));
        QCOMPARE(parseJavaLong("+42"), std::optional<int64_t>(42));
        QCOMPARE(parseJavaLong("-0"), std::optional<int64_t>(0));
        QCOMPARE(parseJavaLong("-9223372036854775808"), std::optional<int64_t>(INT64_MIN));
        QCOMPARE(parseJavaLong("9223372036854775807"), std::optional<int64_t>(INT64_MAX));
        for (const char *refused : {"", "+", "-", "+-5", "-+5", "--5", " 5", "5 ", "5L", "0x10", "1e3", "1.0",
                                    "9223372036854775808", "-9223372036854775809"})
            QVERIFY2(!parseJavaLong(refused), refused);
        QCOMPARE(parseJavaInt("2147483647"), std::optional<int32_t>(INT32_MAX));
        QCOMPARE(parseJavaInt("-2147483648"), std::optional<int32_t>(INT32_MIN));
        QVERIFY(!parseJavaInt("2147483648"));
        QVERIFY(parseJavaBoolean("true") && parseJavaBoolean("TRUE") && parseJavaBoolean("tRuE"));
        for (const char *notTrue : {"", "1", "yes", "true ", " true", "truee", "t"})
            QVERIFY2(!parseJavaBoolean(notTrue), notTrue);
    }

    // UtilAll.timeMillisToHumanString2, in the process's time zone as Java's Calendar.
    void momentsReadAsJavaPrintsThem()
    {
        const QByteArray zone = qgetenv("TZ");
        qputenv("TZ", "UTC");
        ::tzset();
        QCOMPARE(javaHumanTime(1700000000123), std::string("2023-11-14 22:13:20,123"));
        QCOMPARE(javaHumanTime(-1), std::string("1969-12-31 23:59:59,999"));
        qputenv("TZ", "CST-8"); // POSIX form: no tzdata needed
        ::tzset();
        QCOMPARE(javaHumanTime(1700000000123), std::string("2023-11-15 06:13:20,123"));
        if (zone.isNull())
            qunsetenv("TZ");
        else
            qputenv("TZ", zone);
        ::tzset();
    }
};

QObject *createCommonPartsTest() { return new CommonPartsTest; }

#include "tst_common_parts.moc"
