#include "ui/connection/connection_manager.h"

#include "ui/history/history_store.h"

#include <QSettings>

#include <algorithm>
#include <QStandardPaths>

namespace mqdesk::ui {

namespace {

const QString kGroup = QStringLiteral("connections");
const QString kArray = QStringLiteral("saved");
const QString kName = QStringLiteral("name");
const QString kAddress = QStringLiteral("namesrv");
const QString kSelected = QStringLiteral("selected");

// A settings value as text; false when it is something else (a list, a map, garbage).
bool textValue(const QVariant &value, QString &text)
{
    if (value.typeId() != QMetaType::QString && value.typeId() != QMetaType::QByteArray)
        return false;
    text = value.toString().trimmed();
    return true;
}

// On the history thread: the saved connections from the database, or, the first time, from the
// settings file's [connections] group (the old place).
ConnectionManager::Stored loadStored(HistoryDatabase &db, const QString &iniPath)
{
    ConnectionManager::Stored stored;
    if (db.connectionsInitialised()) {
        stored.entries = db.savedConnections(&stored.selectedName);
        return stored;
    }
    stored.imported = true;
    QSettings settings(iniPath, QSettings::IniFormat);
    if (settings.status() != QSettings::NoError) {
        stored.notes << ConnectionManager::tr("The saved connections could not be read from %1; starting without them.")
                            .arg(iniPath);
        return stored;
    }
    settings.beginGroup(kGroup);
    const int size = settings.beginReadArray(kArray);
    for (int i = 0; i < size; ++i) {
        settings.setArrayIndex(i);
        SavedConnection entry;
        const bool text = textValue(settings.value(kName), entry.name)
                          && textValue(settings.value(kAddress), entry.namesrvAddress);
        stored.entries.push_back(entry);
        stored.entryProblems << (text ? QString() : ConnectionManager::tr("it is not a name and an address"));
    }
    settings.endArray();
    textValue(settings.value(kSelected), stored.selectedName);
    settings.endGroup();
    return stored;
}

} // namespace

QString appSettingsPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + QStringLiteral("/mqdesk.ini");
}

ConnectionManager::ConnectionManager(HistoryStore &history, QObject *parent) : QObject(parent), history_(history)
{
    reload();
}

QString ConnectionManager::validateAddress(const QString &address, QString *normalized)
{
    QStringList parts;
    for (const QString &rawPart : address.split(QLatin1Char(';'))) {
        const QString part = rawPart.trimmed();
        if (part.isEmpty())
            continue;
        const int colon = part.lastIndexOf(QLatin1Char(':'));
        if (colon <= 0)
            return tr("\"%1\" has no port: write host:port, e.g. 10.0.0.5:9876").arg(part);
        const QString host = part.left(colon);
        if (host.contains(QLatin1Char(' ')) || host.contains(QLatin1Char('/')))
            return tr("\"%1\" is not a host name or IP address").arg(host);
        bool ok = false;
        const int port = part.mid(colon + 1).toInt(&ok);
        if (!ok || port < 1 || port > 65535)
            return tr("\"%1\" is not a port (1–65535)").arg(part.mid(colon + 1));
        parts << part;
    }
    if (parts.isEmpty())
        return tr("Enter a NameServer address: host:port, several separated by ';'");
    if (normalized)
        *normalized = parts.join(QLatin1Char(';'));
    return {};
}

QString ConnectionManager::checkName(const QString &name, int ignoreIndex) const
{
    if (name.trimmed().isEmpty())
        return tr("Give the connection a name");
    if (name.trimmed().compare(tr("Embedded broker"), Qt::CaseInsensitive) == 0)
        return tr("\"%1\" is the embedded broker's name; choose another").arg(name.trimmed());
    for (int i = 0; i < static_cast<int>(connections_.size()); ++i) {
        if (i != ignoreIndex && connections_[i].name.compare(name.trimmed(), Qt::CaseInsensitive) == 0)
            return tr("A connection named \"%1\" exists already").arg(name.trimmed());
    }
    return {};
}

bool ConnectionManager::addConnection(const QString &name, const QString &address, QString *error,
                                      const QString &accessKey, const QString &secretKey, bool tls)
{
    QString message = checkName(name, -1);
    QString normalized;
    if (message.isEmpty())
        message = validateAddress(address, &normalized);
    if (message.isEmpty())
        message = checkCredentials(accessKey, secretKey, false);
    if (!message.isEmpty()) {
        if (error)
            *error = message;
        return false;
    }
    connections_.push_back({name.trimmed(), normalized, accessKey.trimmed(), tls, {}});
    if (!accessKey.trimmed().isEmpty())
        storeSecret(name.trimmed(), secretKey);
    if (!loaded_)
        addedBeforeLoad_.push_back(connections_.back());
    save();
    emit connectionsChanged();
    return true;
}

void ConnectionManager::trustCertificate(const QString &name, const QString &endpoint, const QString &fingerprint)
{
    for (SavedConnection &connection : connections_) {
        if (connection.name != name || !connection.tls)
            continue;
        QStringList entries;
        for (const QString &entry : connection.tlsPin.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
            if (!entry.startsWith(endpoint + QLatin1Char('=')))
                entries << entry;
        }
        if (!fingerprint.isEmpty())
            entries << endpoint + QLatin1Char('=') + fingerprint;
        else
            entries.clear();
        const QString pin = entries.join(QLatin1Char(';'));
        if (pin != connection.tlsPin) {
            connection.tlsPin = pin;
            save();
            emit connectionsChanged();
        }
        return;
    }
}

QString ConnectionManager::checkCredentials(const QString &accessKey, const QString &secretKey, bool hadAccessKey)
{
    if (accessKey.trimmed().isEmpty())
        return secretKey.isEmpty() ? QString() : tr("Give the access key that goes with the secret key");
    if (accessKey.trimmed().contains(QLatin1Char(' ')))
        return tr("An access key has no blanks");
    if (secretKey.isEmpty() && !hadAccessKey)
        return tr("Give the secret key that goes with the access key");
    return {};
}

void ConnectionManager::storeSecret(const QString &name, const QString &secretKey)
{
    secrets_.write(name, secretKey, this, [this](const QString &error) {
        if (!error.isEmpty())
            emit keyringNote(error);
    });
}

bool ConnectionManager::setCredentials(int index, const QString &accessKey, const QString &secretKey,
                                       QString *error)
{
    if (index < 0 || index >= static_cast<int>(connections_.size()))
        return false;
    SavedConnection &connection = connections_[index];
    const QString message = checkCredentials(accessKey, secretKey, !connection.accessKey.isEmpty());
    if (!message.isEmpty()) {
        if (error)
            *error = message;
        return false;
    }
    connection.accessKey = accessKey.trimmed();
    if (connection.accessKey.isEmpty())
        secrets_.remove(connection.name);
    else if (!secretKey.isEmpty())
        storeSecret(connection.name, secretKey);
    save();
    emit connectionsChanged();
    emit credentialsChanged(index);
    return true;
}

void ConnectionManager::credentialsFor(const QString &name, QObject *context,
                                       std::function<void(QString, QString, QString)> done)
{
    const auto it = std::find_if(connections_.begin(), connections_.end(),
                                 [&](const SavedConnection &c) { return c.name == name; });
    if (it == connections_.end() || it->accessKey.isEmpty()) {
        done({}, {}, {});
        return;
    }
    secrets_.read(name, context, [accessKey = it->accessKey, done = std::move(done)](QString secret, QString error) {
        done(accessKey, secret, error);
    });
}

bool ConnectionManager::renameConnection(int index, const QString &name, QString *error)
{
    if (index < 0 || index >= static_cast<int>(connections_.size()))
        return false;
    if (const QString message = checkName(name, index); !message.isEmpty()) {
        if (error)
            *error = message;
        return false;
    }
    if (!connections_[index].accessKey.isEmpty())
        secrets_.rename(connections_[index].name, name.trimmed());
    connections_[index].name = name.trimmed();
    save();
    emit connectionsChanged();
    return true;
}

void ConnectionManager::removeConnection(int index)
{
    if (index < 0 || index >= static_cast<int>(connections_.size()))
        return;
    const bool wasSelected = index == selected_;
    if (!connections_[index].accessKey.isEmpty())
        secrets_.remove(connections_[index].name);
    connections_.erase(connections_.begin() + index);
    if (index < selected_)
        --selected_;
    else if (wasSelected)
        selected_ = -1; // back to the embedded broker
    save();
    emit connectionsChanged();
    if (wasSelected)
        emit selectionChanged(selected_);
}

const SavedConnection *ConnectionManager::selectedConnection() const
{
    return selected_ >= 0 && selected_ < static_cast<int>(connections_.size()) ? &connections_[selected_] : nullptr;
}

void ConnectionManager::select(int index)
{
    if (index < -1 || index >= static_cast<int>(connections_.size()))
        index = -1;
    if (index == selected_)
        return;
    selected_ = index;
    save();
    emit selectionChanged(selected_);
}

void ConnectionManager::reload()
{
    loaded_ = false;
    const int generation = ++loadGeneration_;
    history_.run(
        this, [iniPath = appSettingsPath()](HistoryDatabase &db) { return loadStored(db, iniPath); },
        [this, generation](Stored stored) {
            if (generation == loadGeneration_)
                apply(std::move(stored));
        });
}

void ConnectionManager::apply(Stored stored)
{
    connections_.clear();
    selected_ = -1;
    loadNotes_ = stored.notes;
    for (size_t i = 0; i < stored.entries.size(); ++i) {
        const SavedConnection &entry = stored.entries[i];
        QString problem = stored.entryProblems.value(static_cast<qsizetype>(i));
        QString normalized;
        if (problem.isEmpty())
            problem = checkName(entry.name, -1);
        if (problem.isEmpty())
            problem = validateAddress(entry.namesrvAddress, &normalized);
        if (!problem.isEmpty()) {
            loadNotes_ << tr("Saved connection %1 was skipped: %2.").arg(i + 1).arg(problem);
            continue;
        }
        connections_.push_back({entry.name.trimmed(), normalized, entry.accessKey, entry.tls, entry.tlsPin});
        if (!stored.selectedName.isEmpty() && connections_.back().name == stored.selectedName)
            selected_ = static_cast<int>(connections_.size()) - 1;
    }
    bool addedEarly = false;
    for (const SavedConnection &early : addedBeforeLoad_) {
        if (checkName(early.name, -1).isEmpty()) {
            connections_.push_back(early);
            addedEarly = true;
        }
    }
    addedBeforeLoad_.clear();
    if (addedEarly && !stored.imported)
        save();
    if (stored.imported) {
        // Moved, not copied: from now on the database holds them.
        save();
        history_.post([iniPath = appSettingsPath()](HistoryDatabase &) {
            QSettings settings(iniPath, QSettings::IniFormat);
            if (settings.status() == QSettings::NoError)
                settings.remove(kGroup);
        });
    }
    loaded_ = true;
    emit connectionsChanged();
    emit selectionChanged(selected_);
    emit loaded();
}

void ConnectionManager::save() const
{
    const SavedConnection *selected = selectedConnection();
    history_.post([connections = connections_, selectedName = selected ? selected->name : QString()](
                      HistoryDatabase &db) { db.saveConnections(connections, selectedName); });
}

} // namespace mqdesk::ui
