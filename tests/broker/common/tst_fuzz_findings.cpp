// Inputs the libFuzzer targets in tests/fuzz found, kept as unit tests of the code they broke
// (scripts/fuzz.sh reproduces them from build/fuzz/crashes/). Each test names its target.

#include "broker/common/message_properties.h"
#include "test_support.h"

#include <string>

using namespace mqdesk::common;

class FuzzFindingsTest : public QObject
{
    Q_OBJECT

private slots:
    // fuzz_message_properties: more than 16 properties (decode's hashed de-duplication) with a
    // repeated key. A client controls the property string; a repeated key must come out once,
    // with its last value, whatever the count, and find() must agree with decode().
    void manyPropertiesWithARepeatedKeyDecodeToOneEntry()
    {
        std::string encoded;
        for (int i = 0; i < 17; ++i)
            encoded += "K\x01v" + std::to_string(i) + "\x02";
        const MessageProperties decoded = MessageProperties::decode(encoded);
        QCOMPARE(decoded.size(), size_t(1));
        QCOMPARE(decoded.get("K").value_or("<none>"), std::string_view("v16"));
        QCOMPARE(MessageProperties::find(encoded, "K").value_or("<none>"), std::string_view("v16"));
        QVERIFY(MessageProperties::decode(decoded.encode()) == decoded);
    }

    // The fuzzer's own input (crash-f2611037…): 17 segments, key "0" eleven times.
    void fuzzerInputWithRepeatedShortKeysRoundTrips()
    {
        const unsigned char bytes[] = {
            0x30, 0x01, 0x00, 0x02, 0x30, 0x01, 0x69, 0x02, 0x30, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x30,
            0x01, 0x08, 0xf9, 0x69, 0x02, 0x00, 0x00, 0x30, 0x01, 0x08, 0x02, 0x31, 0x02, 0x30, 0x01, 0x01, 0x00,
            0x02, 0x30, 0x01, 0x00, 0x02, 0x30, 0xd0, 0xf9, 0x69, 0x02, 0x00, 0x00, 0x30, 0x01, 0x08, 0x02, 0x31,
            0x01, 0x01, 0x00, 0x02, 0x30, 0x01, 0x00, 0x02, 0x30, 0x01, 0x69, 0x02, 0x30, 0x00, 0x01, 0x30, 0xff,
            0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0x01, 0x00, 0x02, 0x30, 0x01, 0x01, 0x00, 0x02, 0x30, 0x00,
            0x00, 0x00, 0x00, 0x01, 0x00, 0x02, 0x30, 0x01, 0x69, 0x02, 0x30, 0x01, 0x00, 0x02, 0x30, 0x01, 0x69,
            0x02, 0x30, 0x01, 0x69};
        const std::string_view encoded(reinterpret_cast<const char *>(bytes), sizeof bytes);
        const MessageProperties decoded = MessageProperties::decode(encoded);
        QCOMPARE(decoded.size(), size_t(5)); // "0", "\0\0" "0", "1", "0\0", "0\0\0\0\0"
        QCOMPARE(decoded.get("0").value_or("<none>"), std::string_view("i"));
        for (const auto &[key, value] : decoded)
            QCOMPARE(MessageProperties::find(encoded, key), decoded.get(key));
        QVERIFY(MessageProperties::decode(decoded.encode()) == decoded);
    }
};

QObject *createFuzzFindingsTest() { return new FuzzFindingsTest; }

#include "tst_fuzz_findings.moc"
