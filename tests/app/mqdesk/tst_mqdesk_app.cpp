// mqdesk (the desktop app) run for real with QT_QPA_PLATFORM=offscreen, a temporary store, free
// ports and its own config/data folders: SIGTERM, SIGINT and SIGHUP each end it with status 0
// within a bounded time, its embedded broker stopped cleanly (no abort file left in the
// store), and the next start on that store runs the normal recovery, not the abnormal one; a
// non-loopback bindAddress without aclEnable is refused unless --allow-unauthenticated is given.

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>

namespace {

// True when something accepts TCP connections on 127.0.0.1:port.
bool accepts(int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return false;
    sockaddr_in address = {};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const bool ok = ::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0;
    ::close(fd);
    return ok;
}

// One running mqdesk; killed if the test ends without stopping it.
class AppProcess
{
public:
    AppProcess(const QString &home, const QString &store, const QStringList &extraArguments = {})
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
        environment.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
        environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), home);
        process_.setProcessEnvironment(environment);
        process_.setProcessChannelMode(QProcess::MergedChannels);
        process_.start(QStringLiteral(MQDESK_APP_PATH), QStringList{QStringLiteral("--store"), store,
                                                                    QStringLiteral("--namesrv-port"), QStringLiteral("0"),
                                                                    QStringLiteral("--broker-port"), QStringLiteral("0")}
                                                            + extraArguments);
    }
    ~AppProcess()
    {
        if (process_.state() != QProcess::NotRunning) {
            process_.kill();
            process_.waitForFinished(5000);
        }
    }

    // Waits (30 s at most) for the broker's "serving at 127.0.0.1:PORT" line and for the port
    // to accept a connection; the port, or 0.
    int waitServing()
    {
        static const QRegularExpression serving(QStringLiteral(R"(serving at [0-9.]+:(\d+))"));
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < 30000 && process_.state() != QProcess::NotRunning) {
            process_.waitForReadyRead(200);
            output_ += QString::fromUtf8(process_.readAll());
            const auto match = serving.match(output_);
            if (match.hasMatch() && accepts(match.captured(1).toInt()))
                return match.captured(1).toInt();
        }
        return 0;
    }

    // Sends `signal`; true when the process ended within `timeoutMs`.
    bool stop(int signal, int timeoutMs)
    {
        ::kill(static_cast<pid_t>(process_.processId()), signal);
        const bool ended = process_.waitForFinished(timeoutMs);
        output_ += QString::fromUtf8(process_.readAll());
        return ended;
    }

    QProcess &process() { return process_; }
    QString output() const { return output_; }

private:
    QProcess process_;
    QString output_;
};

} // namespace

class TestMqdeskApp : public QObject
{
    Q_OBJECT

private slots:
    void stopsCleanlyOnSignal_data();
    void stopsCleanlyOnSignal();
    void exposedBrokerNeedsAclOrAnExplicitYes();
};

void TestMqdeskApp::stopsCleanlyOnSignal_data()
{
    QTest::addColumn<int>("signal");
    QTest::newRow("SIGTERM") << int(SIGTERM);
    QTest::newRow("SIGINT") << int(SIGINT);
    QTest::newRow("SIGHUP") << int(SIGHUP);
}

void TestMqdeskApp::stopsCleanlyOnSignal()
{
    QFETCH(int, signal);
    QTemporaryDir home;
    QVERIFY(home.isValid());
    const QString store = home.filePath(QStringLiteral("store"));

    {
        AppProcess app(home.path(), store);
        QVERIFY2(app.waitServing() > 0, qPrintable(app.output()));
        QVERIFY2(QFile::exists(store + QStringLiteral("/abort")), "a running store holds its abort file");
        QVERIFY2(app.stop(signal, 30000), qPrintable(app.output()));
        QCOMPARE(app.process().exitStatus(), QProcess::NormalExit);
        QVERIFY2(app.process().exitCode() == 0, qPrintable(app.output()));
        QVERIFY2(app.output().contains(QStringLiteral("received, stopping the broker")), qPrintable(app.output()));
        QVERIFY2(!QFile::exists(store + QStringLiteral("/abort")), qPrintable(app.output()));
    }
    // The next start finds a clean store.
    AppProcess again(home.path(), store);
    QVERIFY2(again.waitServing() > 0, qPrintable(again.output()));
    QVERIFY2(again.output().contains(QStringLiteral(": normal recovery")), qPrintable(again.output()));
    QVERIFY2(!again.output().contains(QStringLiteral("abnormal recovery")), qPrintable(again.output()));
    QVERIFY2(again.stop(SIGTERM, 30000), qPrintable(again.output()));
    QCOMPARE(again.process().exitCode(), 0);
    QVERIFY(!QFile::exists(store + QStringLiteral("/abort")));
}

// A broker.conf that binds every address without aclEnable: refused before any window opens
// (exit 2, the refusal names the address and the ways out, nothing listens); with
// --allow-unauthenticated the app starts and warns.
void TestMqdeskApp::exposedBrokerNeedsAclOrAnExplicitYes()
{
    QTemporaryDir home;
    QVERIFY(home.isValid());
    const QString store = home.filePath(QStringLiteral("store"));
    const QString conf = home.filePath(QStringLiteral("broker.conf"));
    QFile file(conf);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("bindAddress=0.0.0.0\n");
    file.close();

    {
        AppProcess refused(home.path(), store, {QStringLiteral("-c"), conf});
        QVERIFY(refused.process().waitForFinished(30000));
        const QString output = refused.output() + QString::fromUtf8(refused.process().readAll());
        QCOMPARE(refused.process().exitCode(), 2);
        QVERIFY2(output.contains(QStringLiteral("0.0.0.0")) && output.contains(QStringLiteral("aclEnable"))
                     && output.contains(QStringLiteral("--allow-unauthenticated")),
                 qPrintable(output));
        QVERIFY2(!output.contains(QStringLiteral("serving at")), qPrintable(output));
    }
    AppProcess allowed(home.path(), store, {QStringLiteral("-c"), conf, QStringLiteral("--allow-unauthenticated")});
    QVERIFY2(allowed.waitServing() > 0, qPrintable(allowed.output()));
    QVERIFY2(allowed.output().contains(QStringLiteral("WITHOUT access control")), qPrintable(allowed.output()));
    QVERIFY2(allowed.stop(SIGTERM, 30000), qPrintable(allowed.output()));
    QCOMPARE(allowed.process().exitCode(), 0);
}

QTEST_GUILESS_MAIN(TestMqdeskApp)
#include "tst_mqdesk_app.moc"
