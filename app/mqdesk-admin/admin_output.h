#pragma once

// Output shared by the network commands: messages as mqadmin prints them and as JSON, and the
// time formats mqadmin accepts. Tables and JSON lines come from store_output.h.

#include "app/mqdesk-admin/store_output.h"
#include "broker/common/message.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace mqdesk::admin {

// The offset message id of a stored message (store host ‖ commit-log offset).
std::string offsetMsgIdOf(const common::StoredMessage &message);
// The id mqadmin shows as "Message ID": the producer's UNIQ_KEY, else the offset id.
std::string msgIdOf(const common::StoredMessage &message);

// Every field of a message; the body as `body` (valid UTF-8) or `bodyBase64`.
common::JsonObject messageToJson(const common::StoredMessage &message);
// mqadmin's queryMsgById layout: "OffsetID: …", "Topic: …", … "Message Body: …".
void printMessage(std::ostream &out, const common::StoredMessage &message);

// Milliseconds since the epoch, "now", mqadmin's "yyyy-MM-dd#HH:mm:ss:SSS" or
// "yyyy-MM-dd HH:mm:ss[.SSS]" as MQDesk prints times (both local time).
std::optional<int64_t> parseTimestamp(std::string_view text);
// The first of a "*Tps" runtime value's three numbers ("12.5 10.1 3.0" → "12.5").
std::string firstNumber(std::string_view text);

} // namespace mqdesk::admin
