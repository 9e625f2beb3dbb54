// The flush monitor in a real MainWindow, offscreen, with a real embedded broker on a temporary
// store, driven as a person drives it (the page opened from the navigation list, the mode, broker
// and window chosen from their combos with the mouse or the arrow keys, Pause clicked): samples arrive and are drawn, the mode switch reaches the broker (read back with
// GET_BROKER_CONFIG and from the samples) and leaves a marker, pause freezes the graph and resume
// draws what arrived meanwhile, the disk's fdatasync reference is measured, a restart leaves a
// marker, and the exports write a CSV and a PNG. A second broker that answers like Java
// (mqdeskExtensionsEnable=false) is drawn from GET_BROKER_RUNTIME_INFO, with a banner naming what
// it does not report and a mode switch that waits for its restart. The write-path panel shows
// the knobs a broker started with (spin lock, file warm-up and its cost), a mouse click on its
// writeWithoutMmap box switches the broker live (read back with GET_BROKER_CONFIG and from the
// samples, with a marker), and its table then holds a row per write path with what each cost;
// the Java-like broker has no write path to show. Screenshots go to the build tree (screenshots/).

#include "ui_test_util.h"
#include "broker/client/admin_client.h"
#include "broker/client/flush_samples.h"
#include "broker/remoting/remoting_codes.h"
#include "ui/flush/flush_monitor_view.h"
#include "ui/main_window.h"
#include "ui/flush/write_path_panel.h"
#include "test_support.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QCheckBox>
#include <QComboBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QStackedWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <limits>

using namespace mqdesk;
using mqdesk::ui::BrokerHost;
using mqdesk::ui::FlushMonitorView;
using mqdesk::ui::MainWindow;

using mqdesk::test::chooseWithKeys;
using mqdesk::test::chooseWithMouse;
using mqdesk::test::clickNavigation;
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

std::string brokerSetting(MainWindow &window, const std::string &key)
{
    client::ClientConfig config;
    config.namesrvAddr = window.brokerHost().namesrvAddress().toStdString();
    client::AdminClient admin(config);
    const auto settings = admin.brokerConfig(window.brokerHost().brokerAddress().toStdString());
    if (!settings.ok)
        return settings.error;
    const auto it = settings.value.find(key);
    return it == settings.value.end() ? std::string("(absent)") : it->second;
}

std::string brokerFlushType(MainWindow &window)
{
    return brokerSetting(window, "flushDiskType");
}

// The cost table's row for `writePath` ("pwrite", "mmap") under SYNC_FLUSH as shown, or -1.
int costRowOf(const QTableView &table, const QString &writePath)
{
    for (int row = 0; row < table.model()->rowCount(); ++row)
        if (table.model()->index(row, 0).data().toString() == writePath
            && table.model()->index(row, 1).data().toString() == QStringLiteral("SYNC_FLUSH"))
            return row;
    return -1;
}

// Sends until the cost table shows at least `seconds` busy seconds for `writePath`.
bool costRowFills(MainWindow &window, const QTableView &table, const QString &writePath, int seconds)
{
    sendSome(window, 20);
    const int row = costRowOf(table, writePath);
    return row >= 0 && table.model()->index(row, 2).data().toString().toInt() >= seconds;
}

client::FlushSample sampleAt(int64_t sequence, bool pwrite, int64_t tps, int64_t ackP50)
{
    client::FlushSample s;
    s.sequence = sequence;
    s.timestamp = 1700000000000 + sequence * 1000;
    s.flushDiskType = "SYNC_FLUSH";
    s.writePathKnown = true;
    s.writeWithoutMmap = pwrite;
    s.puts = s.putTps = tps;
    s.putToAckP50Micros = ackP50;
    s.putToAckP99Micros = ackP50 * 2;
    s.flushP50Micros = ackP50 / 2;
    return s;
}

// The view's own widgets, found as a person finds them: by what they are.
QComboBox *modeBox(FlushMonitorView *view) { return view->findChild<QComboBox *>(QStringLiteral("flushModeBox")); }
QComboBox *brokerBox(FlushMonitorView *view) { return view->findChild<QComboBox *>(QStringLiteral("flushBrokerBox")); }
QComboBox *windowBox(FlushMonitorView *view) { return view->findChild<QComboBox *>(QStringLiteral("flushWindowBox")); }
QPushButton *pauseButton(FlushMonitorView *view)
{
    return view->findChild<QPushButton *>(QStringLiteral("flushPauseButton"));
}
QVariant modeData(FlushMonitorView::Mode mode) { return static_cast<int>(mode); }

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
        QVERIFY(!parsed.writePath.known); // an older broker's answer: no write path
        QVERIFY(!parsed.samples[0].writePathKnown);
        QVERIFY(!client::parseFlushSamples(R"({"samples":[{"sequence":"x"}]})", parsed, error));
        QVERIFY2(error.find("samples[0].sequence") != std::string::npos, error.c_str());

        // The write path (docs/remoting-extensions.md): the knobs now, per sample the path taken.
        client::FlushSamples withPath;
        QVERIFY2(client::parseFlushSamples(
                     R"({"nextSequence":1,"samples":[{"sequence":1,"warmMicros":900,"warmUps":1,"warmedBytes":4096,)"
                     R"("writeWithoutMmap":true}],"writePath":{"flushLeastPagesWhenWarmMapedFile":64,)"
                     R"("useReentrantLockWhenPutMessage":false,"warmMapedFileEnable":true,"warmMicros":1800,)"
                     R"("warmUps":2,"warmedBytes":8192,"writeWithoutMmap":true}})",
                     withPath, error),
                 error.c_str());
        QVERIFY(withPath.writePath.known && withPath.writePath.writeWithoutMmap);
        QVERIFY(withPath.writePath.warmMapedFileEnable && !withPath.writePath.useReentrantLockWhenPutMessage);
        QCOMPARE(withPath.writePath.flushLeastPagesWhenWarmMapedFile, 64);
        QCOMPARE(withPath.writePath.warmUps, 2);
        QCOMPARE(withPath.writePath.warmMicros, 1800);
        QVERIFY(withPath.samples[0].writePathKnown && withPath.samples[0].writeWithoutMmap);
        QCOMPARE(withPath.samples[0].warmedBytes, 4096);
        QVERIFY(!client::parseFlushSamples(R"({"writePath":7})", withPath, error));
        QVERIFY2(error.find("writePath") != std::string::npos, error.c_str());
        QVERIFY(!client::parseFlushSamples(R"({"writePath":{"warmUps":"many"}})", withPath, error));
        QVERIFY2(error.find("writePath.warmUps") != std::string::npos, error.c_str());
    }

    void writePathCostsAreMediansPerPathAndMode()
    {
        // Three mmap seconds, then a switch to pwrite (a marker) and three pwrite seconds; idle
        // seconds and samples that do not report their path (the history's) do not count.
        client::FlushSamples answer;
        answer.bootTimestamp = 1;
        answer.flushDiskType = "SYNC_FLUSH";
        answer.samples = {sampleAt(1, false, 100, 900), sampleAt(2, false, 300, 1000), sampleAt(3, false, 200, 5000),
                          sampleAt(4, true, 700, 400),  sampleAt(5, true, 500, 300),   sampleAt(6, true, 0, 0),
                          sampleAt(7, true, 600, 350)};
        answer.samples[1].warmUps = 1;
        answer.samples[1].warmedBytes = 16 << 20;
        answer.samples[1].warmMicros = 50000;
        client::FlushSample unknown = sampleAt(8, false, 99999, 1);
        unknown.writePathKnown = false;
        answer.samples.push_back(unknown);
        answer.nextSequence = 8;
        ui::FlushSeries series;
        series.take(answer, 0);
        QCOMPARE(series.markers().size(), size_t(1));
        QCOMPARE(series.markers()[0].kind, ui::FlushSeries::Marker::Kind::WritePathChange);
        QCOMPARE(series.markers()[0].mode, QStringLiteral("pwrite"));
        const auto costs = series.writePathCosts();
        QCOMPARE(costs.size(), size_t(2));
        QVERIFY(!costs[0].writeWithoutMmap && costs[1].writeWithoutMmap);
        QCOMPARE(costs[0].busySeconds, 3);
        QCOMPARE(costs[0].putTps, 200);
        QCOMPARE(costs[0].putToAckP50Micros, 1000); // not the mean: one slow second does not decide
        QCOMPARE(costs[0].warmUps, 1);
        QCOMPARE(costs[0].warmMicros, 50000);
        QCOMPARE(costs[1].busySeconds, 3);
        QCOMPARE(costs[1].putTps, 600);
        QCOMPARE(costs[1].putToAckP50Micros, 350);
        QCOMPARE(costs[1].flushP50Micros, 175);
        QCOMPARE(costs[1].flushMode, QStringLiteral("SYNC_FLUSH"));

        // A hostile broker's figures saturate the sums rather than overflow them.
        client::FlushSamples hostile;
        hostile.bootTimestamp = 1;
        hostile.flushDiskType = "SYNC_FLUSH";
        hostile.samples = {sampleAt(1, true, 10, 100), sampleAt(2, true, 10, 100)};
        for (client::FlushSample &sample : hostile.samples)
            sample.warmUps = sample.warmMicros = std::numeric_limits<int64_t>::max();
        hostile.nextSequence = 2;
        ui::FlushSeries saturated;
        saturated.take(hostile, 0);
        QCOMPARE(saturated.writePathCosts().at(0).warmMicros, std::numeric_limits<int64_t>::max());
    }

    void writePathPanelSwitchesLiveAndShowsWhatEachCosts()
    {
        QTemporaryDir dir;
        server::EmbeddedBrokerOptions options = optionsFor(dir.filePath(QStringLiteral("store")));
        options.settings.store.warmMapedFileEnable = true;
        options.settings.store.flushLeastPagesWhenWarmMapedFile = 64;
        options.settings.store.useReentrantLockWhenPutMessage = false;
        MainWindow window(options);
        window.resize(1280, 900);
        window.show();
        QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Running, 60000);
        auto *view = window.findChild<FlushMonitorView *>();
        QVERIFY(view);
        QVERIFY(clickNavigation(window, QStringLiteral("Flush monitor")));
        ui::WritePathPanel *panel = view->writePathPanel();
        QVERIFY(panel && panel->isVisible());
        QCheckBox *box = panel->writeWithoutMmapBox();
        QTableView *table = panel->costTable();

        // The knobs the broker started with; the first file was warmed before the first put.
        QTRY_VERIFY_WITH_TIMEOUT(panel->knobsText().contains(QStringLiteral("spin lock")), 60000);
        QVERIFY2(panel->knobsText().contains(QStringLiteral("fdatasync every 64 pages"))
                     && panel->knobsText().contains(QStringLiteral(" file")),
                 qPrintable(panel->knobsText()));
        QTRY_VERIFY_WITH_TIMEOUT(box->isEnabled(), 30000);
        QVERIFY(!box->isChecked());

        // SYNC_FLUSH, where the write path matters; puts through the mapping first.
        chooseWithMouse(modeBox(view), modeData(FlushMonitorView::Mode::SyncFlush));
        QTRY_COMPARE_WITH_TIMEOUT(brokerFlushType(window), std::string("SYNC_FLUSH"), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(costRowFills(window, *table, QStringLiteral("mmap"), 2), 60000);

        // A click on the box: the broker switches live and the samples say so, with a marker.
        const int markers = view->markerCount();
        QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(8, box->height() / 2));
        QTRY_COMPARE_WITH_TIMEOUT(brokerSetting(window, "writeWithoutMmap"), std::string("true"), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(box->isEnabled() && box->isChecked(), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(costRowFills(window, *table, QStringLiteral("pwrite"), 2), 60000);
        QVERIFY(view->series().samples().back().writeWithoutMmap);
        QVERIFY(view->markerCount() > markers);
        QVERIFY2(view->bannerText().contains(QStringLiteral("writeWithoutMmap set to true")),
                 qPrintable(view->bannerText()));
        // Both rows, under the same flush mode, each with its own figures.
        for (const QString &path : {QStringLiteral("mmap"), QStringLiteral("pwrite")}) {
            const int row = costRowOf(*table, path);
            QVERIFY(row >= 0);
            QVERIFY(table->model()->index(row, 3).data().toString().remove(QRegularExpression(QStringLiteral("\\D"))).toInt() > 0);
            QVERIFY(table->model()->index(row, 4).data().toString().remove(QRegularExpression(QStringLiteral("\\D"))).toInt() > 0);
        }
        saveScreenshot(window, QStringLiteral("flush-write-path"));

        // And back, by the keyboard this time: focus the box, press space.
        box->setFocus(Qt::TabFocusReason);
        QTest::keyClick(box, Qt::Key_Space);
        QTRY_COMPARE_WITH_TIMEOUT(brokerSetting(window, "writeWithoutMmap"), std::string("false"), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(box->isEnabled() && !box->isChecked(), 30000);
        QVERIFY(window.close());
    }

    void liveGraphModeSwitchPauseAndExport()
    {
        QTemporaryDir dir;
        MainWindow window(optionsFor(dir.filePath(QStringLiteral("store"))));
        window.show();
        QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Running, 60000);

        auto *view = window.findChild<FlushMonitorView *>();
        QVERIFY(view);
        QVERIFY(clickNavigation(window, QStringLiteral("Flush monitor")));
        QCOMPARE(window.pages()->currentWidget(), view);
        chooseWithKeys(windowBox(view), 60);
        QCOMPARE(windowBox(view)->currentData().toInt(), 60);

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

        // SYNC_FLUSH chosen with the mouse: the broker reports it, and so do the samples; a marker.
        chooseWithMouse(modeBox(view), modeData(FlushMonitorView::Mode::SyncFlush));
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
        QTest::mouseClick(pauseButton(view), Qt::LeftButton);
        QVERIFY(view->isPaused());
        QCOMPARE(pauseButton(view)->text(), QStringLiteral("Resume"));
        const int pausedCount = view->pointCount();
        const size_t pausedSamples = view->series().samples().size();
        QTRY_VERIFY_WITH_TIMEOUT(view->series().samples().size() >= pausedSamples + 2, 60000);
        QCOMPARE(view->pointCount(), pausedCount);
        QTest::mouseClick(pauseButton(view), Qt::LeftButton);
        QVERIFY(!view->isPaused());
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
        QCOMPARE(lines[0].count(QLatin1Char(',')), 21);
        QVERIFY(lines[0].endsWith(QStringLiteral(",writeWithoutMmap,warmUps,warmedBytes,warmMicros")));
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
        chooseWithMouse(modeBox(view), modeData(FlushMonitorView::Mode::AsyncFlushWithPool));
        QTRY_COMPARE_WITH_TIMEOUT(view->series().currentMode(), QStringLiteral("ASYNC_FLUSH + pool"), 60000);
        QVERIFY(sendSome(window, 20) > 0);
        QTRY_VERIFY_WITH_TIMEOUT(view->series().samples().back().transientStorePoolEnable, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(view->markerCount() > poolMarkers, 60000);

        // Back to ASYNC_FLUSH, then a restart: a restart marker, samples continue.
        chooseWithMouse(modeBox(view), modeData(FlushMonitorView::Mode::AsyncFlush));
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
        QVERIFY(clickNavigation(window, QStringLiteral("Flush monitor")));
        chooseWithMouse(windowBox(view), 60);

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

        chooseWithMouse(brokerBox(view), javaAddr);
        QCOMPARE(view->brokerAddress(), javaAddr);
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
        QVERIFY(!view->writePathPanel()->writeWithoutMmapBox()->isEnabled());
        QVERIFY2(view->writePathPanel()->knobsText().contains(QStringLiteral("does not report its write path")),
                 qPrintable(view->writePathPanel()->knobsText()));
        saveScreenshot(window, QStringLiteral("flush-java-fallback"));

        // The mode switch is saved in the broker's config; the view says it waits for a restart.
        chooseWithMouse(modeBox(view), modeData(FlushMonitorView::Mode::SyncFlush));
        QTRY_VERIFY_WITH_TIMEOUT(view->bannerText().contains(QStringLiteral("only after a restart")), 30000);
        const auto settings = admin.brokerConfig(javaAddr.toStdString());
        QVERIFY(settings.ok);
        QCOMPARE(settings.value.at("flushDiskType"), std::string("SYNC_FLUSH"));
        QTRY_COMPARE_WITH_TIMEOUT(view->reportedModeText(),
                                  QStringLiteral("Broker reports: ASYNC_FLUSH (SYNC_FLUSH after a restart)"), 30000);
        QCOMPARE(view->series().currentMode(), QStringLiteral("ASYNC_FLUSH"));
        saveScreenshot(window, QStringLiteral("flush-java-mode-switch"));

        // Back to the embedded broker: its own samples again.
        chooseWithMouse(brokerBox(view), window.brokerHost().brokerAddress());
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
