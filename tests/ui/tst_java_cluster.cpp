// The console against a real Apache RocketMQ 5.5.0 cluster: the Java NameServer and a master +
// slave broker pair (tests/interop/java_cluster.h) with a topic of 20 keyed, tagged messages and a
// consumer group that committed half of each queue. A real MainWindow (offscreen) is pointed at
// it the way a person does it — a saved connection picked in the toolbar combo, pages opened
// from the navigation list, rows clicked, buttons pressed — and every page is checked against
// what the Java cluster holds. Screenshots java-* go to screenshots/.

#include "interop/java_cluster.h"
#include "ui_test_util.h"
#include "ui/overview/broker_table_model.h"
#include "ui/overview/brokers_panel.h"
#include "ui/connection/connection_bar.h"
#include "ui/connection/connection_manager.h"
#include "ui/flush/flush_monitor_view.h"
#include "ui/groups/client_info_pane.h"
#include "ui/groups/group_table_model.h"
#include "ui/history/history_store.h"
#include "ui/groups/groups_view.h"
#include "ui/main_window.h"
#include "ui/messages/message_detail_pane.h"
#include "ui/messages/message_table_model.h"
#include "ui/messages/messages_view.h"
#include "ui/overview/overview_view.h"
#include "ui/topics/topic_detail_pane.h"
#include "ui/topics/topic_table_model.h"
#include "ui/topics/topics_view.h"
#include "ui/widgets/traffic_chart.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QStackedWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>

#include <algorithm>
#include <memory>

using namespace mqdesk;
using mqdesk::test::JavaCluster;
using mqdesk::test::optionsFor;
using mqdesk::test::saveScreenshot;
using mqdesk::ui::BrokerHost;
using mqdesk::ui::MainWindow;

namespace {

constexpr int kTimeout = 60000; // a loaded machine answers slowly through the JVMs
constexpr int kMessages = 20;
const std::string kTopic = "JavaConsoleTopic";
const std::string kGroup = "CG_JAVA_CONSOLE";

QString q(const std::string &text) { return QString::fromStdString(text); }

// Clicks the cell at `index` (of the view's own model), scrolled into view first.
void clickRow(QTableView *view, const QModelIndex &index)
{
    view->scrollTo(index);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(index).center());
}

} // namespace

class JavaClusterTest : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<JavaCluster> cluster_;
    test::SeededTopic seeded_;
    QTemporaryDir dir_;
    std::unique_ptr<MainWindow> window_;

    // Clicks the navigation entry titled `title`, as a person opening a page.
    template <typename View>
    View *openPage(const QString &title)
    {
        if (!test::clickNavigation(*window_, title))
            return nullptr;
        return qobject_cast<View *>(window_->pages()->currentWidget());
    }

    QPushButton *visibleButton(QWidget *parent, const QString &text) const
    {
        for (auto *button : parent->findChildren<QPushButton *>()) {
            if (button->text() == text && button->isVisible())
                return button;
        }
        return nullptr;
    }

    client::ClientConfig clientConfig(const char *instance) const
    {
        client::ClientConfig config;
        config.namesrvAddr = cluster_->namesrvAddress().toStdString();
        config.instanceName = instance;
        return config;
    }

private slots:
    void initTestCase()
    {
        // Settings and saved connections of this run alone (test mode, an organisation of its
        // own), so the connection saved here is not found again by the next run.
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(
            QStringLiteral("MQDeskJavaClusterTest-%1").arg(QCoreApplication::applicationPid()));
        QCoreApplication::setApplicationName(QStringLiteral("tst_ui_java_cluster"));

        cluster_ = std::make_unique<JavaCluster>(QStringLiteral(MQDESK_JAVA_CLUSTER_CLASSPATH));
        QString error;
        QVERIFY2(cluster_->start(error), qPrintable(error));
        std::string seedError;
        seeded_ = test::seedTopic(*cluster_, kTopic, kGroup, kMessages, seedError);
        QVERIFY2(seedError.empty(), seedError.c_str());
        QVERIFY(seeded_.lag() > 0 && seeded_.lag() < kMessages);

        window_ = std::make_unique<MainWindow>(optionsFor(dir_.filePath(QStringLiteral("store"))));
        window_->resize(1400, 900);
        window_->show();
        QTRY_COMPARE_WITH_TIMEOUT(window_->brokerHost().state(), BrokerHost::State::Running, kTimeout);

        // A saved connection to the Java NameServer, picked in the toolbar combo with the keyboard.
        QVERIFY(window_->connections().addConnection(QStringLiteral("Java 5.5.0"), cluster_->namesrvAddress()));
        QComboBox *combo = window_->connectionBar()->combo();
        QCOMPARE(combo->count(), 2);
        combo->setFocus();
        QTest::keyClick(combo, Qt::Key_Down);
        QCOMPARE(combo->currentIndex(), 1);
        QCOMPARE(window_->connection().namesrvAddress(), cluster_->namesrvAddress());
        QTRY_VERIFY_WITH_TIMEOUT(window_->connectionBar()->bannerText().isEmpty(), kTimeout); // reachable
    }

    void overviewListsMasterAndSlave()
    {
        auto *overview = openPage<ui::OverviewView>(QStringLiteral("Overview"));
        QVERIFY(overview);
        ui::BrokersPanel *panel = overview->brokers();
        ui::BrokerTableModel *model = panel->model();
        const auto rowOf = [model](const QString &address) {
            for (int row = 0; row < model->rowCount(); ++row) {
                if (model->index(row, ui::BrokerTableModel::AddressColumn).data().toString() == address)
                    return row;
            }
            return -1;
        };
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                panel->refresh();
                QTest::qWait(200);
                return model->rowCount() == 2 && rowOf(cluster_->masterAddress()) >= 0
                       && rowOf(cluster_->slaveAddress()) >= 0
                       && !model->index(rowOf(cluster_->slaveAddress()), ui::BrokerTableModel::VersionColumn)
                               .data()
                               .toString()
                               .isEmpty();
            }(),
            kTimeout);
        const int master = rowOf(cluster_->masterAddress());
        const int slave = rowOf(cluster_->slaveAddress());
        const auto cell = [model](int row, int column) { return model->index(row, column).data().toString(); };
        QCOMPARE(cell(master, ui::BrokerTableModel::ClusterColumn), QString::fromLatin1(JavaCluster::kClusterName));
        QCOMPARE(cell(slave, ui::BrokerTableModel::BrokerColumn), QString::fromLatin1(JavaCluster::kBrokerName));
        QCOMPARE(cell(master, ui::BrokerTableModel::RoleColumn), QStringLiteral("0 (master)"));
        QCOMPARE(cell(slave, ui::BrokerTableModel::RoleColumn), QStringLiteral("1 (slave)"));
        for (int row : {master, slave}) {
            QVERIFY2(cell(row, ui::BrokerTableModel::VersionColumn).startsWith(QStringLiteral("V5_5_0")),
                     qPrintable(cell(row, ui::BrokerTableModel::VersionColumn)));
            QCOMPARE(cell(row, ui::BrokerTableModel::FlushColumn), QStringLiteral("ASYNC_FLUSH"));
        }
        QVERIFY2(panel->bannerText().isEmpty(), qPrintable(panel->bannerText()));
        saveScreenshot(*window_, QStringLiteral("java-overview"));
    }

    void topicsShowQueuesAndRoute()
    {
        auto *topics = openPage<ui::TopicsView>(QStringLiteral("Topics"));
        QVERIFY(topics);
        QTRY_VERIFY_WITH_TIMEOUT(!topics->isLoading() && topics->topicModel()->rowOf(q(kTopic)) >= 0, kTimeout);
        const QModelIndex source = topics->topicModel()->index(topics->topicModel()->rowOf(q(kTopic)), 0);
        const QModelIndex shown = topics->filterModel()->mapFromSource(source);
        QVERIFY(shown.isValid());
        clickRow(topics->table(), shown);
        QCOMPARE(topics->selectedTopic(), q(kTopic));

        ui::TopicDetailPane *detail = topics->detailPane();
        // Four queues on broker-java, each with the max offset the master has.
        QElapsedTimer detailTime;
        detailTime.start();
        QTRY_VERIFY2_WITH_TIMEOUT(detail->queueTable()->rowCount() == seeded_.queues,
                                  qPrintable(QStringLiteral("%1 queue rows, %2 route rows, selected %3; the pane says: %4 / %5")
                                                 .arg(detail->queueTable()->rowCount())
                                                 .arg(detail->routeTable()->rowCount())
                                                 .arg(topics->selectedTopic(), detail->findChildren<QLabel *>().at(0)->text(),
                                                      detail->findChildren<QLabel *>().at(1)->text())),
                                  kTimeout);
        qInfo("the topic's detail took %lld ms", static_cast<long long>(detailTime.elapsed()));
        QTableWidget *route = detail->routeTable();
        QVERIFY(route->rowCount() >= 1);
        QString routeText;
        for (int row = 0; row < route->rowCount(); ++row)
            for (int column = 0; column < route->columnCount(); ++column)
                routeText += (route->item(row, column) ? route->item(row, column)->text() : QString()) + QLatin1Char(' ');
        QVERIFY2(routeText.contains(QString::fromLatin1(JavaCluster::kBrokerName))
                     && routeText.contains(cluster_->masterAddress()),
                 qPrintable(routeText));
        QString queueText;
        QTableWidget *queues = detail->queueTable();
        for (int row = 0; row < queues->rowCount(); ++row)
            for (int column = 0; column < queues->columnCount(); ++column)
                queueText += (queues->item(row, column) ? queues->item(row, column)->text() : QString()) + QLatin1Char('|');
        for (const auto &[queueId, max] : seeded_.maxOffsetByQueue)
            QVERIFY2(queueText.contains(QString::number(max)), qPrintable(queueText));
        // "<group> — <gets>/s now, <n> in the last 24 h" from the Java broker's statistics.
        QTRY_VERIFY_WITH_TIMEOUT(!detail->consumerList()->findItems(q(kGroup), Qt::MatchStartsWith).isEmpty(), kTimeout);
        QVERIFY2(detail->trafficText().startsWith(QStringLiteral("Puts: ")), qPrintable(detail->trafficText()));
        saveScreenshot(*window_, QStringLiteral("java-topics"));
        // "Traffic by group": the groups of the topic, from the Java broker's statistics.
        QTabWidget *bottom = detail->bottomTabs();
        QTest::mouseClick(bottom->tabBar(), Qt::LeftButton, {},
                          bottom->tabBar()->tabRect(bottom->indexOf(detail->trafficChart())).center());
        QCOMPARE(bottom->currentWidget(), detail->trafficChart());
        const auto rows = detail->trafficChart()->rows();
        QVERIFY(std::any_of(rows.begin(), rows.end(), [](const ui::TrafficChart::Row &row) { return row.label == q(kGroup); }));
        QTest::mouseClick(bottom->tabBar(), Qt::LeftButton, {}, bottom->tabBar()->tabRect(0).center());
    }

    void groupsShowTheLag()
    {
        auto *groups = openPage<ui::GroupsView>(QStringLiteral("Consumer groups"));
        QVERIFY(groups);
        ui::GroupTableModel *model = groups->groupModel();
        QTRY_VERIFY_WITH_TIMEOUT(!groups->isLoading() && model->rowOf(kGroup) >= 0, kTimeout);
        QCOMPARE(model->group(model->rowOf(kGroup)).totalLag, seeded_.lag());
        QCOMPARE(model->group(model->rowOf(kGroup)).topics, std::vector<std::string>{kTopic});

        QSignalSpy detail(groups, &ui::GroupsView::detailLoaded);
        clickRow(groups->groupTable(), groups->groupProxy()->mapFromSource(model->index(model->rowOf(kGroup), 0)));
        QCOMPARE(groups->selectedGroup(), q(kGroup));
        QVERIFY(detail.count() > 0 || detail.wait(kTimeout));
        QCOMPARE(groups->queueModel()->rowCount(), seeded_.queues);
        for (int row = 0; row < groups->queueModel()->rowCount(); ++row) {
            const auto &queue = groups->queueModel()->queue(row);
            QCOMPARE(queue.lag(), seeded_.maxOffsetByQueue.at(queue.queue.queueId)
                                      - seeded_.committedByQueue.at(queue.queue.queueId));
        }
        saveScreenshot(*window_, QStringLiteral("java-groups"));

        // The Traffic tab asks the Java brokers' statistics (315, keys "topic@group"): read
        // without an error. A Java broker counts a window's sum from its snapshots (the day's
        // hourly), so a fresh one may show the pulls or none yet.
        ui::TrafficChart *traffic = groups->trafficChart();
        QTabBar *tabs = groups->detailTabs()->tabBar();
        QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(groups->detailTabs()->indexOf(traffic)).center());
        QCOMPARE(groups->detailTabs()->currentWidget(), traffic);
        QVERIFY2(!traffic->summaryText().contains(QStringLiteral("could not be read")), qPrintable(traffic->summaryText()));
        for (const ui::TrafficChart::Row &row : traffic->rows())
            QCOMPARE(row.label, q(kTopic));
        saveScreenshot(*window_, QStringLiteral("java-groups-traffic"));
        QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(0).center());
    }

    void messagesFindsByKey()
    {
        auto *messages = openPage<ui::MessagesView>(QStringLiteral("Messages"));
        QVERIFY(messages);
        QLineEdit *topicEdit = messages->topicBox()->lineEdit();
        topicEdit->selectAll();
        QTest::keyClicks(topicEdit, q(kTopic));
        auto *mode = messages->findChild<QComboBox *>(QStringLiteral("lookupMode"));
        auto *text = messages->findChild<QLineEdit *>(QStringLiteral("lookupText"));
        QVERIFY(mode && text);
        mode->setFocus();
        QTest::keyClick(mode, Qt::Key_Down); // "Key"
        QCOMPARE(mode->currentIndex(), 1);
        const QString key = q(test::seedKey(kTopic, 7));
        QTest::keyClicks(text, key);
        // The Java broker builds its index right after the put; ask again until it answers.
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                QTest::keyClick(text, Qt::Key_Return);
                return QTest::qWaitFor([&] { return !messages->isBusy(); }, 20000)
                       && messages->messageModel()->rowCount() == 1;
            }(),
            kTimeout);
        clickRow(messages->table(), messages->table()->model()->index(0, 0));
        ui::MessageDetailPane *detail = messages->detailPane();
        QTRY_VERIFY_WITH_TIMEOUT(detail->hasMessage(), kTimeout);
        QCOMPARE(detail->fieldText(QStringLiteral("Topic")), q(kTopic));
        QCOMPARE(detail->fieldText(QStringLiteral("Keys")), key);
        QCOMPARE(detail->fieldText(QStringLiteral("Tags")), QStringLiteral("Tag1"));
        QVERIFY2(detail->bodyText().contains(QStringLiteral("body 7")), qPrintable(detail->bodyText()));
        saveScreenshot(*window_, QStringLiteral("java-messages"));

        // Export…: the message found, written whole as JSON Lines through the save dialog.
        const QString path = dir_.filePath(QStringLiteral("java-message.jsonl"));
        QSignalSpy exported(messages, &ui::MessagesView::exportFinished);
        test::saveThroughFileDialog(messages->exportButton(), path);
        QVERIFY(exported.count() > 0 || exported.wait(kTimeout));
        QCOMPARE(exported.at(0).at(0).toString(), path);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject object = QJsonDocument::fromJson(file.readAll().trimmed()).object();
        QCOMPARE(object.value(QStringLiteral("keys")).toString(), key);
        QCOMPARE(object.value(QStringLiteral("body")).toString(), QStringLiteral("body 7"));
        QCOMPARE(object.value(QStringLiteral("storeHost")).toString(), cluster_->masterAddress());
    }

    void flushMonitorFallsBackOnTheJavaMaster()
    {
        auto *flush = openPage<ui::FlushMonitorView>(QStringLiteral("Flush monitor"));
        QVERIFY(flush);
        flush->setWindowSeconds(60);
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                flush->listBrokers();
                QTest::qWait(200);
                return flush->brokerAddresses().contains(cluster_->masterAddress())
                       && flush->brokerAddresses().contains(cluster_->slaveAddress());
            }(),
            kTimeout);
        // Pick the master in the broker combo with the keyboard (whatever was picked first).
        auto *box = flush->findChild<QComboBox *>(QStringLiteral("flushBrokerBox"));
        QVERIFY(box);
        const int masterIndex = box->findData(cluster_->masterAddress());
        QVERIFY(masterIndex >= 0);
        box->setFocus();
        while (box->currentIndex() != masterIndex)
            QTest::keyClick(box, box->currentIndex() < masterIndex ? Qt::Key_Down : Qt::Key_Up);
        QTRY_COMPARE_WITH_TIMEOUT(flush->brokerAddress(), cluster_->masterAddress(), kTimeout);

        // The Java broker has no GET_FLUSH_SAMPLES: samples come from its runtime info, a second apart.
        auto producer = window_->connection().producer();
        const auto drawn = [&] {
            client::Message message;
            message.topic = "JavaFlushTopic"; // auto-created by the Java master; kTopic's offsets stay as seeded
            message.setBody("while the flush monitor watches");
            producer->send(message);
            return flush->isRuntimeInfoFallback() && flush->pointCount() >= 3;
        };
        QTRY_VERIFY_WITH_TIMEOUT(drawn(), kTimeout);
        for (const client::FlushSample &sample : flush->series().samples())
            QCOMPARE(sample.flushDiskType, std::string("ASYNC_FLUSH"));
        QCOMPARE(flush->series().currentMode(), QStringLiteral("ASYNC_FLUSH")); // from GET_BROKER_CONFIG
        const QString banner = flush->bannerText();
        QVERIFY2(banner.contains(QStringLiteral("does not answer GET_FLUSH_SAMPLES"))
                     && banner.contains(QStringLiteral("flush latency (p50/p99/max)")),
                 qPrintable(banner));
        saveScreenshot(*window_, QStringLiteral("java-flush"));
    }

    // "Skip accumulated" on the group, twice, each time with a push client online when the list
    // loads that leaves before the reset is confirmed (the view then asks the broker to reset
    // through the clients, INVOKE_BROKER_TO_RESET_OFFSET):
    // - Java 5.5.0 as configured by default (useServerSideResetOffset=true) resets the offsets
    //   on its side and answers SUCCESS;
    // - with useServerSideResetOffset=false (as brokers before 5.x do) it answers
    //   CONSUMER_NOT_ONLINE, and the console writes the offsets itself, as mqadmin does.
    // Either way the lag is 0 afterwards, in the view and on the master.
    void resetToLatestFromTheGroupsView()
    {
        auto *groups = openPage<ui::GroupsView>(QStringLiteral("Consumer groups"));
        QVERIFY(groups);
        client::AdminClient admin(clientConfig("java-console-check"));

        resetWithClientGone(*groups, admin, QStringLiteral("Sent the reset of %1 queue(s)").arg(seeded_.queues));
        if (QTest::currentTestFailed())
            return;

        // More messages, so there is lag again, and the broker that delegates resets to clients.
        {
            client::ProducerOptions producerOptions;
            producerOptions.group = "PG_JAVA_CONSOLE";
            client::Producer producer(clientConfig("java-console-producer"), producerOptions);
            QVERIFY(producer.start().ok);
            for (int i = 0; i < 8; ++i) {
                client::Message message;
                message.topic = kTopic;
                message.setBody("after the first reset " + std::to_string(i));
                QVERIFY(producer.send(message).ok);
            }
            producer.shutdown();
        }
        const std::string master = cluster_->masterAddress().toStdString();
        QVERIFY(admin.updateBrokerConfig(master, {{"useServerSideResetOffset", "false"}}).ok);
        resetWithClientGone(*groups, admin, QStringLiteral("Reset %1 queue(s)").arg(seeded_.queues));
        saveScreenshot(*window_, QStringLiteral("java-reset"));
        admin.shutdown();
    }

    // A real Java 5.5 push consumer online: a person opens its group's "Clients' running info",
    // reads what the client reports through the Java broker (consume type, subscription), asks
    // for its thread stacks, and has it consume the first seeded message directly.
    void clientsRunningInfoOfAJavaConsumer()
    {
        const QString group = QStringLiteral("CG_JAVA_LIVE");
        QString error;
        QVERIFY2(cluster_->startPushConsumer(QStringLiteral(MQDESK_JAVA_PUSH_CONSUMER), group, q(kTopic), error),
                 qPrintable(error));
        auto *groups = openPage<ui::GroupsView>(QStringLiteral("Consumer groups"));
        QVERIFY(groups);
        ui::GroupTableModel *model = groups->groupModel();
        QPushButton *refresh = visibleButton(groups, QStringLiteral("Refresh"));
        QVERIFY(refresh);
        QTRY_VERIFY_WITH_TIMEOUT((QTest::mouseClick(refresh, Qt::LeftButton), QTest::qWait(500),
                                  model->rowOf(group.toStdString()) >= 0 && model->clients(model->rowOf(group.toStdString())) == 1),
                                 kTimeout);
        QSignalSpy detail(groups, &ui::GroupsView::detailLoaded);
        clickRow(groups->groupTable(),
                 groups->groupProxy()->mapFromSource(model->index(model->rowOf(group.toStdString()), 0)));
        QVERIFY(detail.count() > 0 || detail.wait(kTimeout));

        ui::ClientInfoPane *pane = groups->clientPane();
        QSignalSpy loaded(pane, &ui::ClientInfoPane::runningInfoLoaded);
        QTabBar *tabs = groups->detailTabs()->tabBar();
        QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(groups->detailTabs()->indexOf(pane)).center());
        QVERIFY(loaded.count() > 0 || loaded.wait(kTimeout));
        QCOMPARE(pane->clientTable()->model()->rowCount(), 1);
        QStringList shown;
        for (QTreeWidgetItemIterator it(pane->detailTree()); *it; ++it)
            shown << (*it)->text(0) + QStringLiteral(" = ") + (*it)->text(1);
        const QString text = shown.join(QLatin1Char('\n'));
        QVERIFY2(text.contains(QStringLiteral("Consume type = CONSUME_PASSIVELY")), qPrintable(text));
        QVERIFY2(text.contains(q(kTopic) + QStringLiteral(" = TAG: *")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Client version = V5_5_0")), qPrintable(text));

        loaded.clear();
        QTest::mouseClick(pane->stacksCheck(), Qt::LeftButton, {}, QPoint(5, pane->stacksCheck()->height() / 2));
        QVERIFY(loaded.count() > 0 || loaded.wait(kTimeout));
        QVERIFY2(pane->stacksText()->toPlainText().contains(QStringLiteral("PullMessageService")),
                 qPrintable(pane->stacksText()->toPlainText().left(500)));
        saveScreenshot(*window_, QStringLiteral("java-client-running-info"));

        QSignalSpy directly(pane, &ui::ClientInfoPane::consumedDirectly);
        QTest::mouseClick(pane->directMessageEdit(), Qt::LeftButton);
        QTest::keyClicks(pane->directMessageEdit(), q(seeded_.sent.front().msgId));
        QTest::mouseClick(pane->directTopicEdit(), Qt::LeftButton);
        QTest::keyClicks(pane->directTopicEdit(), q(kTopic));
        QTest::mouseClick(pane->consumeDirectlyButton(), Qt::LeftButton);
        QVERIFY(directly.count() > 0 || directly.wait(kTimeout));
        QVERIFY2(pane->directResultText().contains(QStringLiteral("CR_SUCCESS")), qPrintable(pane->directResultText()));
        QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(0).center());
    }

private:
    void resetWithClientGone(ui::GroupsView &groups, client::AdminClient &admin, const QString &expectedBanner)
    {
        ui::GroupTableModel *model = groups.groupModel();
        const std::string master = cluster_->masterAddress().toStdString();
        auto pushy = std::make_unique<client::AdminClient>(clientConfig("java-console-pushy"));
        remoting::ConsumerData consumer;
        consumer.groupName = kGroup;
        consumer.consumeType = "CONSUME_PASSIVELY";
        consumer.subscriptionDataSet.push_back(remoting::SubscriptionData::build(kTopic, "*"));
        remoting::HeartbeatData heartbeat;
        heartbeat.clientId = clientConfig("java-console-pushy").clientId();
        heartbeat.consumerDataSet.push_back(consumer);
        QVERIFY(pushy->api().sendHeartbeat(master, heartbeat).ok);
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                QSignalSpy loaded(&groups, &ui::GroupsView::groupsLoaded);
                QTest::mouseClick(visibleButton(&groups, QStringLiteral("Refresh")), Qt::LeftButton);
                loaded.wait(kTimeout);
                const int row = model->rowOf(kGroup);
                return row >= 0 && model->clients(row) == 1 && model->group(row).totalLag > 0;
            }(),
            kTimeout);
        const int64_t lag = model->group(model->rowOf(kGroup)).totalLag;
        clickRow(groups.groupTable(), groups.groupProxy()->mapFromSource(model->index(model->rowOf(kGroup), 0)));
        QCOMPARE(groups.selectedGroup(), q(kGroup));

        // The client goes away; the broker notices the closed connection.
        pushy->shutdown();
        pushy.reset();
        QTRY_COMPARE_WITH_TIMEOUT(admin.consumerConnections(kGroup).code, remoting::ResponseCode::kConsumerNotOnline,
                                  kTimeout);

        QPushButton *skip = visibleButton(&groups, QStringLiteral("Skip accumulated"));
        QVERIFY(skip && skip->isEnabled());
        QTest::mouseClick(skip, Qt::LeftButton);
        QVERIFY2(groups.confirmationText().contains(QString::number(lag)), qPrintable(groups.confirmationText()));
        QVERIFY2(groups.confirmationText().contains(QStringLiteral("tells the 1 online client")),
                 qPrintable(groups.confirmationText()));
        QPushButton *confirm = visibleButton(&groups, QStringLiteral("Confirm"));
        QVERIFY(confirm);
        QSignalSpy finished(&groups, &ui::GroupsView::actionFinished);
        QSignalSpy loaded(&groups, &ui::GroupsView::groupsLoaded);
        QTest::mouseClick(confirm, Qt::LeftButton);
        QVERIFY(finished.wait(kTimeout));
        QVERIFY2(finished.first().first().toBool(), qPrintable(groups.bannerText()));
        QVERIFY2(groups.bannerText().contains(expectedBanner), qPrintable(groups.bannerText()));
        QVERIFY(loaded.count() > 0 || loaded.wait(kTimeout));
        QTRY_COMPARE_WITH_TIMEOUT(model->group(model->rowOf(kGroup)).totalLag, int64_t(0), kTimeout);

        // The Java master holds the new offsets: its max offset of every queue.
        const auto stats = admin.consumeStats(kGroup, kTopic);
        QVERIFY2(stats.ok, stats.error.c_str());
        QCOMPARE(static_cast<int>(stats.value.offsetTable.size()), seeded_.queues);
        for (const auto &[queue, offsets] : stats.value.offsetTable)
            QCOMPARE(offsets.consumerOffset, offsets.brokerOffset);
    }

private slots:
    void cleanupTestCase()
    {
        if (window_) {
            window_->connection().waitForDone();
            window_->close();
            window_.reset();
        }
        cluster_.reset();
        for (const QString &file : {ui::appSettingsPath(), ui::HistoryStore::defaultPath()}) {
            QDir dir = QFileInfo(file).dir(); // …/<organisation>/<application>
            dir.cdUp();
            dir.removeRecursively();
        }
    }
};

QTEST_MAIN(JavaClusterTest)
#include "tst_java_cluster.moc"
