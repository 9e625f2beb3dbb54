// mqdesk-broker: a RocketMQ NameServer and Broker in one process, headless. Parses the flags,
// loads broker.conf, starts an EmbeddedBroker and its gRPC endpoint (the 5.x SDKs'), prints the
// ready line and waits for SIGINT or SIGTERM to shut down cleanly.

#include "broker/grpc/grpc_endpoint.h"
#include "broker/server/bind_policy.h"
#include "broker/server/broker_controller.h"
#include "broker/server/embedded_broker.h"

#include <CLI/CLI.hpp>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <future>
#include <iostream>
#include <thread>
#include <pthread.h>

using mqdesk::server::EmbeddedBroker;
using mqdesk::server::EmbeddedBrokerOptions;

namespace {

constexpr int kExitUsage = 2;
constexpr int kExitStartFailed = 1;

// Blocks the stop signals in this thread before any other starts, so every thread inherits
// the mask and only sigwait() in main() ever sees them.
sigset_t blockStopSignals()
{
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    return signals;
}

} // namespace

int main(int argc, char **argv)
{
    CLI::App app{"MQDesk broker: a RocketMQ-compatible NameServer + Broker in one process"};
    std::string configFile;
    bool printConfig = false;
    std::string namesrvAddr;
    std::string storeDir;
    int namesrvPort = 9876;
    int brokerPort = -1;
    std::string bindAddress;
    bool allowUnauthenticated = false;
    int grpcPort = -1;
    app.add_option("-c,--config", configFile, "broker.conf (RocketMQ keys)")->check(CLI::ExistingFile);
    app.add_flag("-p,--print-config", printConfig, "Print the effective configuration and exit");
    app.add_option("-n,--namesrv", namesrvAddr,
                   "Register with these NameServers (host:port;host:port) instead of starting one");
    app.add_option("--store", storeDir, "Store root directory (storePathRootDir)");
    app.add_option("--namesrv-port", namesrvPort, "Embedded NameServer port; 0 picks a free one")
        ->check(CLI::Range(0, 65535))
        ->capture_default_str();
    app.add_option("--broker-port", brokerPort, "Broker port (listenPort, default 10911); 0 picks a free one")
        ->check(CLI::Range(0, 65535));
    app.add_option("--grpc-port", grpcPort,
                   "Port of the RocketMQ 5 gRPC endpoint (the 5.x SDKs' proxy address; default 8081, or a free one "
                   "when --broker-port is 0); 0 picks a free one")
        ->check(CLI::Range(0, 65535));
    app.add_option("--bind", bindAddress,
                   "Address to listen on (bindAddress, default 127.0.0.1). Any other address needs aclEnable=true "
                   "in broker.conf, or --allow-unauthenticated");
    app.add_flag("--allow-unauthenticated", allowUnauthenticated,
                 "Listen on a non-loopback address without ACL: every host that reaches it may read, write and "
                 "delete every topic (a warning is printed)");
    std::vector<std::string> topicSeeds;
    std::vector<std::string> groupSeeds;
    app.add_option("--topic", topicSeeds,
                   "Create this topic before the ready line: NAME[:QUEUES[:TYPE]], e.g. orders:4:FIFO (8 queues and "
                   "no message.type by default; repeat for more)");
    app.add_option("--group", groupSeeds,
                   "Create this subscription group before the ready line: NAME, or NAME:orderly for a FIFO group "
                   "(repeat for more)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        return app.exit(e) == 0 ? 0 : kExitUsage;
    }
    spdlog::set_default_logger(spdlog::stderr_color_mt("mqdesk-broker"));

    EmbeddedBrokerOptions options;
    if (!configFile.empty()) {
        std::vector<std::string> unknownKeys;
        std::string error;
        if (!options.settings.loadFile(configFile, unknownKeys, error)) {
            std::cerr << "mqdesk-broker: " << error << "\n";
            return kExitUsage;
        }
        for (const std::string &key : unknownKeys)
            spdlog::warn("{}: unknown setting '{}' ignored", configFile, key);
    }
    const auto override = [&](const std::string &key, const std::string &value) {
        if (std::string error = options.settings.set(key, value); !error.empty()) {
            std::cerr << "mqdesk-broker: " << error << "\n";
            std::exit(kExitUsage);
        }
    };
    if (!storeDir.empty())
        override("storePathRootDir", storeDir);
    if (brokerPort >= 0)
        override("listenPort", std::to_string(brokerPort));
    if (!bindAddress.empty())
        override("bindAddress", bindAddress);
    if (!namesrvAddr.empty()) {
        override("namesrvAddr", namesrvAddr);
        options.startNamesrv = false;
    }
    // Message ids carry brokerIP1 and the NameServer hands it to clients: the bound address, or
    // for 0.0.0.0 / :: one that other machines reach (bind_policy.h), unless broker.conf sets it.
    mqdesk::server::resolveAdvertisedAddress(options.settings);
    options.allowUnauthenticated = allowUnauthenticated;
    for (const std::string &text : topicSeeds) {
        std::string error;
        if (!mqdesk::server::parseTopicSeed(text, options.topics.emplace_back(), error)) {
            std::cerr << "mqdesk-broker: --topic " << text << ": " << error << "\n";
            return kExitUsage;
        }
    }
    for (const std::string &text : groupSeeds) {
        std::string error;
        if (!mqdesk::server::parseGroupSeed(text, options.groups.emplace_back(), error)) {
            std::cerr << "mqdesk-broker: --group " << text << ": " << error << "\n";
            return kExitUsage;
        }
    }
    options.namesrvPort = static_cast<uint16_t>(namesrvPort);

    if (printConfig) {
        std::cout << options.settings.toPropertiesText();
        return 0;
    }

    if (const std::string refusal = mqdesk::server::checkBindPolicy(options.settings, allowUnauthenticated);
        !refusal.empty()) {
        std::cerr << "mqdesk-broker: " << refusal << "\n";
        return kExitUsage;
    }

    const sigset_t stopSignals = blockStopSignals();
    EmbeddedBroker broker(std::move(options));
    std::string error;
    if (!broker.start(error)) {
        std::cerr << "mqdesk-broker: " << error << "\n";
        return kExitStartFailed;
    }
    mqdesk::grpc::GrpcEndpointOptions grpcOptions;
    grpcOptions.bindAddress = broker.broker().brokerConfig().bindAddress;
    grpcOptions.port = static_cast<uint16_t>(grpcPort >= 0 ? grpcPort : brokerPort == 0 ? 0 : 8081);
    mqdesk::grpc::GrpcEndpoint grpc(broker.broker(), grpcOptions);
    if (!grpc.start(error)) {
        std::cerr << "mqdesk-broker: " << error << "\n";
        broker.shutdown();
        return kExitStartFailed;
    }
    std::cout << broker.readyLine() << " grpc=" << grpc.address() << std::endl;

    int signal = 0;
    sigwait(&stopSignals, &signal);
    spdlog::info("{} received, shutting down", signal == SIGINT ? "SIGINT" : "SIGTERM");
    // The gRPC endpoint first (its calls use the broker), but never at the cost of the store: if
    // it does not stop within 10 s, the broker is stopped (flushed, closed cleanly) without it and
    // the process ends there, naming the step that hung.
    std::promise<void> grpcStopped;
    std::thread stopper([&grpc, &grpcStopped] {
        grpc.shutdown();
        grpcStopped.set_value();
    });
    if (grpcStopped.get_future().wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
        spdlog::error("grpc: the endpoint did not stop within 10 s (stuck at: {}); stopping the broker without it",
                      grpc.shutdownStep());
        broker.shutdown();
        spdlog::shutdown();
        std::_Exit(0);
    }
    stopper.join();
    broker.shutdown();
    return 0;
}
