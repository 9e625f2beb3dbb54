// The desktop app's main window, offscreen, with a real embedded broker on a temporary store:
// the broker becomes ready and the window says where; an ali-ons-style client could connect
// (checked with our own client); stop, restart and quit are clean; a port in use is reported.
// Screenshots of each state are saved in the build tree (screenshots/).

#include "ui_test_util.h"
#include "broker/client/admin_client.h"
#include "ui/main_window.h"
#include "test_support.h"

#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QStackedWidget>
#include <QTemporaryDir>

#include <filesystem>

using namespace mqdesk;
using mqdesk::ui::BrokerHost;
using mqdesk::ui::MainWindow;

using mqdesk::test::optionsFor;
using mqdesk::test::saveScreenshot;

class MainWindowTest : public QObject
{
    Q_OBJECT

private slots:
    void embeddedBrokerBecomesReady()
    {
        QTemporaryDir dir;
        const QString store = dir.filePath(QStringLiteral("store"));
        MainWindow window(optionsFor(store));
        window.show();
        QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Running, 60000);
        const QString namesrv = window.brokerHost().namesrvAddress();
        QVERIFY(namesrv.startsWith(QStringLiteral("127.0.0.1:")));
        QVERIFY2(window.statusText().contains(namesrv), qPrintable(window.statusText()));
        QVERIFY(window.statusText().contains(QStringLiteral("ASYNC_FLUSH")));
        QCOMPARE(window.connection().namesrvAddress(), namesrv); // the views follow the broker
        saveScreenshot(window, QStringLiteral("overview-running"));

        // The addresses shown are real: a client reaches the broker through them.
        client::ClientConfig config;
        config.namesrvAddr = namesrv.toStdString();
        client::AdminClient admin(config);
        const auto cluster = admin.clusterInfo();
        QVERIFY2(cluster.ok, cluster.error.c_str());
        QVERIFY(cluster.value.brokerAddrTable.contains("broker-a"));

        // Stop and restart from the window's actions; quitting leaves a clean store.
        window.brokerHost().stop();
        QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Stopped, 60000);
        QVERIFY(!std::filesystem::exists(store.toStdString() + "/abort"));
        saveScreenshot(window, QStringLiteral("overview-stopped"));
        window.brokerHost().restart();
        QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Running, 60000);
        QVERIFY(window.close());
        QCOMPARE(window.brokerHost().state(), BrokerHost::State::Stopped);
        QVERIFY(!std::filesystem::exists(store.toStdString() + "/abort"));
    }

    void portInUseIsReported()
    {
        QTemporaryDir dir;
        MainWindow first(optionsFor(dir.filePath(QStringLiteral("a"))));
        QTRY_COMPARE_WITH_TIMEOUT(first.brokerHost().state(), BrokerHost::State::Running, 60000);
        const QString port = first.brokerHost().namesrvAddress().section(QLatin1Char(':'), 1);

        MainWindow second(optionsFor(dir.filePath(QStringLiteral("b")), static_cast<uint16_t>(port.toInt())));
        second.show();
        QTRY_COMPARE_WITH_TIMEOUT(second.brokerHost().state(), BrokerHost::State::Failed, 60000);
        QVERIFY2(second.brokerHost().lastError().contains(port), qPrintable(second.brokerHost().lastError()));
        // The overview says what failed and what to do.
        const auto labels = second.pages()->currentWidget()->findChildren<QLabel *>();
        const bool explained = std::any_of(labels.begin(), labels.end(), [&](QLabel *label) {
            return label->text().contains(port) && label->text().contains(QStringLiteral("other ports"));
        });
        QVERIFY(explained);
        saveScreenshot(second, QStringLiteral("overview-port-taken-by-mqdesk"));
    }
};

QTEST_MAIN(MainWindowTest)
#include "tst_main_window.moc"
