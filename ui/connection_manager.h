#pragma once

// ConnectionManager: the clusters the console knows — the embedded broker, always there, and
// the RocketMQ clusters the user saved by NameServer address — and which one the views show.
// A model with persistence and no widgets: the saved connections and the selection live in the
// app's settings file (appSettingsPath()). A saved entry that cannot be read is skipped and
// reported in loadNotes(); it never stops the app.

#include <QObject>
#include <QString>
#include <QStringList>

#include <vector>

namespace mqdesk::ui {

// The settings file of the app: <config location>/mqdesk.ini (QSettings, INI format).
QString appSettingsPath();

struct SavedConnection
{
    QString name;
    QString namesrvAddress; // "host:port;host:port", normalised
};

class ConnectionManager : public QObject
{
    Q_OBJECT

public:
    // Loads the saved connections from the settings file.
    explicit ConnectionManager(QObject *parent = nullptr);

    // Checks a NameServer address list ("host:port;host:port"). Returns an empty string and
    // sets `normalized` (blanks and empty parts dropped) when valid, else what is wrong.
    static QString validateAddress(const QString &address, QString *normalized = nullptr);

    const std::vector<SavedConnection> &connections() const { return connections_; }
    // Adds a connection and saves the list; false with `error` set when the name is empty or
    // taken, or the address is invalid.
    bool addConnection(const QString &name, const QString &address, QString *error = nullptr);
    bool renameConnection(int index, const QString &name, QString *error = nullptr);
    void removeConnection(int index);

    // -1: the embedded broker; otherwise an index into connections().
    int selectedIndex() const { return selected_; }
    const SavedConnection *selectedConnection() const;
    void select(int index);

    // What went wrong while loading (entries skipped, an unreadable file); empty when nothing did.
    QStringList loadNotes() const { return loadNotes_; }
    // Reads the settings file again (drops unsaved state; tests and "reload").
    void reload();

signals:
    void connectionsChanged();
    void selectionChanged(int index);

private:
    QString checkName(const QString &name, int ignoreIndex) const;
    void save() const;

    std::vector<SavedConnection> connections_;
    int selected_ = -1;
    QStringList loadNotes_;
};

} // namespace mqdesk::ui
