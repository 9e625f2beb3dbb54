#pragma once

// SecretStore: the saved connections' secret keys, kept in the desktop's keyring through
// QtKeychain (the Secret Service of GNOME Keyring / KeePassXC, or KWallet) under the service
// "MQDesk", one entry per connection name — never in mqdesk.ini or the history database.
// QtKeychain's insecure fallback (a plain file) is never used. Where no keyring answers (no D-Bus
// session, none installed, locked and not unlocked), a secret is kept in memory for this session
// only, and the caller is told why it could not be saved, to say so to the user.
//
// Keyring calls are asynchronous (the keyring may ask the user to unlock it); callbacks run on
// the GUI thread, and not at all once `context` is destroyed. GUI thread only.

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>

namespace mqdesk::ui {

class SecretStore : public QObject
{
    Q_OBJECT

public:
    // `service`: the keyring's service name (tests pass their own, so they never touch a
    // user's entries).
    explicit SecretStore(QString service = QStringLiteral("MQDesk"), QObject *parent = nullptr);

    // The secret of connection `name`: from this session's memory when written or read before,
    // else from the keyring. `error` is empty when found; a connection without a stored secret
    // gives an empty secret and an error saying so.
    void read(const QString &name, QObject *context, std::function<void(QString secret, QString error)> done);
    // Keeps `secret` for `name` (memory at once, the keyring behind it); `done(error)` with an
    // empty error once the keyring holds it, else why it is kept for this session only.
    void write(const QString &name, const QString &secret, QObject *context, std::function<void(QString error)> done);
    // Forgets `name` here and in the keyring (a missing entry is no error).
    void remove(const QString &name);
    // Moves the secret of `from` to `to` (a renamed connection).
    void rename(const QString &from, const QString &to);

private:
    QString service_;
    QHash<QString, QString> session_; // what this session wrote or read
};

} // namespace mqdesk::ui
