#pragma once

// The two header encodings of a remoting frame (remoting spec §1.3, §1.4, Appendix C). Framing
// lives in remoting_codec.h; these functions see only the header bytes.
//
// Every function that can fail returns an error text naming the fault, empty on success.

#include "broker/remoting/remoting_command.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace mqdesk::remoting {

// The most extFields entries a header may carry, in either encoding. Real requests carry a few
// dozen; the bound keeps one frame from making the io thread build millions of strings.
inline constexpr size_t kMaxExtFieldsEntries = 4096;

// Java's fastjson output for RemotingCommand, byte for byte: members in name order (code,
// extFields, flag, language, opaque, remark, serializeTypeCurrentRPC, version), no blanks,
// extFields as an object of strings in the map's own order and omitted when empty, remark
// omitted when absent, language as its name (OTHER for a byte without a name),
// serializeTypeCurrentRPC always "JSON". Non-ASCII text is written as raw UTF-8 and controls
// as \uXXXX, as fastjson does; the result is strict JSON when the strings are valid UTF-8.
std::string encodeJsonHeader(const RemotingCommand &command);

// Reads a JSON header into the header fields of `command` (code, language, version, opaque,
// flag, remark, extFields); the caller sets serializeType and body. Lenient as real clients
// need (§1.3): any key order, unknown keys ignored, fastjson's dialect, extFields values that
// are numbers or booleans kept as their text, null or absent remark/extFields, unknown
// language names (read as Other). Integers written as decimal strings are accepted, as
// fastjson does. `code` is required; missing language, version, opaque and flag take Java's
// defaults (JAVA, 0, 0, 0). An extFields member whose value is null is dropped.
std::string decodeJsonHeader(std::span<const uint8_t> header, RemotingCommand &command);

// The ROCKETMQ binary header (§1.4), appended to `out`. Fails when a value does not fit its
// field: code or version beyond int16, an extFields key longer than 32767 bytes. Entries are
// written in the map's order, empty values included (with length 0, as Java writes them).
std::string encodeRocketMqHeader(const RemotingCommand &command, std::vector<uint8_t> &out);

// Reads a binary header into the header fields of `command`. Strict: the header must end
// exactly where the extFields area ends, and no length may be negative or run past its area.
// As Java's reader turns zero-length strings into null, a zero remark length reads as no
// remark and entries with an empty key or value are dropped; a repeated key keeps its last
// value.
std::string decodeRocketMqHeader(std::span<const uint8_t> header, RemotingCommand &command);

} // namespace mqdesk::remoting
