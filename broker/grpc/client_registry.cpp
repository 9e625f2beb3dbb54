#include "broker/grpc/client_registry.h"

#include "broker/common/clock.h"

namespace mqdesk::grpc {

bool TelemetryOutbox::push(v2::TelemetryCommand command)
{
    std::lock_guard lock(mutex_);
    if (!writer_)
        return false;
    writer_(std::move(command));
    return true;
}

void TelemetryOutbox::close()
{
    std::lock_guard lock(mutex_);
    writer_ = nullptr;
}

GrpcClient::GrpcClient(std::string clientId, std::shared_ptr<LocalChannel> channel)
    : clientId_(std::move(clientId))
    , channel_(std::move(channel))
{
    info_.clientId = clientId_;
    info_.peerAddress = channel_->peerAddress();
    info_.firstSeenMs = common::wallMillis();
}

GrpcClientInfo GrpcClient::info() const
{
    std::lock_guard lock(mutex_);
    return info_;
}

std::optional<v2::Settings> GrpcClient::settings() const
{
    std::lock_guard lock(mutex_);
    return info_.settings;
}

void GrpcClient::setSettings(v2::Settings merged, remoting::LanguageCode language, std::string languageName,
                             std::string version)
{
    std::lock_guard lock(mutex_);
    info_.settings = std::move(merged);
    info_.language = language;
    info_.languageName = std::move(languageName);
    info_.version = std::move(version);
}

remoting::LanguageCode GrpcClient::language() const
{
    std::lock_guard lock(mutex_);
    return info_.language;
}

void GrpcClient::setTelemetry(std::shared_ptr<TelemetryOutbox> outbox)
{
    std::lock_guard lock(mutex_);
    telemetry_.push_back(std::move(outbox));
}

void GrpcClient::dropTelemetry(const std::shared_ptr<TelemetryOutbox> &outbox)
{
    std::lock_guard lock(mutex_);
    std::erase(telemetry_, outbox);
}

bool GrpcClient::pushTelemetry(v2::TelemetryCommand command)
{
    std::vector<std::shared_ptr<TelemetryOutbox>> streams;
    {
        std::lock_guard lock(mutex_);
        streams = telemetry_;
    }
    for (auto it = streams.rbegin(); it != streams.rend(); ++it) {
        if ((*it)->push(command))
            return true;
    }
    return false;
}

bool GrpcClient::hasTelemetry() const
{
    std::lock_guard lock(mutex_);
    return !telemetry_.empty();
}

void GrpcClient::touch(int64_t nowMillis)
{
    std::lock_guard lock(mutex_);
    lastSeen_ = std::max(lastSeen_, nowMillis);
}

int64_t GrpcClient::lastSeen() const
{
    std::lock_guard lock(mutex_);
    return lastSeen_;
}

ClientRegistry::ClientRegistry(ChannelFactory factory, Leave leave)
    : factory_(std::move(factory))
    , leave_(std::move(leave))
{
}

std::shared_ptr<GrpcClient> ClientRegistry::getOrCreate(const std::string &clientId, const std::string &peerAddress,
                                                        int64_t nowMillis)
{
    std::shared_ptr<GrpcClient> client;
    {
        std::lock_guard lock(mutex_);
        auto &slot = clients_[clientId];
        if (!slot)
            slot = std::make_shared<GrpcClient>(clientId, factory_(clientId, peerAddress));
        client = slot;
    }
    client->touch(nowMillis);
    return client;
}

std::shared_ptr<GrpcClient> ClientRegistry::find(const std::string &clientId) const
{
    std::lock_guard lock(mutex_);
    const auto it = clients_.find(clientId);
    return it == clients_.end() ? nullptr : it->second;
}

bool ClientRegistry::remove(const std::string &clientId)
{
    std::shared_ptr<GrpcClient> client;
    {
        std::lock_guard lock(mutex_);
        const auto it = clients_.find(clientId);
        if (it == clients_.end())
            return false;
        client = std::move(it->second);
        clients_.erase(it);
    }
    leave_(*client);
    return true;
}

void ClientRegistry::sweep(int64_t nowMillis)
{
    std::vector<std::shared_ptr<GrpcClient>> all;
    {
        std::lock_guard lock(mutex_);
        for (const auto &[id, client] : clients_)
            all.push_back(client);
    }
    for (const auto &client : all) {
        client->channel()->expireOverdue();
        if (!client->hasTelemetry() && nowMillis - client->lastSeen() > kIdleMillis)
            remove(client->clientId());
    }
}

void ClientRegistry::clear()
{
    std::unordered_map<std::string, std::shared_ptr<GrpcClient>> all;
    {
        std::lock_guard lock(mutex_);
        all.swap(clients_);
    }
    for (auto &[id, client] : all)
        leave_(*client);
}

std::vector<GrpcClientInfo> ClientRegistry::clients() const
{
    std::vector<std::shared_ptr<GrpcClient>> all;
    {
        std::lock_guard lock(mutex_);
        for (const auto &[id, client] : clients_)
            all.push_back(client);
    }
    std::vector<GrpcClientInfo> out;
    for (const auto &client : all)
        out.push_back(client->info());
    return out;
}

} // namespace mqdesk::grpc
