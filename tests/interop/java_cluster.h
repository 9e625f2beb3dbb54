#pragma once

// A real Apache RocketMQ cluster for the tests that prove the console and mqdesk-admin against
// Java: the Java NameServer and a master + slave broker pair (one brokerName, brokerId 0 and 1,
// ASYNC_MASTER / SLAVE; Options: the master alone, more broker.conf lines) started from the Maven jars of tests/interop/java/javabroker on free
// loopback ports. Everything the JVMs write (stores, ~/logs/rocketmqlogs, stdout) stays in a
// temporary folder; the destructor stops them (SIGTERM, then SIGKILL), and they are killed with
// the test process if it dies first.
//
// The jars come from `mvn -B -q -f tests/interop/java/pom.xml package` (the CTest fixture
// interop_java_build); without them start() fails naming that command, so a test never skips
// quietly.

#include "broker/client/admin_client.h"
#include "broker/client/producer.h"
#include "broker/client/pull_consumer.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>

#include <arpa/inet.h>
#include <csignal>
#include <sys/prctl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace mqdesk::test {

class JavaCluster
{
public:
    static constexpr const char *kClusterName = "JavaCluster";
    static constexpr const char *kBrokerName = "broker-java";
    // JVM start-up on a loaded 2-core machine is slow; a broker has been seen to take over a minute.
    static constexpr int kBootTimeoutMs = 120000;

    struct Options
    {
        bool slave = true;      // the SLAVE beside the master
        QStringList brokerConf; // more broker.conf lines, for every broker (e.g. ACL 2.0's keys)
    };

    JavaCluster(QString classpathFile, Options options)
        : classpathFile_(std::move(classpathFile)), options_(std::move(options))
    {
    }
    explicit JavaCluster(QString classpathFile) : classpathFile_(std::move(classpathFile)) {}
    JavaCluster(const JavaCluster &) = delete;
    JavaCluster &operator=(const JavaCluster &) = delete;
    ~JavaCluster() { stop(); }

    // Starts the NameServer, then the master and the slave, each up to its "boot success" line, and
    // returns once the NameServer lists them.
    // On failure `error` says which process and why (with the end of its output).
    bool start(QString &error)
    {
        QFile file(classpathFile_);
        if (!file.open(QIODevice::ReadOnly)) {
            error = QStringLiteral("the Java broker's classpath %1 is missing: build it with "
                                   "`mvn -B -q -f tests/interop/java/pom.xml package` (CTest: interop_java_build)")
                        .arg(classpathFile_);
            return false;
        }
        classpath_ = QString::fromUtf8(file.readAll()).trimmed();
        if (!dir_.isValid()) {
            error = QStringLiteral("no temporary folder: %1").arg(dir_.errorString());
            return false;
        }
        std::set<quint16> taken;
        namesrvPort_ = freePort(taken, 0, 0);
        masterPort_ = freePort(taken, 2, 1); // fastListenPort = listenPort-2, haListenPort = listenPort+1
        slavePort_ = options_.slave ? freePort(taken, 2, 1) : 0;
        if (!namesrvPort_ || !masterPort_ || (options_.slave && !slavePort_)) {
            error = QStringLiteral("no free loopback ports for the Java cluster");
            return false;
        }

        writeFile(QStringLiteral("namesrv.conf"), {QStringLiteral("listenPort=%1").arg(namesrvPort_)});
        writeFile(QStringLiteral("master.conf"), brokerConf(0, masterPort_));
        writeFile(QStringLiteral("slave.conf"), brokerConf(1, slavePort_));

        return launch(QStringLiteral("namesrv"), QStringLiteral("-Xmx256m"),
                      startup(QStringLiteral("org.apache.rocketmq.namesrv.NamesrvStartup"), QStringLiteral("namesrv.conf")),
                      "boot success", error)
               && launch(QStringLiteral("master"), QStringLiteral("-Xmx512m"),
                         startup(QStringLiteral("org.apache.rocketmq.broker.BrokerStartup"), QStringLiteral("master.conf")),
                         "boot success", error)
               && (!options_.slave
                   || launch(QStringLiteral("slave"), QStringLiteral("-Xmx512m"),
                             startup(QStringLiteral("org.apache.rocketmq.broker.BrokerStartup"), QStringLiteral("slave.conf")),
                             "boot success", error))
               && waitForRegistration(error);
    }

    // A Java push consumer of `group` on `topic` (tests/interop/java_push_consumer.java at
    // `sourceFile`, run from source on the brokers' classpath: rocketmq-client 5.5.0), online
    // until stop(); it answers every message (and CONSUME_MESSAGE_DIRECTLY) CONSUME_SUCCESS.
    bool startPushConsumer(const QString &sourceFile, const QString &group, const QString &topic, QString &error)
    {
        return launch(QStringLiteral("consumer-") + group, QStringLiteral("-Xmx128m"),
                      {sourceFile, namesrvAddress(), group, topic}, "consumer ready", error);
    }

    // Slave first, so that the master does not log a broken HA connection as an error; all are
    // asked at once and waited for together (a broker's shutdown hook takes a few seconds).
    void stop()
    {
        for (auto it = processes_.rbegin(); it != processes_.rend(); ++it) {
            if ((*it)->state() != QProcess::NotRunning)
                (*it)->terminate();
        }
        for (auto it = processes_.rbegin(); it != processes_.rend(); ++it) {
            if ((*it)->state() != QProcess::NotRunning && !(*it)->waitForFinished(20000)) {
                (*it)->kill();
                (*it)->waitForFinished(5000);
            }
        }
        processes_.clear();
    }

    QString namesrvAddress() const { return address(namesrvPort_); }
    QString masterAddress() const { return address(masterPort_); }
    QString slaveAddress() const { return address(slavePort_); }
    QString folder() const { return dir_.path(); }

private:
    static QString address(quint16 port) { return QStringLiteral("127.0.0.1:%1").arg(port); }

    // Binds a TCP socket on every address (as the JVMs do) to `port`, 0 for one the kernel picks;
    // returns the bound port, 0 when taken. The socket is closed again at once.
    static int bindTcp(int port)
    {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0)
            return 0;
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_ANY);
        addr.sin_port = htons(static_cast<uint16_t>(port));
        socklen_t length = sizeof addr;
        int bound = 0;
        if (::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0
            && ::getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &length) == 0)
            bound = ntohs(addr.sin_port);
        ::close(fd);
        return bound;
    }

    // A free port P with P-below .. P+above free as well and none in `taken`, drawn at random from
    // 20000-32000: below Linux's ephemeral range (32768-60999), so neither an outgoing connection nor a
    // parallel test's bind(0) can take it between this check and the JVM's bind.
    static quint16 freePort(std::set<quint16> &taken, int below, int above)
    {
        for (int attempt = 0; attempt < 200; ++attempt) {
            const int port = QRandomGenerator::global()->bounded(20000, 32000);
            bool free = true;
            for (int p = port - below; p <= port + above && free; ++p)
                free = !taken.count(static_cast<quint16>(p)) && bindTcp(p) == p;
            if (!free)
                continue;
            for (int p = port - below; p <= port + above; ++p)
                taken.insert(static_cast<quint16>(p));
            return static_cast<quint16>(port);
        }
        return 0;
    }

    QStringList brokerConf(int brokerId, quint16 port) const
    {
        const QString store = dir_.filePath(brokerId == 0 ? QStringLiteral("store-master") : QStringLiteral("store-slave"));
        QStringList lines{
            QStringLiteral("brokerClusterName=%1").arg(QLatin1String(kClusterName)),
            QStringLiteral("brokerName=%1").arg(QLatin1String(kBrokerName)),
            QStringLiteral("brokerId=%1").arg(brokerId),
            QStringLiteral("brokerRole=%1").arg(brokerId == 0 ? QStringLiteral("ASYNC_MASTER") : QStringLiteral("SLAVE")),
            QStringLiteral("namesrvAddr=%1").arg(namesrvAddress()),
            QStringLiteral("listenPort=%1").arg(port),
            QStringLiteral("brokerIP1=127.0.0.1"),
            QStringLiteral("brokerIP2=127.0.0.1"),
            QStringLiteral("storePathRootDir=%1").arg(store),
            QStringLiteral("storePathCommitLog=%1/commitlog").arg(store),
            QStringLiteral("autoCreateTopicEnable=true"),
            QStringLiteral("flushDiskType=ASYNC_FLUSH"),
            // Small files: the defaults (1 GiB commit log files, the timer wheel) cost start-up time.
            QStringLiteral("mappedFileSizeCommitLog=67108864"),
            QStringLiteral("timerWheelEnable=false"),
        };
        if (brokerId != 0) // the master's HA port; without it the slave waits for the NameServer to name it
            lines << QStringLiteral("haMasterAddress=127.0.0.1:%1").arg(masterPort_ + 1);
        return lines + options_.brokerConf;
    }

    void writeFile(const QString &name, const QStringList &lines) const
    {
        QFile file(dir_.filePath(name));
        if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            file.write((lines.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8());
    }

    QString readTail(const QString &name) const
    {
        QFile file(dir_.filePath(name));
        if (!file.open(QIODevice::ReadOnly))
            return {};
        const QByteArray all = file.readAll();
        return QString::fromUtf8(all.right(2000));
    }

    // "boot success" comes before a 5.x broker has registered with the NameServer (a slave can
    // take up to its first 10 s registration round): wait until the NameServer lists both.
    bool waitForRegistration(QString &error) const
    {
        client::ClientConfig config;
        config.namesrvAddr = namesrvAddress().toStdString();
        config.instanceName = "java-cluster-boot";
        client::AdminClient admin(config);
        std::map<int64_t, std::string> expected{{0, masterAddress().toStdString()}};
        if (options_.slave)
            expected.emplace(1, slaveAddress().toStdString());
        QElapsedTimer timer;
        timer.start();
        std::string seen;
        while (timer.elapsed() < kBootTimeoutMs) {
            const auto info = admin.clusterInfo();
            if (info.ok) {
                const auto broker = info.value.brokerAddrTable.find(kBrokerName);
                if (broker != info.value.brokerAddrTable.end() && broker->second.brokerAddrs == expected) {
                    admin.shutdown();
                    return true;
                }
                seen = info.value.toJson();
            } else {
                seen = info.error;
            }
            QThread::msleep(500);
        }
        admin.shutdown();
        error = QStringLiteral("the Java NameServer %1 did not list the brokers in %2 s: %3")
                    .arg(namesrvAddress())
                    .arg(kBootTimeoutMs / 1000)
                    .arg(QString::fromStdString(seen));
        return false;
    }

    bool outputContains(const QString &name, const char *text) const
    {
        QFile file(dir_.filePath(name));
        return file.open(QIODevice::ReadOnly) && file.readAll().contains(text);
    }

    QStringList startup(const QString &mainClass, const QString &conf) const
    {
        return {mainClass, QStringLiteral("-c"), dir_.filePath(conf)};
    }

    // Starts `program` (a main class or a source file, and its arguments) on the brokers'
    // classpath and waits until its output holds `ready`.
    bool launch(const QString &name, const QString &heap, const QStringList &program, const char *ready, QString &error)
    {
        QString java = QStandardPaths::findExecutable(QStringLiteral("java"));
        const QString javaHome = qEnvironmentVariable("JAVA_HOME");
        if (!javaHome.isEmpty() && QFile::exists(javaHome + QStringLiteral("/bin/java")))
            java = javaHome + QStringLiteral("/bin/java");
        if (java.isEmpty()) {
            error = QStringLiteral("java is not on the PATH (scripts/install-deps.sh installs openjdk-17-jdk-headless)");
            return false;
        }
        auto process = std::make_unique<QProcess>();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("ROCKETMQ_HOME"), dir_.path());
        process->setProcessEnvironment(env);
        process->setWorkingDirectory(dir_.path());
        const QString out = name + QStringLiteral(".out");
        process->setStandardOutputFile(dir_.filePath(out));
        process->setStandardErrorFile(dir_.filePath(out), QIODevice::Append);
        // A test killed by CTest's timeout never runs the destructor: the JVMs go with it instead
        // of holding their ports and CPU afterwards.
        process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
        process->start(java, QStringList{QStringLiteral("-Duser.home=%1").arg(dir_.path()),
                                         QStringLiteral("-Drocketmq.home.dir=%1").arg(dir_.path()), heap,
                                         QStringLiteral("-XX:+UseSerialGC"), QStringLiteral("-cp"), classpath_}
                                 + program);
        if (!process->waitForStarted(10000)) {
            error = QStringLiteral("%1: %2 did not start: %3").arg(name, java, process->errorString());
            return false;
        }
        QProcess *started = process.get();
        processes_.push_back(std::move(process));
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < kBootTimeoutMs) {
            if (outputContains(out, ready))
                return true;
            if (started->state() == QProcess::NotRunning || started->waitForFinished(200)) {
                error = QStringLiteral("the Java %1 exited (code %2) before \"%3\":\n%4")
                            .arg(name)
                            .arg(started->exitCode())
                            .arg(QLatin1String(ready), readTail(out));
                return false;
            }
        }
        error = QStringLiteral("the Java %1 printed no \"%2\" in %3 s:\n%4")
                    .arg(name, QLatin1String(ready))
                    .arg(kBootTimeoutMs / 1000)
                    .arg(readTail(out));
        return false;
    }

    QString classpathFile_;
    Options options_;
    QString classpath_;
    QTemporaryDir dir_;
    quint16 namesrvPort_ = 0;
    quint16 masterPort_ = 0;
    quint16 slavePort_ = 0;
    std::vector<std::unique_ptr<QProcess>> processes_;
};

// What seedTopic put in the Java cluster: a topic on the master, keyed and tagged messages, and
// a consumer group that committed half of each queue and went offline.
struct SeededTopic
{
    std::string topic;
    std::string group;
    int queues = 0;
    std::vector<client::SendResult> sent; // message i has key "<topic>-key-<i>", tag "Tag<i % 2>", body "body <i>"
    std::map<int32_t, int64_t> maxOffsetByQueue;
    std::map<int32_t, int64_t> committedByQueue;
    int64_t lag() const
    {
        int64_t total = 0;
        for (const auto &[queueId, max] : maxOffsetByQueue)
            total += max - committedByQueue.at(queueId);
        return total;
    }
};

inline std::string seedKey(const std::string &topic, int i) { return topic + "-key-" + std::to_string(i); }

// Creates `topic` (4 queues) on the Java master through the C++ client, sends `messages`
// messages and commits about half of each queue for `group` (a pull consumer that then shuts
// down, so the group has offsets and no client online). Empty `error` on success.
inline SeededTopic seedTopic(const JavaCluster &cluster, const std::string &topic, const std::string &group,
                             int messages, std::string &error)
{
    SeededTopic seeded{topic, group, 4, {}, {}, {}};
    client::ClientConfig config;
    config.namesrvAddr = cluster.namesrvAddress().toStdString();
    config.instanceName = "java-cluster-seed";
    {
        client::AdminClient admin(config);
        remoting::TopicConfigData topicConfig;
        topicConfig.topicName = topic;
        topicConfig.readQueueNums = seeded.queues;
        topicConfig.writeQueueNums = seeded.queues;
        const auto created = admin.createTopicOnBroker(cluster.masterAddress().toStdString(), topicConfig);
        if (!created.ok) {
            error = "create " + topic + ": " + created.error;
            return seeded;
        }
        // The master registers the new topic with the NameServer at once; wait for the route.
        QElapsedTimer timer;
        timer.start();
        while (!admin.topicRoute(topic).ok && timer.elapsed() < 30000)
            QThread::msleep(200);
        admin.shutdown();
    }

    client::ProducerOptions producerOptions;
    producerOptions.group = "PG_JAVA_CLUSTER";
    client::Producer producer(config, producerOptions);
    if (const auto started = producer.start(); !started.ok) {
        error = "producer: " + started.error;
        return seeded;
    }
    for (int i = 0; i < messages; ++i) {
        client::Message message;
        message.topic = topic;
        message.tags = "Tag" + std::to_string(i % 2);
        message.keys = {seedKey(topic, i)};
        message.setBody("body " + std::to_string(i));
        const auto sent = producer.send(message);
        if (!sent.ok) {
            error = "send " + std::to_string(i) + ": " + sent.error;
            return seeded;
        }
        seeded.sent.push_back(sent.value);
    }
    producer.shutdown();

    client::PullConsumerOptions consumerOptions;
    consumerOptions.group = group;
    client::PullConsumer consumer(config, consumerOptions);
    if (const auto subscribed = consumer.subscribe(topic); !subscribed.ok) {
        error = "subscribe: " + subscribed.error;
        return seeded;
    }
    if (const auto started = consumer.start(); !started.ok) {
        error = "consumer: " + started.error;
        return seeded;
    }
    const auto queues = consumer.fetchSubscribeMessageQueues(topic);
    if (!queues.ok) {
        error = "queues: " + queues.error;
        return seeded;
    }
    for (const auto &queue : queues.value) {
        const auto max = consumer.maxOffset(queue);
        if (!max.ok) {
            error = "max offset: " + max.error;
            return seeded;
        }
        const int64_t half = max.value / 2;
        if (const auto committed = consumer.updateConsumeOffset(queue, half); !committed.ok) {
            error = "commit: " + committed.error;
            return seeded;
        }
        seeded.maxOffsetByQueue[queue.queueId] = max.value;
        seeded.committedByQueue[queue.queueId] = half;
    }
    consumer.shutdown();
    return seeded;
}

} // namespace mqdesk::test
