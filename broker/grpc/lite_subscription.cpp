// SyncLiteSubscription (RocketMQ 5.5 LiteTopic; docs/spec/lite-topic.md §7.2): a lite client's
// set of lite topics, checked as the Java proxy checks it and handed to the broker as one
// LITE_SUBSCRIPTION_CTL entry.

#include "broker/common/json.h"
#include "broker/grpc/message_codec.h"
#include "broker/grpc/messaging_service.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/protocol/topic_attributes.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/broker_controller.h"
#include "broker/store/config/subscription_group_manager.h"

namespace mqdesk::grpc {

using remoting::RemotingCommand;
using remoting::RequestCode;

namespace {

// The proxy lets a request hold this many lite topics beyond the group's quota (clients check
// the quota themselves; the margin absorbs a set that changed between their check and the sync).
constexpr int64_t kQuotaMargin = 300;

common::JsonValue offsetOptionJson(const v2::OffsetOption &option)
{
    common::JsonObject json;
    switch (option.offset_type_case()) {
    case v2::OffsetOption::kPolicy:
        json.set("type", common::JsonValue(std::string("POLICY")));
        json.set("value", common::JsonValue(static_cast<int64_t>(option.policy())));
        break;
    case v2::OffsetOption::kOffset:
        json.set("type", common::JsonValue(std::string("OFFSET")));
        json.set("value", common::JsonValue(option.offset()));
        break;
    case v2::OffsetOption::kTailN:
        json.set("type", common::JsonValue(std::string("TAIL_N")));
        json.set("value", common::JsonValue(option.tail_n()));
        break;
    case v2::OffsetOption::kTimestamp:
        json.set("type", common::JsonValue(std::string("TIMESTAMP")));
        json.set("value", common::JsonValue(option.timestamp()));
        break;
    default:
        break;
    }
    return common::JsonValue(std::move(json));
}

} // namespace

::grpc::ServerUnaryReactor *MessagingService::SyncLiteSubscription(::grpc::CallbackServerContext *context,
                                                                   const v2::SyncLiteSubscriptionRequest *request,
                                                                   v2::SyncLiteSubscriptionResponse *response)
{
    v2::Status refusal;
    std::shared_ptr<GrpcClient> client = admit(context, request, refusal);
    if (!client)
        return answer(context, response, std::move(refusal));
    const std::string &topic = request->topic().name();
    const std::string &group = request->group().name();
    if (v2::Status status = checkTopicName(topic); !isOk(status))
        return answer(context, response, std::move(status));
    if (v2::Status status = checkGroupName(group); !isOk(status))
        return answer(context, response, std::move(status));
    const v2::LiteSubscriptionAction action = request->action();
    if (!v2::LiteSubscriptionAction_IsValid(action))
        return answer(context, response, makeStatus(v2::Code::BAD_REQUEST, "unknown lite subscription action"));
    if (action == v2::LiteSubscriptionAction::PARTIAL_ADD) {
        for (const std::string &liteTopic : request->lite_topic_set()) {
            if (v2::Status status = checkLiteTopicName(liteTopic); !isOk(status))
                return answer(context, response, std::move(status));
        }
    }
    const auto config = broker_.subscriptionGroups().findSubscriptionGroupConfig(group);
    if (!config)
        return answer(context, response, makeStatus(v2::Code::ILLEGAL_CONSUMER_GROUP, "group not found: " + group));
    const std::string *bound = config->attributes.find(remoting::kLiteBindTopicAttribute);
    if (bound == nullptr || *bound != topic)
        return answer(context, response,
                      makeStatus(v2::Code::ILLEGAL_TOPIC, "lite group " + group + " is expected to bind topic "
                                                              + (bound ? *bound : std::string("(none)"))
                                                              + ", but actual is " + topic));
    const std::string *quotaText = config->attributes.find("lite.sub.client.quota");
    const int64_t quota =
        (quotaText ? remoting::parseJavaLong(*quotaText) : std::nullopt).value_or(kDefaultLiteSubscriptionQuota);
    if (request->lite_topic_set_size() > 0 && request->lite_topic_set_size() > quota + kQuotaMargin)
        return answer(context, response,
                      makeStatus(v2::Code::LITE_SUBSCRIPTION_QUOTA_EXCEEDED,
                                 "lite subscription quota exceeded: " + std::to_string(quota)));

    common::JsonObject entry;
    entry.set("action", common::JsonValue(v2::LiteSubscriptionAction_Name(action)));
    entry.set("clientId", common::JsonValue(client->clientId()));
    entry.set("group", common::JsonValue(group));
    entry.set("topic", common::JsonValue(topic));
    common::JsonArray liteTopics;
    for (const std::string &liteTopic : request->lite_topic_set())
        liteTopics.emplace_back(liteTopic);
    entry.set("liteTopicSet", common::JsonValue(std::move(liteTopics)));
    entry.set("version", common::JsonValue(request->has_version() ? request->version() : int64_t{0}));
    if (action == v2::LiteSubscriptionAction::PARTIAL_ADD && request->has_offset_option())
        entry.set("offsetOption", offsetOptionJson(request->offset_option()));
    common::JsonObject body;
    body.set("subscriptionSet", common::JsonValue(common::JsonArray{common::JsonValue(std::move(entry))}));
    const std::string json = common::toJsonCompact(common::JsonValue(std::move(body)));

    RemotingCommand ctl = newRequest(*client, RequestCode::kLiteSubscriptionCtl);
    ctl.body.assign(json.begin(), json.end());
    ::grpc::ServerUnaryReactor *reactor = context->DefaultReactor();
    callBroker(*client, std::move(ctl), kBrokerCallTimeout, [reactor, response](RemotingCommand answered) {
        *response->mutable_status() = statusOfResponse(answered, v2::Code::INTERNAL_SERVER_ERROR);
        if (isOk(response->status()))
            response->mutable_status()->set_message("OK");
        reactor->Finish(::grpc::Status::OK);
    });
    return reactor;
}

} // namespace mqdesk::grpc
