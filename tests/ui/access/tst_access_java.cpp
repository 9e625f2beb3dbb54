// The console against Apache RocketMQ 5.5.0 with ACL 2.0 on: the Java NameServer and one Java
// broker (tests/interop/java_cluster.h, master only) with authenticationEnabled and
// authorizationEnabled, its users and policies in Java's own store (RocksDB, the Local metadata
// providers), `root` a Super user from initAuthenticationUser. A real MainWindow (offscreen) is
// pointed at it as a person does: the cluster added in the Connections dialog with its access
// key and secret key, picked in the toolbar; the Topics page reads the Java broker signed; the
// Access control page lists Java's users and drives the same lifecycle as against MQDesk (a user
// and a policy entry made, edited, deleted by clicks, each step met by a real producer signed as
// that user at the Java broker). Screenshots access-java-* go to screenshots/.

#include "access_scenario.h"
#include "interop/java_cluster.h"
#include "ui/connection/connection_bar.h"
#include "ui/connection/connection_manager.h"
#include "ui/connection/connections_dialog.h"
#include "ui/main_window.h"
#include "ui/topics/topic_table_model.h"
#include "ui/topics/topics_view.h"

#include <QListWidget>
#include <QStackedWidget>

#include <memory>

using namespace mqdesk;
using mqdesk::test::child;
using mqdesk::test::pageOf;
using mqdesk::test::JavaCluster;
using mqdesk::test::optionsFor;
using mqdesk::test::saveScreenshot;
using mqdesk::ui::AccessView;
using mqdesk::ui::BrokerHost;
using mqdesk::ui::MainWindow;

namespace {

constexpr int kTimeout = 60000; // the JVM answers slowly on a loaded machine
const std::string kRoot = "root";
const std::string kRootSecret = "root-secret-4711";
const std::string kTopic = "orders-1";

} // namespace

class AccessJavaTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(
            QStringLiteral("MQDeskAccessJavaTest-%1").arg(QCoreApplication::applicationPid()));
        QCoreApplication::setApplicationName(QStringLiteral("tst_access_java"));
        JavaCluster::Options options;
        options.slave = false;
        const QString user = QStringLiteral("{\"username\":\"%1\",\"password\":\"%2\"}")
                                 .arg(QString::fromStdString(kRoot), QString::fromStdString(kRootSecret));
        const QString inner = QStringLiteral("{\"accessKey\":\"%1\",\"secretKey\":\"%2\"}")
                                  .arg(QString::fromStdString(kRoot), QString::fromStdString(kRootSecret));
        options.brokerConf = {
            QStringLiteral("authenticationEnabled=true"),
            QStringLiteral("authenticationProvider=org.apache.rocketmq.auth.authentication.provider."
                           "DefaultAuthenticationProvider"),
            QStringLiteral("authenticationMetadataProvider=org.apache.rocketmq.auth.authentication.provider."
                           "LocalAuthenticationMetadataProvider"),
            QStringLiteral("authorizationEnabled=true"),
            QStringLiteral("authorizationProvider=org.apache.rocketmq.auth.authorization.provider."
                           "DefaultAuthorizationProvider"),
            QStringLiteral("authorizationMetadataProvider=org.apache.rocketmq.auth.authorization.provider."
                           "LocalAuthorizationMetadataProvider"),
            QStringLiteral("initAuthenticationUser=") + user,
            QStringLiteral("innerClientAuthenticationCredentials=") + inner,
        };
        cluster_ = std::make_unique<JavaCluster>(QStringLiteral(MQDESK_JAVA_CLUSTER_CLASSPATH), options);
        QString error;
        QVERIFY2(cluster_->start(error), qPrintable(error));

        client::ClientConfig config;
        config.namesrvAddr = cluster_->namesrvAddress().toStdString();
        config.credentials = {kRoot, kRootSecret, {}};
        client::AdminClient admin(config);
        remoting::TopicConfigData topic;
        topic.topicName = kTopic;
        topic.readQueueNums = 2;
        topic.writeQueueNums = 2;
        const client::Status created = admin.api().createTopic(cluster_->masterAddress().toStdString(), topic);
        admin.shutdown();
        QVERIFY2(created.ok, created.error.c_str());
    }

    void cleanupTestCase()
    {
        window_.reset();
        cluster_.reset();
    }

    // The console signs as root, reads the Java broker's topics and its ACL 2.0 users, and the
    // user lifecycle made by clicks is what the Java broker enforces.
    void theConsoleManagesJavasUsersAndPolicies()
    {
        window_ = std::make_unique<MainWindow>(optionsFor(dir_.filePath(QStringLiteral("embedded"))));
        MainWindow &window = *window_;
        window.resize(1200, 800);
        window.show();
        QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Running, kTimeout);
        QTRY_VERIFY_WITH_TIMEOUT(window.connections().isLoaded(), kTimeout);
        {
            ui::ConnectionsDialog dialog(window.connections());
            dialog.show();
            QTest::keyClicks(child<QLineEdit>(&dialog, "connectionName"), QStringLiteral("Java 5.5"));
            QTest::keyClicks(child<QLineEdit>(&dialog, "connectionAddress"), cluster_->namesrvAddress());
            QTest::keyClicks(child<QLineEdit>(&dialog, "connectionAccessKey"), QString::fromStdString(kRoot));
            QTest::keyClicks(child<QLineEdit>(&dialog, "connectionSecretKey"), QString::fromStdString(kRootSecret));
            QTest::mouseClick(child<QPushButton>(&dialog, "addConnection"), Qt::LeftButton);
            QCOMPARE(window.connections().connections().size(), size_t(1));
        }
        window.connectionBar()->combo()->setCurrentIndex(1);
        QTRY_COMPARE_WITH_TIMEOUT(window.connection().accessKey(), QString::fromStdString(kRoot), kTimeout);

        auto *topics = pageOf<ui::TopicsView>(window);
        QVERIFY(test::clickNavigation(window, ui::TopicsView::tr("Topics")));
        QTRY_VERIFY_WITH_TIMEOUT(topics->topicModel()->rowOf(QString::fromStdString(kTopic)) >= 0, kTimeout);

        auto *access = pageOf<AccessView>(window);
        QVERIFY(test::clickNavigation(window, AccessView::tr("Access control")));
        QTRY_VERIFY_WITH_TIMEOUT(access->userModel()->rowOf(QString::fromStdString(kRoot)) >= 0, kTimeout);
        const int root = access->userModel()->rowOf(QString::fromStdString(kRoot));
        QCOMPARE(access->userModel()->index(root, ui::UserTableModel::TypeColumn).data().toString(),
                 QStringLiteral("Super"));
        QVERIFY2(access->bannerText().contains(cluster_->masterAddress()), qPrintable(access->bannerText()));
        saveScreenshot(window, QStringLiteral("access-java-users"));

        test::AccessScenario scenario(this, access, cluster_->namesrvAddress().toStdString(),
                                      {kRoot, kRootSecret, {}}, kTopic, kTimeout);
        scenario.runUserLifecycle(QStringLiteral("access-java"));
    }

private:
    QTemporaryDir dir_; // the window's embedded broker store; outlives the window
    std::unique_ptr<JavaCluster> cluster_;
    std::unique_ptr<MainWindow> window_;
};

QTEST_MAIN(AccessJavaTest)
#include "tst_access_java.moc"
