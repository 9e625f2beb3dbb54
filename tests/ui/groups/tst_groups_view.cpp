// The Consumer groups view in the real main window, offscreen, over a real embedded broker on a
// temporary store, driven as a person does (F5, Ctrl+F and typing, clicks on rows, headers,
// buttons, the dialogs' fields and the confirmation bar; Ctrl+C): a group that consumed part of a
// topic is listed with its total lag, its detail shows the lag per queue and its online client;
// Skip accumulated clears the lag; Reset offsets… goes through an online push group's client; a
// group config is created in its dialog and deleted; 2,500 groups are listed; the 5.x SDKs'
// clients (gRPC) are listed among a group's connections with their language and version; a
// client's running info (as a Java 5.3.3 client answered it, from tests/fixtures) is read in the
// Clients' running info tab, its stacks asked for, and a message consumed directly by it; a lite
// group's lag and each client's lite topics (RocketMQ 5.5). Screenshots go to screenshots/.

// grpc++ first: Qt's keyword macros must not reach its headers.
#include "apache/rocketmq/v2/service.grpc.pb.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include "ui_test_util.h"
#include "broker/client/admin_client.h"
#include "broker/client/producer.h"
#include "broker/client/pull_consumer.h"
#include "ui/groups/client_info_pane.h"
#include "ui/groups/group_dialogs.h"
#include "ui/groups/group_table_model.h"
#include "ui/groups/groups_view.h"
#include "ui/main_window.h"
#include "ui/widgets/traffic_chart.h"
#include "broker/remoting/net/processor_executor.h"
#include "broker/remoting/net/remoting_client.h"
#include "broker/remoting/remoting_codes.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QDateTime>
#include <QLabel>
#include <QDateTimeEdit>
#include <QDir>
#include <QHeaderView>
#include <QScrollBar>
#include <QRadioButton>
#include <QSpinBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QTest>
#include <QTreeWidget>
#include <QTabWidget>
#include <QTabBar>
#include <QPlainTextEdit>
#include <QFile>
#include <QLocale>
#include <QTableWidget>

#include <atomic>
#include <memory>

using namespace mqdesk;
using mqdesk::ui::BrokerHost;
using mqdesk::ui::GroupQueueModel;
using mqdesk::ui::GroupsView;
using mqdesk::ui::GroupTableModel;
using mqdesk::ui::MainWindow;

using mqdesk::test::optionsFor;
using mqdesk::test::saveScreenshot;

namespace {

constexpr int kTimeout = 30000;
constexpr int kMessages = 64;
const std::string kTopic = "GroupsViewTopic";
const std::string kLaggyGroup = "GID_LAGGY";

} // namespace

class GroupsViewTest : public QObject
{
    Q_OBJECT

private:
    client::ClientConfig clientConfig(const char *instance) const
    {
        client::ClientConfig config;
        config.namesrvAddr = window_->brokerHost().namesrvAddress().toStdString();
        config.instanceName = instance;
        return config;
    }

    // The window has the keyboard again, as the window manager gives it back when a dialog
    // closes (the offscreen platform leaves no window active then): the page's shortcuts need it.
    void activateWindow()
    {
        window_->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(window_.get()));
    }

    // Presses F5, as a person wanting the list now, and waits for it.
    bool refreshAndWait()
    {
        activateWindow();
        QSignalSpy loaded(view_, &GroupsView::groupsLoaded);
        QTest::keyClick(view_->groupTable(), Qt::Key_F5);
        return loaded.wait(kTimeout);
    }

    // Clicks `group`'s row (scrolled into view first, as a person would).
    bool clickGroup(const std::string &group)
    {
        QTableView *table = view_->groupTable();
        const QModelIndex row = view_->groupProxy()->mapFromSource(
            view_->groupModel()->index(view_->groupModel()->rowOf(group), GroupTableModel::NameColumn));
        if (!row.isValid())
            return false;
        table->scrollTo(row);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(row).center());
        return view_->selectedGroup() == QString::fromStdString(group);
    }

    bool clickGroupAndWaitForDetail(const std::string &group)
    {
        QSignalSpy detail(view_, &GroupsView::detailLoaded);
        return clickGroup(group) && (detail.count() > 0 || detail.wait(kTimeout));
    }

    QPushButton *button(const char *objectName) const
    {
        return view_->findChild<QPushButton *>(QString::fromLatin1(objectName));
    }

    // Types into the filter as a person does: Ctrl+F, then the keys.
    void typeFilter(const QString &text)
    {
        activateWindow();
        QTest::keyClick(view_->groupTable(), Qt::Key_F, Qt::ControlModifier);
        QTRY_VERIFY(view_->filterEdit()->hasFocus());
        QTest::keyClick(view_->filterEdit(), Qt::Key_A, Qt::ControlModifier);
        if (text.isEmpty())
            QTest::keyClick(view_->filterEdit(), Qt::Key_Delete);
        else
            QTest::keyClicks(view_->filterEdit(), text);
        QCOMPARE(view_->filterEdit()->text(), text);
    }

    template <typename Dialog, typename Act>
    void whenDialogOpens(Act act)
    {
        test::whenDialogOpens<Dialog>(this, kTimeout, act);
    }
    static void clickDialogButton(QDialog *dialog, QDialogButtonBox::StandardButton which)
    {
        test::clickDialogButton(dialog, which);
    }

    int64_t listedLag(const std::string &group) const
    {
        const int row = view_->groupModel()->rowOf(group);
        return row < 0 ? -1 : view_->groupModel()->group(row).totalLag;
    }

    bool confirmAndWait()
    {
        QSignalSpy finished(view_, &GroupsView::actionFinished);
        QSignalSpy loaded(view_, &GroupsView::groupsLoaded);
        QPushButton *confirm = nullptr;
        for (auto *button : view_->findChildren<QPushButton *>()) {
            if (button->text() == QStringLiteral("Confirm") && button->isVisible())
                confirm = button;
        }
        if (!confirm)
            return false;
        QTest::mouseClick(confirm, Qt::LeftButton);
        if (!finished.wait(kTimeout) || !finished.first().first().toBool())
            return false;
        return loaded.count() > 0 || loaded.wait(kTimeout);
    }

    QTemporaryDir dir_;
    std::unique_ptr<MainWindow> window_;
    GroupsView *view_ = nullptr;
    std::unique_ptr<client::PullConsumer> consumer_;
    int64_t expectedLag_ = 0;
    std::map<int32_t, int64_t> expectedLagByQueue_;

private slots:
    void initTestCase()
    {
        server::EmbeddedBrokerOptions options = optionsFor(dir_.filePath(QStringLiteral("store")));
        options.grpcPort = 0; // the 5.x SDKs' endpoint, on a free port
        window_ = std::make_unique<MainWindow>(options);
        window_->show();
        QTRY_COMPARE_WITH_TIMEOUT(window_->brokerHost().state(), BrokerHost::State::Running, kTimeout);
        view_ = window_->pages()->findChild<GroupsView *>();
        QVERIFY(view_);
        window_->showView(window_->pages()->indexOf(view_));
        QCOMPARE(window_->pages()->currentWidget(), view_);
    }

    void emptyStateSaysWhereToConnect()
    {
        QVERIFY(refreshAndWait());
        QCOMPARE(view_->groupModel()->rowCount(), 0);
        const QString empty = view_->emptyStateText();
        QVERIFY2(empty.contains(window_->brokerHost().namesrvAddress()), qPrintable(empty));
        QVERIFY(empty.contains(QStringLiteral("No consumer groups yet")));
    }

    void groupWithLagIsListed()
    {
        client::ProducerOptions producerOptions;
        producerOptions.group = "PG_GROUPS_VIEW";
        client::Producer producer(clientConfig("groups-producer"), producerOptions);
        QVERIFY(producer.start().ok);
        for (int i = 0; i < kMessages; ++i) {
            client::Message message;
            message.topic = kTopic;
            message.setBody("message " + std::to_string(i));
            const auto sent = producer.send(message);
            QVERIFY2(sent.ok, sent.error.c_str());
        }
        producer.shutdown();

        client::PullConsumerOptions consumerOptions;
        consumerOptions.group = kLaggyGroup;
        consumer_ = std::make_unique<client::PullConsumer>(clientConfig("groups-consumer"), consumerOptions);
        QVERIFY(consumer_->subscribe(kTopic).ok);
        QVERIFY(consumer_->start().ok);
        const auto queues = consumer_->fetchSubscribeMessageQueues(kTopic);
        QVERIFY2(queues.ok, queues.error.c_str());
        // Wait until every message is in its consume queue, then consume about half of each queue.
        auto storedMessages = [&] {
            int64_t total = 0;
            for (const auto &queue : queues.value)
                total += consumer_->maxOffset(queue).value;
            return total;
        };
        QTRY_COMPARE_WITH_TIMEOUT(storedMessages(), int64_t(kMessages), kTimeout);
        for (const auto &queue : queues.value) {
            const int64_t max = consumer_->maxOffset(queue).value;
            const auto pulled = consumer_->pull(queue, "*", 0, static_cast<int32_t>(std::max<int64_t>(1, max / 2)));
            QVERIFY2(pulled.ok, pulled.error.c_str());
            const int64_t next = pulled.value.status == client::PullStatus::Found ? pulled.value.nextBeginOffset : 0;
            QVERIFY(consumer_->updateConsumeOffset(queue, next).ok);
            expectedLagByQueue_[queue.queueId] = max - next;
            expectedLag_ += max - next;
        }
        QVERIFY(expectedLag_ > 0 && expectedLag_ < kMessages);

        QVERIFY(refreshAndWait());
        QCOMPARE(listedLag(kLaggyGroup), expectedLag_);
        const int row = view_->groupModel()->rowOf(kLaggyGroup);
        QCOMPARE(view_->groupModel()->group(row).topics, std::vector<std::string>{kTopic});
        QTRY_COMPARE_WITH_TIMEOUT(view_->groupModel()->clients(row), 1, kTimeout); // the pull consumer
        QVERIFY(view_->emptyStateText().isEmpty());

        // Filter as you type; a filter nothing matches says so; click a row and copy it with Ctrl+C.
        typeFilter(QStringLiteral("laggy"));
        QCOMPARE(view_->groupProxy()->rowCount(), 1);
        QVERIFY(clickGroup(kLaggyGroup));
        QApplication::clipboard()->clear();
        QTest::keyClick(view_->groupTable(), Qt::Key_C, Qt::ControlModifier);
        const QStringList copied = QApplication::clipboard()->text().split(QLatin1Char('\n'));
        QVERIFY2(copied.size() >= 2 && copied[0].startsWith(QStringLiteral("Group\tOnline clients\t"))
                     && copied[1].startsWith(QStringLiteral("GID_LAGGY\t1\t")),
                 qPrintable(QApplication::clipboard()->text()));
        typeFilter(QStringLiteral("no-such-group"));
        QVERIFY2(view_->emptyStateText().contains(QStringLiteral("matches the filter")), qPrintable(view_->emptyStateText()));
        typeFilter(QString());
        QVERIFY(view_->emptyStateText().isEmpty());
        saveScreenshot(*window_, QStringLiteral("groups-list"));
    }

    void detailShowsLagPerQueue()
    {
        QVERIFY(clickGroupAndWaitForDetail(kLaggyGroup));
        GroupQueueModel *queues = view_->queueModel();
        QCOMPARE(queues->rowCount(), static_cast<int>(expectedLagByQueue_.size()));
        for (int row = 0; row < queues->rowCount(); ++row) {
            const auto &queue = queues->queue(row);
            QCOMPARE(queue.queue.topic, kTopic);
            QCOMPARE(queue.lag(), expectedLagByQueue_[queue.queue.queueId]);
        }
        QVERIFY2(view_->clientsText().contains(QString::fromStdString(clientConfig("groups-consumer").clientId())),
                 qPrintable(view_->clientsText()));
        saveScreenshot(*window_, QStringLiteral("groups-detail"));

        // The Traffic tab: what the broker's statistics counted of the pulls above, per topic.
        ui::TrafficChart *traffic = view_->trafficChart();
        QTabBar *tabs = view_->detailTabs()->tabBar();
        QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(view_->detailTabs()->indexOf(traffic)).center());
        QCOMPARE(view_->detailTabs()->currentWidget(), traffic);
        QCOMPARE(traffic->rows().size(), size_t{1});
        const ui::TrafficChart::Row &row = traffic->rows().front();
        QCOMPARE(row.label, QString::fromStdString(kTopic));
        QCOMPARE(row.last24Hours, int64_t(kMessages) - expectedLag_);
        QCOMPARE(row.lastHour, row.last24Hours);
        QVERIFY2(row.bytes24Hours > 0, qPrintable(QString::number(row.bytes24Hours)));
        QVERIFY2(traffic->summaryText().contains(QLocale().toString(static_cast<qlonglong>(row.last24Hours))
                                                 + QStringLiteral(" in the last 24 h")),
                 qPrintable(traffic->summaryText()));
        QCOMPARE(traffic->table()->item(0, 0)->text(), QString::fromStdString(kTopic));
        saveScreenshot(*window_, QStringLiteral("groups-traffic"));
        QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(0).center());
    }

    // A group that committed an offset for one queue of the topic only: the list counts the other
    // queues from 0, as the detail (GET_CONSUME_STATS, Java's rule) does — both say the same lag.
    void aQueueWithoutCommittedOffsetCountsFromZero()
    {
        const std::string group = "GID_PARTIAL";
        client::AdminClient admin(clientConfig("groups-partial"));
        const std::string broker = window_->brokerHost().brokerAddress().toStdString();
        QVERIFY(admin.api().updateConsumerOffset(broker, group, kTopic, 0, 1).ok);
        admin.shutdown();
        QVERIFY(refreshAndWait());
        QCOMPARE(listedLag(group), int64_t(kMessages) - 1);
        QVERIFY(clickGroupAndWaitForDetail(group));
        int64_t detailLag = 0;
        for (int row = 0; row < view_->queueModel()->rowCount(); ++row)
            detailLag += view_->queueModel()->queue(row).lag();
        QCOMPARE(detailLag, int64_t(kMessages) - 1);
    }

    // A person sorts the groups by clicking the Lag header and clicks the laggy group; meanwhile
    // a group is created through the client API: it appears within the refresh period without
    // Refresh, and the clicked group, its detail and the sort stay.
    void followsGroupsCreatedElsewhere()
    {
        typeFilter(QString());
        QTableView *table = view_->groupTable();
        QHeaderView *header = table->horizontalHeader();
        const int lagX = header->sectionViewportPosition(GroupTableModel::LagColumn)
                         + header->sectionSize(GroupTableModel::LagColumn) / 2;
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(lagX, header->height() / 2));
        QCOMPARE(header->sortIndicatorSection(), int(GroupTableModel::LagColumn));
        const Qt::SortOrder order = header->sortIndicatorOrder();

        const QModelIndex row = view_->groupProxy()->mapFromSource(
            view_->groupModel()->index(view_->groupModel()->rowOf(kLaggyGroup), GroupTableModel::NameColumn));
        QVERIFY(row.isValid());
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(row).center());
        QCOMPARE(view_->selectedGroup(), QString::fromStdString(kLaggyGroup));
        QTRY_COMPARE_WITH_TIMEOUT(view_->queueModel()->rowCount(), static_cast<int>(expectedLagByQueue_.size()), kTimeout);
        const int scroll = table->verticalScrollBar()->value();
        const int rowsBefore = view_->groupModel()->rowCount();

        const std::string created = "GID_LIVE";
        QSignalSpy loaded(view_, &GroupsView::groupsLoaded); // the live refresh is quiet
        client::AdminClient admin(clientConfig("groups-live-admin"));
        client::SubscriptionGroupConfig config;
        config.groupName = created;
        const auto status = admin.createSubscriptionGroup({}, config);
        admin.shutdown();
        QVERIFY2(status.ok, status.error.c_str());

        QVERIFY(mqdesk::test::runEventLoopUntil([&] { return view_->groupModel()->rowOf(created) >= 0; },
                                                GroupsView::kLiveRefreshMillis + 3000));
        QCOMPARE(loaded.count(), 0);
        QCOMPARE(view_->groupModel()->rowCount(), rowsBefore + 1);
        QCOMPARE(view_->selectedGroup(), QString::fromStdString(kLaggyGroup));
        const QModelIndexList selected = table->selectionModel()->selectedRows(GroupTableModel::NameColumn);
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.first().data().toString(), QString::fromStdString(kLaggyGroup));
        QCOMPARE(header->sortIndicatorSection(), int(GroupTableModel::LagColumn));
        QCOMPARE(header->sortIndicatorOrder(), order);
        const auto lagAt = [this](int r) {
            return view_->groupProxy()->index(r, GroupTableModel::LagColumn).data(GroupTableModel::SortRole).toLongLong();
        };
        for (int r = 1; r < view_->groupProxy()->rowCount(); ++r)
            QVERIFY(order == Qt::AscendingOrder ? lagAt(r - 1) <= lagAt(r) : lagAt(r - 1) >= lagAt(r));
        // The detail still shows the clicked group's queues and client.
        QCOMPARE(view_->queueModel()->rowCount(), static_cast<int>(expectedLagByQueue_.size()));
        QCOMPARE(view_->queueModel()->queue(0).queue.topic, kTopic);
        QVERIFY2(view_->clientsText().contains(QString::fromStdString(clientConfig("groups-consumer").clientId())),
                 qPrintable(view_->clientsText()));
        QCOMPARE(table->verticalScrollBar()->value(), scroll);
        QTRY_VERIFY_WITH_TIMEOUT(view_->groupModel()->clients(view_->groupModel()->rowOf(created)) >= 0, kTimeout);
        QCOMPARE(view_->selectedGroup(), QString::fromStdString(kLaggyGroup));
        saveScreenshot(*window_, QStringLiteral("groups-live"));
    }

    // A group switched to POP (as mqadmin setConsumeMode does) that popped messages without
    // acking them: a person clicks it and sees its POP figures under its clients.
    void showsAPoppingGroupsFigures()
    {
        const std::string group = "GID_POPPER";
        remoting::RemotingClient raw;
        const std::string broker = window_->brokerHost().brokerAddress().toStdString();
        remoting::RemotingCommand mode = remoting::RemotingCommand::createRequest(remoting::RequestCode::kSetMessageRequestMode);
        const std::string body =
            "{\"consumerGroup\":\"GID_POPPER\",\"mode\":\"POP\",\"popShareQueueNum\":8,\"topic\":\"" + kTopic + "\"}";
        mode.body.assign(body.begin(), body.end());
        QCOMPARE(raw.invokeSync(broker, std::move(mode), std::chrono::seconds(5)).response.code, 0);
        remoting::RemotingCommand pop = remoting::RemotingCommand::createRequest(
            remoting::RequestCode::kPopMessage,
            {{"consumerGroup", group}, {"topic", kTopic}, {"queueId", "0"}, {"maxMsgNums", "5"},
             {"invisibleTime", "600000"}, {"pollTime", "0"},
             {"bornTime", std::to_string(QDateTime::currentMSecsSinceEpoch())}, {"initMode", "0"}});
        const remoting::InvokeResult popped = raw.invokeSync(broker, std::move(pop), std::chrono::seconds(5));
        QCOMPARE(popped.response.code, 0);
        // Its checkpoint reaches the timer wheel a moment after the pop is answered.
        const auto inFlight = [&] {
            remoting::RemotingCommand stats = remoting::RemotingCommand::createRequest(
                remoting::RequestCode::kGetPopStats, {{"consumerGroup", group}});
            const remoting::InvokeResult answer = raw.invokeSync(broker, std::move(stats), std::chrono::seconds(5));
            return std::string(answer.response.body.begin(), answer.response.body.end());
        };
        QTRY_VERIFY2_WITH_TIMEOUT(inFlight().find("\"inFlight\":5") != std::string::npos, inFlight().c_str(), 10000);
        raw.shutdown();

        QVERIFY(refreshAndWait());
        typeFilter(QString());
        QTableView *table = view_->groupTable();
        const QModelIndex row = view_->groupProxy()->mapFromSource(
            view_->groupModel()->index(view_->groupModel()->rowOf(group), GroupTableModel::NameColumn));
        QVERIFY(row.isValid());
        table->scrollTo(row);
        QSignalSpy detail(view_, &GroupsView::detailLoaded);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(row).center());
        QVERIFY(detail.wait(kTimeout));
        auto *figures = view_->findChild<QLabel *>(QStringLiteral("popFigures"));
        QVERIFY(figures);
        QVERIFY(figures->isVisible());
        QVERIFY2(figures->text().startsWith(QStringLiteral("POP: 5 in flight")), qPrintable(figures->text()));
        QVERIFY2(figures->text().contains(QString::fromStdString("Pops (setConsumeMode POP): " + kTopic)),
                 qPrintable(figures->text()));
        saveScreenshot(*window_, QStringLiteral("groups-pop"));
    }

    void resetToLatestClearsTheLag()
    {
        QVERIFY(clickGroupAndWaitForDetail(kLaggyGroup));
        QVERIFY(button("skipAccumulatedButton")->isEnabled());
        QTest::mouseClick(button("skipAccumulatedButton"), Qt::LeftButton);
        QTRY_VERIFY(view_->findChild<QWidget *>(QStringLiteral("groupsConfirmBar"))->isVisible());
        const QString confirmation = view_->confirmationText();
        QVERIFY2(confirmation.contains(QString::fromStdString(kTopic)), qPrintable(confirmation));
        QVERIFY(confirmation.contains(QString::number(expectedLag_)));
        saveScreenshot(*window_, QStringLiteral("groups-reset"));
        QVERIFY(confirmAndWait());
        QCOMPARE(listedLag(kLaggyGroup), int64_t(0));
        QVERIFY2(view_->bannerText().contains(QStringLiteral("Reset")), qPrintable(view_->bannerText()));
        QTRY_COMPARE_WITH_TIMEOUT(view_->selectedGroup(), QString::fromStdString(kLaggyGroup), kTimeout);
    }

    void resetOfOnlinePushGroupGoesThroughTheBroker()
    {
        // A push consumer as the broker sees it: committed offsets and a CONSUME_PASSIVELY
        // heartbeat on a connection that stays open.
        const std::string group = "GID_PUSHY";
        client::AdminClient pushy(clientConfig("groups-pushy"));
        const std::string broker = window_->brokerHost().brokerAddress().toStdString();
        for (int32_t queueId = 0; queueId < 4; ++queueId)
            QVERIFY(pushy.api().updateConsumerOffset(broker, group, kTopic, queueId, 1).ok);
        remoting::ConsumerData consumer;
        consumer.groupName = group;
        consumer.consumeType = "CONSUME_PASSIVELY";
        consumer.subscriptionDataSet.push_back(remoting::SubscriptionData::build(kTopic, "*"));
        remoting::HeartbeatData heartbeat;
        heartbeat.clientId = clientConfig("groups-pushy").clientId();
        heartbeat.consumerDataSet.push_back(consumer);
        QVERIFY(pushy.api().sendHeartbeat(broker, heartbeat).ok);

        QVERIFY(refreshAndWait());
        const int row = view_->groupModel()->rowOf(group);
        QVERIFY(row >= 0);
        QTRY_COMPARE_WITH_TIMEOUT(view_->groupModel()->clients(row), 1, kTimeout);
        QCOMPARE(view_->groupModel()->index(row, GroupTableModel::ModeColumn).data().toString(),
                 QStringLiteral("push, clustering"));
        QVERIFY(clickGroupAndWaitForDetail(group));
        // Reset offsets…: the dialog, "Latest" clicked, Continue…; then the inline confirmation.
        whenDialogOpens<ui::ResetOffsetDialog>([](ui::ResetOffsetDialog *dialog) {
            for (auto *radio : dialog->findChildren<QRadioButton *>())
                if (radio->text().startsWith(QStringLiteral("&Latest")))
                    QTest::mouseClick(radio, Qt::LeftButton);
            QCOMPARE(dialog->target(), ui::ResetTarget::Latest);
            clickDialogButton(dialog, QDialogButtonBox::Ok);
        });
        QTest::mouseClick(button("resetOffsetsButton"), Qt::LeftButton);
        QVERIFY2(view_->confirmationText().contains(QStringLiteral("tells the 1 online client")),
                 qPrintable(view_->confirmationText()));
        QVERIFY(confirmAndWait());
        QVERIFY2(view_->bannerText().contains(QStringLiteral("Sent the reset of 4 queue(s)")),
                 qPrintable(view_->bannerText()));
    }

    // A consumer answers the broker's forwarded GET_CONSUMER_RUNNING_INFO with what a Java 5.3.3
    // client answered (captured from one), and CONSUME_MESSAGE_DIRECTLY with CR_SUCCESS; a person
    // opens the group's "Clients' running info" tab, reads the client's settings, subscriptions
    // and queues, asks for its stacks, and has it consume one message.
    void clientsRunningInfoAsTheClientReportsIt()
    {
        QFile sample(QStringLiteral(MQDESK_PROJECT_FIXTURES_DIR "/consumer-running-info-java-5.3.3.json"));
        QVERIFY(sample.open(QIODevice::ReadOnly));
        const QByteArray runningInfo = sample.readAll();
        std::atomic<int> stacksAsked{0};
        std::atomic<int> consumed{0};
        remoting::ProcessorExecutor executor("java-like-consumer");
        remoting::RemotingClient consumer;
        consumer.registerProcessor(
            remoting::RequestCode::kGetConsumerRunningInfo,
            [&](const remoting::RequestContext &, remoting::RemotingCommand request, remoting::Responder respond) {
                if (request.extFields.value("jstackEnable") == "true")
                    ++stacksAsked;
                auto response = remoting::RemotingCommand::createResponse(request, remoting::ResponseCode::kSuccess, {});
                response.body.assign(runningInfo.begin(), runningInfo.end());
                respond(std::move(response));
            },
            executor);
        consumer.registerProcessor(
            remoting::RequestCode::kConsumeMessageDirectly,
            [&](const remoting::RequestContext &, remoting::RemotingCommand request, remoting::Responder respond) {
                ++consumed;
                auto response = remoting::RemotingCommand::createResponse(request, remoting::ResponseCode::kSuccess, {});
                const std::string body = "{\"autoCommit\":true,\"consumeResult\":\"CR_SUCCESS\",\"order\":false,"
                                         "\"spentTimeMills\":3}";
                response.body.assign(body.begin(), body.end());
                respond(std::move(response));
            },
            executor);
        const std::string group = "GID_RUNNING_INFO";
        const std::string broker = window_->brokerHost().brokerAddress().toStdString();
        remoting::ConsumerData data;
        data.groupName = group;
        data.subscriptionDataSet.push_back(remoting::SubscriptionData::build(kTopic, "*"));
        remoting::HeartbeatData heartbeat;
        heartbeat.clientId = "192.0.2.2@3016#41429231609676";
        heartbeat.consumerDataSet.push_back(data);
        auto command = remoting::RemotingCommand::createRequest(remoting::RequestCode::kHeartBeat);
        const std::string json = heartbeat.toJson();
        command.body.assign(json.begin(), json.end());
        QVERIFY(consumer.invokeSync(broker, std::move(command), std::chrono::milliseconds(5000)).ok());
        client::AdminClient admin(clientConfig("groups-running-info"));
        QVERIFY(admin.api().updateConsumerOffset(broker, group, kTopic, 0, 1).ok);

        QVERIFY(refreshAndWait());
        QVERIFY(clickGroupAndWaitForDetail(group));
        ui::ClientInfoPane *pane = view_->clientPane();
        QSignalSpy loaded(pane, &ui::ClientInfoPane::runningInfoLoaded);
        QTabBar *tabs = view_->detailTabs()->tabBar();
        const int tab = view_->detailTabs()->indexOf(pane);
        QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(tab).center());
        QCOMPARE(view_->detailTabs()->currentWidget(), pane);
        QVERIFY(loaded.count() > 0 || loaded.wait(kTimeout));
        QCOMPARE(pane->clientTable()->model()->rowCount(), 1);
        QVERIFY2(pane->statusText().contains(QStringLiteral("as the client reports it")), qPrintable(pane->statusText()));
        QStringList shown;
        for (QTreeWidgetItemIterator it(pane->detailTree()); *it; ++it)
            shown << (*it)->text(0) + QStringLiteral(" = ") + (*it)->text(1);
        const QString text = shown.join(QLatin1Char('\n'));
        QVERIFY2(text.contains(QStringLiteral("Consume type = CONSUME_PASSIVELY")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Consume threads = 20 – 20")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("RiTopic = TAG: TagA || TagB")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Queues being processed (2)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("RiTopic · broker-a · 0 = committed 2")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Client version = V5_3_3")), qPrintable(text));

        // Thread stacks: the box ticked, asked again with jstackEnable.
        loaded.clear();
        QTest::mouseClick(pane->stacksCheck(), Qt::LeftButton, {}, QPoint(5, pane->stacksCheck()->height() / 2));
        QVERIFY(loaded.count() > 0 || loaded.wait(kTimeout));
        QVERIFY(stacksAsked.load() > 0);
        QVERIFY(pane->stacksText()->toPlainText().contains(QStringLiteral("PullMessageService")));
        saveScreenshot(*window_, QStringLiteral("groups-client-running-info"));

        // Consume directly: a real message (of a topic of its own: the lag of kTopic is others'), by its offset ID.
        client::ProducerOptions producerOptions;
        producerOptions.group = "PID_DIRECT";
        client::Producer producer(clientConfig("groups-direct"), producerOptions);
        QVERIFY(producer.start().ok);
        client::Message message;
        message.topic = "RunningInfoDirectTopic";
        message.setBody("consume me directly");
        const auto sent = producer.send(message);
        producer.shutdown();
        QVERIFY2(sent.ok, sent.error.c_str());
        QSignalSpy directly(pane, &ui::ClientInfoPane::consumedDirectly);
        QTest::mouseClick(pane->directMessageEdit(), Qt::LeftButton);
        QTest::keyClicks(pane->directMessageEdit(), QString::fromStdString(sent.value.msgId));
        QTest::mouseClick(pane->directTopicEdit(), Qt::LeftButton);
        QTest::keyClicks(pane->directTopicEdit(), QStringLiteral("RunningInfoDirectTopic"));
        QTest::mouseClick(pane->consumeDirectlyButton(), Qt::LeftButton);
        QVERIFY(directly.count() > 0 || directly.wait(kTimeout));
        QVERIFY2(pane->directResultText().contains(QStringLiteral("CR_SUCCESS")), qPrintable(pane->directResultText()));
        QCOMPARE(consumed.load(), 1);
    }

    // Two RocketMQ 5 clients (what the Python and Go SDKs send: telemetry Settings naming their
    // language and version, then a heartbeat) join a group through the gRPC endpoint; a person
    // clicks the group and reads each client with its address, language and version.
    void listsGrpcClientsWithLanguageAndVersion()
    {
        namespace v2 = apache::rocketmq::v2;
        const QString endpoint = window_->brokerHost().grpcAddress();
        QVERIFY(!endpoint.isEmpty());
        auto stub = v2::MessagingService::NewStub(
            ::grpc::CreateChannel(endpoint.toStdString(), ::grpc::InsecureChannelCredentials()));
        const std::string group = "GID_GRPC_SDKS";
        struct Sdk
        {
            std::string clientId;
            v2::Language language;
            std::string version;
            QString shownLanguage;
            QString shownVersion;
        };
        const std::vector<Sdk> sdks{{"python-host@4242@1@x1", v2::Language::PYTHON, "5.0.6", QStringLiteral("PYTHON"),
                                     QStringLiteral("V5_0_6")},
                                    {"go-host@4343@1@x2", v2::Language::GOLANG, "5.1.2", QStringLiteral("GO"),
                                     QStringLiteral("V5_1_2")}};
        std::vector<std::unique_ptr<::grpc::ClientContext>> contexts;
        std::vector<std::unique_ptr<::grpc::ClientReaderWriter<v2::TelemetryCommand, v2::TelemetryCommand>>> streams;
        for (const Sdk &sdk : sdks) {
            contexts.push_back(std::make_unique<::grpc::ClientContext>());
            contexts.back()->set_deadline(std::chrono::system_clock::now() + std::chrono::minutes(2));
            contexts.back()->AddMetadata("x-mq-client-id", sdk.clientId);
            contexts.back()->AddMetadata("x-mq-language", v2::Language_Name(sdk.language));
            contexts.back()->AddMetadata("x-mq-protocol", "v2");
            contexts.back()->AddMetadata("x-mq-client-version", sdk.version);
            streams.push_back(stub->Telemetry(contexts.back().get()));
            v2::TelemetryCommand command;
            v2::Settings &settings = *command.mutable_settings();
            settings.set_client_type(v2::ClientType::SIMPLE_CONSUMER);
            settings.mutable_user_agent()->set_language(sdk.language);
            settings.mutable_user_agent()->set_version(sdk.version);
            settings.mutable_user_agent()->set_hostname(sdk.clientId.substr(0, sdk.clientId.find('@')));
            v2::Subscription &subscription = *settings.mutable_subscription();
            subscription.mutable_group()->set_name(group);
            v2::SubscriptionEntry &entry = *subscription.add_subscriptions();
            entry.mutable_topic()->set_name(kTopic);
            entry.mutable_expression()->set_type(v2::FilterType::TAG);
            entry.mutable_expression()->set_expression("*");
            QVERIFY(streams.back()->Write(command));
            v2::TelemetryCommand answer;
            QVERIFY(streams.back()->Read(&answer));
            QCOMPARE(answer.status().code(), v2::Code::OK);

            ::grpc::ClientContext heartbeatContext;
            heartbeatContext.AddMetadata("x-mq-client-id", sdk.clientId);
            heartbeatContext.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
            v2::HeartbeatRequest heartbeat;
            heartbeat.mutable_group()->set_name(group);
            heartbeat.set_client_type(v2::ClientType::SIMPLE_CONSUMER);
            v2::HeartbeatResponse beat;
            const ::grpc::Status status = stub->Heartbeat(&heartbeatContext, heartbeat, &beat);
            QVERIFY2(status.ok(), status.error_message().c_str());
            QCOMPARE(beat.status().code(), v2::Code::OK);
        }

        typeFilter(QString());
        QVERIFY(refreshAndWait());
        QTRY_COMPARE_WITH_TIMEOUT(view_->groupModel()->clients(view_->groupModel()->rowOf(group)), 2, kTimeout);
        QTableView *table = view_->groupTable();
        const QModelIndex row = view_->groupProxy()->mapFromSource(
            view_->groupModel()->index(view_->groupModel()->rowOf(group), GroupTableModel::NameColumn));
        QVERIFY(row.isValid());
        table->scrollTo(row);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(row).center());
        QCOMPARE(view_->selectedGroup(), QString::fromStdString(group));
        QTRY_VERIFY_WITH_TIMEOUT(view_->clientsText().contains(QStringLiteral("(2 online)")), kTimeout);
        const QStringList lines = view_->clientsText().split(QLatin1Char('\n'));
        for (const Sdk &sdk : sdks) {
            const auto line = std::find_if(lines.begin(), lines.end(), [&](const QString &text) {
                return text.startsWith(QString::fromStdString(sdk.clientId) + QStringLiteral(" · "));
            });
            QVERIFY2(line != lines.end(), qPrintable(view_->clientsText()));
            QVERIFY2(line->contains(QStringLiteral(" · 127.0.0.1:")), qPrintable(*line));
            QVERIFY2(line->endsWith(QStringLiteral(" · %1 · version %2").arg(sdk.shownLanguage, sdk.shownVersion)),
                     qPrintable(*line));
        }
        saveScreenshot(*window_, QStringLiteral("groups-grpc-clients"));

        for (size_t i = 0; i < streams.size(); ++i) {
            streams[i]->WritesDone();
            contexts[i]->TryCancel();
            streams[i]->Finish();
        }
    }

    // A lite group (RocketMQ 5.5): a LiteSimpleConsumer over gRPC holding two lite topics of a
    // LITE parent, three messages behind on one of them. Clicking the group shows its lite lag and
    // lite topics under the queues; the Clients' running info tab lists the client's lite topics.
    void showsALiteGroupsClientsAndTheirLiteTopics()
    {
        namespace v2 = apache::rocketmq::v2;
        const std::string parent = "GroupsLiteParent";
        const std::string group = "GID_LITE";
        const std::string clientId = "lite-host@4444@1@x3";
        client::AdminClient admin(clientConfig("lite-setup"));
        remoting::TopicConfigData topic;
        topic.topicName = parent;
        topic.readQueueNums = topic.writeQueueNums = 2;
        topic.perm = 6;
        const client::Status created = admin.createTopic({}, topic, "+message.type=LITE");
        QVERIFY2(created.ok, created.error.c_str());
        client::SubscriptionGroupConfig liteGroup;
        liteGroup.groupName = group;
        liteGroup.attributeModifications = "+lite.bind.topic=" + parent;
        const client::Status grouped = admin.createSubscriptionGroup({}, liteGroup);
        QVERIFY2(grouped.ok, grouped.error.c_str());
        admin.shutdown();

        auto stub = v2::MessagingService::NewStub(::grpc::CreateChannel(
            window_->brokerHost().grpcAddress().toStdString(), ::grpc::InsecureChannelCredentials()));
        const auto contextFor = [&](std::chrono::seconds deadline) {
            auto context = std::make_unique<::grpc::ClientContext>();
            context->AddMetadata("x-mq-client-id", clientId);
            context->AddMetadata("x-mq-language", "JAVA");
            context->AddMetadata("x-mq-protocol", "v2");
            context->AddMetadata("x-mq-client-version", "5.2.1");
            context->set_deadline(std::chrono::system_clock::now() + deadline);
            return context;
        };
        auto telemetryContext = contextFor(std::chrono::seconds(120));
        auto telemetry = stub->Telemetry(telemetryContext.get());
        v2::TelemetryCommand command;
        v2::Settings &settings = *command.mutable_settings();
        settings.set_client_type(v2::ClientType::LITE_SIMPLE_CONSUMER);
        settings.mutable_user_agent()->set_language(v2::Language::JAVA);
        settings.mutable_user_agent()->set_version("5.2.1");
        settings.mutable_subscription()->mutable_group()->set_name(group);
        v2::SubscriptionEntry &entry = *settings.mutable_subscription()->add_subscriptions();
        entry.mutable_topic()->set_name(parent);
        entry.mutable_expression()->set_type(v2::FilterType::TAG);
        entry.mutable_expression()->set_expression("*");
        QVERIFY(telemetry->Write(command));
        v2::TelemetryCommand answer;
        QVERIFY(telemetry->Read(&answer));
        QCOMPARE(answer.status().code(), v2::Code::OK);
        v2::SyncLiteSubscriptionRequest sync;
        sync.set_action(v2::LiteSubscriptionAction::COMPLETE_ADD);
        sync.mutable_topic()->set_name(parent);
        sync.mutable_group()->set_name(group);
        sync.add_lite_topic_set("order-7");
        sync.add_lite_topic_set("order-9");
        v2::SyncLiteSubscriptionResponse synced;
        QVERIFY(stub->SyncLiteSubscription(contextFor(std::chrono::seconds(10)).get(), sync, &synced).ok());
        QCOMPARE(synced.status().code(), v2::Code::OK);

        auto producer = window_->connection().producer();
        QVERIFY(producer);
        for (int i = 0; i < 3; ++i) {
            client::Message message;
            message.topic = parent;
            message.setBody("lite " + std::to_string(i));
            message.properties["__LITE_TOPIC"] = "order-9";
            const auto sent = producer->send(message);
            QVERIFY2(sent.ok, sent.error.c_str());
        }
        // The group starts order-9 at its beginning (a lite topic's lag counts from a commit).
        client::AdminClient committer(clientConfig("lite-commit"));
        const auto committed = committer.api().updateConsumerOffset(
            window_->brokerHost().brokerAddress().toStdString(), group, "%LMQ%$" + parent + "$order-9", 0, 0);
        QVERIFY2(committed.ok, committed.error.c_str());
        committer.shutdown();

        typeFilter(QStringLiteral("GID_LITE"));
        QVERIFY(refreshAndWait());
        QTRY_VERIFY_WITH_TIMEOUT(view_->groupModel()->rowOf(group) >= 0, kTimeout);
        QVERIFY(clickGroupAndWaitForDetail(group));
        QTabBar *tabs = view_->detailTabs()->tabBar();
        QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(0).center()); // Queues and clients
        auto *lite = view_->findChild<QLabel *>(QStringLiteral("liteFigures"));
        QVERIFY(lite);
        QTRY_VERIFY2_WITH_TIMEOUT(lite->isVisible() && lite->text().contains(QStringLiteral("lag 3")), qPrintable(lite->text()), kTimeout);
        QVERIFY2(lite->text().contains(QStringLiteral("Lite group of GroupsLiteParent: 2 lite topic(s)")), qPrintable(lite->text()));
        QVERIFY2(lite->text().contains(QStringLiteral("order-9 (3)")), qPrintable(lite->text()));
        saveScreenshot(*window_, QStringLiteral("groups-lite-group"));

        const int clientsTab = view_->detailTabs()->indexOf(view_->clientPane());
        QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(clientsTab).center());
        QCOMPARE(view_->detailTabs()->currentIndex(), clientsTab);
        QTreeWidget *tree = view_->clientPane()->detailTree();
        QTRY_VERIFY_WITH_TIMEOUT(tree->topLevelItemCount() > 0
                                     && tree->topLevelItem(0)->text(0).startsWith(QStringLiteral("Lite topics (2")),
                                 kTimeout);
        QStringList names;
        for (int i = 0; i < tree->topLevelItem(0)->childCount(); ++i)
            names << tree->topLevelItem(0)->child(i)->text(0);
        QVERIFY2(names.contains(QStringLiteral("order-7")) && names.contains(QStringLiteral("order-9")),
                 qPrintable(names.join(QLatin1Char(','))));
        saveScreenshot(*window_, QStringLiteral("groups-lite-client"));
        QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(0).center());
        typeFilter(QString());

        telemetry->WritesDone();
        telemetryContext->TryCancel();
        telemetry->Finish();
    }

    // Create group…: the name typed, the spin boxes typed over, "Consumers may consume" clicked
    // off, Create; then Delete group and Confirm.
    void createAndDeleteGroupConfig()
    {
        client::SubscriptionGroupConfig config;
        config.groupName = "GID_CREATED_IN_VIEW";
        QSignalSpy finished(view_, &GroupsView::actionFinished);
        QSignalSpy loaded(view_, &GroupsView::groupsLoaded);
        whenDialogOpens<ui::CreateGroupDialog>([](ui::CreateGroupDialog *dialog) {
            QTest::keyClicks(dialog->findChild<QLineEdit *>(), QStringLiteral("GID_CREATED_IN_VIEW"));
            const auto spins = dialog->findChildren<QSpinBox *>();
            QCOMPARE(spins.size(), 2);
            for (const auto &[spin, typed] : {std::pair{spins[0], "2"}, std::pair{spins[1], "5"}}) {
                spin->setFocus(Qt::TabFocusReason);
                QTest::keyClick(spin, Qt::Key_A, Qt::ControlModifier);
                QTest::keyClicks(spin, QString::fromLatin1(typed));
            }
            auto *consume = dialog->findChild<QCheckBox *>();
            QVERIFY(consume->isChecked());
            QTest::mouseClick(consume, Qt::LeftButton);
            QVERIFY(!consume->isChecked());
            clickDialogButton(dialog, QDialogButtonBox::Ok);
        });
        QPushButton *create = nullptr;
        for (auto *candidate : view_->findChildren<QPushButton *>())
            if (candidate->text() == QStringLiteral("Create group…"))
                create = candidate;
        QVERIFY(create);
        QTest::mouseClick(create, Qt::LeftButton);
        QVERIFY(finished.count() > 0 || finished.wait(kTimeout));
        QVERIFY2(finished.first().first().toBool(), qPrintable(view_->bannerText()));
        QVERIFY(loaded.count() > 0 || loaded.wait(kTimeout));
        const int row = view_->groupModel()->rowOf(config.groupName);
        QVERIFY(row >= 0);
        QVERIFY(view_->groupModel()->group(row).config.has_value());
        QCOMPARE(view_->groupModel()->group(row).config->retryQueueNums, 2);
        QCOMPARE(view_->groupModel()->group(row).config->consumeEnable, false);
        QCOMPARE(view_->groupModel()->group(row).config->retryMaxTimes, 5);
        QCOMPARE(view_->selectedGroup(), QString::fromStdString(config.groupName));

        QTest::mouseClick(button("deleteGroupButton"), Qt::LeftButton);
        QVERIFY(view_->confirmationText().contains(QString::fromStdString(config.groupName)));
        QVERIFY(confirmAndWait());
        QCOMPARE(view_->groupModel()->rowOf(config.groupName), -1);
    }

    void dialogsCollectTheirInput()
    {
        ui::CreateGroupDialog create;
        create.findChild<QLineEdit *>()->setText(QStringLiteral("GID_FROM_DIALOG"));
        const auto spins = create.findChildren<QSpinBox *>();
        QCOMPARE(spins.size(), 2);
        spins[0]->setValue(3);
        spins[1]->setValue(7);
        create.findChild<QCheckBox *>()->setChecked(false);
        const client::SubscriptionGroupConfig config = create.config();
        QCOMPARE(config.groupName, std::string("GID_FROM_DIALOG"));
        QCOMPARE(config.retryQueueNums, 3);
        QCOMPARE(config.retryMaxTimes, 7);
        QCOMPARE(config.consumeEnable, false);

        ui::ResetOffsetDialog reset(QStringLiteral("G"));
        QCOMPARE(reset.target(), ui::ResetTarget::Latest);
        const auto radios = reset.findChildren<QRadioButton *>();
        QCOMPARE(radios.size(), 3);
        radios[2]->click();
        const QDateTime when(QDate(2026, 1, 2), QTime(3, 4, 5), Qt::UTC);
        reset.findChild<QDateTimeEdit *>()->setDateTime(when);
        QCOMPARE(reset.target(), ui::ResetTarget::ByTime);
        QCOMPARE(reset.timestampMillis(), when.toMSecsSinceEpoch());
        radios[0]->click();
        QCOMPARE(reset.target(), ui::ResetTarget::Earliest);
    }

    void listsThousandsOfGroups()
    {
        client::AdminClient admin(clientConfig("groups-admin"));
        for (int i = 0; i < 2500; ++i) {
            client::SubscriptionGroupConfig config;
            config.groupName = "GID_SCALE_" + std::to_string(i);
            const auto status = admin.createSubscriptionGroup({}, config);
            QVERIFY2(status.ok, status.error.c_str());
        }
        mqdesk::test::GuiStallMeter meter;
        QVERIFY(refreshAndWait());
        const qint64 shownMs = meter.elapsedMs();
        QVERIFY(view_->groupModel()->rowCount() >= 2500);
        mqdesk::test::scrollThrough(*view_->groupTable());
        // Reported, not asserted (issue 6's targets: shown within 300 ms, no stall over 50 ms).
        qInfo().noquote() << QStringLiteral("scale: %1 groups shown %2 ms after refresh; longest GUI-thread stall %3 ms "
                                            "(loading and scrolling through all rows)")
                                 .arg(view_->groupModel()->rowCount()).arg(shownMs).arg(meter.longestStallMs());
        typeFilter(QStringLiteral("GID_SCALE_24"));
        QCOMPARE(view_->groupProxy()->rowCount(), 111); // 24, 240..249, 2400..2499
        typeFilter(QString());
        QCOMPARE(listedLag(kLaggyGroup), int64_t(0));
    }

    void cleanupTestCase()
    {
        consumer_.reset();
        if (window_)
            window_->close();
        window_.reset();
    }
};

QTEST_MAIN(GroupsViewTest)
#include "tst_groups_view.moc"
