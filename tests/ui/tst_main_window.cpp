// The desktop app's main window, offscreen, with a real embedded broker on a temporary store:
// the broker becomes ready and the window says where; an ali-ons-style client could connect
// (checked with our own client); stop, restart and quit are clean; a port in use is reported.
// A person's way through it is tested too: every page opened from the navigation list and by its
// Ctrl+N shortcut, the broker stopped, started and restarted from the Broker menu with the mouse,
// and Ctrl+Q quitting with a clean store.
// Screenshots of each state are saved in the build tree (screenshots/).

#include "ui_test_util.h"
#include "broker/client/admin_client.h"
#include "broker/store/message_store.h"
#include "ui/main_window.h"
#include "test_support.h"

#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPixmap>
#include <QProgressBar>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTemporaryDir>

#include <filesystem>

using namespace mqdesk;
using mqdesk::ui::BrokerHost;
using mqdesk::ui::MainWindow;

using mqdesk::test::chooseMenuItem;
using mqdesk::test::clickNavigation;
using mqdesk::test::optionsFor;
using mqdesk::test::saveScreenshot;

class MainWindowTest : public QObject
{
    Q_OBJECT

private slots:
    void pagesMenusAndShortcutsAsAPerson()
    {
        QTemporaryDir dir;
        const QString store = dir.filePath(QStringLiteral("store"));
        MainWindow window(optionsFor(store));
        window.resize(1100, 750);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Running, 60000);

        // Every page from the navigation list, then back by its Ctrl+N shortcut.
        const QStringList pages = {QStringLiteral("Overview"), QStringLiteral("Topics"),
                                   QStringLiteral("Consumer groups"), QStringLiteral("Messages"),
                                   QStringLiteral("Flush monitor")};
        for (int i = 0; i < pages.size(); ++i) {
            QVERIFY2(clickNavigation(window, pages[i]), qPrintable(pages[i]));
            QCOMPARE(window.pages()->currentIndex(), i);
            QVERIFY(window.pages()->currentWidget()->isVisible());
        }
        for (int i = 0; i < pages.size(); ++i) { // from the last page: each key moves
            QTest::keyClick(&window, static_cast<Qt::Key>(Qt::Key_1 + i), Qt::ControlModifier);
            QTRY_COMPARE(window.pages()->currentIndex(), i);
        }
        QTest::keyClick(&window, Qt::Key_1, Qt::ControlModifier);
        QTRY_COMPARE(window.pages()->currentIndex(), 0);

        // The Broker menu, with the mouse: stop (a clean store), start, restart.
        QVERIFY(chooseMenuItem(window, QStringLiteral("&Broker"), QStringLiteral("S&top")));
        QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Stopped, 60000);
        QVERIFY(!std::filesystem::exists(store.toStdString() + "/abort"));
        QTRY_VERIFY(window.statusText().contains(QStringLiteral("stopped"), Qt::CaseInsensitive));
        const auto brokerItem = [&window](const QString &text) -> QAction * {
            for (QAction *menu : window.menuBar()->actions())
                if (menu->text() == QStringLiteral("&Broker"))
                    for (QAction *item : menu->menu()->actions())
                        if (item->text() == text)
                            return item;
            return nullptr;
        };
        QVERIFY(brokerItem(QStringLiteral("S&top")) && !brokerItem(QStringLiteral("S&top"))->isEnabled());
        QVERIFY(brokerItem(QStringLiteral("&Start"))->isEnabled());
        saveScreenshot(window, QStringLiteral("main-window-stopped-from-menu"));
        QVERIFY(chooseMenuItem(window, QStringLiteral("&Broker"), QStringLiteral("&Start")));
        QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Running, 60000);
        QSignalSpy states(&window.brokerHost(), &BrokerHost::stateChanged);
        QVERIFY(chooseMenuItem(window, QStringLiteral("&Broker"), QStringLiteral("&Restart")));
        QTRY_VERIFY_WITH_TIMEOUT(states.count() >= 2, 60000); // it went down and came back
        QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Running, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(window.statusText().contains(window.brokerHost().namesrvAddress()), 30000);
        saveScreenshot(window, QStringLiteral("main-window-restarted-from-menu"));

        // Ctrl+Q quits: the window closes and the broker stops cleanly.
        // (Offscreen, a closed menu leaves no window active; a window manager gives it back.)
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(&window, Qt::Key_Q, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(!window.isVisible(), 30000);
        QCOMPARE(window.brokerHost().state(), BrokerHost::State::Stopped);
        QVERIFY(!std::filesystem::exists(store.toStdString() + "/abort"));
    }

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

    // A store of a few hundred MB recovers with a progress bar in the status bar (issue 6). The
    // bar is grabbed from the progress signal itself, while the scan is under way: the test
    // checks the progress was seen and finished, never how long it took.
    void recoveryProgressInTheStatusBar()
    {
        QTemporaryDir dir;
        const QString store = dir.filePath(QStringLiteral("store"));
        const auto options = optionsFor(store);
        {
            store::MessageStore messageStore(options.settings.store);
            std::string error;
            QVERIFY2(messageStore.open(error), error.c_str());
            common::BrokerMessage message;
            message.topic = "Recovery";
            message.setBody(std::string(1000, 'r'));
            message.bornHost = common::HostAddress::ipv4(127, 0, 0, 1, 40000);
            for (int i = 0; i < 250000; ++i) { // ~290 MB in 16 MiB files
                message.queueId = i % 4;
                QCOMPARE(messageStore.putMessage(message).status, store::PutMessageStatus::PutOk);
            }
        }

        MainWindow window(options);
        window.show();
        auto *bar = window.findChild<QProgressBar *>(QStringLiteral("recoveryProgressBar"));
        QVERIFY(bar);
        struct Seen
        {
            qint64 done;
            qint64 total;
            QString phase;
        };
        QList<Seen> seen;
        QPixmap midScan;
        QString barText;
        // Queued after MainWindow's own slot: the bar already shows this report.
        connect(&window.brokerHost(), &BrokerHost::recoveryProgress, &window,
                [&](qint64 done, qint64 total, const QString &phase) {
                    seen.push_back({done, total, phase});
                    if (midScan.isNull() && phase == BrokerHost::recoveryPhaseText(QStringLiteral("commit log"))
                        && done > 0 && done < total && bar->isVisible()) {
                        barText = bar->text();
                        midScan = window.grab();
                    }
                });
        QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Running, 120000);
        QVERIFY(!seen.isEmpty());
        QVERIFY2(!midScan.isNull(), "no report in the middle of the commit-log scan reached the status bar");
        QVERIFY2(barText.contains(QStringLiteral("Checking the commit log")), qPrintable(barText));
        const QString dirPath = QStringLiteral(QT_TESTCASE_BUILDDIR) + QStringLiteral("/screenshots");
        QDir().mkpath(dirPath);
        QVERIFY(midScan.save(dirPath + QStringLiteral("/recovery-progress.png")));
        // Every phase reached its total; the bar is gone once the broker runs.
        QStringList finished;
        for (const Seen &s : seen) {
            QVERIFY(s.done <= s.total);
            if (s.done == s.total && !finished.contains(s.phase))
                finished << s.phase;
        }
        QCOMPARE(finished.size(), 3);
        QVERIFY(!bar->isVisible());
        QVERIFY(window.close());
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
