#include "broker/server/echo_broker.h"

#include "broker/common/message.h"
#include "broker/common/message_id.h"
#include "broker/common/message_properties.h"
#include "broker/common/record_codec.h"
#include "broker/remoting/net/processor_executor.h"
#include "broker/remoting/protocol/client_data.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/protocol/route_data.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/remoting/net/remoting_server.h"

#include <atomic>

namespace mqdesk::server {

using remoting::RemotingCommand;
using remoting::RequestCode;
using remoting::ResponseCode;

namespace {

constexpr int kRecordsPerPull = 32;

// Runs every request where it arrives, on the io thread: no queueing, no thread hop.
class InlineExecutor final : public remoting::Executor
{
public:
    using Executor::tryExecute;
    bool tryExecute(Task task, size_t) override
    {
        task();
        return true;
    }
};

} // namespace

struct EchoBroker::Impl
{
    std::string topic;
    int queues = 4;
    std::vector<uint8_t> pullBody;
    InlineExecutor executor;
    remoting::RemotingServer server{{.host = "127.0.0.1", .port = 0, .name = "echo"}};
    std::atomic<int64_t> sent{0};
    common::HostAddress host;

    void answer(const remoting::RequestContext &, RemotingCommand request, remoting::Responder respond)
    {
        RemotingCommand response = RemotingCommand::createResponse(request, ResponseCode::kSuccess);
        const std::string self = host.toString();
        switch (request.code) {
        case RequestCode::kGetRouteinfoByTopic: {
            remoting::TopicRouteData route;
            route.brokerDatas.push_back({"EchoCluster", "echo", {{0, self}}});
            route.queueDatas.push_back({"echo", queues, queues, 6, 0});
            const std::string json = route.toJson();
            response.body.assign(json.begin(), json.end());
            break;
        }
        case RequestCode::kSendMessage:
        case RequestCode::kSendMessageV2:
        case RequestCode::kSendBatchMessage: {
            const int64_t n = sent.fetch_add(1, std::memory_order_relaxed);
            remoting::setField(response.extFields, "msgId", common::createOffsetMessageId(host, n * 1024));
            remoting::setField(response.extFields, "queueId", request.extFields.value("e", "0"));
            remoting::setField(response.extFields, "queueOffset", n);
            break;
        }
        case RequestCode::kPullMessage: {
            const int64_t from = remoting::parseJavaLong(request.extFields.value("queueOffset")).value_or(0);
            response.body = pullBody;
            remoting::setField(response.extFields, "suggestWhichBrokerId", int64_t{0});
            remoting::setField(response.extFields, "nextBeginOffset", from + kRecordsPerPull);
            remoting::setField(response.extFields, "minOffset", int64_t{0});
            remoting::setField(response.extFields, "maxOffset", int64_t{1} << 40);
            break;
        }
        case RequestCode::kQueryConsumerOffset:
        case RequestCode::kGetMinOffset:
            remoting::setField(response.extFields, "offset", int64_t{0});
            break;
        case RequestCode::kGetMaxOffset:
            remoting::setField(response.extFields, "offset", int64_t{1} << 40);
            break;
        case RequestCode::kGetConsumerListByGroup: {
            const std::string json = remoting::encodeConsumerIdList({"127.0.0.1@echo"});
            response.body.assign(json.begin(), json.end());
            break;
        }
        default:
            break; // heartbeats, commits, unregistration: SUCCESS
        }
        respond(std::move(response));
    }
};

EchoBroker::EchoBroker(std::string topic, int queues, int64_t recordSize) : impl_(std::make_unique<Impl>())
{
    impl_->topic = std::move(topic);
    impl_->queues = queues;
    common::BrokerMessage message;
    message.topic = impl_->topic;
    message.body.assign(static_cast<size_t>(recordSize), 'x');
    message.bornHost = common::HostAddress::ipv4(127, 0, 0, 1, 0);
    common::EncodeOptions options;
    options.storeHost = common::HostAddress::ipv4(127, 0, 0, 1, 10911);
    options.maxBodySize = static_cast<int32_t>(std::max<int64_t>(recordSize, 4 * 1024 * 1024));
    message.properties.set(common::property::kTags, "bench");
    const std::string properties = message.properties.encode();
    for (int i = 0; i < kRecordsPerPull; ++i)
        common::encodeRecord(message, properties, options, impl_->pullBody);
}

EchoBroker::~EchoBroker()
{
    impl_->server.stop();
}

bool EchoBroker::start(std::string &error)
{
    Impl *impl = impl_.get();
    impl->server.setDefaultProcessor(
        [impl](const remoting::RequestContext &context, RemotingCommand request, remoting::Responder respond) {
            impl->answer(context, std::move(request), std::move(respond));
        },
        impl->executor);
    if (!impl->server.start(&error))
        return false;
    impl->host = common::HostAddress::ipv4(127, 0, 0, 1, impl->server.localPort());
    return true;
}

std::string EchoBroker::address() const
{
    return impl_->host.toString();
}

} // namespace mqdesk::server
