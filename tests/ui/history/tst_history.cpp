// The console's history in SQLite, offscreen, with real embedded brokers and real files: flush
// samples recorded by the flush monitor come back after the window (and its HistoryStore) is
// destroyed and created again, with an "app started" marker; rollups and retention checked with
// an injected clock; a corrupt file (garbage bytes) and a locked one (another connection holding
// BEGIN EXCLUSIVE) reported in the banner and replaced while the app keeps working; the Consumer
// groups view's lag chart rising after sends and falling after a reset from the view, with
// markers; GET_ACTIVITY_TOTALS driving the recorder. Every test has a data folder of its own
// (XDG_DATA_HOME). Screenshots: screenshots/history-*.png and groups-lag-chart.png.

#include "ui_test_util.h"
#include "broker/client/producer.h"
#include "broker/client/pull_consumer.h"
#include "ui/flush/flush_monitor_view.h"
#include "ui/groups/group_table_model.h"
#include "ui/groups/groups_view.h"
#include "ui/history/history_recorder.h"
#include "ui/history/history_store.h"
#include "ui/groups/lag_chart.h"
#include "ui/main_window.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStackedWidget>
#include <QPushButton>
#include <QRandomGenerator>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <limits>
#include <memory>
#include <optional>
#include <set>

using namespace mqdesk;
using mqdesk::ui::BrokerHost;
using mqdesk::ui::HistoryDatabase;
using mqdesk::ui::HistoryOpenReport;
using mqdesk::ui::HistoryPoint;
using mqdesk::ui::HistoryResolution;
using mqdesk::ui::HistoryStore;
using mqdesk::ui::MainWindow;

using mqdesk::test::optionsFor;
using mqdesk::test::saveScreenshot;

namespace {

constexpr int kTimeout = 30000;
constexpr int64_t kMinute = 60 * 1000;

// A TCP port nobody listens on now (the broker binds it a moment later), drawn from 20000-32000:
// below Linux's ephemeral range, so no outgoing connection takes it meanwhile.
uint16_t freePort()
{
    for (;;) {
        const auto port = static_cast<uint16_t>(QRandomGenerator::global()->bounded(20000, 32000));
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        address.sin_port = htons(port);
        const bool free = ::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0;
        ::close(fd);
        if (free)
            return port;
    }
}

// Runs `work` on the store's thread and waits for its result (tests only).
template <typename Work>
auto fetch(HistoryStore &store, Work work)
{
    using Result = decltype(work(std::declval<HistoryDatabase &>()));
    std::optional<Result> result;
    QObject context;
    store.run(&context, std::move(work), [&result](Result value) { result = std::move(value); });
    // No answer fails the test function: an empty result would pass the .empty() checks after it.
    if (!QTest::qWaitFor([&result] { return result.has_value(); }, kTimeout))
        QTest::qFail(qPrintable(QStringLiteral("history query did not answer within %1 ms").arg(kTimeout)),
                     __FILE__, __LINE__);
    return result.value_or(Result{});
}

// Sends `count` small messages through the console's producer.
bool sendSome(MainWindow &window, int count)
{
    auto producer = window.connection().producer();
    for (int i = 0; producer && i < count; ++i) {
        client::Message message;
        message.topic = "HistoryFlushTopic";
        message.setBody("history " + std::to_string(i));
        if (!producer->send(message).ok)
            return false;
    }
    return producer != nullptr;
}

// Whether a sample after `after` (ms) counted puts.
int64_t totalPuts(const ui::FlushSeries &series)
{
    int64_t puts = 0;
    for (const client::FlushSample &s : series.samples())
        puts += s.putTps; // a sample's putTps is the puts in its second
    return puts;
}

bool hasPuts(const ui::FlushSeries &series, int64_t after = 0)
{
    return std::any_of(series.samples().begin(), series.samples().end(),
                       [after](const client::FlushSample &s) { return s.timestamp > after && s.putTps > 0; });
}

template <typename View>
View *viewOf(MainWindow &window)
{
    return window.pages()->findChild<View *>();
}

} // namespace

class HistoryTest : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> data_;

    std::unique_ptr<MainWindow> startWindow(const server::EmbeddedBrokerOptions &options)
    {
        auto window = std::make_unique<MainWindow>(options);
        window->show();
        if (!QTest::qWaitFor([&] { return window->brokerHost().state() == BrokerHost::State::Running; }, kTimeout))
            return nullptr;
        return window;
    }

private slots:
    void init()
    {
        // A data folder of this test alone: AppDataLocation follows XDG_DATA_HOME.
        data_ = std::make_unique<QTemporaryDir>();
        qputenv("XDG_DATA_HOME", data_->path().toUtf8());
        QVERIFY2(HistoryStore::defaultPath().startsWith(data_->path()), qPrintable(HistoryStore::defaultPath()));
    }

    void rollupAndRetentionFollowTheInjectedClock()
    {
        const int64_t t0 = 1'700'000'000'000 / kMinute * kMinute;
        std::atomic<int64_t> now{t0}; // the app starts as the first sample is taken
        HistoryStore::Options options;
        options.path = data_->filePath(QStringLiteral("clock.sqlite"));
        options.clock = [&now] { return now.load(); };
        options.maintenanceIntervalMillis = 0;
        HistoryStore store(options);
        const QString cluster = QStringLiteral("10.0.0.1:9876");

        std::vector<client::FlushSample> flush;
        for (int i = 0; i < 60; ++i) {
            store.recordGroupLag(cluster, t0 + i * 1000, {{"G", i}});
            client::FlushSample sample;
            sample.timestamp = t0 + i * 1000;
            sample.putTps = i;
            sample.flushP99Micros = i * 10;
            sample.flushDiskType = i < 30 ? "ASYNC_FLUSH" : "SYNC_FLUSH";
            flush.push_back(sample);
        }
        store.recordFlushSamples(QStringLiteral("10.0.0.1:10911"), flush);
        // An unchanged value within a minute is stored once.
        for (int i = 0; i < 5; ++i)
            store.recordGroupLag(cluster, t0 + i * 1000, {{"Idle", 7}});
        store.recordTopicTps(cluster, t0 + 1000, {{"T", 12.5}});
        now = t0 + 2 * kMinute;
        store.runMaintenance();

        auto lag = [&](const char *group, HistoryResolution resolution) {
            return fetch(store, [=](HistoryDatabase &db) {
                return db.groupLag(cluster, QString::fromLatin1(group), 0, t0 + 30LL * 24 * 3600 * 1000, resolution);
            });
        };
        QCOMPARE(lag("G", HistoryResolution::Second).size(), size_t(60));
        QCOMPARE(lag("Idle", HistoryResolution::Second).size(), size_t(1));
        const std::vector<HistoryPoint> minute = lag("G", HistoryResolution::Minute);
        QCOMPARE(minute.size(), size_t(1));
        QCOMPARE(minute[0].time, t0);
        QCOMPARE(minute[0].value, 29.5);
        QCOMPARE(minute[0].max, 59.0);
        const auto flushMinute = fetch(store, [&](HistoryDatabase &db) {
            return db.flushSamples(QStringLiteral("10.0.0.1:10911"), t0, t0, HistoryResolution::Minute);
        });
        QCOMPARE(flushMinute.size(), size_t(1));
        QCOMPARE(flushMinute[0].flushP99Micros, int64_t(590)); // the minute's maximum
        QCOMPARE(flushMinute[0].putTps, int64_t(29));          // its average (29.5), whole messages
        QCOMPARE(flushMinute[0].flushDiskType, std::string("SYNC_FLUSH"));
        const auto tps = fetch(store, [&](HistoryDatabase &db) {
            return db.topicTps(cluster, QStringLiteral("T"), t0, t0 + kMinute, HistoryResolution::Minute);
        });
        QCOMPARE(tps.size(), size_t(1));
        QCOMPARE(tps[0].value, 12.5);

        // A day later the seconds are gone, the minutes stay; a week later those go too.
        now = t0 + 25 * 3600 * 1000LL;
        store.runMaintenance();
        QVERIFY(lag("G", HistoryResolution::Second).empty());
        QCOMPARE(lag("G", HistoryResolution::Minute).size(), size_t(1));
        now = t0 + 8 * 24 * 3600 * 1000LL;
        store.runMaintenance();
        QVERIFY(lag("G", HistoryResolution::Minute).empty());
        const auto events = fetch(store, [&](HistoryDatabase &db) { return db.events(cluster, 0, now); });
        QVERIFY(events.empty()); // the app start at t0 is past retention too
        QVERIFY2(fetch(store, [](HistoryDatabase &db) { return db.lastError(); }).isEmpty(),
                 qPrintable(fetch(store, [](HistoryDatabase &db) { return db.lastError(); })));
    }

    // Figures, not checks of time: a minute of per-second samples for 2,500 groups and 1,000
    // topics whose values all change every second (the worst case), then a minute of unchanged
    // values (stored once a minute), written as the recorder writes them.
    void recordingThousandsOfSeriesCostsLittle()
    {
        const int64_t t0 = 1'700'000'000'000 / kMinute * kMinute;
        HistoryStore::Options options;
        options.path = data_->filePath(QStringLiteral("scale.sqlite"));
        std::atomic<int64_t> now{t0};
        options.clock = [&now] { return now.load(); };
        options.maintenanceIntervalMillis = 0;
        HistoryStore store(options);
        store.waitForIdle();
        const QString cluster = QStringLiteral("10.0.0.1:9876");
        auto second = [&](int s, bool changing) {
            ui::NamedCounts lag;
            ui::NamedRates tps;
            for (int g = 0; g < 2500; ++g)
                lag["ScaleGroup" + std::to_string(g)] = changing ? g + s : g;
            for (int t = 0; t < 1000; ++t)
                tps["ScaleTopic" + std::to_string(t)] = changing ? t + s : t;
            store.recordGroupLag(cluster, t0 + s * 1000LL, std::move(lag));
            store.recordTopicTps(cluster, t0 + s * 1000LL, std::move(tps));
        };
        QElapsedTimer timer;
        timer.start();
        for (int s = 0; s < 60; ++s)
            second(s, true);
        store.waitForIdle();
        const double changingMillis = static_cast<double>(timer.nsecsElapsed()) / 1e6 / 60;
        timer.restart();
        for (int s = 60; s < 120; ++s)
            second(s, false);
        store.waitForIdle();
        const double steadyMillis = static_cast<double>(timer.nsecsElapsed()) / 1e6 / 60;
        timer.restart();
        now = t0 + 2 * kMinute;
        store.runMaintenance();
        store.waitForIdle();
        const double rollupMillis = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        QCOMPARE(fetch(store, [&](HistoryDatabase &db) {
                     return db.groupLag(cluster, QStringLiteral("ScaleGroup7"), 0, t0 + 3 * kMinute,
                                        HistoryResolution::Second);
                 }).size(),
                 size_t(61)); // 60 changing seconds, then one row for the unchanged minute
        QCOMPARE(fetch(store, [&](HistoryDatabase &db) {
                     return db.groupLag(cluster, QStringLiteral("ScaleGroup7"), 0, t0 + 3 * kMinute,
                                        HistoryResolution::Minute);
                 }).size(),
                 size_t(2));
        const qint64 bytes = QFileInfo(options.path).size() + QFileInfo(options.path + QStringLiteral("-wal")).size();
        qInfo("history writes, 2500 groups + 1000 topics a second: %.1f ms/s all changing, %.1f ms/s unchanged; "
              "rollup of 2 minutes %.0f ms; database + WAL %.1f MiB after 2 minutes",
              changingMillis, steadyMillis, rollupMillis, static_cast<double>(bytes) / (1024.0 * 1024.0));
    }

    void flushSamplesSurviveAnAppRestart()
    {
        QTemporaryDir store;
        const auto options = optionsFor(store.filePath(QStringLiteral("store")), freePort(), freePort());
        QString broker;
        int64_t firstRunLast = 0;
        size_t storedCount = 0;
        size_t storedBefore = 0; // stored samples older than the first run's last second
        int64_t storedPuts = 0;
        {
            auto window = startWindow(options);
            QVERIFY(window);
            auto *flush = viewOf<ui::FlushMonitorView>(*window);
            QVERIFY(flush);
            QVERIFY(sendSome(*window, 200));
            QTRY_VERIFY_WITH_TIMEOUT(flush->series().samples().size() >= 3 && flush->series().samples().back().putTps == 0
                                         && hasPuts(flush->series()),
                                     kTimeout);
            broker = window->brokerHost().brokerAddress();
            firstRunLast = flush->series().samples().back().timestamp;
            window->history().waitForIdle();
            const auto stored = fetch(window->history(), [&](HistoryDatabase &db) {
                return db.flushSamples(broker, 0, firstRunLast, HistoryResolution::Second);
            });
            // One row a second: the broker may take two samples within one wall-clock second.
            std::set<int64_t> seconds;
            for (const auto &sample : flush->series().samples())
                if (sample.timestamp <= firstRunLast) // more may arrive while the query runs
                    seconds.insert(sample.timestamp);
            QCOMPARE(stored.size(), seconds.size());
            storedCount = stored.size();
            for (const auto &sample : stored) {
                storedPuts += sample.putTps;
                storedBefore += sample.timestamp < firstRunLast ? 1 : 0;
            }
            window->close();
        } // the window, its HistoryStore and the broker are gone

        auto window = startWindow(options);
        QVERIFY(window);
        QCOMPARE(window->brokerHost().brokerAddress(), broker);
        auto *flush = viewOf<ui::FlushMonitorView>(*window);
        window->showView(window->pages()->indexOf(flush));
        QTRY_VERIFY_WITH_TIMEOUT(flush->historyLoaded(), kTimeout);
        QVERIFY(flush->series().samples().front().timestamp <= firstRunLast);
        QVERIFY(flush->markerCount() >= 1); // where the app started again
        QVERIFY(sendSome(*window, 200));
        // The new run's puts arrive (its broker may have restarted within the second the old
        // one last reported: that sample is the new broker's own, not a repeat of the stored one).
        QTRY_VERIFY_WITH_TIMEOUT(totalPuts(flush->series()) >= storedPuts + 200, kTimeout);
        const auto &samples = flush->series().samples();
        size_t fromHistory = 0;
        for (size_t i = 0; i < samples.size(); ++i) {
            QVERIFY(i == 0 || samples[i].timestamp >= samples[i - 1].timestamp);
            fromHistory += samples[i].timestamp < firstRunLast ? 1 : 0;
        }
        QCOMPARE(fromHistory, storedBefore); // each stored sample once, none taken twice
        QVERIFY(flush->pointCount() > static_cast<int>(storedCount));
        flush->setWindowSeconds(60);
        saveScreenshot(*window, QStringLiteral("history-flush-restart"));
        window->close();
    }

    // Writes posted while the history thread is busy are still written when the store is
    // destroyed (the app quitting), and the database closes on its own thread.
    void writesPostedWhileBusyAreKeptAtShutdown()
    {
        const QString path = data_->filePath(QStringLiteral("shutdown.sqlite"));
        HistoryStore::Options options;
        options.path = path;
        options.maintenanceIntervalMillis = 0;
        auto store = std::make_unique<HistoryStore>(options);
        store->waitForIdle();
        std::atomic<bool> busy = false;
        store->post([&busy](HistoryDatabase &) {
            busy = true;
            QThread::msleep(300);
        });
        QVERIFY(QTest::qWaitFor([&busy] { return busy.load(); }, kTimeout));
        const int64_t now = store->now();
        for (int i = 0; i < 5; ++i)
            store->recordEvent(
                {ui::HistoryEvent::Kind::OffsetReset, now + i, QStringLiteral("ns:9876"), QStringLiteral("group")});
        store.reset();

        HistoryStore reopened(options);
        const auto events = fetch(reopened, [](HistoryDatabase &db) {
            return db.events(QStringLiteral("ns:9876"), 0, std::numeric_limits<int64_t>::max());
        });
        QCOMPARE(std::count_if(events.begin(), events.end(),
                               [](const auto &e) { return e.kind == ui::HistoryEvent::Kind::OffsetReset; }),
                 5);
    }

    void corruptDatabaseIsMovedAsideAndReplaced()
    {
        const QString path = HistoryStore::defaultPath();
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile garbage(path);
        QVERIFY(garbage.open(QIODevice::WriteOnly));
        QByteArray bytes;
        for (int i = 0; i < 8192; ++i)
            bytes.append(static_cast<char>((i * 7919) % 251));
        garbage.write(bytes);
        garbage.close();

        QTemporaryDir store;
        auto window = startWindow(optionsFor(store.filePath(QStringLiteral("store"))));
        QVERIFY(window);
        QTRY_VERIFY_WITH_TIMEOUT(!window->historyBannerText().isEmpty(), kTimeout);
        const HistoryOpenReport &report = window->history().openReport();
        QCOMPARE(report.outcome, HistoryOpenReport::Outcome::ReplacedCorrupt);
        QVERIFY2(window->historyBannerText().contains(path), qPrintable(window->historyBannerText()));
        QVERIFY(window->historyBannerText().contains(report.movedTo));
        QVERIFY(report.movedTo.startsWith(path + QStringLiteral(".corrupt-")));
        QFile moved(report.movedTo);
        QVERIFY(moved.open(QIODevice::ReadOnly));
        QCOMPARE(moved.readAll(), bytes); // kept as it was, for whoever wants to look
        QCOMPARE(report.usedPath, path);

        // The fresh database records and reads back.
        window->history().recordGroupLag(QStringLiteral("c:1"), 5000, {{"G", 3}});
        const auto points = fetch(window->history(), [](HistoryDatabase &db) {
            return db.groupLag(QStringLiteral("c:1"), QStringLiteral("G"), 0, 10000, HistoryResolution::Second);
        });
        QCOMPARE(points.size(), size_t(1));
        saveScreenshot(*window, QStringLiteral("history-corrupt"));
        window->close();
    }

    void lockedDatabaseIsLeftAloneAndAFreshOneUsed()
    {
        const QString path = HistoryStore::defaultPath();
        QDir().mkpath(QFileInfo(path).absolutePath());
        {
            QSqlDatabase locker = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("locker"));
            locker.setDatabaseName(path);
            QVERIFY(locker.open());
            QSqlQuery query(locker);
            QVERIFY(query.exec(QStringLiteral("CREATE TABLE mine(x INTEGER)")));
            QVERIFY(query.exec(QStringLiteral("BEGIN EXCLUSIVE")));
            QVERIFY(query.exec(QStringLiteral("INSERT INTO mine VALUES (42)")));

            QTemporaryDir store;
            auto window = startWindow(optionsFor(store.filePath(QStringLiteral("store"))));
            QVERIFY(window);
            QTRY_VERIFY_WITH_TIMEOUT(!window->historyBannerText().isEmpty(), kTimeout);
            const HistoryOpenReport &report = window->history().openReport();
            QCOMPARE(report.outcome, HistoryOpenReport::Outcome::BesideLocked);
            QVERIFY2(window->historyBannerText().contains(QStringLiteral("locked")), qPrintable(window->historyBannerText()));
            QVERIFY(report.usedPath != path);
            QCOMPARE(QFileInfo(report.usedPath).absolutePath(), QFileInfo(path).absolutePath());
            QVERIFY(QFileInfo::exists(report.usedPath));
            window->history().recordGroupLag(QStringLiteral("c:1"), 5000, {{"G", 3}});
            const auto points = fetch(window->history(), [](HistoryDatabase &db) {
                return db.groupLag(QStringLiteral("c:1"), QStringLiteral("G"), 0, 10000, HistoryResolution::Second);
            });
            QCOMPARE(points.size(), size_t(1));
            saveScreenshot(*window, QStringLiteral("history-locked"));
            window->close();
            window.reset();

            // The holder's transaction was never disturbed.
            QVERIFY(query.exec(QStringLiteral("COMMIT")));
            QVERIFY(query.exec(QStringLiteral("SELECT x FROM mine")) && query.next());
            QCOMPARE(query.value(0).toInt(), 42);
        }
        QSqlDatabase::removeDatabase(QStringLiteral("locker"));
    }

    void lagChartRisesAfterSendsAndFallsAfterAReset()
    {
        QTemporaryDir store;
        auto window = startWindow(optionsFor(store.filePath(QStringLiteral("store"))));
        QVERIFY(window);
        client::ClientConfig config;
        config.namesrvAddr = window->brokerHost().namesrvAddress().toStdString();
        config.instanceName = "history-test";
        client::ProducerOptions producerOptions;
        producerOptions.group = "PG_HISTORY";
        client::Producer producer(config, producerOptions);
        QVERIFY(producer.start().ok);
        auto send = [&](int count) {
            for (int i = 0; i < count; ++i) {
                client::Message message;
                message.topic = "HistoryTopic";
                message.setBody("lag " + std::to_string(i));
                if (!producer.send(message).ok)
                    return false;
            }
            return true;
        };
        QVERIFY(send(20));
        {
            // The group commits offset 0 on every queue, then goes away: all 20 are its lag.
            client::PullConsumerOptions consumerOptions;
            consumerOptions.group = "GID_HISTORY";
            client::PullConsumer consumer(config, consumerOptions);
            QVERIFY(consumer.subscribe("HistoryTopic").ok);
            QVERIFY(consumer.start().ok);
            const auto queues = consumer.fetchSubscribeMessageQueues("HistoryTopic");
            QVERIFY(queues.ok);
            for (const auto &queue : queues.value)
                QVERIFY(consumer.updateConsumeOffset(queue, 0).ok);
            consumer.shutdown();
        }

        // A person opens Consumer groups, presses F5 until the group is there, clicks it, then the
        // "Lag over time" tab.
        auto *groups = viewOf<ui::GroupsView>(*window);
        QVERIFY(test::clickNavigation(*window, QStringLiteral("Consumer groups")));
        QCOMPARE(window->pages()->currentWidget(), static_cast<QWidget *>(groups));
        for (int attempt = 0; attempt < 20 && groups->groupModel()->rowOf("GID_HISTORY") < 0; ++attempt) {
            QSignalSpy listed(groups, &ui::GroupsView::groupsLoaded);
            QTest::keyClick(groups->groupTable(), Qt::Key_F5);
            QVERIFY(listed.wait(kTimeout));
        }
        QVERIFY(groups->groupModel()->rowOf("GID_HISTORY") >= 0);
        QTableView *table = groups->groupTable();
        const QModelIndex row = groups->groupProxy()->mapFromSource(
            groups->groupModel()->index(groups->groupModel()->rowOf("GID_HISTORY"), 0));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(row).center());
        QCOMPARE(groups->selectedGroup(), QStringLiteral("GID_HISTORY"));
        ui::LagChart *chart = groups->lagChart();
        QVERIFY(chart);
        QTabBar *tabs = groups->detailTabs()->tabBar();
        QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(groups->detailTabs()->indexOf(chart)).center());
        QCOMPARE(groups->detailTabs()->currentWidget(), static_cast<QWidget *>(chart));
        auto lastLag = [chart] { return chart->points().empty() ? -1.0 : chart->points().back().value; };
        QTRY_COMPARE_WITH_TIMEOUT(lastLag(), 20.0, kTimeout);
        QVERIFY(send(15));
        QTRY_COMPARE_WITH_TIMEOUT(lastLag(), 35.0, kTimeout);
        QVERIFY(!window->historyRecorder()->usesFallback()); // one GET_ACTIVITY_TOTALS a second

        // Skip accumulated, then Confirm in the bar that says what it will do.
        QSignalSpy finished(groups, &ui::GroupsView::actionFinished);
        QTest::mouseClick(groups->findChild<QPushButton *>(QStringLiteral("skipAccumulatedButton")), Qt::LeftButton);
        QTest::mouseClick(groups->findChild<QPushButton *>(QStringLiteral("confirmButton")), Qt::LeftButton);
        QVERIFY(finished.wait(kTimeout));
        QVERIFY(finished.first().first().toBool());
        QTRY_COMPARE_WITH_TIMEOUT(lastLag(), 0.0, kTimeout);
        QVERIFY(chart->markerCount() >= 2); // the app start and the reset
        // Paused (so the view stays put), then zoomed in with the wheel over the graph.
        auto *pause = chart->findChild<QPushButton *>(QStringLiteral("lagPauseButton"));
        QTest::mouseClick(pause, Qt::LeftButton);
        QVERIFY(chart->isPaused());
        QCustomPlot *plot = chart->plot();
        const double widthBefore = plot->xAxis->range().size();
        const QPoint inside = plot->axisRect()->rect().topRight() + QPoint(-5, 20);
        QWheelEvent wheel(inside, plot->mapToGlobal(inside), QPoint(), QPoint(0, 18 * 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(plot, &wheel);
        QVERIFY2(plot->xAxis->range().size() < widthBefore / 2, qPrintable(QString::number(plot->xAxis->range().size())));
        plot->replot();
        saveScreenshot(*window, QStringLiteral("groups-lag-chart"));
        QTest::mouseClick(pause, Qt::LeftButton);
        QVERIFY(!chart->isPaused());

        // Stored as well: a new chart load finds the rise, the fall and the reset marker.
        const QString cluster = window->connection().namesrvAddress();
        window->history().waitForIdle();
        const auto stored = fetch(window->history(), [&](HistoryDatabase &db) {
            return db.groupLag(cluster, QStringLiteral("GID_HISTORY"), 0, window->history().now(),
                               HistoryResolution::Second);
        });
        QVERIFY(!stored.empty());
        double highest = 0;
        for (const HistoryPoint &point : stored)
            highest = std::max(highest, point.value);
        QCOMPARE(highest, 35.0);
        QCOMPARE(stored.back().value, 0.0);
        QSignalSpy loaded(chart, &ui::LagChart::loaded);
        test::chooseWithMouse(chart->findChild<QComboBox *>(QStringLiteral("lagWindowBox")), 3600); // "1 h"
        QVERIFY(loaded.wait(kTimeout));
        QVERIFY(chart->markerCount() >= 2);
        QCOMPARE(chart->points().back().value, 0.0);

        const QString csv = data_->filePath(QStringLiteral("lag.csv"));
        QString error;
        QVERIFY2(chart->exportCsv(csv, &error), qPrintable(error));
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csvFile.readAll().split('\n');
        QCOMPARE(lines.first(), QByteArray("time,epochMillis,group,lag,maxLag\r"));
        QVERIFY(lines.size() >= 3);
        QVERIFY2(chart->exportPng(data_->filePath(QStringLiteral("lag.png")), &error), qPrintable(error));
        QVERIFY(QImage(data_->filePath(QStringLiteral("lag.png"))).width() > 100);

        QTest::mouseClick(pause, Qt::LeftButton);
        const size_t held = chart->points().size();
        QVERIFY(send(5));
        QTest::qWait(2500);
        QCOMPARE(chart->points().size(), held); // paused: samples wait
        QCOMPARE(pause->text(), QStringLiteral("Resume"));
        QTest::mouseClick(pause, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(lastLag(), 5.0, kTimeout);
        producer.shutdown();
        window->close();
    }
};

QTEST_MAIN(HistoryTest)
#include "tst_history.moc"
