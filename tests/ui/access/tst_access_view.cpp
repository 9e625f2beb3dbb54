// The console against a cluster with ACL 2.0 on, offscreen, as a person uses it: a second
// embedded broker started here with authenticationEnabled and authorizationEnabled (its Super
// user `root` from initAuthenticationUser) is added in the Connections dialog and picked in the
// toolbar. Unsigned, the Access control page says it was refused and what to do; with the
// credentials set in Connections ▸ Credentials… it lists the users, and every change made with
// clicks in its dialogs (a user, a policy entry created, edited to Deny, deleted, the user
// disabled and deleted) is what a real client signed as that user then meets at the broker.
// "What may this user do?" answers as the broker decides. The secret key is in neither
// mqdesk.ini nor the history database: in the desktop's keyring when one answers (the CTest
// run tst_ui_access_keyring starts a private D-Bus session with gnome-keyring's Secret Service
// and checks the secret survives a restart), else kept for the session with a note saying so.
// Screenshots access-* go to screenshots/.

#include "access_scenario.h"
#include "broker/server/embedded_broker.h"
#include "ui/connection/connection_bar.h"
#include "ui/connection/connection_manager.h"
#include "ui/connection/connections_dialog.h"
#include "ui/history/history_store.h"
#include "ui/main_window.h"
#include "ui/topics/topic_table_model.h"
#include "ui/topics/topics_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDirIterator>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QStackedWidget>
#include <QTableView>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTableWidget>
#include <QTemporaryDir>

#include <memory>

using namespace mqdesk;
using mqdesk::test::child;
using mqdesk::test::pageOf;
using mqdesk::test::clickDialogButton;
using mqdesk::test::optionsFor;
using mqdesk::test::saveScreenshot;
using mqdesk::ui::AccessView;
using mqdesk::ui::BrokerHost;
using mqdesk::ui::ConnectionManager;
using mqdesk::ui::MainWindow;

namespace {

constexpr int kTimeout = 60000;
const std::string kRoot = "root";
const std::string kRootSecret = "root-secret-4711";
const std::string kTopic = "orders-1";

bool keyringRun()
{
    return qEnvironmentVariableIntValue("MQDESK_TEST_KEYRING") == 1;
}

// Every file under `dir` whose bytes hold `needle`.
QStringList filesHolding(const QString &dir, const QByteArray &needle)
{
    QStringList found;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile file(it.next());
        if (file.open(QIODevice::ReadOnly) && file.readAll().contains(needle))
            found << file.fileName();
    }
    return found;
}

} // namespace

class AccessViewTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(
            QStringLiteral("MQDeskAccessTest-%1").arg(QCoreApplication::applicationPid()));
        QCoreApplication::setApplicationName(QStringLiteral("tst_access"));
        QVERIFY(dir_.isValid());
        server::EmbeddedBrokerOptions options = optionsFor(dir_.filePath(QStringLiteral("auth")));
        options.settings.broker.authenticationEnabled = true;
        options.settings.broker.authorizationEnabled = true;
        options.settings.broker.initAuthenticationUser =
            "{\"username\":\"" + kRoot + "\",\"password\":\"" + kRootSecret + "\"}";
        authBroker_ = std::make_unique<server::EmbeddedBroker>(options);
        std::string error;
        QVERIFY2(authBroker_->start(error), error.c_str());
        address_ = QString::fromStdString(authBroker_->namesrvAddress());
        client::AdminClient admin(config(kRoot, kRootSecret));
        remoting::TopicConfigData topic;
        topic.topicName = kTopic;
        topic.readQueueNums = 2;
        topic.writeQueueNums = 2;
        const client::Status created = admin.api().createTopic(authBroker_->brokerAddress(), topic);
        QVERIFY2(created.ok, created.error.c_str());
        admin.shutdown();
    }

    void cleanupTestCase()
    {
        window_.reset();
        if (authBroker_)
            authBroker_->shutdown();
    }

    // Unsigned, the page says the cluster refused and how to sign; with credentials set in the
    // Connections dialog it lists the users, and the other pages work too.
    void credentialsAreSetInTheConnectionsDialog()
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
            QTest::keyClicks(child<QLineEdit>(&dialog, "connectionName"), QStringLiteral("Secured"));
            QTest::keyClicks(child<QLineEdit>(&dialog, "connectionAddress"), address_);
            QTest::mouseClick(child<QPushButton>(&dialog, "addConnection"), Qt::LeftButton);
            QCOMPARE(window.connections().connections().size(), size_t(1));
        }
        window.connectionBar()->combo()->setCurrentIndex(1);
        QCOMPARE(window.connection().namesrvAddress(), address_);

        access_ = pageOf<AccessView>(window);
        QVERIFY(access_);
        QVERIFY(test::clickNavigation(window, AccessView::tr("Access control")));
        QTRY_VERIFY_WITH_TIMEOUT(access_->bannerText().contains(QStringLiteral("Credentials")), kTimeout);
        QVERIFY2(access_->bannerText().contains(QStringLiteral("NO_PERMISSION")), qPrintable(access_->bannerText()));
        QCOMPARE(access_->userModel()->rowCount(), 0);
        saveScreenshot(window, QStringLiteral("access-unsigned"));

        // Connections ▸ Credentials… on the saved cluster.
        {
            ui::ConnectionsDialog dialog(window.connections());
            dialog.show();
            child<QListWidget>(&dialog, "connectionList")->setCurrentRow(0);
            test::whenDialogOpens<QDialog>(this, kTimeout, [](QDialog *credentials) {
                QTest::keyClicks(child<QLineEdit>(credentials, "credentialsAccessKey"), QString::fromStdString(kRoot));
                QTest::keyClicks(child<QLineEdit>(credentials, "credentialsSecretKey"),
                                 QString::fromStdString(kRootSecret));
                saveScreenshot(*credentials, QStringLiteral("access-credentials-dialog"));
                clickDialogButton(credentials, QDialogButtonBox::Save);
            });
            QTest::mouseClick(child<QPushButton>(&dialog, "connectionCredentials"), Qt::LeftButton);
            QCOMPARE(window.connections().connections()[0].accessKey, QString::fromStdString(kRoot));
            QTRY_VERIFY_WITH_TIMEOUT(child<QListWidget>(&dialog, "connectionList")->item(0)->text().contains(
                                         QStringLiteral("as root")),
                                     kTimeout);
            if (!keyringRun()) {
                // No keyring answers here: the secret is used for this session and the user told.
                QTRY_VERIFY_WITH_TIMEOUT(child<QLabel>(&dialog, "connectionNotes")->text().contains(
                                             QStringLiteral("session only")),
                                         kTimeout);
                saveScreenshot(dialog, QStringLiteral("access-connections-keyring-note"));
            }
        }
        QTRY_COMPARE_WITH_TIMEOUT(window.connection().accessKey(), QString::fromStdString(kRoot), kTimeout);
        QTRY_VERIFY_WITH_TIMEOUT(access_->userModel()->rowOf(QString::fromStdString(kRoot)) >= 0, kTimeout);
        QVERIFY2(access_->bannerText().contains(QString::fromStdString(authBroker_->brokerAddress())),
                 qPrintable(access_->bannerText()));
        QVERIFY2(window.statusText().contains(QStringLiteral("as root")), qPrintable(window.statusText()));
        saveScreenshot(window, QStringLiteral("access-users"));

        // The other pages read the secured cluster with the same credentials.
        auto *topics = pageOf<ui::TopicsView>(window);
        QVERIFY(test::clickNavigation(window, ui::TopicsView::tr("Topics")));
        QTRY_VERIFY_WITH_TIMEOUT(topics->topicModel()->rowOf(QString::fromStdString(kTopic)) >= 0, kTimeout);
        QVERIFY(test::clickNavigation(window, AccessView::tr("Access control")));

        // The secret is never written to the app's own files.
        window.history().waitForIdle();
        const QByteArray secret = QByteArray::fromStdString(kRootSecret);
        for (const QString &folder : {QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation),
                                      QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)})
            QVERIFY2(filesHolding(folder, secret).isEmpty(), qPrintable(filesHolding(folder, secret).join(u' ')));
    }

    // A user and a policy entry made with the page's dialogs are what a client signed as that
    // user meets at the broker; the answer to "what may alice do?" says the same.
    void usersAndPoliciesAreEditedWithClicks()
    {
        QVERIFY(access_);
        test::AccessScenario scenario(this, access_, address_.toStdString(), {kRoot, kRootSecret, {}}, kTopic,
                                      kTimeout);
        scenario.runUserLifecycle(QStringLiteral("access"));
    }

    // A Normal user without the right to manage users is refused, and the page says so.
    void aRefusedChangeIsSaid()
    {
        QVERIFY(access_);
        test::whenDialogOpens<QDialog>(this, kTimeout, [](QDialog *dialog) {
            QTest::keyClicks(child<QLineEdit>(dialog, "userName"), QStringLiteral("bob"));
            QTest::keyClicks(child<QLineEdit>(dialog, "userPassword"), QStringLiteral("bob-secret"));
            clickDialogButton(dialog, QDialogButtonBox::Ok);
        });
        test::AccessScenario scenario(this, access_, address_.toStdString(), {kRoot, kRootSecret, {}}, kTopic,
                                      kTimeout);
        QVERIFY(scenario.click("newUserButton"));
        window_->connection().setTarget(address_, QStringLiteral("bob"), QStringLiteral("bob-secret"));
        QTRY_VERIFY_WITH_TIMEOUT(access_->bannerText().contains(QStringLiteral("Super user")), kTimeout);
        test::whenDialogOpens<QDialog>(this, kTimeout, [](QDialog *dialog) {
            QTest::keyClicks(child<QLineEdit>(dialog, "userName"), QStringLiteral("mallory"));
            QTest::keyClicks(child<QLineEdit>(dialog, "userPassword"), QStringLiteral("x"));
            clickDialogButton(dialog, QDialogButtonBox::Ok);
        });
        QVERIFY(!scenario.click("newUserButton"));
        QVERIFY2(access_->bannerText().contains(QStringLiteral("refused")), qPrintable(access_->bannerText()));
        QVERIFY(!scenario.brokerHasUser("mallory"));
        saveScreenshot(*window_, QStringLiteral("access-refused-change"));
    }

    // With a keyring (tst_ui_access_keyring): the secret is stored there and a restarted console
    // signs with it; without one it is kept for the session and said so.
    void theSecretLivesInTheKeyring()
    {
        window_.reset();
        access_ = nullptr;
        {
            ui::HistoryStore history;
            ConnectionManager manager(history);
            QTRY_VERIFY_WITH_TIMEOUT(manager.isLoaded(), kTimeout);
            QCOMPARE(manager.connections().size(), size_t(1));
            QSignalSpy notes(&manager, &ConnectionManager::keyringNote);
            QVERIFY(manager.setCredentials(0, QStringLiteral("root"), QString::fromStdString(kRootSecret)));
            if (keyringRun())
                QVERIFY(!notes.wait(3000)); // stored without a word
            else
                QVERIFY(notes.wait(kTimeout));
            history.waitForIdle();
        }
        ui::HistoryStore history;
        ConnectionManager restarted(history);
        QTRY_VERIFY_WITH_TIMEOUT(restarted.isLoaded(), kTimeout);
        QCOMPARE(restarted.connections()[0].accessKey, QStringLiteral("root"));
        QString secret, error;
        bool answered = false;
        restarted.credentialsFor(QStringLiteral("Secured"), this, [&](QString, QString s, QString e) {
            secret = s;
            error = e;
            answered = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(answered, kTimeout);
        if (keyringRun()) {
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QCOMPARE(secret, QString::fromStdString(kRootSecret));
        } else {
            QVERIFY(secret.isEmpty());
            QVERIFY(!error.isEmpty());
        }
        // Removing the connection removes its secret.
        restarted.removeConnection(0);
        answered = false;
        restarted.secrets().read(QStringLiteral("Secured"), this, [&](QString s, QString) {
            secret = s;
            answered = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(answered, kTimeout);
        QVERIFY(secret.isEmpty());
    }

    // An embedded broker with ACL 2.0 on is read as its own Super user (innerClientAuthentication-
    // Credentials, else initAuthenticationUser, from its broker.conf): no credentials to type.
    void theEmbeddedBrokerSignsAsItsOwnSuperUser()
    {
        window_.reset();
        access_ = nullptr;
        server::EmbeddedBrokerOptions options = optionsFor(dir_.filePath(QStringLiteral("embedded-auth")));
        options.settings.broker.authenticationEnabled = true;
        options.settings.broker.authorizationEnabled = true;
        options.settings.broker.initAuthenticationUser = "{\"username\":\"owner\",\"password\":\"owner-secret\"}";
        MainWindow window(options);
        window.show();
        QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Running, kTimeout);
        QCOMPARE(window.connection().accessKey(), QStringLiteral("owner"));
        auto *access = pageOf<AccessView>(window);
        QVERIFY(test::clickNavigation(window, AccessView::tr("Access control")));
        QTRY_VERIFY_WITH_TIMEOUT(access->userModel()->rowOf(QStringLiteral("owner")) >= 0, kTimeout);
        QVERIFY2(!access->bannerText().contains(QStringLiteral("NO_PERMISSION")), qPrintable(access->bannerText()));
    }

    // A history database of schema version 1 (connections without access keys, nor TLS) gains
    // the columns in place: its connections stay, and an access key set now is kept.
    void aVersionOneHistoryGainsTheAccessKey()
    {
        const QString path = dir_.filePath(QStringLiteral("v1/history.sqlite"));
        {
            ui::HistoryStore created({path, {}, 2000, 0});
            created.waitForIdle();
        }
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("v1"));
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery query(db);
            for (const char *statement :
                 {"ALTER TABLE connections DROP COLUMN access_key", "ALTER TABLE connections DROP COLUMN tls",
                  "ALTER TABLE connections DROP COLUMN tls_pin",
                  "INSERT INTO connections(position, name, namesrv) VALUES (0, 'Old', '10.0.0.1:9876')",
                  "INSERT OR REPLACE INTO settings(key, value) VALUES ('connections_saved', '1')",
                  "PRAGMA user_version = 1"})
                QVERIFY2(query.exec(QString::fromLatin1(statement)), qPrintable(query.lastError().text()));
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("v1"));
        {
            ui::HistoryStore history({path, {}, 2000, 0});
            ConnectionManager manager(history);
            QTRY_VERIFY_WITH_TIMEOUT(manager.isLoaded(), kTimeout);
            QCOMPARE(history.openReport().outcome, ui::HistoryOpenReport::Outcome::Opened);
            QCOMPARE(manager.connections().size(), size_t(1));
            QCOMPARE(manager.connections()[0].accessKey, QString());
            QVERIFY(manager.setCredentials(0, QStringLiteral("ops"), QStringLiteral("ops-secret")));
            history.waitForIdle();
        }
        ui::HistoryStore history({path, {}, 2000, 0});
        ConnectionManager again(history);
        QTRY_VERIFY_WITH_TIMEOUT(again.isLoaded(), kTimeout);
        QCOMPARE(again.connections()[0].name, QStringLiteral("Old"));
        QCOMPARE(again.connections()[0].accessKey, QStringLiteral("ops"));
        again.removeConnection(0); // and its secret
        history.waitForIdle();
    }

    // The decision rules behind the answers, for the cases the page's clicks do not reach.
    void answersFollowTheBrokersRules()
    {
        acl::User user{"carol", "x", false, true};
        acl::Acl acl;
        acl.subject = "User:carol";
        acl::PolicyEntry prefix, exact, any, fromLan;
        std::string error;
        QVERIFY(acl::parseResource("Topic:orders*", prefix, error));
        prefix.actions = acl::action::kPub | acl::action::kSub;
        QVERIFY(acl::parseResource("Topic:orders-secret", exact, error));
        exact.actions = acl::action::kAll;
        exact.allow = false;
        QVERIFY(acl::parseResource("*", any, error));
        any.actions = acl::action::kGet;
        QVERIFY(acl::parseResource("Group:g1", fromLan, error));
        fromLan.actions = acl::action::kSub;
        fromLan.sourceIps = {"10.0.0.0/8"};
        acl.policies.push_back({false, {prefix, exact, fromLan}});
        acl.policies.push_back({true, {any}});
        const auto decisions = [&](acl::ResourceType type, const char *name, const char *host) {
            QStringList out;
            for (const ui::AccessAnswer &a : ui::explainAccess(user, &acl, type, QString::fromLatin1(name),
                                                               QString::fromLatin1(host)))
                out << a.action + (a.allowed ? QStringLiteral("+") : QStringLiteral("-"));
            return out.join(u' ');
        };
        QCOMPARE(decisions(acl::ResourceType::Topic, "orders-1", ""),
                 QStringLiteral("Pub+ Sub+ Create- Update- Delete- Get+ List-")); // Get from Default
        QCOMPARE(decisions(acl::ResourceType::Topic, "orders-secret", ""),
                 QStringLiteral("Pub- Sub- Create- Update- Delete- Get- List-")); // exact Deny wins
        QCOMPARE(decisions(acl::ResourceType::Group, "g1", "10.1.2.3"), QStringLiteral("Sub+ Create- Update- Delete- Get+ List-"));
        QCOMPARE(decisions(acl::ResourceType::Group, "g1", "192.168.0.1"),
                 QStringLiteral("Sub- Create- Update- Delete- Get+ List-"));
        user.super = true;
        QCOMPARE(decisions(acl::ResourceType::Topic, "orders-secret", ""),
                 QStringLiteral("Pub+ Sub+ Create+ Update+ Delete+ Get+ List+"));
    }

private:
    static client::ClientConfig config(const std::string &accessKey, const std::string &secretKey)
    {
        client::ClientConfig config;
        config.namesrvAddr = "";
        config.credentials = {accessKey, secretKey, {}};
        return config;
    }

    QTemporaryDir dir_;
    std::unique_ptr<server::EmbeddedBroker> authBroker_;
    QString address_;
    std::unique_ptr<MainWindow> window_;
    AccessView *access_ = nullptr;
};

QTEST_MAIN(AccessViewTest)
#include "tst_access_view.moc"
