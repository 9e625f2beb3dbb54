// The flush monitor in a real MainWindow, offscreen, with a real embedded broker on a temporary
// store: samples arrive and are drawn, the mode switch reaches the broker (read back with
// GET_BROKER_CONFIG and from the samples) and leaves a marker, pause freezes the graph and resume
// draws what arrived meanwhile, the disk's fdatasync reference is measured, a restart leaves a
// marker, and the exports write a CSV and a PNG. A second broker that answers like Java
// (mqdeskExtensionsEnable=false) is drawn from GET_BROKER_RUNTIME_INFO, with a banner naming what
// it does not report and a mode switch that waits for its restart. Screenshots go to the build
// tree (screenshots/).

#include "ui_test_util.h"
#include "broker/client/admin_client.h"
#include "broker/client/flush_samples.h"
#include "broker/remoting/remoting_codes.h"
#include "ui/flush_monitor_view.h"
#include "ui/main_window.h"
#include "test_support.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QStackedWidget>
#include <QTemporaryDir>

using namespace mqdesk;
using mqdesk::ui::BrokerHost;
using mqdesk::ui::FlushMonitorView;
using mqdesk::ui::MainWindow;

using mqdesk::test::optionsFor;
using mqdesk::test::saveScreenshot;

namespace {

// Sends `count` small messages through the console's producer; returns how many were stored.
int sendSome(MainWindow &window, int count)
{
    auto producer = window.connection().producer();
    if (!producer)
        return 0;
    int sent = 0;
    for (int i = 0; i < count; ++i) {
        client::Message message;
        message.topic = "FlushMonitorTest";
        message.setBody("flush monitor message " + std::to_string(i));
        if (producer->send(message).ok)
            ++sent;
    }
    return sent;
}

std::string brokerFlushType(MainWindow &window)
{
    client::ClientConfig config;
    config.namesrvAddr = window.brokerHost().namesrvAddress().toStdString();
    client::AdminClient admin(config);
    const auto settings = admin.brokerConfig(window.brokerHost().brokerAddress().toStdString());
    if (!settings.ok)
        return settings.error;
    const auto it = settings.value.find("flushDiskType");
    return it == settings.value.end() ? std::string("(absent)") : it->second;
}

} // namespace

class FlushMonitorTest : public QObject
{
    Q_OBJECT

private slots:
    void parsesTheDocumentedBody()
    {
        const std::string body =
            R"({"bootTimestamp":1700000000000,"capacity":1024,"flushDiskType":"SYNC_FLUSH","nextSequence":42,)"
            R"("samples":[{"bytesFlushed":65536,"dataAtRiskBytes":0,"epochSecond":1700000041,"flushDiskType":"SYNC_FLUSH",)"
            R"("flushMaxMicros":2310,"flushP50Micros":880,"flushP99Micros":2200,"flushTimeouts":0,"flushes":120,)"
            R"("putBytes":61440,"putTps":480,"putToAckMaxMicros":2600,"putToAckP50Micros":1100,)"
            R"("putToAckP99Micros":2400,"puts":480,"sequence":42,"timestamp":1700000041000,)"
            R"("transientStorePoolEnable":false}],"transientStorePoolEnable":false})";
        client::FlushSamples parsed;
        std::string error;
        QVERIFY2(client::parseFlushSamples(body, parsed, error), error.c_str());
        QCOMPARE(parsed.nextSequence, 42);
        QCOMPARE(parsed.samples.size(), size_t(1));
        QCOMPARE(parsed.samples[0].flushP99Micros, 2200);
        QCOMPARE(parsed.samples[0].putToAckP50Micros, 1100);
        QCOMPARE(parsed.samples[0].flushDiskType, std::string("SYNC_FLUSH"));
        QVERIFY(!client::parseFlushSamples(R"({"samples":[{"sequence":"x"}]})", parsed, error));
        QVERIFY2(error.find("samples[0].sequence") != std::string::npos, error.c_str());
    }

    void liveGraphModeSwitchPauseAndExport()
    {
        QTemporaryDir dir;
        MainWindow window(optionsFor(dir.filePath(QStringLiteral("store"))));
        window.show();
        QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Running, 60000);

        auto *view = window.findChild<FlushMonitorView *>();
        QVERIFY(view);
        window.showView(window.pages()->indexOf(view));
        QCOMPARE(window.pages()->currentWidget(), view);
        view->setWindowSeconds(60);

        // Samples arrive once a second and are drawn.
        QVERIFY(sendSome(window, 50) > 0);
        QTRY_VERIFY_WITH_TIMEOUT(view->pointCount() >= 2, 60000);
        const int firstCount = view->pointCount();
        QVERIFY(sendSome(window, 50) > 0);
        QTRY_VERIFY_WITH_TIMEOUT(view->pointCount() >= firstCount + 2, 60000);
        QCOMPARE(view->series().currentMode(), QStringLiteral("ASYNC_FLUSH"));
        // Each sample once, consecutive sequences.
        const auto &samples = view->series().samples();
        for (size_t i = 1; i < samples.size(); ++i)
            QCOMPARE(samples[i].sequence, samples[i - 1].sequence + 1);
        // The disk's fdatasync reference, measured under the store.
        QTRY_VERIFY_WITH_TIMEOUT(view->fdatasyncReferenceMicros() > 0, 60000);
        saveScreenshot(window, QStringLiteral("flush-async"));

        // SYNC_FLUSH from the view: the broker reports it, and so do the samples; a marker.
        view->requestMode(FlushMonitorView::Mode::SyncFlush);
        QTRY_COMPARE_WITH_TIMEOUT(brokerFlushType(window), std::string("SYNC_FLUSH"), 60000);
        QVERIFY(sendSome(window, 50) > 0);
        QTRY_COMPARE_WITH_TIMEOUT(QString::fromStdString(view->series().samples().back().flushDiskType),
                                  QStringLiteral("SYNC_FLUSH"), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(view->markerCount() >= 1, 60000);
        QCOMPARE(view->series().currentMode(), QStringLiteral("SYNC_FLUSH"));
        // The status bar follows what the broker reports.
        QTRY_VERIFY_WITH_TIMEOUT(window.statusText().contains(QStringLiteral("SYNC_FLUSH")), 60000);
        const int syncCount = view->pointCount();
        QVERIFY(sendSome(window, 50) > 0);
        QTRY_VERIFY_WITH_TIMEOUT(view->pointCount() >= syncCount + 2, 60000);
        QVERIFY2(!view->bannerText().contains(QStringLiteral("failed")), qPrintable(view->bannerText()));
        saveScreenshot(window, QStringLiteral("flush-sync"));

        // Pause: nothing more is drawn while samples keep arriving; resume draws them.
        view->setPaused(true);
        const int pausedCount = view->pointCount();
        const size_t pausedSamples = view->series().samples().size();
        QTRY_VERIFY_WITH_TIMEOUT(view->series().samples().size() >= pausedSamples + 2, 60000);
        QCOMPARE(view->pointCount(), pausedCount);
        view->setPaused(false);
        QVERIFY(view->pointCount() >= pausedCount + 2);
        QTRY_VERIFY_WITH_TIMEOUT(view->pointCount() >= pausedCount + 3, 60000);

        // Exports.
        QTemporaryDir out;
        const QString csvPath = out.filePath(QStringLiteral("flush.csv"));
        QString error;
        QVERIFY2(view->exportCsv(csvPath, &error), qPrintable(error));
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly | QIODevice::Text));
        const QStringList lines = QString::fromUtf8(csv.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY(lines.size() >= 4);
        QVERIFY(lines[0].startsWith(QStringLiteral("sequence,timestamp,epochSecond,flushDiskType")));
        QCOMPARE(lines[0].count(QLatin1Char(',')), 17);
        QCOMPARE(lines.size() - 1, static_cast<int>(view->series().samples().size()));
        QVERIFY(lines.last().contains(QStringLiteral(",SYNC_FLUSH,")));
        const QString pngPath = out.filePath(QStringLiteral("flush.png"));
        QVERIFY2(view->exportPng(pngPath, &error), qPrintable(error));
        const QImage png(pngPath);
        QVERIFY(!png.isNull());
        QVERIFY(png.width() > 100 && png.height() > 100);
        QVERIFY(!view->exportCsv(out.filePath(QStringLiteral("missing/dir/x.csv")), &error));
        QVERIFY(!error.isEmpty());

        // ASYNC_FLUSH with the transient store pool, read back from the samples.
        const int poolMarkers = view->markerCount();
        view->requestMode(FlushMonitorView::Mode::AsyncFlushWithPool);
        QTRY_COMPARE_WITH_TIMEOUT(view->series().currentMode(), QStringLiteral("ASYNC_FLUSH + pool"), 60000);
        QVERIFY(sendSome(window, 20) > 0);
        QTRY_VERIFY_WITH_TIMEOUT(view->series().samples().back().transientStorePoolEnable, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(view->markerCount() > poolMarkers, 60000);

        // Back to ASYNC_FLUSH, then a restart: a restart marker, samples continue.
        view->requestMode(FlushMonitorView::Mode::AsyncFlush);
        QTRY_COMPARE_WITH_TIMEOUT(brokerFlushType(window), std::string("ASYNC_FLUSH"), 60000);
        QTRY_COMPARE_WITH_TIMEOUT(view->series().currentMode(), QStringLiteral("ASYNC_FLUSH"), 60000);
        QVERIFY2(!view->bannerText().contains(QStringLiteral("failed")), qPrintable(view->bannerText()));
        const int64_t boot = view->series().bootTimestamp();
        const int markersBefore = view->markerCount();
        window.brokerHost().restart();
        QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Running, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(view->series().bootTimestamp() != boot, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(view->markerCount() > markersBefore, 60000);
        const int restartCount = view->pointCount();
        QTRY_VERIFY_WITH_TIMEOUT(view->pointCount() >= restartCount + 2, 60000);
        saveScreenshot(window, QStringLiteral("flush-restart"));
        QVERIFY(window.close());
    }

    void javaBrokerFallsBackToRuntimeInfo()
    {
        QTemporaryDir dir;
        MainWindow window(optionsFor(dir.filePath(QStringLiteral("store"))));
        window.show();
        QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Running, 60000);
        auto *view = window.findChild<FlushMonitorView *>();
        window.showView(window.pages()->indexOf(view));
        view->setWindowSeconds(60);

        // A real broker answering MQDesk's extensions as Java does, on the same NameServer.
        server::EmbeddedBrokerOptions javaLike = optionsFor(dir.filePath(QStringLiteral("java")));
        javaLike.startNamesrv = false;
        javaLike.settings.broker.brokerName = "broker-java";
        javaLike.settings.broker.namesrvAddr = window.brokerHost().namesrvAddress().toStdString();
        javaLike.settings.broker.mqdeskExtensionsEnable = false;
        server::EmbeddedBroker broker(javaLike);
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        const QString javaAddr = QString::fromStdString(broker.brokerAddress());
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                view->listBrokers();
                QTest::qWait(100);
                return view->brokerAddresses().contains(javaAddr);
            }(),
            30000);
        QCOMPARE(view->brokerAddress(), window.brokerHost().brokerAddress()); // the embedded one by default

        client::ClientConfig config;
        config.namesrvAddr = window.brokerHost().namesrvAddress().toStdString();
        client::AdminClient admin(config);
        QCOMPARE(client::getFlushSamples(admin.api(), javaAddr.toStdString(), 0).code,
                 remoting::ResponseCode::kRequestCodeNotSupported);
        remoting::TopicConfigData topic;
        topic.topicName = "JavaOnlyTopic";
        topic.readQueueNums = topic.writeQueueNums = 4;
        QVERIFY(admin.createTopicOnBroker(javaAddr.toStdString(), topic).ok);

        view->selectBroker(javaAddr);
        auto producer = window.connection().producer();
        const auto sendToJava = [&] {
            for (int i = 0; i < 20; ++i) {
                client::Message message;
                message.topic = "JavaOnlyTopic";
                message.setBody("to the Java-like broker");
                producer->send(message);
            }
        };
        const auto drawnWithPuts = [&] {
            sendToJava();
            const auto &samples = view->series().samples();
            return view->isRuntimeInfoFallback() && view->pointCount() >= 3
                   && std::any_of(samples.begin(), samples.end(), [](const client::FlushSample &s) { return s.putTps > 0; });
        };
        QTRY_VERIFY_WITH_TIMEOUT(drawnWithPuts(), 60000);
        for (const client::FlushSample &sample : view->series().samples()) {
            QCOMPARE(sample.flushP50Micros, int64_t{0}); // not reported: drawn as a gap
            QCOMPARE(sample.flushDiskType, std::string("ASYNC_FLUSH"));
        }
        QCOMPARE(view->series().currentMode(), QStringLiteral("ASYNC_FLUSH")); // from GET_BROKER_CONFIG
        // Put-to-ack bounds from putMessageDistributeTime's buckets (puts under 1 ms: the 1 ms bound).
        const auto &drawn = view->series().samples();
        QVERIFY(std::any_of(drawn.begin(), drawn.end(), [](const client::FlushSample &s) {
            return s.putToAckP50Micros >= 1000 && s.putToAckP99Micros >= s.putToAckP50Micros;
        }));
        const QString banner = view->bannerText();
        QVERIFY2(banner.contains(QStringLiteral("does not answer GET_FLUSH_SAMPLES"))
                     && banner.contains(QStringLiteral("flush latency (p50/p99/max)"))
                     && !banner.contains(QStringLiteral("putMessageDistributeTime)")),
                 qPrintable(banner));
        QVERIFY(window.statusText().contains(QStringLiteral("ASYNC_FLUSH"))); // still the embedded broker's
        saveScreenshot(window, QStringLiteral("flush-java-fallback"));

        // The mode switch is saved in the broker's config; the view says it waits for a restart.
        view->requestMode(FlushMonitorView::Mode::SyncFlush);
        QTRY_VERIFY_WITH_TIMEOUT(view->bannerText().contains(QStringLiteral("only after a restart")), 30000);
        const auto settings = admin.brokerConfig(javaAddr.toStdString());
        QVERIFY(settings.ok);
        QCOMPARE(settings.value.at("flushDiskType"), std::string("SYNC_FLUSH"));
        QTRY_COMPARE_WITH_TIMEOUT(view->reportedModeText(),
                                  QStringLiteral("Broker reports: ASYNC_FLUSH (SYNC_FLUSH after a restart)"), 30000);
        QCOMPARE(view->series().currentMode(), QStringLiteral("ASYNC_FLUSH"));
        saveScreenshot(window, QStringLiteral("flush-java-mode-switch"));

        // Back to the embedded broker: its own samples again.
        view->selectBroker(window.brokerHost().brokerAddress());
        QVERIFY(!view->isRuntimeInfoFallback());
        QTRY_VERIFY_WITH_TIMEOUT(view->pointCount() >= 2, 60000);
        QVERIFY(!view->isRuntimeInfoFallback());
        admin.shutdown();
        QVERIFY(window.close());
        broker.shutdown();
    }
};

QTEST_MAIN(FlushMonitorTest)
#include "tst_flush_monitor.moc"
