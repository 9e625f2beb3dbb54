#include "broker/server/processor_table.h"

#include "broker/remoting/net/processor_executor.h"
#include "broker/remoting/net/remoting_server.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/admin_processor.h"
#include "broker/server/auth_admin_processor.h"
#include "broker/server/broker_controller.h"
#include "broker/server/client_call_processor.h"
#include "broker/server/client_manage_processor.h"
#include "broker/server/pop/pop_service.h"
#include "broker/server/pull_message_processor.h"
#include "broker/server/rebalance_lock_manager.h"
#include "broker/server/recall_message_processor.h"
#include "broker/server/reply_message_processor.h"
#include "broker/server/send_message_processor.h"
#include "broker/server/send_msg_back_processor.h"
#include "broker/server/transaction_service.h"

#include <memory>

namespace mqdesk::server {

using remoting::RemotingCommand;
using remoting::RequestCode;
using remoting::ResponseCode;

namespace {

// A handler calling `method` of `processor`: a shared_ptr the handler keeps alive, or a pointer to
// what outlives the server.
template <typename Holder, typename Method>
remoting::Processor callOn(Holder processor, Method method)
{
    return [processor, method](const remoting::RequestContext &context, RemotingCommand request,
                               remoting::Responder respond) {
        ((*processor).*method)(context, std::move(request), std::move(respond));
    };
}

} // namespace

void registerBrokerProcessors(BrokerController &broker, remoting::RemotingServer &server,
                              const BrokerExecutors &executors)
{
    // Until the store is open every request is refused (see the header).
    const auto route = [&broker, &server](int32_t code, remoting::Processor handler, remoting::Executor &executor) {
        server.registerProcessor(
            code,
            [&broker, handler = std::move(handler)](const remoting::RequestContext &context, RemotingCommand request,
                                                     remoting::Responder respond) {
                if (!broker.isServing()) {
                    respond(RemotingCommand::createResponse(request, ResponseCode::kSystemError,
                                                            "broker is starting or stopping, try again"));
                    return;
                }
                handler(context, std::move(request), std::move(respond));
            },
            executor);
    };

    const auto send = callOn(std::make_shared<SendMessageProcessor>(broker), &SendMessageProcessor::process);
    for (int32_t code : {RequestCode::kSendMessage, RequestCode::kSendMessageV2, RequestCode::kSendBatchMessage})
        route(code, send, executors.send);
    const auto reply = callOn(std::make_shared<ReplyMessageProcessor>(broker), &ReplyMessageProcessor::process);
    for (int32_t code : {RequestCode::kSendReplyMessage, RequestCode::kSendReplyMessageV2})
        route(code, reply, executors.send);
    route(RequestCode::kConsumerSendMsgBack,
          callOn(std::make_shared<SendMsgBackProcessor>(broker), &SendMsgBackProcessor::process), executors.send);
    route(RequestCode::kRecallMessage,
          callOn(std::make_shared<RecallMessageProcessor>(broker), &RecallMessageProcessor::process), executors.send);
    // The transaction service is made when the store opens, after this table: looked up per request.
    route(RequestCode::kEndTransaction,
          [&broker](const remoting::RequestContext &context, RemotingCommand request, remoting::Responder respond) {
              broker.transactions().endTransaction(context, std::move(request), std::move(respond));
          },
          executors.send);

    // The 5.x DefaultLitePullConsumer pulls with LITE_PULL_MESSAGE: the same header and answer.
    const auto pull = callOn(&broker.pullProcessor(), &PullMessageProcessor::process);
    for (int32_t code : {RequestCode::kPullMessage, RequestCode::kLitePullMessage})
        route(code, pull, executors.pull);

    const auto client = std::make_shared<ClientManageProcessor>(broker);
    route(RequestCode::kHeartBeat, callOn(client, &ClientManageProcessor::heartbeat), executors.client);
    route(RequestCode::kUnregisterClient, callOn(client, &ClientManageProcessor::unregisterClient), executors.client);
    route(RequestCode::kCheckClientConfig, callOn(client, &ClientManageProcessor::checkClientConfig), executors.client);
    route(RequestCode::kGetConsumerListByGroup, callOn(client, &ClientManageProcessor::consumerListByGroup),
          executors.client);
    route(RequestCode::kQueryConsumerOffset, callOn(client, &ClientManageProcessor::queryConsumerOffset),
          executors.client);
    route(RequestCode::kUpdateConsumerOffset, callOn(client, &ClientManageProcessor::updateConsumerOffset),
          executors.client);
    for (int32_t code : {RequestCode::kGetMaxOffset, RequestCode::kGetMinOffset, RequestCode::kSearchOffsetByTimestamp,
                         RequestCode::kGetEarliestMsgStoretime})
        route(code, callOn(client, &ClientManageProcessor::queueOffsetQuery), executors.client);

    const auto locks = std::make_shared<LockBatchProcessor>(broker.brokerConfig().rebalanceLockMaxLiveTime);
    route(RequestCode::kLockBatchMq, callOn(locks, &LockBatchProcessor::lockBatch), executors.client);
    route(RequestCode::kUnlockBatchMq, callOn(locks, &LockBatchProcessor::unlockBatch), executors.client);

    // POP (RocketMQ 5): pops and notifications on the pull executor, acks on the send executor.
    using pop::PopService;
    PopService *const pop = &broker.pop(); // lives as long as the broker
    route(RequestCode::kPopMessage, callOn(pop, &PopService::pop), executors.pull);
    route(RequestCode::kPeekMessage, callOn(pop, &PopService::peek), executors.pull);
    route(RequestCode::kNotification, callOn(pop, &PopService::notification), executors.pull);
    route(RequestCode::kPollingInfo, callOn(pop, &PopService::pollingInfo), executors.pull);
    route(RequestCode::kPopLiteMessage, callOn(pop, &PopService::popLite), executors.pull);
    route(RequestCode::kAckMessage, callOn(pop, &PopService::ack), executors.send);
    route(RequestCode::kBatchAckMessage, callOn(pop, &PopService::batchAck), executors.send);
    route(RequestCode::kChangeMessageInvisibleTime, callOn(pop, &PopService::changeInvisibleTime), executors.send);
    route(RequestCode::kQueryAssignment, callOn(pop, &PopService::queryAssignment), executors.client);
    route(RequestCode::kLiteSubscriptionCtl, callOn(pop, &PopService::liteSubscriptionCtl), executors.client);
    route(RequestCode::kSetMessageRequestMode, callOn(pop, &PopService::setMessageRequestMode), executors.admin);
    route(RequestCode::kGetAllMessageRequestMode, callOn(pop, &PopService::getAllMessageRequestMode), executors.admin);
    for (int32_t code : {RequestCode::kGetBrokerLiteInfo, RequestCode::kGetParentTopicInfo, RequestCode::kGetLiteTopicInfo,
                         RequestCode::kGetLiteClientInfo, RequestCode::kGetLiteGroupInfo, RequestCode::kTriggerLiteDispatch})
        route(code, callOn(pop, &PopService::liteAdmin), executors.admin);

    const auto clientCalls = callOn(std::make_shared<ClientCallProcessor>(broker), &ClientCallProcessor::process);
    for (int32_t code : ClientCallProcessor::codes())
        route(code, clientCalls, executors.admin);
    const auto admin = callOn(std::make_shared<AdminProcessor>(broker), &AdminProcessor::process);
    for (int32_t code : AdminProcessor::codes())
        route(code, admin, executors.admin);
}

void registerAuthProcessors(remoting::RemotingServer &server, acl::AuthStore &store, acl::AccessGate &gate,
                            remoting::Executor &admin)
{
    const auto auth = callOn(std::make_shared<AuthAdminProcessor>(store, gate), &AuthAdminProcessor::process);
    for (int32_t code = RequestCode::kAuthCreateUser; code <= RequestCode::kAuthListAcl; ++code)
        server.registerProcessor(code, auth, admin);
}

} // namespace mqdesk::server
