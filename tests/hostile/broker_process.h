#pragma once

// One real mqdesk-broker for the hostile suite: started on free ports over a store folder,
// stopped with SIGTERM or killed with SIGKILL, restarted on the same store. Its log (stdout and
// stderr merged, every start appended to one file) lets a case count the lines it caused.

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QString>
#include <QTemporaryDir>

#include <sys/resource.h>

#include <csignal>
#include <string>

namespace mqdesk::hostile {

class BrokerProcess
{
public:
    ~BrokerProcess() { kill(); }

    // Starts and waits for the ready line; false (with the output in log()) when it never comes.
    // The output goes to a file, not a pipe: a test blocked on a socket would otherwise leave a
    // full pipe that stalls the broker's logging, and with it the broker.
    // A process started from now on runs with this RLIMIT_NOFILE (soft and hard), so that it
    // cannot raise it; 0: the test's own.
    void setOpenFileLimit(rlim_t limit)
    {
        process_.setChildProcessModifier([limit] {
            if (limit > 0) {
                const rlimit both{limit, limit};
                ::setrlimit(RLIMIT_NOFILE, &both);
            }
        });
    }
    qint64 pid() const { return process_.processId(); }

    bool start(const QString &storeDir, const QStringList &extraArguments = {})
    {
        process_.setProcessChannelMode(QProcess::MergedChannels);
        process_.setStandardOutputFile(logPath(), QIODevice::Append);
        process_.start(QStringLiteral(MQDESK_BROKER_PATH),
                       QStringList{QStringLiteral("--store"), storeDir, QStringLiteral("--namesrv-port"),
                                   QStringLiteral("0"), QStringLiteral("--broker-port"), QStringLiteral("0")}
                           + extraArguments);
        static const QRegularExpression ready(
            QStringLiteral(R"(mqdesk-broker ready: namesrv=(\S+) broker=(\S+) store=(\S+) grpc=(\S+))"));
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < 30000) {
            const QString text = log();
            const auto match = ready.match(text, readySearchFrom_);
            if (match.hasMatch()) {
                namesrvAddress_ = match.captured(1).toStdString();
                brokerAddress_ = match.captured(2).toStdString();
                grpcAddress_ = match.captured(4).toStdString();
                readySearchFrom_ = match.capturedEnd();
                return true;
            }
            if (process_.state() == QProcess::NotRunning)
                return false;
            process_.waitForFinished(50);
        }
        return false;
    }

    // SIGTERM (clean) or SIGKILL; the exit code, -1 on a crash, a hang or a kill.
    int stop(int signal = SIGTERM)
    {
        if (process_.state() == QProcess::NotRunning)
            return -1;
        ::kill(static_cast<pid_t>(process_.processId()), signal);
        if (!process_.waitForFinished(30000))
            return -1;
        return process_.exitStatus() == QProcess::NormalExit ? process_.exitCode() : -1;
    }

    void kill()
    {
        if (process_.state() != QProcess::NotRunning) {
            process_.kill();
            process_.waitForFinished(5000);
        }
    }

    bool running() const { return process_.state() == QProcess::Running; }
    const std::string &brokerAddress() const { return brokerAddress_; }
    const std::string &namesrvAddress() const { return namesrvAddress_; }
    const std::string &grpcAddress() const { return grpcAddress_; }

    // Lines logged so far, over every start.
    int logLines() { return static_cast<int>(log().count(QLatin1Char('\n'))); }
    QString log()
    {
        QFile file(logPath());
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    }

private:
    QString logPath() const { return logDir_.filePath(QStringLiteral("broker.log")); }

    QTemporaryDir logDir_; // apart from the store's scratch folder, which must hold nothing else
    QProcess process_;
    std::string brokerAddress_;
    std::string namesrvAddress_;
    std::string grpcAddress_;
    qsizetype readySearchFrom_ = 0;
};

} // namespace mqdesk::hostile
