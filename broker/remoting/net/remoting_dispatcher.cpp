#include "broker/remoting/net/remoting_dispatcher.h"

#include "broker/common/log_rate_limiter.h"
#include "broker/remoting/remoting_codes.h"

#include <spdlog/spdlog.h>

#include <exception>
#include <mutex>
#include <utility>

namespace mqdesk::remoting {

namespace {

// The part of a request its answer needs, kept after the request moved into its processor.
RemotingCommand requestStub(const RemotingCommand &request)
{
    RemotingCommand stub;
    stub.code = request.code;
    stub.opaque = request.opaque;
    stub.flag = request.flag;
    stub.serializeType = request.serializeType;
    return stub;
}

Responder makeResponder(const std::shared_ptr<RemotingChannel> &channel, const RemotingCommand &request)
{
    if (request.isOneway())
        return [](RemotingCommand) {};
    return [weak = std::weak_ptr<RemotingChannel>(channel), opaque = request.opaque](RemotingCommand response) {
        const std::shared_ptr<RemotingChannel> target = weak.lock();
        if (!target)
            return; // the connection is gone; nobody to answer
        response.opaque = opaque;
        response.flag = (response.flag | RemotingCommand::kResponseFlag) & ~RemotingCommand::kOnewayFlag;
        target->sendResponse(std::move(response));
    };
}

} // namespace

std::string requestCodeNotSupportedRemark(int32_t code)
{
    return " request type " + std::to_string(code) + " not supported";
}

RemotingCommand refuseUnsupportedRequest(const RemotingCommand &request, std::string_view peer, std::string_view why)
{
    static common::LogRateLimiter limiter(std::chrono::seconds(1), 20);
    if (const auto held = limiter.admit()) {
        spdlog::warn("remoting: refused request code {} from {}: {}{}", describeRequestCode(request.code), peer, why,
                     common::LogRateLimiter::heldNote(*held));
    }
    return RemotingCommand::createResponse(request, ResponseCode::kRequestCodeNotSupported,
                                           requestCodeNotSupportedRemark(request.code));
}

void RequestDispatcher::registerProcessor(int32_t code, Processor processor, Executor &executor)
{
    std::unique_lock lock(mutex_);
    processors_[code] = Entry{std::move(processor), &executor};
}

void RequestDispatcher::setDefaultProcessor(Processor processor, Executor &executor)
{
    std::unique_lock lock(mutex_);
    defaultProcessor_ = Entry{std::move(processor), &executor};
}

void RequestDispatcher::setRequestFilter(RequestFilter filter)
{
    std::unique_lock lock(mutex_);
    filter_ = filter ? std::make_shared<const RequestFilter>(std::move(filter)) : nullptr;
}

void RequestDispatcher::dispatch(const std::shared_ptr<RemotingChannel> &channel, RemotingCommand request,
                                 bool filtered) const
{
    Entry entry;
    std::shared_ptr<const RequestFilter> filter;
    {
        std::shared_lock lock(mutex_);
        if (filtered)
            filter = filter_;
        if (auto it = processors_.find(request.code); it != processors_.end())
            entry = it->second;
        else if (defaultProcessor_)
            entry = *defaultProcessor_;
    }
    const RemotingCommand stub = requestStub(request);
    // What the request holds while it waits: its body and, roughly, its header.
    size_t heldBytes = request.body.size() + sizeof(RemotingCommand);
    for (const auto &[key, value] : request.extFields)
        heldBytes += key.size() + value.size() + 2 * sizeof(std::string);
    if (!entry.executor) {
        RemotingCommand refusal = refuseUnsupportedRequest(stub, RequestContext(channel).peerAddress(),
                                                           "no processor for it");
        if (!stub.isOneway())
            channel->sendResponse(std::move(refusal));
        return;
    }
    Executor::Task task = [processor = std::move(entry.processor), filter = std::move(filter), context = RequestContext(channel),
                           respond = makeResponder(channel, request), request = std::move(request)]() mutable {
        const RemotingCommand taskStub = requestStub(request);
        try {
            if (filter) {
                if (std::optional<RemotingCommand> refusal = (*filter)(context, request)) {
                    respond(std::move(*refusal));
                    return;
                }
            }
            processor(context, std::move(request), respond);
        } catch (const std::exception &e) {
            spdlog::warn("remoting: processor for code {} from {} threw: {}", taskStub.code, context.peerAddress(),
                         e.what());
            respond(RemotingCommand::createResponse(taskStub, ResponseCode::kSystemError, e.what()));
        } catch (...) {
            spdlog::warn("remoting: processor for code {} from {} threw a non-standard exception", taskStub.code,
                         context.peerAddress());
            respond(RemotingCommand::createResponse(taskStub, ResponseCode::kSystemError, "unknown exception"));
        }
    };
    if (!entry.executor->tryExecute(std::move(task), heldBytes) && !stub.isOneway()) {
        channel->sendResponse(RemotingCommand::createResponse(stub, ResponseCode::kSystemBusy, kOverloadRemark));
    }
}

} // namespace mqdesk::remoting
