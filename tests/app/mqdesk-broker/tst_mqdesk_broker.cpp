// mqdesk-broker run for real, as scripts run it: the ready line, clean stops on SIGTERM and
// SIGINT, -p, bad flags and config values, --topic/--group, ports in use, registration with an external
// NameServer (-n), and the bind policy (--bind beyond loopback needs ACL or
// --allow-unauthenticated; a wildcard bind registers a reachable address).

#include "broker/remoting/protocol/route_data.h"
#include "broker/remoting/net/remoting_client.h"
#include "broker/remoting/remoting_codes.h"
#include "hostile/raw_client.h"
#include "test_support.h"

#include <QProcess>
#include <QRegularExpression>

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <set>

using namespace mqdesk;
using remoting::RemotingCommand;

namespace {

struct Ready
{
    QString namesrv;
    QString broker;
    QString store;
    QString grpc;
};

// One running mqdesk-broker; killed if the test ends without stopping it.
class BrokerProcess
{
public:
    ~BrokerProcess()
    {
        if (process_.state() != QProcess::NotRunning) {
            process_.kill();
            process_.waitForFinished(5000);
        }
    }

    void start(const QStringList &arguments) { process_.start(QStringLiteral(MQDESK_BROKER_PATH), arguments); }

    // Waits for the ready line; empty fields when the process exits or 20 s pass first.
    Ready waitReady()
    {
        static const QRegularExpression line(QStringLiteral(
            R"(^mqdesk-broker ready: namesrv=(\S+) broker=(\S+) store=(\S+) grpc=(\S+)$)"));
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < 20000) {
            if (process_.canReadLine()) {
                const QString text = QString::fromUtf8(process_.readLine()).trimmed();
                stdout_ += text + QLatin1Char('\n');
                const auto match = line.match(text);
                if (match.hasMatch())
                    return {match.captured(1), match.captured(2), match.captured(3), match.captured(4)};
                continue;
            }
            if (process_.state() == QProcess::NotRunning)
                break;
            process_.waitForReadyRead(100);
        }
        return {};
    }

    // Sends `signal` and waits for the exit; the exit code, or -1 on a crash or a hang.
    int stop(int signal = SIGTERM)
    {
        ::kill(static_cast<pid_t>(process_.processId()), signal);
        if (!process_.waitForFinished(20000))
            return -1;
        return process_.exitStatus() == QProcess::NormalExit ? process_.exitCode() : -1;
    }

    int waitExit()
    {
        if (!process_.waitForFinished(20000))
            return -1;
        return process_.exitStatus() == QProcess::NormalExit ? process_.exitCode() : -1;
    }

    QString stdoutText() { return stdout_ + QString::fromUtf8(process_.readAllStandardOutput()); }
    QString stderrText() { return QString::fromUtf8(process_.readAllStandardError()); }
    QProcess &process() { return process_; }

private:
    QProcess process_;
    QString stdout_;
};

QStringList freePorts(const QString &store)
{
    return {QStringLiteral("--store"), store, QStringLiteral("--namesrv-port"), QStringLiteral("0"),
            QStringLiteral("--broker-port"), QStringLiteral("0")};
}

QString writeConf(const QTemporaryDir &dir, const QString &name, const QByteArray &text)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    file.open(QIODevice::WriteOnly);
    file.write(text);
    return path;
}

// The names of a process's threads (Linux keeps 15 characters), one entry per thread.
QStringList threadNames(qint64 pid)
{
    QStringList names;
    for (const auto &task : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task")) {
        QFile comm(QString::fromStdString((task.path() / "comm").string()));
        if (comm.open(QIODevice::ReadOnly))
            names << QString::fromUtf8(comm.readAll()).trimmed();
    }
    return names;
}

std::string clusterInfo(const QString &namesrv)
{
    remoting::RemotingClient client;
    const auto result = client.invokeSync(namesrv.toStdString(),
                                          RemotingCommand::createRequest(remoting::RequestCode::kGetBrokerClusterInfo),
                                          std::chrono::milliseconds(5000));
    return result.ok() ? std::string(result.response.body.begin(), result.response.body.end()) : std::string();
}

// This host's IPv4 addresses on up, non-loopback interfaces (what a wildcard bind may advertise).
std::set<std::string> nonLoopbackIpv4Addresses()
{
    std::set<std::string> addresses;
    ifaddrs *list = nullptr;
    if (getifaddrs(&list) != 0)
        return addresses;
    for (const ifaddrs *entry = list; entry; entry = entry->ifa_next) {
        if (!entry->ifa_addr || entry->ifa_addr->sa_family != AF_INET || !(entry->ifa_flags & IFF_UP)
            || (entry->ifa_flags & IFF_LOOPBACK))
            continue;
        char text[INET_ADDRSTRLEN] = {};
        inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in *>(entry->ifa_addr)->sin_addr, text, sizeof text);
        addresses.insert(text);
    }
    freeifaddrs(list);
    return addresses;
}

} // namespace

class MqdeskBrokerTest : public QObject
{
    Q_OBJECT

private slots:
    void readyLineThenCleanStop_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGINT") << int(SIGINT);
    }

    void readyLineThenCleanStop()
    {
        QFETCH(int, signal);
        QTemporaryDir dir;
        const QString store = dir.filePath(QStringLiteral("store"));
        BrokerProcess broker;
        broker.start(freePorts(store));
        const Ready ready = broker.waitReady();
        QVERIFY2(!ready.broker.isEmpty(), qPrintable(broker.stderrText()));
        QVERIFY(ready.namesrv.startsWith(QStringLiteral("127.0.0.1:")));
        QVERIFY(ready.broker.startsWith(QStringLiteral("127.0.0.1:")));
        QCOMPARE(ready.store, store);
        QVERIFY(std::filesystem::exists(store.toStdString() + "/abort")); // running
        // The route the NameServer hands out points at the broker that printed the line.
        QVERIFY(clusterInfo(ready.namesrv).find(ready.broker.toStdString()) != std::string::npos);

        QCOMPARE(broker.stop(signal), 0);
        QVERIFY(!std::filesystem::exists(store.toStdString() + "/abort"));
        QVERIFY(std::filesystem::exists(store.toStdString() + "/checkpoint"));
        QVERIFY(std::filesystem::exists(store.toStdString() + "/config/topics.json"));
        // Exactly one ready line, nothing else on stdout.
        QCOMPARE(broker.stdoutText().count(QStringLiteral("mqdesk-broker ready:")), 1);
    }

    void printConfigShowsEffectiveSettings()
    {
        QTemporaryDir dir;
        const QString conf = writeConf(dir, QStringLiteral("broker.conf"),
                                       "brokerName=broker-x\nflushDiskType=SYNC_FLUSH\n# a comment\n");
        BrokerProcess broker;
        broker.start({QStringLiteral("-c"), conf, QStringLiteral("-p"), QStringLiteral("--store"),
                      dir.filePath(QStringLiteral("store"))});
        QCOMPARE(broker.waitExit(), 0);
        const QString out = broker.stdoutText();
        QVERIFY2(out.contains(QStringLiteral("\nbrokerName=broker-x\n")), qPrintable(out));
        QVERIFY(out.contains(QStringLiteral("\nflushDiskType=SYNC_FLUSH\n")));
        QVERIFY(out.contains(QStringLiteral("\nstorePathRootDir=") + dir.filePath(QStringLiteral("store"))));
        QVERIFY(out.contains(QStringLiteral("\nlistenPort=10911\n")));
        QVERIFY(!std::filesystem::exists(dir.filePath(QStringLiteral("store")).toStdString())); // -p touches nothing
    }

    void badInputIsNamed_data()
    {
        QTest::addColumn<QByteArray>("conf");
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("bad flush type") << QByteArray("flushDiskType=FAST\n") << QStringList{} << 2
                                        << QStringLiteral("flushDiskType");
        QTest::newRow("bad number") << QByteArray("defaultTopicQueueNums=many\n") << QStringList{} << 2
                                    << QStringLiteral("defaultTopicQueueNums");
        QTest::newRow("bad port flag") << QByteArray() << QStringList{QStringLiteral("--broker-port"), QStringLiteral("x")}
                                       << 2 << QStringLiteral("--broker-port");
        QTest::newRow("unknown flag") << QByteArray() << QStringList{QStringLiteral("--frobnicate")} << 2
                                      << QStringLiteral("frobnicate");
        QTest::newRow("missing conf") << QByteArray() << QStringList{QStringLiteral("-c"), QStringLiteral("/nonexistent.conf")}
                                      << 2 << QStringLiteral("/nonexistent.conf");
        QTest::newRow("topic name") << QByteArray() << QStringList{QStringLiteral("--topic"), QStringLiteral("a/../b")}
                                    << 2 << QStringLiteral("--topic a/../b: The specified topic[a/../b] contains illegal");
        QTest::newRow("topic queues") << QByteArray() << QStringList{QStringLiteral("--topic"), QStringLiteral("t:0")}
                                      << 2 << QStringLiteral("--topic t:0: the queue count '0' is not a number");
        QTest::newRow("topic type") << QByteArray() << QStringList{QStringLiteral("--topic"), QStringLiteral("t:4:SPICY")}
                                    << 2 << QStringLiteral("--topic t:4:SPICY: the message type 'SPICY' is not one of");
        QTest::newRow("topic parts") << QByteArray() << QStringList{QStringLiteral("--topic"), QStringLiteral("t:4:FIFO:x")}
                                     << 2 << QStringLiteral("NAME[:QUEUES[:TYPE]]");
        QTest::newRow("group") << QByteArray() << QStringList{QStringLiteral("--group"), QStringLiteral("g:fast")}
                               << 2 << QStringLiteral("--group g:fast: expected NAME or NAME:orderly");
        QTest::newRow("system topic") << QByteArray() << QStringList{QStringLiteral("--topic"), QStringLiteral("TBW102")}
                                      << 1 << QStringLiteral("reserved for the broker");
    }

    void badInputIsNamed()
    {
        QFETCH(QByteArray, conf);
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QStringList all = freePorts(dir.filePath(QStringLiteral("store"))) + arguments;
        if (!conf.isEmpty())
            all << QStringLiteral("-c") << writeConf(dir, QStringLiteral("broker.conf"), conf);
        BrokerProcess broker;
        broker.start(all);
        QCOMPARE(broker.waitExit(), exitCode);
        const QString err = broker.stderrText() + broker.stdoutText();
        QVERIFY2(err.contains(message), qPrintable(err));
    }

    // --topic and --group: in place, and routed by the NameServer, when the ready line appears, so a
    // test fixture needs no admin call; with auto-creation off, only those topics exist.
    void topicsAndGroupsExistAtTheReadyLine()
    {
        QTemporaryDir dir;
        const QString store = dir.filePath(QStringLiteral("store"));
        const QString conf = writeConf(dir, QStringLiteral("broker.conf"), "autoCreateTopicEnable=false\n");
        BrokerProcess broker;
        broker.start(freePorts(store) << QStringLiteral("-c") << conf << QStringLiteral("--topic")
                                      << QStringLiteral("orders:4:FIFO") << QStringLiteral("--topic")
                                      << QStringLiteral("plain") << QStringLiteral("--group")
                                      << QStringLiteral("shipping:orderly") << QStringLiteral("--group")
                                      << QStringLiteral("audit"));
        const Ready ready = broker.waitReady();
        QVERIFY2(!ready.broker.isEmpty(), qPrintable(broker.stderrText()));
        const auto route = [&](const char *topic) {
            remoting::RemotingClient client;
            RemotingCommand request = RemotingCommand::createRequest(remoting::RequestCode::kGetRouteinfoByTopic);
            request.extFields.set("topic", topic);
            return client.invokeSync(ready.namesrv.toStdString(), request, std::chrono::milliseconds(5000));
        };
        for (const auto &[topic, queues] : {std::pair{"orders", 4}, std::pair{"plain", 8}}) {
            const auto answer = route(topic);
            QVERIFY2(answer.ok() && answer.response.code == remoting::ResponseCode::kSuccess, topic);
            remoting::TopicRouteData data;
            std::string error;
            const std::string body(answer.response.body.begin(), answer.response.body.end());
            QVERIFY2(remoting::TopicRouteData::fromJson(body, data, error), error.c_str());
            QCOMPARE(data.queueDatas.size(), size_t(1));
            QCOMPARE(data.queueDatas[0].writeQueueNums, queues);
        }
        QVERIFY(route("unknown").response.code == remoting::ResponseCode::kTopicNotExist);
        QCOMPARE(broker.stop(), 0);

        QFile topics(store + QStringLiteral("/config/topics.json"));
        QVERIFY(topics.open(QIODevice::ReadOnly));
        const QByteArray topicsJson = topics.readAll();
        QVERIFY2(topicsJson.contains("\"message.type\":\"FIFO\""), topicsJson.constData());
        QFile groups(store + QStringLiteral("/config/subscriptionGroup.json"));
        QVERIFY(groups.open(QIODevice::ReadOnly));
        const QByteArray groupsJson = groups.readAll();
        QVERIFY(groupsJson.contains("\"shipping\"") && groupsJson.contains("\"audit\""));
        QVERIFY(groupsJson.contains("\"consumeMessageOrderly\":true"));
    }

    // An idle broker runs the threads of what it uses: the flush mode's own service, no
    // processor thread before a request, no grpc++ thread before a gRPC connection, no long
    // polling before a held request, no delay, transaction or revive service before a message
    // of its topic; at most 16 threads in all (issue 34).
    void idleBrokerRunsOnlyTheThreadsItUses_data()
    {
        QTest::addColumn<QByteArray>("flushDiskType");
        QTest::addColumn<QString>("flushThread");
        QTest::addColumn<QString>("idleFlushThread");
        QTest::newRow("ASYNC_FLUSH") << QByteArray("ASYNC_FLUSH") << QStringLiteral("FlushRealTime")
                                     << QStringLiteral("GroupCommit");
        QTest::newRow("SYNC_FLUSH") << QByteArray("SYNC_FLUSH") << QStringLiteral("GroupCommit")
                                    << QStringLiteral("FlushRealTime");
    }

    void idleBrokerRunsOnlyTheThreadsItUses()
    {
        QFETCH(QByteArray, flushDiskType);
        QFETCH(QString, flushThread);
        QFETCH(QString, idleFlushThread);
        QTemporaryDir dir;
        const QString conf = writeConf(dir, QStringLiteral("broker.conf"), "flushDiskType=" + flushDiskType + "\n");
        BrokerProcess broker;
        broker.start(freePorts(dir.filePath(QStringLiteral("store"))) << QStringLiteral("-c") << conf
                                                                      << QStringLiteral("--grpc-port")
                                                                      << QStringLiteral("0"));
        const Ready ready = broker.waitReady();
        QVERIFY2(!ready.grpc.isEmpty(), qPrintable(broker.stderrText()));
        const qint64 pid = broker.process().processId();
        const QStringList idle = threadNames(pid);
        QVERIFY2(idle.contains(flushThread), qPrintable(idle.join(QLatin1Char(' '))));
        QVERIFY2(!idle.contains(idleFlushThread), qPrintable(idle.join(QLatin1Char(' '))));
        QVERIFY2(!idle.contains(QStringLiteral("CommitRealTime")), qPrintable(idle.join(QLatin1Char(' '))));
        QVERIFY2(!idle.contains(QStringLiteral("admin-0")), qPrintable(idle.join(QLatin1Char(' '))));
        for (const char *onDemand : {"PullRequestHold", "PopLongPolling", "PopNotification", "ScheduleMessage",
                                     "TransactionCheck", "PopRevive"})
            QVERIFY2(!idle.contains(QLatin1String(onDemand)), qPrintable(idle.join(QLatin1Char(' '))));
        QVERIFY2(idle.size() <= 16, qPrintable(idle.join(QLatin1Char(' '))));

        // The first admin request starts the admin executor's first thread, and only that one.
        remoting::RemotingClient client;
        const auto runtime = client.invokeSync(ready.broker.toStdString(),
                                               RemotingCommand::createRequest(remoting::RequestCode::kGetBrokerRuntimeInfo),
                                               std::chrono::milliseconds(5000));
        QVERIFY2(runtime.ok() && runtime.response.code == remoting::ResponseCode::kSuccess, runtime.errorMessage.c_str());
        QStringList busy = threadNames(pid);
        QVERIFY2(busy.contains(QStringLiteral("admin-0")) && !busy.contains(QStringLiteral("admin-1")),
                 qPrintable(busy.join(QLatin1Char(' '))));

        // The first gRPC connection starts grpc++ and its threads.
        const int before = int(threadNames(pid).size());
        hostile::RawClient grpcClient;
        QVERIFY(grpcClient.connect(ready.grpc.toStdString()));
        QTRY_VERIFY_WITH_TIMEOUT(threadNames(pid).size() >= before + 3, 10000);
        grpcClient.close();
        QCOMPARE(broker.stop(), 0);
        const QString log = broker.stderrText();
        QVERIFY2(log.contains(QStringLiteral("grpc: server started for the first connection")), qPrintable(log));
    }

    void unknownKeysAreReportedNotFatal()
    {
        QTemporaryDir dir;
        const QString conf = writeConf(dir, QStringLiteral("broker.conf"), "someFutureKey=1\n");
        BrokerProcess broker;
        broker.start(freePorts(dir.filePath(QStringLiteral("store"))) << QStringLiteral("-c") << conf);
        QVERIFY(!broker.waitReady().broker.isEmpty());
        QCOMPARE(broker.stop(), 0);
        QVERIFY(broker.stderrText().contains(QStringLiteral("someFutureKey")));
    }

    void portInUseIsAClearError()
    {
        QTemporaryDir dir;
        BrokerProcess first;
        first.start(freePorts(dir.filePath(QStringLiteral("one"))));
        const Ready ready = first.waitReady();
        QVERIFY(!ready.broker.isEmpty());
        const QString brokerPort = ready.broker.section(QLatin1Char(':'), 1);
        const QString namesrvPort = ready.namesrv.section(QLatin1Char(':'), 1);

        BrokerProcess second;
        second.start({QStringLiteral("--store"), dir.filePath(QStringLiteral("two")), QStringLiteral("--namesrv-port"),
                      QStringLiteral("0"), QStringLiteral("--broker-port"), brokerPort});
        QCOMPARE(second.waitExit(), 1);
        QString err = second.stderrText();
        QVERIFY2(err.contains(brokerPort) && err.contains(QStringLiteral("in use")), qPrintable(err));

        BrokerProcess third;
        third.start({QStringLiteral("--store"), dir.filePath(QStringLiteral("three")), QStringLiteral("--namesrv-port"),
                     namesrvPort, QStringLiteral("--broker-port"), QStringLiteral("0")});
        QCOMPARE(third.waitExit(), 1);
        err = third.stderrText();
        QVERIFY2(err.contains(QStringLiteral("namesrv")) && err.contains(namesrvPort), qPrintable(err));
        QCOMPARE(first.stop(), 0); // the first one never noticed
    }

    void registersWithAnExternalNameServer()
    {
        QTemporaryDir dir;
        BrokerProcess home;
        home.start(freePorts(dir.filePath(QStringLiteral("a"))));
        const Ready homeReady = home.waitReady();
        QVERIFY(!homeReady.namesrv.isEmpty());

        const QString conf = writeConf(dir, QStringLiteral("b.conf"), "brokerName=broker-b\n");
        BrokerProcess guest;
        guest.start({QStringLiteral("-c"), conf, QStringLiteral("-n"), homeReady.namesrv, QStringLiteral("--store"),
                      dir.filePath(QStringLiteral("b")), QStringLiteral("--broker-port"), QStringLiteral("0")});
        const Ready guestReady = guest.waitReady();
        QVERIFY2(!guestReady.broker.isEmpty(), qPrintable(guest.stderrText()));
        QCOMPARE(guestReady.namesrv, homeReady.namesrv);

        remoting::ClusterInfo info;
        std::string error;
        QVERIFY2(remoting::ClusterInfo::fromJson(clusterInfo(homeReady.namesrv), info, error), error.c_str());
        QVERIFY(info.brokerAddrTable.contains("broker-a"));
        QVERIFY(info.brokerAddrTable.contains("broker-b"));
        QCOMPARE(info.brokerAddrTable.at("broker-b").masterAddress(), guestReady.broker.toStdString());

        // A clean stop unregisters.
        QCOMPARE(guest.stop(), 0);
        info = {};
        QVERIFY(remoting::ClusterInfo::fromJson(clusterInfo(homeReady.namesrv), info, error));
        QVERIFY(!info.brokerAddrTable.contains("broker-b"));
        QCOMPARE(home.stop(), 0);
    }

    void nonLoopbackBindNeedsAclOrAnExplicitFlag()
    {
        QTemporaryDir dir;
        const QString refusedStore = dir.filePath(QStringLiteral("refused"));
        BrokerProcess refused;
        refused.start(freePorts(refusedStore) << QStringLiteral("--bind") << QStringLiteral("0.0.0.0"));
        QCOMPARE(refused.waitExit(), 2);
        const QString why = refused.stderrText();
        QVERIFY2(why.contains(QStringLiteral("refusing to listen on 0.0.0.0 without access control"))
                     && why.contains(QStringLiteral("aclEnable=true")) && why.contains(QStringLiteral("--allow-unauthenticated")),
                 qPrintable(why));
        QVERIFY(!std::filesystem::exists(refusedStore.toStdString())); // nothing was started

        BrokerProcess allowed;
        allowed.start(freePorts(dir.filePath(QStringLiteral("allowed"))) << QStringLiteral("--bind") << QStringLiteral("0.0.0.0")
                                                                        << QStringLiteral("--allow-unauthenticated"));
        const Ready ready = allowed.waitReady();
        QString warnings = allowed.stderrText(); // read once: reading consumes it
        QVERIFY2(!ready.broker.isEmpty(), qPrintable(warnings));
        const std::set<std::string> reachable = nonLoopbackIpv4Addresses();
        const std::string host = ready.broker.section(QLatin1Char(':'), 0, 0).toStdString();
        if (!reachable.empty()) {
            // What the NameServer hands to clients is an address of this host other machines can use.
            QVERIFY2(reachable.contains(host), host.c_str());
            QVERIFY(clusterInfo(ready.namesrv).find(ready.broker.toStdString()) != std::string::npos);
        } else {
            qWarning("this host has no non-loopback IPv4 address; the advertised address is %s", host.c_str());
        }
        QCOMPARE(allowed.stop(), 0);
        warnings += allowed.stderrText();
        QVERIFY2(warnings.contains(QStringLiteral("WITHOUT access control")), qPrintable(warnings));
    }

    void aclEnabledBrokerBindsAnywhereAndAdvertisesBrokerIp1()
    {
        QTemporaryDir dir;
        const QString store = dir.filePath(QStringLiteral("store"));
        std::filesystem::create_directories(store.toStdString() + "/conf");
        writeConf(dir, QStringLiteral("store/conf/plain_acl.yml"),
                  "globalWhiteRemoteAddresses:\n  - 127.0.0.*\naccounts:\n  - accessKey: RocketMQ\n    secretKey: 12345678\n");
        // 127.0.0.2 is this host too (all of 127/8 is loopback), so the ready line's NameServer
        // address, which follows brokerIP1 for a wildcard bind, can be asked.
        const QString conf = writeConf(dir, QStringLiteral("broker.conf"), "aclEnable=true\nbrokerIP1=127.0.0.2\n");
        BrokerProcess broker;
        broker.start(freePorts(store) << QStringLiteral("-c") << conf << QStringLiteral("--bind") << QStringLiteral("0.0.0.0"));
        const Ready ready = broker.waitReady();
        QString err = broker.stderrText();
        QVERIFY2(!ready.broker.isEmpty(), qPrintable(err));
        QVERIFY2(ready.broker.startsWith(QStringLiteral("127.0.0.2:")), qPrintable(ready.broker));
        QVERIFY2(ready.namesrv.startsWith(QStringLiteral("127.0.0.2:")), qPrintable(ready.namesrv));
        QVERIFY(clusterInfo(ready.namesrv).find(ready.broker.toStdString()) != std::string::npos);
        QCOMPARE(broker.stop(), 0);
        err += broker.stderrText();
        QVERIFY2(err.contains(QStringLiteral("access control on")), qPrintable(err));
        QVERIFY2(!err.contains(QStringLiteral("WITHOUT access control")), qPrintable(err));
    }

    void adminSignsWithItsAccessKey()
    {
        QTemporaryDir dir;
        const QString store = dir.filePath(QStringLiteral("store"));
        std::filesystem::create_directories(store.toStdString() + "/conf");
        writeConf(dir, QStringLiteral("store/conf/plain_acl.yml"),
                  "accounts:\n  - accessKey: AdminKey1\n    secretKey: AdminSecret1\n    admin: true\n");
        const QString conf = writeConf(dir, QStringLiteral("broker.conf"), "aclEnable=true\n");
        BrokerProcess broker;
        broker.start(freePorts(store) << QStringLiteral("-c") << conf);
        const Ready ready = broker.waitReady();
        QVERIFY2(!ready.broker.isEmpty(), qPrintable(broker.stderrText()));

        const auto admin = [&](const QStringList &keys, const QProcessEnvironment &env) {
            QProcess process;
            process.setProcessEnvironment(env);
            process.start(QStringLiteral(MQDESK_ADMIN_PATH),
                          keys + QStringList{QStringLiteral("updateTopic"), QStringLiteral("-t"), QStringLiteral("Signed"),
                                             QStringLiteral("-b"), ready.broker});
            process.waitForFinished(30000);
            return std::make_pair(process.exitCode(), QString::fromUtf8(process.readAllStandardError()));
        };
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("ROCKETMQ_ACCESS_KEY"));
        env.remove(QStringLiteral("ROCKETMQ_SECRET_KEY"));
        auto [code, err] = admin({}, env);
        QCOMPARE(code, 1);
        QVERIFY2(err.contains(QStringLiteral("NO_PERMISSION")) && err.contains(QStringLiteral("No accessKey is configured")),
                 qPrintable(err));
        std::tie(code, err) = admin({QStringLiteral("--access-key"), QStringLiteral("AdminKey1"), QStringLiteral("--secret-key"),
                                     QStringLiteral("wrong-secret")},
                                    env);
        QCOMPARE(code, 1);
        QVERIFY2(err.contains(QStringLiteral("Check signature failed for accessKey=AdminKey1")), qPrintable(err));
        std::tie(code, err) = admin({QStringLiteral("--access-key"), QStringLiteral("AdminKey1"), QStringLiteral("--secret-key"),
                                     QStringLiteral("AdminSecret1")},
                                    env);
        QVERIFY2(code == 0, qPrintable(err));
        std::tie(code, err) = admin({QStringLiteral("--access-key"), QStringLiteral("AdminKey1")}, env);
        QCOMPARE(code, 2);
        QVERIFY2(err.contains(QStringLiteral("--secret-key")), qPrintable(err));
        env.insert(QStringLiteral("ROCKETMQ_ACCESS_KEY"), QStringLiteral("AdminKey1"));
        env.insert(QStringLiteral("ROCKETMQ_SECRET_KEY"), QStringLiteral("AdminSecret1"));
        std::tie(code, err) = admin({}, env);
        QVERIFY2(code == 0, qPrintable(err));
        QCOMPARE(broker.stop(), 0);
    }
};

QTEST_GUILESS_MAIN(MqdeskBrokerTest)
#include "tst_mqdesk_broker.moc"
