// SQL92 subscriptions on a real broker over sockets, as the Java client sends them: pulls with the
// expression in the header (sysFlag subscription bit, PULL_MESSAGE and LITE_PULL_MESSAGE) or from
// the group's heartbeat, CHECK_CLIENT_CONFIG, enablePropertyFilter off, expressions that do not
// compile, the compiled-expression cache, and a held pull woken by a matching message.

#include "broker_test_util.h"

#include "broker/common/json.h"
#include "broker/common/record_codec.h"
#include "broker/remoting/protocol/client_data.h"
#include "broker/server/pull_request_hold_service.h"
#include "broker/server/sql_filter_cache.h"
#include "broker/store/config/consumer_filter_manager.h"
#include "broker/store/message_store.h"
#include "test_support.h"

#include <future>

using namespace mqdesk;
using mqdesk::remoting::RemotingCommand;
using mqdesk::remoting::RequestCode;
using mqdesk::remoting::ResponseCode;
using mqdesk::test::TestBroker;

namespace {

RemotingCommand send(const std::string &topic, const std::string &body, const std::string &properties)
{
    RemotingCommand request = RemotingCommand::createRequest(
        RequestCode::kSendMessageV2, {{"a", "PG"}, {"b", topic}, {"c", "TBW102"}, {"d", "1"}, {"e", "0"}, {"f", "0"},
                                      {"g", "1700000000000"}, {"h", "0"}, {"i", properties}, {"j", "0"}, {"k", "false"}});
    request.body.assign(body.begin(), body.end());
    return request;
}

RemotingCommand pullSql(const std::string &group, const std::string &topic, int64_t offset, int32_t sysFlag,
                        const std::string &expression, int64_t subVersion = 1,
                        int32_t code = RequestCode::kPullMessage, int64_t suspendMillis = 15000)
{
    return RemotingCommand::createRequest(
        code, {{"consumerGroup", group}, {"topic", topic}, {"queueId", "0"}, {"queueOffset", std::to_string(offset)},
               {"maxMsgNums", "32"}, {"sysFlag", std::to_string(sysFlag)}, {"commitOffset", "-1"},
               {"suspendTimeoutMillis", std::to_string(suspendMillis)}, {"subscription", expression},
               {"subVersion", std::to_string(subVersion)}, {"expressionType", "SQL92"}});
}

RemotingCommand heartbeatSql(const std::string &group, const std::string &topic, const std::string &expression,
                             int64_t subVersion)
{
    remoting::HeartbeatData data;
    data.clientId = "10.0.0.9@sql";
    remoting::ConsumerData consumer;
    consumer.groupName = group;
    consumer.consumeType = "CONSUME_PASSIVELY";
    consumer.messageModel = "CLUSTERING";
    consumer.subscriptionDataSet.push_back(remoting::SubscriptionData::build(topic, expression, "SQL92"));
    consumer.subscriptionDataSet.back().subVersion = subVersion;
    data.consumerDataSet.push_back(consumer);
    RemotingCommand request = RemotingCommand::createRequest(RequestCode::kHeartBeat);
    const std::string json = data.toJson();
    request.body.assign(json.begin(), json.end());
    return request;
}

RemotingCommand checkClientConfig(const std::string &expressionType, const std::string &expression)
{
    common::JsonObject body;
    body.set("clientId", common::JsonValue(std::string("10.0.0.9@sql")));
    body.set("group", common::JsonValue(std::string("CG_SQL")));
    body.set("subscriptionData", remoting::SubscriptionData::build("SqlTopic", expression, expressionType).toJson());
    RemotingCommand request = RemotingCommand::createRequest(RequestCode::kCheckClientConfig);
    const std::string json = common::toFastjsonCompact(common::JsonValue(std::move(body)));
    request.body.assign(json.begin(), json.end());
    return request;
}

std::vector<std::string> bodiesOf(const RemotingCommand &response)
{
    std::vector<std::string> out;
    size_t at = 0;
    while (at < response.body.size()) {
        const auto decoded = common::decodeRecord(std::span<const uint8_t>(response.body).subspan(at));
        if (decoded.status != common::DecodeStatus::Ok)
            break;
        out.push_back(decoded.record.materialize().bodyText());
        at += static_cast<size_t>(decoded.size);
    }
    return out;
}

// Messages m0..m5 with a = 0..5 and b alternating x / y, then one without a, one with a = "abc".
void sendSample(TestBroker &broker, const std::string &topic)
{
    for (int i = 0; i < 6; ++i) {
        const std::string properties = "TAGS\001Tag" + std::string(i % 2 ? "B" : "A") + "\002a\001" + std::to_string(i)
                                       + "\002b\001" + (i % 2 ? "y" : "x") + "\002";
        QCOMPARE(broker.call(send(topic, "m" + std::to_string(i), properties)).code, ResponseCode::kSuccess);
    }
    QCOMPARE(broker.call(send(topic, "no-a", "b\001x\002")).code, ResponseCode::kSuccess);
    QCOMPARE(broker.call(send(topic, "a-abc", "a\001abc\002b\001x\002")).code, ResponseCode::kSuccess);
    broker.controller().store().waitForDispatch();
}

const auto enableFilter = [](server::BrokerSettings &settings) { settings.broker.enablePropertyFilter = true; };

} // namespace

class SqlFilterBrokerTest : public QObject
{
    Q_OBJECT

private slots:
    void pullWithTheHeadersExpressionGetsOnlyMatches()
    {
        TestBroker broker(enableFilter);
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        sendSample(broker, "SqlTopic");
        const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
            {"a BETWEEN 0 AND 3 AND b = 'x'", {"m0", "m2"}},
            {"a > 3", {"m4", "m5"}}, // "abc" > 3 throws in Java: not delivered
            {"a IS NULL", {"no-a"}},
            {"TAGS = 'TagB'", {"m1", "m3", "m5"}},
            {"b IN ('y') OR a = 0", {"m0", "m1", "m3", "m5"}},
            {"NOT (a < 5)", {"m5"}},
            {"b = 'x' AND a NOT BETWEEN 1 AND 4", {"m0"}},
            {"TRUE", {"m0", "m1", "m2", "m3", "m4", "m5", "no-a", "a-abc"}},
        };
        for (const auto &[expression, expected] : cases) {
            for (int32_t code : {RequestCode::kPullMessage, RequestCode::kLitePullMessage}) {
                const RemotingCommand response = broker.call(pullSql("CG_SQL", "SqlTopic", 0, 4, expression, 1, code));
                QVERIFY2(response.code == ResponseCode::kSuccess, (expression + ": " + response.remark.value_or("")).c_str());
                QCOMPARE(bodiesOf(response), expected);
                QCOMPARE(response.extFields.value("nextBeginOffset"), std::string("8"));
            }
        }
        // Nothing matches: retry from past the skipped entries, as for tags.
        const RemotingCommand none = broker.call(pullSql("CG_SQL", "SqlTopic", 0, 4, "a = 42"));
        QCOMPARE(none.code, ResponseCode::kPullRetryImmediately);
        QCOMPARE(none.extFields.value("nextBeginOffset"), std::string("8"));
        // From an offset inside the queue.
        const RemotingCommand later = broker.call(pullSql("CG_SQL", "SqlTopic", 3, 4, "b = 'x'"));
        QCOMPARE(later.code, ResponseCode::kSuccess);
        QCOMPARE(bodiesOf(later), (std::vector<std::string>{"m4", "no-a", "a-abc"}));
    }

    void pullWithTheGroupsSubscriptionUsesTheCache()
    {
        TestBroker broker(enableFilter);
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        sendSample(broker, "SqlTopic");
        const uint64_t before = broker.controller().sqlFilters().compilations();
        QCOMPARE(broker.call(heartbeatSql("CG_REG", "SqlTopic", "a BETWEEN 0 AND 3 AND b = 'x'", 7)).code,
                 ResponseCode::kSuccess);
        // Recorded as Java's ConsumerFilterManager does, in memory and in consumerFilter.json.
        auto recorded = broker.controller().consumerFilters().get("SqlTopic", "CG_REG");
        QVERIFY(recorded.has_value());
        QCOMPARE(recorded->expression, std::string("a BETWEEN 0 AND 3 AND b = 'x'"));
        QCOMPARE(recorded->expressionType, std::string("SQL92"));
        QCOMPARE(recorded->clientVersion, int64_t{7});
        QVERIFY(!recorded->isDead());
        const auto file = test::readFile(broker.storeDir() + "/config/consumerFilter.json");
        const std::string text(file.begin(), file.end());
        QVERIFY2(text.find("\"expression\":\"a BETWEEN 0 AND 3 AND b = 'x'\"") != std::string::npos, text.c_str());
        // The same heartbeat again changes nothing.
        QCOMPARE(broker.call(heartbeatSql("CG_REG", "SqlTopic", "a BETWEEN 0 AND 3 AND b = 'x'", 7)).code,
                 ResponseCode::kSuccess);
        QCOMPARE(broker.controller().consumerFilters().get("SqlTopic", "CG_REG")->bornTime, recorded->bornTime);
        for (int i = 0; i < 5; ++i) {
            const RemotingCommand response = broker.call(pullSql("CG_REG", "SqlTopic", 0, 0, "", 7));
            QCOMPARE(response.code, ResponseCode::kSuccess);
            QCOMPARE(bodiesOf(response), (std::vector<std::string>{"m0", "m2"}));
        }
        QCOMPARE(broker.controller().sqlFilters().compilations(), before + 1); // parsed once, not per pull
        // A new subscription version (the consumer re-subscribed) is compiled again.
        QCOMPARE(broker.call(heartbeatSql("CG_REG", "SqlTopic", "b = 'y'", 8)).code, ResponseCode::kSuccess);
        const RemotingCommand response = broker.call(pullSql("CG_REG", "SqlTopic", 0, 0, "", 8));
        QCOMPARE(response.code, ResponseCode::kSuccess);
        QCOMPARE(bodiesOf(response), (std::vector<std::string>{"m1", "m3", "m5"}));
        QCOMPARE(broker.controller().sqlFilters().compilations(), before + 2);
        recorded = broker.controller().consumerFilters().get("SqlTopic", "CG_REG");
        QCOMPARE(recorded->expression, std::string("b = 'y'"));
        QCOMPARE(recorded->clientVersion, int64_t{8});
    }

    void expressionsThatDoNotCompile()
    {
        TestBroker broker(enableFilter);
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        sendSample(broker, "SqlTopic");
        RemotingCommand response = broker.call(pullSql("CG_SQL", "SqlTopic", 0, 4, "a = "));
        QCOMPARE(response.code, ResponseCode::kSubscriptionParseFailed);
        QCOMPARE(response.remark.value_or(""), std::string("parse the consumer's subscription failed"));
        QCOMPARE(broker.call(heartbeatSql("CG_BAD", "SqlTopic", "a > 'x'", 1)).code, ResponseCode::kSuccess);
        QVERIFY(!broker.controller().consumerFilters().get("SqlTopic", "CG_BAD").has_value()); // not recorded
        response = broker.call(pullSql("CG_BAD", "SqlTopic", 0, 0, "", 1));
        QCOMPARE(response.code, ResponseCode::kFilterDataNotExist);
        QCOMPARE(response.remark.value_or(""),
                 std::string("The broker's consumer filter data is not exist!Your expression may be wrong!"));
        // 10,000 parentheses: refused, the broker still answers.
        response = broker.call(pullSql("CG_SQL", "SqlTopic", 0, 4, std::string(10000, '(') + "a = 1"));
        QCOMPARE(response.code, ResponseCode::kSubscriptionParseFailed);
        QCOMPARE(broker.call(pullSql("CG_SQL", "SqlTopic", 0, 4, "a = 1")).code, ResponseCode::kSuccess);
    }

    void checkClientConfigAnswersAsJava()
    {
        TestBroker broker(enableFilter);
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        RemotingCommand response = broker.call(checkClientConfig("SQL92", "a BETWEEN 0 AND 3 AND b = 'x'"));
        QCOMPARE(response.code, ResponseCode::kSuccess);
        QVERIFY(!response.remark.has_value());
        QCOMPARE(broker.call(checkClientConfig("TAG", "TagA || TagB")).code, ResponseCode::kSuccess);
        response = broker.call(checkClientConfig("SQL92", "a BETWEEN 3 AND 0"));
        QCOMPARE(response.code, ResponseCode::kSubscriptionParseFailed);
        QVERIFY2(response.remark.value_or("").find("Illegal values of between") != std::string::npos,
                 response.remark.value_or("").c_str());
        response = broker.call(checkClientConfig("SQL92", "a = 1 AND"));
        QCOMPARE(response.code, ResponseCode::kSubscriptionParseFailed);
        QVERIFY2(response.remark.value_or("").find("line 1, column 10") != std::string::npos,
                 response.remark.value_or("").c_str());
        QCOMPARE(broker.call(checkClientConfig("BLOOM", "x")).code, ResponseCode::kSubscriptionParseFailed);
        // No body, or no subscription in it: nothing to check.
        QCOMPARE(broker.call(RemotingCommand::createRequest(RequestCode::kCheckClientConfig)).code, ResponseCode::kSuccess);
    }

    void disabledPropertyFilterRefusesAsJava()
    {
        TestBroker broker; // enablePropertyFilter=false, Java's default
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QVERIFY(!broker.controller().brokerConfig().enablePropertyFilter);
        sendSample(broker, "SqlTopic");
        const std::string remark = "The broker does not support consumer to filter message by SQL92";
        RemotingCommand response = broker.call(checkClientConfig("SQL92", "a = 1"));
        QCOMPARE(response.code, ResponseCode::kSystemError);
        QCOMPARE(response.remark.value_or(""), remark);
        QCOMPARE(broker.call(checkClientConfig("TAG", "*")).code, ResponseCode::kSuccess);
        response = broker.call(pullSql("CG_SQL", "SqlTopic", 0, 4, "a = 1"));
        QCOMPARE(response.code, ResponseCode::kSystemError);
        QCOMPARE(response.remark.value_or(""), remark);
        // The heartbeat is accepted (as Java); its pulls are refused.
        QCOMPARE(broker.call(heartbeatSql("CG_OFF", "SqlTopic", "a = 1", 1)).code, ResponseCode::kSuccess);
        response = broker.call(pullSql("CG_OFF", "SqlTopic", 0, 0, "", 1));
        QCOMPARE(response.code, ResponseCode::kSystemError);
        QCOMPARE(response.remark.value_or(""), remark);
        // Switched on live (UPDATE_BROKER_CONFIG), the same pull filters.
        QVERIFY2(broker.controller().updateConfig({{"enablePropertyFilter", "true"}}).empty(), "update refused");
        response = broker.call(pullSql("CG_OFF", "SqlTopic", 0, 0, "", 1));
        QCOMPARE(response.code, ResponseCode::kSuccess);
        QCOMPARE(bodiesOf(response), (std::vector<std::string>{"m1"}));
    }

    void heldPullWakesForAMatchingMessage()
    {
        TestBroker broker(enableFilter);
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(send("SqlHeld", "first", "a\0011\002")).code, ResponseCode::kSuccess);
        broker.controller().store().waitForDispatch();
        std::promise<remoting::InvokeResult> answered;
        broker.client().invokeAsync(broker.brokerAddress(), pullSql("CG_SQL", "SqlHeld", 1, 6, "a = 2"),
                                    std::chrono::milliseconds(10000),
                                    [&](remoting::InvokeResult result) { answered.set_value(std::move(result)); });
        QTRY_COMPARE_WITH_TIMEOUT(broker.controller().pullHold().heldCount(), size_t{1}, test::kPatienceMs);
        QCOMPARE(broker.call(send("SqlHeld", "skip", "a\0013\002")).code, ResponseCode::kSuccess);
        QCOMPARE(broker.call(send("SqlHeld", "wanted", "a\0012\002")).code, ResponseCode::kSuccess);
        auto future = answered.get_future();
        QVERIFY(future.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
        const remoting::InvokeResult result = future.get();
        QVERIFY2(result.ok(), result.errorMessage.c_str());
        // Woken by the first arrival, the re-run may find only the non-matching one (retry
        // immediately) or both; never the non-matching message.
        if (result.response.code == ResponseCode::kSuccess) {
            QCOMPARE(bodiesOf(result.response), (std::vector<std::string>{"wanted"}));
        } else {
            QCOMPARE(result.response.code, ResponseCode::kPullRetryImmediately);
            // "wanted" was acknowledged, not necessarily dispatched yet (the reput thread is
            // behind on a loaded machine): the retry reads once it is in the consume queue.
            broker.controller().store().waitForDispatch();
            const RemotingCommand again = broker.call(pullSql("CG_SQL", "SqlHeld", 2, 4, "a = 2"));
            QCOMPARE(bodiesOf(again), (std::vector<std::string>{"wanted"}));
        }
    }
};

QObject *createSqlFilterBrokerTest() { return new SqlFilterBrokerTest; }

#include "tst_sql_filter.moc"
