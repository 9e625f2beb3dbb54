#pragma once

// ConnectionManager: the clusters the console knows — the embedded broker, always there, and
// the RocketMQ clusters the user saved by NameServer address — and which one the views show.
// A model with persistence and no widgets: the saved connections and the selection live in the
// history database (HistoryStore, loaded and saved on its thread, so the GUI never waits on the
// disk; loaded() says when they arrived). The first time, they are imported from the [connections]
// group of the app's settings file (appSettingsPath()), which is then removed there; the window
// state and the language stay in that file. A saved entry that cannot be read is skipped and
// reported in loadNotes(); it never stops the app.
//
// A saved cluster may carry ACL credentials (RocketMQ's AccessKey/SecretKey, for ACL 1.0 and 2.0
// alike): the access key is saved with the connection, the secret key only in the desktop's
// keyring (secrets(), SecretStore).

#include "ui/connection/secret_store.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

namespace mqdesk::ui {

class HistoryStore;

// The settings file of the app: <config location>/mqdesk.ini (QSettings, INI format).
QString appSettingsPath();

struct SavedConnection
{
    QString name;
    QString namesrvAddress; // "host:port;host:port", normalised
    QString accessKey;      // empty: requests are not signed
    bool tls = false;       // connect with TLS (a cluster with tls.server.mode=enforcing)
    QString tlsPin;         // per server, the certificate trusted on first use: "host:port=SHA256:AB:…;…"
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
    // With an access key, `secretKey` is required and kept in the keyring (see setCredentials).
    bool addConnection(const QString &name, const QString &address, QString *error = nullptr,
                       const QString &accessKey = {}, const QString &secretKey = {}, bool tls = false);
    // Records the certificate a server ("host:port") of the TLS connection `name` showed on its
    // first use, and saves. `fingerprint` empty forgets every certificate it trusted.
    void trustCertificate(const QString &name, const QString &endpoint, const QString &fingerprint);
    bool renameConnection(int index, const QString &name, QString *error = nullptr);
    void removeConnection(int index);
    // Sets the credentials the connection signs its requests with. An empty access key removes
    // them; an empty secret key keeps the stored one when the connection had an access key
    // already. The secret goes to the keyring: keyringNote() follows with why it is kept for this
    // session only when the keyring cannot store it. False with `error` when incomplete.
    bool setCredentials(int index, const QString &accessKey, const QString &secretKey, QString *error = nullptr);
    // The access key and secret key of the connection named `name` (the secret from the keyring,
    // asynchronously); `error` says why the secret is missing.
    void credentialsFor(const QString &name, QObject *context,
                        std::function<void(QString accessKey, QString secretKey, QString error)> done);
    SecretStore &secrets() { return secrets_; }

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
    // The credentials of connection `index` changed (the views reconnect when it is shown).
    void credentialsChanged(int index);
    // Why a secret key is kept for this session only (the keyring could not store it).
    void keyringNote(const QString &text);

private:
    QString checkName(const QString &name, int ignoreIndex) const;
    static QString checkCredentials(const QString &accessKey, const QString &secretKey, bool hadAccessKey);
    void storeSecret(const QString &name, const QString &secretKey);
    void apply(Stored stored);
    void save() const;

    HistoryStore &history_;
    SecretStore secrets_;
    std::vector<SavedConnection> connections_;
    int selected_ = -1;
    QStringList loadNotes_;
    bool loaded_ = false;
    int loadGeneration_ = 0;
    std::vector<SavedConnection> addedBeforeLoad_; // kept when the stored list arrives
};

} // namespace mqdesk::ui
