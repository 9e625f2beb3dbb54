#pragma once

// The embedded broker's ports when one is taken: which of the NameServer and broker ports
// another program holds (probed by binding, as the broker itself would), a free port to offer
// instead of each, and the ports the user chose, remembered in the app's settings file
// (appSettingsPath()) for the next start unless the command line gives ports.

#include "broker/server/embedded_broker.h"

#include <QMetaType>
#include <QString>

#include <optional>

namespace mqdesk::ui {

struct PortConflict
{
    bool namesrvTaken = false;
    bool brokerTaken = false;
    quint16 namesrvPort = 0; // as asked for
    quint16 brokerPort = 0;
    quint16 freeNamesrvPort = 0; // a port to use instead (the asked one when not taken)
    quint16 freeBrokerPort = 0;

    bool any() const { return namesrvTaken || brokerTaken; }
};

// True when a listening socket can be bound at host:port now (SO_REUSEADDR, as the broker binds).
bool portIsFree(const QString &host, quint16 port);

// A free port above `after` (the next ones first, so 9876 → 9877), never one of `avoid`; a
// port the system picks when none of the next ones is free; 0 when nothing can be bound.
quint16 findFreePort(const QString &host, quint16 after, std::initializer_list<quint16> avoid);

// The broker listens on its port and, for RocketMQ's VIP channel, on fastListenPort (0, the
// default: port - 2; -1: none): its port is usable only when both can be bound.
bool brokerPortIsFree(const QString &host, quint16 port, int fastListenPort = 0);

// As findFreePort, for the broker: a port whose VIP companion is free too and not in `avoid`.
quint16 findFreeBrokerPort(const QString &host, quint16 after, std::initializer_list<quint16> avoid,
                           int fastListenPort = 0);

// Which of `options`' fixed ports (0 = any, never taken) cannot be bound, with free ones to
// offer. Binds sockets: call it off the GUI thread (the broker's thread does, after a failed start).
PortConflict findPortConflict(const server::EmbeddedBrokerOptions &options);

struct RememberedPorts
{
    std::optional<quint16> namesrvPort;
    std::optional<quint16> brokerPort;
};
void rememberPorts(quint16 namesrvPort, quint16 brokerPort);
RememberedPorts rememberedPorts();

} // namespace mqdesk::ui

Q_DECLARE_METATYPE(mqdesk::ui::PortConflict)
