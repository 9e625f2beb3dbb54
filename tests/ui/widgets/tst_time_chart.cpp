// TimeChart (ui/widgets/time_chart.h), the graph the flush monitor and the lag chart share, as a
// person uses it: the window chosen with the keys, Pause clicked, the wheel turned over one
// graph, the pointer held over a point; asserting what the axes then show.

#include "ui/widgets/time_chart.h"

#include "tests/ui/ui_test_util.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace mqdesk;

class TimeChartTest : public QObject
{
    Q_OBJECT

private:
    // Two rects, one graph each, a point a second over the last ten minutes before `now`.
    static void fill(ui::TimeChart &chart, double now)
    {
        chart.setWindowChoices({{QStringLiteral("1 min"), 60}, {QStringLiteral("5 min"), 300}}, 300);
        for (const QString &label : {QStringLiteral("first"), QStringLiteral("second")}) {
            QCPAxisRect *rect = chart.addRect(label);
            QCPGraph *graph = chart.addGraph(rect, chart.valueAxis(rect), label, QPen(Qt::blue));
            for (int i = 600; i >= 0; --i)
                graph->addData(now - i, 100 + i % 7);
            chart.valueAxis(rect)->setRange(0, 200);
        }
    }

private slots:
    void followsTheChosenWindowInEveryRect()
    {
        ui::TimeChart chart(QStringLiteral("test"));
        const double now = 1.7e9;
        fill(chart, now);
        chart.resize(700, 500);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.followLatest(now);
        for (QCPAxisRect *rect : chart.rects())
            QCOMPARE(chart.timeAxis(rect)->range().lower, now - 300);

        auto *box = chart.findChild<QComboBox *>(QStringLiteral("testWindowBox"));
        QSignalSpy changed(&chart, &ui::TimeChart::windowChanged);
        test::chooseWithKeys(box, 60);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.first().first().toInt(), 60);
        chart.followLatest(now);
        for (QCPAxisRect *rect : chart.rects())
            QCOMPARE(chart.timeAxis(rect)->range().lower, now - 60);
        test::saveScreenshot(chart, QStringLiteral("widgets-time-chart"));
    }

    void pauseStopsFollowingUntilResumed()
    {
        ui::TimeChart chart(QStringLiteral("test"));
        const double now = 1.7e9;
        fill(chart, now);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.followLatest(now);
        auto *pause = chart.findChild<QPushButton *>(QStringLiteral("testPauseButton"));
        QSignalSpy paused(&chart, &ui::TimeChart::pausedChanged);
        QTest::mouseClick(pause, Qt::LeftButton);
        QVERIFY(chart.isPaused());
        QCOMPARE(pause->text(), QStringLiteral("Resume"));
        chart.followLatest(now + 100); // a sample arrives: the paused axis stays
        QCOMPARE(chart.timeAxis(chart.rects().first())->range().lower, now - 300);
        QTest::mouseClick(pause, Qt::LeftButton);
        QVERIFY(!chart.isPaused());
        QCOMPARE(paused.count(), 2);
        QCOMPARE(paused.last().first().toBool(), false);
        chart.followLatest(now + 100);
        QCOMPARE(chart.timeAxis(chart.rects().first())->range().lower, now + 100 - 300);
    }

    void wheelZoomOnOneRectMovesAllAndIsFollowed()
    {
        ui::TimeChart chart(QStringLiteral("test"));
        const double now = 1.7e9;
        fill(chart, now);
        chart.resize(700, 500);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.followLatest(now);
        chart.plot()->replot();
        QSignalSpy visible(&chart, &ui::TimeChart::visibleRangeChanged);
        QCPAxisRect *first = chart.rects().first();
        const QPoint centre = first->rect().center();
        // A person turns the wheel forward over the upper graph: it zooms in.
        QWheelEvent wheel(centre, chart.plot()->mapToGlobal(centre), QPoint(), QPoint(0, 240), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(chart.plot(), &wheel);
        QVERIFY(visible.count() >= 1);
        const QCPRange zoomed = chart.timeAxis(first)->range();
        QVERIFY2(zoomed.size() < 300, qPrintable(QString::number(zoomed.size())));
        QCOMPARE(chart.timeAxis(chart.rects().last())->range().size(), zoomed.size());
        QCOMPARE(chart.followedSeconds(), std::max(5.0, zoomed.size()));
        chart.followLatest(now + 10); // the zoomed width is followed
        QVERIFY(std::abs(chart.timeAxis(first)->range().lower - (now + 10 - chart.followedSeconds())) < 1e-6);
    }

    void markersCrossEveryRectAndHoverAsksTheOwner()
    {
        ui::TimeChart chart(QStringLiteral("test"));
        const double now = 1.7e9;
        fill(chart, now);
        chart.resize(700, 500);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.followLatest(now);
        chart.addMarker(now - 100, QStringLiteral("SYNC_FLUSH"), QPen(Qt::red));
        chart.addMarker(now - 50, QStringLiteral("restart"), QPen(Qt::red));
        QCOMPARE(chart.markerCount(), 2);
        // Per marker a line in each of the two rects and one label.
        QCOMPARE(chart.plot()->itemCount(), 2 * 3);
        chart.plot()->replot();

        double asked = 0;
        chart.setHoverText([&asked](QCPAxisRect *, double seconds) {
            asked = seconds;
            return QStringLiteral("value");
        });
        QCPAxisRect *second = chart.rects().last();
        const QPoint at = second->rect().center();
        QTest::mouseMove(chart.plot(), at);
        QTRY_VERIFY(asked != 0);
        QVERIFY(std::abs(asked - chart.timeAxis(second)->pixelToCoord(at.x())) < 1);
        chart.clear();
        QCOMPARE(chart.markerCount(), 0);
        QCOMPARE(chart.plot()->itemCount(), 0);
    }

    void exportsAPng()
    {
        ui::TimeChart chart(QStringLiteral("test"));
        fill(chart, 1.7e9);
        chart.resize(400, 300);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("chart.png"));
        QString error;
        QVERIFY2(chart.exportPng(path, &error), qPrintable(error));
        QVERIFY(QImage(path).width() > 0);
        QVERIFY(!chart.exportPng(dir.filePath(QStringLiteral("no/such/dir/chart.png")), &error));
        QVERIFY(error.contains(QStringLiteral("no/such/dir")));
    }
};

QTEST_MAIN(TimeChartTest)
#include "tst_time_chart.moc"
