#pragma once

// How the main window opens store explorers: File ▸ Open Store… (Ctrl+O), File ▸ Open Recent
// (kept in the app's settings file, appSettingsPath()) and File ▸ Explore Embedded Store.

#include <QString>
#include <QStringList>

#include <functional>

class QMenu;
class QWidget;

namespace mqdesk::ui {

class ExplorerWindow;

// A new top-level explorer of `storeDir` (deleted when closed), shown, and remembered as recent.
ExplorerWindow *openStoreExplorer(const QString &storeDir);

// The most recent first, at most 10.
QStringList recentStores();
void rememberRecentStore(const QString &storeDir);

// Adds the three actions to `fileMenu`. `embeddedStoreDir` gives the embedded broker's store root
// (empty: the action is disabled; no function: no such action, as in an explorer window). `dialogParent` owns the directory dialog.
void addStoreExplorerActions(QMenu *fileMenu, QWidget *dialogParent, std::function<QString()> embeddedStoreDir);

} // namespace mqdesk::ui
