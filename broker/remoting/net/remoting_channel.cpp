#include "broker/remoting/net/remoting_channel.h"

#include <utility>

namespace mqdesk::remoting {

std::string_view invokeErrorName(InvokeError error)
{
    switch (error) {
    case InvokeError::None:
        return "ok";
    case InvokeError::Timeout:
        return "timeout";
    case InvokeError::ConnectFailed:
        return "connect failed";
    case InvokeError::ConnectionClosed:
        return "connection closed";
    case InvokeError::SendFailed:
        return "send failed";
    }
    return "unknown error";
}

InvokeResult InvokeResult::success(RemotingCommand response)
{
    InvokeResult result;
    result.response = std::move(response);
    return result;
}

InvokeResult InvokeResult::failure(InvokeError error, std::string message)
{
    InvokeResult result;
    result.error = error;
    result.errorMessage = std::move(message);
    return result;
}

RequestContext::RequestContext(const std::shared_ptr<RemotingChannel> &channel)
    : channel_(channel)
    , connectionId_(channel ? channel->id() : 0)
    , peerAddress_(channel ? channel->peerAddress() : std::string())
{
}

bool RequestContext::isOpen() const
{
    const std::shared_ptr<RemotingChannel> channel = channel_.lock();
    return channel && channel->isOpen();
}

bool RequestContext::sendOneway(RemotingCommand request) const
{
    const std::shared_ptr<RemotingChannel> channel = channel_.lock();
    return channel && channel->sendOneway(std::move(request));
}

bool RequestContext::sendDroppable(RemotingCommand request) const
{
    const std::shared_ptr<RemotingChannel> channel = channel_.lock();
    return channel && channel->sendDroppable(std::move(request));
}

void RequestContext::invoke(RemotingCommand request, std::chrono::milliseconds timeout,
                            ResponseCallback callback) const
{
    if (const std::shared_ptr<RemotingChannel> channel = channel_.lock()) {
        channel->invoke(std::move(request), timeout, std::move(callback));
        return;
    }
    callback(InvokeResult::failure(InvokeError::ConnectionClosed,
                                   "connection " + std::to_string(connectionId_) + " to "
                                       + peerAddress_ + " is closed"));
}

} // namespace mqdesk::remoting
