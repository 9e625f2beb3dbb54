// TablePage and Banner (ui/widgets) as a person meets them: keys and clicks on a real page
// over a real model, asserting what the screen and the clipboard then hold.

#include "ui/widgets/banner.h"
#include "ui/widgets/table_page.h"
#include "ui/widgets/table_text.h"

#include "tests/ui/ui_test_util.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace mqdesk;

namespace {

QStandardItemModel *makeModel(QObject *parent)
{
    auto *model = new QStandardItemModel(0, 2, parent);
    model->setHorizontalHeaderLabels({QStringLiteral("Name"), QStringLiteral("Queues")});
    for (const auto &[name, queues] : std::initializer_list<std::pair<const char *, int>>{
             {"TopicB", 4}, {"TopicA", 8}, {"Topic,C", 2}}) {
        model->appendRow({new QStandardItem(QString::fromLatin1(name)), new QStandardItem(QString::number(queues))});
    }
    return model;
}

ui::TablePage::Options options()
{
    return {QStringLiteral("Filter (Ctrl+F)"), QStringLiteral("Fetch again (F5)"), QStringLiteral("rows.csv"),
            QStringLiteral("test")};
}

} // namespace

class TablePageTest : public QObject
{
    Q_OBJECT

private slots:
    void keysAndButtonsReachThePage()
    {
        ui::TablePage page(options());
        page.setModel(makeModel(&page));
        page.resize(600, 400);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QSignalSpy refresh(&page, &ui::TablePage::refreshRequested);

        QTest::keyClick(page.table(), Qt::Key_F5);
        QCOMPARE(refresh.count(), 1);
        QTest::mouseClick(page.refreshButton(), Qt::LeftButton);
        QCOMPARE(refresh.count(), 2);

        QTest::keyClick(page.table(), Qt::Key_F, Qt::ControlModifier);
        QTRY_VERIFY(page.findField()->hasFocus());
        QTest::keyClicks(page.findField(), QStringLiteral("abc"));
        QCOMPARE(page.findField()->text(), QStringLiteral("abc"));
        test::saveScreenshot(page, QStringLiteral("widgets-table-page"));
    }

    void clickedRowsAreCopiedWithTheirTitles()
    {
        ui::TablePage page(options());
        page.setModel(makeModel(&page));
        page.table()->sortByColumn(0, Qt::AscendingOrder);
        page.resize(600, 400);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QTableView *table = page.table();
        // Sorted by name: "Topic,C", "TopicA", "TopicB".
        const QRect second = table->visualRect(table->model()->index(1, 0));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, second.center());
        QApplication::clipboard()->clear();
        QTest::keyClick(table, Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("Name\tQueues\nTopicA\t8\n"));

        // The context menu holds Copy and Export CSV…
        QStringList menu;
        for (QAction *action : table->actions())
            menu << action->text();
        QCOMPARE(menu, QStringList({QStringLiteral("Copy"), QStringLiteral("Export CSV…")}));
    }

    // Ctrl+Home and Ctrl+End show the first and last rows, also when the current row already is
    // the first one but scrolled out of sight (what a filter can leave behind).
    void ctrlHomeAndEndShowTheEdgesOfTheList()
    {
        ui::TablePage page(options());
        auto *model = new QStandardItemModel(0, 1, &page);
        for (int i = 0; i < 200; ++i)
            model->appendRow(new QStandardItem(QStringLiteral("Row%1").arg(i, 3, 10, QLatin1Char('0'))));
        page.setModel(model);
        page.resize(600, 300);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QTableView *table = page.table();
        table->setFocus();
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(model->index(0, 0)).center());
        QCOMPARE(table->currentIndex().row(), 0);
        // The wheel scrolls without moving the current row.
        for (int i = 0; i < 3; ++i) {
            QWheelEvent wheel(QPointF(50, 50), table->viewport()->mapToGlobal(QPointF(50, 50)), {}, {0, -120},
                              Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
            QApplication::sendEvent(table->viewport(), &wheel);
        }
        QVERIFY(table->rowAt(0) > 0);
        QTest::keyClick(table, Qt::Key_Home, Qt::ControlModifier);
        QCOMPARE(table->rowAt(0), 0);
        QTest::keyClick(table, Qt::Key_End, Qt::ControlModifier);
        QCOMPARE(table->currentIndex().row(), 199);
        QVERIFY(table->viewport()->rect().contains(table->visualRect(model->index(199, 0))));
    }

    void emptyStateTakesTheTablesPlace()
    {
        ui::TablePage page(options());
        page.setModel(makeModel(&page));
        page.resize(600, 400);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(page.table()->isVisible());
        page.setEmptyText(QStringLiteral("Nothing here yet: create one."));
        QCOMPARE(page.emptyText(), QStringLiteral("Nothing here yet: create one."));
        QTRY_VERIFY(!page.table()->isVisible());
        test::saveScreenshot(page, QStringLiteral("widgets-table-page-empty"));
        page.setEmptyText({});
        QVERIFY(page.emptyText().isEmpty());
        QTRY_VERIFY(page.table()->isVisible());
    }

    void bannerShowsWhatHappenedAndHidesWhenCleared()
    {
        ui::TablePage page(options());
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        ui::Banner *banner = page.banner();
        QVERIFY(banner->shownText().isEmpty());
        banner->report(QStringLiteral("Topic T was not created: no route"), ui::Banner::Tone::Error);
        QTRY_VERIFY(banner->isVisible());
        QCOMPARE(banner->shownText(), QStringLiteral("Topic T was not created: no route"));
        QVERIFY(banner->isError());
        banner->clearReport();
        QVERIFY(!banner->isVisible());
        QVERIFY(banner->shownText().isEmpty());
    }

    void liveRefreshOnlyWhileShown()
    {
        ui::TablePage page(options());
        QSignalSpy due(&page, &ui::TablePage::liveRefreshDue);
        page.startLiveRefresh(50);
        QTest::qWait(200);
        QCOMPARE(due.count(), 0); // never shown
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QTRY_VERIFY(due.count() >= 2); // on show, then every interval
        page.hide();
        QTest::qWait(100);
        const int whileHidden = static_cast<int>(due.count());
        QTest::qWait(200);
        QCOMPARE(due.count(), whileHidden);
        page.show();
        QTRY_VERIFY(due.count() > whileHidden); // shown again: at once
    }

    void exportWritesEveryRowAsCsv()
    {
        // The context menu's Export CSV… asks for a file; the writer behind it is table_text's.
        ui::TablePage page(options());
        page.setModel(makeModel(&page));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("rows.csv"));
        QVERIFY(ui::writeTableCsv(*page.table()->model(), path));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("Name,Queues\r\nTopicB,4\r\nTopicA,8\r\n\"Topic,C\",2\r\n"));
    }
};

QTEST_MAIN(TablePageTest)
#include "tst_table_page.moc"
