#pragma once

// The embedded NameServer (remoting spec §5, §10): a RemotingServer answering the namesrv
// request codes from a RouteInfoManager and a KvConfigManager, plus a thread that drops
// brokers silent for longer than the expiry. Processors run on one ProcessorExecutor; the
// io threads only do I/O (and the connection-close bookkeeping, a short exclusive lock).
// Codes without a processor get the server's REQUEST_CODE_NOT_SUPPORTED answer (spec §9 —
// 5.x behaviour; a 4.x namesrv stays silent).

#include "broker/namesrv/kv_config_manager.h"
#include "broker/namesrv/route_info_manager.h"
#include "broker/remoting/net/remoting_dispatcher.h"
#include "broker/remoting/net/remoting_server.h"
#include "broker/remoting/remoting_command.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace mqdesk::remoting {
class ProcessorExecutor;
class RequestContext;
} // namespace mqdesk::remoting

namespace mqdesk::namesrv {

struct NamesrvConfig
{
    std::string listenHost = "127.0.0.1";
    uint16_t listenPort = 9876; // 0 picks a free port (tests)
    size_t ioThreads = 1;
    size_t processorThreads = 2;
    size_t processorQueueCapacity = 10000;
    // Live-updatable through UPDATE_NAMESRV_CONFIG (318): brokerChannelExpiredTime,
    // scanNotActiveBrokerInterval (ms) and orderMessageEnable.
    std::chrono::milliseconds brokerExpiry{120000};
    std::chrono::milliseconds scanPeriod{10000};
    // Serve ORDER_TOPIC_CONFIG KV entries as a route's orderTopicConf.
    bool orderMessageEnable = false;
    // What clients may hold of the process (the broker's server* keys when embedded); its host,
    // port and name are the NameServer's own, set from the fields above.
    remoting::RemotingServerOptions clientLimits;
};

class NamesrvController
{
public:
    explicit NamesrvController(NamesrvConfig config = {});
    // Stops.
    ~NamesrvController();

    NamesrvController(const NamesrvController &) = delete;
    NamesrvController &operator=(const NamesrvController &) = delete;

    // Runs before every processor (the access gate: unknown codes, authentication, the admin
    // requests' Super user). Set before start().
    void setRequestFilter(remoting::RequestFilter filter);

    // Listens and starts the executor and the expiry scanner. False, with `error` naming the
    // address and cause, when the port cannot be bound. Call once.
    bool start(std::string &error);
    // Closes the listener and every connection, joins the scanner and the processor threads.
    // Idempotent.
    void stop();

    // The bound port; 0 before start().
    uint16_t localPort() const;
    RouteInfoManager &routes() { return routes_; }
    KvConfigManager &kvConfig() { return kv_; }
    // The configuration with the live values (what GET_NAMESRV_CONFIG shows).
    NamesrvConfig config() const;
    // Runs one expiry scan now, as the scanner does every scanPeriod.
    void scanExpiredBrokers();

private:
    class ExpiryScanner;
    using Handler = remoting::RemotingCommand (NamesrvController::*)(const remoting::RequestContext &,
                                                                     const remoting::RemotingCommand &);

    void registerProcessors();
    void addProcessor(int32_t code, Handler handler);

    // One per request code (namesrv_processors.cpp); each returns the response.
    remoting::RemotingCommand registerBroker(const remoting::RequestContext &, const remoting::RemotingCommand &);
    remoting::RemotingCommand unregisterBroker(const remoting::RequestContext &, const remoting::RemotingCommand &);
    remoting::RemotingCommand routeInfoByTopic(const remoting::RequestContext &, const remoting::RemotingCommand &);
    remoting::RemotingCommand brokerClusterInfo(const remoting::RequestContext &, const remoting::RemotingCommand &);
    remoting::RemotingCommand allTopicList(const remoting::RequestContext &, const remoting::RemotingCommand &);
    remoting::RemotingCommand deleteTopic(const remoting::RequestContext &, const remoting::RemotingCommand &);
    remoting::RemotingCommand topicsByCluster(const remoting::RequestContext &, const remoting::RemotingCommand &);
    remoting::RemotingCommand systemTopicList(const remoting::RequestContext &, const remoting::RemotingCommand &);
    remoting::RemotingCommand putKvConfig(const remoting::RequestContext &, const remoting::RemotingCommand &);
    remoting::RemotingCommand getKvConfig(const remoting::RequestContext &, const remoting::RemotingCommand &);
    remoting::RemotingCommand deleteKvConfig(const remoting::RequestContext &, const remoting::RemotingCommand &);
    remoting::RemotingCommand kvListByNamespace(const remoting::RequestContext &, const remoting::RemotingCommand &);
    remoting::RemotingCommand wipeWritePerm(const remoting::RequestContext &, const remoting::RemotingCommand &);
    remoting::RemotingCommand addWritePerm(const remoting::RequestContext &, const remoting::RemotingCommand &);
    remoting::RemotingCommand updateConfig(const remoting::RequestContext &, const remoting::RemotingCommand &);
    remoting::RemotingCommand getConfig(const remoting::RequestContext &, const remoting::RemotingCommand &);
    remoting::RemotingCommand queryDataVersion(const remoting::RequestContext &, const remoting::RemotingCommand &);

    const NamesrvConfig initialConfig_;
    std::atomic<int64_t> brokerExpiryMillis_;
    std::atomic<int64_t> scanPeriodMillis_;
    std::atomic<bool> orderMessageEnable_;
    remoting::RequestFilter requestFilter_; // set before start(), then read-only

    RouteInfoManager routes_;
    KvConfigManager kv_;

    std::mutex lifecycleMutex_; // start/stop
    // Declared before the server: the server's destructor needs the executor alive.
    std::unique_ptr<remoting::ProcessorExecutor> executor_;
    std::unique_ptr<remoting::RemotingServer> server_;
    std::unique_ptr<ExpiryScanner> scanner_;
};

} // namespace mqdesk::namesrv
