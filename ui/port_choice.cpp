#include "ui/port_choice.h"

#include "ui/connection/connection_manager.h"

#include <QHostAddress>
#include <QSettings>
#include <QTcpServer>

#include <algorithm>
#include <functional>

namespace mqdesk::ui {

namespace {

const QString kNamesrvPortKey = QStringLiteral("embeddedBroker/namesrvPort");
const QString kBrokerPortKey = QStringLiteral("embeddedBroker/brokerPort");
constexpr int kPortsTriedAbove = 200;

std::optional<quint16> portSetting(const QSettings &settings, const QString &key)
{
    bool ok = false;
    const int port = settings.value(key).toInt(&ok);
    if (!ok || port < 0 || port > 65535)
        return std::nullopt; // absent, or edited by hand into something that is no port (0: any free one)
    return static_cast<quint16>(port);
}

// The first port above `after` that is not avoided and `usable`, the next ones first; else one
// the system picks (tried a few times); 0 when none is found.
quint16 findUsablePort(const QString &host, quint16 after, std::initializer_list<quint16> avoid,
                       const std::function<bool(quint16)> &usable)
{
    const auto avoided = [&avoid](int port) { return std::find(avoid.begin(), avoid.end(), port) != avoid.end(); };
    for (int port = after + 1; port <= std::min(65535, after + kPortsTriedAbove); ++port)
        if (!avoided(port) && usable(static_cast<quint16>(port)))
            return static_cast<quint16>(port);
    for (int attempt = 0; attempt < 16; ++attempt) {
        quint16 picked = 0;
        {
            QTcpServer server;
            if (!server.listen(QHostAddress(host), 0))
                return 0;
            picked = server.serverPort();
        }
        if (!avoided(picked) && usable(picked))
            return picked;
    }
    return 0;
}

} // namespace

bool portIsFree(const QString &host, quint16 port)
{
    QTcpServer server; // QTcpServer sets SO_REUSEADDR on Unix, as the broker's acceptor does
    return server.listen(QHostAddress(host), port);
}

quint16 findFreePort(const QString &host, quint16 after, std::initializer_list<quint16> avoid)
{
    return findUsablePort(host, after, avoid, [&host](quint16 port) { return portIsFree(host, port); });
}

bool brokerPortIsFree(const QString &host, quint16 port, int fastListenPort)
{
    if (!portIsFree(host, port))
        return false;
    const int fastPort = fastListenPort == 0 ? port - 2 : fastListenPort;
    return fastListenPort < 0 || (fastPort > 0 && fastPort <= 65535 && portIsFree(host, static_cast<quint16>(fastPort)));
}

quint16 findFreeBrokerPort(const QString &host, quint16 after, std::initializer_list<quint16> avoid, int fastListenPort)
{
    return findUsablePort(host, after, avoid, [&](quint16 port) {
        const bool fastAvoided = fastListenPort == 0 && std::find(avoid.begin(), avoid.end(), port - 2) != avoid.end();
        return !fastAvoided && brokerPortIsFree(host, port, fastListenPort);
    });
}

PortConflict findPortConflict(const server::EmbeddedBrokerOptions &options)
{
    const QString host = QString::fromStdString(options.settings.broker.bindAddress);
    PortConflict conflict;
    conflict.namesrvPort = options.startNamesrv ? options.namesrvPort : 0;
    conflict.brokerPort = static_cast<quint16>(options.settings.store.listenPort);
    conflict.namesrvTaken = conflict.namesrvPort != 0 && !portIsFree(host, conflict.namesrvPort);
    const int fastListenPort = options.settings.broker.fastListenPort;
    conflict.brokerTaken = conflict.brokerPort != 0 && !brokerPortIsFree(host, conflict.brokerPort, fastListenPort);
    conflict.freeNamesrvPort = conflict.namesrvTaken
                                   ? findFreePort(host, conflict.namesrvPort, {conflict.brokerPort})
                                   : conflict.namesrvPort;
    conflict.freeBrokerPort = conflict.brokerTaken
                                  ? findFreeBrokerPort(host, conflict.brokerPort, {conflict.freeNamesrvPort},
                                                       fastListenPort)
                                  : conflict.brokerPort;
    return conflict;
}

void rememberPorts(quint16 namesrvPort, quint16 brokerPort)
{
    QSettings settings(appSettingsPath(), QSettings::IniFormat);
    settings.setValue(kNamesrvPortKey, namesrvPort);
    settings.setValue(kBrokerPortKey, brokerPort);
}

RememberedPorts rememberedPorts()
{
    const QSettings settings(appSettingsPath(), QSettings::IniFormat);
    return {portSetting(settings, kNamesrvPortKey), portSetting(settings, kBrokerPortKey)};
}

} // namespace mqdesk::ui
