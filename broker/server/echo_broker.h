#pragma once

// The network baseline of `mqdesk-bench produce|consume --baseline`: a NameServer and broker
// in one RemotingServer that answers every request on its io thread without storing anything —
// a route pointing at itself, SUCCESS for sends, the same canned records for every pull. Run
// with the same client, threads and frame sizes as the real measurement, it shows what this
// machine's loopback and the client's own costs allow, which the broker's figures are
// compared against.

#include <memory>
#include <string>

namespace mqdesk::server {

class EchoBroker
{
public:
    // `recordSize`: the body size of the canned records pulls return (32 per pull).
    EchoBroker(std::string topic, int queues, int64_t recordSize);
    ~EchoBroker();
    EchoBroker(const EchoBroker &) = delete;
    EchoBroker &operator=(const EchoBroker &) = delete;

    bool start(std::string &error);
    // "127.0.0.1:port", for namesrv and broker alike.
    std::string address() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace mqdesk::server
