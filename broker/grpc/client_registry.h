#pragma once

// The gRPC clients the endpoint knows, keyed by x-mq-client-id (grpc-proxy spec §7.1 #5: a
// client's state is keyed by its id, never by a connection). Each has the Settings it synced on
// its telemetry stream (merged with the server's), its LocalChannel to the broker, and the
// telemetry outbox that server-initiated commands (orphaned-transaction checks) go out on.
//
// A client leaves on NotifyClientTermination, or when it has had no telemetry stream and sent
// nothing for kIdleMillis; leaving closes its channel, which drops its producer and consumer
// registrations in the broker. Thread-safe.

#include "broker/grpc/local_channel.h"
#include "broker/remoting/remoting_command.h"

#include "apache/rocketmq/v2/service.pb.h"

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace mqdesk::grpc {

namespace v2 = apache::rocketmq::v2;

// Where telemetry commands for one stream are queued; the stream's reactor drains it. Outlives
// the reactor (weak users see `closed`).
class TelemetryOutbox
{
public:
    using Writer = std::function<void(v2::TelemetryCommand)>;
    explicit TelemetryOutbox(Writer writer) : writer_(std::move(writer)) {}
    // False once the stream ended.
    bool push(v2::TelemetryCommand command);
    void close();

private:
    std::mutex mutex_;
    Writer writer_; // guarded by mutex_; empty once closed
};

struct GrpcClientInfo
{
    std::string clientId;
    std::string peerAddress;
    remoting::LanguageCode language = remoting::LanguageCode::Other;
    std::string languageName; // the UA's: JAVA, NODE_JS, PYTHON, GOLANG, ...
    std::string version;      // the SDK's, "5.0.7"
    int64_t firstSeenMs = 0;  // wall clock: when the endpoint first heard of it
    std::optional<v2::Settings> settings; // merged; set by the first telemetry Settings
};

class GrpcClient
{
public:
    GrpcClient(std::string clientId, std::shared_ptr<LocalChannel> channel);
    const std::string &clientId() const { return clientId_; }
    const std::shared_ptr<LocalChannel> &channel() const { return channel_; }

    GrpcClientInfo info() const;
    std::optional<v2::Settings> settings() const;
    void setSettings(v2::Settings merged, remoting::LanguageCode language, std::string languageName,
                     std::string version);
    remoting::LanguageCode language() const;
    void setTelemetry(std::shared_ptr<TelemetryOutbox> outbox);
    void dropTelemetry(const std::shared_ptr<TelemetryOutbox> &outbox);
    // Sends on the newest open telemetry stream; false when there is none.
    bool pushTelemetry(v2::TelemetryCommand command);
    bool hasTelemetry() const;
    void touch(int64_t nowMillis);
    int64_t lastSeen() const;

private:
    const std::string clientId_;
    const std::shared_ptr<LocalChannel> channel_;
    mutable std::mutex mutex_;
    GrpcClientInfo info_;                                     // guarded by mutex_
    std::vector<std::shared_ptr<TelemetryOutbox>> telemetry_; // guarded by mutex_
    int64_t lastSeen_ = 0;                                    // guarded by mutex_
};

class ClientRegistry
{
public:
    static constexpr int64_t kIdleMillis = 120'000;
    using ChannelFactory = std::function<std::shared_ptr<LocalChannel>(const std::string &clientId,
                                                                       const std::string &peerAddress)>;
    using Leave = std::function<void(GrpcClient &client)>;

    ClientRegistry(ChannelFactory factory, Leave leave);

    std::shared_ptr<GrpcClient> getOrCreate(const std::string &clientId, const std::string &peerAddress,
                                            int64_t nowMillis);
    std::shared_ptr<GrpcClient> find(const std::string &clientId) const;
    // Removes the client and runs `leave` for it (closing its channel). False when unknown.
    bool remove(const std::string &clientId);
    // Removes clients idle past kIdleMillis without a telemetry stream; expires overdue calls.
    void sweep(int64_t nowMillis);
    void clear();
    std::vector<GrpcClientInfo> clients() const;

private:
    ChannelFactory factory_;
    Leave leave_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, std::shared_ptr<GrpcClient>> clients_; // guarded by mutex_
};

} // namespace mqdesk::grpc
