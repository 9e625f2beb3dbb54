// The zh_CN translation is complete: (a) lupdate run over ui/ and app/mqdesk now finds no
// source text that translations/mqdesk_zh_CN.ts lacks or leaves unfinished, so a new tr()
// string without its translation fails here; (b) the real MainWindow, with the embedded
// translation loaded and a real embedded broker on a temporary store, shows no English source
// string in its labels, buttons, headers, menus, tabs, lists or toolbars on any page.
// Screenshots of each page in Chinese are saved in the build tree (screenshots/zh-*.png).

#include "ui_test_util.h"
#include "ui/broker_host.h"
#include "ui/language.h"
#include "ui/main_window.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStackedWidget>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <QXmlStreamReader>

#include <map>

using namespace mqdesk;
using mqdesk::ui::BrokerHost;
using mqdesk::ui::MainWindow;

using mqdesk::test::optionsFor;
using mqdesk::test::saveScreenshot;

namespace {

struct Message {
    QString context;
    QString source;
    QString translation; // the first form for plurals
    bool finished = false;
};

// The messages of a .ts file by context, source and comment.
std::map<QString, Message> readTs(const QString &path, QString &error)
{
    std::map<QString, Message> messages;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        error = path + QStringLiteral(": ") + file.errorString();
        return messages;
    }
    QXmlStreamReader xml(&file);
    QString context;
    Message message;
    QString comment;
    bool inMessage = false;
    bool allFormsFilled = true;
    bool numerus = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const auto name = xml.name();
            if (name == QStringLiteral("name") && !inMessage) {
                context = xml.readElementText();
            } else if (name == QStringLiteral("message")) {
                inMessage = true;
                message = Message{context, {}, {}, false};
                numerus = xml.attributes().value(QStringLiteral("numerus")) == QStringLiteral("yes");
                comment.clear();
                allFormsFilled = true;
            } else if (name == QStringLiteral("source")) {
                message.source = xml.readElementText();
            } else if (name == QStringLiteral("comment")) {
                comment = xml.readElementText();
            } else if (name == QStringLiteral("translation")) {
                const QString type = xml.attributes().value(QStringLiteral("type")).toString();
                message.finished = type.isEmpty();
                if (!numerus)
                    message.translation = xml.readElementText();
            } else if (name == QStringLiteral("numerusform")) {
                const QString form = xml.readElementText();
                allFormsFilled = allFormsFilled && !form.isEmpty();
                if (message.translation.isEmpty())
                    message.translation = form;
            }
        } else if (xml.isEndElement() && xml.name() == QStringLiteral("message")) {
            message.finished = message.finished && allFormsFilled && !message.translation.isEmpty();
            messages[message.context + QChar(0x1f) + message.source + QChar(0x1f) + comment] = message;
            inMessage = false;
        }
    }
    if (xml.hasError())
        error = path + QStringLiteral(": ") + xml.errorString();
    return messages;
}

QString withoutMnemonic(QString text)
{
    // "&File" and the Chinese "文件(&F)" style; "&&" is a literal ampersand.
    text.replace(QStringLiteral("&&"), QStringLiteral("\x01"));
    static const QRegularExpression chineseStyle(QStringLiteral("\\(&[^)]\\)"));
    text.remove(chineseStyle);
    text.remove(QLatin1Char('&'));
    text.replace(QStringLiteral("\x01"), QStringLiteral("&"));
    return text;
}

// Every text the window shows to the user in the widgets on screen, plus its menus.
QStringList visibleTexts(MainWindow &window)
{
    QStringList texts{window.windowTitle()};
    const auto addActions = [&texts](const QList<QAction *> &actions, const auto &self) -> void {
        for (QAction *action : actions) {
            texts << action->text() << action->toolTip();
            if (QMenu *menu = action->menu())
                self(menu->actions(), self);
        }
    };
    addActions(window.menuBar()->actions(), addActions);
    for (QWidget *widget : window.findChildren<QWidget *>()) {
        if (!widget->isVisible())
            continue;
        if (auto *label = qobject_cast<QLabel *>(widget))
            texts << label->text();
        else if (auto *button = qobject_cast<QAbstractButton *>(widget))
            texts << button->text() << button->toolTip();
        else if (auto *group = qobject_cast<QGroupBox *>(widget))
            texts << group->title();
        else if (auto *edit = qobject_cast<QLineEdit *>(widget))
            texts << edit->placeholderText() << edit->toolTip();
        else if (auto *combo = qobject_cast<QComboBox *>(widget)) {
            for (int i = 0; i < combo->count(); ++i)
                texts << combo->itemText(i);
            texts << combo->toolTip();
        } else if (auto *tabs = qobject_cast<QTabBar *>(widget)) {
            for (int i = 0; i < tabs->count(); ++i)
                texts << tabs->tabText(i);
        } else if (auto *header = qobject_cast<QHeaderView *>(widget)) {
            if (QAbstractItemModel *model = header->model()) {
                const int count = header->orientation() == Qt::Horizontal ? model->columnCount() : 0;
                for (int i = 0; i < count; ++i)
                    texts << model->headerData(i, Qt::Horizontal, Qt::DisplayRole).toString();
            }
        } else if (auto *list = qobject_cast<QListWidget *>(widget)) {
            for (int i = 0; i < list->count(); ++i)
                texts << list->item(i)->text();
        } else if (auto *toolBar = qobject_cast<QToolBar *>(widget)) {
            addActions(toolBar->actions(), addActions);
        }
    }
    return texts;
}

} // namespace

class TranslationsTest : public QObject
{
    Q_OBJECT

private slots:
    void everySourceTextIsTranslated();
    void mainWindowShowsChinese();

private:
    std::map<QString, Message> translations_;
};

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
    QVERIFY2(ui::installTranslators(*qApp, ui::kChinese), "the embedded :/i18n/mqdesk_zh_CN.qm did not load");
    if (translations_.empty()) {
        QString error;
        translations_ = readTs(QStringLiteral(MQDESK_SOURCE_DIR "/translations/mqdesk_zh_CN.ts"), error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
    // The English texts that the translation changes: none may be left on screen.
    // (A source kept as it is somewhere, such as "Broker" or "SYNC_FLUSH", is not English.)
    QSet<QString> english;
    QSet<QString> kept;
    for (const auto &[key, message] : translations_) {
        english.insert(withoutMnemonic(message.source));
        kept.insert(withoutMnemonic(message.translation));
    }
    english.subtract(kept);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    MainWindow window(optionsFor(dir.filePath(QStringLiteral("store"))));
    window.resize(1280, 800);
    window.show();
    QTRY_COMPARE_WITH_TIMEOUT(window.brokerHost().state(), BrokerHost::State::Running, 60000);

    const struct {
        const char *screenshot;
        int waitMs;
    } pages[] = {{"zh-overview", 300}, {"zh-topics", 1500}, {"zh-groups", 1500}, {"zh-messages", 800},
                 {"zh-flush", 3000}};
    QCOMPARE(window.pages()->count(), int(std::size(pages)));
    for (int index = 0; index < window.pages()->count(); ++index) {
        window.showView(index);
        QTest::qWait(pages[index].waitMs);
        QStringList left;
        for (const QString &text : visibleTexts(window))
            if (!text.isEmpty() && english.contains(withoutMnemonic(text)))
                left << text;
        left.removeDuplicates();
        QVERIFY2(left.isEmpty(), qPrintable(QStringLiteral("page %1 still shows English: %2")
                                                .arg(index)
                                                .arg(left.join(QStringLiteral(" | ")))));
        // A translated page shows Chinese: the navigation and the page's own texts.
        const QString all = visibleTexts(window).join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QStringLiteral("概览")) && all.contains(QStringLiteral("刷盘监控")), qPrintable(all));
        saveScreenshot(window, QString::fromLatin1(pages[index].screenshot));
    }
    window.close();
}

QTEST_MAIN(TranslationsTest)
#include "tst_translations.moc"
