#pragma once

// The 5.x endpoint's ACL when the broker runs with aclEnable=true: RocketMQ 5's proxy with the
// plain ACL (PlainAccessResource.parse(GeneratedMessageV3, AuthenticationHeader), then the same
// PlainPermissionManager.validate remoting requests go through), so one plain_acl.yml governs
// both protocols.
//
// Authentication: a signed call carries `authorization: MQv2-HMAC-SHA1 Credential=<AK>[/...],
// SignedHeaders=x-mq-date-time, Signature=<hex>`, the hex HMAC-SHA1 of its x-mq-date-time value
// under the account's secret key. As in Java the time itself is not checked against the clock.
//
// Authorization, per request (Java 5's list, with the three RPCs its plain ACL leaves unchecked
// checked as its later auth module does; groups are checked against the account's groupPerms,
// where Java's gRPC path looks them up among the topics):
//
//   SendMessage                        every message's topic PUB
//   EndTransaction, RecallMessage      topic PUB
//   QueryRoute                         topic PUB or SUB
//   ReceiveMessage, AckMessage, ChangeInvisibleDuration, ForwardMessageToDeadLetterQueue,
//   QueryAssignment                    group SUB, topic SUB
//   Heartbeat, NotifyClientTermination group SUB (when named)
//   Telemetry Settings                 publishing: each topic PUB; subscription: group SUB and
//                                      each subscribed topic SUB
//
// A refusal is a business status, UNAUTHORIZED (40100), with Java's words. Thread-safe.

#include "apache/rocketmq/v2/service.pb.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace grpc {
class CallbackServerContext;
}

namespace mqdesk::acl {
class PlainAccessValidator;
struct AccessRequest;
}

namespace mqdesk::grpc {

namespace v2 = apache::rocketmq::v2;

// The `authorization` metadata as Java's AuthorizationHeader reads it.
struct AuthorizationHeader
{
    std::string method;               // MQv2-HMAC-SHA1
    std::string accessKey;            // Credential's first '/'-separated part
    std::vector<uint8_t> signature;   // Signature, hex-decoded
};

// nullopt with `error` saying what is wrong ("authorization header is incorrect", ...).
std::optional<AuthorizationHeader> parseAuthorization(std::string_view value, std::string &error);

// The topics and groups `request` names, with the permission each needs (the table above);
// `request` null (a telemetry stream opening) names none.
void addNeededResources(const google::protobuf::Message *request, acl::AccessRequest &access);

// OK when the call may proceed; else UNAUTHORIZED naming why.
v2::Status checkAccess(acl::PlainAccessValidator &validator, const ::grpc::CallbackServerContext *context,
                       const google::protobuf::Message *request);

} // namespace mqdesk::grpc
