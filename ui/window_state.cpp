#include "ui/window_state.h"

#include "ui/connection/connection_manager.h"

#include <QMainWindow>
#include <QSettings>
#include <QSplitter>

namespace mqdesk::ui {

namespace {

const QString kGeometry = QStringLiteral("window/geometry");
const QString kState = QStringLiteral("window/state");
const QString kSplitter = QStringLiteral("window/splitter");
const QString kView = QStringLiteral("window/view");

} // namespace

int restoreWindowState(QMainWindow &window, QSplitter &splitter)
{
    const QSettings settings(appSettingsPath(), QSettings::IniFormat);
    if (settings.status() != QSettings::NoError)
        return -1;
    // Each restore ignores data it cannot use: a damaged entry leaves the default layout.
    window.restoreGeometry(settings.value(kGeometry).toByteArray());
    window.restoreState(settings.value(kState).toByteArray());
    splitter.restoreState(settings.value(kSplitter).toByteArray());
    bool ok = false;
    const int view = settings.value(kView).toInt(&ok);
    return ok ? view : -1;
}

void saveWindowState(const QMainWindow &window, const QSplitter &splitter, int view)
{
    QSettings settings(appSettingsPath(), QSettings::IniFormat);
    settings.setValue(kGeometry, window.saveGeometry());
    settings.setValue(kState, window.saveState());
    settings.setValue(kSplitter, splitter.saveState());
    settings.setValue(kView, view);
}

} // namespace mqdesk::ui
