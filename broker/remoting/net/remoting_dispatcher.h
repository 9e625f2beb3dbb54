#pragma once

// Routes decoded requests to processors on their executors; shared by RemotingServer (client
// requests) and RemotingClient (server-initiated requests). The dispatcher's own answers
// follow remoting spec §9: REQUEST_CODE_NOT_SUPPORTED for a code without a processor,
// SYSTEM_BUSY when an executor refuses, SYSTEM_ERROR when a processor throws; never for a
// oneway request.

#include "broker/remoting/net/processor_executor.h"
#include "broker/remoting/net/remoting_channel.h"

#include <functional>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <unordered_map>

namespace mqdesk::remoting {

// The remark of REQUEST_CODE_NOT_SUPPORTED, with Java's leading space: " request type 999 not
// supported".
std::string requestCodeNotSupportedRemark(int32_t code);
// REQUEST_CODE_NOT_SUPPORTED for `request`, logged (rate-limited, process-wide) with its code's
// name, the peer and `why`, so that an operator sees which tool asked for what.
RemotingCommand refuseUnsupportedRequest(const RemotingCommand &request, std::string_view peer, std::string_view why);
inline constexpr const char *kOverloadRemark = "[OVERLOAD]system busy, start flow control for a while";

// Looks at a request on its processor's executor before the processor runs (Java's RPCHook
// doBeforeRequest: the broker's ACL). A response it returns answers the request instead of the
// processor (a oneway request gets none); an exception it throws is answered like a processor's.
using RequestFilter = std::function<std::optional<RemotingCommand>(const RequestContext &context,
                                                                   const RemotingCommand &request)>;

class RequestDispatcher
{
public:
    // Thread-safe, but meant to be done before traffic starts. `executor` must outlive the
    // dispatcher's owner (and every request it may still hand over).
    void registerProcessor(int32_t code, Processor processor, Executor &executor);
    void setDefaultProcessor(Processor processor, Executor &executor);
    // One filter for every processor's requests; set before traffic starts.
    void setRequestFilter(RequestFilter filter);

    // Called on an io thread: hands `request` to its processor's executor, or answers it
    // directly (never blocks). A request from an in-process channel whose caller authenticated it
    // already (the gRPC endpoint, as RocketMQ's proxy in local mode) passes `filtered` false and
    // skips the request filter.
    void dispatch(const std::shared_ptr<RemotingChannel> &channel, RemotingCommand request,
                  bool filtered = true) const;

private:
    struct Entry
    {
        Processor processor;
        Executor *executor = nullptr;
    };

    mutable std::shared_mutex mutex_;
    std::unordered_map<int32_t, Entry> processors_; // guarded by mutex_
    std::optional<Entry> defaultProcessor_;         // guarded by mutex_
    std::shared_ptr<const RequestFilter> filter_;  // guarded by mutex_
};

} // namespace mqdesk::remoting
