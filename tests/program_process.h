#pragma once

// One program run for real by a test: started with its own arguments and environment, its
// output (stdout and stderr merged) collected in a file, waited on for a line that says it is
// ready, then stopped with a signal. Killed when the test ends without stopping it.
//
// The output goes to a file, not a pipe: a test blocked elsewhere would otherwise leave a full
// pipe that stalls the program's logging, and with it the program.

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QString>
#include <QTemporaryDir>

#include <csignal>

namespace mqdesk::testing {

class ProgramProcess
{
public:
    ProgramProcess(const QString &program, const QStringList &arguments,
                   const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment())
    {
        process_.setProcessEnvironment(environment);
        process_.setProcessChannelMode(QProcess::MergedChannels);
        process_.setStandardOutputFile(outputPath());
        process_.start(program, arguments);
    }
    ~ProgramProcess()
    {
        if (process_.state() != QProcess::NotRunning) {
            process_.kill();
            process_.waitForFinished(5000);
        }
    }
    ProgramProcess(const ProgramProcess &) = delete;
    ProgramProcess &operator=(const ProgramProcess &) = delete;

    // Waits up to `timeoutMs` for `pattern` to match the output; the match (hasMatch() false
    // when the program ended or the time ran out first).
    QRegularExpressionMatch waitFor(const QRegularExpression &pattern, int timeoutMs)
    {
        QElapsedTimer timer;
        timer.start();
        for (;;) {
            const QRegularExpressionMatch match = pattern.match(output());
            if (match.hasMatch() || timer.elapsed() >= timeoutMs || process_.state() == QProcess::NotRunning)
                return match;
            process_.waitForFinished(50);
        }
    }

    // Sends `signal` and waits up to 30 s for the exit; the exit code, or -1 on a crash or a hang.
    int stop(int signal = SIGTERM)
    {
        if (process_.state() == QProcess::NotRunning)
            return -1;
        ::kill(static_cast<pid_t>(process_.processId()), signal);
        if (!process_.waitForFinished(30000))
            return -1;
        return process_.exitStatus() == QProcess::NormalExit ? process_.exitCode() : -1;
    }

    QString output() const
    {
        QFile file(outputPath());
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    }

private:
    QString outputPath() const { return outputDir_.filePath(QStringLiteral("output.log")); }

    QTemporaryDir outputDir_;
    QProcess process_;
};

} // namespace mqdesk::testing
