#include "ui/connection/cluster_connection.h"

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

void ClusterConnection::setNamesrvAddress(const QString &namesrvAddr)
{
    {
        std::lock_guard lock(mutex_);
        if (namesrvAddr == namesrvAddr_)
            return;
        namesrvAddr_ = namesrvAddr;
        admin_.reset();
        producer_.reset();
        if (!namesrvAddr.isEmpty()) {
            client::ClientConfig config;
            config.namesrvAddr = namesrvAddr.toStdString();
            config.instanceName = "mqdesk-console";
            admin_ = std::make_shared<client::AdminClient>(config);
        }
    }
    emit namesrvAddressChanged(namesrvAddr);
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
        client::ClientConfig config;
        config.namesrvAddr = namesrvAddr_.toStdString();
        config.instanceName = "mqdesk-console";
        client::ProducerOptions options;
        options.group = "MQDESK_CONSOLE_PRODUCER";
        producer_ = std::make_shared<client::Producer>(config, options);
        producer_->start();
    }
    return producer_;
}

} // namespace mqdesk::ui
