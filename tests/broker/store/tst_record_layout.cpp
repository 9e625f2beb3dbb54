// recordLayout (record_layout.h): the worked example of store-format §17 field by field, every
// record of the Java-written logs and of a store MessageStore writes laid out without a gap, V2
// and IPv6 records, and damaged bytes stopping the layout with the field and offset named.

#include "store_reader_test_util.h"

#include "broker/common/record_codec.h"
#include "broker/store/reader/record_layout.h"

using namespace mqdesk;
using namespace mqdesk::store;
using namespace mqdesk::test;

namespace {

// The 123 bytes of store-format §17.
std::vector<uint8_t> specRecord()
{
    const char *hex = "00 00 00 7B DA A3 20 A7 77 D1 89 82 00 00 00 01"
                      "00 00 00 00 00 00 00 00 00 00 00 05 00 00 00 00"
                      "00 00 00 00 00 00 00 00 00 00 01 8B CF E5 68 00"
                      "7F 00 00 01 00 00 C3 50 00 00 01 8B CF E5 68 7B"
                      "7F 00 00 01 00 00 2A 9F 00 00 00 00 00 00 00 00"
                      "00 00 00 00 00 00 00 05 48 65 6C 6C 6F 09 54 6F"
                      "70 69 63 54 65 73 74 00 12 54 41 47 53 01 54 61"
                      "67 41 02 4B 45 59 53 01 6B 31 02";
    std::vector<uint8_t> out;
    std::string digits;
    for (const char *c = hex; *c; ++c)
        if (*c != ' ')
            digits += *c;
    for (size_t i = 0; i + 1 < digits.size(); i += 2)
        out.push_back(static_cast<uint8_t>(std::stoi(digits.substr(i, 2), nullptr, 16)));
    return out;
}

const RecordField *field(const RecordLayout &layout, const std::string &name)
{
    for (const auto &f : layout.fields)
        if (f.name == name)
            return &f;
    return nullptr;
}

// The top-level fields tile [0, size) in order, and children lie within their parent.
bool tiles(const RecordLayout &layout, int64_t size)
{
    int64_t at = 0;
    for (const auto &f : layout.fields) {
        if (f.offset != at)
            return false;
        for (const auto &child : f.children)
            if (child.offset < f.offset || child.offset + child.length > f.offset + f.length)
                return false;
        at += f.length;
    }
    return at == size;
}

} // namespace

class RecordLayoutTest : public QObject
{
    Q_OBJECT

private slots:
    void specExampleFieldByField()
    {
        std::vector<uint8_t> bytes = specRecord();
        QCOMPARE(bytes.size(), size_t(123));
        bytes.resize(200, 0xEE); // whatever follows is not part of the record
        const RecordLayout layout = recordLayout(bytes);
        QVERIFY2(layout.error.empty(), layout.error.c_str());
        QVERIFY(tiles(layout, 123));
        const std::vector<std::tuple<std::string, int64_t, int64_t>> expected = {
            {"TOTALSIZE", 0, 4}, {"MAGICCODE", 4, 4}, {"BODYCRC", 8, 4}, {"QUEUEID", 12, 4}, {"FLAG", 16, 4},
            {"QUEUEOFFSET", 20, 8}, {"PHYSICALOFFSET", 28, 8}, {"SYSFLAG", 36, 4}, {"BORNTIMESTAMP", 40, 8},
            {"BORNHOST", 48, 8}, {"STORETIMESTAMP", 56, 8}, {"STOREHOST", 64, 8}, {"RECONSUMETIMES", 72, 4},
            {"PREPAREDTRANSACTIONOFFSET", 76, 8}, {"BODYLENGTH", 84, 4}, {"BODY", 88, 5}, {"TOPICLENGTH", 93, 1},
            {"TOPIC", 94, 9}, {"PROPERTIESLENGTH", 103, 2}, {"PROPERTIES", 105, 18}};
        QCOMPARE(layout.fields.size(), expected.size());
        for (size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(layout.fields[i].name, std::get<0>(expected[i]));
            QCOMPARE(layout.fields[i].offset, std::get<1>(expected[i]));
            QCOMPARE(layout.fields[i].length, std::get<2>(expected[i]));
        }
        QCOMPARE(field(layout, "TOTALSIZE")->value, std::string("123"));
        QCOMPARE(field(layout, "MAGICCODE")->value, std::string("0xDAA320A7 (V1)"));
        QCOMPARE(field(layout, "BODYCRC")->value, std::string("2010220930 (0x77D18982)"));
        QCOMPARE(field(layout, "QUEUEOFFSET")->value, std::string("5"));
        QCOMPARE(field(layout, "STORETIMESTAMP")->value, std::string("1700000000123 (2023-11-14 22:13:20.123 UTC)"));
        QCOMPARE(field(layout, "BORNHOST")->value, std::string("127.0.0.1:50000"));
        QCOMPARE(field(layout, "BORNHOST")->children.at(1).value, std::string("50000"));
        QCOMPARE(field(layout, "BORNHOST")->children.at(1).offset, int64_t(52));
        QCOMPARE(field(layout, "STOREHOST")->value, std::string("127.0.0.1:10911"));
        QCOMPARE(field(layout, "BODY")->value, std::string("5 bytes: Hello"));
        QCOMPARE(field(layout, "TOPIC")->value, std::string("TopicTest"));
        const auto &properties = field(layout, "PROPERTIES")->children;
        QCOMPARE(properties.size(), size_t(2));
        QCOMPARE(properties[0].name, std::string("TAGS"));
        QCOMPARE(properties[0].value, std::string("TagA"));
        QCOMPARE(properties[0].offset, int64_t(105));
        QCOMPARE(properties[0].length, int64_t(10)); // TAGS 0x01 TagA 0x02
        QCOMPARE(properties[1].name, std::string("KEYS"));
        QCOMPARE(properties[1].offset, int64_t(115));

        // Byte → field: a property's byte selects the property, a port byte the port.
        QCOMPARE(fieldPathAt(layout, 116), (std::vector<int>{19, 1}));
        QCOMPARE(fieldPathAt(layout, 53), (std::vector<int>{9, 1}));
        QCOMPARE(fieldPathAt(layout, 0), (std::vector<int>{0}));
        QVERIFY(fieldPathAt(layout, 123).empty());
    }

    void javaWrittenRecords_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::newRow("fork-2021") << "fork-2021";
        QTest::newRow("study-2019") << "study-2019";
    }

    void javaWrittenRecords()
    {
        QFETCH(QString, fixture);
        auto reader = openReader(fixturesDir() + "/" + fixture.toStdString());
        QVERIFY(reader);
        const auto records = allMessages(*reader);
        QVERIFY(!records.empty());
        for (const auto &record : records) {
            const auto bytes = reader->readCommitLogBytes(record.offset, record.size);
            const RecordLayout layout = recordLayout(bytes);
            QVERIFY2(layout.error.empty(), layout.error.c_str());
            QVERIFY(tiles(layout, record.size));
            QCOMPARE(field(layout, "TOPIC")->value, record.message.topic);
            QCOMPARE(field(layout, "PHYSICALOFFSET")->value, std::to_string(record.offset));
            QCOMPARE(field(layout, "PROPERTIES")->children.size(), record.message.properties.size());
        }
    }

    void storeWrittenRecords()
    {
        QTemporaryDir dir;
        {
            auto store = openStore(smallStoreConfig(dir.path(), 8192));
            QVERIFY(store);
            for (int i = 0; i < 100; ++i)
                QVERIFY(store->putMessage(numbered(i)).stored());
            store->shutdown();
        }
        auto reader = openReader(dir.path().toStdString());
        const auto records = allMessages(*reader);
        QCOMPARE(records.size(), size_t(100));
        for (const auto &record : records) {
            const RecordLayout layout = recordLayout(reader->readCommitLogBytes(record.offset, record.size));
            QVERIFY2(layout.error.empty(), layout.error.c_str());
            QVERIFY(tiles(layout, record.size));
            QCOMPARE(field(layout, "QUEUEOFFSET")->value, std::to_string(record.message.queueOffset));
        }
        // The end-of-file record of the first file: TOTALSIZE and the blank magic only.
        store::RecordQuery query;
        query.limit = 1000;
        const auto page = reader->readRecords(query);
        const auto blank = std::find_if(page.records.begin(), page.records.end(),
                                        [](const CommitLogRecord &r) { return r.kind == RecordKind::Blank; });
        QVERIFY(blank != page.records.end());
        const RecordLayout blankLayout = recordLayout(reader->readCommitLogBytes(blank->offset, blank->size));
        QVERIFY(blankLayout.blank);
        QCOMPARE(blankLayout.fields.size(), size_t(2));
        QCOMPARE(blankLayout.fields[1].value, std::string("0xCBD43194 (end-of-file blank)"));
    }

    void v2TopicAndIpv6Hosts()
    {
        common::BrokerMessage message = makeMessage(std::string(200, 't'), 3, "body", "k");
        message.bornHost = *common::HostAddress::parse("[::1]:4000");
        common::EncodeOptions options;
        options.storeHost = *common::HostAddress::parse("[fe80::2]:10911");
        std::vector<uint8_t> bytes;
        QCOMPARE(common::encodeRecord(message, message.properties.encode(), options, bytes), common::EncodeStatus::Ok);
        const RecordLayout layout = recordLayout(bytes);
        QVERIFY2(layout.error.empty(), layout.error.c_str());
        QVERIFY(tiles(layout, static_cast<int64_t>(bytes.size())));
        QCOMPARE(field(layout, "MAGICCODE")->value, std::string("0xDAA320AB (V2)"));
        QCOMPARE(field(layout, "TOPICLENGTH")->length, int64_t(2));
        QCOMPARE(field(layout, "TOPICLENGTH")->value, std::string("200"));
        QCOMPARE(field(layout, "BORNHOST")->length, int64_t(20));
        QCOMPARE(field(layout, "BORNHOST")->value, std::string("[::1]:4000"));
        QCOMPARE(field(layout, "STOREHOST")->length, int64_t(20));
        QVERIFY(field(layout, "SYSFLAG")->value.find("born host IPv6, store host IPv6") != std::string::npos);
    }

    void damagedBytesNameTheField()
    {
        std::vector<uint8_t> bytes = specRecord();
        // Cut inside the topic: everything before it is laid out, the error names TOPIC.
        const RecordLayout cut = recordLayout(std::span(bytes).first(97));
        QVERIFY(field(cut, "TOPICLENGTH"));
        QVERIFY(!field(cut, "TOPIC"));
        QCOMPARE(cut.error, std::string("TOPIC needs 9 bytes at offset 94 but the record has 3 left"));
        QVERIFY(cut.error.find("TOTALSIZE") == std::string::npos);

        std::vector<uint8_t> badMagic = bytes;
        badMagic[4] = 0x12;
        const RecordLayout magic = recordLayout(badMagic);
        QCOMPARE(magic.fields.size(), size_t(2));
        QVERIFY(magic.error.find("MAGICCODE 0x12A320A7") == 0);

        std::vector<uint8_t> badLength = bytes;
        badLength[103] = 0x7F; // PROPERTIESLENGTH far past TOTALSIZE
        const RecordLayout length = recordLayout(badLength);
        QVERIFY(length.error.find("PROPERTIES needs") == 0);

        QVERIFY(recordLayout(std::span(bytes).first(3)).error.find("TOTALSIZE needs 4 bytes") == 0);
        QVERIFY(recordLayout({}).fields.empty());
    }
};

QObject *createRecordLayoutTest() { return new RecordLayoutTest; }

#include "tst_record_layout.moc"
