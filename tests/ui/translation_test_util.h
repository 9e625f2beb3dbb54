#pragma once

// Helpers of tst_translations.cpp: the messages of a .ts file, texts without their mnemonics, and
// every text a main window (MainWindow, ExplorerWindow) shows, to find English source texts left
// on screen.

#include <QAbstractButton>
#include <QAbstractItemModel>
#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSet>
#include <QTabBar>
#include <QToolBar>
#include <QXmlStreamReader>

#include <algorithm>
#include <map>

namespace mqdesk::test {

struct Message {
    QString context;
    QString source;
    QString translation; // the first form for plurals
    bool finished = false;
};

// The messages of a .ts file by context, source and comment.
inline std::map<QString, Message> readTs(const QString &path, QString &error)
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

inline QString withoutMnemonic(QString text)
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
inline QStringList visibleTexts(QMainWindow &window)
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

// The English source texts the translation changes (a source kept as it is somewhere, such as
// "Broker" or "SYNC_FLUSH", is not English).
inline QSet<QString> changedSources(const std::map<QString, Message> &translations)
{
    QSet<QString> english;
    QSet<QString> kept;
    for (const auto &[key, message] : translations) {
        english.insert(withoutMnemonic(message.source));
        kept.insert(withoutMnemonic(message.translation));
    }
    english.subtract(kept);
    return english;
}

// The texts of `texts` that are such English sources.
inline QStringList englishIn(const QStringList &texts, const QSet<QString> &english)
{
    QStringList left;
    for (const QString &text : texts)
        if (!text.isEmpty() && english.contains(withoutMnemonic(text)))
            left << text;
    left.removeDuplicates();
    return left;
}

// The display texts of the first `rows` rows of `model` (the cells a table shows).
inline QStringList cellTexts(const QAbstractItemModel &model, int rows)
{
    QStringList texts;
    for (int row = 0; row < std::min(rows, model.rowCount()); ++row)
        for (int column = 0; column < model.columnCount(); ++column)
            texts << model.index(row, column).data().toString();
    return texts;
}

} // namespace mqdesk::test
