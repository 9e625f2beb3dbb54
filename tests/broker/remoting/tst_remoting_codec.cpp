// Remoting spec Appendix A byte for byte, round trips in both header encodings, and the
// leniency real clients need from the JSON header reader (§1.3, §1.4, Appendix C).

#include "test_support.h"

#include "remoting_test_util.h"

#include "broker/remoting/remoting_codec.h"
#include "broker/remoting/remoting_header.h"

using namespace mqdesk::remoting;
using namespace mqdesk::test;

namespace {

// Appendix A, copied verbatim from the spec (offset, hex, ASCII column).
const char kF1[] = R"xxd(
00000000  00 00 01 20 00 00 01 17 7b 22 63 6f 64 65 22 3a  |... ....{"code":|
00000010  33 31 30 2c 22 65 78 74 46 69 65 6c 64 73 22 3a  |310,"extFields":|
00000020  7b 22 61 22 3a 22 50 47 5f 54 45 53 54 22 2c 22  |{"a":"PG_TEST","|
00000030  62 22 3a 22 54 6f 70 69 63 54 65 73 74 22 2c 22  |b":"TopicTest","|
00000040  63 22 3a 22 54 42 57 31 30 32 22 2c 22 64 22 3a  |c":"TBW102","d":|
00000050  22 34 22 2c 22 65 22 3a 22 30 22 2c 22 66 22 3a  |"4","e":"0","f":|
00000060  22 30 22 2c 22 67 22 3a 22 31 37 30 30 30 30 30  |"0","g":"1700000|
00000070  30 30 30 30 30 30 22 2c 22 68 22 3a 22 30 22 2c  |000000","h":"0",|
00000080  22 69 22 3a 22 54 41 47 53 5c 75 30 30 30 31 54  |"i":"TAGS\u0001T|
00000090  61 67 41 5c 75 30 30 30 32 57 41 49 54 5c 75 30  |agA\u0002WAIT\u0|
000000a0  30 30 31 74 72 75 65 22 2c 22 6a 22 3a 22 30 22  |001true","j":"0"|
000000b0  2c 22 6b 22 3a 22 66 61 6c 73 65 22 2c 22 6d 22  |,"k":"false","m"|
000000c0  3a 22 66 61 6c 73 65 22 7d 2c 22 66 6c 61 67 22  |:"false"},"flag"|
000000d0  3a 30 2c 22 6c 61 6e 67 75 61 67 65 22 3a 22 4a  |:0,"language":"J|
000000e0  41 56 41 22 2c 22 6f 70 61 71 75 65 22 3a 31 2c  |AVA","opaque":1,|
000000f0  22 73 65 72 69 61 6c 69 7a 65 54 79 70 65 43 75  |"serializeTypeCu|
00000100  72 72 65 6e 74 52 50 43 22 3a 22 4a 53 4f 4e 22  |rrentRPC":"JSON"|
00000110  2c 22 76 65 72 73 69 6f 6e 22 3a 34 30 39 7d 48  |,"version":409}H|
00000120  65 6c 6c 6f                                      |ello|
)xxd";
const char kF2[] = R"xxd(
00000000  00 00 00 87 00 00 00 83 7b 22 63 6f 64 65 22 3a  |........{"code":|
00000010  31 30 35 2c 22 65 78 74 46 69 65 6c 64 73 22 3a  |105,"extFields":|
00000020  7b 22 74 6f 70 69 63 22 3a 22 54 6f 70 69 63 54  |{"topic":"TopicT|
00000030  65 73 74 22 7d 2c 22 66 6c 61 67 22 3a 30 2c 22  |est"},"flag":0,"|
00000040  6c 61 6e 67 75 61 67 65 22 3a 22 4a 41 56 41 22  |language":"JAVA"|
00000050  2c 22 6f 70 61 71 75 65 22 3a 32 2c 22 73 65 72  |,"opaque":2,"ser|
00000060  69 61 6c 69 7a 65 54 79 70 65 43 75 72 72 65 6e  |ializeTypeCurren|
00000070  74 52 50 43 22 3a 22 4a 53 4f 4e 22 2c 22 76 65  |tRPC":"JSON","ve|
00000080  72 73 69 6f 6e 22 3a 34 30 39 7d                 |rsion":409}|
)xxd";
const char kF3[] = R"xxd(
00000000  00 00 00 2d 01 00 00 29 00 69 00 01 99 00 00 00  |...-...).i......|
00000010  02 00 00 00 00 00 00 00 00 00 00 00 14 00 05 74  |...............t|
00000020  6f 70 69 63 00 00 00 09 54 6f 70 69 63 54 65 73  |opic....TopicTes|
00000030  74                                               |t|
)xxd";
const char kF4[] = R"xxd(
00000000  00 00 00 eb 00 00 00 e7 7b 22 63 6f 64 65 22 3a  |........{"code":|
00000010  30 2c 22 65 78 74 46 69 65 6c 64 73 22 3a 7b 22  |0,"extFields":{"|
00000020  6d 73 67 49 64 22 3a 22 37 46 30 30 30 30 30 31  |msgId":"7F000001|
00000030  30 30 30 30 32 41 39 46 30 30 30 30 30 30 30 30  |00002A9F00000000|
00000040  30 30 30 30 30 30 30 30 22 2c 22 71 75 65 75 65  |00000000","queue|
00000050  49 64 22 3a 22 30 22 2c 22 71 75 65 75 65 4f 66  |Id":"0","queueOf|
00000060  66 73 65 74 22 3a 22 30 22 2c 22 4d 53 47 5f 52  |fset":"0","MSG_R|
00000070  45 47 49 4f 4e 22 3a 22 44 65 66 61 75 6c 74 52  |EGION":"DefaultR|
00000080  65 67 69 6f 6e 22 2c 22 54 52 41 43 45 5f 4f 4e  |egion","TRACE_ON|
00000090  22 3a 22 74 72 75 65 22 7d 2c 22 66 6c 61 67 22  |":"true"},"flag"|
000000a0  3a 31 2c 22 6c 61 6e 67 75 61 67 65 22 3a 22 4a  |:1,"language":"J|
000000b0  41 56 41 22 2c 22 6f 70 61 71 75 65 22 3a 31 2c  |AVA","opaque":1,|
000000c0  22 73 65 72 69 61 6c 69 7a 65 54 79 70 65 43 75  |"serializeTypeCu|
000000d0  72 72 65 6e 74 52 50 43 22 3a 22 4a 53 4f 4e 22  |rrentRPC":"JSON"|
000000e0  2c 22 76 65 72 73 69 6f 6e 22 3a 34 30 39 7d     |,"version":409}|
)xxd";

RemotingCommand f1Command()
{
    RemotingCommand c;
    c.code = RequestCode::kSendMessageV2;
    c.opaque = 1;
    c.extFields = {{"a", "PG_TEST"}, {"b", "TopicTest"}, {"c", "TBW102"}, {"d", "4"}, {"e", "0"},
                   {"f", "0"}, {"g", "1700000000000"}, {"h", "0"},
                   {"i", "TAGS\x01TagA\x02WAIT\x01true"}, {"j", "0"}, {"k", "false"}, {"m", "false"}};
    c.body = bytesOf("Hello");
    return c;
}

RemotingCommand f2Command(SerializeType type)
{
    RemotingCommand c = RemotingCommand::createRequest(RequestCode::kGetRouteinfoByTopic,
                                                       {{"topic", "TopicTest"}});
    c.opaque = 2;
    c.serializeType = type;
    return c;
}

RemotingCommand f4Command()
{
    RemotingCommand request = f1Command();
    RemotingCommand c = RemotingCommand::createResponse(request, ResponseCode::kSuccess);
    // Java writes its HashMap's order, not sorted: insertion order is what we keep.
    c.extFields = {{"msgId", "7F00000100002A9F0000000000000000"}, {"queueId", "0"},
                   {"queueOffset", "0"}, {"MSG_REGION", "DefaultRegion"}, {"TRACE_ON", "true"}};
    return c;
}

// A command exercising everything a header can carry.
RemotingCommand richCommand(SerializeType type, int extCount)
{
    RemotingCommand c;
    c.code = RequestCode::kPullMessage;
    c.language = LanguageCode::Go;
    c.version = 317;
    c.opaque = -7; // opaque is a Java int: negative after wrapping
    c.flag = RemotingCommand::kOnewayFlag;
    c.remark = "Fehler: \xC3\xBC\xC3\xA9 \xE6\xB6\x88\xE6\x81\xAF \xF0\x9F\x98\x80 \"quoted\" \\ \t\x01";
    for (int i = 0; i < extCount; ++i)
        c.extFields.set("key" + std::to_string(i), "v\xE2\x82\xAC" + std::to_string(i * 7919));
    c.serializeType = type;
    return c;
}

QByteArray hexOf(const std::vector<uint8_t> &bytes)
{
    return QByteArray(reinterpret_cast<const char *>(bytes.data()), qsizetype(bytes.size())).toHex(' ');
}

std::vector<uint8_t> encodeOk(const RemotingCommand &command)
{
    const EncodeResult encoded = encodeFrame(command);
    if (!encoded.ok())
        qWarning("encode failed: %s", encoded.error.c_str());
    return encoded.bytes;
}

} // namespace

class RemotingCodecTest : public QObject
{
    Q_OBJECT

private slots:
    void encodesAppendixAByteForByte_data()
    {
        QTest::addColumn<QByteArray>("dump");
        QTest::addColumn<int>("which");
        QTest::addColumn<int>("frameSize");
        QTest::newRow("F1 SEND_MESSAGE_V2 JSON") << QByteArray(kF1) << 1 << 292;
        QTest::newRow("F2 GET_ROUTEINFO_BY_TOPIC JSON") << QByteArray(kF2) << 2 << 139;
        QTest::newRow("F3 GET_ROUTEINFO_BY_TOPIC ROCKETMQ") << QByteArray(kF3) << 3 << 49;
        QTest::newRow("F4 SEND response JSON") << QByteArray(kF4) << 4 << 239;
    }

    void encodesAppendixAByteForByte()
    {
        QFETCH(QByteArray, dump);
        QFETCH(int, which);
        QFETCH(int, frameSize);
        const std::vector<uint8_t> expected = fromXxd(dump.toStdString());
        QCOMPARE(expected.size(), size_t(frameSize));
        const RemotingCommand command = which == 1   ? f1Command()
                                        : which == 2 ? f2Command(SerializeType::Json)
                                        : which == 3 ? f2Command(SerializeType::RocketMq)
                                                     : f4Command();
        const EncodeResult encoded = encodeFrame(command);
        QVERIFY2(encoded.ok(), encoded.error.c_str());
        QCOMPARE(hexOf(encoded.bytes), hexOf(expected)); // hex, so a failure shows the bytes

        // The prefix for gathered writes is the same frame without the body.
        const EncodeResult prefix = encodeFramePrefix(command);
        QVERIFY(prefix.ok());
        QCOMPARE(prefix.bytes.size(), expected.size() - command.body.size());
        QVERIFY(std::equal(prefix.bytes.begin(), prefix.bytes.end(), expected.begin()));

        const DecodeResult decoded = decodeFrame(expected);
        QVERIFY2(decoded.ok(), decoded.error.c_str());
        const std::string diff = commandDiff(decoded.command, command);
        QVERIFY2(diff.empty(), diff.c_str());
    }

    void decodesAppendixAFieldForField()
    {
        const DecodeResult f1 = decodeFrame(fromXxd(kF1));
        QVERIFY2(f1.ok(), f1.error.c_str());
        QCOMPARE(f1.command.code, 310);
        QCOMPARE(f1.command.opaque, 1);
        QCOMPARE(f1.command.version, 409);
        QVERIFY(f1.command.isRequest());
        QCOMPARE(f1.command.serializeType, SerializeType::Json);
        QCOMPARE(f1.command.extFields.value("b"), std::string("TopicTest"));
        QCOMPARE(f1.command.extFields.value("i"), std::string("TAGS\x01TagA\x02WAIT\x01true"));
        QCOMPARE(f1.command.extFields.size(), size_t{12});
        QCOMPARE(textOf(f1.command.body), std::string("Hello"));
        QVERIFY(!f1.command.remark);

        const DecodeResult f3 = decodeFrame(fromXxd(kF3));
        QVERIFY2(f3.ok(), f3.error.c_str());
        QCOMPARE(f3.command.serializeType, SerializeType::RocketMq);
        QCOMPARE(f3.command.code, 105);
        QCOMPARE(f3.command.language, LanguageCode::Java);
        QCOMPARE(f3.command.version, 409);
        QCOMPARE(f3.command.opaque, 2);
        QCOMPARE(f3.command.flag, 0);
        QVERIFY(!f3.command.remark);
        QCOMPARE(f3.command.extFields, (ExtFields{{"topic", "TopicTest"}}));
        QVERIFY(f3.command.body.empty());

        const DecodeResult f4 = decodeFrame(fromXxd(kF4));
        QVERIFY2(f4.ok(), f4.error.c_str());
        QVERIFY(f4.command.isResponse());
        QCOMPARE(f4.command.code, ResponseCode::kSuccess);
        QCOMPARE(f4.command.extFields.entries().front().first, std::string("msgId"));
        QCOMPARE(f4.command.extFields.entries().back().first, std::string("TRACE_ON"));
    }

    void decodesWhatAliOnsSends()
    {
        // ali-ons' captured first frame (Appendix A after F2): its own key order, no
        // serializeTypeCurrentRPC, version 121.
        const std::string header = "{\"code\":105,\"language\":\"JAVA\",\"opaque\":1,\"flag\":0,"
                                   "\"version\":121,\"extFields\":{\"topic\":\"TopicTest\"}}";
        const std::vector<uint8_t> frame = jsonFrame(header);
        QCOMPARE(frame.size(), size_t{106});
        QCOMPARE(frame[3], uint8_t{0x66});
        QCOMPARE(frame[7], uint8_t{0x62});
        const DecodeResult routes = decodeFrame(frame);
        QVERIFY2(routes.ok(), routes.error.c_str());
        QCOMPARE(routes.command.code, 105);
        QCOMPARE(routes.command.version, 121);
        QCOMPARE(routes.command.opaque, 1);
        QCOMPARE(routes.command.extFields, (ExtFields{{"topic", "TopicTest"}}));

        // §2.2: extFields values as numbers and booleans keep their literal text.
        const DecodeResult pull = decodeFrame(jsonFrame(
            "{\"code\":11,\"language\":\"JAVA\",\"opaque\":19,\"flag\":0,\"version\":121,"
            "\"extFields\":{\"consumerGroup\":\"CG_TEST\",\"topic\":\"TopicTest\",\"queueId\":0,"
            "\"queueOffset\":0,\"maxMsgNums\":32,\"sysFlag\":6,\"commitOffset\":-1,"
            "\"suspendTimeoutMillis\":15000,\"subscription\":\"*\",\"subVersion\":1795981176702,"
            "\"k\":false,\"unit\":true,\"ratio\":1.5}}"));
        QVERIFY2(pull.ok(), pull.error.c_str());
        const ExtFields &ext = pull.command.extFields;
        QCOMPARE(ext.value("queueId"), std::string("0"));
        QCOMPARE(ext.value("commitOffset"), std::string("-1"));
        QCOMPARE(ext.value("subVersion"), std::string("1795981176702"));
        QCOMPARE(ext.value("k"), std::string("false"));
        QCOMPARE(ext.value("unit"), std::string("true"));
        QCOMPARE(ext.value("ratio"), std::string("1.5"));
        QCOMPARE(ext.entries().front().first, std::string("consumerGroup"));

        // ali-ons' send: trailing \u0002 in the properties, numeric fields, no "m".
        const DecodeResult send = decodeFrame(jsonFrame(
            "{\"code\":310,\"language\":\"JAVA\",\"opaque\":3,\"flag\":0,\"version\":121,"
            "\"extFields\":{\"a\":\"PG\",\"b\":\"T\",\"d\":4,\"i\":\"TAGS\\u0001TagA\\u0002\"}}",
            "body"));
        QVERIFY2(send.ok(), send.error.c_str());
        QCOMPARE(send.command.extFields.value("i"), std::string("TAGS\x01TagA\x02"));
        QCOMPARE(send.command.extFields.value("d"), std::string("4"));
        QCOMPARE(textOf(send.command.body), std::string("body"));
    }

    void readsJsonHeadersLeniently_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<QByteArray>("field");
        QTest::addColumn<QByteArray>("expected");
        // Go sends "remark":""; Java omits it; explicit null means absent.
        QTest::newRow("empty remark kept") << QByteArray(R"({"code":0,"remark":""})") << QByteArray("remark") << QByteArray("\"\"");
        QTest::newRow("null remark") << QByteArray(R"({"code":0,"remark":null})") << QByteArray("remark") << QByteArray("(none)");
        QTest::newRow("null extFields") << QByteArray(R"({"code":0,"extFields":null})") << QByteArray("ext") << QByteArray("");
        QTest::newRow("null ext value dropped") << QByteArray(R"({"code":0,"extFields":{"a":null,"b":"x"}})") << QByteArray("ext") << QByteArray("b=x;");
        QTest::newRow("unknown keys ignored") << QByteArray(R"({"zzz":[1,{}],"code":0,"extra":"x"})") << QByteArray("code") << QByteArray("0");
        QTest::newRow("serializeTypeCurrentRPC ignored") << QByteArray(R"({"code":7,"serializeTypeCurrentRPC":"ROCKETMQ"})") << QByteArray("type") << QByteArray("JSON");
        QTest::newRow("code as string") << QByteArray(R"({"code":"105"})") << QByteArray("code") << QByteArray("105");
        QTest::newRow("language NODE_JS") << QByteArray(R"({"code":0,"language":"NODE_JS"})") << QByteArray("language") << QByteArray("NODE_JS");
        QTest::newRow("language GO") << QByteArray(R"({"code":0,"language":"GO"})") << QByteArray("language") << QByteArray("GO");
        QTest::newRow("unknown language") << QByteArray(R"({"code":0,"language":"KOTLIN"})") << QByteArray("language") << QByteArray("OTHER");
        QTest::newRow("language ordinal") << QByteArray(R"({"code":0,"language":1})") << QByteArray("language") << QByteArray("CPP");
        QTest::newRow("missing fields take Java's defaults") << QByteArray(R"({"code":5})") << QByteArray("numbers") << QByteArray("5 v0 o0 f0");
        QTest::newRow("missing language is JAVA") << QByteArray(R"({"code":0})") << QByteArray("language") << QByteArray("JAVA");
        QTest::newRow("surrogate pair escape") << QByteArray(R"({"code":0,"remark":"\ud83d\ude00\u00e9"})") << QByteArray("remark") << QByteArray("\"\xF0\x9F\x98\x80\xC3\xA9\"");
        QTest::newRow("fastjson dialect") << QByteArray("{code:0,'remark':'x',}") << QByteArray("remark") << QByteArray("\"x\"");
        QTest::newRow("nested ext value as JSON") << QByteArray(R"({"code":0,"extFields":{"o":{"a":[1]}}})") << QByteArray("ext") << QByteArray("o={\"a\":[1]};");
        QTest::newRow("repeated ext key keeps last") << QByteArray(R"({"code":0,"extFields":{"a":"1","a":"2"}})") << QByteArray("ext") << QByteArray("a=2;");
    }

    void readsJsonHeadersLeniently()
    {
        QFETCH(QByteArray, header);
        QFETCH(QByteArray, field);
        QFETCH(QByteArray, expected);
        const DecodeResult decoded = decodeFrame(jsonFrame(header.toStdString()));
        QVERIFY2(decoded.ok(), decoded.error.c_str());
        const RemotingCommand &c = decoded.command;
        std::string actual;
        if (field == "remark") {
            actual = c.remark ? '"' + *c.remark + '"' : std::string("(none)");
        } else if (field == "ext") {
            for (const auto &[key, value] : c.extFields)
                actual += key + '=' + value + ';';
        } else if (field == "code") {
            actual = std::to_string(c.code);
        } else if (field == "numbers") {
            actual = std::to_string(c.code) + " v" + std::to_string(c.version) + " o"
                     + std::to_string(c.opaque) + " f" + std::to_string(c.flag);
        } else if (field == "type") {
            actual = std::string(serializeTypeName(c.serializeType));
        } else if (field == "language") {
            actual = std::string(languageCodeName(c.language));
        }
        QCOMPARE(q(actual), q(expected.toStdString()));
    }

    void roundTripsInBothEncodings_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("extCount");
        QTest::addColumn<int>("bodySize");
        for (const auto type : {SerializeType::Json, SerializeType::RocketMq}) {
            const char *name = serializeTypeName(type).data(); // a literal: NUL-terminated
            QTest::addRow("%s minimal", name) << int(type) << 0 << 0;
            QTest::addRow("%s one field, small body", name) << int(type) << 1 << 5;
            QTest::addRow("%s 300 fields, 1 MiB body", name) << int(type) << 300 << (1 << 20);
        }
    }

    void roundTripsInBothEncodings()
    {
        QFETCH(int, type);
        QFETCH(int, extCount);
        QFETCH(int, bodySize);
        RemotingCommand command = richCommand(SerializeType(type), extCount);
        for (int i = 0; i < bodySize; ++i)
            command.body.push_back(uint8_t(i * 31 + 7));
        const std::vector<uint8_t> frame = encodeOk(command);
        QVERIFY(!frame.empty());
        QCOMPARE(frame[4], uint8_t(type));
        const DecodeResult decoded = decodeFrame(frame);
        QVERIFY2(decoded.ok(), decoded.error.c_str());
        const std::string diff = commandDiff(decoded.command, command);
        QVERIFY2(diff.empty(), diff.c_str());
        // And again: decoding then encoding is stable.
        QCOMPARE(hexOf(encodeOk(decoded.command)), hexOf(frame));
    }

    void writesJsonLikeFastjson()
    {
        RemotingCommand c = RemotingCommand::createResponse(f2Command(SerializeType::Json),
                                                            ResponseCode::kTopicNotExist,
                                                            "No topic \xE6\xB6\x88 \x01\x7F\n");
        const std::string header = encodeJsonHeader(c);
        // Raw UTF-8, \uXXXX upper-case for controls and DEL, short escapes; remark before
        // serializeTypeCurrentRPC; no extFields member when there are none.
        QCOMPARE(q(header), QStringLiteral(R"({"code":17,"flag":1,"language":"JAVA","opaque":2,)"
                                           R"("remark":"No topic 消 \u0001\u007F\n",)"
                                           R"("serializeTypeCurrentRPC":"JSON","version":409})"));
        // A language byte without a name (from a binary header) is written as OTHER.
        c.language = LanguageCode(200);
        QVERIFY(encodeJsonHeader(c).find(R"("language":"OTHER")") != std::string::npos);
    }

    void encodingDifferencesAreDocumented()
    {
        // An empty remark and empty extFields values survive JSON, but the binary header reads
        // zero-length strings as absent, like Java's reader.
        RemotingCommand c = f2Command(SerializeType::Json);
        c.remark = "";
        c.extFields.set("empty", "");
        DecodeResult json = decodeFrame(encodeOk(c));
        QVERIFY2(json.ok(), json.error.c_str());
        QCOMPARE(json.command.remark, std::optional<std::string>(""));
        QCOMPARE(json.command.extFields.value("empty", "absent"), std::string());

        c.serializeType = SerializeType::RocketMq;
        DecodeResult binary = decodeFrame(encodeOk(c));
        QVERIFY2(binary.ok(), binary.error.c_str());
        QVERIFY(!binary.command.remark);
        QVERIFY(!binary.command.extFields.contains("empty"));
        QCOMPARE(binary.command.extFields, (ExtFields{{"topic", "TopicTest"}}));

        // A language byte without a name survives the binary header as it is.
        c.language = LanguageCode(200);
        binary = decodeFrame(encodeOk(c));
        QCOMPARE(int(binary.command.language), 200);
    }

    void refusesWhatAnEncodingCannotCarry()
    {
        // POP codes (200050...) exceed int16: JSON only (§3.1).
        RemotingCommand c = RemotingCommand::createRequest(200050);
        QVERIFY(encodeFrame(c).ok());
        QCOMPARE(decodeFrame(encodeOk(c)).command.code, 200050);
        c.serializeType = SerializeType::RocketMq;
        EncodeResult encoded = encodeFrame(c);
        QVERIFY(!encoded.ok());
        QVERIFY(encoded.bytes.empty());
        QVERIFY2(encoded.error.find("code 200050 does not fit") != std::string::npos, encoded.error.c_str());

        c.code = -32768; // the int16 range itself is fine
        QVERIFY(encodeFrame(c).ok());
        QCOMPARE(decodeFrame(encodeOk(c)).command.code, -32768);
        c.version = 40000;
        encoded = encodeFrame(c);
        QVERIFY2(encoded.error.find("version 40000") != std::string::npos, encoded.error.c_str());

        c.version = 409;
        c.extFields.set(std::string(40000, 'k'), "v");
        encoded = encodeFrame(c);
        QVERIFY2(encoded.error.find("key of 40000 bytes") != std::string::npos, encoded.error.c_str());
    }
};

QObject *createRemotingCodecTest() { return new RemotingCodecTest; }

#include "tst_remoting_codec.moc"
