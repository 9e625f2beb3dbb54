// mqdesk-admin run for real against a real Apache RocketMQ 5.5.0 cluster: the Java NameServer and
// a master + slave pair (tests/interop/java_cluster.h). A topic on the master holds 20 keyed,
// tagged messages and a consumer group committed half of each queue; every command must exit 0
// and print what the Java cluster really has.

#include "interop/java_cluster.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest/QtTest>

#include <memory>

using namespace mqdesk;

namespace {

constexpr int kMessages = 20;
const std::string kTopic = "JavaAdminTopic";
const std::string kGroup = "CG_JAVA_ADMIN";

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

QList<QJsonObject> jsonLines(const QByteArray &out)
{
    QList<QJsonObject> objects;
    for (const QByteArray &line : out.split('\n')) {
        if (line.isEmpty())
            continue;
        const QJsonDocument doc = QJsonDocument::fromJson(line);
        if (!doc.isObject()) {
            qWarning("not a JSON object: %s", line.constData());
            return {};
        }
        objects.push_back(doc.object());
    }
    return objects;
}

QString s(const char *text) { return QString::fromUtf8(text); }
QString q(const std::string &text) { return QString::fromStdString(text); }

QByteArray describe(const Run &run)
{
    return "exit " + QByteArray::number(run.exitCode) + "\nstdout: " + run.out + "\nstderr: " + run.err;
}

} // namespace

class MqdeskAdminJavaTest : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<test::JavaCluster> cluster_;
    test::SeededTopic seeded_;

    Run cmd(const QStringList &arguments)
    {
        QProcess process;
        process.start(s(MQDESK_ADMIN_PATH), QStringList{s("-n"), cluster_->namesrvAddress()} + arguments);
        if (!process.waitForFinished(60000))
            process.kill();
        process.waitForFinished(5000);
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                process.readAllStandardOutput(), process.readAllStandardError()};
    }

private slots:
    void initTestCase()
    {
        cluster_ = std::make_unique<test::JavaCluster>(s(MQDESK_JAVA_CLUSTER_CLASSPATH));
        QString error;
        QVERIFY2(cluster_->start(error), qPrintable(error));
        std::string seedError;
        seeded_ = test::seedTopic(*cluster_, kTopic, kGroup, kMessages, seedError);
        QVERIFY2(seedError.empty(), seedError.c_str());
        QVERIFY(seeded_.lag() > 0 && seeded_.lag() < kMessages);
    }

    void cleanupTestCase() { cluster_.reset(); }

    void clusterListShowsMasterAndSlave()
    {
        const Run table = cmd({s("clusterList")});
        QVERIFY2(table.exitCode == 0, describe(table));
        QVERIFY2(table.out.contains(cluster_->masterAddress().toUtf8()) && table.out.contains(cluster_->slaveAddress().toUtf8()),
                 describe(table));
        QVERIFY(table.out.contains("JavaCluster") && table.out.contains("broker-java"));

        const Run run = cmd({s("clusterList"), s("--json")});
        QVERIFY2(run.exitCode == 0, describe(run));
        const QList<QJsonObject> json = jsonLines(run.out);
        QCOMPARE(json.size(), 2);
        for (const QJsonObject &broker : json) {
            const bool master = broker.value(s("brokerId")).toInt() == 0;
            QCOMPARE(broker.value(s("addr")).toString(), master ? cluster_->masterAddress() : cluster_->slaveAddress());
            QCOMPARE(broker.value(s("brokerName")).toString(), s("broker-java"));
            QCOMPARE(broker.value(s("role")).toString(), master ? s("MASTER") : s("SLAVE"));
            QVERIFY(broker.value(s("reachable")).toBool());
            QVERIFY2(broker.value(s("version")).toString().startsWith(s("V5_5_0")), qPrintable(broker.value(s("version")).toString()));
        }
        QVERIFY(json[0].value(s("inTotalToday")).toInteger() >= kMessages); // the master, listed first
    }

    void topicListAndRoute()
    {
        const Run list = cmd({s("topicList")});
        QVERIFY2(list.exitCode == 0, describe(list));
        QVERIFY(list.out.split('\n').contains(QByteArray::fromStdString(kTopic)));

        const Run table = cmd({s("topicRoute"), s("-t"), q(kTopic)});
        QVERIFY2(table.exitCode == 0, describe(table));
        QVERIFY(table.out.contains(cluster_->masterAddress().toUtf8()) && table.out.contains(cluster_->slaveAddress().toUtf8()));
        const Run run = cmd({s("topicRoute"), s("-t"), q(kTopic), s("--json")});
        const QList<QJsonObject> json = jsonLines(run.out);
        QCOMPARE(json.size(), 1);
        const QJsonArray queueDatas = json[0].value(s("queueDatas")).toArray();
        QCOMPARE(queueDatas.size(), 1);
        QCOMPARE(queueDatas.first().toObject().value(s("brokerName")).toString(), s("broker-java"));
        QCOMPARE(queueDatas.first().toObject().value(s("writeQueueNums")).toInt(), seeded_.queues);
        const QJsonObject brokerAddrs =
            json[0].value(s("brokerDatas")).toArray().first().toObject().value(s("brokerAddrs")).toObject();
        QCOMPARE(brokerAddrs.value(s("0")).toString(), cluster_->masterAddress());
        QCOMPARE(brokerAddrs.value(s("1")).toString(), cluster_->slaveAddress());
    }

    void topicStatusHasTheOffsets()
    {
        const Run run = cmd({s("topicStatus"), s("-t"), q(kTopic), s("--json")});
        QVERIFY2(run.exitCode == 0, describe(run));
        const QList<QJsonObject> json = jsonLines(run.out);
        QCOMPARE(json.size(), seeded_.queues);
        int64_t total = 0;
        for (const QJsonObject &queue : json) {
            const int queueId = queue.value(s("queueId")).toInt();
            QCOMPARE(queue.value(s("maxOffset")).toInteger(), seeded_.maxOffsetByQueue.at(queueId));
            total += queue.value(s("maxOffset")).toInteger();
        }
        QCOMPARE(total, int64_t(kMessages));
    }

    void consumerProgressHasTheLag()
    {
        const Run table = cmd({s("consumerProgress"), s("-g"), q(kGroup)});
        QVERIFY2(table.exitCode == 0, describe(table));
        QVERIFY2(table.out.contains("Diff Total: " + QByteArray::number(qint64(seeded_.lag()))), describe(table));

        const QList<QJsonObject> json = jsonLines(cmd({s("consumerProgress"), s("-g"), q(kGroup), s("--json")}).out);
        QCOMPARE(json.size(), 1);
        QCOMPARE(json[0].value(s("diffTotal")).toInteger(), seeded_.lag());
        const QJsonArray queues = json[0].value(s("queues")).toArray();
        QCOMPARE(queues.size(), seeded_.queues);
        for (const QJsonValue &value : queues) {
            const QJsonObject queue = value.toObject();
            const int queueId = queue.value(s("queueId")).toInt();
            QCOMPARE(queue.value(s("brokerOffset")).toInteger(), seeded_.maxOffsetByQueue.at(queueId));
            QCOMPARE(queue.value(s("consumerOffset")).toInteger(), seeded_.committedByQueue.at(queueId));
        }
    }

    void brokerStatusAndConfigOfBothBrokers()
    {
        for (const QString &addr : {cluster_->masterAddress(), cluster_->slaveAddress()}) {
            const Run status = cmd({s("brokerStatus"), s("-b"), addr});
            QVERIFY2(status.exitCode == 0, describe(status));
            QVERIFY2(status.out.contains("brokerVersionDesc") && status.out.contains("V5_5_0"), describe(status));
            const Run config = cmd({s("getBrokerConfig"), s("-b"), addr});
            QVERIFY2(config.exitCode == 0, describe(config));
            const QList<QByteArray> lines = config.out.split('\n');
            QVERIFY2(lines.contains("brokerName=broker-java"), describe(config));
            QVERIFY(lines.contains(addr == cluster_->masterAddress() ? "brokerRole=ASYNC_MASTER" : "brokerRole=SLAVE"));
        }
        const QList<QJsonObject> json = jsonLines(cmd({s("brokerStatus"), s("-c"), s("JavaCluster"), s("--json")}).out);
        QVERIFY(!json.isEmpty());
        QCOMPARE(json[0].value(s("brokerAddr")).toString(), cluster_->masterAddress());
        QVERIFY(json[0].value(s("runtimeInfo")).toObject().contains(s("putTps")));
    }

    void queryMessagesByKeyAndId()
    {
        const std::string key = test::seedKey(kTopic, 7);
        const Run table = cmd({s("queryMsgByKey"), s("-t"), q(kTopic), s("-k"), q(key)});
        QVERIFY2(table.exitCode == 0, describe(table));
        QVERIFY2(table.out.contains("Tag1"), describe(table));
        const QList<QJsonObject> json = jsonLines(cmd({s("queryMsgByKey"), s("-t"), q(kTopic), s("-k"), q(key), s("--json")}).out);
        QCOMPARE(json.size(), 1);
        QCOMPARE(json[0].value(s("body")).toString(), s("body 7"));
        QCOMPARE(json[0].value(s("queueId")).toInt(), seeded_.sent[7].queue.queueId);

        const QString offsetMsgId = q(seeded_.sent[3].msgId);
        const Run text = cmd({s("queryMsgById"), s("-i"), offsetMsgId});
        QVERIFY2(text.exitCode == 0, describe(text));
        QVERIFY2(text.out.contains("body 3") && text.out.contains(QByteArray::fromStdString(test::seedKey(kTopic, 3))),
                 describe(text));
        const QList<QJsonObject> byId = jsonLines(cmd({s("queryMsgById"), s("-i"), offsetMsgId, s("--json")}).out);
        QCOMPARE(byId.size(), 1);
        QCOMPARE(byId[0].value(s("msgId")).toString(), q(seeded_.sent[3].uniqKey));
        QCOMPARE(byId[0].value(s("topic")).toString(), q(kTopic));
    }
};

QTEST_GUILESS_MAIN(MqdeskAdminJavaTest)
#include "tst_mqdesk_admin_java.moc"
