// RocketMQ's ACL (broker/acl) over real sockets: an EmbeddedBroker with aclEnable=true and a
// plain_acl.yml, raw requests signed in this file (HMAC-SHA1 computed here with OpenSSL, not with
// the broker's signer), and refusals checked by Java's code and words. Also the pieces on their
// own: the signature against RFC 2202's vector, Java's key order, address patterns, the YAML
// reader's errors, hot reload, and the C++ client's signing (AclClientRPCHook).

#include "broker_test_util.h"

#include "broker/acl/acl_signer.h"
#include "broker/acl/plain_access_validator.h"
#include "broker/acl/request_table.h"
#include "broker/acl/plain_acl_config.h"
#include "broker/acl/remote_address_strategy.h"
#include "broker/client/mq_client_api.h"
#include "broker/client/producer.h"
#include "broker/remoting/protocol/client_data.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/topic_manager.h"
#include "broker/store/message_store.h"
#include "test_support.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <QElapsedTimer>
#include <QFile>

#include <filesystem>
#include <map>

using namespace mqdesk;
using namespace mqdesk::test;
using remoting::ExtFields;
using remoting::RemotingCommand;
using remoting::RequestCode;
using remoting::ResponseCode;

namespace {

// distribution/conf/plain_acl.yml's shape. 127.0.0.1 is in neither white list, so every request
// of the tests is checked by signature.
constexpr const char *kAclYaml = R"(globalWhiteRemoteAddresses:
  - 10.10.103.*
  - 192.168.0.*

accounts:
  - accessKey: RocketMQ
    secretKey: 12345678
    whiteRemoteAddress:
    admin: false
    defaultTopicPerm: DENY
    defaultGroupPerm: SUB
    topicPerms:
      - topicA=DENY
      - topicB=PUB|SUB
      - topicC=SUB
    groupPerms:
      # the group should convert to retry topic
      - groupA=DENY
      - groupB=PUB|SUB
      - groupC=SUB

  - accessKey: rocketmq2
    secretKey: 12345678
    whiteRemoteAddress: 192.168.1.*
    # if it is admin, it could access all resources
    admin: true
)";

void writeText(const std::string &path, const std::string &text)
{
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    test::writeFile(path, std::vector<uint8_t>(text.begin(), text.end()));
}

// Base64(HMAC-SHA1) straight from OpenSSL.
std::string hmacBase64(const std::string &data, const std::string &key)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    HMAC(EVP_sha1(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char *>(data.data()),
         data.size(), digest, &length);
    unsigned char encoded[64] = {};
    const int written = EVP_EncodeBlock(encoded, digest, static_cast<int>(length));
    return std::string(reinterpret_cast<const char *>(encoded), static_cast<size_t>(written));
}

// What AclClientRPCHook does, written out: AccessKey added, the values in key order (the keys
// here are ASCII, so std::map's byte order is Java's), then the body; Signature added last.
void signByHand(RemotingCommand &request, const std::string &accessKey, const std::string &secretKey)
{
    request.extFields.set("AccessKey", accessKey);
    std::map<std::string, std::string> sorted(request.extFields.begin(), request.extFields.end());
    std::string content;
    for (const auto &[key, value] : sorted)
        content += value;
    content.append(request.body.begin(), request.body.end());
    request.extFields.set("Signature", hmacBase64(content, secretKey));
}

RemotingCommand sendV2(const std::string &topic, const std::string &group = "PG")
{
    RemotingCommand command = RemotingCommand::createRequest(
        RequestCode::kSendMessageV2, {{"a", group}, {"b", topic}, {"c", "TBW102"}, {"d", "4"}, {"e", "0"}, {"f", "0"},
                                      {"g", "1700000000000"}, {"h", "0"}, {"i", "TAGS\001T\002"}, {"j", "0"},
                                      {"k", "false"}});
    const std::string body = "hello acl";
    command.body.assign(body.begin(), body.end());
    return command;
}

RemotingCommand pull(const std::string &topic, const std::string &group)
{
    return RemotingCommand::createRequest(RequestCode::kPullMessage,
                                          {{"consumerGroup", group}, {"topic", topic}, {"queueId", "0"},
                                           {"queueOffset", "0"}, {"maxMsgNums", "1"}, {"sysFlag", "0"},
                                           {"commitOffset", "0"}, {"suspendTimeoutMillis", "0"}, {"subVersion", "0"}});
}

RemotingCommand createTopic(const std::string &topic)
{
    return RemotingCommand::createRequest(RequestCode::kUpdateAndCreateTopic,
                                          {{"topic", topic}, {"defaultTopic", "TBW102"}, {"readQueueNums", "2"},
                                           {"writeQueueNums", "2"}, {"perm", "6"}, {"topicFilterType", "SINGLE_TAG"},
                                           {"topicSysFlag", "0"}, {"order", "false"}});
}

// A broker with aclEnable=true reading `yaml` from <dir>/acl/plain_acl.yml.
class AclBroker
{
public:
    explicit AclBroker(const std::string &yaml = kAclYaml)
        : aclPath_(dir_.path().toStdString() + "/acl/plain_acl.yml")
        , broker_([this](server::BrokerSettings &settings) {
            settings.broker.aclEnable = true;
            settings.broker.plainAclFile = aclPath_;
        })
    {
        writeText(aclPath_, yaml);
    }
    TestBroker &broker() { return broker_; }
    const std::string &aclPath() const { return aclPath_; }

    RemotingCommand signedCall(RemotingCommand request, const std::string &accessKey = "RocketMQ",
                               const std::string &secretKey = "12345678")
    {
        signByHand(request, accessKey, secretKey);
        return broker_.call(std::move(request));
    }

private:
    QTemporaryDir dir_;
    std::string aclPath_;
    TestBroker broker_;
};

#define QCOMPARE_REFUSAL(response, text)                                                                           \
    do {                                                                                                           \
        const RemotingCommand &refusal_ = (response);                                                              \
        QCOMPARE(refusal_.code, ResponseCode::kNoPermission);                                                      \
        QCOMPARE(QString::fromStdString(refusal_.remark.value_or("<none>")), QStringLiteral(text));                \
    } while (false)

} // namespace

class AclTest : public QObject
{
    Q_OBJECT

private slots:
    void signatureIsBase64HmacSha1()
    {
        // RFC 2202, HMAC-SHA1 test case 2: effcdf6ae5eb2fa2d27416d5f184df9c259a7c79.
        const std::string data = "what do ya want for nothing?";
        QCOMPARE(acl::calSignature(std::vector<uint8_t>(data.begin(), data.end()), "Jefe"),
                 std::string("7/zfauXrL6LSdBbV8YTfnCWafHk="));

        // The content: values sorted by key (upper case before lower case), then the body;
        // Signature never, _UNIQUE_KEY_QUERY only for clients up to 4.9.3.
        const ExtFields fields{{"b", "TopicB"}, {"a", "PG"}, {"AccessKey", "RocketMQ"}, {"Signature", "x"},
                               {"_UNIQUE_KEY_QUERY", "true"}};
        const std::string body = "BODY";
        const auto content = [&](bool skip) {
            const auto bytes = acl::signedContent(fields, std::vector<uint8_t>(body.begin(), body.end()), skip);
            return std::string(bytes.begin(), bytes.end());
        };
        QCOMPARE(content(false), std::string("RocketMQtruePGTopicBBODY")); // "_" sorts between "A" and "a"
        QCOMPARE(content(true), std::string("RocketMQPGTopicBBODY"));
        // "Up to 4.9.3" is MQVersion's V4_9_3 ordinal (it read 404, V4_9_5_SNAPSHOT, before).
        QCOMPARE(mqdesk::remoting::mqVersionName(acl::kVersionV4_9_3), std::string("V4_9_3"));

        RemotingCommand request = sendV2("topicB");
        RemotingCommand byHand = request;
        acl::signRequest(request, {"RocketMQ", "12345678", ""});
        signByHand(byHand, "RocketMQ", "12345678");
        QCOMPARE(*request.extFields.find("Signature"), *byHand.extFields.find("Signature"));
    }

    void keysSortAsJavaStrings()
    {
        QVERIFY(acl::javaStringLess("AccessKey", "a"));
        QVERIFY(acl::javaStringLess("a", "ab"));
        QVERIFY(!acl::javaStringLess("ab", "a"));
        // U+1F600 is a surrogate pair in Java (0xD83D...), which sorts before U+FF21 (0xFF21);
        // UTF-8 byte order says the opposite.
        const std::string emoji = "\xF0\x9F\x98\x80", fullwidthA = "\xEF\xBC\xA1";
        QVERIFY(acl::javaStringLess(emoji, fullwidthA));
        QVERIFY(!acl::javaStringLess(fullwidthA, emoji));
    }

    void addressPatterns_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("host");
        QTest::addColumn<bool>("matches");
        const auto row = [](const char *pattern, const char *host, bool matches) {
            QTest::addRow("%s ~ %s", pattern, host) << QString::fromLatin1(pattern) << QString::fromLatin1(host) << matches;
        };
        row("", "127.0.0.1", false);
        row("*", "10.1.2.3", true);
        row("*.*.*.*", "10.1.2.3", true);
        row("192.168.1.*", "192.168.1.77", true);
        row("192.168.1.*", "192.168.2.77", false);
        row("192.168.1-10.*", "192.168.10.1", true);
        row("192.168.1-10.*", "192.168.11.1", false);
        row("10.*.*.*", "10.200.3.4", true);
        row("192.168.0.{1,2}", "192.168.0.2", true);
        row("192.168.0.{1,2}", "192.168.0.3", false);
        row("127.0.0.1,127.0.0.2", "127.0.0.2", true);
        row("127.0.0.1", "127.0.0.1", true);
        row("::1", "0:0:0:0:0:0:0:1", true);
        row("1:2:3:4:5:6:7:1-ff", "1:2:3:4:5:6:7:fe", true);
        row("1:2:3:4:5:6:7:1-ff", "1:2:3:4:5:6:7:100", false);
    }

    void addressPatterns()
    {
        QFETCH(QString, pattern);
        QFETCH(QString, host);
        QFETCH(bool, matches);
        std::string error;
        const auto strategy = acl::RemoteAddressStrategy::parse(pattern.toStdString(), error);
        QVERIFY2(strategy, error.c_str());
        QCOMPARE(strategy->match(host.toStdString()), matches);
    }

    void badAddressPatternsAreNamed()
    {
        for (const char *bad : {"300.1.1.*", "example.com", "1.2.3.4-2.*", "1.2.*"}) {
            std::string error;
            QVERIFY2(!acl::RemoteAddressStrategy::parse(bad, error), bad);
            QVERIFY2(error.find(bad) != std::string::npos, error.c_str());
        }
        QCOMPARE(acl::peerHost("127.0.0.1:4567"), std::string("127.0.0.1"));
        QCOMPARE(acl::peerHost("[::1]:4567"), std::string("::1"));
        QCOMPARE(acl::peerHost("[::ffff:10.0.0.1]:4567"), std::string("10.0.0.1"));
    }

    void plainAclYamlIsReadAsJavaReadsIt()
    {
        acl::PlainAclConfig config;
        std::string error;
        QVERIFY2(acl::PlainAclConfig::parse(kAclYaml, "plain_acl.yml", config, error), error.c_str());
        QCOMPARE(config.globalWhiteRemoteAddresses.size(), size_t{2});
        QVERIFY(config.globalWhiteRemoteAddresses[0].match("10.10.103.9"));
        const acl::PlainAccount &plain = config.accounts.at("RocketMQ");
        QCOMPARE(plain.secretKey, std::string("12345678")); // a YAML integer, taken as written
        QVERIFY(!plain.admin);
        QCOMPARE(plain.defaultTopicPerm, acl::perm::kDeny);
        QCOMPARE(plain.defaultGroupPerm, acl::perm::kSub);
        QCOMPARE(plain.resourcePerms.at("topicB"), uint8_t(acl::perm::kPub | acl::perm::kSub));
        QCOMPARE(plain.resourcePerms.at("%RETRY%groupA"), acl::perm::kDeny);
        QVERIFY(!plain.whiteRemoteAddress.match("127.0.0.1"));
        const acl::PlainAccount &admin = config.accounts.at("rocketmq2");
        QVERIFY(admin.admin);
        QCOMPARE(admin.defaultTopicPerm, acl::perm::kDeny); // absent: DENY, as Java
        QVERIFY(admin.whiteRemoteAddress.match("192.168.1.5"));

        QVERIFY(acl::PlainAclConfig::parse("# nothing yet\n", "empty.yml", config, error));
        QVERIFY(config.accounts.empty());
    }

    void badPlainAclYamlIsNamed_data()
    {
        QTest::addColumn<QString>("yaml");
        QTest::addColumn<QString>("message");
        QTest::newRow("short key") << QStringLiteral("accounts:\n  - accessKey: short\n    secretKey: 12345678\n")
                                   << QStringLiteral("x.yml:2: accounts[0]: accessKey=short: the accessKey and secretKey "
                                                     "cannot be null and length should longer than 6");
        QTest::newRow("bad perm item") << QStringLiteral("accounts:\n  - accessKey: RocketMQ\n    secretKey: 12345678\n"
                                                         "    topicPerms:\n      - topicA\n")
                                       << QStringLiteral("Parse resource permission failed for topic:topicA");
        QTest::newRow("bad address") << QStringLiteral("globalWhiteRemoteAddresses:\n  - 1.2.3\n")
                                     << QStringLiteral("x.yml:2: globalWhiteRemoteAddresses: bad remote address '1.2.3'");
        QTest::newRow("syntax") << QStringLiteral("accounts:\n  - accessKey: [unclosed\n")
                                << QStringLiteral("x.yml:");
        QTest::newRow("not a mapping") << QStringLiteral("- a\n- b\n") << QStringLiteral("the top level must be a mapping");
        QTest::newRow("bad admin") << QStringLiteral("accounts:\n  - accessKey: RocketMQ\n    secretKey: 12345678\n"
                                                     "    admin: maybe\n")
                                   << QStringLiteral("admin: 'maybe' is not true or false");
    }

    void badPlainAclYamlIsNamed()
    {
        QFETCH(QString, yaml);
        QFETCH(QString, message);
        acl::PlainAclConfig config;
        std::string error;
        QVERIFY(!acl::PlainAclConfig::parse(yaml.toStdString(), "x.yml", config, error));
        QVERIFY2(error.find(message.toStdString()) != std::string::npos, error.c_str());
    }

    void signedRequestsPassAndOthersAreRefusedWithJavasWords()
    {
        AclBroker acl;
        std::string error;
        QVERIFY2(acl.broker().start(error), error.c_str());

        QCOMPARE(acl.signedCall(sendV2("topicB")).code, ResponseCode::kSuccess);

        QCOMPARE_REFUSAL(acl.broker().call(sendV2("topicB")), "No accessKey is configured");
        QCOMPARE_REFUSAL(acl.signedCall(sendV2("topicB"), "nobody123", "12345678"), "No acl config for nobody123");
        QCOMPARE_REFUSAL(acl.signedCall(sendV2("topicB"), "RocketMQ", "wrong-secret"),
                         "Check signature failed for accessKey=RocketMQ");
        RemotingCommand unsignedRequest = sendV2("topicB");
        unsignedRequest.extFields.set("AccessKey", "RocketMQ");
        QCOMPARE_REFUSAL(acl.broker().call(unsignedRequest), "Check signature failed for accessKey=RocketMQ");
        // Signed, then changed on the way: the body is covered too.
        RemotingCommand tampered = sendV2("topicB");
        signByHand(tampered, "RocketMQ", "12345678");
        tampered.body.push_back('!');
        QCOMPARE_REFUSAL(acl.broker().call(tampered), "Check signature failed for accessKey=RocketMQ");

        // Topic permissions: listed ones, then the default (DENY).
        QCOMPARE_REFUSAL(acl.signedCall(sendV2("topicC")), "No default permission for topic:topicC");
        QCOMPARE_REFUSAL(acl.signedCall(sendV2("topicA")), "No default permission for topic:topicA");
        QCOMPARE_REFUSAL(acl.signedCall(sendV2("topicZ")), "No default permission for topic:topicZ");
        QCOMPARE_REFUSAL(acl.signedCall(RemotingCommand::createRequest(RequestCode::kSendBatchMessage,
                                                                       {{"a", "PG"}, {"b", "topicC"}})),
                         "No default permission for topic:topicC");

        // Groups: a pull needs SUB on the topic and on %RETRY%<group>.
        // (Let through, the processor answers as it would without ACL.)
        QVERIFY(acl.signedCall(pull("topicC", "groupB")).code != ResponseCode::kNoPermission);
        QVERIFY(acl.signedCall(pull("topicB", "groupC")).code != ResponseCode::kNoPermission);
        QCOMPARE_REFUSAL(acl.signedCall(pull("topicC", "groupA")), "No default permission for group:groupA");
        QCOMPARE_REFUSAL(acl.signedCall(pull("topicA", "groupB")), "No default permission for topic:topicA");
        QCOMPARE_REFUSAL(acl.signedCall(RemotingCommand::createRequest(
                             RequestCode::kConsumerSendMsgBack, {{"group", "groupA"}, {"offset", "0"}})),
                         "No default permission for group:groupA");

        // A heartbeat names its consumer groups and their topics.
        remoting::HeartbeatData heartbeat;
        heartbeat.clientId = "127.0.0.1@acl";
        remoting::ConsumerData consumer;
        consumer.groupName = "groupB";
        consumer.subscriptionDataSet.push_back(remoting::SubscriptionData::build("topicA", "*"));
        heartbeat.consumerDataSet.push_back(consumer);
        RemotingCommand beat = RemotingCommand::createRequest(RequestCode::kHeartBeat);
        const std::string json = heartbeat.toJson();
        beat.body.assign(json.begin(), json.end());
        QCOMPARE_REFUSAL(acl.signedCall(beat), "No default permission for topic:topicA");
        heartbeat.consumerDataSet[0].subscriptionDataSet[0] = remoting::SubscriptionData::build("topicB", "*");
        const std::string allowed = heartbeat.toJson();
        beat.body.assign(allowed.begin(), allowed.end());
        QCOMPARE(acl.signedCall(beat).code, ResponseCode::kSuccess);

        // Admin-only codes need admin: true; the admin account's white address (192.168.1.*)
        // is not ours, so its signature is checked too.
        QCOMPARE_REFUSAL(acl.signedCall(createTopic("AdminMade")),
                         "Need admin permission for request code=17, but accessKey=RocketMQ is not");
        QCOMPARE_REFUSAL(acl.signedCall(createTopic("AdminMade"), "rocketmq2", "nope-nope"),
                         "Check signature failed for accessKey=rocketmq2");
        QCOMPARE(acl.signedCall(createTopic("AdminMade"), "rocketmq2").code, ResponseCode::kSuccess);
        QCOMPARE_REFUSAL(acl.signedCall(RemotingCommand::createRequest(RequestCode::kDeleteTopicInBroker,
                                                                       {{"topic", "AdminMade"}})),
                         "Need admin permission for request code=215, but accessKey=RocketMQ is not");

        // The NameServer checks the same accounts (Java 4.9's is open): a lookup needs a signed
        // request, a change of the NameServer an admin account.
        const auto atNamesrv = [&](RemotingCommand request, const char *accessKey, const char *secretKey) {
            if (accessKey)
                signByHand(request, accessKey, secretKey);
            return acl.broker().callAt(acl.broker().namesrvAddress(), request);
        };
        const RemotingCommand lookup =
            RemotingCommand::createRequest(RequestCode::kGetRouteinfoByTopic, {{"topic", "AdminMade"}});
        QCOMPARE_REFUSAL(atNamesrv(lookup, nullptr, nullptr), "No accessKey is configured");
        QCOMPARE(atNamesrv(lookup, "RocketMQ", "12345678").code, ResponseCode::kSuccess);
        const RemotingCommand wipe =
            RemotingCommand::createRequest(RequestCode::kWipeWritePermOfBroker, {{"brokerName", "broker-a"}});
        QCOMPARE_REFUSAL(atNamesrv(wipe, nullptr, nullptr), "No accessKey is configured");
        QCOMPARE_REFUSAL(atNamesrv(wipe, "RocketMQ", "12345678"),
                         "Need admin permission for request code=205, but accessKey=RocketMQ is not");
    }

    // What a low-privilege account did before every code went through the request table
    // (issue 29): RocketMQ signs in as "RocketMQ" (defaultTopicPerm DENY; topicA denied).
    void codesOutsideJavasSwitchAreCheckedToo()
    {
        AclBroker acl;
        std::string error;
        QVERIFY2(acl.broker().start(error), error.c_str());
        // The admin account (its white address is not ours: it signs) puts a message into topicA.
        QCOMPARE(acl.signedCall(createTopic("topicA"), "rocketmq2").code, ResponseCode::kSuccess);
        const RemotingCommand stored = acl.signedCall(sendV2("topicA"), "rocketmq2");
        QCOMPARE(stored.code, ResponseCode::kSuccess);
        const std::string msgId = stored.extFields.value("msgId");

        const auto reader = [](int32_t code) {
            return RemotingCommand::createRequest(
                code, {{"consumerGroup", "groupB"}, {"topic", "topicA"}, {"queueId", "0"}, {"queueOffset", "0"},
                       {"maxMsgNums", "32"}, {"sysFlag", "0"}, {"commitOffset", "0"}, {"suspendTimeoutMillis", "0"},
                       {"subVersion", "0"}, {"invisibleTime", "60000"}, {"pollTime", "0"}, {"bornTime", "0"},
                       {"initMode", "0"}, {"expType", "TAG"}, {"exp", "*"}});
        };
        for (int32_t code : {RequestCode::kLitePullMessage, RequestCode::kPeekMessage, RequestCode::kPopMessage,
                             RequestCode::kPullMessage})
            QCOMPARE_REFUSAL(acl.signedCall(reader(code)), "No default permission for topic:topicA");
        for (int32_t code : {RequestCode::kSendReplyMessage, RequestCode::kSendReplyMessageV2}) {
            RemotingCommand reply = sendV2("topicA");
            reply.code = code;
            if (code == RequestCode::kSendReplyMessage) {
                reply.extFields = {{"producerGroup", "PG"}, {"topic", "topicA"}, {"defaultTopic", "TBW102"},
                                   {"defaultTopicQueueNums", "4"}, {"queueId", "0"}, {"sysFlag", "0"},
                                   {"bornTimestamp", "1700000000000"}, {"flag", "0"}};
            }
            QCOMPARE_REFUSAL(acl.signedCall(reply), "No default permission for topic:topicA");
        }
        // Only the admin's message, once the dispatcher has put it in its queue (a loaded machine
        // may read before it did: seen once on a cold clean-clone run).
        acl.broker().controller().store().waitForDispatch();
        QCOMPARE(acl.broker().controller().store().maxOffsetInQueue("topicA", 0)
                     + acl.broker().controller().store().maxOffsetInQueue("topicA", 1),
                 int64_t{1});
        QCOMPARE_REFUSAL(acl.signedCall(RemotingCommand::createRequest(RequestCode::kViewMessageById,
                                                                       {{"topic", "topicA"}, {"offset", "0"}})),
                         "No default permission for topic:topicA");
        // Naming a topic it may read does not read another topic's message by offset; naming none
        // is refused before the processor.
        const RemotingCommand viaTopicB = acl.signedCall(
            RemotingCommand::createRequest(RequestCode::kViewMessageById, {{"topic", "topicB"}, {"offset", "0"}}));
        QVERIFY(viaTopicB.code != ResponseCode::kSuccess && viaTopicB.body.empty());
        QCOMPARE(acl.signedCall(RemotingCommand::createRequest(RequestCode::kViewMessageById, {{"offset", "0"}})).code,
                 ResponseCode::kNoPermission);
        // A group's retry topic is its group's, whatever group the pull names.
        QCOMPARE_REFUSAL(acl.signedCall(pull("%RETRY%groupA", "groupB")), "No default permission for group:groupA");
        // Resetting a group's offsets changes it: admin only.
        QCOMPARE_REFUSAL(acl.signedCall(RemotingCommand::createRequest(
                             RequestCode::kInvokeBrokerToResetOffset,
                             {{"topic", "topicB"}, {"group", "groupB"}, {"timestamp", "0"}, {"isForce", "true"}})),
                         "Need admin permission for request code=222, but accessKey=RocketMQ is not");
        // The NameServer: unsigned changes are refused; lookups never create topics.
        const std::string namesrv = acl.broker().namesrvAddress();
        for (int32_t code : {RequestCode::kWipeWritePermOfBroker, RequestCode::kUnregisterBroker,
                             RequestCode::kUpdateNamesrvConfig, RequestCode::kPutKvConfig}) {
            RemotingCommand change = RemotingCommand::createRequest(
                code, {{"brokerName", "broker-a"}, {"brokerAddr", acl.broker().brokerAddress()},
                       {"clusterName", "DefaultCluster"}, {"brokerId", "0"}, {"namespace", "ns"}, {"key", "k"},
                       {"value", "v"}});
            const std::string body = "brokerChannelExpiredTime=1";
            change.body.assign(body.begin(), body.end());
            QCOMPARE_REFUSAL(acl.broker().callAt(namesrv, change), "No accessKey is configured");
            signByHand(change, "RocketMQ", "12345678");
            QCOMPARE(acl.broker().callAt(namesrv, change).code, ResponseCode::kNoPermission);
        }
        for (int i = 0; i < 50; ++i) {
            RemotingCommand lookup =
                RemotingCommand::createRequest(RequestCode::kGetRouteinfoByTopic, {{"topic", "Typo" + std::to_string(i)}});
            signByHand(lookup, "RocketMQ", "12345678");
            QCOMPARE(acl.broker().callAt(namesrv, lookup).code, ResponseCode::kTopicNotExist);
        }
        QVERIFY(!acl.broker().controller().topics().find("Typo7"));
        // The broker is still registered and writable.
        RemotingCommand route = RemotingCommand::createRequest(RequestCode::kGetRouteinfoByTopic, {{"topic", "topicA"}});
        signByHand(route, "RocketMQ", "12345678");
        const RemotingCommand found = acl.broker().callAt(namesrv, route);
        QCOMPARE(found.code, ResponseCode::kSuccess);
        QVERIFY(test::bodyOf(found).find("\"perm\":6") != std::string::npos);
    }

    void whiteAddressesSkipTheSignatureAndChangesAreReloaded()
    {
        AclBroker acl;
        std::string error;
        QVERIFY2(acl.broker().start(error), error.c_str());
        QCOMPARE_REFUSAL(acl.broker().call(sendV2("topicB")), "No accessKey is configured");

        // The account's own white address: the AccessKey alone is enough (as Java).
        std::string yaml = kAclYaml;
        yaml.replace(yaml.find("whiteRemoteAddress: 192.168.1.*"), 31, "whiteRemoteAddress: 127.0.0.1");
        writeText(acl.aclPath(), yaml);
        RemotingCommand keyOnly = createTopic("WhiteMade");
        keyOnly.extFields.set("AccessKey", "rocketmq2");
        QTRY_COMPARE_WITH_TIMEOUT(acl.broker().call(keyOnly).code, ResponseCode::kSuccess, 10000);

        // A file that no longer parses keeps the rules in force.
        writeText(acl.aclPath(), "accounts: [unclosed\n");
        QTest::qWait(1200);
        QCOMPARE(acl.broker().call(keyOnly).code, ResponseCode::kSuccess);
        QCOMPARE_REFUSAL(acl.broker().call(sendV2("topicB")), "No accessKey is configured");

        // Everyone from loopback.
        writeText(acl.aclPath(), "globalWhiteRemoteAddresses:\n  - 127.0.0.*\n");
        QTRY_COMPARE_WITH_TIMEOUT(acl.broker().call(sendV2("topicB")).code, ResponseCode::kSuccess, 10000);
    }

    void clientSignsWithItsCredentials()
    {
        AclBroker acl;
        std::string error;
        QVERIFY2(acl.broker().start(error), error.c_str());
        const std::string broker = acl.broker().brokerAddress();
        remoting::TopicConfigData topic;
        topic.topicName = "ClientMade";
        topic.readQueueNums = topic.writeQueueNums = 2;

        client::ClientConfig config;
        config.namesrvAddr = acl.broker().namesrvAddress();
        {
            client::MQClientAPI anonymous(config);
            const client::Status status = anonymous.createTopic(broker, topic);
            QCOMPARE(status.code, ResponseCode::kNoPermission);
            QVERIFY2(status.error.find("No accessKey is configured") != std::string::npos, status.error.c_str());
        }
        config.credentials = {"rocketmq2", "12345678", ""};
        {
            client::MQClientAPI admin(config);
            const client::Status status = admin.createTopic(broker, topic);
            QVERIFY2(status.ok, status.error.c_str());
            QVERIFY(admin.getAllTopicConfig(broker).ok);
        }
        // A producer (heartbeats, routes, sends) with a non-admin account, to a PUB topic.
        config.credentials = {"RocketMQ", "12345678", ""};
        client::Producer producer(config, client::ProducerOptions{.group = "groupB"});
        const client::Status started = producer.start();
        QVERIFY2(started.ok, started.error.c_str());
        client::Message message;
        message.topic = "topicB";
        message.setBody("signed by the C++ client");
        const client::Result<client::SendResult> sent = producer.send(message);
        QVERIFY2(sent.ok, sent.error.c_str());
        message.topic = "topicC";
        const client::Result<client::SendResult> refused = producer.send(message);
        QVERIFY(!refused.ok);
        QVERIFY2(refused.error.find("No default permission for topic:topicC") != std::string::npos,
                 refused.error.c_str());
    }

    // A figure, not a limit: what checking one signed send costs the processor thread.
    void reportsTheCostOfACheck()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/plain_acl.yml";
        writeText(path, kAclYaml);
        acl::PlainAccessValidator validator(path);
        std::string error;
        QVERIFY2(validator.load(error), error.c_str());
        for (const size_t bodySize : {size_t{1024}, size_t{1024 * 1024}}) {
            RemotingCommand request = sendV2("topicB");
            request.body.assign(bodySize, 'x');
            signByHand(request, "RocketMQ", "12345678");
            const int rounds = bodySize > 4096 ? 200 : 20000;
            QElapsedTimer timer;
            timer.start();
            for (int i = 0; i < rounds; ++i) {
                std::vector<acl::Check> checks;
                QVERIFY(!acl::buildChecks(*acl::findRequestRule(request.code), request, "DefaultCluster", checks));
                QVERIFY(!validator.check(request, "127.0.0.1:5000", checks));
            }
            qInfo("ACL check of a signed SEND_MESSAGE_V2 with a %zu-byte body: %.2f us", bodySize,
                  static_cast<double>(timer.nsecsElapsed()) / 1000.0 / rounds);
        }
    }

    void aBrokerWithoutItsRulesDoesNotStart()
    {
        TestBroker missing([](server::BrokerSettings &settings) {
            settings.broker.aclEnable = true;
            settings.broker.plainAclFile = "/nonexistent/plain_acl.yml";
        });
        std::string error;
        QVERIFY(!missing.start(error));
        QVERIFY2(error.find("/nonexistent/plain_acl.yml") != std::string::npos, error.c_str());

        AclBroker broken("accounts:\n  - accessKey: RocketMQ\n    secretKey: short\n");
        QVERIFY(!broken.broker().start(error));
        QVERIFY2(error.find(broken.aclPath() + ":2: accounts[0]") != std::string::npos, error.c_str());

        // Without plainAclFile: <store>/conf/plain_acl.yml.
        TestBroker defaultPath([](server::BrokerSettings &settings) { settings.broker.aclEnable = true; });
        QVERIFY(!defaultPath.start(error));
        QVERIFY2(error.find(defaultPath.storeDir() + "/conf/plain_acl.yml") != std::string::npos, error.c_str());
        writeText(defaultPath.storeDir() + "/conf/plain_acl.yml", kAclYaml);
        QVERIFY2(defaultPath.start(error), error.c_str());
        QCOMPARE_REFUSAL(defaultPath.call(sendV2("topicB")), "No accessKey is configured");
    }
};

QObject *createAclTest() { return new AclTest; }
QObject *createAuthTest();

MQDESK_TEST_MAIN(createAclTest(), createAuthTest())
#include "tst_acl.moc"
