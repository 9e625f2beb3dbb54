// The Messages view in the real main window, offscreen, with a real embedded broker on a
// temporary store: a message sent through the dialog (key, tags, JSON body, user properties)
// found by key, its fields, properties and body as pretty JSON, text and hex in the detail
// pane; 100 messages sent through a client::Producer browsed from offset 0 page by page (all
// queues, one queue, from a store time); lookups by offset msgId and UNIQ_KEY; lookups that
// find nothing explained; a traced message's trace (send, store, deliveries) in the Trace tab,
// reached with the keyboard and the mouse. Screenshots are saved in the build tree (screenshots/messages-*.png).

#include "ui_test_util.h"
#include "broker/client/admin_client.h"
#include "broker/client/producer.h"
#include "broker/common/message_id.h"
#include "broker/remoting/net/remoting_client.h"
#include "broker/remoting/remoting_codes.h"
#include "ui/main_window.h"
#include "ui/messages/message_detail_pane.h"
#include "ui/messages/message_export.h"
#include "ui/messages/message_table_model.h"
#include "ui/messages/message_trace_view.h"
#include "ui/messages/messages_view.h"
#include "ui/messages/send_message_dialog.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTimer>
#include <QDateTime>
#include <QDir>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <memory>

using namespace mqdesk;
using mqdesk::ui::BrokerHost;
using mqdesk::ui::MainWindow;
using mqdesk::ui::MessageDetailPane;
using mqdesk::ui::MessagesView;
using mqdesk::ui::SendMessageDialog;

using mqdesk::test::optionsFor;
using mqdesk::test::saveScreenshot;

namespace {

const QString kTopic = QStringLiteral("DeskMessages");
const QString kBrowseTopic = QStringLiteral("DeskBrowse");
const QString kKey = QStringLiteral("order-42");
const QString kJson = QStringLiteral("{\"id\":42,\"items\":[\"apple\",\"pear\"],\"paid\":true}");

} // namespace

class MessagesViewTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(storeDir_.isValid());
        window_ = std::make_unique<MainWindow>(optionsFor(storeDir_.filePath(QStringLiteral("store"))));
        window_->resize(1280, 860);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        QTRY_COMPARE_WITH_TIMEOUT(window_->brokerHost().state(), BrokerHost::State::Running, 60000);
        view_ = window_->findChild<MessagesView *>();
        QVERIFY(view_);
        window_->showView(window_->pages()->indexOf(view_));
        QCOMPARE(window_->pages()->currentWidget(), view_);
        // Before any query the empty state says what to do and where clients connect.
        QTRY_VERIFY(view_->emptyStateText().contains(window_->brokerHost().namesrvAddress()));
    }

    void cleanupTestCase()
    {
        window_->close();
        window_.reset();
    }

    void sendsThroughTheDialog()
    {
        SendMessageDialog *dialog = view_->openSendDialog();
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        auto *topic = dialog->findChild<QLineEdit *>(QStringLiteral("sendTopic"));
        auto *tags = dialog->findChild<QLineEdit *>(QStringLiteral("sendTags"));
        auto *keys = dialog->findChild<QLineEdit *>(QStringLiteral("sendKeys"));
        auto *body = dialog->findChild<QPlainTextEdit *>(QStringLiteral("sendBody"));
        auto *properties = dialog->findChild<QPlainTextEdit *>(QStringLiteral("sendProperties"));
        QVERIFY(topic && tags && keys && body && properties);
        topic->clear();
        QVERIFY(!dialog->sendButton()->isEnabled()); // no topic
        QTest::keyClicks(topic, kTopic);
        QTest::keyClicks(tags, QStringLiteral("TagJ"));
        QTest::keyClicks(keys, kKey);
        QTest::keyClicks(body, kJson);
        QTest::keyClicks(properties, QStringLiteral("region"));
        QVERIFY(!dialog->sendButton()->isEnabled()); // not key=value
        QVERIFY(dialog->validationError().contains(QStringLiteral("line 1")));
        QTest::keyClicks(properties, QStringLiteral("=eu"));
        QTest::keyClick(properties, Qt::Key_Return);
        QTest::keyClicks(properties, QStringLiteral("channel=web"));
        QVERIFY2(dialog->validationError().isEmpty(), qPrintable(dialog->validationError()));
        QVERIFY(dialog->sendButton()->isEnabled());
        const client::Message message = dialog->message();
        QCOMPARE(message.keys, std::vector<std::string>{"order-42"});
        QCOMPARE(message.properties.at("region"), std::string("eu"));
        QCOMPARE(message.properties.at("channel"), std::string("web"));
        saveScreenshot(*dialog, QStringLiteral("messages-send-dialog"));

        QSignalSpy sent(view_, &MessagesView::messageSent);
        QTest::mouseClick(dialog->sendButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(sent.count(), 1, 60000);
        QCOMPARE(sent.at(0).at(0).toBool(), true);
        QVERIFY2(dialog->resultText().contains(QStringLiteral("message ID")), qPrintable(dialog->resultText()));
        QVERIFY(dialog->resultText().contains(QStringLiteral("queue offset 0")));
        QVERIFY(view_->bannerText().contains(kTopic));
        dialog->close();
    }

    void findsTheSentMessageByKey()
    {
        // The index is written by the broker's dispatcher right after the put: ask until it answers.
        QTRY_VERIFY_WITH_TIMEOUT(lookupKeyCount(kTopic, kKey) == 1, 60000);
        QVERIFY(view_->resultText().contains(kKey));
        view_->selectRow(0);
        MessageDetailPane *detail = view_->detailPane();
        QVERIFY(detail->hasMessage());
        QCOMPARE(detail->fieldText(QStringLiteral("Topic")), kTopic);
        QCOMPARE(detail->fieldText(QStringLiteral("Keys")), kKey);
        QCOMPARE(detail->fieldText(QStringLiteral("Tags")), QStringLiteral("TagJ"));
        QCOMPARE(detail->fieldText(QStringLiteral("Queue offset")), QStringLiteral("0"));
        QVERIFY(!detail->fieldText(QStringLiteral("Message ID (UNIQ_KEY)")).isEmpty());
        const std::map<QString, QString> properties = propertiesShown();
        QCOMPARE(properties.at(QStringLiteral("region")), QStringLiteral("eu"));
        QCOMPARE(properties.at(QStringLiteral("channel")), QStringLiteral("web"));
        QCOMPARE(properties.at(QStringLiteral("KEYS")), kKey);
        QCOMPARE(properties.at(QStringLiteral("TAGS")), QStringLiteral("TagJ"));

        // JSON is chosen for a body that parses, pretty-printed; the encoding and size are stated.
        QCOMPARE(detail->bodyMode(), MessageDetailPane::BodyMode::Json);
        QVERIFY(detail->isBodyModeAvailable(MessageDetailPane::BodyMode::Text));
        QVERIFY2(detail->bodyText().contains(QStringLiteral("\"id\": 42,\n")), qPrintable(detail->bodyText()));
        QVERIFY(detail->bodyText().contains(QStringLiteral("\"pear\"")));
        QVERIFY2(detail->encodingText().contains(QStringLiteral("JSON")), qPrintable(detail->encodingText()));
        QVERIFY(detail->encodingText().contains(QString::number(kJson.size())));
        saveScreenshot(*window_, QStringLiteral("messages-detail-json"));

        detail->setBodyMode(MessageDetailPane::BodyMode::Text);
        QCOMPARE(detail->bodyText(), kJson);
        detail->setBodyMode(MessageDetailPane::BodyMode::Hex);
        QVERIFY2(detail->bodyText().startsWith(QStringLiteral("00000000  7b 22 69 64")), qPrintable(detail->bodyText()));
        QVERIFY(detail->bodyText().contains(QStringLiteral("|{\"id\":42,\"items\"|")));
        saveScreenshot(*window_, QStringLiteral("messages-detail-hex"));

        // A binary body: hex only, said so.
        common::StoredMessage binary;
        binary.body = {0xff, 0x00, 0x41};
        detail->showMessage(&binary);
        QCOMPARE(detail->bodyMode(), MessageDetailPane::BodyMode::Hex);
        QVERIFY(!detail->isBodyModeAvailable(MessageDetailPane::BodyMode::Text));
        QVERIFY(detail->encodingText().contains(QStringLiteral("not valid UTF-8")));
        QVERIFY(detail->bodyText().contains(QStringLiteral("ff 00 41")));
        view_->selectRow(0);
    }

    void browsesAQueueInPages()
    {
        client::ClientConfig config;
        config.namesrvAddr = window_->brokerHost().namesrvAddress().toStdString();
        config.instanceName = "messages-test";
        client::ProducerOptions options;
        options.group = "messages_test_producer";
        client::Producer producer(config, options);
        QVERIFY(producer.start().ok);
        std::map<int, int> perQueue;
        for (int i = 0; i < 100; ++i) {
            client::Message message;
            message.topic = kBrowseTopic.toStdString();
            message.tags = "Bulk";
            message.keys = {"bulk-" + std::to_string(i)};
            message.setBody("message " + std::to_string(i));
            const auto sent = producer.send(message);
            QVERIFY2(sent.ok, sent.error.c_str());
            ++perQueue[sent.value.queue.queueId];
            if (i == 0)
                firstMsgId_ = QString::fromStdString(sent.value.msgId), firstUniqKey_ = QString::fromStdString(sent.value.uniqKey);
        }
        producer.shutdown();

        QSignalSpy finished(view_, &MessagesView::queryFinished);
        view_->browseFromOffset(kBrowseTopic, -1, 0);
        QTRY_VERIFY_WITH_TIMEOUT(!view_->isBusy(), 60000);
        QCOMPARE(view_->messageModel()->rowCount(), MessagesView::kPageSize);
        QVERIFY(view_->messageModel()->hasMore());
        QVERIFY(view_->emptyStateText().isEmpty());
        saveScreenshot(*window_, QStringLiteral("messages-browse"));
        // Scrolling near the end reads the next page.
        view_->table()->scrollToBottom();
        QTRY_VERIFY_WITH_TIMEOUT(view_->messageModel()->rowCount() > MessagesView::kPageSize, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(!view_->isBusy(), 60000);
        for (int page = 0; page < 10 && view_->messageModel()->hasMore(); ++page) {
            view_->loadMore();
            QTRY_VERIFY_WITH_TIMEOUT(!view_->isBusy(), 60000);
        }
        QCOMPARE(view_->messageModel()->rowCount(), 100);
        QVERIFY(!view_->messageModel()->hasMore());
        QVERIFY(finished.count() >= 4); // 32 + 32 + 32 + 4
        QVERIFY2(view_->resultText().contains(QStringLiteral("100 message")), qPrintable(view_->resultText()));

        // One queue: exactly what the producer put there.
        view_->browseFromOffset(kBrowseTopic, 1, 0);
        QTRY_VERIFY_WITH_TIMEOUT(!view_->isBusy(), 60000);
        for (int page = 0; page < 10 && view_->messageModel()->hasMore(); ++page) {
            view_->loadMore();
            QTRY_VERIFY_WITH_TIMEOUT(!view_->isBusy(), 60000);
        }
        QCOMPARE(view_->messageModel()->rowCount(), perQueue[1]);
        for (int row = 0; row < view_->messageModel()->rowCount(); ++row)
            QCOMPARE(view_->messageModel()->message(row)->queueId, 1);

        // From a store time an hour ago: every message again.
        view_->browseFromTime(kBrowseTopic, -1, QDateTime::currentDateTime().addSecs(-3600));
        QTRY_VERIFY_WITH_TIMEOUT(!view_->isBusy(), 60000);
        for (int page = 0; page < 10 && view_->messageModel()->hasMore(); ++page) {
            view_->loadMore();
            QTRY_VERIFY_WITH_TIMEOUT(!view_->isBusy(), 60000);
        }
        QCOMPARE(view_->messageModel()->rowCount(), 100);

        // Sorting by a column reorders only the loaded rows; the queue column gives the natural order.
        view_->table()->sortByColumn(ui::MessageTableModel::QueueOffsetColumn, Qt::DescendingOrder);
        QVERIFY(view_->messageModel()->message(0)->queueOffset >= view_->messageModel()->message(99)->queueOffset);
        view_->table()->sortByColumn(ui::MessageTableModel::QueueColumn, Qt::AscendingOrder);
    }

    void looksUpByMessageId()
    {
        QVERIFY(!firstMsgId_.isEmpty());
        view_->lookupById(kBrowseTopic, firstMsgId_);
        QTRY_VERIFY_WITH_TIMEOUT(!view_->isBusy(), 60000);
        QCOMPARE(view_->messageModel()->rowCount(), 1);
        QCOMPARE(view_->detailPane()->fieldText(QStringLiteral("Message ID (offset)")), firstMsgId_);
        QCOMPARE(view_->detailPane()->fieldText(QStringLiteral("Keys")), QStringLiteral("bulk-0"));
        QCOMPARE(view_->detailPane()->bodyMode(), MessageDetailPane::BodyMode::Text);
        QCOMPARE(view_->detailPane()->bodyText(), QStringLiteral("message 0"));

        view_->lookupById(kBrowseTopic, firstUniqKey_);
        QTRY_VERIFY_WITH_TIMEOUT(!view_->isBusy(), 60000);
        QCOMPARE(view_->messageModel()->rowCount(), 1);
        QCOMPARE(view_->detailPane()->fieldText(QStringLiteral("Message ID (offset)")), firstMsgId_);
    }

    void lookupsThatFindNothingExplain()
    {
        QCOMPARE(lookupKeyCount(kBrowseTopic, QStringLiteral("no-such-key")), 0);
        QVERIFY2(view_->emptyStateText().contains(QStringLiteral("No message with key “no-such-key”")),
                 qPrintable(view_->emptyStateText()));
        QVERIFY(view_->emptyStateText().contains(QStringLiteral("Widen the time range")));
        QVERIFY(view_->bannerText().isEmpty()); // nothing failed

        view_->lookupById(kBrowseTopic, QStringLiteral("not-an-id"));
        QTRY_VERIFY_WITH_TIMEOUT(!view_->isBusy(), 60000);
        QCOMPARE(view_->messageModel()->rowCount(), 0);
        QVERIFY2(view_->emptyStateText().contains(QStringLiteral("No message with ID not-an-id in topic DeskBrowse")),
                 qPrintable(view_->emptyStateText()));
        QVERIFY(!view_->detailPane()->hasMessage());

        // A key lookup with a past range excludes the message sent now.
        view_->lookupByKey(kTopic, kKey, QDateTime::currentDateTime().addDays(-3), QDateTime::currentDateTime().addDays(-2));
        QTRY_VERIFY_WITH_TIMEOUT(!view_->isBusy(), 60000);
        QCOMPARE(view_->messageModel()->rowCount(), 0);
        QVERIFY(view_->emptyStateText().contains(QStringLiteral("stored between")));
    }

    // A message traced as the Java client traces it (enableMsgTrace): looked up by its ID with
    // the keyboard, its row clicked, the Trace tab clicked; the send, the store and each group's
    // deliveries are shown with their status, as a timeline and as a table.
    void showsAMessagesTraceAsATimeline()
    {
        client::ClientConfig config;
        config.namesrvAddr = window_->brokerHost().namesrvAddress().toStdString();
        config.instanceName = "trace-test";
        client::Producer producer(config, client::ProducerOptions{.group = "PG_TRACED"});
        QVERIFY(producer.start().ok);
        client::Message traced;
        traced.topic = "DeskTraced";
        traced.keys = {"traced-1"};
        traced.setBody("traced body");
        const auto sent = producer.send(traced);
        QVERIFY2(sent.ok, sent.error.c_str());
        const std::string msgId = sent.value.uniqKey; // what Java's SendResult.getMsgId() and the trace name
        auto traceContext = [](std::initializer_list<std::string> fields) {
            std::string text;
            for (const std::string &field : fields)
                text += (text.empty() ? "" : "\x01") + field;
            return text + '\x02';
        };
        const std::string t0 = std::to_string(QDateTime::currentMSecsSinceEpoch() - 500);
        const std::string t1 = std::to_string(QDateTime::currentMSecsSinceEpoch() - 300);
        const std::string t2 = std::to_string(QDateTime::currentMSecsSinceEpoch() - 100);
        const std::vector<std::string> bodies{
            traceContext({"Pub", t0, "DefaultRegion", "PG_TRACED", "DeskTraced", msgId, "", "traced-1",
                          "127.0.0.1:10911", "11", "4", "0", "OFFSETID", "true", "127.0.0.1@1"}),
            traceContext({"SubBefore", t1, "DefaultRegion", "CG_ORDERS", "r1", msgId, "0", "traced-1"})
                + traceContext({"SubAfter", "r1", msgId, "12", "false", "traced-1", "4", t1}),
            traceContext({"SubBefore", t2, "DefaultRegion", "CG_ORDERS", "r2", msgId, "1", "traced-1"})
                + traceContext({"SubAfter", "r2", msgId, "7", "true", "traced-1", "0", t2}),
            traceContext({"SubBefore", t2, "DefaultRegion", "CG_AUDIT", "r3", msgId, "0", "traced-1"})};
        for (const std::string &body : bodies) {
            client::Message trace;
            trace.topic = client::kDefaultTraceTopic;
            trace.keys = {msgId, "traced-1"};
            trace.setBody(body);
            const auto result = producer.send(trace);
            QVERIFY2(result.ok, result.error.c_str());
        }
        producer.shutdown();
        // The trace topic's index is written by the dispatcher just after the puts.
        client::AdminClient admin(config);
        QTRY_VERIFY_WITH_TIMEOUT(admin.queryMessageTrace(msgId).value.consumes.size() == 3, 20000);

        // Look it up as a person does: topic, "Message ID", the ID, Enter.
        auto *topicEdit = view_->topicBox()->lineEdit();
        auto *mode = view_->findChild<QComboBox *>(QStringLiteral("lookupMode"));
        auto *lookupText = view_->findChild<QLineEdit *>(QStringLiteral("lookupText"));
        QVERIFY(topicEdit && mode && lookupText);
        QTest::mouseClick(topicEdit, Qt::LeftButton);
        topicEdit->selectAll();
        QTest::keyClicks(topicEdit, QStringLiteral("DeskTraced"));
        mode->setFocus(Qt::TabFocusReason);
        QTest::keyClick(mode, Qt::Key_Home);
        QCOMPARE(mode->currentIndex(), 0);
        QTest::mouseClick(lookupText, Qt::LeftButton);
        lookupText->selectAll();
        QTest::keyClicks(lookupText, QString::fromStdString(msgId));
        QTest::keyClick(lookupText, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!view_->isBusy() && view_->messageModel()->rowCount() == 1, 20000);

        QTableView *table = view_->table();
        const QRect rowRect = table->visualRect(view_->messageModel()->index(0, 1));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, rowRect.center());
        MessageDetailPane *detail = view_->detailPane();
        QTRY_COMPARE(detail->uniqKey(), QString::fromStdString(msgId));
        QTabBar *tabs = detail->tabs()->tabBar();
        QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(1).center());
        QCOMPARE(detail->tabs()->currentWidget(), detail->traceView());

        QTableWidget *stages = detail->traceView()->table();
        QTRY_COMPARE_WITH_TIMEOUT(stages->rowCount(), 5, 20000); // send, store, three deliveries
        auto cell = [&](int row, int column) { return stages->item(row, column)->text(); };
        QCOMPARE(cell(0, 0), QStringLiteral("Send"));
        QCOMPARE(cell(0, 1), QStringLiteral("PG_TRACED"));
        QCOMPARE(cell(0, 3), QStringLiteral("4 ms"));
        QCOMPARE(cell(0, 4), QStringLiteral("Success"));
        QCOMPARE(cell(1, 0), QStringLiteral("Store"));
        QCOMPARE(cell(2, 1), QStringLiteral("CG_AUDIT"));
        QCOMPARE(cell(2, 4), QStringLiteral("Not finished"));
        QCOMPARE(cell(3, 1), QStringLiteral("CG_ORDERS"));
        QCOMPARE(cell(3, 4), QStringLiteral("Failed (FAILED)"));
        QCOMPARE(cell(4, 4), QStringLiteral("Success"));
        QVERIFY(cell(4, 5).contains(QStringLiteral("delivery 2")));
        QVERIFY2(detail->traceView()->statusText().contains(QStringLiteral("3 deliveries")),
                 qPrintable(detail->traceView()->statusText()));
        QVERIFY(detail->traceView()->timeline()->isVisible());
        saveScreenshot(*window_, QStringLiteral("messages-trace"));

        // Back to the body with the keyboard (Ctrl+Tab moves between tabs).
        detail->tabs()->setFocus(Qt::TabFocusReason);
        QTest::keyClick(detail->tabs(), Qt::Key_Tab, Qt::ControlModifier);
        QCOMPARE(detail->tabs()->currentIndex(), 0);
    }

    // Three messages a consumer of GID_DEAD gave up on (CONSUMER_SEND_MSG_BACK with delay level
    // -1: straight to %DLQ%GID_DEAD, as after its last retry); a person browses the dead-letter
    // topic, resends the one selected, then all shown, each after the inline confirmation, and
    // finds them in the group's retry topic with their original topic.
    void resendsDeadLettersToTheirGroup()
    {
        client::ClientConfig config;
        config.namesrvAddr = window_->brokerHost().namesrvAddress().toStdString();
        config.instanceName = "messages-dlq";
        client::ProducerOptions options;
        options.group = "messages_dlq_producer";
        client::Producer producer(config, options);
        QVERIFY(producer.start().ok);
        remoting::RemotingClient consumer;
        const std::string broker = window_->brokerHost().brokerAddress().toStdString();
        for (int i = 0; i < 3; ++i) {
            client::Message message;
            message.topic = "DeskDlqSource";
            message.setBody("dead " + std::to_string(i));
            const auto sent = producer.send(message);
            QVERIFY2(sent.ok, sent.error.c_str());
            const auto id = common::decodeOffsetMessageId(sent.value.msgId);
            QVERIFY(id);
            const auto back = consumer.invokeSync(
                broker,
                remoting::RemotingCommand::createRequest(
                    remoting::RequestCode::kConsumerSendMsgBack,
                    {{"offset", std::to_string(id->commitLogOffset)}, {"group", "GID_DEAD"}, {"delayLevel", "-1"},
                     {"originMsgId", sent.value.msgId}, {"originTopic", "DeskDlqSource"}}),
                std::chrono::milliseconds(10000));
            QVERIFY(back.ok());
            QCOMPARE(back.response.code, remoting::ResponseCode::kSuccess);
        }
        producer.shutdown();

        // Typed into the topic box as a person does, then Browse.
        const QString dlq = QStringLiteral("%DLQ%GID_DEAD");
        for (int attempt = 0; attempt < 200 && view_->messageModel()->rowCount() < 3; ++attempt) { // up to ~20 s on a loaded machine
            QLineEdit *topic = view_->topicBox()->lineEdit();
            topic->selectAll();
            QTest::keyClicks(topic, dlq);
            QTest::keyClick(topic, Qt::Key_Return);
            // As a person sees it: the queue box lists the dead-letter topic's one queue (it is
            // read 300 ms after typing; a Browse before that reads the queue picked for the
            // previous topic — a known race of the page, not what this test is about).
            auto *queues = view_->findChild<QComboBox *>(QStringLiteral("messagesQueue"));
            QTRY_VERIFY_WITH_TIMEOUT(queues && queues->count() == 2 && queues->currentData().toInt() == -1, 20000);
            QTest::mouseClick(view_->findChild<QPushButton *>(QStringLiteral("browseButton")), Qt::LeftButton);
            QTRY_VERIFY_WITH_TIMEOUT(!view_->isBusy(), 20000);
            if (view_->messageModel()->rowCount() < 3)
                QTest::qWait(100); // the dispatcher may not have indexed the last one yet
        }
        QCOMPARE(view_->messageModel()->rowCount(), 3);
        QVERIFY(view_->resendButton()->isVisible());
        QVERIFY(view_->resendButton()->isEnabled());

        QTableView *table = view_->table();
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(table->model()->index(0, 0)).center());
        QTest::mouseClick(view_->resendButton(), Qt::LeftButton);
        QVERIFY2(view_->resendConfirmationText().contains(QStringLiteral("the 1 selected dead letter")),
                 qPrintable(view_->resendConfirmationText()));
        QVERIFY(view_->resendConfirmationText().contains(QStringLiteral("%RETRY%GID_DEAD")));
        saveScreenshot(*window_, QStringLiteral("messages-dlq-resend"));
        QSignalSpy resent(view_, &MessagesView::resendFinished);
        QTest::mouseClick(view_->findChild<QPushButton *>(QStringLiteral("confirmResend")), Qt::LeftButton);
        QVERIFY(resent.wait(30000));
        QCOMPARE(resent.at(0).at(0).toInt(), 1);
        QCOMPARE(resent.at(0).at(1).toInt(), 0);

        // Nothing selected (Ctrl+click takes the row out): all shown.
        QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::ControlModifier,
                          table->visualRect(table->model()->index(0, 0)).center());
        QVERIFY(table->selectionModel()->selectedRows().isEmpty());
        QTest::mouseClick(view_->resendButton(), Qt::LeftButton);
        QVERIFY2(view_->resendConfirmationText().contains(QStringLiteral("all 3 dead letter")),
                 qPrintable(view_->resendConfirmationText()));
        QTest::mouseClick(view_->findChild<QPushButton *>(QStringLiteral("confirmResend")), Qt::LeftButton);
        QVERIFY(resent.wait(30000));
        QCOMPARE(resent.at(1).at(0).toInt(), 3);

        // Export…, nothing selected: all 3 dead letters, bodies and properties, as JSON Lines.
        const QString jsonl = storeDir_.filePath(QStringLiteral("dead-letters.jsonl"));
        QVERIFY(exportThroughTheDialog(jsonl));
        QFile exported(jsonl);
        QVERIFY(exported.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = exported.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QSet<QString> bodies;
        for (const QByteArray &line : lines) {
            const QJsonObject object = QJsonDocument::fromJson(line).object();
            QCOMPARE(object.value(QStringLiteral("topic")).toString(), dlq);
            QCOMPARE(object.value(QStringLiteral("bodyEncoding")).toString(), QStringLiteral("utf-8"));
            QVERIFY(!object.value(QStringLiteral("msgId")).toString().isEmpty());
            QVERIFY(!object.value(QStringLiteral("offsetMsgId")).toString().isEmpty());
            QCOMPARE(object.value(QStringLiteral("properties")).toObject().value(QStringLiteral("RETRY_TOPIC")).toString(),
                     QStringLiteral("DeskDlqSource"));
            bodies << object.value(QStringLiteral("body")).toString();
        }
        QCOMPARE(bodies, QSet<QString>({QStringLiteral("dead 0"), QStringLiteral("dead 1"), QStringLiteral("dead 2")}));
        QVERIFY2(view_->bannerText().contains(QStringLiteral("Exported 3 message(s)")), qPrintable(view_->bannerText()));

        // The selected one as CSV: a header and one row holding its body.
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(table->model()->index(1, 0)).center());
        const QString csv = storeDir_.filePath(QStringLiteral("one-dead-letter.csv"));
        QVERIFY(exportThroughTheDialog(csv));
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        const QByteArray content = csvFile.readAll();
        QVERIFY(content.startsWith("topic,queueId,queueOffset,msgId,offsetMsgId"));
        QVERIFY(content.endsWith(",utf-8," + QByteArray::fromStdString(view_->messageModel()->message(1)->bodyText()) + "\r\n"));
        QCOMPARE(content.count(",utf-8,dead "), 1); // the selected row alone

        // In the retry topic, for GID_DEAD alone, with the topic they were first sent to.
        for (int attempt = 0; attempt < 50 && view_->messageModel()->rowCount() != 4; ++attempt) {
            view_->browseFromOffset(QStringLiteral("%RETRY%GID_DEAD"), -1, 0);
            QTRY_VERIFY_WITH_TIMEOUT(!view_->isBusy(), 20000);
            if (view_->messageModel()->rowCount() != 4)
                QTest::qWait(100);
        }
        QCOMPARE(view_->messageModel()->rowCount(), 4);
        QVERIFY(!view_->resendButton()->isVisible()); // not a dead-letter topic
        const common::StoredMessage *first = view_->messageModel()->message(0);
        QVERIFY(first);
        QCOMPARE(first->properties.get("RETRY_TOPIC").value_or(""), std::string_view("DeskDlqSource"));
    }

    // What the export writes of bodies that are not text: binary and producer-compressed bodies
    // as base64, saying so; a file that cannot be written is named, and nothing is left behind.
    void exportWritesBinaryBodiesAsBase64()
    {
        common::StoredMessage binary;
        binary.topic = "T";
        binary.body = {0xff, 0x00, 0xfe, 'a'};
        common::StoredMessage compressed = binary;
        compressed.body = {'x', 'y'}; // valid UTF-8, but stored compressed: not text as stored
        compressed.sysFlag = common::sysflag::kCompressed;
        common::StoredMessage text = binary;
        text.body = {'h', 0xc3, 0xa9, '\n', ','};
        const QString path = storeDir_.filePath(QStringLiteral("bodies.jsonl"));
        QString error;
        QVERIFY2(ui::writeMessages({binary, compressed, text}, path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        const auto object = [&](int i) { return QJsonDocument::fromJson(lines.at(i)).object(); };
        QCOMPARE(object(0).value(QStringLiteral("bodyEncoding")).toString(), QStringLiteral("base64"));
        QCOMPARE(QByteArray::fromBase64(object(0).value(QStringLiteral("body")).toString().toLatin1()),
                 QByteArray("\xff\x00\xfe" "a", 4));
        QCOMPARE(object(1).value(QStringLiteral("bodyEncoding")).toString(), QStringLiteral("base64"));
        QCOMPARE(object(2).value(QStringLiteral("body")).toString(), QStringLiteral("h\u00e9\n,"));

        const QString csv = storeDir_.filePath(QStringLiteral("bodies.csv"));
        QVERIFY2(ui::writeMessages({text}, csv, &error), qPrintable(error));
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        QVERIFY(csvFile.readAll().endsWith(",utf-8,\"h\xc3\xa9\n,\"\r\n"));

        const QString missing = storeDir_.filePath(QStringLiteral("no/such/dir/x.jsonl"));
        QVERIFY(!ui::writeMessages({text}, missing, &error));
        QVERIFY2(error.contains(missing), qPrintable(error));
        QVERIFY(!QFile::exists(missing));
    }

private:
    // Clicks Export… and, in the file dialog, types `path` and presses Return, as a person does.
    bool exportThroughTheDialog(const QString &path)
    {
        QSignalSpy finished(view_, &MessagesView::exportFinished);
        test::saveThroughFileDialog(view_->exportButton(), path);
        if (finished.isEmpty() && !finished.wait(10000))
            return false;
        return finished.at(0).at(0).toString() == path;
    }

    int lookupKeyCount(const QString &topic, const QString &key)
    {
        view_->lookupByKey(topic, key);
        if (!QTest::qWaitFor([this] { return !view_->isBusy(); }, 20000))
            return -1;
        return view_->messageModel()->rowCount();
    }

    std::map<QString, QString> propertiesShown() const
    {
        std::map<QString, QString> out;
        QTableWidget *table = view_->detailPane()->propertiesTable();
        for (int row = 0; row < table->rowCount(); ++row)
            out[table->item(row, 0)->text()] = table->item(row, 1)->text();
        return out;
    }

    QTemporaryDir storeDir_;
    std::unique_ptr<MainWindow> window_;
    MessagesView *view_ = nullptr;
    QString firstMsgId_;
    QString firstUniqKey_;
};

QTEST_MAIN(MessagesViewTest)
#include "tst_messages_view.moc"
