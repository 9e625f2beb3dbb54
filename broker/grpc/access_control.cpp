#include "broker/grpc/access_control.h"

#include "broker/acl/access_gate.h"
#include "broker/acl/acl_signer.h"
#include "broker/acl/remote_address_strategy.h"
#include "broker/acl/plain_access_validator.h"
#include "broker/acl/plain_acl_config.h"
#include "broker/common/base64.h"
#include "broker/common/message_id.h"
#include "broker/grpc/messaging_service.h"

#include <grpcpp/server_context.h>
#include <openssl/crypto.h>

namespace mqdesk::grpc {

namespace {

namespace perm = acl::perm;

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

using acl::Check;
using acl::ResourceType;
namespace action = acl::action;

constexpr std::string_view kRetryPrefix = "%RETRY%";

void needTopic(std::vector<Check> &checks, const v2::Resource &topic, uint16_t actions)
{
    // Java's gRPC builder uses topic names as given (no %RETRY% mapping).
    checks.push_back(Check{ResourceType::Topic, topic.name(), actions});
}

void needGroup(std::vector<Check> &checks, const v2::Resource &group)
{
    const std::string &name = group.name();
    checks.push_back(Check{ResourceType::Group,
                           name.starts_with(kRetryPrefix) ? name.substr(kRetryPrefix.size()) : name, action::kSub});
}

void addSettingsChecks(const v2::Settings &settings, std::vector<Check> &checks)
{
    if (settings.has_publishing()) {
        for (const v2::Resource &topic : settings.publishing().topics())
            needTopic(checks, topic, action::kPub);
    }
    if (settings.has_subscription()) {
        needGroup(checks, settings.subscription().group());
        for (const v2::SubscriptionEntry &entry : settings.subscription().subscriptions())
            needTopic(checks, entry.topic(), action::kSub);
    }
}

} // namespace

std::optional<AuthorizationHeader> parseAuthorization(std::string_view value, std::string &error)
{
    const size_t space = value.find(' ');
    if (space == std::string_view::npos) {
        error = "authorization header is incorrect";
        return std::nullopt;
    }
    AuthorizationHeader header;
    header.method = std::string(value.substr(0, space));
    std::string_view rest = value.substr(space + 1);
    while (true) {
        const size_t comma = rest.find(',');
        const std::string_view item = trimmed(rest.substr(0, comma));
        const size_t equals = item.find('=');
        if (equals == std::string_view::npos) {
            error = "authorization keyValues is incorrect";
            return std::nullopt;
        }
        const std::string_view key = item.substr(0, equals);
        const std::string_view content = item.substr(equals + 1);
        if (key == "Credential") {
            header.accessKey = std::string(content.substr(0, content.find('/')));
        } else if (key == "Signature") {
            std::optional<std::vector<uint8_t>> signature = common::fromHex(content);
            if (!signature) {
                error = "authorization Signature is not hexadecimal";
                return std::nullopt;
            }
            header.signature = std::move(*signature);
        }
        if (comma == std::string_view::npos)
            break;
        rest = rest.substr(comma + 1);
    }
    return header;
}

std::vector<acl::Check> checksOf(const google::protobuf::Message *request)
{
    std::vector<Check> checks;
    if (!request)
        return checks;
    if (const auto *send = dynamic_cast<const v2::SendMessageRequest *>(request)) {
        for (const v2::Message &message : send->messages())
            needTopic(checks, message.topic(), action::kPub);
    } else if (const auto *end = dynamic_cast<const v2::EndTransactionRequest *>(request)) {
        needTopic(checks, end->topic(), action::kPub);
    } else if (const auto *recall = dynamic_cast<const v2::RecallMessageRequest *>(request)) {
        needTopic(checks, recall->topic(), action::kPub);
    } else if (const auto *route = dynamic_cast<const v2::QueryRouteRequest *>(request)) {
        needTopic(checks, route->topic(), action::kPub | action::kSub);
    } else if (const auto *receive = dynamic_cast<const v2::ReceiveMessageRequest *>(request)) {
        needGroup(checks, receive->group());
        needTopic(checks, receive->message_queue().topic(), action::kSub);
    } else if (const auto *ack = dynamic_cast<const v2::AckMessageRequest *>(request)) {
        needGroup(checks, ack->group());
        needTopic(checks, ack->topic(), action::kSub);
    } else if (const auto *invisible = dynamic_cast<const v2::ChangeInvisibleDurationRequest *>(request)) {
        needGroup(checks, invisible->group());
        needTopic(checks, invisible->topic(), action::kSub);
    } else if (const auto *forward = dynamic_cast<const v2::ForwardMessageToDeadLetterQueueRequest *>(request)) {
        needGroup(checks, forward->group());
        needTopic(checks, forward->topic(), action::kSub);
    } else if (const auto *assignment = dynamic_cast<const v2::QueryAssignmentRequest *>(request)) {
        needGroup(checks, assignment->group());
        needTopic(checks, assignment->topic(), action::kSub);
    } else if (const auto *heartbeat = dynamic_cast<const v2::HeartbeatRequest *>(request)) {
        if (heartbeat->has_group() && !heartbeat->group().name().empty())
            needGroup(checks, heartbeat->group());
    } else if (const auto *termination = dynamic_cast<const v2::NotifyClientTerminationRequest *>(request)) {
        if (termination->has_group() && !termination->group().name().empty())
            needGroup(checks, termination->group());
    } else if (const auto *command = dynamic_cast<const v2::TelemetryCommand *>(request)) {
        if (command->has_settings())
            addSettingsChecks(command->settings(), checks);
    }
    return checks;
}

v2::Status checkAccess(acl::PlainAccessValidator *plain, const acl::AccessGate *gate,
                       const ::grpc::CallbackServerContext *context, const google::protobuf::Message *request)
{
    const auto refuse = [](std::string why) {
        v2::Status status;
        status.set_code(v2::Code::UNAUTHORIZED);
        status.set_message(std::move(why));
        return status;
    };
    const std::string peer = peerAddressOf(context);
    std::optional<AuthorizationHeader> header;
    const std::string authorization = metadataValue(context, "authorization");
    if (!authorization.empty()) {
        std::string error;
        header = parseAuthorization(authorization, error);
        if (!header)
            return refuse(error);
    }
    const std::string *accessKey = header ? &header->accessKey : nullptr;
    const std::string dateTime = metadataValue(context, "x-mq-date-time");
    const std::string given = header ? common::encodeBase64(std::string_view(
                                           reinterpret_cast<const char *>(header->signature.data()), header->signature.size()))
                                     : std::string();
    const auto signedWith = [&header, &dateTime, &given](std::string_view secretKey) {
        if (!header)
            return false;
        const std::string expected = acl::calSignature(
            std::span(reinterpret_cast<const uint8_t *>(dateTime.data()), dateTime.size()), secretKey);
        return given.size() == expected.size() && CRYPTO_memcmp(given.data(), expected.data(), given.size()) == 0;
    };
    const std::vector<Check> checks = checksOf(request);
    if (plain) {
        acl::AccessRequest access;
        access.peerAddress = peer;
        access.accessKey = accessKey;
        access.signedWith = signedWith;
        for (const Check &check : checks)
            access.need(check);
        if (std::optional<std::string> refusal = plain->validate(access))
            return refuse(std::move(*refusal));
    }
    if (gate && gate->store()) {
        // The rpc name of the whitelists and audit lines: the request message's full name.
        const std::string rpc = request ? request->GetDescriptor()->full_name() : "apache.rocketmq.v2.TelemetryCommand";
        if (gate->config().authenticationEnabled) {
            if (auto refusal = gate->authenticate(accessKey, signedWith, header ? given : "null", rpc))
                return refuse(std::move(*refusal));
        }
        if (gate->config().authorizationEnabled) {
            if (auto refusal = gate->authorize(accessKey, checks, acl::peerHost(peer), rpc))
                return refuse(std::move(*refusal));
        }
    }
    v2::Status ok;
    ok.set_code(v2::Code::OK);
    ok.set_message("OK");
    return ok;
}

} // namespace mqdesk::grpc
