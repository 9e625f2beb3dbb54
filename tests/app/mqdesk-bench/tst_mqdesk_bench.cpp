// mqdesk-bench run for real, as a user runs it: its JSON summary, the store it leaves behind,
// and its answers to bad flags. No figure is asserted — only that they are there and add up.

#include "test_support.h"

#include "broker/common/message_properties.h"
#include "broker/store/message_store.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <csignal>

using namespace mqdesk;

class MqdeskBenchTest : public QObject
{
    Q_OBJECT

private:
    struct Run
    {
        int exitCode = -1;
        QByteArray out;
        QByteArray err;
    };

    Run bench(const QStringList &arguments)
    {
        QProcess process;
        process.start(QStringLiteral(MQDESK_BENCH_PATH), arguments);
        process.waitForFinished(300000);
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                process.readAllStandardOutput(), process.readAllStandardError()};
    }

private slots:
    void storeRunPrintsJsonAndLeavesAReadableStore_data()
    {
        QTest::addColumn<QString>("flush");
        QTest::addColumn<int>("threads");
        QTest::newRow("sync, 8 threads") << QStringLiteral("sync") << 8;
        QTest::newRow("async") << QStringLiteral("async") << 1;
        QTest::newRow("async-pool, 2 threads") << QStringLiteral("async-pool") << 2;
    }

    void storeRunPrintsJsonAndLeavesAReadableStore()
    {
        QFETCH(QString, flush);
        QFETCH(int, threads);
        QTemporaryDir dir;
        const int count = 3000;
        const Run run = bench({QStringLiteral("store"), QStringLiteral("--dir"), dir.path(), QStringLiteral("--flush"),
                               flush, QStringLiteral("--threads"), QString::number(threads), QStringLiteral("--size"),
                               QStringLiteral("700"), QStringLiteral("--count"), QString::number(count),
                               QStringLiteral("--file-size"), QStringLiteral("1048576"), QStringLiteral("--topics"),
                               QStringLiteral("2"), QStringLiteral("--queues"), QStringLiteral("3"),
                               QStringLiteral("--keys"), QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QJsonParseError parseError;
        const QJsonObject json = QJsonDocument::fromJson(run.out, &parseError).object();
        QVERIFY2(parseError.error == QJsonParseError::NoError, run.out.constData());
        QCOMPARE(json.value(QStringLiteral("flush")).toString(), flush);
        QCOMPARE(json.value(QStringLiteral("threads")).toInt(), threads);
        QCOMPARE(json.value(QStringLiteral("size")).toInt(), 700);
        QCOMPARE(json.value(QStringLiteral("count")).toInt(), count);
        QCOMPARE(json.value(QStringLiteral("stored")).toInt(), count);
        QCOMPARE(json.value(QStringLiteral("send_failed")).toInt(), 0);
        QVERIFY(json.value(QStringLiteral("tps")).toDouble() > 0);
        QVERIFY(json.value(QStringLiteral("mb_per_s")).toDouble() > 0);
        for (const char *key : {"p50", "p99", "p999", "max"})
            QVERIFY(json.value(QStringLiteral("put_latency_us")).toObject().contains(QLatin1String(key)));
        for (const char *key : {"p50", "p99", "max"})
            QVERIFY(json.value(QStringLiteral("flush_latency_us")).toObject().contains(QLatin1String(key)));
        QVERIFY(json.value(QStringLiteral("keys")).toBool());
        QVERIFY(json.contains(QStringLiteral("dispatch_behind_bytes")));
        QVERIFY(json.value(QStringLiteral("dispatch_catchup_ms")).toDouble() >= 0);
        const QJsonObject baseline = json.value(QStringLiteral("baseline")).toObject();
        QVERIFY(baseline.value(QStringLiteral("fdatasync_us_p50")).toDouble() > 0);
        QVERIFY(baseline.value(QStringLiteral("seq_write_mb_per_s")).toDouble() > 0);
        // The per-second lines went to stderr in RocketMQ's form.
        QVERIFY2(run.err.contains("Send TPS: ") && run.err.contains("Response Failed: "), run.err.constData());

        // The store is whole and cleanly shut down: every message, queue offsets without gaps.
        store::MessageStoreConfig config;
        config.storePathRootDir = (dir.path() + QStringLiteral("/store")).toStdString();
        config.mappedFileSizeCommitLog = 1048576;
        store::MessageStore store(config);
        std::string error;
        QVERIFY2(store.open(error), error.c_str());
        QVERIFY(!store.recoveryReport().abnormal);
        int records = 0;
        std::map<std::pair<std::string, int32_t>, int64_t> next;
        bool gapless = true;
        bool queuesAgree = true;
        std::vector<std::pair<std::string, std::string>> keys; // topic, key
        store.commitLog().forEachRecord(0, [&](int64_t offset, const common::RecordView &r) {
            ++records;
            gapless &= r.queueOffset == next[{std::string(r.topic), r.queueId}]++;
            // Its consume-queue entry points back at it.
            const auto read = store.getMessage(std::string(r.topic), r.queueId, r.queueOffset, 1);
            queuesAgree &= read.messages.size() == 1 && read.messages[0].physicalOffset == offset;
            keys.emplace_back(r.topic, std::string(*common::MessageProperties::find(r.properties, "KEYS")));
            return r.body.size() == 700;
        });
        QCOMPARE(records, count);
        QVERIFY(gapless);
        QVERIFY(queuesAgree);
        QCOMPARE(next.size(), size_t{6}); // 2 topics × 3 queues
        // Every key is found through the index.
        for (const auto &[topic, key] : keys)
            QCOMPARE(store.queryMessage(topic, key, 4, 0, INT64_MAX).messages.size(), size_t{1});
    }

    // explore on a tiny store: it builds one, reads it back in every way, and reuses it next time.
    void exploreBuildsMeasuresAndReuses()
    {
        QTemporaryDir dir;
        const QStringList arguments{QStringLiteral("explore"), QStringLiteral("--dir"), dir.path(),
                                    QStringLiteral("--count"), QStringLiteral("3000"), QStringLiteral("--file-size"),
                                    QStringLiteral("1048576"), QStringLiteral("--json")};
        for (const bool reused : {false, true}) {
            const Run run = bench(arguments);
            QVERIFY2(run.exitCode == 0, run.err.constData());
            QJsonParseError parseError;
            const QJsonObject json = QJsonDocument::fromJson(run.out, &parseError).object();
            QVERIFY2(parseError.error == QJsonParseError::NoError, run.out.constData());
            QCOMPARE(json.value(QStringLiteral("reused")).toBool(), reused);
            QCOMPARE(json.value(QStringLiteral("records")).toInt(), 3000);
            QCOMPARE(json.value(QStringLiteral("verify_faults")).toInt(), 0);
            QCOMPARE(json.value(QStringLiteral("filtered_matches")).toInt(), 3); // every 1000th
            QVERIFY(json.value(QStringLiteral("commit_log_files")).toInt() >= 1);
            for (const char *key : {"first_screen_ms", "open_ms", "last_page_ms", "offset_by_time_ms",
                                    "filtered_scan_ms", "verify_ms", "verify_mb_per_s", "cached_read_mb_per_s",
                                    "ratio_verify_to_cached_read"})
                QVERIFY2(json.value(QLatin1String(key)).toDouble() > 0, key);
        }
        const Run bad = bench({QStringLiteral("explore"), QStringLiteral("--dir"), dir.path(), QStringLiteral("--count"),
                               QStringLiteral("0")});
        QVERIFY(bad.exitCode != 0);
        QVERIFY2(bad.err.contains("--count"), bad.err.constData());
    }

    // timer: a small run at 100 ms precision; every timer message delivered, none early.
    void timerRunDeliversEveryMessageAndNoneEarly()
    {
        QTemporaryDir dir;
        const Run run = bench({QStringLiteral("timer"), QStringLiteral("--dir"), dir.path(), QStringLiteral("--count"),
                               QStringLiteral("300"), QStringLiteral("--spread-ms"), QStringLiteral("1500"),
                               QStringLiteral("--precision"), QStringLiteral("100"), QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QJsonParseError parseError;
        const QJsonObject json = QJsonDocument::fromJson(run.out, &parseError).object();
        QVERIFY2(parseError.error == QJsonParseError::NoError, run.out.constData());
        QCOMPARE(json.value(QStringLiteral("delivered")).toInt(), 300);
        QCOMPARE(json.value(QStringLiteral("early")).toInt(), 0);
        QCOMPARE(json.value(QStringLiteral("precisionMs")).toInt(), 100);
        for (const char *key : {"plainPutsPerSec", "timerPutsPerSec"})
            QVERIFY2(json.value(QLatin1String(key)).toDouble() > 0, key);
        QVERIFY(json.value(QStringLiteral("latenessMaxMs")).toDouble() >= json.value(QStringLiteral("latenessP50Ms")).toDouble());
        const Run bad = bench({QStringLiteral("timer"), QStringLiteral("--dir"), dir.path(), QStringLiteral("--precision"),
                               QStringLiteral("300")});
        QVERIFY(bad.exitCode != 0);
    }

    void refusesBadInput()
    {
        QTemporaryDir dir;
        const Run badFlush = bench({QStringLiteral("store"), QStringLiteral("--dir"), dir.path(),
                                    QStringLiteral("--flush"), QStringLiteral("sometimes")});
        QVERIFY(badFlush.exitCode != 0);
        QVERIFY2(badFlush.err.contains("--flush"), badFlush.err.constData());

        const Run tooBig = bench({QStringLiteral("store"), QStringLiteral("--dir"), dir.path(), QStringLiteral("--size"),
                                  QStringLiteral("100000"), QStringLiteral("--file-size"), QStringLiteral("65536")});
        QVERIFY(tooBig.exitCode != 0);
        QVERIFY2(tooBig.err.contains("--file-size"), tooBig.err.constData());

        QDir(dir.path()).mkpath(QStringLiteral("store/commitlog"));
        const Run notFresh = bench({QStringLiteral("store"), QStringLiteral("--dir"), dir.path(),
                                    QStringLiteral("--count"), QStringLiteral("10")});
        QCOMPARE(notFresh.exitCode, 2);
        QVERIFY2(notFresh.err.contains("not empty"), notFresh.err.constData());
    }

    // produce then consume against a real mqdesk-broker, each with the echo baseline.
    void produceThenConsumeAgainstABroker()
    {
        QTemporaryDir dir;
        QProcess broker;
        broker.start(QStringLiteral(MQDESK_BROKER_PATH),
                     {QStringLiteral("--store"), dir.filePath(QStringLiteral("store")), QStringLiteral("--namesrv-port"),
                      QStringLiteral("0"), QStringLiteral("--broker-port"), QStringLiteral("0")});
        QVERIFY(broker.waitForReadyRead(20000));
        const QString ready = QString::fromUtf8(broker.readLine());
        const QString namesrv = ready.section(QStringLiteral("namesrv="), 1).section(QLatin1Char(' '), 0, 0);
        QVERIFY2(!namesrv.isEmpty(), qPrintable(ready));

        const auto runJson = [&](const QString &mode, const QString &count) {
            const Run run = bench({mode, QStringLiteral("-n"), namesrv, QStringLiteral("-t"), QStringLiteral("BenchT"),
                                   QStringLiteral("-w"), QStringLiteral("8"), QStringLiteral("-s"), QStringLiteral("256"),
                                   QStringLiteral("--count"), count, QStringLiteral("--baseline"),
                                   QStringLiteral("--json")});
            if (run.exitCode != 0)
                qWarning("%s", run.err.constData());
            const QJsonDocument doc = QJsonDocument::fromJson(run.out);
            return std::make_pair(run, doc.object());
        };
        const auto [produce, sent] = runJson(QStringLiteral("produce"), QStringLiteral("2000"));
        QCOMPARE(produce.exitCode, 0);
        QCOMPARE(sent.value(QStringLiteral("mode")).toString(), QStringLiteral("produce"));
        QCOMPARE(sent.value(QStringLiteral("result")).toObject().value(QStringLiteral("messages")).toInt(), 2000);
        QCOMPARE(sent.value(QStringLiteral("result")).toObject().value(QStringLiteral("failed")).toInt(), 0);
        QCOMPARE(sent.value(QStringLiteral("baseline")).toObject().value(QStringLiteral("messages")).toInt(), 2000);
        QVERIFY(sent.value(QStringLiteral("ratioToBaseline")).toDouble() > 0);
        QVERIFY(sent.value(QStringLiteral("result")).toObject().value(QStringLiteral("rtMicros")).toObject().contains(
            QStringLiteral("p99")));
        // The progress lines go to stderr in RocketMQ's form.
        QVERIFY2(produce.err.contains("Send TPS: "), produce.err.constData());

        // Asked for more than there is, consume reads every message once — the 2000 timed ones
        // and the untimed warm-up send — and stops when all queues are caught up.
        const auto [consume, read] = runJson(QStringLiteral("consume"), QStringLiteral("5000"));
        QCOMPARE(consume.exitCode, 0);
        QCOMPARE(read.value(QStringLiteral("result")).toObject().value(QStringLiteral("messages")).toInt(), 2001);
        QVERIFY(read.value(QStringLiteral("baseline")).toObject().value(QStringLiteral("messages")).toInt() >= 5000);

        ::kill(static_cast<pid_t>(broker.processId()), SIGTERM);
        QVERIFY(broker.waitForFinished(20000));
        QCOMPARE(broker.exitCode(), 0);

        // An unreachable NameServer is a clear failure, not a hang.
        const Run unreachable = bench({QStringLiteral("produce"), QStringLiteral("-n"), QStringLiteral("127.0.0.1:1"),
                                       QStringLiteral("--count"), QStringLiteral("10")});
        QCOMPARE(unreachable.exitCode, 1);
        QVERIFY2(unreachable.err.contains("127.0.0.1:1"), unreachable.err.constData());
    }

    // produce --grpc: the same workload over remoting, then over the broker's gRPC endpoint, in
    // one run; both rates and their ratio are reported, and every message of both is stored
    // (a consume afterwards reads them all).
    void produceOverGrpcAndRemotingInOneRun()
    {
        QTemporaryDir dir;
        QProcess broker;
        broker.start(QStringLiteral(MQDESK_BROKER_PATH),
                     {QStringLiteral("--store"), dir.filePath(QStringLiteral("store")), QStringLiteral("--namesrv-port"),
                      QStringLiteral("0"), QStringLiteral("--broker-port"), QStringLiteral("0"),
                      QStringLiteral("--grpc-port"), QStringLiteral("0")});
        QVERIFY(broker.waitForReadyRead(20000));
        const QString ready = QString::fromUtf8(broker.readLine()).trimmed();
        const QString namesrv = ready.section(QStringLiteral("namesrv="), 1).section(QLatin1Char(' '), 0, 0);
        const QString grpc = ready.section(QStringLiteral("grpc="), 1).section(QLatin1Char(' '), 0, 0);
        QVERIFY2(!namesrv.isEmpty() && !grpc.isEmpty(), qPrintable(ready));

        int64_t stored = 0;
        for (const QString &pipeline : {QStringLiteral("1"), QStringLiteral("8")}) {
            const Run run = bench({QStringLiteral("produce"), QStringLiteral("-n"), namesrv, QStringLiteral("--grpc"), grpc,
                                   QStringLiteral("-t"), QStringLiteral("BenchGrpc"), QStringLiteral("-w"),
                                   QStringLiteral("4"), QStringLiteral("-s"), QStringLiteral("300"),
                                   QStringLiteral("--count"), QStringLiteral("1000"), QStringLiteral("--pipeline"),
                                   pipeline, QStringLiteral("--json")});
            QVERIFY2(run.exitCode == 0, run.err.constData());
            const QJsonObject report = QJsonDocument::fromJson(run.out).object();
            const QJsonObject remoting = report.value(QStringLiteral("result")).toObject();
            const QJsonObject overGrpc = report.value(QStringLiteral("grpc")).toObject();
            QCOMPARE(remoting.value(QStringLiteral("messages")).toInt(), 1000);
            QCOMPARE(overGrpc.value(QStringLiteral("messages")).toInt(), 1000);
            QCOMPARE(overGrpc.value(QStringLiteral("failed")).toInt(), 0);
            QCOMPARE(overGrpc.value(QStringLiteral("target")).toString(), grpc);
            QVERIFY(overGrpc.value(QStringLiteral("rtMicros")).toObject().contains(QStringLiteral("p99")));
            QVERIFY(report.value(QStringLiteral("grpcToRemoting")).toDouble() > 0);
            QVERIFY2(run.err.contains("== produce over gRPC to " + grpc.toUtf8()), run.err.constData());
            stored += 2 * 1001; // each protocol's timed sends and its untimed warm-up send
        }

        const Run consume = bench({QStringLiteral("consume"), QStringLiteral("-n"), namesrv, QStringLiteral("-t"),
                                   QStringLiteral("BenchGrpc"), QStringLiteral("--count"), QStringLiteral("100000"),
                                   QStringLiteral("--json")});
        QVERIFY2(consume.exitCode == 0, consume.err.constData());
        const QJsonObject read = QJsonDocument::fromJson(consume.out).object().value(QStringLiteral("result")).toObject();
        QCOMPARE(read.value(QStringLiteral("messages")).toInteger(), stored);

        // A gRPC endpoint that is not there: a clear failure naming it, not a hang.
        const Run unreachable = bench({QStringLiteral("produce"), QStringLiteral("-n"), namesrv, QStringLiteral("--grpc"),
                                       QStringLiteral("127.0.0.1:1"), QStringLiteral("--count"), QStringLiteral("10")});
        QCOMPARE(unreachable.exitCode, 1);
        QVERIFY2(unreachable.err.contains("produce over gRPC to 127.0.0.1:1 failed"), unreachable.err.constData());

        ::kill(static_cast<pid_t>(broker.processId()), SIGTERM);
        QVERIFY(broker.waitForFinished(20000));
        QCOMPARE(broker.exitCode(), 0);
    }
};

QTEST_GUILESS_MAIN(MqdeskBenchTest)

#include "tst_mqdesk_bench.moc"
