// mqdesk-admin's network commands run for real against a real mqdesk-broker process (NameServer
// + broker on free ports, autoCreateTopicEnable=false so that an unknown topic stays unknown):
// one test per command with its output, its --json form and its failures — unknown topic or
// group, a missing or bad flag, an unreachable NameServer.

#include "broker/client/admin_client.h"
#include "broker/client/pull_consumer.h"
#include "json_lines.h"
#include "test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>

using namespace mqdesk;
using mqdesk::test::jsonLines;

namespace {

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};


QString s(const char *text) { return QString::fromUtf8(text); }

} // namespace

class MqdeskAdminClusterTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QProcess broker_;
    QString namesrv_;
    QString brokerAddr_;
    std::unique_ptr<client::PullConsumer> consumer_; // CG_ONLINE, online for the whole run
    QJsonObject sent_;                                // sendMessage's answer for TopicA "body 0"

    Run admin(const QStringList &arguments, const QString &namesrv = {})
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(s("NAMESRV_ADDR"));
        if (!namesrv.isEmpty())
            env.insert(s("NAMESRV_ADDR"), namesrv);
        process.setProcessEnvironment(env);
        process.start(s(MQDESK_ADMIN_PATH), arguments);
        // A command that never gives up is killed and answers -1, which no test accepts.
        if (!process.waitForFinished(30000))
            process.kill();
        process.waitForFinished(5000);
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                process.readAllStandardOutput(), process.readAllStandardError()};
    }

    // `arguments` after "-n <namesrv>".
    Run cmd(const QStringList &arguments) { return admin(QStringList{s("-n"), namesrv_} + arguments); }

    client::ClientConfig clientConfig() const
    {
        client::ClientConfig config;
        config.namesrvAddr = namesrv_.toStdString();
        return config;
    }

    static QByteArray describe(const Run &run)
    {
        return "exit " + QByteArray::number(run.exitCode) + "\nstdout: " + run.out + "\nstderr: " + run.err;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        const QString conf = dir_.filePath(s("broker.conf"));
        {
            QFile file(conf);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("autoCreateTopicEnable=false\n");
        }
        broker_.start(s(MQDESK_BROKER_PATH), {s("-c"), conf, s("--store"), dir_.filePath(s("store")),
                                              s("--namesrv-port"), s("0"), s("--broker-port"), s("0")});
        static const QRegularExpression ready(s(R"(^mqdesk-broker ready: namesrv=(\S+) broker=(\S+) store=(\S+) grpc=(\S+)$)"));
        QElapsedTimer timer;
        timer.start();
        while (namesrv_.isEmpty() && timer.elapsed() < 20000 && broker_.state() != QProcess::NotRunning) {
            if (!broker_.canReadLine()) {
                broker_.waitForReadyRead(100);
                continue;
            }
            const auto match = ready.match(QString::fromUtf8(broker_.readLine()).trimmed());
            if (match.hasMatch()) {
                namesrv_ = match.captured(1);
                brokerAddr_ = match.captured(2);
            }
        }
        QVERIFY2(!namesrv_.isEmpty(), broker_.readAllStandardError().constData());

        // TopicA: 4 queues, "body 0".."body 5" with keys key0..key5, two per queue 0..2.
        const Run create = cmd({s("updateTopic"), s("-t"), s("TopicA"), s("-c"), s("DefaultCluster"), s("-r"), s("4"),
                                s("-w"), s("4")});
        QVERIFY2(create.exitCode == 0, describe(create));
        for (int i = 0; i < 6; ++i) {
            const Run send = cmd({s("sendMessage"), s("-t"), s("TopicA"), s("-p"), s("body %1").arg(i), s("-k"),
                                  s("key%1").arg(i), s("-c"), s("Tag%1").arg(i % 2), s("-b"), s("broker-a"), s("-i"),
                                  QString::number(i / 2), s("--json")});
            QVERIFY2(send.exitCode == 0, describe(send));
            if (i == 0)
                sent_ = jsonLines(send.out).value(0);
        }
        QCOMPARE(sent_.value(s("sendStatus")).toString(), s("SEND_OK"));

        // CG_ONLINE: online, has consumed one message of queue 0 (lag 5).
        consumer_ = std::make_unique<client::PullConsumer>(clientConfig(), client::PullConsumerOptions{"CG_ONLINE"});
        QVERIFY(consumer_->subscribe("TopicA").ok);
        QVERIFY(consumer_->start().ok);
        for (int q = 0; q < 4; ++q)
            QVERIFY(consumer_->updateConsumeOffset({"TopicA", "broker-a", q}, q == 0 ? 1 : (q < 3 ? 2 : 0)).ok);
        // CG_OFFLINE: committed offsets, then gone.
        client::PullConsumer offline(clientConfig(), client::PullConsumerOptions{"CG_OFFLINE"});
        QVERIFY(offline.subscribe("TopicA").ok);
        QVERIFY(offline.start().ok);
        for (int q = 0; q < 4; ++q)
            QVERIFY(offline.updateConsumeOffset({"TopicA", "broker-a", q}, q < 3 ? 2 : 0).ok);
        offline.shutdown();
    }

    void cleanupTestCase()
    {
        if (consumer_)
            consumer_->shutdown();
        broker_.terminate();
        if (!broker_.waitForFinished(10000))
            broker_.kill();
    }

    void globalOptionsAndUsage()
    {
        // -n after the command (mqadmin's order) and NAMESRV_ADDR work like -n before it.
        QCOMPARE(admin({s("topicList"), s("-n"), namesrv_}).exitCode, 0);
        const Run fromEnv = admin({s("topicList")}, namesrv_);
        QVERIFY2(fromEnv.exitCode == 0 && fromEnv.out.contains("TopicA"), describe(fromEnv));

        const Run noNamesrv = admin({s("topicList")});
        QCOMPARE(noNamesrv.exitCode, 2);
        QVERIFY(noNamesrv.err.contains("NAMESRV_ADDR"));

        const Run unknown = cmd({s("topicLsit")});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY(unknown.err.contains("unknown command 'topicLsit'"));

        const Run missing = cmd({s("topicRoute")});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains("--topic"), missing.err.constData());

        const Run help = admin({s("--help")});
        QCOMPARE(help.exitCode, 0);
        for (const char *name : {"clusterList", "consumerProgress", "queryMsgByOffset", "updateBrokerConfig", "store"})
            QVERIFY2(help.out.contains(name), name);
    }

    void unreachableNamesrv()
    {
        const QList<QStringList> commands{{s("clusterList")},
                                          {s("topicList")},
                                          {s("topicStatus"), s("-t"), s("TopicA")},
                                          {s("consumerProgress"), s("-g"), s("CG_ONLINE")},
                                          {s("sendMessage"), s("-t"), s("TopicA"), s("-p"), s("x")},
                                          {s("brokerStatus"), s("-c"), s("DefaultCluster")}};
        for (const QStringList &command : commands) {
            const Run run = admin(QStringList{s("-n"), s("127.0.0.1:1")} + command);
            QVERIFY2(run.exitCode == 1, describe(run));
            QVERIFY2(run.err.contains("127.0.0.1:1") && run.err.count('\n') == 1, run.err.constData());
            QVERIFY2(run.err.startsWith("mqdesk-admin " + command.first().toUtf8() + ": "), run.err.constData());
            QVERIFY(run.out.isEmpty());
        }
    }

    void clusterList()
    {
        const Run table = cmd({s("clusterList"), s("-m")});
        QVERIFY2(table.exitCode == 0, describe(table));
        QVERIFY(table.out.contains("#Cluster Name") && table.out.contains("#InTotalToday"));
        QVERIFY(table.out.contains("DefaultCluster") && table.out.contains(brokerAddr_.toUtf8()));

        const QList<QJsonObject> json = jsonLines(cmd({s("--json"), s("clusterList")}).out);
        QCOMPARE(json.size(), 1);
        QCOMPARE(json[0].value(s("brokerName")).toString(), s("broker-a"));
        QCOMPARE(json[0].value(s("addr")).toString(), brokerAddr_);
        QCOMPARE(json[0].value(s("brokerId")).toInt(), 0);
        QVERIFY(json[0].value(s("reachable")).toBool());
        QVERIFY(!json[0].value(s("version")).toString().isEmpty());
        QVERIFY(json[0].value(s("inTotalToday")).toInteger() >= 6);

        const Run noCluster = cmd({s("clusterList"), s("-c"), s("NoSuchCluster")});
        QCOMPARE(noCluster.exitCode, 1);
        QVERIFY(noCluster.err.contains("NoSuchCluster"));
    }

    void topicList()
    {
        const Run plain = cmd({s("topicList")});
        QVERIFY2(plain.exitCode == 0, describe(plain));
        QVERIFY(plain.out.split('\n').contains("TopicA"));

        const QList<QJsonObject> json = jsonLines(cmd({s("topicList"), s("-c"), s("--json")}).out);
        const auto topicA = std::find_if(json.begin(), json.end(),
                                         [](const QJsonObject &o) { return o.value(s("topic")).toString() == s("TopicA"); });
        QVERIFY(topicA != json.end());
        QCOMPARE(topicA->value(s("clusters")).toArray().first().toString(), s("DefaultCluster"));
        QVERIFY(topicA->value(s("groups")).toArray().contains(s("CG_ONLINE")));
    }

    void topicRoute()
    {
        const Run table = cmd({s("topicRoute"), s("-t"), s("TopicA")});
        QVERIFY2(table.exitCode == 0, describe(table));
        QVERIFY(table.out.contains("broker-a") && table.out.contains(brokerAddr_.toUtf8()));

        const QList<QJsonObject> json = jsonLines(cmd({s("topicRoute"), s("-t"), s("TopicA"), s("--json")}).out);
        QCOMPARE(json.size(), 1);
        const QJsonObject queue = json[0].value(s("queueDatas")).toArray().first().toObject();
        QCOMPARE(queue.value(s("writeQueueNums")).toInt(), 4);
        QCOMPARE(queue.value(s("perm")).toInt(), 6);

        const Run unknown = cmd({s("topicRoute"), s("-t"), s("NoSuchTopic")});
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY2(unknown.err.contains("NoSuchTopic") && unknown.err.contains(namesrv_.toUtf8()), unknown.err.constData());
    }

    void topicStatus()
    {
        const Run table = cmd({s("topicStatus"), s("-t"), s("TopicA")});
        QVERIFY2(table.exitCode == 0, describe(table));
        QVERIFY(table.out.contains("#Max Offset"));

        const QList<QJsonObject> json = jsonLines(cmd({s("topicStatus"), s("-t"), s("TopicA"), s("--json")}).out);
        QCOMPARE(json.size(), 4);
        for (const QJsonObject &queue : json) {
            QCOMPARE(queue.value(s("maxOffset")).toInteger(), queue.value(s("queueId")).toInt() < 3 ? 2 : 0);
            QCOMPARE(queue.value(s("lastUpdateTimestamp")).toInteger() > 0, queue.value(s("queueId")).toInt() < 3);
        }

        const Run unknown = cmd({s("topicStatus"), s("-t"), s("NoSuchTopic")});
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY(unknown.err.contains("NoSuchTopic"));
    }

    void updateTopic()
    {
        const Run byBroker = cmd({s("updateTopic"), s("-t"), s("TopicB"), s("-b"), brokerAddr_, s("-r"), s("2"), s("-w"),
                                  s("2"), s("--json")});
        QVERIFY2(byBroker.exitCode == 0, describe(byBroker));
        const QJsonObject created = jsonLines(byBroker.out).value(0);
        QCOMPARE(created.value(s("brokerAddr")).toString(), brokerAddr_);
        QCOMPARE(created.value(s("writeQueueNums")).toInt(), 2);

        const Run byCluster = cmd({s("updateTopic"), s("-t"), s("TopicC"), s("-c"), s("DefaultCluster"), s("-r"), s("3"),
                                   s("-w"), s("3"), s("-p"), s("4"), s("-o"), s("true")});
        QVERIFY2(byCluster.exitCode == 0, describe(byCluster));
        QVERIFY(byCluster.out.contains("create topic to " + brokerAddr_.toUtf8() + " success."));
        const QJsonObject queue = jsonLines(cmd({s("topicRoute"), s("-t"), s("TopicC"), s("--json")}).out)
                                      .value(0).value(s("queueDatas")).toArray().first().toObject();
        QCOMPARE(queue.value(s("writeQueueNums")).toInt(), 3);
        QCOMPARE(queue.value(s("perm")).toInt(), 4);

        QCOMPARE(cmd({s("updateTopic"), s("-t"), s("TopicB")}).exitCode, 2);                       // no -b / -c
        QCOMPARE(cmd({s("updateTopic"), s("-t"), s("TopicB"), s("-c"), s("C"), s("-p"), s("3")}).exitCode, 2); // perm
        const Run noCluster = cmd({s("updateTopic"), s("-t"), s("TopicB"), s("-c"), s("NoSuchCluster")});
        QCOMPARE(noCluster.exitCode, 1);
        QVERIFY(noCluster.err.contains("NoSuchCluster"));
        const Run deadBroker = cmd({s("updateTopic"), s("-t"), s("TopicB"), s("-b"), s("127.0.0.1:1")});
        QCOMPARE(deadBroker.exitCode, 1);
        QVERIFY(deadBroker.err.contains("127.0.0.1:1"));
    }

    // -a as mqadmin's: the 5.x message type set at creation, shown by topicList -c, changed;
    // a value the broker does not know refused with its remark, a malformed text before sending.
    void updateTopicWithAType()
    {
        const Run typed = cmd({s("updateTopic"), s("-t"), s("TopicFifo"), s("-c"), s("DefaultCluster"), s("-a"),
                               s("+message.type=FIFO")});
        QVERIFY2(typed.exitCode == 0, describe(typed));
        QVERIFY2(typed.out.contains("attributes={+message.type=FIFO}]"), describe(typed));
        const auto typeOf = [this](const QString &topic) {
            for (const QJsonObject &line : jsonLines(cmd({s("topicList"), s("-c"), s("--json")}).out))
                if (line.value(s("topic")).toString() == topic)
                    return line.value(s("messageType")).toString();
            return QString();
        };
        QCOMPARE(typeOf(s("TopicFifo")), s("FIFO"));
        QCOMPARE(typeOf(s("TopicA")), s("UNSPECIFIED"));
        const Run table = cmd({s("topicList"), s("-c")});
        QVERIFY2(table.out.contains("#Message Type") && table.out.contains("FIFO"), describe(table));

        QCOMPARE(cmd({s("updateTopic"), s("-t"), s("TopicFifo"), s("-c"), s("DefaultCluster"), s("-a"),
                      s("+message.type=DELAY")}).exitCode, 0);
        QCOMPARE(typeOf(s("TopicFifo")), s("DELAY"));
        const Run unknown = cmd({s("updateTopic"), s("-t"), s("TopicFifo"), s("-c"), s("DefaultCluster"), s("-a"),
                                 s("+message.type=ORDERED")});
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY2(unknown.err.contains("value is not in set"), describe(unknown));
        const Run malformed = cmd({s("updateTopic"), s("-t"), s("TopicFifo"), s("-c"), s("DefaultCluster"), s("-a"),
                                   s("message.type=FIFO")});
        QCOMPARE(malformed.exitCode, 2);
        QVERIFY2(malformed.err.contains("add/alter attribute format is wrong: message.type"), describe(malformed));
    }

    void deleteTopic()
    {
        QCOMPARE(cmd({s("updateTopic"), s("-t"), s("TopicDel"), s("-c"), s("DefaultCluster")}).exitCode, 0);
        const Run deleted = cmd({s("deleteTopic"), s("-t"), s("TopicDel"), s("-c"), s("DefaultCluster"), s("--json")});
        QVERIFY2(deleted.exitCode == 0, describe(deleted));
        QVERIFY(jsonLines(deleted.out).value(0).value(s("deleted")).toBool());
        QCOMPARE(cmd({s("topicRoute"), s("-t"), s("TopicDel")}).exitCode, 1);

        const Run again = cmd({s("deleteTopic"), s("-t"), s("TopicDel"), s("-c"), s("DefaultCluster")});
        QCOMPARE(again.exitCode, 1);
        QVERIFY(again.err.contains("TopicDel"));
        QCOMPARE(cmd({s("deleteTopic"), s("-t"), s("TopicA")}).exitCode, 2); // -c is required, as in mqadmin
    }

    void sendMessage()
    {
        const Run toQueue = cmd({s("sendMessage"), s("-t"), s("TopicB"), s("-p"), s("hello"), s("-k"), s("kb"), s("-c"),
                                 s("TagB"), s("-b"), s("broker-a"), s("-i"), s("1"), s("--json")});
        QVERIFY2(toQueue.exitCode == 0, describe(toQueue));
        const QJsonObject result = jsonLines(toQueue.out).value(0);
        QCOMPARE(result.value(s("queueId")).toInt(), 1);
        QCOMPARE(result.value(s("sendStatus")).toString(), s("SEND_OK"));
        QCOMPARE(result.value(s("msgId")).toString().size(), 32);
        QCOMPARE(result.value(s("offsetMsgId")).toString().size(), 32);

        const Run table = cmd({s("sendMessage"), s("-t"), s("TopicB"), s("-p"), s("plain")});
        QVERIFY2(table.exitCode == 0, describe(table));
        QVERIFY(table.out.contains("#Send Result") && table.out.contains("SEND_OK"));

        const Run badQueue = cmd({s("sendMessage"), s("-t"), s("TopicB"), s("-p"), s("x"), s("-b"), s("broker-a"), s("-i"), s("9")});
        QCOMPARE(badQueue.exitCode, 1);
        QVERIFY(badQueue.err.contains("TopicB@broker-a:9"));
        QCOMPARE(cmd({s("sendMessage"), s("-t"), s("TopicB"), s("-p"), s("x"), s("-b"), s("broker-a")}).exitCode, 2);
        QCOMPARE(cmd({s("sendMessage"), s("-t"), s("TopicB")}).exitCode, 2); // no body

        const Run unknown = cmd({s("sendMessage"), s("-t"), s("NoSuchTopic"), s("-p"), s("x")});
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY2(unknown.err.contains("NoSuchTopic"), unknown.err.constData());
    }

    void consumeMessage()
    {
        const QList<QJsonObject> all = jsonLines(cmd({s("consumeMessage"), s("-t"), s("TopicA"), s("--json")}).out);
        QCOMPARE(all.size(), 6);
        QStringList bodies;
        for (const QJsonObject &m : all)
            bodies << m.value(s("body")).toString();
        bodies.sort();
        QCOMPARE(bodies.first(), s("body 0"));
        QCOMPARE(bodies.last(), s("body 5"));

        const QList<QJsonObject> one = jsonLines(cmd({s("consumeMessage"), s("-t"), s("TopicA"), s("-b"), s("broker-a"),
                                                      s("-i"), s("1"), s("-o"), s("1"), s("-c"), s("5"), s("--json")})
                                                     .out);
        QCOMPARE(one.size(), 1);
        QCOMPARE(one[0].value(s("body")).toString(), s("body 3"));
        QCOMPARE(one[0].value(s("keys")).toString(), s("key3"));
        QCOMPARE(one[0].value(s("brokerName")).toString(), s("broker-a"));

        const Run limited = cmd({s("consumeMessage"), s("-t"), s("TopicA"), s("-c"), s("2")});
        QVERIFY2(limited.exitCode == 0, describe(limited));
        QVERIFY(limited.out.contains("Consumed 2 message(s)."));

        const Run unknown = cmd({s("consumeMessage"), s("-t"), s("NoSuchTopic")});
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY(unknown.err.contains("NoSuchTopic"));
        QCOMPARE(cmd({s("consumeMessage"), s("-t"), s("TopicA"), s("-b"), s("broker-x")}).exitCode, 1);
    }

    void queryMsgByKey()
    {
        const Run table = cmd({s("queryMsgByKey"), s("-t"), s("TopicA"), s("-k"), s("key4")});
        QVERIFY2(table.exitCode == 0, describe(table));
        QVERIFY(table.out.contains("#Message ID") && table.out.contains("Tag0"));

        const QList<QJsonObject> json = jsonLines(cmd({s("queryMsgByKey"), s("-t"), s("TopicA"), s("-k"), s("key4"), s("--json")}).out);
        QCOMPARE(json.size(), 1);
        QCOMPARE(json[0].value(s("body")).toString(), s("body 4"));
        QCOMPARE(json[0].value(s("queueId")).toInt(), 2);

        QVERIFY(jsonLines(cmd({s("queryMsgByKey"), s("-t"), s("TopicA"), s("-k"), s("nokey"), s("--json")}).out).isEmpty());
        const Run unknown = cmd({s("queryMsgByKey"), s("-t"), s("NoSuchTopic"), s("-k"), s("key4")});
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY(unknown.err.contains("NoSuchTopic"));
        QCOMPARE(cmd({s("queryMsgByKey"), s("-t"), s("TopicA")}).exitCode, 2);
    }

    void queryMsgById()
    {
        const QString offsetMsgId = sent_.value(s("offsetMsgId")).toString();
        const Run text = cmd({s("queryMsgById"), s("-i"), offsetMsgId});
        QVERIFY2(text.exitCode == 0, describe(text));
        QVERIFY(text.out.contains("Message Body:     body 0"));
        QVERIFY(text.out.contains("Keys:             [key0]"));

        const QList<QJsonObject> json = jsonLines(cmd({s("queryMsgById"), s("-i"), offsetMsgId, s("--json")}).out);
        QCOMPARE(json.size(), 1);
        QCOMPARE(json[0].value(s("offsetMsgId")).toString(), offsetMsgId);
        QCOMPARE(json[0].value(s("msgId")).toString(), sent_.value(s("msgId")).toString());
        QCOMPARE(json[0].value(s("topic")).toString(), s("TopicA"));

        const Run notAnId = cmd({s("queryMsgById"), s("-i"), s("zz")});
        QCOMPARE(notAnId.exitCode, 1);
        QVERIFY(notAnId.err.contains("zz"));
        QString beyond = offsetMsgId;
        beyond.replace(16, 16, s("00000000000FFFFF"));
        const Run missing = cmd({s("queryMsgById"), s("-i"), beyond});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains(brokerAddr_.toUtf8()) && missing.err.contains("VIEW_MESSAGE_BY_ID"), missing.err.constData());
    }

    void queryMsgByUniqueKey()
    {
        const QString uniq = sent_.value(s("msgId")).toString();
        const QList<QJsonObject> json =
            jsonLines(cmd({s("queryMsgByUniqueKey"), s("-i"), uniq, s("-t"), s("TopicA"), s("--json")}).out);
        QCOMPARE(json.size(), 1);
        QCOMPARE(json[0].value(s("body")).toString(), s("body 0"));
        QCOMPARE(json[0].value(s("uniqKey")).toString(), uniq);

        const Run missing = cmd({s("queryMsgByUniqueKey"), s("-i"), s("0123456789ABCDEF0123456789ABCDEF"), s("-t"), s("TopicA")});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY(missing.err.contains("0123456789ABCDEF0123456789ABCDEF"));
        QCOMPARE(cmd({s("queryMsgByUniqueKey"), s("-i"), uniq, s("-t"), s("NoSuchTopic")}).exitCode, 1);
    }

    void queryMsgByOffset()
    {
        const Run text = cmd({s("queryMsgByOffset"), s("-t"), s("TopicA"), s("-b"), s("broker-a"), s("-i"), s("2"), s("-o"), s("1")});
        QVERIFY2(text.exitCode == 0, describe(text));
        QVERIFY(text.out.contains("body 5"));
        const QList<QJsonObject> json = jsonLines(cmd({s("queryMsgByOffset"), s("-t"), s("TopicA"), s("-b"), s("broker-a"),
                                                       s("-i"), s("2"), s("-o"), s("0"), s("--json")})
                                                      .out);
        QCOMPARE(json.value(0).value(s("body")).toString(), s("body 4"));

        const Run beyond = cmd({s("queryMsgByOffset"), s("-t"), s("TopicA"), s("-b"), s("broker-a"), s("-i"), s("2"), s("-o"), s("9")});
        QCOMPARE(beyond.exitCode, 1);
        QVERIFY(beyond.err.contains("TopicA@broker-a:2"));
        QCOMPARE(cmd({s("queryMsgByOffset"), s("-t"), s("TopicA"), s("-b"), s("broker-x"), s("-i"), s("0"), s("-o"), s("0")}).exitCode, 1);
        QCOMPARE(cmd({s("queryMsgByOffset"), s("-t"), s("TopicA"), s("-b"), s("broker-a"), s("-i"), s("0")}).exitCode, 2);
    }

    void consumerProgress()
    {
        const Run table = cmd({s("consumerProgress"), s("-g"), s("CG_ONLINE")});
        QVERIFY2(table.exitCode == 0, describe(table));
        QVERIFY(table.out.contains("#Consumer Offset") && table.out.contains("Diff Total: 1"));

        const QList<QJsonObject> json = jsonLines(cmd({s("consumerProgress"), s("-g"), s("CG_ONLINE"), s("-t"), s("TopicA"), s("--json")}).out);
        QCOMPARE(json.size(), 1);
        QCOMPARE(json[0].value(s("diffTotal")).toInteger(), 1);
        const QJsonArray queues = json[0].value(s("queues")).toArray();
        QCOMPARE(queues.size(), 4);
        const QJsonObject q0 = queues.first().toObject();
        QCOMPARE(q0.value(s("queueId")).toInt(), 0);
        QCOMPARE(q0.value(s("brokerOffset")).toInteger(), 2);
        QCOMPARE(q0.value(s("consumerOffset")).toInteger(), 1);
        QCOMPARE(q0.value(s("diff")).toInteger(), 1);
        QVERIFY(q0.value(s("lastTimestamp")).toInteger() > 0);

        const Run unknown = cmd({s("consumerProgress"), s("-g"), s("NoSuchGroup")});
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY(unknown.err.contains("NoSuchGroup"));
        QCOMPARE(cmd({s("consumerProgress"), s("-g"), s("CG_ONLINE"), s("-t"), s("NoSuchTopic")}).exitCode, 1);
        QCOMPARE(cmd({s("consumerProgress")}).exitCode, 2);
    }

    void consumerConnection()
    {
        const Run table = cmd({s("consumerConnection"), s("-g"), s("CG_ONLINE")});
        QVERIFY2(table.exitCode == 0, describe(table));
        QVERIFY(table.out.contains(QByteArray::fromStdString(clientConfig().clientId())));
        QVERIFY(table.out.contains("CONSUME_ACTIVELY"));

        const QList<QJsonObject> json = jsonLines(cmd({s("consumerConnection"), s("-g"), s("CG_ONLINE"), s("--json")}).out);
        QCOMPARE(json.size(), 1);
        QCOMPARE(json[0].value(s("connections")).toArray().size(), 1);
        QCOMPARE(json[0].value(s("subscriptions")).toArray().first().toObject().value(s("topic")).toString(), s("TopicA"));
        QCOMPARE(json[0].value(s("messageModel")).toString(), s("CLUSTERING"));

        const Run offline = cmd({s("consumerConnection"), s("-g"), s("CG_OFFLINE")});
        QCOMPARE(offline.exitCode, 1);
        QVERIFY2(offline.err.contains("CG_OFFLINE") && offline.err.contains("not online"), offline.err.constData());
    }

    void resetOffsetByTime()
    {
        // To the beginning (mqadmin's date format, UTC in the test): everything is unconsumed.
        const Run back = cmd({s("resetOffsetByTime"), s("-g"), s("CG_OFFLINE"), s("-t"), s("TopicA"), s("-s"),
                              s("2000-01-01#00:00:00:000"), s("--json")});
        QVERIFY2(back.exitCode == 0, describe(back));
        const QList<QJsonObject> offsets = jsonLines(back.out);
        QCOMPARE(offsets.size(), 4);
        for (const QJsonObject &o : offsets)
            QCOMPARE(o.value(s("offset")).toInteger(), 0);
        QCOMPARE(jsonLines(cmd({s("consumerProgress"), s("-g"), s("CG_OFFLINE"), s("--json")}).out).value(0).value(s("diffTotal")).toInteger(), 6);

        const Run now = cmd({s("resetOffsetByTime"), s("-g"), s("CG_OFFLINE"), s("-t"), s("TopicA"), s("-s"), s("now")});
        QVERIFY2(now.exitCode == 0, describe(now));
        QVERIFY(now.out.contains("#brokerName") && now.out.contains("consumerGroup[CG_OFFLINE]"));
        QCOMPARE(jsonLines(cmd({s("consumerProgress"), s("-g"), s("CG_OFFLINE"), s("--json")}).out).value(0).value(s("diffTotal")).toInteger(), 0);

        const Run unknown = cmd({s("resetOffsetByTime"), s("-g"), s("NoSuchGroup"), s("-t"), s("TopicA"), s("-s"), s("0")});
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY2(unknown.err.contains("NoSuchGroup"), unknown.err.constData());
        QCOMPARE(cmd({s("resetOffsetByTime"), s("-g"), s("CG_OFFLINE"), s("-t"), s("NoSuchTopic"), s("-s"), s("0")}).exitCode, 1);
        const Run badTime = cmd({s("resetOffsetByTime"), s("-g"), s("CG_OFFLINE"), s("-t"), s("TopicA"), s("-s"), s("yesterday")});
        QCOMPARE(badTime.exitCode, 2);
        QVERIFY(badTime.err.contains("yesterday"));
    }

    void updateAndDeleteSubGroup()
    {
        const Run created = cmd({s("updateSubGroup"), s("-g"), s("CG_NEW"), s("-b"), brokerAddr_, s("-q"), s("3"), s("-r"),
                                 s("7"), s("-s"), s("false"), s("--json")});
        QVERIFY2(created.exitCode == 0, describe(created));
        const QJsonObject config = jsonLines(created.out).value(0).value(s("config")).toObject();
        QCOMPARE(config.value(s("retryQueueNums")).toInt(), 3);
        QCOMPARE(config.value(s("retryMaxTimes")).toInt(), 7);
        QCOMPARE(config.value(s("consumeEnable")).toBool(), false);

        client::AdminClient admin(clientConfig());
        const auto groups = admin.subscriptionGroups(brokerAddr_.toStdString());
        QVERIFY(groups.ok);
        const auto it = std::find_if(groups.value.begin(), groups.value.end(),
                                     [](const auto &g) { return g.groupName == "CG_NEW"; });
        QVERIFY(it != groups.value.end());
        QCOMPARE(it->retryQueueNums, 3);
        QCOMPARE(it->retryMaxTimes, 7);
        QVERIFY(!it->consumeEnable);
        QVERIFY(!it->consumeBroadcastEnable);

        const Run byCluster = cmd({s("updateSubGroup"), s("-g"), s("CG_NEW"), s("-c"), s("DefaultCluster")});
        QVERIFY2(byCluster.exitCode == 0, describe(byCluster));
        QVERIFY(byCluster.out.contains("\"groupName\":\"CG_NEW\""));
        QCOMPARE(cmd({s("updateSubGroup"), s("-g"), s("CG_NEW")}).exitCode, 2);
        QCOMPARE(cmd({s("updateSubGroup"), s("-g"), s("CG_NEW"), s("-b"), brokerAddr_, s("-s"), s("maybe")}).exitCode, 2);

        const Run deleted = cmd({s("deleteSubGroup"), s("-g"), s("CG_NEW"), s("-c"), s("DefaultCluster")});
        QVERIFY2(deleted.exitCode == 0, describe(deleted));
        QVERIFY(deleted.out.contains("delete subscription group [CG_NEW]"));
        const Run again = cmd({s("deleteSubGroup"), s("-g"), s("CG_NEW"), s("-b"), brokerAddr_});
        QCOMPARE(again.exitCode, 1);
        QVERIFY(again.err.contains("CG_NEW"));
        QCOMPARE(cmd({s("deleteSubGroup"), s("-g"), s("CG_NEW")}).exitCode, 2);
    }

    void brokerStatus()
    {
        const Run text = cmd({s("brokerStatus"), s("-b"), brokerAddr_});
        QVERIFY2(text.exitCode == 0, describe(text));
        static const QRegularExpression version(s(R"(^brokerVersionDesc:\s+\S+$)"), QRegularExpression::MultilineOption);
        QVERIFY(version.match(QString::fromUtf8(text.out)).hasMatch());

        const QList<QJsonObject> json = jsonLines(cmd({s("brokerStatus"), s("-c"), s("DefaultCluster"), s("--json")}).out);
        QCOMPARE(json.size(), 1);
        QCOMPARE(json[0].value(s("brokerAddr")).toString(), brokerAddr_);
        QVERIFY(json[0].value(s("runtimeInfo")).toObject().contains(s("putTps")));

        const Run dead = admin({s("brokerStatus"), s("-b"), s("127.0.0.1:1")}); // -b needs no NameServer
        QCOMPARE(dead.exitCode, 1);
        QVERIFY(dead.err.contains("127.0.0.1:1"));
        QCOMPARE(cmd({s("brokerStatus")}).exitCode, 2);
    }

    void brokerConfig()
    {
        const Run text = cmd({s("getBrokerConfig"), s("-b"), brokerAddr_});
        QVERIFY2(text.exitCode == 0, describe(text));
        QVERIFY(text.out.split('\n').contains("brokerName=broker-a"));

        const Run update = cmd({s("updateBrokerConfig"), s("-c"), s("DefaultCluster"), s("-k"), s("flushDiskType"),
                                s("-v"), s("SYNC_FLUSH"), s("--json")});
        QVERIFY2(update.exitCode == 0, describe(update));
        QCOMPARE(jsonLines(update.out).value(0).value(s("oldValue")).toString(), s("ASYNC_FLUSH"));
        const QList<QJsonObject> json = jsonLines(cmd({s("getBrokerConfig"), s("-c"), s("DefaultCluster"), s("--json")}).out);
        QCOMPARE(json.size(), 1);
        QCOMPARE(json[0].value(s("config")).toObject().value(s("flushDiskType")).toString(), s("SYNC_FLUSH"));
        QCOMPARE(cmd({s("updateBrokerConfig"), s("-b"), brokerAddr_, s("-k"), s("flushDiskType"), s("-v"), s("ASYNC_FLUSH")}).exitCode, 0);

        const Run unknownKey = cmd({s("updateBrokerConfig"), s("-b"), brokerAddr_, s("-k"), s("noSuchKey"), s("-v"), s("1")});
        QCOMPARE(unknownKey.exitCode, 1);
        QVERIFY(unknownKey.err.contains("noSuchKey"));
        QCOMPARE(cmd({s("updateBrokerConfig"), s("-b"), brokerAddr_, s("-v"), s("1")}).exitCode, 2);
        QCOMPARE(cmd({s("getBrokerConfig"), s("-c"), s("NoSuchCluster")}).exitCode, 1);
    }
};

QTEST_GUILESS_MAIN(MqdeskAdminClusterTest)
#include "tst_mqdesk_admin_cluster.moc"
