// The JSON parser and writers: strict JSON, fastjson's dialect and pretty layout (store-format
// §8.1), error positions, and the Java-written config files byte for byte.

#include "test_support.h"

#include "broker/common/json.h"

#include <filesystem>

using namespace mqdesk::common;
using mqdesk::test::q;

namespace {

std::string textOf(const std::vector<uint8_t> &bytes) { return std::string(bytes.begin(), bytes.end()); }

} // namespace

class JsonTest : public QObject
{
    Q_OBJECT

private slots:
    void parsesStrictJson()
    {
        const auto result = parseJson(" {\"a\":[1,-2,3.5,-1e3,true,false,null],"
                                      "\"b\":{\"c\":\"x\\\"y\\\\z\\/\\n\\u00e9\\ud83d\\ude00\"},\"d\":{}} ");
        QVERIFY2(result.ok(), result.error.c_str());
        const JsonValue &v = result.value;
        QVERIFY(v.isObject());
        const JsonArray &a = v.find("a")->asArray();
        QCOMPARE(a.size(), size_t{7});
        QCOMPARE(a[0].asInteger(), int64_t{1});
        QCOMPARE(a[1].asInteger(), int64_t{-2});
        QVERIFY(a[2].isDouble());
        QCOMPARE(a[2].asDouble(), 3.5);
        QCOMPARE(a[3].asDouble(), -1000.0);
        QCOMPARE(a[4].asBool(), true);
        QCOMPARE(a[5].asBool(true), false);
        QVERIFY(a[6].isNull());
        QCOMPARE(q(v.find("b")->find("c")->asString()), QStringLiteral("x\"y\\z/\n\u00e9\U0001F600"));
        QVERIFY(v.find("d")->isObject());
        QVERIFY(v.find("d")->asObject().empty());
        // Integers beyond 64 bits become doubles, as Java's BigInteger would not fit a long.
        QVERIFY(parseJson("123456789012345678901234").value.isDouble());
        QCOMPARE(parseJson("-9223372036854775808").value.asInteger(), INT64_MIN);
    }

    void parsesFastjsonDialect()
    {
        // What fastjson writes (TABs, unquoted Integer keys) and what its parser tolerates.
        const auto result = parseJson("\xEF\xBB\xBF{\n\t\"offsetTable\":{\n\t\t\"T@g\":{0:250,1:251,-1:7\n\t\t}\n\t},"
                                      "name:'single \\'quoted\\'',list:[1,2,],n:12L,d:1.5D,\r\n}\t \n");
        QVERIFY2(result.ok(), result.error.c_str());
        const JsonObject &queues = result.value.find("offsetTable")->find("T@g")->asObject();
        QCOMPARE(queues.size(), size_t{3});
        QCOMPARE(queues.members()[0].key, std::string("0"));
        QVERIFY(queues.members()[0].integerKey);
        QCOMPARE(queues.members()[2].key, std::string("-1"));
        QCOMPARE(queues.find("1")->asInteger(), int64_t{251});
        QCOMPARE(q(result.value.find("name")->asString()), QStringLiteral("single 'quoted'"));
        QCOMPARE(result.value.find("list")->asArray().size(), size_t{2});
        QCOMPARE(result.value.find("n")->asInteger(), int64_t{12});
        QCOMPARE(result.value.find("d")->asDouble(), 1.5);
        // A quoted numeric key stays a String key.
        QVERIFY(!parseJson("{\"0\":1}").value.asObject().members()[0].integerKey);
    }

    void keepsFirstPositionAndLastValueOfRepeatedKeys()
    {
        const auto result = parseJson("{\"a\":1,\"b\":2,\"a\":3}");
        QVERIFY(result.ok());
        const JsonObject &o = result.value.asObject();
        QCOMPARE(o.size(), size_t{2});
        QCOMPARE(o.members()[0].key, std::string("a"));
        QCOMPARE(o.members()[0].value.asInteger(), int64_t{3});
    }

    void reportsErrorsWithLineAndColumn_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("missing colon") << QStringLiteral("{\n\t\"a\":1,\n\t\"b\" 2\n}") << 3 << 6
                                       << QStringLiteral("expected ':'");
        QTest::newRow("cut short") << QStringLiteral("{\n\t\"a\":") << 2 << 6
                                   << QStringLiteral("unexpected end of input");
        QTest::newRow("unterminated string") << QStringLiteral("{\"a\":\"abc") << 1 << 6
                                             << QStringLiteral("unterminated string");
        QTest::newRow("empty") << QStringLiteral(" \n ") << 1 << 1 << QStringLiteral("empty");
        QTest::newRow("garbage after") << QStringLiteral("{}\n\n  x") << 3 << 3
                                       << QStringLiteral("after the end");
        QTest::newRow("columns count characters") << QStringLiteral("{\"\u00e9\u00e9\":x}") << 1 << 7
                                                  << QStringLiteral("unexpected word 'x'");
        QTest::newRow("bad escape") << QStringLiteral("[\"a\\q\"]") << 1 << 4 << QStringLiteral("invalid escape");
        QTest::newRow("bad key") << QStringLiteral("{12ab:1}") << 1 << 2 << QStringLiteral("integer key");
        QTest::newRow("zero bytes") << QStringLiteral("{}") + QChar(0) << 1 << 3 << QStringLiteral("byte 0x00");
    }

    void reportsErrorsWithLineAndColumn()
    {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, fragment);
        const auto result = parseJson(text.toStdString());
        QVERIFY(!result.ok());
        QVERIFY(result.value.isNull());
        QCOMPARE(result.line, line);
        QCOMPARE(result.column, column);
        QVERIFY2(q(result.error).contains(fragment), result.error.c_str());
        QVERIFY2(q(result.error).startsWith(QStringLiteral("line %1, column %2: ").arg(line).arg(column)),
                 result.error.c_str());
    }

    void refusesDeepNesting()
    {
        const auto result = parseJson(std::string(100000, '['));
        QVERIFY(!result.ok());
        QVERIFY(q(result.error).contains(QStringLiteral("nesting")));
    }

    void writesFastjsonPrettyLayout()
    {
        // The consumerOffset.json shape of store-format §8.3.
        JsonObject version;
        version.set("counter", 12);
        version.set("stateVersion", 0);
        version.set("timestamp", int64_t{1700000000456});
        JsonObject groupTopicMap;
        groupTopicMap.set("group_a", JsonArray{"%RETRY%group_a", "TopicTest"});
        JsonObject queues;
        for (int queue = 0; queue < 4; ++queue)
            queues.setIntegerKey(queue, 250 + queue);
        JsonObject retryQueues;
        retryQueues.setIntegerKey(0, 0);
        JsonObject offsets;
        offsets.set("TopicTest@group_a", queues);
        offsets.set("%RETRY%group_a@group_a", retryQueues);
        JsonObject root;
        root.set("offsetTable", offsets);
        root.set("groupTopicMap", groupTopicMap);
        root.set("dataVersion", version);
        root.set("omitted", nullptr);
        root.sortByKey();
        const std::string expected = "{\n"
                                     "\t\"dataVersion\":{\n"
                                     "\t\t\"counter\":12,\n"
                                     "\t\t\"stateVersion\":0,\n"
                                     "\t\t\"timestamp\":1700000000456\n"
                                     "\t},\n"
                                     "\t\"groupTopicMap\":{\n"
                                     "\t\t\"group_a\":[\"%RETRY%group_a\",\"TopicTest\"]\n"
                                     "\t},\n"
                                     "\t\"offsetTable\":{\n"
                                     "\t\t\"TopicTest@group_a\":{0:250,1:251,2:252,3:253\n"
                                     "\t\t},\n"
                                     "\t\t\"%RETRY%group_a@group_a\":{0:0\n"
                                     "\t\t}\n"
                                     "\t}\n"
                                     "}";
        QCOMPARE(q(toFastjsonPretty(JsonValue(root))), q(expected));
        QCOMPARE(q(toFastjsonCompact(JsonValue(root))),
                 QStringLiteral("{\"dataVersion\":{\"counter\":12,\"stateVersion\":0,\"timestamp\":1700000000456},"
                                "\"groupTopicMap\":{\"group_a\":[\"%RETRY%group_a\",\"TopicTest\"]},"
                                "\"offsetTable\":{\"TopicTest@group_a\":{0:250,1:251,2:252,3:253},"
                                "\"%RETRY%group_a@group_a\":{0:0}}}"));
        // Strict: integer keys quoted, nulls kept; and it parses back to the same values.
        const std::string strict = toJsonCompact(JsonValue(root));
        QVERIFY(q(strict).contains(QStringLiteral("{\"0\":250,\"1\":251")));
        QVERIFY(q(strict).contains(QStringLiteral("\"omitted\":null")));
        QCOMPARE(parseJson(strict).value.find("offsetTable")->find("TopicTest@group_a")->find("3")->asInteger(),
                 int64_t{253});
    }

    void writesEmptyMapsAndNestedBeansLikeFastjson()
    {
        JsonObject inner;
        inner.set("topic", "T");
        JsonObject bean;
        bean.set("attributes", JsonObject());
        bean.set("set", JsonArray{JsonValue(inner)});
        bean.set("onlyNull", [] {
            JsonObject o;
            o.set("x", nullptr);
            return o;
        }());
        JsonObject root;
        root.set("bean", bean);
        // Set elements are beans indented from the array's level; a map of only nulls still
        // breaks its line before `}` (MapSerializer tests map.size(), not what it wrote).
        QCOMPARE(q(toFastjsonPretty(JsonValue(root))),
                 QStringLiteral("{\n\t\"bean\":{\n\t\t\"attributes\":{},\n\t\t\"set\":[{\n\t\t\t\"topic\":\"T\"\n\t\t}],"
                                "\n\t\t\"onlyNull\":{\n\t\t}\n\t}\n}"));
        QCOMPARE(q(toFastjsonPretty(JsonValue(JsonObject()))), QStringLiteral("{}"));
        QCOMPARE(q(toFastjsonPretty(JsonValue(JsonArray()))), QStringLiteral("[]"));
    }

    void escapesStringsLikeFastjson()
    {
        const std::string s = std::string("q\"b\\s/\b\f\n\r\t\v") + '\x01' + '\x1f' + '\x7f' + "\xC2\x85"
                              + "\xE2\x80\xA8" + "\xC3\xA9\xE4\xB8\xAD";
        QCOMPARE(q(toFastjsonPretty(JsonValue(s))),
                 QStringLiteral("\"q\\\"b\\\\s/\\b\\f\\n\\r\\t\\u000B\\u0001\\u001F\\u007F\\u0085\\u2028\u00e9\u4e2d\""));
        QCOMPARE(q(parseJson(toFastjsonPretty(JsonValue(s))).value.asString()), q(s));
    }

    void formatsDoublesLikeJava()
    {
        QCOMPARE(q(formatJavaDouble(1.0)), QStringLiteral("1.0"));
        QCOMPARE(q(formatJavaDouble(-2.5)), QStringLiteral("-2.5"));
        QCOMPARE(q(formatJavaDouble(123.456)), QStringLiteral("123.456"));
        QCOMPARE(q(formatJavaDouble(0.001)), QStringLiteral("0.001"));
        QCOMPARE(q(formatJavaDouble(0.0001)), QStringLiteral("1.0E-4"));
        QCOMPARE(q(formatJavaDouble(1.5e-5)), QStringLiteral("1.5E-5"));
        QCOMPARE(q(formatJavaDouble(9999999.0)), QStringLiteral("9999999.0"));
        QCOMPARE(q(formatJavaDouble(1e7)), QStringLiteral("1.0E7"));
        QCOMPARE(q(formatJavaDouble(1.25e20)), QStringLiteral("1.25E20"));
        QCOMPARE(q(formatJavaDouble(0.0)), QStringLiteral("0.0"));
        QCOMPARE(q(formatJavaDouble(0.1 + 0.2)), QStringLiteral("0.30000000000000004"));
        QCOMPARE(q(toFastjsonPretty(JsonValue(std::nan("")))), QStringLiteral("null"));
    }

    void sortsKeysLikeJavaStringCompareTo()
    {
        JsonObject o;
        for (const char *key : {"topicName", "attributes", "order", "Zeta", "_x", "perm"})
            o.set(key, 1);
        o.sortByKey();
        std::vector<std::string> keys;
        for (const JsonMember &m : o)
            keys.push_back(m.key);
        QCOMPARE(keys, (std::vector<std::string>{"Zeta", "_x", "attributes", "order", "perm", "topicName"}));
        // UTF-16 order, not UTF-8 byte order: U+1F600 (surrogates D83D DE00) sorts below U+FFFF.
        QVERIFY(compareJavaStrings("\xF0\x9F\x98\x80", "\xEF\xBF\xBF") < 0);
        QVERIFY(compareJavaStrings("ab", "abc") < 0);
        QCOMPARE(compareJavaStrings("abc", "abc"), 0);
    }

    void rewritesEveryJavaWrittenConfigFileByteForByte()
    {
        // The generic tree keeps order and key kinds, so fastjson's layout reproduces every file.
        namespace fs = std::filesystem;
        int files = 0;
        for (const auto &store : fs::directory_iterator(mqdesk::test::fixturesDir())) {
            const fs::path config = store.path() / "config";
            if (!fs::is_directory(config))
                continue;
            for (const auto &file : fs::directory_iterator(config)) {
                const std::string text = textOf(mqdesk::test::readFile(file.path().string()));
                const auto parsed = parseJson(text);
                QVERIFY2(parsed.ok(), (file.path().string() + ": " + parsed.error).c_str());
                QCOMPARE(q(toFastjsonPretty(parsed.value)), q(text));
                ++files;
            }
        }
        QCOMPARE(files, 13);
    }
};

QObject *createJsonTest() { return new JsonTest; }

#include "tst_json.moc"
