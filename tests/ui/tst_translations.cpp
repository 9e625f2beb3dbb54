// The zh_CN translation is complete: (a) lupdate run over ui/ and app/mqdesk now finds no
// source text that translations/mqdesk_zh_CN.ts lacks or leaves unfinished, so a new tr()
// string without its translation fails here; (b) the real MainWindow, with the embedded
// translation loaded and a real embedded broker on a temporary store, shows no English source
// string in its labels, buttons, headers, menus, tabs, lists or toolbars on any page (also the
// Overview's brokers table rows, a group's lag chart tab and the flush monitor's broker picker);
// (c) so does the store explorer on each of its pages (records + hex, consume queue, index,
// checkpoint, config, health report) over a store written here with a Java broker's config.
// Screenshots of each page in Chinese are saved in the build tree (screenshots/zh-*.png).

#include "explorer/explorer_test_util.h"
#include "translation_test_util.h"
#include "ui_test_util.h"
#include "broker/client/producer.h"
#include "broker/client/pull_consumer.h"
#include "ui/access/access_view.h"
#include "ui/broker_host.h"
#include "ui/overview/broker_table_model.h"
#include "ui/overview/brokers_panel.h"
#include "ui/explorer/checkpoint_view.h"
#include "ui/explorer/config_files_view.h"
#include "ui/explorer/consume_queue_model.h"
#include "ui/explorer/consume_queue_view.h"
#include "ui/explorer/health_report_view.h"
#include "ui/explorer/index_file_view.h"
#include "ui/flush/flush_monitor_view.h"
#include "ui/groups/group_table_model.h"
#include "ui/groups/groups_view.h"
#include "ui/groups/lag_chart.h"
#include "ui/language.h"
#include "ui/main_window.h"
#include "ui/overview/overview_view.h"
#include "ui/topics/topic_table_model.h"
#include "ui/topics/topics_view.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTabWidget>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTabBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace mqdesk;
using mqdesk::ui::BrokerHost;
using mqdesk::ui::MainWindow;

using mqdesk::test::changedSources;
using mqdesk::test::englishIn;
using mqdesk::test::Message;
using mqdesk::test::optionsFor;
using mqdesk::test::readTs;
using mqdesk::test::saveScreenshot;
using mqdesk::test::visibleTexts;

namespace {

constexpr int kTimeout = 30000; // ms: generous for a loaded machine, never a measured figure

template <typename View>
View *viewOf(MainWindow &window)
{
    return window.pages()->findChild<View *>();
}

// Sends `count` messages to ZhTopic and leaves the pull group GID_ZH with offset 0 committed on
// every queue: a group with lag for the Consumer groups page and its lag chart.
bool makeGroupWithLag(const QString &namesrv, int count)
{
    client::ClientConfig config;
    config.namesrvAddr = namesrv.toStdString();
    config.instanceName = "translations-test";
    client::ProducerOptions producerOptions;
    producerOptions.group = "PG_ZH";
    client::Producer producer(config, producerOptions);
    if (!producer.start().ok)
        return false;
    for (int i = 0; i < count; ++i) {
        client::Message message;
        message.topic = "ZhTopic";
        message.setBody("zh " + std::to_string(i));
        if (!producer.send(message).ok)
            return false;
    }
    client::PullConsumerOptions consumerOptions;
    consumerOptions.group = "GID_ZH";
    client::PullConsumer consumer(config, consumerOptions);
    if (!consumer.subscribe("ZhTopic").ok || !consumer.start().ok)
        return false;
    const auto queues = consumer.fetchSubscribeMessageQueues("ZhTopic");
    if (!queues.ok)
        return false;
    for (const auto &queue : queues.value)
        if (!consumer.updateConsumeOffset(queue, 0).ok)
            return false;
    consumer.shutdown();
    return true;
}

} // namespace

class TranslationsTest : public QObject
{
    Q_OBJECT

private slots:
    void everySourceTextIsTranslated();
    void mainWindowShowsChinese();
    void explorerShowsChinese();

private:
    // Fails (QVERIFY2) when `window` shows an English source text; `what` names the page.
    bool noEnglishIn(QMainWindow &window, const QString &what, const QStringList &more = {});
    bool loadTranslations();

    std::map<QString, Message> translations_;
    QSet<QString> english_;
};

bool TranslationsTest::loadTranslations()
{
    if (!english_.isEmpty())
        return true;
    [&] {
        QVERIFY2(ui::installTranslators(*qApp, ui::kChinese), "the embedded :/i18n/mqdesk_zh_CN.qm did not load");
        if (translations_.empty()) {
            QString error;
            translations_ = readTs(QStringLiteral(MQDESK_SOURCE_DIR "/translations/mqdesk_zh_CN.ts"), error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
        }
        // The English texts that the translation changes: none may be left on screen.
        english_ = changedSources(translations_);
    }();
    return !english_.isEmpty() && !QTest::currentTestFailed();
}

bool TranslationsTest::noEnglishIn(QMainWindow &window, const QString &what, const QStringList &more)
{
    const QStringList left = englishIn(visibleTexts(window) + more, english_);
    [&] {
        QVERIFY2(left.isEmpty(), qPrintable(QStringLiteral("%1 still shows English: %2").arg(what, left.join(QStringLiteral(" | ")))));
    }();
    return left.isEmpty();
}

void TranslationsTest::everySourceTextIsTranslated()
{
    const QString lupdate = QStringLiteral(MQDESK_LUPDATE);
    if (lupdate.isEmpty() || !QFile::exists(lupdate))
        QFAIL("lupdate was not found when CMake configured the tests: install qt6-l10n-tools "
              "(scripts/install-deps.sh) and configure again");
    const QString source = QStringLiteral(MQDESK_SOURCE_DIR);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString extracted = dir.filePath(QStringLiteral("extracted.ts"));
    QProcess process;
    process.setWorkingDirectory(source);
    process.setProcessChannelMode(QProcess::MergedChannels);
    // -I .: the headers' namespaces give the contexts tr() uses at run time (mqdesk::ui::…).
    process.start(lupdate, {QStringLiteral("-I"), source, source + QStringLiteral("/ui"),
                            source + QStringLiteral("/app/mqdesk"), QStringLiteral("-ts"), extracted,
                            QStringLiteral("-locations"), QStringLiteral("none"), QStringLiteral("-no-obsolete")});
    QVERIFY2(process.waitForFinished(120000), qPrintable(process.errorString()));
    QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0,
             qPrintable(QString::fromLocal8Bit(process.readAll())));

    QString error;
    const auto found = readTs(extracted, error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(found.size() > 300, qPrintable(QStringLiteral("lupdate found only %1 texts").arg(found.size())));
    translations_ = readTs(source + QStringLiteral("/translations/mqdesk_zh_CN.ts"), error);
    QVERIFY2(error.isEmpty(), qPrintable(error));

    QStringList missing;
    for (const auto &[key, message] : found) {
        const auto it = translations_.find(key);
        if (it == translations_.end())
            missing << QStringLiteral("%1: \"%2\" (not in the .ts)").arg(message.context, message.source);
        else if (!it->second.finished)
            missing << QStringLiteral("%1: \"%2\" (unfinished)").arg(message.context, message.source);
    }
    QVERIFY2(missing.isEmpty(),
             qPrintable(QStringLiteral("%1 source text(s) lack a finished zh_CN translation; run lupdate "
                                       "(see translations/README.md) and translate them:\n  ")
                            .arg(missing.size()) +
                        missing.join(QStringLiteral("\n  "))));
    // And the .ts keeps nothing unfinished or vanished.
    QStringList stale;
    for (const auto &[key, message] : translations_)
        if (!message.finished)
            stale << message.context + QStringLiteral(": ") + message.source;
    QVERIFY2(stale.isEmpty(), qPrintable(stale.join(QLatin1Char('\n'))));
}

void TranslationsTest::mainWindowShowsChinese()
{
    QVERIFY(loadTranslations());
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    MainWindow window(optionsFor(dir.filePath(QStringLiteral("store"))));
    window.resize(1280, 800);
    window.show();
    QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Running, 60000);
    QVERIFY(makeGroupWithLag(window.brokerHost().namesrvAddress(), 20));

    auto *overview = viewOf<ui::OverviewView>(window);
    auto *groups = viewOf<ui::GroupsView>(window);
    auto *flush = viewOf<ui::FlushMonitorView>(window);
    QVERIFY(overview && groups && flush);
    auto *topics = viewOf<ui::TopicsView>(window);
    auto *access = viewOf<ui::AccessView>(window);
    QVERIFY(topics && access);
    const char *screenshots[] = {"zh-overview", "zh-topics", "zh-groups", "zh-messages", "zh-flush", "zh-access"};
    QCOMPARE(window.pages()->count(), int(std::size(screenshots)));
    for (int index = 0; index < window.pages()->count(); ++index) {
        // Opened as a person does, with a click on the navigation; then each page's data waited
        // for by what it shows, not by a fixed time.
        QSignalSpy accessListed(access, &ui::AccessView::accessLoaded);
        QVERIFY(test::clickNavigationRow(window, index));
        QWidget *page = window.pages()->currentWidget();
        QCOMPARE(window.pages()->currentIndex(), index);
        QStringList more;
        if (page == overview) {
            // The brokers table: its row (role, uptime, disk use) as well as its headers.
            ui::BrokerTableModel &brokers = *overview->brokers()->model();
            QTRY_VERIFY_WITH_TIMEOUT(brokers.rowCount() > 0, kTimeout);
            more = test::cellTexts(brokers, brokers.rowCount());
        } else if (page == topics) {
            QTRY_VERIFY_WITH_TIMEOUT(topics->topicModel()->rowCount() > 0, kTimeout);
        } else if (page == groups) {
            QTRY_VERIFY_WITH_TIMEOUT(groups->groupModel()->rowCount() > 0, kTimeout);
        } else if (page == flush) {
            QTRY_VERIFY_WITH_TIMEOUT(!flush->brokerAddress().isEmpty() && flush->pointCount() >= 2, kTimeout); // a line to draw
        } else if (page == access) {
            QVERIFY(accessListed.count() > 0 || accessListed.wait(kTimeout));
        }
        QVERIFY(noEnglishIn(window, QStringLiteral("page %1").arg(index), more));
        // A translated page shows Chinese: the navigation and the page's own texts.
        const QString all = visibleTexts(window).join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QStringLiteral("概览")) && all.contains(QStringLiteral("刷盘监控")), qPrintable(all));
        saveScreenshot(window, QString::fromLatin1(screenshots[index]));
    }

    // The Consumer groups page with a group selected: its queues, then its lag chart tab —
    // opened, refreshed (F5), selected and switched with clicks and keys.
    QVERIFY(test::clickNavigationRow(window, window.pages()->indexOf(groups)));
    for (int attempt = 0; attempt < 20 && groups->groupModel()->rowOf("GID_ZH") < 0; ++attempt) {
        QSignalSpy listed(groups, &ui::GroupsView::groupsLoaded);
        QTest::keyClick(groups->groupTable(), Qt::Key_F5);
        QVERIFY(listed.wait(kTimeout));
    }
    QVERIFY(groups->groupModel()->rowOf("GID_ZH") >= 0);
    QSignalSpy detail(groups, &ui::GroupsView::detailLoaded);
    QTableView *groupTable = groups->groupTable();
    const QModelIndex groupRow = groups->groupProxy()->mapFromSource(
        groups->groupModel()->index(groups->groupModel()->rowOf("GID_ZH"), ui::GroupTableModel::NameColumn));
    groupTable->scrollTo(groupRow);
    QTest::mouseClick(groupTable->viewport(), Qt::LeftButton, {}, groupTable->visualRect(groupRow).center());
    QVERIFY(detail.wait(kTimeout));
    QVERIFY(noEnglishIn(window, QStringLiteral("the selected group"), test::cellTexts(*groups->groupModel(), 50)));
    saveScreenshot(window, QStringLiteral("zh-groups-detail"));
    ui::LagChart *chart = groups->lagChart();
    QVERIFY(chart);
    QTabBar *tabs = groups->detailTabs()->tabBar();
    QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(groups->detailTabs()->indexOf(chart)).center());
    QCOMPARE(groups->detailTabs()->currentWidget(), chart);
    QTRY_VERIFY_WITH_TIMEOUT(!chart->isLoading() && !chart->points().empty(), kTimeout);
    QVERIFY(noEnglishIn(window, QStringLiteral("the lag chart"), {chart->statusText()}));
    saveScreenshot(window, QStringLiteral("zh-groups-lag-chart"));
    window.close();
}

void TranslationsTest::explorerShowsChinese()
{
    QVERIFY(loadTranslations());
    // A store MessageStore writes (records, consume queues, index, checkpoint) with the config
    // files of a Java broker (study-2019) copied in.
    test::WrittenStore written;
    QVERIFY(written.write());
    const QString javaConfig = QStringLiteral(MQDESK_FIXTURES_DIR "/study-2019/config");
    QVERIFY(QDir().mkpath(written.root + QStringLiteral("/config")));
    for (const QString &name : QDir(javaConfig).entryList(QDir::Files))
        QVERIFY(QFile::copy(javaConfig + QLatin1Char('/') + name, written.root + QStringLiteral("/config/") + name));

    auto window = test::openWindow(written.root);
    QVERIFY(window && window->isOpen());
    window->resize(1280, 800);
    ui::StoreFileModel &files = *window->fileModel();

    // Records + the selected record's fields and hex.
    QVERIFY(test::waitForFirstPage(*window));
    window->commitLogView()->table()->selectRow(1);
    QVERIFY(test::waitForRecordView(*window->commitLogView()->recordView()));
    QVERIFY(noEnglishIn(*window, QStringLiteral("the explorer's records"),
                        test::cellTexts(*window->commitLogView()->model(), 20)));
    saveScreenshot(*window, QStringLiteral("zh-explorer-records"));

    // A consume queue.
    window->fileTree()->setCurrentIndex(files.indexOfQueue(QStringLiteral("T"), 1));
    ui::ConsumeQueueView &queue = *window->consumeQueueView();
    QCOMPARE(window->pages()->currentWidget(), static_cast<QWidget *>(&queue));
    QTRY_VERIFY_WITH_TIMEOUT(queue.model()->rowCount() > 0, test::kWait);
    QVERIFY(noEnglishIn(*window, QStringLiteral("the explorer's consume queue"), test::cellTexts(*queue.model(), 20)));
    saveScreenshot(*window, QStringLiteral("zh-explorer-consume-queue"));

    // An index file: its entries, slot occupancy and a key lookup.
    const QString indexFile = files.node(files.index(0, 0, files.indexOfPath(QStringLiteral("index"))))->relativePath;
    window->showLocation({indexFile, 0});
    ui::IndexFileView *index = window->indexView();
    QVERIFY(index);
    QTRY_COMPARE_WITH_TIMEOUT(QStringLiteral("index/") + index->selectedFile(), indexFile, test::kWait);
    QTRY_VERIFY_WITH_TIMEOUT(!index->isLoading(), test::kWait);
    for (int tab = 0; tab < index->tabs()->count(); ++tab) {
        index->tabs()->setCurrentIndex(tab);
        QWidget *page = index->tabs()->currentWidget();
        const QString name = page->isAncestorOf(index->chainTable())   ? QStringLiteral("lookup")
                             : page->isAncestorOf(index->entryTable()) ? QStringLiteral("entries")
                                                                       : QStringLiteral("occupancy");
        if (page->isAncestorOf(index->chainTable())) {
            QSignalSpy found(index, &ui::IndexFileView::lookupFinished);
            index->lookUp(QStringLiteral("T"), QStringLiteral("k7"));
            QVERIFY(found.wait(test::kWait));
            QVERIFY(noEnglishIn(*window, QStringLiteral("the index lookup"),
                                test::cellTexts(*index->chainModel(), 20) << index->lookupSummary()));
        } else {
            QTest::qWait(300); // the occupancy chart is drawn off the GUI thread
            QVERIFY(noEnglishIn(*window, QStringLiteral("the index ") + name));
        }
        saveScreenshot(*window, QStringLiteral("zh-explorer-index-") + name);
    }

    // The checkpoint with the abort file and lock.
    window->showLocation({QStringLiteral("checkpoint"), 0});
    QCOMPARE(window->pages()->currentWidget(), static_cast<QWidget *>(window->checkpointView()));
    QTRY_VERIFY_WITH_TIMEOUT(!window->checkpointView()->isLoading(), test::kWait);
    QVERIFY(noEnglishIn(*window, QStringLiteral("the explorer's checkpoint")));
    saveScreenshot(*window, QStringLiteral("zh-explorer-checkpoint"));

    // The config files: the Java broker's subscription groups as a table.
    window->fileTree()->setCurrentIndex(files.indexOfPath(QStringLiteral("config/subscriptionGroup.json")));
    QCOMPARE(window->pages()->currentWidget(), static_cast<QWidget *>(window->configView()));
    QTRY_COMPARE_WITH_TIMEOUT(window->configView()->selectedFile(), QStringLiteral("subscriptionGroup.json"), test::kWait);
    QVERIFY(noEnglishIn(*window, QStringLiteral("the explorer's config")));
    saveScreenshot(*window, QStringLiteral("zh-explorer-config"));

    // Tools ▸ Verify Store: the health report.
    window->verifyStore();
    QCOMPARE(window->pages()->currentWidget(), static_cast<QWidget *>(window->healthView()));
    QTRY_VERIFY_WITH_TIMEOUT(!window->healthView()->isRunning(), test::kWait);
    QVERIFY(noEnglishIn(*window, QStringLiteral("the explorer's health report"),
                        {window->healthView()->summaryText(), window->healthView()->bannerText()}));
    saveScreenshot(*window, QStringLiteral("zh-explorer-health"));
    window.reset();
}

QTEST_MAIN(TranslationsTest)
#include "tst_translations.moc"
