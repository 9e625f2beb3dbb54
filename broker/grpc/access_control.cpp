#include "broker/grpc/access_control.h"

#include "broker/acl/acl_signer.h"
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

void needTopic(acl::AccessRequest &access, const v2::Resource &topic, uint8_t permission)
{
    access.needTopic(&topic.name(), permission);
}

void needGroup(acl::AccessRequest &access, const v2::Resource &group, uint8_t permission)
{
    access.needGroup(&group.name(), permission);
}

void addSettingsResources(const v2::Settings &settings, acl::AccessRequest &access)
{
    if (settings.has_publishing()) {
        for (const v2::Resource &topic : settings.publishing().topics())
            needTopic(access, topic, perm::kPub);
    }
    if (settings.has_subscription()) {
        needGroup(access, settings.subscription().group(), perm::kSub);
        for (const v2::SubscriptionEntry &entry : settings.subscription().subscriptions())
            needTopic(access, entry.topic(), perm::kSub);
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

void addNeededResources(const google::protobuf::Message *request, acl::AccessRequest &access)
{
    if (!request)
        return;
    if (const auto *send = dynamic_cast<const v2::SendMessageRequest *>(request)) {
        for (const v2::Message &message : send->messages())
            needTopic(access, message.topic(), perm::kPub);
    } else if (const auto *end = dynamic_cast<const v2::EndTransactionRequest *>(request)) {
        needTopic(access, end->topic(), perm::kPub);
    } else if (const auto *recall = dynamic_cast<const v2::RecallMessageRequest *>(request)) {
        needTopic(access, recall->topic(), perm::kPub);
    } else if (const auto *route = dynamic_cast<const v2::QueryRouteRequest *>(request)) {
        needTopic(access, route->topic(), perm::kAny);
    } else if (const auto *receive = dynamic_cast<const v2::ReceiveMessageRequest *>(request)) {
        needGroup(access, receive->group(), perm::kSub);
        needTopic(access, receive->message_queue().topic(), perm::kSub);
    } else if (const auto *ack = dynamic_cast<const v2::AckMessageRequest *>(request)) {
        needGroup(access, ack->group(), perm::kSub);
        needTopic(access, ack->topic(), perm::kSub);
    } else if (const auto *invisible = dynamic_cast<const v2::ChangeInvisibleDurationRequest *>(request)) {
        needGroup(access, invisible->group(), perm::kSub);
        needTopic(access, invisible->topic(), perm::kSub);
    } else if (const auto *forward = dynamic_cast<const v2::ForwardMessageToDeadLetterQueueRequest *>(request)) {
        needGroup(access, forward->group(), perm::kSub);
        needTopic(access, forward->topic(), perm::kSub);
    } else if (const auto *assignment = dynamic_cast<const v2::QueryAssignmentRequest *>(request)) {
        needGroup(access, assignment->group(), perm::kSub);
        needTopic(access, assignment->topic(), perm::kSub);
    } else if (const auto *heartbeat = dynamic_cast<const v2::HeartbeatRequest *>(request)) {
        if (heartbeat->has_group())
            needGroup(access, heartbeat->group(), perm::kSub);
    } else if (const auto *termination = dynamic_cast<const v2::NotifyClientTerminationRequest *>(request)) {
        if (termination->has_group())
            needGroup(access, termination->group(), perm::kSub);
    } else if (const auto *command = dynamic_cast<const v2::TelemetryCommand *>(request)) {
        if (command->has_settings())
            addSettingsResources(command->settings(), access);
    }
}

v2::Status checkAccess(acl::PlainAccessValidator &validator, const ::grpc::CallbackServerContext *context,
                       const google::protobuf::Message *request)
{
    const auto refuse = [](std::string why) {
        v2::Status status;
        status.set_code(v2::Code::UNAUTHORIZED);
        status.set_message(std::move(why));
        return status;
    };
    const std::string peer = peerAddressOf(context);
    acl::AccessRequest access;
    access.peerAddress = peer;
    std::optional<AuthorizationHeader> header;
    const std::string authorization = metadataValue(context, "authorization");
    if (!authorization.empty()) {
        std::string error;
        header = parseAuthorization(authorization, error);
        if (!header)
            return refuse(error);
        access.accessKey = &header->accessKey;
    }
    const std::string dateTime = metadataValue(context, "x-mq-date-time");
    access.signedWith = [&header, &dateTime](std::string_view secretKey) {
        if (!header)
            return false;
        const std::string expected = acl::calSignature(
            std::span(reinterpret_cast<const uint8_t *>(dateTime.data()), dateTime.size()), secretKey);
        const std::string given = common::encodeBase64(
            std::string_view(reinterpret_cast<const char *>(header->signature.data()), header->signature.size()));
        return given.size() == expected.size() && CRYPTO_memcmp(given.data(), expected.data(), given.size()) == 0;
    };
    addNeededResources(request, access);
    if (std::optional<std::string> refusal = validator.validate(access))
        return refuse(std::move(*refusal));
    v2::Status ok;
    ok.set_code(v2::Code::OK);
    ok.set_message("OK");
    return ok;
}

} // namespace mqdesk::grpc
