#include "ui/explorer/explorer_actions.h"

#include "ui/connection/connection_manager.h"
#include "ui/explorer/explorer_window.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace mqdesk::ui {

namespace {
constexpr int kMaxRecent = 10;
const QString kRecentKey = QStringLiteral("explorer/recentStores");

QString translate(const char *text) { return QCoreApplication::translate("mqdesk::ui::ExplorerActions", text); }
} // namespace

QStringList recentStores()
{
    const QSettings settings(appSettingsPath(), QSettings::IniFormat);
    return settings.value(kRecentKey).toStringList();
}

void rememberRecentStore(const QString &storeDir)
{
    const QString dir = QDir::cleanPath(QFileInfo(storeDir).absoluteFilePath());
    QStringList recent = recentStores();
    recent.removeAll(dir);
    recent.prepend(dir);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    QSettings settings(appSettingsPath(), QSettings::IniFormat);
    settings.setValue(kRecentKey, recent);
}

ExplorerWindow *openStoreExplorer(const QString &storeDir)
{
    auto *window = new ExplorerWindow(storeDir);
    window->setAttribute(Qt::WA_DeleteOnClose);
    // Only stores that opened are remembered: a mistyped path does not crowd the list.
    QObject::connect(window, &ExplorerWindow::opened, window, [window] { rememberRecentStore(window->storeDir()); });
    window->show();
    return window;
}

void addStoreExplorerActions(QMenu *fileMenu, QWidget *dialogParent, std::function<QString()> embeddedStoreDir)
{
    QAction *open = fileMenu->addAction(translate(QT_TRANSLATE_NOOP("mqdesk::ui::ExplorerActions", "&Open Store…")));
    open->setShortcut(QKeySequence::Open);
    QObject::connect(open, &QAction::triggered, dialogParent, [dialogParent] {
        const QStringList recent = recentStores();
        const QString dir = QFileDialog::getExistingDirectory(
            dialogParent, translate(QT_TRANSLATE_NOOP("mqdesk::ui::ExplorerActions", "Open a RocketMQ store directory")),
            recent.isEmpty() ? QDir::homePath() : recent.first());
        if (!dir.isEmpty())
            openStoreExplorer(dir);
    });
    QMenu *recentMenu = fileMenu->addMenu(translate(QT_TRANSLATE_NOOP("mqdesk::ui::ExplorerActions", "Open &Recent")));
    QObject::connect(recentMenu, &QMenu::aboutToShow, recentMenu, [recentMenu] {
        recentMenu->clear();
        const QStringList recent = recentStores();
        for (const QString &dir : recent)
            recentMenu->addAction(QDir::toNativeSeparators(dir), recentMenu, [dir] { openStoreExplorer(dir); });
        if (recent.isEmpty())
            recentMenu->addAction(translate(QT_TRANSLATE_NOOP("mqdesk::ui::ExplorerActions", "No stores opened yet")))->setEnabled(false);
    });
    if (embeddedStoreDir) {
        QAction *embedded = fileMenu->addAction(translate(QT_TRANSLATE_NOOP("mqdesk::ui::ExplorerActions", "&Explore Embedded Store")));
        QObject::connect(embedded, &QAction::triggered, dialogParent, [embeddedStoreDir] {
            const QString dir = embeddedStoreDir();
            if (!dir.isEmpty())
                openStoreExplorer(dir);
        });
        QObject::connect(fileMenu, &QMenu::aboutToShow, embedded, [embedded, embeddedStoreDir] {
            embedded->setEnabled(!embeddedStoreDir().isEmpty());
        });
    }
    fileMenu->addSeparator();
}

} // namespace mqdesk::ui
