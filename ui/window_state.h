#pragma once

// The main window's state in the app's settings file (appSettingsPath()): geometry, toolbars,
// splitter sizes and the last view, saved on close and restored on start.

class QMainWindow;
class QSplitter;

namespace mqdesk::ui {

// Restores what was saved; returns the last view's index, or -1 when none was saved.
int restoreWindowState(QMainWindow &window, QSplitter &splitter);
void saveWindowState(const QMainWindow &window, const QSplitter &splitter, int view);

} // namespace mqdesk::ui
