#pragma once

// ConnectionManager: the clusters the console knows — the embedded broker, always there, and
// the RocketMQ clusters the user saved by NameServer address — and which one the views show.
// A model with persistence and no widgets: the saved connections and the selection live in the
// history database (HistoryStore, loaded and saved on its thread, so the GUI never waits on the
// disk; loaded() says when they arrived). The first time, they are imported from the [connections]
// group of the app's settings file (appSettingsPath()), which is then removed there; the window
// state and the language stay in that file. A saved entry that cannot be read is skipped and
// reported in loadNotes(); it never stops the app.

#include <QObject>
#include <QString>
#include <QStringList>

#include <vector>

namespace mqdesk::ui {

class HistoryStore;

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
    // Starts loading the saved connections from `history` (importing them from the settings
    // file the first time).
    explicit ConnectionManager(HistoryStore &history, QObject *parent = nullptr);

    // Whether the saved connections have arrived (the list is empty until then).
    bool isLoaded() const { return loaded_; }

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
    // Reads the saved connections again (asynchronously; loaded() follows).
    void reload();

    // What a load read: entries not yet checked, the selected name, notes on what was unreadable.
    struct Stored
    {
        std::vector<SavedConnection> entries;
        QStringList entryProblems; // per entry: why it cannot be used ("" when it can)
        QString selectedName;
        QStringList notes;
        bool imported = false; // read from the settings file: to be written to the database
    };

signals:
    void connectionsChanged();
    void selectionChanged(int index);
    void loaded();

private:
    QString checkName(const QString &name, int ignoreIndex) const;
    void apply(Stored stored);
    void save() const;

    HistoryStore &history_;
    std::vector<SavedConnection> connections_;
    int selected_ = -1;
    QStringList loadNotes_;
    bool loaded_ = false;
    int loadGeneration_ = 0;
    std::vector<SavedConnection> addedBeforeLoad_; // kept when the stored list arrives
};

} // namespace mqdesk::ui
