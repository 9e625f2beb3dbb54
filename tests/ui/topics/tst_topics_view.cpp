// The Topics view in the real main window, offscreen, with a real embedded broker on a temporary
// store: the list with its system topics, a topic created through the dialog, filtered by name
// and kind, a FIFO topic created and filtered by message type with the mouse and keys (then
// changed to DELAY through the edit dialog), its queues, route and message count after a send,
// copied as text, edited and deleted; a topic created through the client API appearing by itself
// (the live refresh) with the clicked row, the sort and the detail kept, but not while another
// page is shown or the window is minimised; then 1,000 topics created directly through the
// client API all shown after F5; a LITE parent topic's "Lite topics" tab with its lite topics by lag.
// Screenshots of each state are saved in the build tree (screenshots/topics-*.png).

#include "ui_test_util.h"
#include "broker/client/admin_client.h"
#include "broker/client/pull_consumer.h"
#include "ui/main_window.h"
#include "ui/topics/topic_detail_pane.h"
#include "ui/topics/topic_dialog.h"
#include "ui/topics/topics_view.h"
#include "ui/widgets/table_text.h"
#include "ui/widgets/traffic_chart.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QHeaderView>
#include <QScrollBar>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStackedWidget>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <memory>

using namespace mqdesk;
using mqdesk::ui::BrokerHost;
using mqdesk::ui::MainWindow;
using mqdesk::ui::TopicDialog;
using mqdesk::ui::TopicKind;
using mqdesk::ui::TopicRow;
using mqdesk::ui::TopicsView;

using mqdesk::test::chooseWithKeys;
using mqdesk::test::chooseWithMouse;
using mqdesk::test::optionsFor;
using mqdesk::test::saveScreenshot;

namespace {

const QString kTopic = QStringLiteral("DeskOrders");
const QString kFifoTopic = QStringLiteral("DeskFifoPayments");

// The topic names the table shows, top to bottom.
QStringList shownTopics(QAbstractItemModel *model)
{
    QStringList names;
    for (int row = 0; row < model->rowCount(); ++row)
        names << model->index(row, ui::TopicTableModel::NameColumn).data().toString();
    return names;
}

} // namespace

class TopicsViewTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(storeDir_.isValid());
        window_ = std::make_unique<MainWindow>(optionsFor(storeDir_.filePath(QStringLiteral("store"))));
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        window_->activateWindow(); // shortcuts (F5, Ctrl+F, Ctrl+C) need the active window
        QVERIFY(QTest::qWaitForWindowActive(window_.get()));
        QTRY_COMPARE_WITH_TIMEOUT(window_->brokerHost().state(), BrokerHost::State::Running, 60000);
        view_ = window_->findChild<TopicsView *>();
        QVERIFY(view_);
        window_->showView(window_->pages()->indexOf(view_));
        QCOMPARE(window_->pages()->currentWidget(), view_);
    }

    void cleanupTestCase()
    {
        window_->close();
        window_.reset();
    }

    void listsTheClusterTopics()
    {
        QTRY_VERIFY_WITH_TIMEOUT(!view_->isLoading() && view_->topicModel()->rowCount() > 0, 60000);
        const TopicRow *tbw = view_->topicModel()->topic(QStringLiteral("TBW102"));
        QVERIFY(tbw);
        QCOMPARE(tbw->kind, TopicKind::System);
        QVERIFY(tbw->readQueues > 0);
        const TopicRow *cluster = view_->topicModel()->topic(QStringLiteral("DefaultCluster"));
        if (cluster)
            QCOMPARE(cluster->kind, TopicKind::System);
        QCOMPARE(ui::topicKindOf("%RETRY%g", {}), TopicKind::Retry);
        QCOMPARE(ui::topicKindOf("%DLQ%g", {}), TopicKind::DeadLetter);
        QCOMPARE(ui::topicKindOf("RMQ_SYS_TRANS_HALF_TOPIC", {}), TopicKind::System);
        QCOMPARE(ui::topicKindOf("broker-a", {"broker-a"}), TopicKind::System);
        QCOMPARE(ui::topicKindOf("Orders", {"broker-a"}), TopicKind::Normal);
        QVERIFY(view_->emptyStateText().isEmpty()); // the table, not a placeholder
        // The rows on screen get their message counts shortly after.
        QTRY_VERIFY_WITH_TIMEOUT(view_->topicModel()->topic(QStringLiteral("TBW102"))->messages >= 0, 60000);
        saveScreenshot(*window_, QStringLiteral("topics-list"));
    }

    void createsATopicThroughTheDialog()
    {
        view_->createTopic();
        auto *dialog = view_->findChild<TopicDialog *>();
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        auto *name = dialog->findChild<QLineEdit *>(QStringLiteral("topicName"));
        auto *okButton = dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        QVERIFY(name && okButton);
        QVERIFY(!okButton->isEnabled()); // no name yet

        QTest::keyClicks(name, QStringLiteral("bad name!"));
        QVERIFY(!dialog->validationError().isEmpty());
        QVERIFY(!okButton->isEnabled());
        name->clear();
        QTest::keyClicks(name, kTopic);
        QVERIFY(dialog->validationError().isEmpty());
        for (const char *spinName : {"readQueues", "writeQueues"}) {
            auto *spin = dialog->findChild<QSpinBox *>(QString::fromLatin1(spinName));
            QVERIFY(spin);
            spin->selectAll();
            QTest::keyClicks(spin, QStringLiteral("6"));
            QCOMPARE(spin->value(), 6);
        }
        saveScreenshot(*dialog, QStringLiteral("topics-create-dialog"));
        QTest::mouseClick(okButton, Qt::LeftButton);

        QTRY_VERIFY_WITH_TIMEOUT(view_->topicModel()->topic(kTopic) != nullptr, 60000);
        const TopicRow *row = view_->topicModel()->topic(kTopic);
        QCOMPARE(row->readQueues, 6);
        QCOMPARE(row->writeQueues, 6);
        QCOMPARE(row->kind, TopicKind::Normal);
        QVERIFY2(view_->bannerText().contains(QStringLiteral("created")), qPrintable(view_->bannerText()));
        QCOMPARE(view_->selectedTopic(), kTopic); // the new topic is selected
    }

    void filtersByNameAndKind()
    {
        auto *filter = view_->filterModel();
        const int all = view_->topicModel()->rowCount();
        activateWindow(); // the dialog had it
        QTest::keyClick(view_->table(), Qt::Key_F, Qt::ControlModifier);
        QTRY_VERIFY(view_->searchField()->hasFocus());
        QTest::keyClicks(view_->searchField(), QStringLiteral("deskord"));
        QCOMPARE(filter->rowCount(), 1);
        QCOMPARE(filter->index(0, 0).data().toString(), kTopic);

        QComboBox *kind = view_->kindFilter();
        kind->setCurrentIndex(kind->findData(static_cast<int>(TopicKind::System)));
        QCOMPARE(filter->rowCount(), 0);
        QVERIFY2(view_->emptyStateText().contains(QStringLiteral("No topic matches")),
                 qPrintable(view_->emptyStateText()));
        kind->setCurrentIndex(kind->findData(static_cast<int>(TopicKind::Normal)));
        QCOMPARE(filter->rowCount(), 1);

        view_->searchField()->clear();
        kind->setCurrentIndex(kind->findData(static_cast<int>(TopicKind::System)));
        QVERIFY(filter->rowCount() > 0);
        for (int row = 0; row < filter->rowCount(); ++row)
            QCOMPARE(filter->index(row, 1).data().toString(), ui::topicKindName(TopicKind::System));
        kind->setCurrentIndex(0);
        QCOMPARE(filter->rowCount(), all);

        // Sorting by a column.
        view_->table()->sortByColumn(ui::TopicTableModel::ReadQueuesColumn, Qt::DescendingOrder);
        const int top = filter->index(0, ui::TopicTableModel::ReadQueuesColumn).data().toInt();
        for (int row = 1; row < filter->rowCount(); ++row)
            QVERIFY(filter->index(row, ui::TopicTableModel::ReadQueuesColumn).data().toInt() <= top);
        view_->table()->sortByColumn(ui::TopicTableModel::NameColumn, Qt::AscendingOrder);
    }

    // A person clicks "New topic…", types the name, picks FIFO from the type list with the mouse
    // and presses Enter; then narrows the list to FIFO topics with the type filter and sees only
    // that one; then opens it again and changes its type to DELAY with the keyboard.
    void createsAFifoTopicAndFiltersByType()
    {
        activateWindow();
        auto *newButton = view_->findChild<QPushButton *>(QStringLiteral("newTopicButton"));
        QVERIFY(newButton);
        QTest::mouseClick(newButton, Qt::LeftButton);
        TopicDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = view_->findChild<TopicDialog *>()) && dialog->isVisible());
        auto *name = dialog->findChild<QLineEdit *>(QStringLiteral("topicName"));
        auto *type = dialog->findChild<QComboBox *>(QStringLiteral("messageType"));
        QVERIFY(name && type);
        QCOMPARE(type->currentData().toString(), QStringLiteral("UNSPECIFIED"));
        // Every type a 5.5 broker creates but MIXED (refused by default) and LITE (not served yet).
        QStringList offered;
        for (int i = 0; i < type->count(); ++i)
            offered << type->itemData(i).toString();
        QCOMPARE(offered.join(u' '), QStringLiteral("UNSPECIFIED NORMAL FIFO DELAY TRANSACTION PRIORITY"));
        QTest::mouseClick(name, Qt::LeftButton);
        QTest::keyClicks(name, kFifoTopic);
        chooseWithMouse(type, QStringLiteral("FIFO"));
        QCOMPARE(type->currentText(), QStringLiteral("FIFO"));
        QCOMPARE(dialog->attributeModifications(), std::string("+message.type=FIFO"));
        saveScreenshot(*dialog, QStringLiteral("topics-create-fifo-dialog"));
        QTest::mouseClick(name, Qt::LeftButton);
        QTest::keyClick(name, Qt::Key_Return); // the default button: Create
        QTRY_VERIFY_WITH_TIMEOUT(view_->topicModel()->topic(kFifoTopic) != nullptr, 60000);
        QCOMPARE(view_->topicModel()->topic(kFifoTopic)->messageType, QStringLiteral("FIFO"));
        QCOMPARE(view_->topicModel()->topic(kTopic)->messageType, QStringLiteral("UNSPECIFIED"));

        // The Type column says so, and the type filter beside the search narrows the list.
        activateWindow();
        QComboBox *typeFilter = view_->messageTypeFilter();
        QVERIFY(typeFilter->isVisible());
        chooseWithMouse(typeFilter, QStringLiteral("FIFO"));
        QAbstractItemModel *shown = view_->table()->model();
        QCOMPARE(shownTopics(shown), QStringList{kFifoTopic});
        QCOMPARE(shown->index(0, ui::TopicTableModel::TypeColumn).data().toString(), QStringLiteral("FIFO"));
        QCOMPARE(shown->headerData(ui::TopicTableModel::TypeColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Message type"));
        saveScreenshot(*window_, QStringLiteral("topics-filtered-fifo"));
        chooseWithKeys(typeFilter, QStringLiteral("UNSPECIFIED"));
        QVERIFY(shownTopics(shown).contains(kTopic));
        QVERIFY(!shownTopics(shown).contains(kFifoTopic));
        chooseWithKeys(typeFilter, QStringLiteral("DELAY"));
        QVERIFY(shownTopics(shown).isEmpty());

        // Java lets an update change message.type: FIFO → DELAY through the edit dialog.
        chooseWithKeys(typeFilter, QStringLiteral("FIFO"));
        const QRect row = view_->table()->visualRect(shown->index(0, ui::TopicTableModel::NameColumn));
        QTest::mouseClick(view_->table()->viewport(), Qt::LeftButton, {}, row.center());
        QTRY_COMPARE(view_->selectedTopic(), kFifoTopic);
        QTest::mouseClick(view_->findChild<QPushButton *>(QStringLiteral("editTopicButton")), Qt::LeftButton);
        QTRY_VERIFY((dialog = view_->findChild<TopicDialog *>()) && dialog->isVisible());
        type = dialog->findChild<QComboBox *>(QStringLiteral("messageType"));
        QCOMPARE(type->currentData().toString(), QStringLiteral("FIFO"));
        chooseWithKeys(type, QStringLiteral("DELAY"));
        QCOMPARE(dialog->attributeModifications(), std::string("+message.type=DELAY"));
        QTest::mouseClick(dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(view_->topicModel()->topic(kFifoTopic)->messageType == QStringLiteral("DELAY"), 60000);
        QTRY_VERIFY(shownTopics(shown).isEmpty()); // still filtered by FIFO
        activateWindow();
        chooseWithKeys(typeFilter, QStringLiteral("DELAY"));
        QCOMPARE(shownTopics(shown), QStringList{kFifoTopic});
        saveScreenshot(*window_, QStringLiteral("topics-filtered-delay"));
        typeFilter->setCurrentIndex(0); // all types, for the tests that follow
    }

    void exportsTheFilteredTableAsCsv()
    {
        // Every table's context menu offers the export; it writes what the view shows.
        QTableView *table = view_->table();
        QCOMPARE(table->contextMenuPolicy(), Qt::ActionsContextMenu);
        const QList<QAction *> actions = table->actions();
        QVERIFY(std::any_of(actions.begin(), actions.end(),
                            [](QAction *a) { return a->text() == QStringLiteral("Export CSV…"); }));
        view_->searchField()->setText(QStringLiteral("deskord"));
        QCOMPARE(view_->filterModel()->rowCount(), 1);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("topics.csv"));
        QString error;
        QVERIFY2(ui::writeTableCsv(*table->model(), path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().split('\n');
        QCOMPARE(lines.size(), 3); // header, the row, and the empty rest after the last CRLF
        QVERIFY(lines[0].startsWith("Topic,") && lines[0].endsWith('\r'));
        QVERIFY(lines[1].startsWith(kTopic.toUtf8() + ','));
        file.close();
        view_->searchField()->clear();

        // Quoting as RFC 4180 asks: commas, quotes and line breaks inside a field.
        QStandardItemModel model(1, 3);
        model.setHorizontalHeaderLabels({QStringLiteral("a"), QStringLiteral("b,c"), QStringLiteral("d")});
        model.setItem(0, 0, new QStandardItem(QStringLiteral("say \"hi\"")));
        model.setItem(0, 1, new QStandardItem(QStringLiteral("two\nlines")));
        model.setItem(0, 2, new QStandardItem(QStringLiteral("中文")));
        QVERIFY(ui::writeTableCsv(model, path, &error));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("a,\"b,c\",d\r\n\"say \"\"hi\"\"\",\"two\nlines\",\xe4\xb8\xad\xe6\x96\x87\r\n"));
        QVERIFY(!ui::writeTableCsv(model, dir.filePath(QStringLiteral("missing/x.csv")), &error));
        QVERIFY2(error.contains(QStringLiteral("missing/x.csv")), qPrintable(error));
    }

    void showsQueuesRouteAndCountAfterASend()
    {
        auto producer = window_->connection().producer();
        QVERIFY(producer);
        client::Message message;
        message.topic = kTopic.toStdString();
        message.body = {'h', 'i'};
        const auto sent = producer->send(message);
        QVERIFY2(sent.ok, sent.error.c_str());

        // A group that committed an offset on it consumes it.
        client::ClientConfig config;
        config.namesrvAddr = window_->connection().namesrvAddress().toStdString();
        client::AdminClient admin(config);
        const auto committed = admin.api().updateConsumerOffset(window_->brokerHost().brokerAddress().toStdString(),
                                                                "DeskReaders", kTopic.toStdString(), 0, 1);
        QVERIFY2(committed.ok, committed.error.c_str());
        admin.shutdown();

        QVERIFY(view_->selectTopic(kTopic));
        // The broker's dispatcher indexes the message shortly after the send returns: refresh
        // the pane until its queues show it.
        QTableWidget *queues = view_->detailPane()->queueTable();
        qint64 stored = 0;
        for (int attempt = 0; attempt < 50 && stored == 0; ++attempt) {
            QSignalSpy loaded(view_->detailPane(), &ui::TopicDetailPane::loaded);
            view_->detailPane()->refresh();
            QVERIFY(loaded.wait(20000));
            QCOMPARE(queues->rowCount(), 6);
            for (int row = 0; row < queues->rowCount(); ++row)
                stored += queues->item(row, 4)->text().toLongLong();
        }
        QCOMPARE(stored, 1);
        QCOMPARE(view_->detailPane()->routeTable()->rowCount(), 1);
        QVERIFY(!view_->detailPane()->consumerList()->findItems(QStringLiteral("DeskReaders"), Qt::MatchExactly).isEmpty());
        // The broker's statistics (VIEW_BROKER_STATS_DATA) say how much was put, now and lately.
        const QString traffic = view_->detailPane()->trafficText();
        QVERIFY2(traffic.startsWith(QStringLiteral("Puts: ")) && traffic.contains(QStringLiteral("in the last 24 h")),
                 qPrintable(traffic));
        QVERIFY(view_->detailPane()->routeTable()->item(0, 1)->text().contains(window_->brokerHost().brokerAddress()));
        QTRY_COMPARE(view_->topicModel()->topic(kTopic)->messages, 1); // the table learns it too
        saveScreenshot(*window_, QStringLiteral("topics-detail"));

        // DeskReaders pulls the message; the "Traffic by group" tab shows the broker's count of it.
        {
            client::PullConsumerOptions options;
            options.group = "DeskReaders";
            client::PullConsumer reader(config, options);
            QVERIFY(reader.subscribe(kTopic.toStdString()).ok);
            QVERIFY(reader.start().ok);
            const auto readQueues = reader.fetchSubscribeMessageQueues(kTopic.toStdString());
            QVERIFY2(readQueues.ok, readQueues.error.c_str());
            int pulled = 0;
            for (const auto &queue : readQueues.value) {
                const auto answer = reader.pull(queue, "*", 0, 32);
                QVERIFY2(answer.ok, answer.error.c_str());
                pulled += static_cast<int>(answer.value.messages.size());
            }
            QCOMPARE(pulled, 1);
            reader.shutdown();
        }
        {
            QSignalSpy loaded(view_->detailPane(), &ui::TopicDetailPane::loaded);
            view_->detailPane()->refresh();
            QVERIFY(loaded.wait(20000));
        }
        QTabWidget *tabs = view_->detailPane()->bottomTabs();
        ui::TrafficChart *chart = view_->detailPane()->trafficChart();
        QTest::mouseClick(tabs->tabBar(), Qt::LeftButton, {}, tabs->tabBar()->tabRect(tabs->indexOf(chart)).center());
        QCOMPARE(tabs->currentWidget(), chart);
        const auto rows = chart->rows();
        const auto readers = std::find_if(rows.begin(), rows.end(),
                                          [](const ui::TrafficChart::Row &row) { return row.label == QStringLiteral("DeskReaders"); });
        QVERIFY(readers != rows.end());
        QCOMPARE(readers->last24Hours, int64_t{1});
        QVERIFY(readers->bytes24Hours > 0);
        QVERIFY2(chart->summaryText().startsWith(QStringLiteral("Puts: ")), qPrintable(chart->summaryText()));
        saveScreenshot(*window_, QStringLiteral("topics-traffic-by-group"));
        QTest::mouseClick(tabs->tabBar(), Qt::LeftButton, {}, tabs->tabBar()->tabRect(0).center());

        // Ctrl+C copies the selected rows as text.
        activateWindow();
        view_->table()->setFocus();
        QTest::keyClick(view_->table(), Qt::Key_C, Qt::ControlModifier);
        const QString copied = QApplication::clipboard()->text();
        QVERIFY2(copied.contains(kTopic + QStringLiteral("\tnormal\tUNSPECIFIED\t6\t6\tRW-\t1")), qPrintable(copied));
        QVERIFY(copied.startsWith(QStringLiteral("Topic\t")));
    }

    void showsScheduledTimerMessagesOfAClickedTopic()
    {
        // Three RocketMQ 5 timer messages, due in about 2, 2 and 4 minutes.
        auto producer = window_->connection().producer();
        QVERIFY(producer);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        for (int i = 0; i < 3; ++i) {
            client::Message message;
            message.topic = kTopic.toStdString();
            message.keys = {"scheduled-" + std::to_string(i)};
            message.setBody("later");
            message.properties["TIMER_DELIVER_MS"] = std::to_string(now + (i == 2 ? 230000 : 110000));
            const auto sent = producer->send(message);
            QVERIFY2(sent.ok, sent.error.c_str());
        }
        activateWindow();
        view_->searchField()->clear();
        view_->kindFilter()->setCurrentIndex(0);
        QTableView *table = view_->table();
        const QModelIndex row = view_->filterModel()->mapFromSource(
            view_->topicModel()->index(view_->topicModel()->rowOf(kTopic), ui::TopicTableModel::NameColumn));
        QVERIFY(row.isValid());
        table->scrollTo(row);
        auto *summary = view_->detailPane()->findChild<QLabel *>(QStringLiteral("timerTimelineSummary"));
        auto *next = view_->detailPane()->findChild<QTableWidget *>(QStringLiteral("timerNextTable"));
        QVERIFY(summary && next);
        // Clicking the topic shows them (F5 again until the timer store has parked all three).
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(row).center());
        QTRY_COMPARE(view_->detailPane()->topic(), kTopic);
        QTRY_VERIFY_WITH_TIMEOUT((QTest::keyClick(table, Qt::Key_F5), QTest::qWait(300), next->rowCount() == 3), 20000);
        QVERIFY2(summary->text().startsWith(QStringLiteral("3 timer message(s) due in the next 60 minute(s)")),
                 qPrintable(summary->text()));
        QCOMPARE(next->item(0, 2)->text(), QStringLiteral("scheduled-0"));
        QCOMPARE(next->item(2, 2)->text(), QStringLiteral("scheduled-2"));
        QVERIFY(view_->detailPane()->findChild<QWidget *>(QStringLiteral("timerTimelineBars"))->isVisible());
        saveScreenshot(*window_, QStringLiteral("topics-timer-timeline"));
    }

    void editsTheQueueCount()
    {
        QVERIFY(view_->selectTopic(kTopic));
        view_->editSelectedTopic();
        auto *dialog = view_->findChild<TopicDialog *>();
        QVERIFY(dialog);
        QVERIFY(dialog->findChild<QLineEdit *>(QStringLiteral("topicName"))->isReadOnly());
        dialog->findChild<QSpinBox *>(QStringLiteral("readQueues"))->setValue(3);
        dialog->findChild<QSpinBox *>(QStringLiteral("writeQueues"))->setValue(3);
        QTest::mouseClick(dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(view_->topicModel()->topic(kTopic) && view_->topicModel()->topic(kTopic)->readQueues == 3,
                                 60000);
        QCOMPARE(view_->topicModel()->topic(kTopic)->writeQueues, 3);
        QVERIFY2(view_->bannerText().contains(QStringLiteral("saved")), qPrintable(view_->bannerText()));
    }

    // A person looks at the list, sorts it by clicking the Topic header (descending now) and
    // clicks a row; meanwhile a producer's admin creates a topic: it appears within the refresh
    // period without F5, and the clicked row, the sort, the detail and the scroll stay.
    void followsTopicsCreatedElsewhere()
    {
        activateWindow();
        view_->searchField()->clear();
        view_->kindFilter()->setCurrentIndex(0);
        QTableView *table = view_->table();
        QHeaderView *header = table->horizontalHeader();
        QCOMPARE(header->sortIndicatorSection(), int(ui::TopicTableModel::NameColumn));
        const Qt::SortOrder before = header->sortIndicatorOrder();
        const int nameX = header->sectionViewportPosition(ui::TopicTableModel::NameColumn)
                          + header->sectionSize(ui::TopicTableModel::NameColumn) / 2;
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(nameX, header->height() / 2));
        QCOMPARE(header->sortIndicatorSection(), int(ui::TopicTableModel::NameColumn));
        const Qt::SortOrder order = header->sortIndicatorOrder();
        QVERIFY(order != before);

        const QModelIndex row = view_->filterModel()->mapFromSource(
            view_->topicModel()->index(view_->topicModel()->rowOf(kTopic), ui::TopicTableModel::NameColumn));
        QVERIFY(row.isValid());
        table->scrollTo(row);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(row).center());
        QCOMPARE(view_->selectedTopic(), kTopic);
        QTRY_COMPARE(view_->detailPane()->topic(), kTopic);
        const int scroll = table->verticalScrollBar()->value();
        const int rowsBefore = view_->topicModel()->rowCount();

        const QString created = QStringLiteral("DeskLiveTopic");
        QSignalSpy loaded(view_, &TopicsView::topicsLoaded); // the live refresh is quiet
        client::ClientConfig config;
        config.namesrvAddr = window_->connection().namesrvAddress().toStdString();
        client::AdminClient admin(config);
        remoting::TopicConfigData topic;
        topic.topicName = created.toStdString();
        topic.readQueueNums = 2;
        topic.writeQueueNums = 2;
        const auto status = admin.api().createTopic(window_->brokerHost().brokerAddress().toStdString(), topic);
        admin.shutdown();
        QVERIFY2(status.ok, status.error.c_str());

        // Within one refresh period (plus the fetch itself), without F5.
        QVERIFY(mqdesk::test::runEventLoopUntil([&] { return view_->topicModel()->rowOf(created) >= 0; },
                                                TopicsView::kLiveRefreshMillis + 3000));
        QCOMPARE(loaded.count(), 0);
        QCOMPARE(view_->topicModel()->rowCount(), rowsBefore + 1);
        QCOMPARE(view_->selectedTopic(), kTopic);
        const QModelIndexList selected = table->selectionModel()->selectedRows(ui::TopicTableModel::NameColumn);
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.first().data().toString(), kTopic);
        QCOMPARE(header->sortIndicatorSection(), int(ui::TopicTableModel::NameColumn));
        QCOMPARE(header->sortIndicatorOrder(), order);
        for (int r = 1; r < view_->filterModel()->rowCount(); ++r) {
            const QString previous = view_->filterModel()->index(r - 1, 0).data().toString();
            const QString next = view_->filterModel()->index(r, 0).data().toString();
            QVERIFY2(order == Qt::DescendingOrder ? QString::compare(previous, next, Qt::CaseInsensitive) >= 0
                                                  : QString::compare(previous, next, Qt::CaseInsensitive) <= 0,
                     qPrintable(previous + QLatin1Char(' ') + next));
        }
        QCOMPARE(view_->detailPane()->topic(), kTopic);
        QCOMPARE(table->verticalScrollBar()->value(), scroll);
        saveScreenshot(*window_, QStringLiteral("topics-live"));

        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(nameX, header->height() / 2));
        QCOMPARE(header->sortIndicatorOrder(), before);
    }

    // While another page is shown the list is not fetched; showing the page again fetches it at
    // once (not a refresh period later).
    void fetchesOnlyWhileShown()
    {
        const int page = window_->pages()->indexOf(view_);
        window_->showView(page == 0 ? 1 : 0);
        QVERIFY(!view_->isVisible());
        QTest::qWait(300); // a live fetch started just before is answered
        const QString created = QStringLiteral("DeskWhileHidden");
        client::ClientConfig config;
        config.namesrvAddr = window_->connection().namesrvAddress().toStdString();
        client::AdminClient admin(config);
        remoting::TopicConfigData topic;
        topic.topicName = created.toStdString();
        topic.readQueueNums = 1;
        topic.writeQueueNums = 1;
        const auto status = admin.api().createTopic(window_->brokerHost().brokerAddress().toStdString(), topic);
        admin.shutdown();
        QVERIFY2(status.ok, status.error.c_str());
        QTest::qWait(TopicsView::kLiveRefreshMillis + 1000);
        QCOMPARE(view_->topicModel()->rowOf(created), -1);

        window_->showView(page);
        QVERIFY(mqdesk::test::runEventLoopUntil([&] { return view_->topicModel()->rowOf(created) >= 0; }, 3000));
    }

    // Nor while the window is minimised.
    void fetchesNothingWhileMinimised()
    {
        window_->showMinimized();
        QTRY_VERIFY(window_->isMinimized());
        QTest::qWait(300); // a live fetch started just before is answered
        const QString created = QStringLiteral("DeskWhileMinimised");
        client::ClientConfig config;
        config.namesrvAddr = window_->connection().namesrvAddress().toStdString();
        client::AdminClient admin(config);
        remoting::TopicConfigData topic;
        topic.topicName = created.toStdString();
        topic.readQueueNums = 1;
        topic.writeQueueNums = 1;
        const auto status = admin.api().createTopic(window_->brokerHost().brokerAddress().toStdString(), topic);
        admin.shutdown();
        QVERIFY2(status.ok, status.error.c_str());
        QTest::qWait(TopicsView::kLiveRefreshMillis + 1000);
        QCOMPARE(view_->topicModel()->rowOf(created), -1);

        window_->showNormal();
        QVERIFY(mqdesk::test::runEventLoopUntil([&] { return view_->topicModel()->rowOf(created) >= 0; },
                                                TopicsView::kLiveRefreshMillis + 3000));
        activateWindow();
    }

    void deletesAfterOneConfirmation()
    {
        QVERIFY(view_->selectTopic(kTopic));
        view_->deleteSelectedTopic();
        auto *box = view_->findChild<QMessageBox *>(QStringLiteral("deleteTopicConfirmation"));
        QVERIFY(box);
        QTRY_VERIFY(box->isVisible());
        QVERIFY(box->text().contains(kTopic));
        QTest::mouseClick(box->findChild<QPushButton *>(QStringLiteral("confirmDelete")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!view_->isLoading() && view_->topicModel()->topic(kTopic) == nullptr, 60000);
        QVERIFY2(view_->bannerText().contains(QStringLiteral("deleted")), qPrintable(view_->bannerText()));
        QVERIFY(view_->selectedTopic().isEmpty());
    }

    void showsAThousandTopicsAfterF5()
    {
        const int before = view_->topicModel()->rowCount();
        client::ClientConfig config;
        config.namesrvAddr = window_->connection().namesrvAddress().toStdString();
        client::AdminClient admin(config);
        const std::string broker = window_->brokerHost().brokerAddress().toStdString();
        for (int i = 0; i < 1000; ++i) {
            remoting::TopicConfigData topic;
            topic.topicName = "Scale" + std::to_string(10000 + i);
            topic.readQueueNums = 2;
            topic.writeQueueNums = 2;
            const auto status = admin.api().createTopic(broker, topic);
            QVERIFY2(status.ok, status.error.c_str());
        }
        admin.shutdown();

        activateWindow();
        view_->table()->setFocus();
        mqdesk::test::GuiStallMeter meter;
        QTest::keyClick(view_->table(), Qt::Key_F5);
        QVERIFY(view_->isLoading());
        QVERIFY(mqdesk::test::runEventLoopUntil([this] { return !view_->isLoading(); }, 60000));
        const qint64 shownMs = meter.elapsedMs();
        QCOMPARE(view_->topicModel()->rowCount(), before + 1000);
        mqdesk::test::scrollThrough(*view_->table());
        // Reported, not asserted (issue 6's targets: shown within 300 ms, no stall over 50 ms).
        qInfo().noquote() << QStringLiteral("scale: %1 topics shown %2 ms after F5; longest GUI-thread stall %3 ms "
                                            "(loading and scrolling through all rows)")
                                 .arg(view_->topicModel()->rowCount()).arg(shownMs).arg(meter.longestStallMs());
        QTest::keyClicks(view_->searchField(), QStringLiteral("Scale1"));
        QCOMPARE(view_->filterModel()->rowCount(), 1000);
        // Back to the top, as a person does after filtering at the end of a long list.
        QTest::keyClick(view_->table(), Qt::Key_Home, Qt::ControlModifier);
        // The rows on screen get their message counts; the others are not asked for.
        const QModelIndex first = view_->filterModel()->index(0, ui::TopicTableModel::MessagesColumn);
        QTRY_COMPARE_WITH_TIMEOUT(first.data().toString(), QStringLiteral("0"), 60000);
        saveScreenshot(*window_, QStringLiteral("topics-scale"));
        view_->searchField()->clear();
    }

    // A LITE parent topic (RocketMQ 5.5): its "Lite topics" tab, opened with the mouse, counts its
    // lite topics and lists its lite group's lite topics by lag; a topic of another type says why
    // it has none.
    void showsTheLiteTopicsOfALiteParent()
    {
        const std::string parent = "DeskLiteParent";
        const std::string group = "DeskLiteGroup";
        client::ClientConfig config;
        config.namesrvAddr = window_->connection().namesrvAddress().toStdString();
        client::AdminClient admin(config);
        remoting::TopicConfigData topic;
        topic.topicName = parent;
        topic.readQueueNums = topic.writeQueueNums = 2;
        topic.perm = 6;
        const client::Status created = admin.createTopic({}, topic, "+message.type=LITE");
        QVERIFY2(created.ok, created.error.c_str());
        topic.topicName = "DeskNotLite";
        const client::Status normal = admin.createTopic({}, topic);
        QVERIFY2(normal.ok, normal.error.c_str());
        client::SubscriptionGroupConfig liteGroup;
        liteGroup.groupName = group;
        liteGroup.attributeModifications = "+lite.bind.topic=" + parent;
        const client::Status grouped = admin.createSubscriptionGroup({}, liteGroup);
        QVERIFY2(grouped.ok, grouped.error.c_str());
        auto producer = window_->connection().producer();
        QVERIFY(producer);
        for (const auto &[lite, count] : {std::pair{"user-1", 3}, std::pair{"user-2", 1}}) {
            for (int i = 0; i < count; ++i) {
                client::Message message;
                message.topic = parent;
                message.setBody("for " + std::string(lite));
                message.properties["__LITE_TOPIC"] = lite;
                const auto sent = producer->send(message);
                QVERIFY2(sent.ok, sent.error.c_str());
            }
        }
        // The group has read one message of user-1 and none of user-2 yet.
        const std::string broker = window_->brokerHost().brokerAddress().toStdString();
        for (const auto &[lmq, offset] : {std::pair{"%LMQ%$DeskLiteParent$user-1", 1}, std::pair{"%LMQ%$DeskLiteParent$user-2", 0}}) {
            const auto committed = admin.api().updateConsumerOffset(broker, group, lmq, 0, offset);
            QVERIFY2(committed.ok, committed.error.c_str());
        }
        admin.shutdown();

        activateWindow();
        view_->searchField()->clear();
        view_->kindFilter()->setCurrentIndex(0);
        QTableView *table = view_->table();
        const auto clickTopic = [&](const QString &name) {
            if (view_->topicModel()->rowOf(name) < 0)
                QTest::keyClick(table, Qt::Key_F5);
            QTRY_VERIFY_WITH_TIMEOUT(view_->topicModel()->rowOf(name) >= 0, 20000);
            const QModelIndex row = view_->filterModel()->mapFromSource(
                view_->topicModel()->index(view_->topicModel()->rowOf(name), ui::TopicTableModel::NameColumn));
            QVERIFY(row.isValid());
            table->scrollTo(row);
            QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(row).center());
            QTRY_COMPARE(view_->detailPane()->topic(), name);
        };
        clickTopic(QString::fromStdString(parent));
        ui::TopicDetailPane *pane = view_->detailPane();
        QTabBar *tabs = pane->bottomTabs()->tabBar();
        const int liteTab = pane->bottomTabs()->indexOf(pane->liteTable()->parentWidget());
        QVERIFY(liteTab >= 0);
        QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(liteTab).center());
        QCOMPARE(pane->bottomTabs()->currentIndex(), liteTab);
        // The dispatcher indexes the lite messages shortly after the sends return: F5 until the
        // pane's answer has both lite topics.
        for (int attempt = 0; attempt < 20 && pane->liteTable()->rowCount() != 2; ++attempt) {
            QSignalSpy loaded(pane, &ui::TopicDetailPane::loaded);
            QTest::keyClick(table, Qt::Key_F5);
            QVERIFY(loaded.wait(20000));
        }
        QCOMPARE(pane->liteTable()->rowCount(), 2);
        QVERIFY2(pane->liteSummary().startsWith(QStringLiteral("2 lite topic(s)")), qPrintable(pane->liteSummary()));
        QVERIFY2(pane->liteSummary().contains(QStringLiteral("DeskLiteGroup (lag 3)")), qPrintable(pane->liteSummary()));
        QCOMPARE(pane->liteTable()->item(0, 1)->text(), QStringLiteral("user-1"));
        QCOMPARE(pane->liteTable()->item(0, 2)->text(), QStringLiteral("2"));
        QCOMPARE(pane->liteTable()->item(1, 1)->text(), QStringLiteral("user-2"));
        saveScreenshot(*window_, QStringLiteral("topics-lite"));

        clickTopic(QStringLiteral("DeskNotLite"));
        QTRY_VERIFY_WITH_TIMEOUT(pane->liteSummary().startsWith(QStringLiteral("Not a lite topic")), 20000);
        QCOMPARE(pane->liteTable()->rowCount(), 0);
    }

    void explainsAnEmptyViewWhenDisconnected()
    {
        window_->brokerHost().stop();
        QTRY_COMPARE_WITH_TIMEOUT(window_->brokerHost().state(), BrokerHost::State::Stopped, 60000);
        QTRY_VERIFY(view_->emptyStateText().contains(QStringLiteral("Not connected")));
        QCOMPARE(view_->topicModel()->rowCount(), 0);
        saveScreenshot(*window_, QStringLiteral("topics-disconnected"));
    }

private:
    // Shortcuts (F5, Ctrl+F, Ctrl+C) reach only the active window; offscreen, a closed dialog
    // does not hand activation back.
    void activateWindow()
    {
        window_->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(window_.get()));
    }

    QTemporaryDir storeDir_;
    std::unique_ptr<MainWindow> window_;
    TopicsView *view_ = nullptr;
};

QTEST_MAIN(TopicsViewTest)
#include "tst_topics_view.moc"
