#pragma once

// The 5.x endpoint's access control: the plain ACL when aclEnable=true (RocketMQ 5's proxy with
// the plain ACL: the same PlainPermissionManager.validate remoting requests go through) and ACL
// 2.0 when authenticationEnabled / authorizationEnabled (the same users and policies, through
// the broker's AccessGate: Java 5.5's gRPC rules, request-codes.md §3), so one set of rules
// governs both protocols.
//
// Authentication: a signed call carries `authorization: MQv2-HMAC-SHA1 Credential=<AK>[/...],
// SignedHeaders=x-mq-date-time, Signature=<hex>`, the hex HMAC-SHA1 of its x-mq-date-time value
// under the account's secret key. As in Java the time itself is not checked against the clock.
//
// Authorization, per request (Java 5.5's list; where MQDesk is stricter it says so; group names
// lose a %RETRY% prefix, topic names are used as given):
//
//   SendMessage                        every message's topic PUB (Java: the first one's only)
//   EndTransaction, RecallMessage      topic PUB
//   QueryRoute                         topic PUB or SUB
//   ReceiveMessage, AckMessage, ChangeInvisibleDuration, ForwardMessageToDeadLetterQueue,
//   QueryAssignment                    group SUB, topic SUB (Java: ChangeInvisibleDuration's
//                                      topic is not checked)
//   Heartbeat, NotifyClientTermination group SUB (when named)
//   Telemetry Settings                 publishing: each topic PUB; subscription: group SUB and
//                                      each subscribed topic SUB
//
// A refusal is a business status, UNAUTHORIZED (40100), with Java's words. Thread-safe.

#include "apache/rocketmq/v2/service.pb.h"
#include "broker/acl/request_table.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace grpc {
class CallbackServerContext;
}

namespace mqdesk::acl {
class AccessGate;
class PlainAccessValidator;
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

// The resource checks `request` needs (the table above, in the request table's terms); `request`
// null (a telemetry stream opening) needs none.
std::vector<acl::Check> checksOf(const google::protobuf::Message *request);

// OK when the call may proceed; else UNAUTHORIZED naming why. `plain` (aclEnable) and `gate`
// (ACL 2.0 when its store is set) may be null.
v2::Status checkAccess(acl::PlainAccessValidator *plain, const acl::AccessGate *gate,
                       const ::grpc::CallbackServerContext *context, const google::protobuf::Message *request);

} // namespace mqdesk::grpc
