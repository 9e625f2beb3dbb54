#include "ui/connection_manager.h"

#include <QSettings>
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

} // namespace

QString appSettingsPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + QStringLiteral("/mqdesk.ini");
}

ConnectionManager::ConnectionManager(QObject *parent) : QObject(parent)
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

bool ConnectionManager::addConnection(const QString &name, const QString &address, QString *error)
{
    QString message = checkName(name, -1);
    QString normalized;
    if (message.isEmpty())
        message = validateAddress(address, &normalized);
    if (!message.isEmpty()) {
        if (error)
            *error = message;
        return false;
    }
    connections_.push_back({name.trimmed(), normalized});
    save();
    emit connectionsChanged();
    return true;
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
    connections_.clear();
    selected_ = -1;
    loadNotes_.clear();

    QSettings settings(appSettingsPath(), QSettings::IniFormat);
    if (settings.status() != QSettings::NoError) {
        loadNotes_ << tr("The saved connections could not be read from %1; starting without them.")
                          .arg(appSettingsPath());
        emit connectionsChanged();
        return;
    }
    settings.beginGroup(kGroup);
    const int size = settings.beginReadArray(kArray);
    for (int i = 0; i < size; ++i) {
        settings.setArrayIndex(i);
        QString name;
        QString address;
        QString normalized;
        QString problem;
        if (!textValue(settings.value(kName), name) || !textValue(settings.value(kAddress), address))
            problem = tr("it is not a name and an address");
        else if (const QString nameProblem = checkName(name, -1); !nameProblem.isEmpty())
            problem = nameProblem;
        else
            problem = validateAddress(address, &normalized);
        if (!problem.isEmpty()) {
            loadNotes_ << tr("Saved connection %1 was skipped: %2.").arg(i + 1).arg(problem);
            continue;
        }
        connections_.push_back({name, normalized});
    }
    settings.endArray();
    QString selectedName;
    if (textValue(settings.value(kSelected), selectedName) && !selectedName.isEmpty()) {
        for (int i = 0; i < static_cast<int>(connections_.size()); ++i) {
            if (connections_[i].name == selectedName)
                selected_ = i;
        }
    }
    settings.endGroup();
    emit connectionsChanged();
    emit selectionChanged(selected_);
}

void ConnectionManager::save() const
{
    QSettings settings(appSettingsPath(), QSettings::IniFormat);
    settings.beginGroup(kGroup);
    settings.remove(QString()); // the whole group: skipped entries go with it
    settings.beginWriteArray(kArray, static_cast<int>(connections_.size()));
    for (int i = 0; i < static_cast<int>(connections_.size()); ++i) {
        settings.setArrayIndex(i);
        settings.setValue(kName, connections_[i].name);
        settings.setValue(kAddress, connections_[i].namesrvAddress);
    }
    settings.endArray();
    if (const SavedConnection *selected = selectedConnection())
        settings.setValue(kSelected, selected->name);
    settings.endGroup();
}

} // namespace mqdesk::ui
