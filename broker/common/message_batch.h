#pragma once

// The body of SEND_BATCH_MESSAGE (RocketMQ's MessageDecoder.encodeMessages): for each message
// TOTALSIZE int32, MAGICCODE int32, BODYCRC int32, FLAG int32, BODYLEN int32, BODY,
// PROPERTIESLEN int16, PROPERTIES — the whole body exactly filled. Decoded by the broker only;
// the client writes it in broker/client.

#include "broker/common/message.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace mqdesk::common {

// At most this many messages in one batch: far above what a 4 MiB batch of real messages holds,
// and a bound on the records one request can make the store write.
inline constexpr size_t kMaxBatchMessages = 65536;

// Decodes every message of `body` into `out` (body, flag and properties; the rest is the
// request's). Linear in the body. On failure returns false with `error` naming the message and
// its byte offset; `out` then holds the messages before it.
bool decodeMessageBatch(std::span<const uint8_t> body, std::vector<BrokerMessage> &out, std::string &error);

} // namespace mqdesk::common
