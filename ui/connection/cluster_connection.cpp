#include "ui/connection/cluster_connection.h"

#include <QCoreApplication>

namespace mqdesk::ui {

ClusterConnection::ClusterConnection(QObject *parent) : QObject(parent)
{
    // Admin calls block on the network for up to their timeout: a few threads keep one slow
    // broker from holding up every view.
    pool_.setMaxThreadCount(4);
}

ClusterConnection::~ClusterConnection()
{
    pool_.waitForDone();
}

void ClusterConnection::setTarget(const QString &namesrvAddr, const QString &accessKey, const QString &secretKey,
                                  const Tls &tls)
{
    acl::Credentials credentials;
    if (!accessKey.isEmpty() && !secretKey.isEmpty())
        credentials = {accessKey.toStdString(), secretKey.toStdString(), {}};
    {
        std::lock_guard lock(mutex_);
        if (namesrvAddr == namesrvAddr_ && credentials.accessKey == credentials_.accessKey
            && credentials.secretKey == credentials_.secretKey && tls == tls_)
            return;
        namesrvAddr_ = namesrvAddr;
        credentials_ = credentials;
        tls_ = tls;
        tlsPin_.reset();
        if (tls.enabled) {
            // Said on the GUI thread; called on an io thread at a server's first handshake.
            QPointer<ClusterConnection> self(this);
            tlsPin_ = std::make_shared<remoting::TlsCertificatePin>(
                tls.pin.toStdString(),
                [self, address = namesrvAddr](const std::string &endpoint, const std::string &fingerprint) {
                    QMetaObject::invokeMethod(
                        qApp,
                        [self, address, endpoint = QString::fromStdString(endpoint),
                         fingerprint = QString::fromStdString(fingerprint)] {
                            if (self)
                                emit self->tlsCertificateTrusted(address, endpoint, fingerprint);
                        },
                        Qt::QueuedConnection);
                });
        }
        admin_.reset();
        producer_.reset();
        if (!namesrvAddr.isEmpty())
            admin_ = std::make_shared<client::AdminClient>(clientConfig());
    }
    // Also when only the credentials changed: the views fetch again with the new ones.
    emit namesrvAddressChanged(namesrvAddr);
}

client::ClientConfig ClusterConnection::clientConfig() const
{
    client::ClientConfig config;
    config.namesrvAddr = namesrvAddr_.toStdString();
    config.instanceName = "mqdesk-console";
    config.credentials = credentials_;
    if (tls_.enabled) {
        config.useTls = true;
        config.tlsPin = tlsPin_;
    }
    return config;
}

QString ClusterConnection::accessKey() const
{
    std::lock_guard lock(mutex_);
    return QString::fromStdString(credentials_.accessKey);
}

QString ClusterConnection::namesrvAddress() const
{
    std::lock_guard lock(mutex_);
    return namesrvAddr_;
}

std::shared_ptr<client::AdminClient> ClusterConnection::adminClient() const
{
    std::lock_guard lock(mutex_);
    return admin_;
}

std::shared_ptr<client::Producer> ClusterConnection::producer()
{
    std::lock_guard lock(mutex_);
    if (!producer_ && !namesrvAddr_.isEmpty()) {
        client::ProducerOptions options;
        options.group = "MQDESK_CONSOLE_PRODUCER";
        producer_ = std::make_shared<client::Producer>(clientConfig(), options);
        producer_->start();
    }
    return producer_;
}

} // namespace mqdesk::ui
