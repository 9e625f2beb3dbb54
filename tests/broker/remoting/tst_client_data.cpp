// HEART_BEAT bodies as the clients other than Java's write them (remoting/protocol/client_data):
// the Go client (rocketmq-client-go/v2) sends a tag subscription's codeSet as decimal strings and
// hashes a tag's UTF-8 bytes, where the consume queues hold Java's UTF-16 String.hashCode.

#include "test_support.h"

#include "broker/common/java_hash.h"
#include "broker/remoting/protocol/client_data.h"

#include <string>

using namespace mqdesk;
using namespace mqdesk::remoting;

namespace {

// A heartbeat as rocketmq-client-go v2.1.x marshals it: one push consumer with the retry topic's
// "*" subscription and a tag subscription, codes as strings.
std::string goHeartbeat(const std::string &tagsSet, const std::string &codeSet)
{
    return R"({"clientID":"192.0.2.2@c_1","producerDataSet":[],"consumerDataSet":[{"groupName":"g",)"
           R"("consumeType":"CONSUME_PASSIVELY","messageModel":"CLUSTERING",)"
           R"("consumeFromWhere":"CONSUME_FROM_FIRST_OFFSET","subscriptionDataSet":[)"
           R"({"classFilterMode":false,"topic":"%RETRY%g","subString":"*","tagsSet":[],"codeSet":[],)"
           R"("subVersion":1,"expressionType":"TAG"},)"
           R"({"classFilterMode":false,"topic":"t","subString":"TagA || TagC","tagsSet":)" + tagsSet
           + R"(,"codeSet":)" + codeSet + R"(,"subVersion":2,"expressionType":"TAG"}],"unitMode":false}]})";
}

} // namespace

class ClientDataTest : public QObject
{
    Q_OBJECT

private slots:
    void goClientCodeSetAsStrings()
    {
        HeartbeatData data;
        std::string error;
        QVERIFY2(HeartbeatData::fromJson(goHeartbeat(R"(["TagA","TagC"])", R"(["2598919","2598921"])"), data, error),
                 error.c_str());
        QCOMPARE(data.clientId, std::string("192.0.2.2@c_1"));
        QCOMPARE(data.consumerDataSet.size(), size_t{1});
        const ConsumerData &consumer = data.consumerDataSet[0];
        QCOMPARE(consumer.subscriptionDataSet.size(), size_t{2});
        const SubscriptionData &tags = consumer.subscriptionDataSet[1];
        QCOMPARE(tags.codeSet, (std::set<int32_t>{2598919, 2598921}));
        QVERIFY(tags.matchesTagsCode(common::tagsCodeOf("TagA")));
        QVERIFY(tags.matchesTagsCode(common::tagsCodeOf("TagC")));
        QVERIFY(!tags.matchesTagsCode(common::tagsCodeOf("TagB")));
        QVERIFY(consumer.subscriptionDataSet[0].matchesTagsCode(common::tagsCodeOf("TagB")));
    }

    void codeSetAsIntegersStillRead()
    {
        HeartbeatData data;
        std::string error;
        QVERIFY2(HeartbeatData::fromJson(goHeartbeat(R"(["TagA","TagC"])", "[2598919,2598921]"), data, error),
                 error.c_str());
        QCOMPARE(data.consumerDataSet[0].subscriptionDataSet[1].codeSet, (std::set<int32_t>{2598919, 2598921}));
    }

    void codeSetOfNonNumbersRefused_data()
    {
        QTest::addColumn<QByteArray>("codeSet");
        QTest::newRow("word") << QByteArray(R"(["TagA"])");
        QTest::newRow("empty string") << QByteArray(R"([""])");
        QTest::newRow("trailing text") << QByteArray(R"(["123x"])");
        QTest::newRow("past int32") << QByteArray(R"(["2147483648"])");
        QTest::newRow("object") << QByteArray(R"([{}])");
    }

    void codeSetOfNonNumbersRefused()
    {
        QFETCH(QByteArray, codeSet);
        HeartbeatData data;
        std::string error;
        QVERIFY(!HeartbeatData::fromJson(goHeartbeat(R"(["TagA"])", codeSet.toStdString()), data, error));
        QVERIFY2(error.find("consumerDataSet[0].subscriptionDataSet[1].codeSet") != std::string::npos, error.c_str());
    }

    void negativeCodeAsString()
    {
        HeartbeatData data;
        std::string error;
        QVERIFY2(HeartbeatData::fromJson(goHeartbeat(R"(["x"])", R"(["-5"])"), data, error), error.c_str());
        QVERIFY(data.consumerDataSet[0].subscriptionDataSet[1].codeSet.contains(-5));
    }

    void nonAsciiTagFiltersByJavaHash()
    {
        // The Go client's code for "标签" is the hash of its UTF-8 bytes (-1853217173); the consume
        // queue holds Java's hash of the UTF-16 string (857175). Both are kept, so the message passes.
        HeartbeatData data;
        std::string error;
        QVERIFY2(HeartbeatData::fromJson(goHeartbeat(R"(["标签"])", R"(["-1853217173"])"), data, error), error.c_str());
        const SubscriptionData &tags = data.consumerDataSet[0].subscriptionDataSet[1];
        QCOMPARE(common::javaStringHashCode("标签"), 857175);
        QVERIFY(tags.codeSet.contains(-1853217173));
        QVERIFY(tags.matchesTagsCode(common::tagsCodeOf("标签")));
    }
};

QObject *createClientDataTest() { return new ClientDataTest; }

#include "tst_client_data.moc"
