// ACL 2.0 over real sockets: the request table walked code by code against a broker and its
// NameServer with authentication and authorization on (unsigned, signed by a user the policies
// deny, signed by one they allow); the admin requests 3001–3010 with Java's bodies and answers;
// policies (exact, prefix, *, deny wins, source IPs, the Default policy), disabled users, Super
// rules, auth.json across a restart, and plain_acl.yml migrated.

#include "broker_test_util.h"
#include "test_support.h"

#include "broker/acl/acl_signer.h"
#include "broker/acl/auth_store.h"
#include "broker/acl/request_table.h"
#include "broker/common/json.h"
#include "broker/remoting/protocol/client_data.h"
#include "broker/remoting/protocol/lock_batch_body.h"

#include <sys/stat.h>

#include <filesystem>

using namespace mqdesk;
using namespace mqdesk::test;
using remoting::RemotingCommand;
using remoting::RequestCode;
using remoting::ResponseCode;

namespace {

constexpr const char *kRoot = "root";
constexpr const char *kRootPassword = "root-secret";

std::string bodyText(const RemotingCommand &command)
{
    return std::string(command.body.begin(), command.body.end());
}

void setBody(RemotingCommand &command, const std::string &text)
{
    command.body.assign(text.begin(), text.end());
}

RemotingCommand signedAs(RemotingCommand request, const std::string &user, const std::string &password)
{
    acl::signRequest(request, acl::Credentials{user, password, {}});
    return request;
}

// A request of `rule`'s code naming topic `topic` and group `group` wherever the rule reads a
// name (header fields and bodies), so the checks it builds are about them.
RemotingCommand requestNaming(const acl::RequestRule &rule, const std::string &topic, const std::string &group)
{
    RemotingCommand request = RemotingCommand::createRequest(rule.code);
    for (const acl::FieldCheck &field : rule.fields) {
        if (field.field.empty())
            continue;
        const std::string value = field.type == acl::ResourceType::Topic   ? topic
                                  : field.type == acl::ResourceType::Group ? group
                                                                           : std::string("DefaultCluster");
        request.extFields.set(std::string(field.field), value);
    }
    switch (rule.rule) {
    case acl::CheckRule::Heartbeat: {
        remoting::HeartbeatData heartbeat;
        heartbeat.clientId = "127.0.0.1@walk";
        remoting::ConsumerData consumer;
        consumer.groupName = group;
        consumer.subscriptionDataSet.push_back(remoting::SubscriptionData::build(topic, "*"));
        heartbeat.consumerDataSet.push_back(consumer);
        setBody(request, heartbeat.toJson());
        break;
    }
    case acl::CheckRule::LockBatch: {
        remoting::LockBatchRequestBody body;
        body.consumerGroup = group;
        body.clientId = "127.0.0.1@walk";
        body.mqSet.push_back({topic, "broker-a", 0});
        setBody(request, body.toJson());
        break;
    }
    case acl::CheckRule::BodyGroupTopic:
        setBody(request, R"({"consumerGroup":")" + group + R"(","group":")" + group + R"(","groupName":")" + group
                             + R"(","topic":")" + topic + R"("})");
        break;
    case acl::CheckRule::BatchAck:
        setBody(request, R"({"acks":[{"c":")" + group + R"(","t":")" + topic + R"("}]})");
        break;
    default:
        break;
    }
    return request;
}

// A broker with ACL 2.0 on: `root` (Super, from initAuthenticationUser).
class AuthBroker
{
public:
    explicit AuthBroker(const std::function<void(server::BrokerSettings &)> &more = {})
        : broker_([&](server::BrokerSettings &settings) {
            settings.broker.authenticationEnabled = true;
            settings.broker.authorizationEnabled = true;
            settings.broker.initAuthenticationUser = std::string(R"({"username":")") + kRoot + R"(","password":")"
                                                     + kRootPassword + R"("})";
            if (more)
                more(settings);
        })
    {
    }
    TestBroker &broker() { return broker_; }

    RemotingCommand asRoot(RemotingCommand request) { return broker_.call(signedAs(std::move(request), kRoot, kRootPassword)); }
    RemotingCommand as(const std::string &user, const std::string &password, RemotingCommand request)
    {
        return broker_.call(signedAs(std::move(request), user, password));
    }

    void createUser(const std::string &name, const std::string &password, const std::string &type = "Normal")
    {
        RemotingCommand request = RemotingCommand::createRequest(RequestCode::kAuthCreateUser, {{"username", name}});
        setBody(request, R"({"username":")" + name + R"(","password":")" + password + R"(","userType":")" + type
                             + R"(","userStatus":"enable"})");
        const RemotingCommand answer = asRoot(request);
        QCOMPARE(answer.code, ResponseCode::kSuccess);
    }
    // One Custom entry: mqadmin createAcl -s User:<name> -r <resource> -a <actions> -d <decision> [-i ips].
    RemotingCommand createAcl(const std::string &name, const std::string &resource, const std::string &actions,
                              const std::string &decision, const std::string &ips = {})
    {
        RemotingCommand request =
            RemotingCommand::createRequest(RequestCode::kAuthCreateAcl, {{"subject", "User:" + name}});
        std::string actionList;
        for (const char *a : {"Pub", "Sub", "Get", "Update", "Create", "Delete", "All"})
            if (actions.find(a) != std::string::npos)
                actionList += std::string(actionList.empty() ? "" : ",") + "\"" + a + "\"";
        setBody(request, R"({"policies":[{"entries":[{"actions":[)" + actionList + R"(],"decision":")" + decision
                             + R"(","resource":")" + resource + "\"" + (ips.empty() ? "" : R"(,"sourceIps":[")" + ips + "\"]")
                             + R"(}]}],"subject":"User:)" + name + R"("})");
        return asRoot(request);
    }

private:
    TestBroker broker_;
};

bool isDenied(const RemotingCommand &answer)
{
    return answer.code == ResponseCode::kNoPermission;
}

// Refused by the access gate, not by the processor (whose answers may also be NO_PERMISSION,
// e.g. AUTH_DELETE_USER's "username can not be blank").
bool deniedByGate(const RemotingCommand &answer)
{
    if (!isDenied(answer))
        return false;
    const std::string remark = answer.remark.value_or("");
    for (const char *gateWords : {"has no permission", "check signature failed", "cannot be null", "is not found",
                                  "is disabled", "Authorization failed", "parse authorization context"})
        if (remark.find(gateWords) != std::string::npos)
            return true;
    return false;
}

// The docs' table (docs/request-authorization.md between its markers), rendered from the table.
std::string markdownOfTheTable()
{
    const auto served = [](uint8_t where) -> std::string {
        if (where == (acl::served::kBroker | acl::served::kNamesrv))
            return "broker, namesrv";
        if (where & acl::served::kBroker)
            return "broker";
        if (where & acl::served::kNamesrv)
            return "namesrv";
        return "refused (not served)";
    };
    const auto fields = [](const acl::RequestRule &rule) {
        std::string text;
        for (const acl::FieldCheck &field : rule.fields) {
            if (field.field.empty())
                continue;
            text += std::string(text.empty() ? "" : "; ") + std::string(acl::resourceTypeName(field.type)) + " ← `"
                    + std::string(field.field) + "`" + (field.splitter ? std::string(" (split on `") + field.splitter + "`)" : "");
        }
        return text;
    };
    std::string out = "| code | name | MQDesk | what is checked | actions | Java 5.5, where it differs |\n"
                      "|---:|---|---|---|---|---|\n";
    for (const acl::RequestRule &rule : acl::requestRules()) {
        std::string checks;
        switch (rule.rule) {
        case acl::CheckRule::Fields: checks = fields(rule) + (rule.ownClusterIfNone ? " (own cluster if absent)" : ""); break;
        case acl::CheckRule::OwnCluster: checks = "Cluster ← own cluster"; break;
        case acl::CheckRule::Send: checks = fields(rule) + "; `%RETRY%G` → Group G, Sub"; break;
        case acl::CheckRule::Pull: checks = fields(rule) + "; `%RETRY%G` → Group G (Java: no topic check)"; break;
        case acl::CheckRule::Heartbeat: checks = "body: each consumer group, each subscribed topic"; break;
        case acl::CheckRule::LockBatch: checks = "body: `consumerGroup`, each queue's topic"; break;
        case acl::CheckRule::RouteLookup: checks = fields(rule) + "; `%RETRY%G` → Group G, Sub or Get"; break;
        case acl::CheckRule::BodyGroupTopic: checks = "body: " + fields(rule); break;
        case acl::CheckRule::BatchAck: checks = "body: each ack's group and topic"; break;
        case acl::CheckRule::ServerToClient: checks = "refused: sent by brokers to clients"; break;
        case acl::CheckRule::None: checks = "none (authentication only)"; break;
        }
        if (rule.blankUnchecked)
            checks += "; a blank value is not checked";
        out += "| " + std::to_string(rule.code) + " | `" + std::string(rule.name) + "` | " + served(rule.servedBy) + " | "
               + checks + " | " + (rule.actions ? acl::actionNames(rule.actions) : std::string("—")) + " | "
               + std::string(rule.java) + " |\n";
    }
    return out;
}

class AuthTest : public QObject
{
    Q_OBJECT

private slots:
    void theTableIsSortedAndKnowsEveryNamedCode()
    {
        const auto rules = acl::requestRules();
        QVERIFY(rules.size() >= 171);
        for (size_t i = 1; i < rules.size(); ++i)
            QVERIFY2(rules[i - 1].code < rules[i].code, std::to_string(rules[i].code).c_str());
        for (const acl::RequestRule &rule : rules) {
            QCOMPARE(acl::findRequestRule(rule.code), &rule);
            // What is served is checked; only the NameServer's reads and client-bound codes are not.
            if (rule.servedBy & acl::served::kBroker)
                QVERIFY2(rule.rule != acl::CheckRule::None && rule.rule != acl::CheckRule::ServerToClient,
                         std::string(rule.name).c_str());
        }
        // 4.x ACL 1.0 admin codes are gone from 5.5: unknown, so refused.
        for (int32_t code : {50, 51, 52, 53, 999, 123456})
            QVERIFY(!acl::findRequestRule(code));
    }

    // docs/request-authorization.md shows the table itself; MQDESK_WRITE_DOCS=1 rewrites it.
    void theDocsShowTheTable()
    {
        const std::filesystem::path docs =
            std::filesystem::path(MQDESK_PROJECT_FIXTURES_DIR).parent_path().parent_path() / "docs/request-authorization.md";
        QVERIFY2(std::filesystem::exists(docs), docs.c_str());
        const std::vector<uint8_t> bytes = test::readFile(docs.string());
        std::string text(bytes.begin(), bytes.end());
        const std::string begin = "<!-- request table: begin -->\n", end = "<!-- request table: end -->";
        const size_t from = text.find(begin), to = text.find(end);
        QVERIFY2(from != std::string::npos && to != std::string::npos, "markers missing");
        const std::string expected = markdownOfTheTable();
        const std::string shown = text.substr(from + begin.size(), to - from - begin.size());
        if (shown != expected && qEnvironmentVariableIsSet("MQDESK_WRITE_DOCS")) {
            text.replace(from + begin.size(), to - from - begin.size(), expected);
            test::writeFile(docs.string(), std::vector<uint8_t>(text.begin(), text.end()));
            return;
        }
        QVERIFY2(shown == expected, "docs/request-authorization.md is stale: run tst_broker_acl theDocsShowTheTable "
                                    "with MQDESK_WRITE_DOCS=1");
    }

    // The broker answers exactly the codes the table says it serves; everything else is refused
    // with REQUEST_CODE_NOT_SUPPORTED before any processor runs. Then every served code, as
    // nobody, as a user no policy allows, and as a Super user.
    void everyCodeUnsignedDeniedAndAllowedAtTheBroker()
    {
        AuthBroker auth;
        std::string error;
        QVERIFY2(auth.broker().start(error), error.c_str());
        auth.createUser("bob", "bob-secret");
        for (const acl::RequestRule &rule : acl::requestRules()) {
            const RemotingCommand request = requestNaming(rule, "Secret", "SecretGroup");
            const QByteArray what = QByteArray::fromStdString(std::string(rule.name) + "(" + std::to_string(rule.code) + ")");
            const RemotingCommand anonymous = auth.broker().call(request);
            if (!(rule.servedBy & acl::served::kBroker)) {
                QVERIFY2(anonymous.code == ResponseCode::kRequestCodeNotSupported, what.constData());
                continue;
            }
            QVERIFY2(isDenied(anonymous), what.constData());
            std::vector<acl::Check> checks;
            QVERIFY2(!acl::buildChecks(rule, request, "DefaultCluster", checks), what.constData());
            QVERIFY2(!checks.empty(), what.constData());
            const RemotingCommand denied = auth.as("bob", "bob-secret", request);
            QVERIFY2(isDenied(denied), (what + " " + QByteArray::fromStdString(denied.remark.value_or(""))).constData());
            const RemotingCommand allowed = auth.asRoot(request);
            QVERIFY2(!deniedByGate(allowed) && allowed.code != ResponseCode::kRequestCodeNotSupported,
                     (what + " " + QByteArray::fromStdString(allowed.remark.value_or(""))).constData());
        }
        for (int32_t code : {50, 13, 301, 200072, 777})
            QCOMPARE(auth.asRoot(RemotingCommand::createRequest(code)).code, ResponseCode::kRequestCodeNotSupported);
    }

    void everyCodeAtTheNamesrv()
    {
        AuthBroker auth;
        std::string error;
        QVERIFY2(auth.broker().start(error), error.c_str());
        auth.createUser("bob", "bob-secret");
        auto &broker = auth.broker();
        for (const acl::RequestRule &rule : acl::requestRules()) {
            const RemotingCommand request = requestNaming(rule, "Secret", "SecretGroup");
            const QByteArray what = QByteArray::fromStdString(std::string(rule.name));
            const RemotingCommand anonymous = broker.callAt(broker.namesrvAddress(), request);
            if (!(rule.servedBy & acl::served::kNamesrv)) {
                QVERIFY2(anonymous.code == ResponseCode::kRequestCodeNotSupported, what.constData());
                continue;
            }
            QVERIFY2(isDenied(anonymous), what.constData());
            std::vector<acl::Check> checks;
            QVERIFY(!acl::buildChecks(rule, request, "DefaultCluster", checks));
            const bool changesIt = std::any_of(checks.begin(), checks.end(), [](const acl::Check &c) {
                return c.type == acl::ResourceType::Cluster && (c.actions & acl::action::kUpdate);
            });
            const RemotingCommand byBob = broker.callAt(broker.namesrvAddress(), signedAs(request, "bob", "bob-secret"));
            QVERIFY2(isDenied(byBob) == changesIt, what.constData());
            const RemotingCommand byRoot =
                broker.callAt(broker.namesrvAddress(), signedAs(request, kRoot, kRootPassword));
            QVERIFY2(!deniedByGate(byRoot), what.constData());
        }
    }

    void policiesDecideAsJavaDoes()
    {
        AuthBroker auth;
        std::string error;
        QVERIFY2(auth.broker().start(error), error.c_str());
        auth.createUser("alice", "alice-secret");
        QCOMPARE(auth.createAcl("alice", "Topic:orders", "Pub", "Allow").code, ResponseCode::kSuccess);
        QCOMPARE(auth.createAcl("alice", "Topic:ord*", "Sub", "Allow").code, ResponseCode::kSuccess);
        QCOMPARE(auth.createAcl("alice", "Topic:ordersSecret", "All", "Deny").code, ResponseCode::kSuccess);
        QCOMPARE(auth.createAcl("alice", "Group:g*", "Sub", "Allow").code, ResponseCode::kSuccess);
        QCOMPARE(auth.createAcl("alice", "Topic:far", "Pub", "Allow", "10.0.0.0/8").code, ResponseCode::kSuccess);
        QCOMPARE(auth.createAcl("alice", "Topic:near", "Pub", "Allow", "127.0.0.1").code, ResponseCode::kSuccess);

        const auto route = [](const std::string &topic) {
            return RemotingCommand::createRequest(RequestCode::kGetTopicStatsInfo, {{"topic", topic}});
        };
        const auto send = [](const std::string &topic) {
            return RemotingCommand::createRequest(RequestCode::kSendMessageV2, {{"a", "PG"}, {"b", topic}});
        };
        const auto pop = [](const std::string &topic, const std::string &group) {
            return RemotingCommand::createRequest(RequestCode::kPopMessage, {{"topic", topic}, {"consumerGroup", group}});
        };
        QVERIFY(!isDenied(auth.as("alice", "alice-secret", send("orders"))));
        QVERIFY(isDenied(auth.as("alice", "alice-secret", send("orders2")))); // prefix grants Sub only
        QVERIFY(!isDenied(auth.as("alice", "alice-secret", pop("orders2", "g1"))));
        QVERIFY(isDenied(auth.as("alice", "alice-secret", pop("orders2", "h1"))));     // group not granted
        QVERIFY(isDenied(auth.as("alice", "alice-secret", pop("ordersSecret", "g1")))); // literal deny wins
        QVERIFY(isDenied(auth.as("alice", "alice-secret", route("orders"))));          // Get not granted
        QVERIFY(isDenied(auth.as("alice", "alice-secret", send("far"))));              // not from 10/8
        QVERIFY(!isDenied(auth.as("alice", "alice-secret", send("near"))));
        const RemotingCommand denied = auth.as("alice", "alice-secret", send("other"));
        QCOMPARE(QString::fromStdString(denied.remark.value_or("")),
                 QStringLiteral("alice has no permission to access Topic:other from 127.0.0.1, no matched policies."));

        // A wrong signature, an unknown user, a disabled user.
        QCOMPARE(auth.as("alice", "wrong", send("orders")).remark, std::optional<std::string>("check signature failed."));
        QCOMPARE(auth.as("nobody", "x", send("orders")).remark, std::optional<std::string>("User:nobody is not found."));
        RemotingCommand disable = RemotingCommand::createRequest(RequestCode::kAuthUpdateUser, {{"username", "alice"}});
        setBody(disable, R"({"username":"alice","userStatus":"disable"})");
        QCOMPARE(auth.asRoot(disable).code, ResponseCode::kSuccess);
        QCOMPARE(auth.as("alice", "alice-secret", send("orders")).remark,
                 std::optional<std::string>("User:alice is disabled."));
    }

    void adminRequestsAnswerAsJava()
    {
        AuthBroker auth;
        std::string error;
        QVERIFY2(auth.broker().start(error), error.c_str());
        auth.createUser("carol", "carol-secret");
        RemotingCommand again = RemotingCommand::createRequest(RequestCode::kAuthCreateUser, {{"username", "carol"}});
        setBody(again, R"({"username":"carol","password":"x"})");
        QCOMPARE(auth.asRoot(again).remark, std::optional<std::string>("The user is existed"));

        const RemotingCommand got = auth.asRoot(RemotingCommand::createRequest(RequestCode::kAuthGetUser, {{"username", "carol"}}));
        QCOMPARE(got.code, ResponseCode::kSuccess);
        QCOMPARE(bodyText(got),
                 std::string(R"({"username":"carol","password":"carol-secret","userType":"Normal","userStatus":"enable"})"));
        const RemotingCommand unknown = auth.asRoot(RemotingCommand::createRequest(RequestCode::kAuthGetUser, {{"username", "zed"}}));
        QCOMPARE(unknown.code, ResponseCode::kSuccess);
        QVERIFY(unknown.body.empty());
        const RemotingCommand listed = auth.asRoot(RemotingCommand::createRequest(RequestCode::kAuthListUser, {{"filter", "car"}}));
        QVERIFY2(bodyText(listed).starts_with(R"([{"username":"carol")"), bodyText(listed).c_str());

        // A Normal user with Cluster Update may manage users, but never a Super one.
        QCOMPARE(auth.createAcl("carol", "Cluster:DefaultCluster", "Update,Get", "Allow").code, ResponseCode::kSuccess);
        RemotingCommand makeSuper = RemotingCommand::createRequest(RequestCode::kAuthCreateUser, {{"username", "eve"}});
        setBody(makeSuper, R"({"username":"eve","password":"eve-secret","userType":"Super"})");
        QCOMPARE(auth.as("carol", "carol-secret", makeSuper).remark,
                 std::optional<std::string>("The super user can only be create by super user"));
        QCOMPARE(auth.as("carol", "carol-secret",
                         RemotingCommand::createRequest(RequestCode::kAuthDeleteUser, {{"username", kRoot}}))
                     .remark,
                 std::optional<std::string>("The super user can only be update by super user"));

        const RemotingCommand acl = auth.asRoot(RemotingCommand::createRequest(RequestCode::kAuthGetAcl, {{"subject", "User:carol"}}));
        QCOMPARE(bodyText(acl), std::string(R"({"subject":"User:carol","policies":[{"policyType":"Custom","entries":[)"
                                            R"({"resource":"Cluster:DefaultCluster","actions":["Update","Get"],"decision":"Allow"}]}]})"));
        const RemotingCommand all = auth.asRoot(RemotingCommand::createRequest(RequestCode::kAuthListAcl, {{"resourceFilter", "Cluster"}}));
        QVERIFY2(bodyText(all).find("User:carol") != std::string::npos, bodyText(all).c_str());
        QCOMPARE(auth.asRoot(RemotingCommand::createRequest(RequestCode::kAuthDeleteAcl,
                                                            {{"subject", "User:carol"}, {"resource", "Cluster:DefaultCluster"}}))
                     .code,
                 ResponseCode::kSuccess);
        QCOMPARE(auth.asRoot(RemotingCommand::createRequest(RequestCode::kAuthDeleteAcl, {{"subject", "User:carol"}})).remark,
                 std::optional<std::string>("The acl is not exist."));
        QCOMPARE(auth.createAcl("nobody", "Topic:x", "Pub", "Allow").remark,
                 std::optional<std::string>("The subject of User:nobody is not exist."));
        QCOMPARE(auth.createAcl("carol", "Topic:x", "Pub", "Allow", "not-an-ip").remark,
                 std::optional<std::string>("The source ip is invalid."));

        // Kept across a restart, in a file only the broker's user reads.
        QVERIFY2(auth.broker().restart(error), error.c_str());
        const std::string file = auth.broker().storeDir() + "/config/auth.json";
        struct stat info {};
        QCOMPARE(::stat(file.c_str(), &info), 0);
        QCOMPARE(info.st_mode & 0777, 0600u);
        QVERIFY(auth.asRoot(RemotingCommand::createRequest(RequestCode::kAuthGetUser, {{"username", "carol"}})).body.size() > 0);
        QCOMPARE(auth.asRoot(RemotingCommand::createRequest(RequestCode::kAuthDeleteUser, {{"username", "carol"}})).code,
                 ResponseCode::kSuccess);
        QVERIFY(auth.asRoot(RemotingCommand::createRequest(RequestCode::kAuthGetUser, {{"username", "carol"}})).body.empty());
    }

    // A second broker registers with the first one's NameServer signed with
    // innerClientAuthenticationCredentials (Java's BrokerOuterAPI); one without them is refused.
    void brokersRegisterWithTheirInnerCredentials()
    {
        const std::string inner = R"({"accessKey":"brokerInner","secretKey":"inner-secret"})";
        AuthBroker first([&](server::BrokerSettings &settings) {
            settings.broker.innerClientAuthenticationCredentials = inner;
        });
        std::string error;
        QVERIFY2(first.broker().start(error), error.c_str());
        const auto second = [&](const std::string &credentials, const char *name, QTemporaryDir &dir) {
            server::EmbeddedBrokerOptions options;
            options.startNamesrv = false;
            options.settings.store.storePathRootDir = dir.path().toStdString();
            options.settings.store.listenPort = 0;
            options.settings.store.mappedFileSizeCommitLog = 16 * 1024 * 1024;
            options.settings.broker.brokerName = name;
            options.settings.broker.namesrvAddr = first.broker().namesrvAddress();
            options.settings.broker.authenticationEnabled = true;
            options.settings.broker.authorizationEnabled = true;
            options.settings.broker.innerClientAuthenticationCredentials = credentials;
            return std::make_unique<server::EmbeddedBroker>(options);
        };
        const auto clusterInfo = [&] {
            return bodyText(first.broker().callAt(
                first.broker().namesrvAddress(),
                signedAs(RemotingCommand::createRequest(RequestCode::kGetBrokerClusterInfo), kRoot, kRootPassword)));
        };
        QTemporaryDir dirB, dirC;
        auto b = second(inner, "broker-b", dirB);
        QVERIFY2(b->start(error), error.c_str());
        QVERIFY2(clusterInfo().find("broker-b") != std::string::npos, clusterInfo().c_str());
        auto c = second({}, "broker-c", dirC);
        QVERIFY2(c->start(error), error.c_str());
        QVERIFY2(clusterInfo().find("broker-c") == std::string::npos, clusterInfo().c_str());
    }

    void plainAclIsMigrated()
    {
        QTemporaryDir dir;
        const std::string yaml = dir.path().toStdString() + "/plain_acl.yml";
        const std::string text = "accounts:\n  - accessKey: legacyUser\n    secretKey: legacy-secret\n    admin: false\n"
                                 "    defaultTopicPerm: DENY\n    defaultGroupPerm: SUB\n    topicPerms:\n"
                                 "      - shared=PUB|SUB\n    groupPerms:\n      - gA=DENY\n";
        test::writeFile(yaml, std::vector<uint8_t>(text.begin(), text.end()));
        AuthBroker auth([&](server::BrokerSettings &settings) {
            settings.broker.migrateAuthFromV1Enabled = true;
            settings.broker.plainAclFile = yaml;
        });
        std::string error;
        QVERIFY2(auth.broker().start(error), error.c_str());
        const auto pop = [](const std::string &topic, const std::string &group) {
            return RemotingCommand::createRequest(RequestCode::kPopMessage, {{"topic", topic}, {"consumerGroup", group}});
        };
        QVERIFY(!isDenied(auth.as("legacyUser", "legacy-secret", pop("shared", "gB"))));
        QVERIFY(isDenied(auth.as("legacyUser", "legacy-secret", pop("shared", "gA"))));
        QVERIFY(isDenied(auth.as("legacyUser", "legacy-secret", pop("other", "gB"))));
    }
};

} // namespace

QObject *createAuthTest() { return new AuthTest; }

#include "tst_auth.moc"
