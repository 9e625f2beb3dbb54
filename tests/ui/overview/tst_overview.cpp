// The Overview in a real MainWindow, offscreen, with a real embedded broker on a temporary store:
// the brokers table (version, address, flush mode, TPS after sends, uptime, today's totals) for
// one and for two brokers on one NameServer, a broker that stops answering, an unreachable
// cluster, Ctrl+C and CSV; the "Connect a client" tabs (Java, Spring Boot, Go, Node.js) naming the
// shown NameServer, their Copy buttons, after a restart on another port and another cluster picked;
// a flush-mode switch clicked in the flush monitor shown alike by the Overview's header, its brokers
// table and the status bar; GET_BROKER_RUNTIME_INFO's Java-shaped values read into numbers.
// Screenshots in the build tree (screenshots/).

// grpc++ first: Qt's keyword macros must not reach its headers.
#include "apache/rocketmq/v2/service.grpc.pb.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include "ui_test_util.h"
#include "broker/client/broker_runtime.h"
#include "broker/client/producer.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/protocol/route_data.h"
#include "broker/remoting/net/remoting_client.h"
#include "broker/remoting/remoting_codes.h"
#include "ui/overview/broker_table_model.h"
#include "ui/choose_ports_dialog.h"
#include "ui/overview/client_snippets.h"
#include "ui/connection/connection_manager.h"
#include "ui/flush/flush_monitor_view.h"
#include "ui/port_choice.h"
#include "ui/overview/brokers_panel.h"
#include "ui/main_window.h"
#include "ui/overview/overview_view.h"
#include "ui/widgets/table_text.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QComboBox>
#include <QClipboard>
#include <QComboBox>
#include <QPlainTextEdit>
#include <QTabBar>
#include <QTabWidget>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QSpinBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QTcpServer>
#include <QToolButton>
#include <QStackedWidget>
#include <QTableView>
#include <QTemporaryDir>

using namespace mqdesk;
using mqdesk::test::optionsFor;
using mqdesk::test::saveScreenshot;
using mqdesk::ui::BrokerHost;
using mqdesk::ui::BrokerTableModel;
using mqdesk::ui::MainWindow;

namespace {

QString cell(const ui::BrokersPanel &panel, int row, int column)
{
    const QAbstractItemModel *model = panel.table()->model();
    return model->index(row, column).data().toString();
}

int rowOf(const ui::BrokersPanel &panel, const QString &brokerName)
{
    for (int row = 0; row < panel.table()->model()->rowCount(); ++row)
        if (cell(panel, row, BrokerTableModel::BrokerColumn) == brokerName)
            return row;
    return -1;
}

// Refreshes the panel and waits for that refresh's answer.
void refreshNow(ui::BrokersPanel &panel)
{
    QSignalSpy done(&panel, &ui::BrokersPanel::refreshed);
    panel.refresh();
    QVERIFY(done.wait(20000));
}

// Refreshes until `ready` holds (at most ~60 s).
template <typename Ready>
bool refreshUntil(ui::BrokersPanel &panel, Ready ready)
{
    for (int attempt = 0; attempt < 120; ++attempt) {
        refreshNow(panel);
        if (ready())
            return true;
        QTest::qWait(500);
    }
    return false;
}

// Registers a broker that listens nowhere (127.0.0.1:1) with the NameServer at `namesrv`, the
// way a broker registers itself (REGISTER_BROKER), so the cluster lists a broker that is down.
// The NameServer drops it when `client`'s connection closes.
bool registerDeadBroker(remoting::RemotingClient &client, const std::string &namesrv)
{
    remoting::RemotingCommand request = remoting::RemotingCommand::createRequest(remoting::RequestCode::kRegisterBroker);
    remoting::setField(request.extFields, "brokerName", std::string("broker-down"));
    remoting::setField(request.extFields, "brokerAddr", std::string("127.0.0.1:1"));
    remoting::setField(request.extFields, "clusterName", std::string("DefaultCluster"));
    remoting::setField(request.extFields, "haServerAddr", std::string("127.0.0.1:2"));
    remoting::setField(request.extFields, "brokerId", int64_t{0});
    remoting::setField(request.extFields, "compressed", false);
    const std::string body = remoting::RegisterBrokerBody().toJson();
    request.body.assign(body.begin(), body.end());
    const remoting::InvokeResult result = client.invokeSync(namesrv, std::move(request), std::chrono::milliseconds(5000));
    return result.ok() && result.response.code == remoting::ResponseCode::kSuccess;
}

} // namespace

class OverviewTest : public QObject
{
    Q_OBJECT

private slots:
    void readsJavaShapedRuntimeInfo()
    {
        const std::map<std::string, std::string> table{
            {"brokerVersionDesc", "V4_9_4"},
            {"putTps", "12.5 11.0 3.2"},
            {"getTotalTps", "0.0 0.0 0.0"},
            {"bootTimestamp", "1700000000000"},
            {"msgPutTotalTodayMorning", "100"},
            {"msgPutTotalTodayNow", "142"},
            {"commitLogDiskRatio", "0.4213"},
            {"remainHowManyDataToFlush", "1.5 KiB"},
            {"putMessageEntireTimeMax", "7"},
            {"putMessageDistributeTime",
             "[<=0ms]:3 [0~10ms]:120 [10~50ms]:6 [50~100ms]:0 [100~200ms]:0 [200~500ms]:0 [500ms~1s]:0 "
             "[1~2s]:0 [2~3s]:0 [3~4s]:0 [4~5s]:0 [5~10s]:0 [10s~]:1 "}};
        const client::BrokerRuntime runtime = client::readBrokerRuntime(table);
        QCOMPARE(runtime.version, std::string("V4_9_4"));
        QCOMPARE(*runtime.putTps, 12.5);
        QCOMPARE(*runtime.getTps, 0.0);
        QCOMPARE(*runtime.putToday, int64_t{42});
        QVERIFY(!runtime.getToday); // the broker did not send the counters
        QCOMPARE(*runtime.commitLogDiskRatio, 0.4213);
        QCOMPARE(*runtime.remainToFlushBytes, int64_t{1536});
        QVERIFY(runtime.flushDiskType.empty());
        QVERIFY(!runtime.commitLogMaxOffset);
        QCOMPARE(runtime.putLatencyBuckets.size(), size_t{13});
        QCOMPARE(runtime.putLatencyBuckets[1].upperMicros, int64_t{10000});
        QCOMPARE(runtime.putLatencyBuckets[6].upperMicros, int64_t{1000000}); // [500ms~1s]
        QCOMPARE(runtime.putLatencyBuckets[12].upperMicros, std::numeric_limits<int64_t>::max());
        std::vector<int64_t> counts;
        for (const client::LatencyBucket &bucket : runtime.putLatencyBuckets)
            counts.push_back(bucket.count);
        QCOMPARE(client::bucketQuantileMicros(runtime.putLatencyBuckets, counts, 0.5), int64_t{10000});
        QCOMPARE(client::bucketQuantileMicros(runtime.putLatencyBuckets, counts, 0.99), int64_t{50000});

        QCOMPARE(*client::parseHumanBytes("123 B"), int64_t{123});
        QCOMPARE(*client::parseHumanBytes("2.0 MiB"), int64_t{2 * 1024 * 1024});
        for (const char *bad : {"", "12", "1.2 KB", "x KiB", "-1 B"})
            QVERIFY2(!client::parseHumanBytes(bad), bad);
        QVERIFY(client::parseLatencyDistribution("[0~10ms]:x").empty());
        // Numbers from a remote broker that do not fit in int64 µs are unparsable (no wrap, no UB).
        QVERIFY(client::parseLatencyDistribution("[<=0ms]:1 [0~9223372036854775807s]:2").empty());
        QVERIFY(client::parseLatencyDistribution("[<=9223372036854775ms]:1").empty());
        QVERIFY(!client::readBrokerRuntime({{"msgPutTotalTodayNow", "9223372036854775807"},
                                            {"msgPutTotalTodayMorning", "-9"}})
                     .putToday);
        const auto huge = client::parseLatencyDistribution("[<=0ms]:1 [0~10ms]:9223372036854775807");
        QCOMPARE(huge.size(), size_t{2});
        QCOMPARE(client::bucketQuantileMicros(huge, {huge[0].count, huge[1].count}, 0.5), int64_t{10000});
        QCOMPARE(client::bucketQuantileMicros(huge, {huge[0].count, huge[1].count}, 1.0), int64_t{10000});
        QVERIFY(client::readBrokerRuntime({{"putTps", "fast"}}).putTps == std::nullopt);
        // MQDesk's connection figures: both ports' limits summed; a Java broker sends none.
        const client::BrokerRuntime limits = client::readBrokerRuntime(
            {{"clientConnections", "7"}, {"grpcConnections", "3"}, {"clientConnectionsShed", "2"},
             {"grpcConnectionsShed", "1"}, {"clientConnectionsRefused", "4"}, {"grpcConnectionsClosedForFrames", "5"},
             {"clientConnectionsClosedForPartialFrames", "1"}});
        QCOMPARE(*limits.clientConnections, int64_t{7});
        QCOMPARE(*limits.grpcConnections, int64_t{3});
        QCOMPARE(limits.connectionsShed, int64_t{3});
        QCOMPARE(limits.connectionsRefused, int64_t{4});
        QCOMPARE(limits.connectionsClosedForAbuse, int64_t{6});
        QVERIFY(!runtime.clientConnections);
        QCOMPARE(ui::uptimeText(3 * 86400000LL + 4 * 3600000LL), QStringLiteral("3 d 4 h"));
        QCOMPARE(ui::uptimeText(42000), QStringLiteral("42 s"));
    }

    // "Connect a client": each tab, clicked on the real tab bar, names the NameServer of the
    // cluster shown (the 5.x SDKs' tabs its gRPC endpoint); its Copy button puts exactly that
    // snippet on the clipboard; the snippets follow a restart on another port and another
    // cluster picked in the toolbar combo, whose gRPC endpoint is not known: no 5.x tabs then.
    void clientSnippetsNameTheShownNameServer()
    {
        using Snippets = ui::ClientSnippets;
        QTemporaryDir dir;
        server::EmbeddedBrokerOptions options = optionsFor(dir.filePath(QStringLiteral("snippets")));
        options.grpcPort = 0;
        MainWindow window(options);
        window.resize(1000, 900);
        window.show();
        BrokerHost &host = window.brokerHost();
        QTRY_COMPARE_WITH_TIMEOUT(host.state(), BrokerHost::State::Running, 60000);
        auto *overview = qobject_cast<ui::OverviewView *>(window.pages()->widget(0));
        QVERIFY(overview);
        Snippets *snippets = overview->clientSnippets();
        QTRY_VERIFY(snippets->isVisible());
        QTabBar *tabBar = snippets->tabs()->tabBar();
        QCOMPARE(tabBar->count(), int(Snippets::LanguageCount));

        // What a person sees in each tab: the address as each language writes it.
        // `grpc` empty: the 5.x tabs must not be there to click.
        auto expectShows = [&](const QString &address, const QString &grpc, bool clickCopy, bool screenshots) {
            for (int i = 0; i < Snippets::LanguageCount; ++i) {
                const auto language = static_cast<Snippets::Language>(i);
                if (Snippets::isGrpc(language) && grpc.isEmpty()) {
                    QVERIFY2(!tabBar->isTabVisible(i), qPrintable(Snippets::id(language)));
                    continue;
                }
                QVERIFY(tabBar->isTabVisible(i));
                QTest::mouseClick(tabBar, Qt::LeftButton, {}, tabBar->tabRect(i).center());
                QCOMPARE(snippets->tabs()->currentIndex(), i);
                QPlainTextEdit *text = snippets->text(language);
                QVERIFY(text->isVisible());
                QVERIFY(text->isReadOnly());
                QVERIFY(QFontInfo(text->font()).fixedPitch());
                const QString shown = text->toPlainText();
                QCOMPARE(shown, Snippets::snippet(language, Snippets::isGrpc(language) ? grpc : address));
                const QStringList parts = address.split(QLatin1Char(';'));
                switch (language) {
                case Snippets::Java:
                    QVERIFY2(shown.contains(QStringLiteral("producer.setNamesrvAddr(\"%1\");").arg(address)), qPrintable(shown));
                    QVERIFY(shown.contains(QStringLiteral("consumer.setNamesrvAddr(\"%1\");").arg(address)));
                    QVERIFY(shown.contains(QStringLiteral("new DefaultMQPushConsumer(")));
                    QVERIFY(shown.contains(QStringLiteral("<artifactId>rocketmq-client</artifactId>\n  <version>5.5.0</version>")));
                    break;
                case Snippets::SpringBoot:
                    QVERIFY2(shown.contains(QStringLiteral("\nrocketmq.name-server=%1\n").arg(address)), qPrintable(shown));
                    QVERIFY(shown.contains(QStringLiteral("\nrocketmq.producer.group=")));
                    QVERIFY(shown.contains(QStringLiteral("org.apache.rocketmq:rocketmq-spring-boot-starter:2.3.5")));
                    break;
                case Snippets::Go: {
                    QStringList quoted;
                    for (const QString &part : parts)
                        quoted << QLatin1Char('"') + part + QLatin1Char('"');
                    const QString resolver = QStringLiteral("primitive.NewPassthroughResolver([]string{%1})")
                                                 .arg(quoted.join(QStringLiteral(", ")));
                    QVERIFY2(shown.contains(QStringLiteral("producer.WithNsResolver(") + resolver), qPrintable(shown));
                    QVERIFY(shown.contains(QStringLiteral("consumer.WithNsResolver(") + resolver));
                    QVERIFY(shown.contains(QStringLiteral("p.SendSync(")));
                    QVERIFY(shown.contains(QStringLiteral("rocketmq.NewPushConsumer(")));
                    break;
                }
                case Snippets::Java5:
                    QVERIFY2(shown.contains(QStringLiteral(".setEndpoints(\"%1\")").arg(grpc)), qPrintable(shown));
                    QVERIFY2(!shown.contains(QStringLiteral(".enableSsl(false)")), "the SDK's default TLS works unchanged");
                    QVERIFY(shown.contains(QStringLiteral("<artifactId>rocketmq-client-java</artifactId>")));
                    QVERIFY(!shown.contains(address));
                    break;
                case Snippets::Node5:
                    QVERIFY2(shown.contains(QStringLiteral("new Producer({ endpoints: '%1' })").arg(grpc)), qPrintable(shown));
                    QVERIFY(shown.contains(QStringLiteral("new SimpleConsumer({ endpoints: '%1',").arg(grpc)));
                    QVERIFY(shown.contains(QStringLiteral("require('rocketmq-client-nodejs')")));
                    break;
                case Snippets::Python5:
                    QVERIFY2(shown.contains(QStringLiteral("ClientConfiguration(\"%1\", Credentials())").arg(grpc)),
                             qPrintable(shown));
                    QVERIFY(shown.contains(QStringLiteral("pip install rocketmq-python-client==5.1.2")));
                    QVERIFY(shown.contains(QStringLiteral("consumer.ack(received)")));
                    QVERIFY(!shown.contains(address));
                    break;
                case Snippets::Node:
                case Snippets::LanguageCount:
                    QVERIFY2(shown.contains(QStringLiteral("nameSrv: '%1'").arg(address)), qPrintable(shown));
                    QVERIFY(shown.contains(QStringLiteral("require('ali-ons')")));
                    break;
                }
                if (clickCopy) {
                    QGuiApplication::clipboard()->setText(QStringLiteral("something else"));
                    QPushButton *copy = snippets->copyButton(language);
                    QVERIFY(copy->isVisible());
                    QTest::mouseClick(copy, Qt::LeftButton);
                    QCOMPARE(QGuiApplication::clipboard()->text(), shown);
                }
                if (screenshots)
                    saveScreenshot(window, QStringLiteral("snippets-") + Snippets::id(language));
            }
        };

        const QString first = host.namesrvAddress();
        QVERIFY(!first.isEmpty());
        QVERIFY(!host.grpcAddress().isEmpty());
        expectShows(first, host.grpcAddress(), true, true);
        if (QTest::currentTestFailed())
            return;

        // The broker restarted on another NameServer port: every tab names the new one.
        quint16 otherPort = 0;
        {
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
            otherPort = probe.serverPort();
        }
        host.stop();
        QTRY_COMPARE_WITH_TIMEOUT(host.state(), BrokerHost::State::Stopped, 60000);
        QTRY_VERIFY(!snippets->isVisible()); // no cluster shown, no snippet
        host.startOnPorts(otherPort, 0);
        QTRY_COMPARE_WITH_TIMEOUT(host.state(), BrokerHost::State::Running, 60000);
        const QString second = host.namesrvAddress();
        QVERIFY(second.endsWith(QStringLiteral(":%1").arg(otherPort)));
        QVERIFY(second != first);
        QTRY_VERIFY(snippets->isVisible());
        QVERIFY(!host.grpcAddress().isEmpty());
        expectShows(second, host.grpcAddress(), true, false);
        if (QTest::currentTestFailed())
            return;
        for (int i = 0; i < Snippets::LanguageCount; ++i)
            QVERIFY(!snippets->text(static_cast<Snippets::Language>(i))->toPlainText().contains(first));

        // Another cluster picked in the toolbar combo (a person's Down key): its addresses.
        ui::ConnectionManager &connections = window.connections();
        const QString name = QStringLiteral("Snippets staging");
        for (int i = int(connections.connections().size()) - 1; i >= 0; --i)
            if (connections.connections()[size_t(i)].name == name)
                connections.removeConnection(i);
        QString error;
        QVERIFY2(connections.addConnection(name, QStringLiteral("127.0.0.1:1;127.0.0.1:2"), &error),
                 qPrintable(error));
        auto *combo = window.findChild<QComboBox *>(QStringLiteral("connectionCombo"));
        QVERIFY(combo);
        const int comboIndex = combo->findText(name, Qt::MatchContains);
        QVERIFY(comboIndex > 0);
        combo->setFocus();
        while (combo->currentIndex() < comboIndex)
            QTest::keyClick(combo, Qt::Key_Down);
        QCOMPARE(combo->currentIndex(), comboIndex);
        const QString picked = QStringLiteral("127.0.0.1:1;127.0.0.1:2");
        QTRY_COMPARE(snippets->namesrvAddress(), picked);
        QCOMPARE(snippets->grpcEndpoint(), QString());
        expectShows(picked, QString(), true, false);
        if (QTest::currentTestFailed())
            return;
        QTest::mouseClick(overview->findChild<QPushButton *>(QStringLiteral("copyNamesrvAddress")), Qt::LeftButton);
        QCOMPARE(QGuiApplication::clipboard()->text(), picked);

        // Back to the embedded broker.
        combo->setFocus();
        while (combo->currentIndex() > 0)
            QTest::keyClick(combo, Qt::Key_Up);
        QTRY_COMPARE(snippets->namesrvAddress(), second);
        QTRY_COMPARE(snippets->grpcEndpoint(), host.grpcAddress());
        for (int i = int(connections.connections().size()) - 1; i >= 0; --i)
            if (connections.connections()[size_t(i)].name == name)
                connections.removeConnection(i);
    }

    void brokersTableShowsTheEmbeddedBroker()
    {
        QTemporaryDir dir;
        MainWindow window(optionsFor(dir.filePath(QStringLiteral("a"))));
        window.show();
        QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Running, 60000);
        auto *overview = qobject_cast<ui::OverviewView *>(window.pages()->widget(0));
        QVERIFY(overview);
        ui::BrokersPanel &panel = *overview->brokers();

        // Messages sent make a put TPS (the last 10 s) and a total for today.
        auto producer = window.connection().producer();
        QVERIFY(producer);
        int sentCount = 0;
        const auto sendSome = [&] {
            for (int i = 0; i < 20; ++i) {
                client::Message message;
                message.topic = "OverviewTopic";
                message.body = {'x'};
                if (producer->send(message).ok)
                    ++sentCount;
            }
        };
        const QString address = window.brokerHost().brokerAddress();
        const bool counted = refreshUntil(panel, [&] {
            sendSome();
            const int row = rowOf(panel, QStringLiteral("broker-a"));
            return row >= 0 && cell(panel, row, BrokerTableModel::PutTpsColumn).toDouble() > 0
                   && cell(panel, row, BrokerTableModel::PutTodayColumn).toInt() >= 20;
        });
        QVERIFY2(counted, qPrintable(cell(panel, 0, BrokerTableModel::PutTpsColumn) + QLatin1Char('|')
                                     + cell(panel, 0, BrokerTableModel::PutTodayColumn)));
        QVERIFY(sentCount >= 20);
        QCOMPARE(panel.table()->model()->rowCount(), 1);
        QCOMPARE(cell(panel, 0, BrokerTableModel::ClusterColumn), QStringLiteral("DefaultCluster"));
        QCOMPARE(cell(panel, 0, BrokerTableModel::RoleColumn), QStringLiteral("0 (master)"));
        QCOMPARE(cell(panel, 0, BrokerTableModel::AddressColumn), address);
        QCOMPARE(cell(panel, 0, BrokerTableModel::VersionColumn), QStringLiteral("V4_9_8"));
        QCOMPARE(cell(panel, 0, BrokerTableModel::FlushColumn), QStringLiteral("ASYNC_FLUSH"));
        QVERIFY(cell(panel, 0, BrokerTableModel::UptimeColumn).endsWith(QStringLiteral(" s")));
        QVERIFY2(cell(panel, 0, BrokerTableModel::DiskColumn).contains(QStringLiteral(" % of ")),
                 qPrintable(cell(panel, 0, BrokerTableModel::DiskColumn)));
        // The console's own connection and the producer's, at least; what the limits did in the tooltip.
        QVERIFY2(cell(panel, 0, BrokerTableModel::ConnectionsColumn).toInt() >= 2,
                 qPrintable(cell(panel, 0, BrokerTableModel::ConnectionsColumn)));
        const QString connections = panel.table()
                                        ->model()
                                        ->index(0, BrokerTableModel::ConnectionsColumn)
                                        .data(Qt::ToolTipRole)
                                        .toString();
        QVERIFY2(connections.contains(QStringLiteral("gRPC connections open")), qPrintable(connections));
        QVERIFY(panel.emptyStateText().isEmpty());
        saveScreenshot(window, QStringLiteral("overview-brokers"));

        // F5 refreshes wherever the focus is in the window.
        QSignalSpy refreshed(&panel, &ui::BrokersPanel::refreshed);
        window.activateWindow();
        QTest::keyClick(&window, Qt::Key_F5);
        QVERIFY(refreshed.wait(20000));

        // Ctrl+C copies the selected row with the header; Export CSV writes the table.
        panel.table()->setFocus();
        panel.table()->selectRow(0);
        QTest::keyClick(panel.table(), Qt::Key_C, Qt::ControlModifier);
        const QString copied = QApplication::clipboard()->text();
        QVERIFY2(copied.startsWith(QStringLiteral("Cluster\tBroker")) && copied.contains(address), qPrintable(copied));
        const QString csv = dir.filePath(QStringLiteral("brokers.csv"));
        QVERIFY(ui::writeTableCsv(*panel.table()->model(), csv));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains(address.toUtf8()));
        // The table is live (every 5 s): rows are updated in place, the clicked row stays selected.
        const auto selectedAddress = [&panel] {
            const QModelIndexList rows = panel.table()->selectionModel()->selectedRows(BrokerTableModel::AddressColumn);
            return rows.size() == 1 ? rows.first().data().toString() : QString();
        };
        panel.table()->clearSelection();
        QTest::mouseClick(panel.table()->viewport(), Qt::LeftButton, {},
                          panel.table()->visualRect(panel.table()->model()->index(0, BrokerTableModel::BrokerColumn)).center());
        QCOMPARE(selectedAddress(), address);
        refreshNow(panel);
        QCOMPARE(selectedAddress(), address);

        // A second broker registering with the same NameServer gets its own row; once it stops,
        // its row stays (the NameServer still lists it) and says why it has no numbers.
        server::EmbeddedBrokerOptions second = optionsFor(dir.filePath(QStringLiteral("b")));
        second.startNamesrv = false;
        second.settings.broker.brokerName = "broker-b";
        second.settings.broker.namesrvAddr = window.brokerHost().namesrvAddress().toStdString();
        second.settings.store.flushDiskType = store::FlushDiskType::SyncFlush;
        auto broker = std::make_unique<server::EmbeddedBroker>(second);
        std::string error;
        QVERIFY2(broker->start(error), error.c_str());
        QVERIFY(refreshUntil(panel, [&] { return rowOf(panel, QStringLiteral("broker-b")) >= 0; }));
        QCOMPARE(selectedAddress(), address); // a row inserted, the selection kept
        // A figure, not a check: how long one refresh of two brokers takes over loopback.
        QElapsedTimer refreshTimer;
        refreshTimer.start();
        refreshNow(panel);
        qInfo("brokers table: one refresh of %d brokers took %lld ms (1 GET_BROKER_CLUSTER_INFO + 1 "
              "GET_BROKER_RUNTIME_INFO per broker)",
              panel.table()->model()->rowCount(), static_cast<long long>(refreshTimer.elapsed()));
        const int b = rowOf(panel, QStringLiteral("broker-b"));
        QCOMPARE(cell(panel, b, BrokerTableModel::FlushColumn), QStringLiteral("SYNC_FLUSH"));
        QCOMPARE(cell(panel, b, BrokerTableModel::AddressColumn), QString::fromStdString(broker->brokerAddress()));
        // Sorting by put TPS puts broker-a (which took sends) first when descending.
        panel.table()->sortByColumn(BrokerTableModel::PutTpsColumn, Qt::DescendingOrder);
        QCOMPARE(cell(panel, 0, BrokerTableModel::BrokerColumn), QStringLiteral("broker-a"));
        saveScreenshot(window, QStringLiteral("overview-two-brokers"));

        // A broker that stops unregisters; one the NameServer lists but that does not answer
        // keeps its row and says why it has no numbers.
        broker->shutdown();
        broker.reset();
        QVERIFY(refreshUntil(panel, [&] { return rowOf(panel, QStringLiteral("broker-b")) < 0; }));
        remoting::RemotingClient registrar;
        QVERIFY(registerDeadBroker(registrar, window.brokerHost().namesrvAddress().toStdString()));
        QVERIFY(refreshUntil(panel, [&] { return rowOf(panel, QStringLiteral("broker-down")) >= 0; }));
        const int down = rowOf(panel, QStringLiteral("broker-down"));
        QVERIFY2(cell(panel, down, BrokerTableModel::VersionColumn).startsWith(QStringLiteral("not answering: ")),
                 qPrintable(cell(panel, down, BrokerTableModel::VersionColumn)));
        QVERIFY(cell(panel, down, BrokerTableModel::PutTpsColumn).isEmpty());
        QCOMPARE(cell(panel, rowOf(panel, QStringLiteral("broker-a")), BrokerTableModel::VersionColumn),
                 QStringLiteral("V4_9_8"));
        saveScreenshot(window, QStringLiteral("overview-broker-down"));

        // An unreachable cluster explains itself instead of an empty grid.
        window.connection().setNamesrvAddress(QStringLiteral("127.0.0.1:1"));
        QTRY_VERIFY_WITH_TIMEOUT(panel.emptyStateText().contains(QStringLiteral("could not be read")), 30000);
        QVERIFY(panel.emptyStateText().contains(QStringLiteral("127.0.0.1:1")));
    }

    // Another program holds the NameServer port, then the broker port: the Overview names the
    // port, offers a free one, and one click starts the broker there (remembered for next time).
    // The user switches to SYNC_FLUSH in the flush monitor's mode box (mouse clicks): the
    // Overview's header, its brokers table and the status bar all say SYNC_FLUSH.
    // A broker that started from a config file's backup (topics.json truncated) says so above
    // the brokers table, naming the broker and the file.
    void aConfigReadFromItsBackupIsShown()
    {
        QTemporaryDir dir;
        const QString store = dir.filePath(QStringLiteral("damaged"));
        for (int run = 0; run < 2; ++run) { // two clean stops: topics.json has its .bak
            server::EmbeddedBroker broker(optionsFor(store));
            std::string error;
            QVERIFY2(broker.start(error), error.c_str());
            broker.shutdown();
        }
        QFile topics(store + QStringLiteral("/config/topics.json"));
        QVERIFY(QFile::exists(topics.fileName() + QStringLiteral(".bak")));
        QVERIFY(topics.resize(topics.size() / 2));
        MainWindow window(optionsFor(store));
        window.show();
        QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Running, 60000);
        auto *overview = qobject_cast<ui::OverviewView *>(window.pages()->widget(0));
        QVERIFY(overview);
        QTRY_VERIFY_WITH_TIMEOUT(overview->brokers()->bannerText().contains(QStringLiteral("topics.json")), 60000);
        QVERIFY2(overview->brokers()->bannerText().contains(QStringLiteral("broker-a")),
                 qPrintable(overview->brokers()->bannerText()));
        saveScreenshot(window, QStringLiteral("overview-config-backup"));
    }

    void flushModeSwitchIsShownEverywhere()
    {
        QTemporaryDir dir;
        MainWindow window(optionsFor(dir.filePath(QStringLiteral("a"))));
        window.show();
        QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Running, 60000);
        auto *overview = qobject_cast<ui::OverviewView *>(window.pages()->widget(0));
        QVERIFY(overview);
        ui::FlushMonitorView *monitor = nullptr;
        int monitorPage = -1;
        for (int page = 0; page < window.pages()->count() && !monitor; ++page)
            if ((monitor = qobject_cast<ui::FlushMonitorView *>(window.pages()->widget(page))))
                monitorPage = page;
        QVERIFY(monitor);
        auto *header = overview->findChild<QLabel *>(QStringLiteral("overviewDetails"));
        QVERIFY(header);
        QVERIFY2(header->text().contains(QStringLiteral("Flush mode: ASYNC_FLUSH")), qPrintable(header->text()));

        window.showView(monitorPage);
        QTRY_VERIFY_WITH_TIMEOUT(!monitor->brokerAddress().isEmpty(), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(monitor->reportedModeText().contains(QStringLiteral("ASYNC_FLUSH")), 30000);
        auto *modeBox = monitor->findChild<QComboBox *>(QStringLiteral("flushModeBox"));
        QVERIFY(modeBox);
        const int syncIndex = modeBox->findData(static_cast<int>(ui::FlushMonitorView::Mode::SyncFlush));
        QVERIFY(syncIndex >= 0);
        QTest::mouseClick(modeBox, Qt::LeftButton);
        QAbstractItemView *list = modeBox->view();
        QTRY_VERIFY(list->isVisible());
        QTest::qWait(QApplication::doubleClickInterval() + 100); // not taken for the opening click's release
        const QRect item = list->visualRect(list->model()->index(syncIndex, 0));
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, item.center());
        QTRY_VERIFY(!list->isVisible());
        QCOMPARE(modeBox->currentIndex(), syncIndex);
        QTRY_VERIFY_WITH_TIMEOUT(monitor->reportedModeText().contains(QStringLiteral("SYNC_FLUSH"))
                                     && !monitor->reportedModeText().contains(QStringLiteral("ASYNC")),
                                 60000);

        // Back on the Overview: header, table and status bar agree.
        window.showView(0);
        ui::BrokersPanel &panel = *overview->brokers();
        QVERIFY(refreshUntil(panel, [&] {
            const int row = rowOf(panel, QStringLiteral("broker-a"));
            return row >= 0 && cell(panel, row, BrokerTableModel::FlushColumn) == QStringLiteral("SYNC_FLUSH");
        }));
        QTRY_VERIFY_WITH_TIMEOUT(header->text().contains(QStringLiteral("Flush mode: SYNC_FLUSH")), 10000);
        QVERIFY2(window.statusText().endsWith(QStringLiteral(" SYNC_FLUSH")), qPrintable(window.statusText()));
        QCOMPARE(window.brokerHost().flushMode(), QStringLiteral("SYNC_FLUSH"));
        saveScreenshot(window, QStringLiteral("overview-flush-sync"));
    }

    // The desktop app serves the RocketMQ 5 SDKs too: a real gRPC QueryRoute on the address the
    // Overview shows is answered by the embedded broker. A taken gRPC port does not stop the
    // broker: the endpoint moves to a free port and the Overview says why.
    void embeddedBrokerServesGrpcWhereTheOverviewSays()
    {
        QTcpServer squatter; // the port another program (a RocketMQ Proxy) already has
        QVERIFY(squatter.listen(QHostAddress::LocalHost, 0));
        for (const bool taken : {false, true}) {
            QTemporaryDir dir;
            server::EmbeddedBrokerOptions options = optionsFor(dir.filePath(QStringLiteral("grpc")));
            options.grpcPort = taken ? squatter.serverPort() : 0;
            MainWindow window(options);
            window.resize(1000, 900);
            window.show();
            QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Running, 60000);
            auto *details = window.findChild<QLabel *>(QStringLiteral("overviewDetails"));
            QVERIFY(details);
            QTRY_VERIFY(details->isVisible());
            const QString address = window.brokerHost().grpcAddress();
            QVERIFY(!address.isEmpty());
            QVERIFY2(details->text().contains(QStringLiteral("gRPC (RocketMQ 5 SDKs): ") + address),
                     qPrintable(details->text()));
            const QString note = QStringLiteral("port %1 was taken").arg(squatter.serverPort());
            QCOMPARE(details->text().contains(note), taken);
            QCOMPARE(address.endsWith(QLatin1Char(':') + QString::number(squatter.serverPort())), false);
            saveScreenshot(window, taken ? QStringLiteral("overview-grpc-port-taken") : QStringLiteral("overview-grpc"));

            namespace v2 = apache::rocketmq::v2;
            auto stub = v2::MessagingService::NewStub(
                ::grpc::CreateChannel(address.toStdString(), ::grpc::InsecureChannelCredentials()));
            ::grpc::ClientContext context;
            context.AddMetadata("x-mq-client-id", "overview-test@1");
            context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
            v2::QueryRouteRequest request;
            request.mutable_topic()->set_name("TopicFromA5xClient");
            v2::QueryRouteResponse response;
            const ::grpc::Status status = stub->QueryRoute(&context, request, &response);
            QVERIFY2(status.ok(), status.error_message().c_str());
            QCOMPARE(response.status().code(), v2::Code::OK);
            QVERIFY(response.message_queues_size() > 0);
            const v2::Endpoints &endpoints = response.message_queues(0).broker().endpoints();
            QVERIFY(endpoints.addresses_size() > 0);
            QCOMPARE(QString::number(endpoints.addresses(0).port()), address.section(QLatin1Char(':'), -1));
        }
    }

    void portInUseIsFixedInOneClick_data()
    {
        QTest::addColumn<bool>("namesrvPortTaken");
        QTest::addColumn<bool>("throughDialog"); // Choose ports… instead of Use port N
        QTest::addColumn<int>("brokerPortAboveTaken"); // 2: the port taken is the broker's VIP channel (port - 2)
        QTest::newRow("NameServer port") << true << false << 0;
        QTest::newRow("broker port") << false << false << 0;
        QTest::newRow("broker's VIP channel port") << false << false << 2;
        QTest::newRow("NameServer port, chosen") << true << true << 0;
    }

    void portInUseIsFixedInOneClick()
    {
        QFETCH(bool, namesrvPortTaken);
        QFETCH(bool, throughDialog);
        QFETCH(int, brokerPortAboveTaken);
        QTcpServer holder;
        quint16 taken = 0; // a held port, with the broker's port (when above it) free
        for (int attempt = 0; attempt < 20 && taken == 0; ++attempt) {
            QVERIFY(holder.listen(QHostAddress::LocalHost, 0));
            if (brokerPortAboveTaken == 0
                || ui::portIsFree(QStringLiteral("127.0.0.1"), static_cast<quint16>(holder.serverPort() + brokerPortAboveTaken)))
                taken = holder.serverPort();
            else
                holder.close();
        }
        QVERIFY(taken != 0);
        const quint16 brokerPort = static_cast<quint16>(taken + brokerPortAboveTaken);
        QTemporaryDir dir;
        MainWindow window(namesrvPortTaken ? optionsFor(dir.filePath(QStringLiteral("s")), taken)
                                           : optionsFor(dir.filePath(QStringLiteral("s")), 0, brokerPort));
        window.show();
        QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Failed, 60000);
        const ui::PortConflict conflict = window.brokerHost().portConflict();
        QCOMPARE(conflict.namesrvTaken, namesrvPortTaken);
        QCOMPARE(conflict.brokerTaken, !namesrvPortTaken);
        quint16 offered = namesrvPortTaken ? conflict.freeNamesrvPort : conflict.freeBrokerPort;
        QVERIFY(offered != 0 && offered != taken);
        if (!namesrvPortTaken) // the offered port's VIP channel (port - 2) is free too
            QVERIFY(ui::portIsFree(QStringLiteral("127.0.0.1"), static_cast<quint16>(offered - 2)));

        const QString role = namesrvPortTaken ? QStringLiteral("NameServer") : QStringLiteral("broker");
        const auto labels = window.pages()->widget(0)->findChildren<QLabel *>();
        QVERIFY(std::any_of(labels.begin(), labels.end(), [&](QLabel *label) {
            return label->text().contains(QStringLiteral("Port %1 (%2) is in use").arg(namesrvPortTaken ? taken : brokerPort).arg(role));
        }));
        auto *button = window.findChild<QPushButton *>(QStringLiteral("usePortsButton"));
        QVERIFY(button && button->isVisible());
        QCOMPARE(button->text(), QStringLiteral("Use port %1").arg(offered));
        auto *statusButton = window.findChild<QToolButton *>(QStringLiteral("statusUsePortsButton"));
        QVERIFY(statusButton && statusButton->isVisible());
        QVERIFY2(window.statusText().contains(QStringLiteral("port %1 is in use").arg(namesrvPortTaken ? taken : brokerPort)),
                 qPrintable(window.statusText()));
        if (namesrvPortTaken && !throughDialog)
            saveScreenshot(window, QStringLiteral("overview-port-in-use"));

        QElapsedTimer restartTimer;
        restartTimer.start();
        if (throughDialog) {
            QTest::mouseClick(window.findChild<QPushButton *>(QStringLiteral("choosePortsButton")), Qt::LeftButton);
            auto *dialog = window.findChild<ui::ChoosePortsDialog *>(QStringLiteral("choosePortsDialog"));
            QVERIFY(dialog && dialog->isVisible());
            QCOMPARE(dialog->namesrvPort(), offered); // starts from the free ports found
            offered = ui::findFreePort(QStringLiteral("127.0.0.1"), offered, {});
            dialog->setPorts(offered, conflict.freeBrokerPort);
            QVERIFY2(dialog->problem().isEmpty(), qPrintable(dialog->problem()));
            dialog->accept();
        } else {
            QTest::mouseClick(button, Qt::LeftButton);
        }
        QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Running, 60000);
        const QString address = namesrvPortTaken ? window.brokerHost().namesrvAddress() : window.brokerHost().brokerAddress();
        QCOMPARE(address, QStringLiteral("127.0.0.1:%1").arg(offered));
        qInfo("port in use: click to running on port %d took %lld ms", offered,
              static_cast<long long>(restartTimer.elapsed()));
        QVERIFY(!button->isVisible());
        QVERIFY(!statusButton->isVisible());
        const ui::RememberedPorts remembered = ui::rememberedPorts();
        QCOMPARE(namesrvPortTaken ? *remembered.namesrvPort : *remembered.brokerPort, offered);
        QVERIFY(window.close());
    }

    void choosePortsChecksAsTyped()
    {
        QTcpServer holder;
        QVERIFY(holder.listen(QHostAddress::LocalHost, 0));
        const quint16 taken = holder.serverPort();
        // The broker's port as the dialog checks it: its VIP companion (port - 2) free too. A port
        // merely free would make this test fail whenever the port two below is someone else's.
        const quint16 free = ui::findFreeBrokerPort(QStringLiteral("127.0.0.1"), taken, {taken});
        QVERIFY(free != 0 && free != taken);
        QVERIFY(!ui::portIsFree(QStringLiteral("127.0.0.1"), taken));
        ui::ChoosePortsDialog dialog(QStringLiteral("127.0.0.1"), taken, free);
        dialog.show();
        auto *ok = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        QVERIFY2(dialog.problem().contains(QStringLiteral("Port %1 (NameServer) is in use").arg(taken)),
                 qPrintable(dialog.problem()));
        QVERIFY(!ok->isEnabled());
        saveScreenshot(dialog, QStringLiteral("overview-choose-ports"));
        auto *namesrvBox = dialog.findChild<QSpinBox *>(QStringLiteral("namesrvPortBox"));
        namesrvBox->setValue(free); // typed: the same as the broker's
        QVERIFY(dialog.problem().contains(QStringLiteral("two different ports")));
        QVERIFY(!ok->isEnabled());
        const quint16 other = ui::findFreePort(QStringLiteral("127.0.0.1"), free, {});
        namesrvBox->setValue(other);
        QVERIFY2(dialog.problem().isEmpty(), qPrintable(dialog.problem()));
        QVERIFY(ok->isEnabled());
        QCOMPARE(dialog.namesrvPort(), other);
        QCOMPARE(dialog.brokerPort(), free);
    }
};

QTEST_MAIN(OverviewTest)
#include "tst_overview.moc"
