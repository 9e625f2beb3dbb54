// RemotingCommand's helpers, ExtFields, language names and the request/response code tables
// (remoting spec §1.5, §2.1, §3).

#include "test_support.h"

#include "broker/remoting/remoting_command.h"

using namespace mqdesk::remoting;
using mqdesk::test::q;

class RemotingCommandTest : public QObject
{
    Q_OBJECT

private slots:
    // MQVersion's names, at the ordinals the specs and clients give (remoting spec header:
    // V4_9_8 = 409, V5_3_3 = 479; the 5.x SDK's 5.0.8 maps to 429 through the gRPC endpoint).
    void namesVersionOrdinalsAsMQVersionDoes()
    {
        QCOMPARE(mqVersionName(kMQDeskRemotingVersion), std::string("V4_9_8"));
        QCOMPARE(mqVersionName(409), std::string("V4_9_8"));
        QCOMPARE(mqVersionName(408), std::string("V4_9_8_SNAPSHOT"));
        QCOMPARE(mqVersionName(399), std::string("V4_9_3"));
        QCOMPARE(mqVersionName(213), std::string("V4_0_0"));
        QCOMPARE(mqVersionName(212), std::string("V4_0_0_SNAPSHOT"));
        QCOMPARE(mqVersionName(413), std::string("V5_0_0"));
        QCOMPARE(mqVersionName(429), std::string("V5_0_8"));
        QCOMPARE(mqVersionName(479), std::string("V5_3_3"));
        QCOMPARE(mqVersionName(611), std::string("V5_9_9"));
        QCOMPARE(mqVersionName(612), std::string("HIGHER_VERSION"));
        QCOMPARE(mqVersionName(211), std::string());
        QCOMPARE(mqVersionName(-1), std::string());
    }

    void createsRequestsWithFreshOpaques()
    {
        const RemotingCommand first = RemotingCommand::createRequest(RequestCode::kHeartBeat);
        const RemotingCommand second = RemotingCommand::createRequest(
            RequestCode::kGetRouteinfoByTopic, {{"topic", "T"}});
        QCOMPARE(second.opaque, first.opaque + 1);
        QCOMPARE(second.code, 105);
        QCOMPARE(second.language, LanguageCode::Java);
        QCOMPARE(second.version, kMQDeskRemotingVersion);
        QCOMPARE(second.serializeType, SerializeType::Json);
        QCOMPARE(second.flag, 0);
        QVERIFY(second.isRequest());
        QVERIFY(!second.isOneway());
        QVERIFY(!second.remark);
        QCOMPARE(second.extFields.value("topic"), std::string("T"));
    }

    void createsResponsesInTheRequestsEncoding()
    {
        RemotingCommand request = RemotingCommand::createRequest(RequestCode::kPullMessage, {{"topic", "T"}});
        request.opaque = 0; // a legal id (Java starts at 0)
        request.language = LanguageCode::Go;
        request.version = 317;
        request.serializeType = SerializeType::RocketMq;
        request.markOneway();
        request.body = {1, 2, 3};
        QVERIFY(request.isOneway());
        QVERIFY(request.isRequest());

        const RemotingCommand response = RemotingCommand::createResponse(
            request, ResponseCode::kRequestCodeNotSupported, " request type 11 not supported");
        QCOMPARE(response.code, 3);
        QCOMPARE(response.opaque, 0);
        QCOMPARE(response.serializeType, SerializeType::RocketMq);
        QVERIFY(response.isResponse());
        QVERIFY(!response.isOneway());
        QCOMPARE(response.flag, RemotingCommand::kResponseFlag);
        QCOMPARE(response.language, LanguageCode::Java);
        QCOMPARE(response.version, 409);
        QCOMPARE(*response.remark, std::string(" request type 11 not supported"));
        QVERIFY(response.extFields.empty());
        QVERIFY(response.body.empty());

        request.serializeType = SerializeType::Json;
        const RemotingCommand ok = RemotingCommand::createResponse(request, ResponseCode::kSuccess);
        QCOMPARE(ok.serializeType, SerializeType::Json);
        QVERIFY(!ok.remark);
    }

    void keepsExtFieldsInInsertionOrder()
    {
        ExtFields ext{{"b", "1"}, {"a", "2"}, {"b", "3"}};
        QCOMPARE(ext.size(), size_t{2});
        QCOMPARE(ext.entries()[0], (ExtFields::Entry{"b", "3"})); // first position, last value
        QCOMPARE(ext.entries()[1], (ExtFields::Entry{"a", "2"}));
        ext.set("c", "4");
        ext.set("a", "5");
        QCOMPARE(ext.entries()[1], (ExtFields::Entry{"a", "5"}));
        QCOMPARE(ext.entries()[2], (ExtFields::Entry{"c", "4"}));
        QVERIFY(ext.contains("c"));
        QCOMPARE(*ext.find("c"), std::string("4"));
        QVERIFY(!ext.find("missing"));
        QCOMPARE(ext.value("missing", "fallback"), std::string("fallback"));
        QVERIFY(ext.remove("b"));
        QVERIFY(!ext.remove("b"));
        QCOMPARE(ext, (ExtFields{{"a", "5"}, {"c", "4"}}));
        QVERIFY(ext != (ExtFields{{"c", "4"}, {"a", "5"}})); // order is part of the value
    }

    void namesLanguages()
    {
        const char *names[] = {"JAVA", "CPP", "DOTNET", "PYTHON", "DELPHI", "ERLANG", "RUBY",
                               "OTHER", "HTTP", "GO", "PHP", "OMS", "RUST", "NODE_JS"};
        for (int i = 0; i < 14; ++i) {
            QCOMPARE(languageCodeName(LanguageCode(i)), std::string_view(names[i]));
            QCOMPARE(languageCodeFromName(names[i]), std::optional(LanguageCode(i)));
        }
        QVERIFY(languageCodeName(LanguageCode(14)).empty());
        QVERIFY(!languageCodeFromName("java")); // Java's valueOf is case-sensitive
        QVERIFY(!languageCodeFromName(""));
        QCOMPARE(serializeTypeName(SerializeType::Json), std::string_view("JSON"));
        QCOMPARE(serializeTypeName(SerializeType::RocketMq), std::string_view("ROCKETMQ"));
    }

    void namesCodes()
    {
        // Spot checks against the spec's tables (§3.1, §3.2).
        QCOMPARE(RequestCode::kSendMessage, 10);
        QCOMPARE(RequestCode::kUpdateConsumerOffset, 15);
        QCOMPARE(RequestCode::kNotifyConsumerIdsChanged, 40);
        QCOMPARE(RequestCode::kGetRouteinfoByTopic, 105);
        QCOMPARE(RequestCode::kGetKvlistByNamespace, 219);
        QCOMPARE(RequestCode::kSendMessageV2, 310);
        QCOMPARE(RequestCode::kDeleteExpiredCommitlog, 329);
        QCOMPARE(ResponseCode::kSuccess, 0);
        QCOMPARE(ResponseCode::kRequestCodeNotSupported, 3);
        QCOMPARE(ResponseCode::kPullNotFound, 19);
        QCOMPARE(ResponseCode::kFlowControl, 215);

        QCOMPARE(requestCodeName(10), std::string_view("SEND_MESSAGE"));
        QCOMPARE(requestCodeName(310), std::string_view("SEND_MESSAGE_V2"));
        QCOMPARE(requestCodeName(105), std::string_view("GET_ROUTEINFO_BY_TOPIC"));
        QCOMPARE(requestCodeName(41), std::string_view("LOCK_BATCH_MQ"));
        QCOMPARE(requestCodeName(219), std::string_view("GET_KVLIST_BY_NAMESPACE"));
        QCOMPARE(requestCodeName(352), std::string_view("GET_SUBSCRIPTIONGROUP_CONFIG"));
        QVERIFY(requestCodeName(16).empty());
        QCOMPARE(requestCodeName(200050), std::string_view("POP_MESSAGE"));
        QVERIFY(requestCodeName(200099).empty());
        QCOMPARE(responseCodeName(0), std::string_view("SUCCESS"));
        QCOMPARE(responseCodeName(202), std::string_view("TRANSACTION_STATE_UNKNOW"));
        QCOMPARE(responseCodeName(209), std::string_view("UPDATE_AND_CREATE_ACL_CONFIG_FAILED"));
        QVERIFY(responseCodeName(5).empty());

        QCOMPARE(describeRequestCode(310), std::string("SEND_MESSAGE_V2(310)"));
        QCOMPARE(describeRequestCode(9999), std::string("9999"));
        QCOMPARE(describeResponseCode(17), std::string("TOPIC_NOT_EXIST(17)"));
    }

    void describesCommandsForLogs()
    {
        RemotingCommand request = RemotingCommand::createRequest(RequestCode::kSendMessageV2, {{"a", "G"}});
        request.opaque = 1;
        request.body = {'H', 'i'};
        QCOMPARE(q(describeCommand(request)),
                 QStringLiteral("request SEND_MESSAGE_V2(310) opaque=1 flag=0 JAVA v409 JSON ext=1 body=2"));
        RemotingCommand response = RemotingCommand::createResponse(request, ResponseCode::kSystemBusy, "busy");
        response.language = LanguageCode(99);
        response.serializeType = SerializeType::RocketMq;
        QCOMPARE(q(describeCommand(response)),
                 QStringLiteral("response SYSTEM_BUSY(2) opaque=1 flag=1 language#99 v409 ROCKETMQ ext=0 body=0 remark=\"busy\""));
    }
};

QObject *createRemotingCommandTest() { return new RemotingCommandTest; }

#include "tst_remoting_command.moc"
