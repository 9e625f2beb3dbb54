// Connections and window state, offscreen. ConnectionManager: add, rename, remove, the list and
// the selection persisted in the history database and reloaded, imported once from mqdesk.ini,
// invalid addresses refused with the reason, a corrupt saved entry skipped with a note. The real
// MainWindow with a second embedded broker started in the test: picking it points the views at
// its NameServer (the Topics page shows the topic only it has), picking "Embedded broker" goes back; an unreachable address shows the banner; geometry
// and the last view come back in a second window. Every test uses settings of its own under
// QStandardPaths' test mode, never the user's. Screenshots go to the build tree (screenshots/).

#include "ui_test_util.h"
#include "broker/client/admin_client.h"
#include "broker/server/embedded_broker.h"
#include "ui/connection/connection_bar.h"
#include "ui/connection/connection_manager.h"
#include "ui/connection/connections_dialog.h"
#include "ui/history/history_store.h"
#include "ui/main_window.h"
#include "ui/topics/topics_view.h"
#include "test_support.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTemporaryDir>

using namespace mqdesk;
using mqdesk::ui::BrokerHost;
using mqdesk::ui::ConnectionManager;
using mqdesk::ui::HistoryStore;
using mqdesk::ui::MainWindow;

using mqdesk::test::optionsFor;
using mqdesk::test::saveScreenshot;

namespace {

// The saved connections arrive from the history database's thread.
bool waitLoaded(ConnectionManager &manager)
{
    return QTest::qWaitFor([&manager] { return manager.isLoaded(); }, 30000);
}

ui::TopicsView *topicsViewOf(MainWindow &window)
{
    for (int i = 0; i < window.pages()->count(); ++i) {
        if (auto *view = qobject_cast<ui::TopicsView *>(window.pages()->widget(i)))
            return view;
    }
    return nullptr;
}

} // namespace

class ConnectionsTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        // Settings of this test alone: test mode (~/.qttest) and an organisation of its own.
        static int counter = 0;
        QCoreApplication::setOrganizationName(QStringLiteral("MQDeskTest-%1-%2")
                                                  .arg(QCoreApplication::applicationPid())
                                                  .arg(++counter));
        QCoreApplication::setApplicationName(QStringLiteral("tst_connections"));
        QVERIFY2(ui::appSettingsPath().contains(QStringLiteral(".qttest")), qPrintable(ui::appSettingsPath()));
        QVERIFY(!QFileInfo::exists(ui::appSettingsPath()));
    }

    void cleanup()
    {
        for (const QString &file : {ui::appSettingsPath(), HistoryStore::defaultPath()}) {
            QDir dir = QFileInfo(file).dir(); // …/<organisation>/<application>
            dir.cdUp();
            dir.removeRecursively();
        }
    }

    void addRemovePersistReload()
    {
        HistoryStore history;
        ConnectionManager manager(history);
        QVERIFY(waitLoaded(manager));
        QVERIFY(manager.connections().empty());
        QCOMPARE(manager.selectedIndex(), -1);
        QString error;
        QVERIFY2(manager.addConnection(QStringLiteral("Staging"), QStringLiteral(" 10.0.0.5:9876 ; 10.0.0.6:9876;"),
                                       &error),
                 qPrintable(error));
        QVERIFY(manager.addConnection(QStringLiteral("Production"), QStringLiteral("mq.example.com:9876")));
        QCOMPARE(manager.connections()[0].namesrvAddress, QStringLiteral("10.0.0.5:9876;10.0.0.6:9876"));
        QSignalSpy selection(&manager, &ConnectionManager::selectionChanged);
        manager.select(1);
        QCOMPARE(selection.count(), 1);

        history.waitForIdle(); // the saves are written
        HistoryStore nextStart;
        ConnectionManager restarted(nextStart); // what the next start reads
        QVERIFY(waitLoaded(restarted));
        QCOMPARE(restarted.connections().size(), size_t(2));
        QCOMPARE(restarted.connections()[1].name, QStringLiteral("Production"));
        QCOMPARE(restarted.selectedIndex(), 1);
        QVERIFY(restarted.loadNotes().isEmpty());

        QVERIFY(restarted.renameConnection(1, QStringLiteral("Prod")));
        restarted.removeConnection(0);
        QCOMPARE(restarted.selectedIndex(), 0); // still Prod
        nextStart.waitForIdle();
        manager.reload();
        QVERIFY(waitLoaded(manager));
        QCOMPARE(manager.connections().size(), size_t(1));
        QCOMPARE(manager.connections()[0].name, QStringLiteral("Prod"));
        QCOMPARE(manager.selectedConnection()->namesrvAddress, QStringLiteral("mq.example.com:9876"));
        manager.removeConnection(0);
        QCOMPARE(manager.selectedIndex(), -1); // back to the embedded broker
        history.waitForIdle();
        restarted.reload();
        QVERIFY(waitLoaded(restarted));
        QVERIFY(restarted.connections().empty());
    }

    void invalidInputIsRefused()
    {
        HistoryStore history;
        ConnectionManager manager(history);
        QVERIFY(waitLoaded(manager));
        QString error;
        QVERIFY(!manager.addConnection(QStringLiteral("A"), QStringLiteral("localhost"), &error));
        QVERIFY2(error.contains(QStringLiteral("port")), qPrintable(error));
        QVERIFY(!manager.addConnection(QStringLiteral("A"), QStringLiteral("10.0.0.1:99999"), &error));
        QVERIFY2(error.contains(QStringLiteral("99999")), qPrintable(error));
        QVERIFY(!manager.addConnection(QStringLiteral("A"), QStringLiteral(" ; "), &error));
        QVERIFY(!manager.addConnection(QStringLiteral("A"), QStringLiteral("my host:9876"), &error));
        QVERIFY(!manager.addConnection(QString(), QStringLiteral("10.0.0.1:9876"), &error));
        QVERIFY(error.contains(QStringLiteral("name")));
        QVERIFY(manager.addConnection(QStringLiteral("A"), QStringLiteral("10.0.0.1:9876")));
        QVERIFY(!manager.addConnection(QStringLiteral("a"), QStringLiteral("10.0.0.2:9876"), &error));
        QVERIFY(error.contains(QStringLiteral("exists")));
        QCOMPARE(manager.connections().size(), size_t(1));

        // The dialog says why inline and keeps the list as it was.
        ui::ConnectionsDialog dialog(manager);
        dialog.show();
        auto *list = dialog.findChild<QListWidget *>(QStringLiteral("connectionList"));
        dialog.findChild<QLineEdit *>(QStringLiteral("connectionName"))->setText(QStringLiteral("Staging"));
        auto *address = dialog.findChild<QLineEdit *>(QStringLiteral("connectionAddress"));
        QTest::keyClicks(address, QStringLiteral("10.0.0.7"));
        QVERIFY2(dialog.errorText().contains(QStringLiteral("port")), qPrintable(dialog.errorText()));
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("addConnection")), Qt::LeftButton);
        QCOMPARE(list->count(), 1);
        QTest::keyClicks(address, QStringLiteral(":9876"));
        QVERIFY(dialog.errorText().isEmpty());
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("addConnection")), Qt::LeftButton);
        QCOMPARE(list->count(), 2);
        QCOMPARE(manager.connections()[1].namesrvAddress, QStringLiteral("10.0.0.7:9876"));
        dialog.findChild<QLineEdit *>(QStringLiteral("connectionName"))->setText(QStringLiteral("Broken"));
        QTest::keyClicks(address, QStringLiteral("10.0.0.8:70000"));
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("addConnection")), Qt::LeftButton);
        QVERIFY(!dialog.errorText().isEmpty());
        QCoreApplication::processEvents();
        saveScreenshot(dialog, QStringLiteral("connections-dialog"));
    }

    void corruptEntryIsSkipped()
    {
        {
            QSettings settings(ui::appSettingsPath(), QSettings::IniFormat);
            settings.beginGroup(QStringLiteral("connections"));
            settings.beginWriteArray(QStringLiteral("saved"), 4);
            settings.setArrayIndex(0);
            settings.setValue(QStringLiteral("name"), QStringLiteral("Good"));
            settings.setValue(QStringLiteral("namesrv"), QStringLiteral("10.0.0.1:9876"));
            settings.setArrayIndex(1);
            settings.setValue(QStringLiteral("name"), QStringLiteral("No address"));
            settings.setArrayIndex(2);
            settings.setValue(QStringLiteral("name"), QStringLiteral("Garbled"));
            settings.setValue(QStringLiteral("namesrv"), QStringLiteral("\x01\x02not an address"));
            settings.setArrayIndex(3);
            settings.setValue(QStringLiteral("name"), QStringList{QStringLiteral("a"), QStringLiteral("b")});
            settings.setValue(QStringLiteral("namesrv"), QStringLiteral("10.0.0.2:9876"));
            settings.endArray();
            settings.setValue(QStringLiteral("selected"), QStringLiteral("Garbled"));
        }
        HistoryStore history;
        ConnectionManager manager(history);
        QVERIFY(waitLoaded(manager));
        QCOMPARE(manager.connections().size(), size_t(1));
        QCOMPARE(manager.connections()[0].name, QStringLiteral("Good"));
        QCOMPARE(manager.selectedIndex(), -1);
        QCOMPARE(manager.loadNotes().size(), 3);
        QVERIFY2(manager.loadNotes().join(QLatin1Char(' ')).contains(QStringLiteral("skipped")),
                 qPrintable(manager.loadNotes().join(QLatin1Char(' '))));

        // The note is visible: the toolbar's banner shows it.
        ui::ClusterConnection connection;
        ui::ConnectionBar bar(manager, connection);
        QVERIFY(bar.bannerText().contains(QStringLiteral("skipped")));
        QCOMPARE(bar.combo()->count(), 2);

    }

    void nonIniFileYieldsNoConnections()
    {
        // A file that is not INI at all neither crashes nor yields connections.
        QDir().mkpath(QFileInfo(ui::appSettingsPath()).absolutePath());
        {
            QFile file(ui::appSettingsPath());
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write(QByteArray("\xff\xfe\x00[connections\n saved\\size=bogus\n\x00\x01", 40));
        }
        HistoryStore history;
        ConnectionManager manager(history);
        QVERIFY(waitLoaded(manager));
        QVERIFY(manager.connections().empty());
    }

    void iniConnectionsAreImportedOnce()
    {
        {
            QSettings settings(ui::appSettingsPath(), QSettings::IniFormat);
            settings.setValue(QStringLiteral("window/lastView"), 3);
            settings.setValue(QStringLiteral("language"), QStringLiteral("zh_CN"));
            settings.beginGroup(QStringLiteral("connections"));
            settings.beginWriteArray(QStringLiteral("saved"), 2);
            settings.setArrayIndex(0);
            settings.setValue(QStringLiteral("name"), QStringLiteral("Staging"));
            settings.setValue(QStringLiteral("namesrv"), QStringLiteral("10.0.0.5:9876"));
            settings.setArrayIndex(1);
            settings.setValue(QStringLiteral("name"), QStringLiteral("Production"));
            settings.setValue(QStringLiteral("namesrv"), QStringLiteral("mq.example.com:9876;mq2.example.com:9876"));
            settings.endArray();
            settings.setValue(QStringLiteral("selected"), QStringLiteral("Production"));
        }
        {
            HistoryStore history;
            ConnectionManager manager(history);
            QVERIFY(waitLoaded(manager));
            QCOMPARE(manager.connections().size(), size_t(2));
            QCOMPARE(manager.connections()[1].namesrvAddress,
                     QStringLiteral("mq.example.com:9876;mq2.example.com:9876"));
            QCOMPARE(manager.selectedIndex(), 1);
            QVERIFY(manager.loadNotes().isEmpty());
            history.waitForIdle();
        }
        // Moved: the settings file keeps the window state and the language, not the connections.
        QSettings settings(ui::appSettingsPath(), QSettings::IniFormat);
        QVERIFY(!settings.contains(QStringLiteral("connections/saved/size")));
        QCOMPARE(settings.value(QStringLiteral("window/lastView")).toInt(), 3);
        QCOMPARE(settings.value(QStringLiteral("language")).toString(), QStringLiteral("zh_CN"));
        // Entries written there again (an older MQDesk) are not imported a second time.
        settings.beginGroup(QStringLiteral("connections"));
        settings.beginWriteArray(QStringLiteral("saved"), 1);
        settings.setArrayIndex(0);
        settings.setValue(QStringLiteral("name"), QStringLiteral("Old"));
        settings.setValue(QStringLiteral("namesrv"), QStringLiteral("10.0.0.9:9876"));
        settings.endArray();
        settings.endGroup();
        settings.sync();

        HistoryStore history;
        ConnectionManager manager(history);
        QVERIFY(waitLoaded(manager));
        QCOMPARE(manager.connections().size(), size_t(2));
        QCOMPARE(manager.connections()[0].name, QStringLiteral("Staging"));
        QCOMPARE(manager.selectedConnection()->name, QStringLiteral("Production"));
    }

    void switchesBetweenClusters()
    {
        QTemporaryDir dir;
        MainWindow window(optionsFor(dir.filePath(QStringLiteral("first"))));
        window.show();
        QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Running, 60000);
        const QString first = window.brokerHost().namesrvAddress();
        QCOMPARE(window.connection().namesrvAddress(), first);
        QVERIFY(!window.windowIcon().isNull());
        const QImage icon = window.windowIcon().pixmap(128, 128).toImage();
        QVERIFY(!icon.isNull()); // the SVG icon engine drew it
        QCOMPARE(icon.size(), QSize(128, 128));
        QVERIFY(qAlpha(icon.pixel(64, 64)) == 255 && qAlpha(icon.pixel(0, 0)) == 0); // the mark, round corners
        QVERIFY(icon.save(QStringLiteral(QT_TESTCASE_BUILDDIR) + QStringLiteral("/screenshots/mqdesk-icon.png")));

        // A second cluster with a topic only it has.
        server::EmbeddedBroker secondBroker(optionsFor(dir.filePath(QStringLiteral("second"))));
        std::string error;
        QVERIFY2(secondBroker.start(error), error.c_str());
        const QString second = QString::fromStdString(secondBroker.namesrvAddress());
        {
            client::ClientConfig config;
            config.namesrvAddr = second.toStdString();
            client::AdminClient admin(config);
            remoting::TopicConfigData topic;
            topic.topicName = "OnlySecondCluster";
            topic.readQueueNums = 2;
            topic.writeQueueNums = 2;
            const auto status = admin.api().createTopic(secondBroker.brokerAddress(), topic);
            QVERIFY2(status.ok, status.error.c_str());
            admin.shutdown();
        }

        ui::ConnectionBar *bar = window.connectionBar();
        QVERIFY(window.connections().addConnection(QStringLiteral("Second cluster"), second));
        QCOMPARE(bar->combo()->count(), 2);
        ui::TopicsView *topics = topicsViewOf(window);
        QVERIFY(topics);
        window.showView(window.pages()->indexOf(topics));
        QTRY_VERIFY_WITH_TIMEOUT(!topics->isLoading(), 60000);
        QCOMPARE(topics->topicModel()->rowOf(QStringLiteral("OnlySecondCluster")), -1);

        bar->combo()->setCurrentIndex(1);
        QCOMPARE(window.connection().namesrvAddress(), second);
        // The status bar says which cluster the views show, next to the embedded broker's addresses.
        QVERIFY2(window.statusText().contains(second), qPrintable(window.statusText()));
        QTRY_VERIFY_WITH_TIMEOUT(topics->topicModel()->rowOf(QStringLiteral("OnlySecondCluster")) >= 0, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(bar->bannerText().isEmpty(), 60000); // reachable
        saveScreenshot(window, QStringLiteral("connections-second-cluster"));

        // A restart of the embedded broker does not pull the views away from the picked cluster.
        window.brokerHost().restart();
        QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Running, 60000);
        QCOMPARE(window.connection().namesrvAddress(), second);

        bar->combo()->setCurrentIndex(0);
        QCOMPARE(window.connection().namesrvAddress(), window.brokerHost().namesrvAddress());
        QVERIFY(!window.statusText().contains(second));
        QTRY_VERIFY_WITH_TIMEOUT(!topics->isLoading(), 60000);
        QTRY_COMPARE_WITH_TIMEOUT(topics->topicModel()->rowOf(QStringLiteral("OnlySecondCluster")), -1, 60000);
        QVERIFY(topics->topicModel()->rowCount() > 0);
        saveScreenshot(window, QStringLiteral("connections-toolbar")); // the app icon on "Embedded broker"

        // With the embedded broker picked and stopped, the views are disconnected.
        window.brokerHost().stop();
        QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Stopped, 60000);
        QVERIFY(window.connection().namesrvAddress().isEmpty());
        window.brokerHost().start(window.brokerHost().options());
        QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Running, 60000);
        QCOMPARE(window.connection().namesrvAddress(), window.brokerHost().namesrvAddress());

        // An address nothing listens on: the banner names it.
        QVERIFY(window.connections().addConnection(QStringLiteral("Nowhere"), QStringLiteral("127.0.0.1:1")));
        bar->combo()->setCurrentIndex(2);
        QTRY_VERIFY_WITH_TIMEOUT(bar->bannerText().startsWith(QStringLiteral("Cannot reach")), 60000);
        QVERIFY2(bar->bannerText().contains(QStringLiteral("127.0.0.1:1")), qPrintable(bar->bannerText()));
        QVERIFY(bar->banner()->isVisible());
        saveScreenshot(window, QStringLiteral("connections-unreachable"));
        bar->combo()->setCurrentIndex(0);
        QVERIFY(bar->bannerText().isEmpty());

        window.connection().waitForDone();
        secondBroker.shutdown();
        QVERIFY(window.close());
    }

    // A cluster that enforces TLS, added in the Connections dialog with its TLS box ticked: the
    // views show it, its certificate is trusted on first use and saved; the same cluster added
    // without TLS shows the broker's refusal in the banner; a pin that no longer matches the
    // server's certificate is refused with the reason.
    void tlsClusterIsTrustedOnFirstUse()
    {
        QTemporaryDir dir;
        MainWindow window(optionsFor(dir.filePath(QStringLiteral("first"))));
        window.show();
        QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Running, 60000);

        server::EmbeddedBrokerOptions options = optionsFor(dir.filePath(QStringLiteral("tls")));
        options.settings.tls.mode = remoting::TlsMode::Enforcing;
        server::EmbeddedBroker tlsBroker(options);
        std::string error;
        QVERIFY2(tlsBroker.start(error), error.c_str());
        const QString address = QString::fromStdString(tlsBroker.namesrvAddress());
        {
            client::ClientConfig config;
            config.namesrvAddr = address.toStdString();
            config.useTls = true;
            client::AdminClient admin(config);
            remoting::TopicConfigData topic;
            topic.topicName = "OnlyTlsCluster";
            topic.readQueueNums = 1;
            topic.writeQueueNums = 1;
            const auto status = admin.api().createTopic(tlsBroker.brokerAddress(), topic);
            QVERIFY2(status.ok, status.error.c_str());
            admin.shutdown();
        }

        ui::ConnectionsDialog dialog(window.connections(), &window);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto *name = dialog.findChild<QLineEdit *>(QStringLiteral("connectionName"));
        auto *namesrv = dialog.findChild<QLineEdit *>(QStringLiteral("connectionAddress"));
        auto *tls = dialog.findChild<QCheckBox *>(QStringLiteral("connectionTls"));
        auto *add = dialog.findChild<QPushButton *>(QStringLiteral("addConnection"));
        QVERIFY(name && namesrv && tls && add);
        QTest::keyClicks(name, QStringLiteral("Plain to TLS"));
        QTest::keyClicks(namesrv, address);
        QTest::mouseClick(add, Qt::LeftButton);
        QTest::keyClicks(name, QStringLiteral("TLS cluster"));
        QTest::keyClicks(namesrv, address);
        QTest::mouseClick(tls, Qt::LeftButton, {}, QPoint(8, tls->height() / 2));
        QVERIFY(tls->isChecked());
        QTest::mouseClick(add, Qt::LeftButton);
        QCOMPARE(window.connections().connections().size(), size_t(2));
        QVERIFY(!window.connections().connections()[0].tls);
        QVERIFY(window.connections().connections()[1].tls);
        auto *list = dialog.findChild<QListWidget *>(QStringLiteral("connectionList"));
        QVERIFY(list->item(1)->text().contains(QStringLiteral("TLS, no certificate seen yet")));
        saveScreenshot(dialog, QStringLiteral("connections-tls-added"));
        dialog.close();

        ui::ConnectionBar *bar = window.connectionBar();
        ui::TopicsView *topics = topicsViewOf(window);
        window.showView(window.pages()->indexOf(topics));
        bar->combo()->setCurrentIndex(1); // without TLS: the broker says why it refuses
        QTRY_VERIFY2_WITH_TIMEOUT(bar->bannerText().contains(QStringLiteral("tls.server.mode=enforcing")),
                                  qPrintable(bar->bannerText()), 60000);
        saveScreenshot(window, QStringLiteral("connections-tls-refused-plaintext"));

        bar->combo()->setCurrentIndex(2);
        QTRY_VERIFY_WITH_TIMEOUT(topics->topicModel()->rowOf(QStringLiteral("OnlyTlsCluster")) >= 0, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(bar->bannerText().isEmpty(), 60000);
        // One certificate per server the views talked to: the NameServer and the broker.
        const QString brokerAddress = QString::fromStdString(tlsBroker.brokerAddress());
        QTRY_VERIFY_WITH_TIMEOUT(
            window.connections().connections()[1].tlsPin.contains(brokerAddress + QStringLiteral("=SHA256:")), 30000);
        const QString pin = window.connections().connections()[1].tlsPin;
        QVERIFY2(pin.contains(address + QStringLiteral("=SHA256:")), qPrintable(pin));
        saveScreenshot(window, QStringLiteral("connections-tls-cluster"));

        // The certificates the servers show are no longer the ones trusted: refused, and said. Both
        // the NameServer's and the broker's pins change: which of the two the views reach first
        // after the switch (the broker's address may still be known) is not the point.
        window.connections().trustCertificate(QStringLiteral("TLS cluster"), {}, {});
        window.connections().trustCertificate(QStringLiteral("TLS cluster"), address, QStringLiteral("SHA256:00"));
        window.connections().trustCertificate(QStringLiteral("TLS cluster"), brokerAddress, QStringLiteral("SHA256:00"));
        bar->combo()->setCurrentIndex(0);
        bar->combo()->setCurrentIndex(2);
        QTRY_VERIFY_WITH_TIMEOUT(bar->bannerText().contains(QStringLiteral("certificate")), 60000);
        QVERIFY2(bar->bannerText().contains(QStringLiteral("rejected")), qPrintable(bar->bannerText()));
        saveScreenshot(window, QStringLiteral("connections-tls-certificate-changed"));
        bar->combo()->setCurrentIndex(0);

        window.connection().waitForDone();
        tlsBroker.shutdown();
        QVERIFY(window.close());
    }

    void windowStateIsRestored()
    {
        QTemporaryDir dir;
        {
            MainWindow window(optionsFor(dir.filePath(QStringLiteral("a"))));
            window.show();
            window.resize(930, 610);
            window.showView(2);
            QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Running, 60000);
            QVERIFY(window.close());
        }
        MainWindow again(optionsFor(dir.filePath(QStringLiteral("a"))));
        QCOMPARE(again.pages()->currentIndex(), 2);
        again.show();
        QCOMPARE(again.size(), QSize(930, 610));
        QTRY_COMPARE_WITH_TIMEOUT(again.brokerHost().state(), BrokerHost::State::Running, 60000);
        QVERIFY(again.close());
    }
};

QTEST_MAIN(ConnectionsTest)
#include "tst_connections.moc"
