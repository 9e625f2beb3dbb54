#pragma once

// Shared by the GUI tests: options for a real embedded broker on a temporary store (free
// ports, small files), screenshots saved in the build tree, the GUI-thread stall meter the
// scale tests report with, and choosing a combo item with the mouse or the keys as a person does.

#include "broker/server/embedded_broker.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QAbstractScrollArea>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QPushButton>
#include <QListWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QPixmap>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileDialog>
#include <QHash>
#include <QLineEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QString>
#include <QTimer>
#include <QWidget>
#include <QtTest/QtTest>

#include <algorithm>

namespace mqdesk::test {

inline server::EmbeddedBrokerOptions optionsFor(const QString &store, uint16_t namesrvPort = 0, int brokerPort = 0)
{
    server::EmbeddedBrokerOptions options;
    options.settings.store.storePathRootDir = store.toStdString();
    options.settings.store.listenPort = brokerPort;
    options.settings.store.mappedFileSizeCommitLog = 16 * 1024 * 1024;
    options.settings.store.maxIndexNum = 4000;
    options.settings.store.maxHashSlotNum = 1000;
    options.namesrvPort = namesrvPort;
    return options;
}

// The screenshots README.md shows, by the name the tests save them under: with MQDESK_WRITE_DOCS
// set, saveScreenshot also writes them to docs/images/, so the README shows the app as it is.
inline QString readmeImageOf(const QString &screenshot)
{
    static const QHash<QString, QString> images{{QStringLiteral("overview-brokers"), QStringLiteral("console-overview")},
                                                {QStringLiteral("flush-sync"), QStringLiteral("flush-monitor")},
                                                {QStringLiteral("explorer-record"), QStringLiteral("store-explorer")}};
    return images.value(screenshot);
}

// Saves `widget` as <build>/screenshots/<name>.png after pending layouts have run (a label that
// just changed, a banner just hidden).
inline void saveScreenshot(QWidget &widget, const QString &name)
{
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QCoreApplication::processEvents();
    const QString dir = QStringLiteral(QT_TESTCASE_BUILDDIR) + QStringLiteral("/screenshots");
    QDir().mkpath(dir);
    const QPixmap shot = widget.grab();
    QVERIFY(shot.save(dir + QLatin1Char('/') + name + QStringLiteral(".png")));
    if (const QString image = readmeImageOf(name); !image.isEmpty() && qEnvironmentVariableIsSet("MQDESK_WRITE_DOCS"))
        QVERIFY(shot.save(QStringLiteral(MQDESK_PROJECT_FIXTURES_DIR "/../../docs/images/") + image + QStringLiteral(".png")));
}

// How long the GUI thread went without running its event loop while the meter ran: a 5 ms
// timer on the GUI thread notes the longest gap between two of its ticks (minus the interval),
// which is the longest freeze a user would have felt. For reports only (timings are never
// asserted). Wait with runEventLoopUntil or QSignalSpy::wait while it runs: QTRY_* sleep 10 ms
// between event rounds and would be measured as stalls themselves.
class GuiStallMeter
{
public:
    GuiStallMeter()
    {
        timer_.setTimerType(Qt::PreciseTimer);
        timer_.setInterval(kIntervalMs);
        QObject::connect(&timer_, &QTimer::timeout, [this] {
            const qint64 now = clock_.elapsed();
            longest_ = std::max(longest_, now - lastTick_ - kIntervalMs);
            lastTick_ = now;
        });
        clock_.start();
        timer_.start();
    }
    qint64 longestStallMs() const { return std::max<qint64>(0, longest_); }
    qint64 elapsedMs() const { return clock_.elapsed(); }

private:
    static constexpr int kIntervalMs = 5;
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 lastTick_ = 0;
    qint64 longest_ = 0;
};

// Runs the event loop until `done()` holds or `timeoutMs` passes, without sleeping between
// events (unlike QTRY_*); returns done().
template <typename Predicate>
bool runEventLoopUntil(Predicate done, int timeoutMs)
{
    QEventLoop loop;
    QTimer poll;
    poll.setInterval(1);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done())
            loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    poll.start();
    if (!done())
        loop.exec();
    return done();
}

// Scrolls `view` from top to bottom a page at a time through the event loop, as a user dragging
// the scroll bar would (each step painted before the next).
inline void scrollThrough(QAbstractScrollArea &view)
{
    QScrollBar *bar = view.verticalScrollBar();
    for (int value = bar->minimum(); value <= bar->maximum(); value += std::max(1, bar->pageStep())) {
        bar->setValue(value);
        runEventLoopUntil([] { return false; }, 2);
    }
    bar->setValue(bar->minimum());
}

// Picks the item whose data is `value` from `combo`'s popup with the mouse, as a person does:
// a click opens the list, a click on the item chooses it.
inline void chooseWithMouse(QComboBox *combo, const QVariant &value)
{
    QTest::mouseClick(combo, Qt::LeftButton);
    QAbstractItemView *list = combo->view();
    QTRY_VERIFY(list->isVisible());
    const QModelIndex item = list->model()->index(combo->findData(value), 0);
    QVERIFY(item.isValid());
    list->scrollTo(item);
    const QPoint at = list->visualRect(item).center();
    // Qt's popup ignores a release that comes within a double-click interval of its opening (the
    // release of the click that opened it): a person's second click comes later than that.
    QTest::mouseMove(list->viewport(), at);
    QTest::qWait(QApplication::doubleClickInterval() + 50);
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualRect(item).center());
    QTRY_VERIFY(!list->isVisible());
    QCOMPARE(combo->currentData(), value);
}

// Moves `combo` to the item whose data is `value` with the arrow keys, as a person does once the
// combo has the keyboard focus.
inline void chooseWithKeys(QComboBox *combo, const QVariant &value)
{
    combo->setFocus(Qt::TabFocusReason);
    const int target = combo->findData(value);
    QVERIFY(target >= 0);
    for (int presses = 0; combo->currentIndex() != target && presses < combo->count(); ++presses)
        QTest::keyClick(combo, combo->currentIndex() < target ? Qt::Key_Down : Qt::Key_Up);
    QCOMPARE(combo->currentIndex(), target);
}

// Clicks row `row` of the main window's navigation list, as a person opening a page (in any
// language); false when there is no such row or the click did not select it.
inline bool clickNavigationRow(QWidget &window, int row)
{
    auto *list = window.findChild<QListWidget *>(QStringLiteral("navigation"));
    if (!list || row < 0 || row >= list->count())
        return false;
    QListWidgetItem *item = list->item(row);
    list->scrollToItem(item);
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(item).center());
    return list->currentItem() == item;
}

// Clicks the main window's navigation entry titled `title`, as a person opening a page; false
// when there is no such entry.
inline bool clickNavigation(QWidget &window, const QString &title)
{
    auto *list = window.findChild<QListWidget *>(QStringLiteral("navigation"));
    const auto items = list ? list->findItems(title, Qt::MatchExactly) : QList<QListWidgetItem *>();
    return !items.isEmpty() && clickNavigationRow(window, list->row(items.first()));
}

// Opens the menu titled `menuTitle` ("&Broker") of `window`'s menu bar with a click and clicks its
// item titled `itemText` ("S&top"), as a person does; true once the item's action ran, false when
// either is missing, the item is disabled or the click did not trigger it.
inline bool chooseMenuItem(QMainWindow &window, const QString &menuTitle, const QString &itemText)
{
    QMenuBar *bar = window.menuBar();
    QMenu *menu = nullptr;
    for (QAction *action : bar->actions())
        if (action->text() == menuTitle)
            menu = action->menu();
    if (!menu)
        return false;
    QTest::mouseClick(bar, Qt::LeftButton, {}, bar->actionGeometry(menu->menuAction()).center());
    if (!QTest::qWaitFor([menu] { return menu->isVisible(); }, 5000))
        return false;
    for (QAction *action : menu->actions()) {
        if (action->text() != itemText)
            continue;
        if (!action->isEnabled()) {
            menu->close();
            return false;
        }
        const QPoint at = menu->actionGeometry(action).center();
        QSignalSpy triggered(action, &QAction::triggered);
        QTest::mouseMove(menu, at);
        QTest::mouseClick(menu, Qt::LeftButton, {}, at);
        return QTest::qWaitFor([menu] { return !menu->isVisible(); }, 5000) && triggered.count() == 1;
    }
    menu->close();
    return false;
}

// Runs `act` on the modal dialog of type Dialog that the next click opens (exec() runs its own
// event loop), from `context`'s event loop; a dialog still open after twice `timeoutMs` is
// rejected so the test cannot hang.
template <typename Dialog, typename Act>
void whenDialogOpens(QObject *context, int timeoutMs, Act act)
{
    QTimer::singleShot(0, context, [act, timeoutMs] {
        Dialog *dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dialog = qobject_cast<Dialog *>(QApplication::activeModalWidget())), timeoutMs);
        QTRY_VERIFY(dialog->isVisible());
        act(dialog);
    });
    QTimer::singleShot(timeoutMs * 2, context, [] {
        if (auto *open = qobject_cast<QDialog *>(QApplication::activeModalWidget()))
            open->reject();
    });
}

// Clicks `opener` and, in the QFileDialog it opens, types `path` into the file name and presses
// Return, as a person does. Return is pressed again every 200 ms while the dialog stays open: on a
// loaded machine the dialog may not take the first one (its folder still being read), and a
// dialog that never closes would hang the test in its exec(). After `timeoutMs` the dialog is
// rejected, so the caller's wait for the outcome fails instead.
inline void saveThroughFileDialog(QWidget *opener, const QString &path, int timeoutMs = 30000)
{
    QTimer typer;
    typer.setInterval(50);
    QElapsedTimer since;
    since.start();
    QObject::connect(&typer, &QTimer::timeout, [&typer, &since, path, timeoutMs] {
        auto *dialog = qobject_cast<QFileDialog *>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        if (since.elapsed() > timeoutMs) {
            dialog->reject();
            return;
        }
        auto *name = dialog->findChild<QLineEdit *>(QStringLiteral("fileNameEdit"));
        if (!name || !name->isVisible())
            return;
        if (name->text() != path) {
            name->selectAll();
            QTest::keyClicks(name, path);
        }
        QTest::keyClick(name, Qt::Key_Return);
        typer.setInterval(200);
    });
    typer.start();
    QTest::mouseClick(opener, Qt::LeftButton); // returns once the dialog is closed
}

// Clicks `which` of the dialog's button box with the mouse (it must be enabled).
inline void clickDialogButton(QDialog *dialog, QDialogButtonBox::StandardButton which)
{
    auto *box = dialog->findChild<QDialogButtonBox *>();
    QVERIFY(box);
    QPushButton *pushed = box->button(which);
    QVERIFY(pushed && pushed->isEnabled());
    QTest::mouseClick(pushed, Qt::LeftButton);
}

} // namespace mqdesk::test
